"""The shared layout under the rest rule: no team plays in two consecutive
slots (``docs/rules/scheduling-standings-seeding.md``, section 2.1, the
optional rest of ``r = 1`` slot).

Pure: standard library only.  Greedy list scheduling, several seeded runs;
deterministic (the random tie-breaks are seeded by the run number).
"""

from __future__ import annotations

import random

from tournament.engine.scheduling.matches import PlannedMatch, SlotWriter
from tournament.engine.scheduling.measure import measure
from tournament.engine.scheduling.round_robin import Match, group_matches


def plan_shared_rest(groups: list[list[int]], courts: list[int], bound: int) -> list[PlannedMatch]:
    """Shared courts, no team in two consecutive slots.

    In: ``groups`` (team ids in seat order), ``courts`` (court ids), ``bound``
    (the lower bound in slots, to stop early).  Out: the planned games
    (``[]`` without groups).  Raises nothing for valid input (``plan``
    validates it).

    Greedy list scheduling, slot by slot: teams that played in the previous
    slot are blocked; the groups are served most urgent first (the team with
    the most games left — it needs ``2r - 1`` more slots — then the most games
    left in the group, then list order); within a group the games whose two
    teams have the most games left go first (then Berger order), up to
    ``n // 2`` games of the group and ``c`` games in all, no team twice.  An
    empty slot is left only when every remaining game has a blocked team;
    then the next slot blocks nobody, so the loop always ends.

    Several runs are made and the best kept (fewest slots, then the smallest
    wait spread — fair waits —, then run order): run 0 as above, run 1 in
    plain Berger order inside a group, and runs 2, 3, ... as run 0 with ties
    broken by ``random.Random(run)`` (seeded, so the result is still
    deterministic).  The number of extra runs shrinks with the size of the
    event (``6000 // games``, at most 30) to bound the time; the runs stop
    early once one reaches ``bound``.  Games in a row are at most 1 by
    construction (the rule itself); A/B sides are the Berger ones.
    """
    if not groups:
        return []
    total = sum(len(g) * (len(g) - 1) // 2 for g in groups)
    runs = 2 + min(30, 6000 // total)
    best = None
    best_key = None
    for variant in range(runs):
        matches = _greedy_rest(groups, courts, variant)
        slots = max(g.slot for g in matches) + 1
        m = measure(matches)
        key = (slots, m.wait_spread, m.back_to_back, variant)
        if best_key is None or key < best_key:
            best, best_key = matches, key
        if best_key[0] <= bound and variant >= 1:
            break
    assert best is not None
    return best


def _greedy_rest(groups: list[list[int]], courts: list[int], variant: int) -> list[PlannedMatch]:
    """One run of the greedy list scheduler (see :func:`plan_shared_rest`)."""
    c = len(courts)
    rng = random.Random(variant) if variant >= 2 else None
    remaining = [[g for rnd in group_matches(grp) for g in rnd] for grp in groups]
    caps = [len(g) // 2 for g in groups]
    left_team: dict[int, int] = {v: len(grp) - 1 for grp in groups for v in grp}
    last: dict[int, int] = {}
    writer = SlotWriter(courts)

    def tie() -> float:
        return rng.random() if rng is not None else 0.0

    key_of = {gi: (-(len(grp) - 1), -len(remaining[gi]), tie(), gi) for gi, grp in enumerate(groups)}
    active = set(range(len(groups)))
    t = 0
    while active:
        order = sorted(active, key=key_of.__getitem__)
        used: set[int] = set()
        items: list[tuple[int, Match]] = []
        for gi in order:
            if len(items) >= c:
                break
            cands = [
                g
                for g in remaining[gi]
                if last.get(g[2]) != t - 1 and last.get(g[3]) != t - 1 and g[2] not in used and g[3] not in used
            ]
            if not cands:
                continue
            if variant != 1:
                cands.sort(
                    key=lambda g: (-(left_team[g[2]] + left_team[g[3]]), -max(left_team[g[2]], left_team[g[3]]), tie())
                )
            took = 0
            for g in cands:
                if g[2] in used or g[3] in used:
                    continue
                items.append((gi, g))
                used.add(g[2])
                used.add(g[3])
                took += 1
                if took >= caps[gi] or len(items) >= c:
                    break
        played_groups = set()
        for gi, g in items:
            remaining[gi].remove(g)
            for v in (g[2], g[3]):
                left_team[v] -= 1
                last[v] = t
            played_groups.add(gi)
        for gi in sorted(played_groups):
            if not remaining[gi]:
                active.discard(gi)
                continue
            teams = groups[gi]
            key_of[gi] = (-max(left_team[v] for v in teams), -len(remaining[gi]), tie(), gi)
        if items:
            writer.write(t, items)
        t += 1
    return writer.out
