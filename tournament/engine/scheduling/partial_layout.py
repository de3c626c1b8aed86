"""Laying out groups in which every team plays a fixed number of games.

Pure: standard library only, deterministic.  Called by ``layouts.plan`` (which
has checked the input) when a division sets its games per team; the games of
a group are those of :func:`~tournament.engine.scheduling.partial.partial_rounds`
(``docs/rules/scheduling-standings-seeding.md``, section 1.5).
"""

from __future__ import annotations

import heapq
import random

from tournament.engine.scheduling.matches import Plan, PlannedMatch, SlotWriter
from tournament.engine.scheduling.measure import measure
from tournament.engine.scheduling.partial import partial_lower_bound, partial_rounds
from tournament.engine.scheduling.round_robin import Match

#: Seeded runs of the shared layout (run 0 and 1 are plain, the others break ties at random).
_SHARED_RUNS = 8


def group_partial_matches(group: list[int], k: int) -> list[Match]:
    """The games of one group, ``k`` per team, as ``(round, board, team_a, team_b)`` in round order."""
    return [
        (ri, bi, group[a - 1], group[b - 1])
        for ri, rnd in enumerate(partial_rounds(len(group), k))
        for bi, (a, b) in enumerate(rnd)
    ]


def plan_partial(groups: list[list[int]], courts: list[int], layout: str, k: int, *, rest: bool) -> Plan:
    """Lay out groups whose teams play ``k`` games each; see ``layouts.plan`` for the layouts.

    In: ``groups`` (team ids in seat order), ``courts`` (court ids), ``layout``
    (one of ``layouts.LAYOUTS``), ``k`` games per team, ``rest`` (no team in two
    consecutive slots).  Out: a :class:`Plan` with ``games_per_team = k``.
    Raises :class:`~tournament.engine.scheduling.partial.PartialRoundRobinError`
    when a group cannot play ``k`` games per team (the first such group).

    * pinned layouts (``"one_group_per_court"``, ``"several_groups_per_court"``):
      each group on one court, one game after the other (:func:`_court_order`);
      with more groups than courts, ``"several_groups_per_court"`` deals the
      groups to the least loaded court, ``"one_group_per_court"`` in turn;
    * ``"shared"``: a list scheduler fills every court slot by slot
      (:func:`_shared`), best of several seeded runs.

    With ``rest`` no team ever plays in two consecutive slots (an idle slot is
    left when nothing else can be played); without it a game whose teams did
    not just play is still preferred, so teams rest between games where the
    courts allow.  Sides are those of ``partial_rounds`` (``|A - B| <= 1``).
    """
    matches_of = [group_partial_matches(group, k) for group in groups]
    c = len(courts)
    if layout == "shared":
        matches = _shared(matches_of, courts, rest)
    else:
        loads = [len(m) for m in matches_of]
        if layout == "several_groups_per_court" and len(groups) > c:
            court_of = _deal_by_load(loads, c)
        else:
            court_of = [gi % c for gi in range(len(groups))]
        matches = _pinned(matches_of, courts, court_of, rest)
    position = {court: i for i, court in enumerate(courts)}
    matches.sort(key=lambda g: (g.slot, position[g.court]))
    return Plan(
        matches=matches,
        slots=matches[-1].slot + 1 if matches else 0,
        lower_bound=partial_lower_bound([len(g) for g in groups], k, c, rest),
        layout=layout,
        rest=bool(rest),
        groups=tuple(tuple(g) for g in groups),
        courts=tuple(courts),
        games_per_team=k,
    )


def _deal_by_load(loads: list[int], c: int) -> list[int]:
    """Court position of each group: most games first to the least loaded court, ties to the earlier."""
    heap = [(0, ci) for ci in range(c)]
    court_of = [0] * len(loads)
    for gi in sorted(range(len(loads)), key=lambda gi: (-loads[gi], gi)):
        load, ci = heapq.heappop(heap)
        court_of[gi] = ci
        heapq.heappush(heap, (load + loads[gi], ci))
    return court_of


def _court_order(matches: list[Match], rest: bool) -> list[Match | None]:
    """The games of one group on one court, ``None`` for an idle slot.

    At each step, among the games left whose teams did not play the game just
    before: a game of the earliest round left first, then the game whose teams
    have waited longest (the shorter wait of its two teams; a team that has
    not played yet has waited longest), then round order.  When no game
    qualifies: with ``rest`` an idle slot, without it the same choice among
    all games left.  This keeps each team's waits close to even.
    """
    left = list(matches)
    out: list[Match | None] = []
    previous: set[int] = set()
    last: dict[int, int] = {}
    while left:
        t = len(out)
        first_round = min(g[0] for g in left)
        candidates = [g for g in left if g[2] not in previous and g[3] not in previous]
        if not candidates and rest:
            out.append(None)
            previous = set()
            continue

        def key(g: Match, t: int = t, first_round: int = first_round) -> tuple[bool, int]:
            wait = min(t - last[v] if v in last else t + 1 for v in (g[2], g[3]))
            return (g[0] != first_round, -wait)

        pick = min(candidates or left, key=key)  # min keeps the first of equals: round order
        left.remove(pick)
        out.append(pick)
        previous = {pick[2], pick[3]}
        last.update(dict.fromkeys(previous, t))
    return out


def _pinned(matches_of: list[list[Match]], courts: list[int], court_of: list[int], rest: bool) -> list[PlannedMatch]:
    """Each group on ``courts[court_of[gi]]``, the groups of a court one after the other."""
    next_slot = [0] * len(courts)
    out: list[PlannedMatch] = []
    for gi, matches in enumerate(matches_of):
        ci = court_of[gi]
        for item in _court_order(matches, rest):
            if item is not None:
                ri, _, a, b = item
                out.append(PlannedMatch(slot=next_slot[ci], court=courts[ci], group=gi, round=ri, team_a=a, team_b=b))
            next_slot[ci] += 1
    return out


def _shared(matches_of: list[list[Match]], courts: list[int], rest: bool) -> list[PlannedMatch]:
    """The best of :data:`_SHARED_RUNS` runs of :func:`_shared_run`: fewest slots, then
    fewest games in a row, back-to-backs and wait spread, then run order."""
    best: list[PlannedMatch] = []
    best_key = None
    for run in range(_SHARED_RUNS if any(matches_of) else 0):
        matches = _shared_run(matches_of, courts, rest, run)
        m = measure(matches)
        key = (max(g.slot for g in matches) + 1, m.max_streak, m.back_to_back, m.wait_spread, run)
        if best_key is None or key < best_key:
            best, best_key = matches, key
    return best


def _shared_run(matches_of: list[list[Match]], courts: list[int], rest: bool, run: int) -> list[PlannedMatch]:
    """Slot by slot, fill the courts with games whose teams are free.

    Games are tried earliest round first (run 0) or most games left for the
    two teams first (run 1; ties at random from run 2 on, seeded by the run);
    a game whose team played in the slot before is blocked with ``rest`` and
    only taken once nothing else fits without it.
    """
    rng = random.Random(run) if run >= 2 else None
    left = [(gi, g) for gi, matches in enumerate(matches_of) for g in matches]
    games_left: dict[int, int] = {}
    for _, g in left:
        for v in (g[2], g[3]):
            games_left[v] = games_left.get(v, 0) + 1
    writer = SlotWriter(courts)
    previous: set[int] = set()
    t = 0
    while left:
        if run == 0:
            order = left
        else:
            tie = {id(item): rng.random() if rng else 0.0 for item in left}
            order = sorted(left, key=lambda it: (-(games_left[it[1][2]] + games_left[it[1][3]]), tie[id(it)]))
        items = _fill_slot(order, previous, len(courts), rest)
        for item in items:
            left.remove(item)
            for v in (item[1][2], item[1][3]):
                games_left[v] -= 1
        if items:
            writer.write(t, items)
        previous = {v for _, g in items for v in (g[2], g[3])}
        t += 1
    return writer.out


def _fill_slot(order: list[tuple[int, Match]], previous: set[int], c: int, rest: bool) -> list[tuple[int, Match]]:
    """Up to ``c`` games of ``order`` with no team twice, rested teams first; with ``rest`` only those."""
    items: list[tuple[int, Match]] = []
    used: set[int] = set()
    passes = (True,) if rest else (True, False)
    for rested_only in passes:
        for item in order:
            if len(items) >= c:
                return items
            a, b = item[1][2], item[1][3]
            if a in used or b in used or (rested_only and (a in previous or b in previous)):
                continue
            items.append(item)
            used.update((a, b))
    return items
