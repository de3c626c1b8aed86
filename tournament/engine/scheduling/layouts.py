"""Laying a division's groups out on courts x slots: ``plan`` and its three
layouts, the pinned layouts (a group plays on one court), and A/B sides.

Pure: standard library only, deterministic.  It receives plain ints (team
ids in seat order, court ids) and returns a :class:`Plan`; the caller maps
the ids back to rows and saves them.
"""

from __future__ import annotations

import heapq
from collections import Counter
from functools import lru_cache

from tournament.engine.scheduling.bound import lower_bound
from tournament.engine.scheduling.matches import Plan, PlannedMatch
from tournament.engine.scheduling.measure import measure
from tournament.engine.scheduling.partial_layout import plan_partial
from tournament.engine.scheduling.rest import plan_shared_rest
from tournament.engine.scheduling.round_robin import berger_table
from tournament.engine.scheduling.shared import plan_shared

#: The layouts understood by :func:`plan`.
LAYOUTS = ("one_group_per_court", "shared", "several_groups_per_court")

# A game of a group on one court: (round, seat_a, seat_b), or None for an idle slot.
_CourtItem = tuple[int, int, int] | None


def _validate(groups: list[list[int]], courts: list[int]) -> None:
    if not courts:
        raise ValueError("at least one court is needed")
    if len(set(courts)) != len(courts):
        raise ValueError(f"court ids must be distinct: {list(courts)!r}")
    seen: set[int] = set()
    for gi, group in enumerate(groups):
        if len(group) < 2:
            raise ValueError(f"group {gi} has {len(group)} team(s); a group needs at least 2")
        for team in group:
            if team in seen:
                raise ValueError(f"team {team!r} appears more than once in the groups")
            seen.add(team)


def plan(
    groups: list[list[int]],
    courts: list[int],
    layout: str,
    *,
    rest: bool = False,
    games_per_team: int | None = None,
) -> Plan:
    """Lay the games of ``groups`` out on ``courts`` x slots.

    In: ``groups[i]`` lists team ids in seat order (seat 1 first, the Berger
    seat); ``courts`` lists court ids, in the order used for ties (the first
    court gets the first game of a slot); ``layout`` is one of
    :data:`LAYOUTS`; ``rest=True`` forbids a team to play in two consecutive
    slots (``docs/rules/scheduling-standings-seeding.md``, section 2.1).
    Out: a :class:`Plan` (slots are 0-based; a slot is one game plus one
    changeover).  Raises ``ValueError`` for an unknown layout, no court, a
    repeated court id, a group of fewer than 2 teams, or a team in two
    groups.  ``games_per_team`` (None = the full round robin) makes every
    team play that many games instead, laid out by
    ``partial_layout.plan_partial`` (section 1.5); it raises
    ``PartialRoundRobinError`` (a ``ValueError``) when a group cannot.

    Layouts (section 2.4 of the same page compares them):

    ``"one_group_per_court"``
        The official Hitachi format (``docs/rules/hitachi-karuta.md``,
        "Teams and the court").  Group ``i`` plays on
        ``courts[i % len(courts)]``; groups dealt to the same court play one
        after the other, in list order; extra courts stay idle.  Without rest
        a court plays its group in Berger round and board order.  With rest a
        court inserts the idle slots the rule needs: a 3-team group takes 5
        slots, a 4-team group 8 (section 2.3, unavoidable on one court); from
        5 teams on the boards of a round are reordered so that no idle slot
        is needed.
    ``"several_groups_per_court"``
        Same as ``"one_group_per_court"`` while there are at most as many
        groups as courts.  With more groups than courts the groups are dealt
        to balance the courts' loads (largest group first onto the court with
        the fewest games so far, ties to the earlier court), then each court
        plays its groups one after the other in list order, as above.
    ``"shared"``
        All groups share all courts; games of all groups are interleaved.
        Without rest the plan always uses exactly ``lower_bound`` slots
        (sections 2.2 and 2.4).  With rest a greedy list scheduler (several
        seeded runs, ``plan_shared_rest``) makes a valid plan; it may need
        more slots than the bound (it reaches the exact optimum in every row
        of section 2.4).

    Secondary aims, in this order, used only as tie-breakers once the number
    of slots is fixed (section 2.1, soft objectives 2, 4-5 and 6; measured
    by ``report``):

    1. fewest games in a row for any team: in ``"shared"`` without rest each
       group picks, slot by slot, the matching that extends the fewest runs,
       then ``improve`` moves games between slots to break long runs;
       when the rest bound equals the plain bound, the rest planner is also
       run and its plan kept if it reaches the bound and is better on these
       aims; with rest no team ever plays two slots in a row, in any layout;
    2. fair waits: ``"shared"`` prefers the teams that have waited longest
       and ``improve`` evens out each team's idle runs; with rest the
       run with the smallest wait spread wins among those with fewest slots;
    3. A/B sides: the Berger sides are kept, which gives every team
       ``|A - B| <= 1`` (section 1.4); a last pass (:func:`balance_sides`)
       swaps the sides of a game whenever that makes a team's counts more
       even.

    The pinned layouts keep the official order on each court (Berger rounds
    and boards, reproducible by hand); only the rest rule reorders boards.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {LAYOUTS}")
    _validate(groups, courts)
    if games_per_team is not None:
        return plan_partial(groups, courts, layout, games_per_team, rest=rest)
    courts = list(courts)
    c = len(courts)
    sizes = [len(g) for g in groups]
    bound = lower_bound(sizes, c, rest) if groups else 0

    if layout == "shared":
        matches = plan_shared_rest(groups, courts, bound) if rest else _plan_shared_best(groups, courts, bound)
    else:
        if layout == "several_groups_per_court" and len(groups) > c:
            court_of = _deal_by_load(sizes, c)
        else:
            court_of = [gi % c for gi in range(len(groups))]
        matches = _plan_pinned(groups, courts, court_of, rest)

    matches = balance_sides(matches)
    position = {court: i for i, court in enumerate(courts)}
    matches.sort(key=lambda g: (g.slot, position[g.court]))
    slots = matches[-1].slot + 1 if matches else 0
    return Plan(
        matches=matches,
        slots=slots,
        lower_bound=bound,
        layout=layout,
        rest=bool(rest),
        groups=tuple(tuple(g) for g in groups),
        courts=tuple(courts),
    )


def _plan_shared_best(groups: list[list[int]], courts: list[int], bound: int) -> list[PlannedMatch]:
    """The shared layout without rest, at ``bound`` slots.

    When the rest rule costs no slot, a rest schedule that reaches the bound
    is also a valid plan here, with no team ever playing two games in a row:
    keep whichever is better on the secondary aims (games in a row,
    back-to-backs, wait spread).
    """
    matches = plan_shared(groups, courts, bound)
    if matches and lower_bound([len(g) for g in groups], len(courts), True) == bound:
        rested = plan_shared_rest(groups, courts, bound)
        if max(g.slot for g in rested) + 1 == bound and measure(rested)[:3] < measure(matches)[:3]:
            matches = rested
    return matches


# --------------------------------------------------------------------------
# Pinned layouts: a group plays on one court
# --------------------------------------------------------------------------


def _deal_by_load(sizes: list[int], c: int) -> list[int]:
    """Court position of each group: largest group first to the least loaded
    court (load = games already dealt), ties to the earlier court."""
    order = sorted(range(len(sizes)), key=lambda gi: (-sizes[gi], gi))
    heap = [(0, ci) for ci in range(c)]
    court_of = [0] * len(sizes)
    for gi in order:
        load, ci = heapq.heappop(heap)
        court_of[gi] = ci
        heapq.heappush(heap, (load + sizes[gi] * (sizes[gi] - 1) // 2, ci))
    return court_of


def _rounds_with_rest(table: tuple[tuple[tuple[int, int], ...], ...]) -> tuple[_CourtItem, ...]:
    """Rounds in Berger order; in each round the first board (in board order)
    that shares no team with the previous game is played first, the others
    follow in board order.  For ``n >= 6`` a round has ``n // 2 >= 3`` boards
    and the previous game touches at most 2, so no idle slot is needed."""
    out: list[tuple[int, int, int]] = []
    for ri, rnd in enumerate(table):
        boards = list(rnd)
        if out:
            prev = {out[-1][1], out[-1][2]}
            first = next(i for i, (a, b) in enumerate(boards) if a not in prev and b not in prev)
            boards.insert(0, boards.pop(first))
        out.extend((ri, a, b) for a, b in boards)
    return tuple(out)


def _order_without_idle(seq: list[tuple[int, int, int]]) -> list[int] | None:
    """Indexes of ``seq`` in an order where two consecutive games share no
    team (depth-first, preferring the given order), or None if there is none."""
    used = [False] * len(seq)
    path: list[int] = []

    def dfs() -> bool:
        if len(path) == len(seq):
            return True
        prev = None if not path else seq[path[-1]]
        for i, g in enumerate(seq):
            if used[i]:
                continue
            if prev is not None and {prev[1], prev[2]} & {g[1], g[2]}:
                continue
            used[i] = True
            path.append(i)
            if dfs():
                return True
            path.pop()
            used[i] = False
        return False

    return path if dfs() else None


def _first_fit_with_idle(seq: list[tuple[int, int, int]]) -> tuple[_CourtItem, ...]:
    """First fit: the first game sharing no team with the previous one, or an idle slot."""
    out: list[_CourtItem] = []
    left = list(seq)
    prev_teams: set[int] = set()
    while left:
        pick = next((g for g in left if g[1] not in prev_teams and g[2] not in prev_teams), None)
        if pick is None:
            out.append(None)
            prev_teams = set()
            continue
        left.remove(pick)
        out.append(pick)
        prev_teams = {pick[1], pick[2]}
    return tuple(out)


@lru_cache(maxsize=64)
def _one_court_order(n: int, rest: bool) -> tuple[_CourtItem, ...]:
    """Order of the games of an ``n``-team group played on one court.

    Items are ``(round, seat_a, seat_b)``, or ``None`` for an idle slot.
    Without rest: Berger round order, board order.  With rest two consecutive
    games must share no team:

    * ``n >= 6``: :func:`_rounds_with_rest`, no idle slot.
    * ``n <= 5``: a depth-first search for an order without idle slots,
      preferring Berger order (it exists for ``n = 2, 5``: the Petersen graph
      has a Hamiltonian path); else (``n = 3, 4``) first fit with idle slots,
      which gives the proven minima 5 and 8
      (``docs/rules/scheduling-standings-seeding.md``, section 2.3).
    """
    table = berger_table(n)
    seq = [(ri, a, b) for ri, rnd in enumerate(table) for a, b in rnd]
    if not rest:
        return tuple(seq)
    if n >= 6:
        return _rounds_with_rest(table)
    path = _order_without_idle(seq)
    if path is not None:
        return tuple(seq[i] for i in path)
    return _first_fit_with_idle(seq)


def _plan_pinned(groups: list[list[int]], courts: list[int], court_of: list[int], rest: bool) -> list[PlannedMatch]:
    """Each group on its court ``courts[court_of[gi]]``, the groups of a court one after the other."""
    next_slot = [0] * len(courts)
    matches: list[PlannedMatch] = []
    for gi, group in enumerate(groups):
        ci = court_of[gi]
        for item in _one_court_order(len(group), bool(rest)):
            if item is not None:
                ri, a, b = item
                matches.append(
                    PlannedMatch(
                        slot=next_slot[ci],
                        court=courts[ci],
                        group=gi,
                        round=ri,
                        team_a=group[a - 1],
                        team_b=group[b - 1],
                    )
                )
            next_slot[ci] += 1
    return matches


# --------------------------------------------------------------------------
# A/B sides
# --------------------------------------------------------------------------


def balance_sides(matches: list[PlannedMatch]) -> list[PlannedMatch]:
    """Swap the sides of a game while that makes A/B counts more even.

    In: planned games; out: a new list, the same games with some sides
    swapped.  Raises nothing.

    With ``d = A - B`` per team, swapping a game where ``a`` is on side A
    changes ``d_a`` by -2 and ``d_b`` by +2, which lowers ``sum d²`` exactly
    when ``d_a - d_b >= 3``; swaps are made in game order until none
    applies (``sum d²`` falls each time, so it ends).  Berger sides already
    give ``|d| <= 1`` (``docs/rules/scheduling-standings-seeding.md``,
    section 1.4), so on a complete round robin this returns the games
    unchanged.
    """
    d: Counter[int] = Counter()
    for g in matches:
        d[g.team_a] += 1
        d[g.team_b] -= 1
    if all(abs(v) <= 1 for v in d.values()):
        return list(matches)
    out = list(matches)
    changed = True
    while changed:
        changed = False
        for i, g in enumerate(out):
            if d[g.team_a] - d[g.team_b] >= 3:
                d[g.team_a] -= 2
                d[g.team_b] += 2
                out[i] = PlannedMatch(
                    slot=g.slot, court=g.court, group=g.group, round=g.round, team_a=g.team_b, team_b=g.team_a
                )
                changed = True
    return out
