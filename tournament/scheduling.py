"""Round robins, packing group games onto courts x time slots, and the clock.

Responsibility
--------------
* ``berger_rounds`` builds a single round robin for seats ``1..n`` that
  reproduces the FIDE Berger tables (FIDE Handbook C.05 Annex 1) exactly,
  board order and sides included.  For an odd ``n`` the dummy seat ``n + 1``
  is the bye; its games are dropped, so a bye is never stored as a game.
* ``plan_groups_on_courts`` lays the groups (leagues) of one division out on
  courts in the official Hitachi format, "one group per court": a court plays
  one game at a time, in Berger round order and board order, so no team can
  ever be in two games at once.
* ``slot_start`` turns a slot index into a wall-clock start time.
* ``check_schedule`` lists what is wrong with a planned schedule (double
  bookings, missing or repeated pairs, games across groups).

What it must not do
-------------------
This module is pure: standard library only, no Django import, no database
access, no I/O.  It receives plain ints (seat numbers, team ids, court ids)
and returns plain values; the caller maps them to model instances and saves
them.  Every function is deterministic: the same input always gives the same
output, in the same order.
"""

from __future__ import annotations

import datetime
from collections import Counter
from dataclasses import dataclass

__all__ = [
    "PlannedGame",
    "berger_rounds",
    "check_schedule",
    "plan_groups_on_courts",
    "slot_start",
]


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Return the FIDE Berger round robin for seats ``1..n``.

    The result is a list of rounds; each round is a list of ``(a, b)`` games
    in board order, ``a`` on side A (White in the FIDE tables), ``b`` on
    side B.  There are ``n - 1`` rounds for an even ``n`` and ``n`` rounds for
    an odd ``n``; every round has ``n // 2`` games.

    For an odd ``n`` the table for ``n + 1`` is used and seat ``n + 1`` is the
    bye ("the highest number counts as a bye"): its game is removed from the
    round, the other boards keep their order.

    Construction ("add n/2" rule, reference §1.3 (a)), with ``m`` the even
    table size:

    1. round 1: board ``b`` is ``b - (m + 1 - b)`` for ``b = 1..m/2``;
    2. each following round keeps every board in place and replaces every
       seat ``x != m`` by ``((x - 1 + m/2) mod (m - 1)) + 1``;
    3. on the board that holds seat ``m`` the two sides are swapped.
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 seats, got {n}")

    m = n if n % 2 == 0 else n + 1
    half = m // 2

    def advance(x: int) -> int:
        return x if x == m else ((x - 1 + half) % (m - 1)) + 1

    current = [(b, m + 1 - b) for b in range(1, half + 1)]
    table = [current]
    for _ in range(m - 2):
        nxt = []
        for a, b in current:
            a, b = advance(a), advance(b)
            if m in (a, b):
                a, b = b, a
            nxt.append((a, b))
        table.append(nxt)
        current = nxt

    if m == n:
        return [list(rnd) for rnd in table]
    bye = m
    return [[g for g in rnd if bye not in g] for rnd in table]


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan.  ``slot`` and ``round`` are 0-based.

    ``slot`` is the index of the game on its court (the court plays its
    games one after the other); ``group`` is the index into the ``groups``
    list given to :func:`plan_groups_on_courts`; ``round`` is the Berger
    round within that group; ``team_a`` is side A, ``team_b`` side B.
    """

    slot: int
    court: int
    group: int
    round: int
    team_a: int
    team_b: int


def plan_groups_on_courts(
    groups: list[list[int]], courts: list[int]
) -> list[PlannedGame]:
    """Lay groups out on courts, one group per court (official Hitachi format).

    ``groups[i]`` lists team ids in seat order (seat 1 first); ``courts``
    lists court ids.  Group ``i`` plays on ``courts[i % len(courts)]``: with
    at most as many groups as courts each group has a court of its own (extra
    courts stay idle); with more groups than courts the groups are dealt to
    the courts in turn and the groups sharing a court play one after the
    other, in the order of ``groups``.

    On a court the games are played one at a time, in Berger round order and
    board order within a round; ``slot`` is the index of the game on its
    court, counted after the games of the previous groups on that court.  So
    on each court the slots are ``0..k-1`` without gaps, and no team can be
    in two games in the same slot.

    Returns the games sorted by (slot, court position, ...), i.e. in the
    order they start.  Raises ``ValueError`` when there is no court, a court
    id is repeated, a group has fewer than 2 teams, or a team id appears
    twice.
    """
    if not courts:
        raise ValueError("at least one court is needed")
    if len(set(courts)) != len(courts):
        raise ValueError(f"court ids must be distinct: {list(courts)!r}")
    seen: set[int] = set()
    for gi, group in enumerate(groups):
        if len(group) < 2:
            raise ValueError(
                f"group {gi} has {len(group)} team(s); a group needs at least 2"
            )
        for team in group:
            if team in seen:
                raise ValueError(f"team {team!r} appears more than once in the groups")
            seen.add(team)

    next_slot = [0] * len(courts)
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    planned: list[tuple[int, PlannedGame]] = []
    for gi, group in enumerate(groups):
        ci = gi % len(courts)
        court = courts[ci]
        if len(group) not in tables:
            tables[len(group)] = berger_rounds(len(group))
        for ri, rnd in enumerate(tables[len(group)]):
            for seat_a, seat_b in rnd:
                game = PlannedGame(
                    slot=next_slot[ci],
                    court=court,
                    group=gi,
                    round=ri,
                    team_a=group[seat_a - 1],
                    team_b=group[seat_b - 1],
                )
                planned.append((ci, game))
                next_slot[ci] += 1

    planned.sort(key=lambda item: (item[1].slot, item[0]))
    return [game for _, game in planned]


def slot_start(
    event_start: datetime.datetime,
    slot: int,
    game_minutes: int,
    changeover_minutes: int,
) -> datetime.datetime:
    """Start time of ``slot``: ``event_start + slot * (game + changeover)`` minutes.

    Raises ``ValueError`` for a negative slot, game length or changeover.
    """
    for name, value in (
        ("slot", slot),
        ("game_minutes", game_minutes),
        ("changeover_minutes", changeover_minutes),
    ):
        if value < 0:
            raise ValueError(f"{name} must not be negative, got {value}")
    return event_start + datetime.timedelta(
        minutes=slot * (game_minutes + changeover_minutes)
    )


def check_schedule(games: list[PlannedGame], groups: list[list[int]]) -> list[str]:
    """Return the problems of a schedule as English sentences; ``[]`` = fine.

    Checks:

    * a team in two games in one slot;
    * a court with two games in one slot;
    * a team playing itself, or a team that is in no group;
    * a game between teams of different groups;
    * a pair of teams of one group that does not meet exactly once
      (missing or repeated; A/B order does not matter).
    """
    problems: list[str] = []

    group_of: dict[int, int] = {}
    for gi, group in enumerate(groups):
        for team in group:
            if team in group_of and group_of[team] != gi:
                problems.append(
                    f"team {team} is listed in groups {group_of[team]} and {gi}"
                )
            group_of.setdefault(team, gi)

    team_slots: dict[tuple[int, int], int] = Counter()
    court_slots: dict[tuple[int, int], int] = Counter()
    for g in games:
        team_slots[(g.slot, g.team_a)] += 1
        if g.team_b != g.team_a:
            team_slots[(g.slot, g.team_b)] += 1
        court_slots[(g.slot, g.court)] += 1
    for (slot, team), count in sorted(team_slots.items()):
        if count > 1:
            problems.append(f"team {team} plays {count} games in slot {slot}")
    for (slot, court), count in sorted(court_slots.items()):
        if count > 1:
            problems.append(f"court {court} has {count} games in slot {slot}")

    pair_count: dict[tuple[int, int], int] = Counter()
    for g in sorted(games, key=lambda x: (x.slot, x.court)):
        if g.team_a == g.team_b:
            problems.append(f"team {g.team_a} plays itself in slot {g.slot}")
            continue
        unknown = [t for t in (g.team_a, g.team_b) if t not in group_of]
        if unknown:
            for t in unknown:
                problems.append(f"team {t} in slot {g.slot} is not in any group")
            continue
        ga, gb = group_of[g.team_a], group_of[g.team_b]
        if ga != gb:
            problems.append(
                f"game {g.team_a} v {g.team_b} in slot {g.slot} is between "
                f"teams of different groups ({ga} and {gb})"
            )
            continue
        pair_count[(min(g.team_a, g.team_b), max(g.team_a, g.team_b))] += 1

    for gi, group in enumerate(groups):
        members = sorted(set(group))
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                if group_of.get(a) != gi or group_of.get(b) != gi:
                    continue
                count = pair_count.get((a, b), 0)
                if count != 1:
                    problems.append(
                        f"teams {a} and {b} of group {gi} meet {count} times "
                        f"instead of once"
                    )
    return problems
