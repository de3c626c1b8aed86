"""Improvement search on the secondary aims of a shared plan without rest.

Pure: standard library only.  Moves games between slots along alternating
paths, never adding a slot; deterministic (first improvement, fixed orders).
The aims are soft objectives 2 to 5 of
``docs/rules/scheduling-standings-seeding.md``, section 2.1: fewest games in
a row first, then even waits.
"""

from __future__ import annotations

import bisect

from tournament.engine.scheduling.round_robin import Match

# The matching a group plays in one slot, as {team: game} (both teams map to the game).
Matching = dict[int, Match]
# A move (new cost of the team, from slot, to slot).
Move = tuple[int, int, int]


def run_cost(length: int) -> int:
    """Cost of a run of ``length`` games in a row, before the weight: ``4**(L-1) - 1``."""
    return 4 ** (length - 1) - 1 if length > 1 else 0


def team_cost(slots: list[int], weight: int) -> int:
    """Cost of one team's sorted slot list: runs of games in a row first
    (``4**(L-1) - 1`` per run of ``L`` games, times ``weight``, so a run of 3
    costs more than any waits), then the waits (sum of squared idle runs,
    smallest when the waits are equal)."""
    cost = 0
    run = 1
    for s0, s1 in zip(slots, slots[1:], strict=False):
        if s1 == s0 + 1:
            run += 1
        else:
            if run > 1:
                cost += weight * (4 ** (run - 1) - 1)
            run = 1
            cost += (s1 - s0 - 1) ** 2
    if run > 1:
        cost += weight * (4 ** (run - 1) - 1)
    return cost


def _movable(mine: list[int]) -> set[int]:
    """The slots of a team's games worth moving: those in a run of games in a
    row, and the two around the team's shortest wait."""
    movable = set()
    shortest = None
    for a, b in zip(mine, mine[1:], strict=False):
        if b == a + 1:
            movable.update((a, b))
        elif shortest is None or b - a < shortest[1] - shortest[0]:
            shortest = (a, b)
    if shortest is not None:
        movable.update(shortest)
    return movable


def _run_lengths(slots: list[int]) -> tuple[list[int], list[int]]:
    """Length of the run ending at, and of the run starting at, each position."""
    m = len(slots)
    ends = [1] * m
    for i in range(1, m):
        if slots[i] == slots[i - 1] + 1:
            ends[i] = ends[i - 1] + 1
    starts = [1] * m
    for i in range(m - 2, -1, -1):
        if slots[i + 1] == slots[i] + 1:
            starts[i] = starts[i + 1] + 1
    return ends, starts


def _insert_delta(slots: list[int], ends: list[int], starts: list[int], t: int, weight: int) -> int:
    """Change of :func:`team_cost` when a game in the free slot ``t`` is added to ``slots``."""
    m = len(slots)
    i = bisect.bisect_left(slots, t)
    left = ends[i - 1] if i > 0 and slots[i - 1] == t - 1 else 0
    right = starts[i] if i < m and slots[i] == t + 1 else 0
    delta = weight * (run_cost(left + 1 + right) - run_cost(left) - run_cost(right))
    if i > 0:
        delta += (t - slots[i - 1] - 1) ** 2
    if i < m:
        delta += (slots[i] - t - 1) ** 2
    if 0 < i < m:
        delta -= (slots[i] - slots[i - 1] - 1) ** 2
    return delta


def _alternating_path(a_side: Matching, b_side: Matching, v: int) -> tuple[list[Match], list[Match], int, bool]:
    """The path from ``v`` in the union of two matchings of a group.

    Returns the games of the path in ``a_side``, those in ``b_side``, the
    team at the other end, and whether that end's game is in ``a_side``.
    """
    path_a: list[Match] = []
    path_b: list[Match] = []
    cur = v
    while True:
        g = a_side[cur]
        path_a.append(g)
        nxt = g[3] if g[2] == cur else g[2]
        if nxt not in b_side:
            return path_a, path_b, nxt, True
        g2 = b_side[nxt]
        path_b.append(g2)
        cur = g2[3] if g2[2] == nxt else g2[2]
        if cur not in a_side:
            return path_a, path_b, cur, False


def _swap(a_side: Matching, b_side: Matching, path_a: list[Match], path_b: list[Match]) -> None:
    """Exchange the path's games between the two matchings, in place."""
    for g in path_a:
        del a_side[g[2]], a_side[g[3]]
    for g in path_b:
        del b_side[g[2]], b_side[g[3]]
    for g in path_a:
        b_side[g[2]] = b_side[g[3]] = g
    for g in path_b:
        a_side[g[2]] = a_side[g[3]] = g


class _Search:
    """The state of one improvement search (see :func:`improve`)."""

    def __init__(self, at: list[dict[int, Matching]], groups: list[list[int]], c: int, slots: int, budget: int):
        self.at = at
        self.c = c
        self.slots = slots
        self.budget = budget
        self.load = [0] * slots
        self.team_slots: dict[int, list[int]] = {v: [] for grp in groups for v in grp}
        for by_slot in at:
            for t, cls in by_slot.items():
                self.load[t] += len(cls) // 2
                for v in cls:
                    self.team_slots[v].append(t)
        for v in self.team_slots:
            self.team_slots[v].sort()
        self.weight = slots * slots + 1
        self.cost = {v: team_cost(sl, self.weight) for v, sl in self.team_slots.items()}
        self.group_of = {v: gi for gi, grp in enumerate(groups) for v in grp}
        self.window = min(slots, 8)
        self.cache: dict[int, list[Move]] = {}
        self.tries = 0

    def run(self) -> None:
        improved = True
        while improved and self.tries < self.budget:
            improved = self._sweep()

    def _sweep(self) -> bool:
        """One pass over the teams, most costly first; True when a move was made."""
        improved = False
        for v in sorted(self.team_slots, key=lambda u: (-self.cost[u], u)):
            if self.cost[v] == 0:
                break
            if v not in self.cache:
                self.cache[v] = self._candidates(v)
            if self._first_improvement(v):
                improved = True
            if self.tries >= self.budget:
                break
        return improved

    def _candidates(self, v: int) -> list[Move]:
        """Moves (s -> t) that lower v's own cost, best first.  A move that
        helps only the other end of the path is found from that end."""
        mine = self.team_slots[v]
        busy = set(mine)
        out = []
        for s in sorted(_movable(mine)):
            rest_ = [u for u in mine if u != s]
            base = team_cost(rest_, self.weight)
            ends, starts = _run_lengths(rest_)
            for t in range(max(0, s - self.window), min(self.slots - 1, s + self.window) + 1):
                if t in busy:
                    continue
                cv = base + _insert_delta(rest_, ends, starts, t, self.weight)
                if cv < self.cost[v]:
                    out.append((cv, s, t))
        out.sort()
        return out

    def _first_improvement(self, v: int) -> bool:
        """Try v's cached moves in order until one is made (True) or none is left.

        A move that fails now is not retried until v moves again.
        """
        todo = self.cache[v]
        while todo and self.tries < self.budget:
            cv, s, t = todo.pop(0)
            self.tries += 1
            if self._try_move(v, cv, s, t):
                return True
        return False

    def _try_move(self, v: int, cv: int, s: int, t: int) -> bool:
        """Move v's game from slot ``s`` to ``t`` if the two ends of the path gain."""
        by_slot = self.at[self.group_of[v]]
        a_side = by_slot[s]
        path_a, path_b, end, end_in_a = _alternating_path(a_side, by_slot.get(t, {}), v)
        end_from, end_to = (s, t) if end_in_a else (t, s)
        grows = len(path_a) > len(path_b)
        if grows and self.load[t] >= self.c:
            return False
        new_e = sorted([u for u in self.team_slots[end] if u != end_from] + [end_to])
        ce = team_cost(new_e, self.weight)
        if cv + ce >= self.cost[v] + self.cost[end]:
            return False
        _swap(a_side, by_slot.setdefault(t, {}), path_a, path_b)
        if not a_side:
            del by_slot[s]
        if grows:
            self.load[s] -= 1
            self.load[t] += 1
        self.team_slots[v] = sorted([u for u in self.team_slots[v] if u != s] + [t])
        self.team_slots[end] = new_e
        self.cost[v], self.cost[end] = cv, ce
        self.cache.pop(v, None)
        self.cache.pop(end, None)
        return True


def improve(
    at: list[dict[int, Matching]],
    groups: list[list[int]],
    c: int,
    slots: int,
    budget: int = 60000,
) -> None:
    """Local search on the secondary aims, in place; never adds a slot.

    In: ``at[gi][t]``, the matching group ``gi`` plays in slot ``t`` (changed
    in place); ``groups`` (team ids); ``c`` courts; ``slots`` in the plan;
    ``budget``, the most moves tried.  Raises nothing.

    Move: team ``v`` plays in slot ``s`` and is idle in slot ``t``.  In the
    union of its group's matchings at ``s`` and ``t`` (paths and even
    cycles) ``v`` is the end of a path; swapping the path between the two
    slots keeps both matchings valid and moves ``v``'s game to ``t``.  Only
    the two ends of the path change slots (every inner team keeps one game in
    each slot).  A path with one more game from ``s`` makes slot ``t`` one
    game longer, allowed only when ``t`` has a free court.  A move is made
    when it lowers the summed :func:`team_cost` of the two end teams
    (first improvement).
    """
    _Search(at, groups, c, slots, budget).run()
