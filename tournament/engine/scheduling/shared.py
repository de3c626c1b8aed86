"""The shared layout without rest: every group on every court, in exactly
the lower bound of slots.

Pure: standard library only.  The construction follows the equitable
edge-colouring result quoted in ``docs/rules/scheduling-standings-seeding.md``,
section 2.2: without rest the bound is always reached.
"""

from __future__ import annotations

import heapq
from collections import defaultdict

from tournament.engine.scheduling.improve import Matching, improve
from tournament.engine.scheduling.matches import PlannedMatch, SlotWriter
from tournament.engine.scheduling.round_robin import Match, group_matches

# A matching of a group with its teams: (teams, games).
_Option = tuple[frozenset[int], list[Match]]


def _profile_slot(
    matches: list[int], caps: list[int], c: int, slots: int, t: int, left: list[int], done: list[int]
) -> list[int]:
    """How many games each group plays in slot ``t`` (see :func:`_profile`)."""
    n_groups = len(matches)
    later = slots - t - 1
    y = [max(0, left[i] - caps[i] * later) for i in range(n_groups)]
    free = c - sum(y)
    if free < 0:  # pragma: no cover - excluded by the bound
        raise AssertionError("slot profile infeasible")
    must = max(0, sum(left) - c * later) - sum(y)
    heap = []
    for i in range(n_groups):
        if y[i] < min(caps[i], left[i]):
            lag = matches[i] * (t + 1) - slots * (done[i] + y[i])
            heap.append((-lag, i))
    heapq.heapify(heap)
    while heap and free > 0:
        neg_lag, i = heapq.heappop(heap)
        if must <= 0 and -neg_lag <= 0:
            break
        y[i] += 1
        free -= 1
        must -= 1
        if y[i] < min(caps[i], left[i]):
            heapq.heappush(heap, (neg_lag + slots, i))
    if must > 0:  # pragma: no cover - excluded by the bound
        raise AssertionError("slot profile infeasible")
    return y


def _profile(matches: list[int], caps: list[int], c: int, slots: int) -> list[list[int]]:
    """How many games each group plays in each slot.

    Returns ``x[i][t]`` with ``x[i][t] <= caps[i]``, ``sum_t x[i][t] =
    games[i]`` and ``sum_i x[i][t] <= c``.  Such a table exists whenever
    ``sum games <= c·slots`` and ``games[i] <= caps[i]·slots`` (max-flow
    min-cut: a cut of ``u`` slots and a set ``S`` of groups needs
    ``sum_S games <= c·u + sum_S caps·(slots-u)``, linear in ``u``, so only
    ``u = 0`` and ``u = slots`` matter).

    Slot by slot, with ``L`` slots left, group ``i`` with ``m_i`` games left
    must play ``max(0, m_i - caps_i·(L-1))`` now, and all groups together
    ``max(0, sum m - c·(L-1))``; both keep the rest feasible.  Beyond what
    is forced, a group plays only when it is behind an even pace
    (``games_i·(t+1)/slots``), the group most behind first: this spreads each
    group over the day (fewer games in a row) instead of front-loading it.
    """
    n_groups = len(matches)
    left = list(matches)
    x = [[0] * slots for _ in range(n_groups)]
    done = [0] * n_groups
    for t in range(slots):
        y = _profile_slot(matches, caps, c, slots, t, left, done)
        for i in range(n_groups):
            x[i][t] = y[i]
            left[i] -= y[i]
            done[i] += y[i]
    return x


def _augmenting_path(p_side: Matching, q_side: Matching, q: int) -> list[Match]:
    """A path of the union of two matchings that starts and ends with a game of ``p_side``.

    The start is rotated by the class index ``q`` and its size so that
    successive swaps do not always take the same teams.
    """
    seen: set[int] = set()
    starts = list(p_side)
    shift_by = (2 * (q + len(q_side) // 2)) % len(starts)
    for v in starts[shift_by:] + starts[:shift_by]:
        if v in q_side or v in seen:
            continue
        walk = []
        cur = v
        while True:
            g = p_side[cur]
            walk.append(g)
            nxt = g[3] if g[2] == cur else g[2]
            seen.add(cur)
            seen.add(nxt)
            if nxt not in q_side:
                return walk
            g2 = q_side[nxt]
            walk.append(g2)
            cur = g2[3] if g2[2] == nxt else g2[2]
            if cur not in p_side:
                seen.add(cur)
                break
    raise AssertionError("no augmenting path")  # pragma: no cover - impossible, see _realise


def _realise(rounds: list[list[Match]], targets: list[int]) -> list[list[Match]]:
    """Split a group's games into ``len(targets)`` matchings of the given sizes.

    ``rounds`` are the Berger rounds (each a matching of ``k`` games);
    ``targets`` (any order, zeros ignored) sum to the number of games, each
    ``<= k``, so at least as many are positive as there are rounds.  Returns
    classes (lists of games, no team twice in a class) with sizes
    ``sorted(positive targets, reverse=True)``.

    Method (the constructive side of the equitable edge-colouring result,
    ``docs/rules/scheduling-standings-seeding.md``, section 2.2): the Berger
    rounds get the largest targets, empty classes the others.  While a round
    has more games than its target, take a class that has fewer than its
    target; since its target is not larger, it has fewer games than the
    round, so the union of the two matchings (paths and even cycles) holds a
    path that starts and ends with a game of the round.  Swapping the two
    classes along that path moves one game over and keeps both classes
    matchings.
    """
    tg = sorted((x for x in targets if x > 0), reverse=True)
    classes: list[Matching] = []
    for j in range(len(tg)):
        cls: Matching = {}
        if j < len(rounds):
            for g in rounds[j]:
                cls[g[2]] = g
                cls[g[3]] = g
        classes.append(cls)
    surplus = [j for j in range(len(rounds)) if len(classes[j]) // 2 > tg[j]]
    deficit = list(range(len(rounds), len(tg)))
    while surplus:
        p, q = surplus[-1], deficit[-1]
        p_side, q_side = classes[p], classes[q]
        path = _augmenting_path(p_side, q_side, q)
        from_p = path[0::2]
        from_q = path[1::2]
        for g in from_p:
            del p_side[g[2]], p_side[g[3]]
        for g in from_q:
            del q_side[g[2]], q_side[g[3]]
        for g in from_p:
            q_side[g[2]] = q_side[g[3]] = g
        for g in from_q:
            p_side[g[2]] = p_side[g[3]] = g
        if len(p_side) // 2 == tg[p]:
            surplus.pop()
        if len(q_side) // 2 == tg[q]:
            deficit.pop()
    return [sorted(set(cls.values())) for cls in classes]


def _due(teams: frozenset[int], last: dict[int, int], t: int) -> tuple[int, int]:
    """Sort key preferring the teams that have waited longest: the shortest
    wait among them first (negated), then the total wait (negated)."""
    waits = [t - last.get(v, -1) for v in teams]
    return (-min(waits), -sum(waits))


def _pick(options: list[_Option], previous: set[int], streak: dict[int, int], last: dict[int, int], t: int) -> int:
    """Index of the matching that extends the fewest streaks (see :func:`plan_shared`, step 3)."""
    if len(options) <= 1:
        return 0
    best_key = None
    tied: list[int] = []
    for i, (teams, _) in enumerate(options):
        cont = teams & previous
        key = (max(streak[v] for v in cont), len(cont)) if cont else (0, 0)
        if best_key is None or key < best_key:
            best_key, tied = key, [i]
        elif key == best_key:
            tied.append(i)
    return min(tied[:16], key=lambda i: (_due(options[i][0], last, t), i))


def _buckets(groups: list[list[int]], x: list[list[int]]) -> list[dict[int, list[_Option]]]:
    """``buckets[gi][size]``: the unused matchings of group ``gi`` of that size."""
    buckets: list[dict[int, list[_Option]]] = []
    for gi, group in enumerate(groups):
        by_size: dict[int, list[_Option]] = defaultdict(list)
        for cls in _realise(group_matches(group), x[gi]):
            if cls:
                teams = frozenset(v for g in cls for v in (g[2], g[3]))
                by_size[len(cls)].append((teams, cls))
        buckets.append(by_size)
    return buckets


def _assign(groups: list[list[int]], x: list[list[int]], slots: int) -> list[dict[int, Matching]]:
    """``at[gi][t]``: the matching group ``gi`` plays in slot ``t`` (step 3 of :func:`plan_shared`)."""
    buckets = _buckets(groups, x)
    at: list[dict[int, Matching]] = [{} for _ in groups]
    last: dict[int, int] = {}
    streak: dict[int, int] = {}
    previous: set[int] = set()
    for t in range(slots):
        playing: set[int] = set()
        for gi in range(len(groups)):
            size = x[gi][t]
            if not size:
                continue
            options = buckets[gi][size]
            teams, cls = options.pop(_pick(options, previous, streak, last, t))
            playing |= teams
            at[gi][t] = {v: g for g in cls for v in (g[2], g[3])}
        for v in playing:
            streak[v] = streak[v] + 1 if v in previous else 1
            last[v] = t
        previous = playing
    return at


def plan_shared(groups: list[list[int]], courts: list[int], slots: int) -> list[PlannedMatch]:
    """Shared courts, no rest: exactly ``slots`` (= the lower bound) slots.

    In: ``groups`` (team ids in seat order), ``courts`` (court ids), ``slots``
    (the lower bound).  Out: the planned games (``[]`` without groups).

    1. :func:`_profile` fixes how many games each group plays in each slot;
    2. :func:`_realise` splits each group's games into matchings of exactly
       those sizes (every slot is then valid: at most ``c`` games, no team
       twice);
    3. slot by slot, each group takes, among its unused matchings of the
       needed size, the one that extends the fewest streaks: smallest longest
       streak it would create, then fewest teams continuing a streak, then
       the teams that have waited longest (fair waits), then Berger order;
    4. ``improve`` moves games between slots along alternating paths
       while that shortens runs of games in a row or evens out the waits,
       without adding a slot.
    """
    if not groups:
        return []
    c = len(courts)
    counts = [len(g) * (len(g) - 1) // 2 for g in groups]
    caps = [len(g) // 2 for g in groups]
    x = _profile(counts, caps, c, slots)
    at = _assign(groups, x, slots)
    improve(at, groups, c, slots)

    writer = SlotWriter(courts)
    per_slot: list[list[tuple[int, Match]]] = [[] for _ in range(slots)]
    for gi, by_slot in enumerate(at):
        for t, cls in by_slot.items():
            per_slot[t].extend((gi, g) for g in set(cls.values()))
    for t in range(slots):
        writer.write(t, per_slot[t])
    return writer.out
