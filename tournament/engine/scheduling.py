"""Round robins, packing group games onto courts x time slots, and the clock.

Responsibility
--------------
* ``berger_rounds`` builds a single round robin for seats ``1..n`` that
  reproduces the FIDE Berger tables (FIDE Handbook C.05 Annex 1) exactly,
  board order and sides included.  For an odd ``n`` the dummy seat ``n + 1``
  is the bye; its games are dropped, so a bye is never stored as a game.
* ``plan`` lays the groups (leagues) of one division out on courts x slots in
  one of three layouts (``LAYOUTS``) and returns a :class:`Plan` that also
  carries the lower bound on the number of slots (``lower_bound``).
  ``plan_groups_on_courts`` is the historical entry point for the official
  Hitachi format, "one group per court".
* ``report`` measures a plan against the secondary aims (games in a row,
  waits, A/B sides) and re-runs the checks.
* ``check_schedule`` lists what is wrong with a slot-based schedule;
  ``check_timed`` does the same for games with real start and end minutes.
* ``slot_start`` and :class:`Clock` turn slot indices into start times;
  ``shift`` delays the remaining games of a court.

Terms and units
---------------
A *slot* is one game length plus one changeover on every court; slots are
0-based ints.  Times in :class:`Clock`, :class:`TimedGame`, ``shift`` and
``check_timed`` are whole minutes from midnight.  Section numbers "§" refer to
the team's reference ``scheduling-standings-seeding.md``.

What it must not do
-------------------
This module is pure: standard library only, no Django import, no database
access, no I/O.  It receives plain ints (seat numbers, team ids, court ids)
and returns plain values; the caller maps them to model instances and saves
them.  Every function is deterministic: the same input always gives the same
output, in the same order.
"""

from __future__ import annotations

import bisect
import datetime
import heapq
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

__all__ = [
    "LAYOUTS",
    "Clock",
    "Plan",
    "PlannedGame",
    "ScheduleReport",
    "TimedGame",
    "berger_rounds",
    "check_schedule",
    "check_timed",
    "timed_problems",
    "TimedProblem",
    "lower_bound",
    "plan",
    "plan_groups_on_courts",
    "report",
    "shift",
    "slot_start",
    "timed_games",
]

#: The layouts understood by :func:`plan`.
LAYOUTS = ("one_group_per_court", "shared", "several_groups_per_court")


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


@lru_cache(maxsize=64)
def _berger_cached(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    return tuple(tuple(rnd) for rnd in berger_rounds(n))


@dataclass(frozen=True)
class PlannedGame:
    """One game of the plan.  ``slot`` and ``round`` are 0-based.

    ``slot`` is the time slot of the game; all courts start slot 0 together
    and a slot is one game plus one changeover long, so two games with the
    same ``slot`` are played at the same time.  ``group`` is the index into
    the ``groups`` list given to :func:`plan`; ``round`` is the Berger round
    within that group (the game's round in :func:`berger_rounds`, whatever
    slot it ends up in); ``team_a`` is side A, ``team_b`` side B.
    """

    slot: int
    court: int
    group: int
    round: int
    team_a: int
    team_b: int


# --------------------------------------------------------------------------
# Lower bound (reference §2.2, §2.3)
# --------------------------------------------------------------------------


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def _window_bound(games: int, per_slot: int, per_two_slots: int) -> int:
    """Slots needed for ``games`` games when one slot holds at most
    ``per_slot`` of them and two consecutive slots at most ``per_two_slots``.

    With ``x_t`` the games in slot ``t`` (``t = 1..T``), summing
    ``x_t + x_{t+1} <= K`` over the ``T - 1`` adjacent pairs counts every game
    twice except those of the first and last slot:
    ``2·games - x_1 - x_T <= (T - 1)·K``.  With ``T >= 2``,
    ``x_1 + x_T <= min(2·per_slot, games)``, hence
    ``T >= 1 + ceil((2·games - min(2·per_slot, games)) / K)``.  ``T = 1`` is
    only possible when ``games <= per_slot``.  The classic pairing argument
    (``ceil(T/2)`` windows of two slots) gives ``T >= 2·ceil(games/K) - 1``;
    both are valid, the larger is returned.
    """
    if games <= 0:
        return 0
    if games <= per_slot:
        return 1
    edge = 1 + _ceil_div(2 * games - min(2 * per_slot, games), per_two_slots)
    pairing = 2 * _ceil_div(games, per_two_slots) - 1
    return max(2, edge, pairing)


def lower_bound(group_sizes: list[int], courts: int, rest: bool = False) -> int:
    """Smallest number of slots any schedule of these groups can use.

    ``group_sizes`` lists the number of teams of each group (each >= 2);
    ``courts`` is the number of courts (>= 1) open to all groups.  The bound
    does not depend on the layout, so for the pinned layouts
    ``Plan.gap`` includes the price of pinning (reference §2.4).  Returns a
    number of slots (0 when there is no group).  Raises ``ValueError`` for a
    group of fewer than 2 teams or fewer than 1 court.

    Notation (reference §2.2): group ``i`` has ``n_i`` teams,
    ``M_i = n_i(n_i-1)/2`` games and can play at most ``k_i = n_i // 2``
    games at once; ``c`` courts.  Without rest the bound is the largest of:

    * **court capacity** ``ceil(sum M_i / c)``: one game per court per slot;
    * **rounds** ``n_i - 1`` (even ``n_i``) or ``n_i`` (odd): each team plays
      ``n_i - 1`` games, one per slot; for odd ``n_i`` a slot holds at most
      ``(n_i - 1)/2`` games, so ``M_i / ((n_i-1)/2) = n_i`` slots (the
      chromatic index of ``K_n``);
    * **group capacity** ``ceil(M_i / min(k_i, c))`` (never larger than the
      two above, kept for completeness).

    §2.2 (Bondy & Murty, McDiarmid; §2.4 computed) shows this bound is
    always reached without rest, and the ``"shared"`` layout reaches it.

    With ``rest`` (no team plays in two consecutive slots) these also hold:

    * **per team** ``2(n_i - 1) - 1``: ``n_i - 1`` games with an idle slot
      between any two (§2.2, ``(n-1) + (n-2)·r`` with ``r = 1``);
    * **group window**: two consecutive slots hold at most ``k_i`` games of
      group ``i`` (a team cannot be in both), and one slot at most
      ``min(k_i, c)``; see :func:`_window_bound` for the count; this gives
      5 slots for a 3-team group (§2.3);
    * **global window**: the same for any set ``S`` of groups together, with
      ``min(2c, sum_S k_i)`` games per two slots and ``min(c, sum_S k_i)`` per
      slot (the best ``S`` is found exactly with a small knapsack, so adding
      a group never lowers the bound);
    * **one court, 4 teams**: with a single court a 4-team group needs 8
      slots (§2.3): two of its games in adjacent slots must be disjoint, the
      only disjoint pairs are the 3 complementary pairs, so its 6 games form
      at least 3 runs separated by at least 2 other slots.  This still holds
      when other groups share the court (they only fill the separators).

    With rest the bound can be loose (§2.4: 3 groups of 4 on 3 courts need 7,
    the bound is 6).
    """
    if isinstance(courts, bool) or not isinstance(courts, int):
        raise ValueError(f"courts must be a number of courts (int), got {courts!r}")
    if courts < 1:
        raise ValueError(f"at least one court is needed, got {courts}")
    sizes = list(group_sizes)
    for n in sizes:
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise ValueError(f"a group needs at least 2 teams, got {n!r}")
    if not sizes:
        return 0
    c = courts
    games = [n * (n - 1) // 2 for n in sizes]
    caps = [n // 2 for n in sizes]
    bound = _ceil_div(sum(games), c)
    for n, m, k in zip(sizes, games, caps):
        bound = max(bound, n - 1 if n % 2 == 0 else n, _ceil_div(m, min(k, c)))
    if not rest:
        return bound
    for n, m, k in zip(sizes, games, caps):
        bound = max(bound, 2 * (n - 1) - 1, _window_bound(m, min(k, c), min(k, 2 * c)))
        if c == 1 and n == 4:
            bound = max(bound, 8)
    # Global window over every subset S of the groups (a subset's games alone
    # need that many slots).  For S with sum k = W >= 2c the window allows 2c
    # games per two slots whatever S is, so the full set is the strongest;
    # for W < 2c the bound grows with the games of S, so a knapsack finds the
    # most games for each exact W.
    total_k = sum(caps)
    bound = max(bound, _window_bound(sum(games), min(c, total_k), min(2 * c, total_k)))
    cap = min(2 * c - 1, total_k)
    best = [-1] * (cap + 1)
    best[0] = 0
    for m, k in zip(games, caps):
        for w in range(cap, k - 1, -1):
            if best[w - k] >= 0 and best[w - k] + m > best[w]:
                best[w] = best[w - k] + m
    for w in range(1, cap + 1):
        if best[w] > 0:
            bound = max(bound, _window_bound(best[w], min(c, w), w))
    return bound


# --------------------------------------------------------------------------
# Plan
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """A schedule made by :func:`plan`.

    ``games`` in start order (slot, then the position of the court in the
    ``courts`` list); ``slots`` = slots used (last slot + 1, 0 without
    games); ``lower_bound`` = :func:`lower_bound` for the group sizes, the
    number of courts and ``rest`` (layout-free, so pinning shows up in
    ``gap``); ``layout`` and ``rest`` as requested; ``groups`` and ``courts``
    are copies of the input, kept for :func:`report`.
    """

    games: list[PlannedGame]
    slots: int
    lower_bound: int
    layout: str
    rest: bool
    groups: tuple[tuple[int, ...], ...] = ()
    courts: tuple[int, ...] = ()

    @property
    def gap(self) -> int:
        """Slots above the lower bound (``slots - lower_bound``, >= 0)."""
        return self.slots - self.lower_bound


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
) -> Plan:
    """Lay the games of ``groups`` out on ``courts`` x slots.

    ``groups[i]`` lists team ids in seat order (seat 1 first, the Berger
    seat); ``courts`` lists court ids, in the order used for ties (the first
    court gets the first game of a slot).  ``rest=True`` forbids a team to
    play in two consecutive slots (reference §2.1).

    Layouts (reference §2.4 compares them):

    ``"one_group_per_court"``
        The official Hitachi format and the historical behaviour of
        :func:`plan_groups_on_courts`.  Group ``i`` plays on
        ``courts[i % len(courts)]``; groups dealt to the same court play one
        after the other, in list order; extra courts stay idle.  Without rest
        a court plays its group in Berger round and board order.  With rest a
        court inserts the idle slots the rule needs: a 3-team group takes 5
        slots, a 4-team group 8 (§2.3, unavoidable on one court); from 5 teams
        on the boards of a round are reordered so that no idle slot is needed.
    ``"several_groups_per_court"``
        Same as ``"one_group_per_court"`` while there are at most as many
        groups as courts.  With more groups than courts the groups are dealt
        to balance the courts' loads (largest group first onto the court with
        the fewest games so far, ties to the earlier court), then each court
        plays its groups one after the other in list order, as above.
    ``"shared"``
        All groups share all courts; games of all groups are interleaved.
        Without rest the plan always uses exactly ``lower_bound`` slots
        (§2.2, §2.4).  With rest a greedy list scheduler (several seeded
        runs, :func:`_plan_shared_rest`) makes a valid plan; it may need more
        slots than the bound (it reaches the exact optimum in every §2.4
        row).

    Secondary aims, in this order, used only as tie-breakers once the number
    of slots is fixed (§2.1 soft objectives 2, 4-5 and 6; measured by
    :func:`report`):

    1. fewest games in a row for any team: in ``"shared"`` without rest each
       group picks, slot by slot, the matching that extends the fewest runs,
       then :func:`_improve` moves games between slots to break long runs;
       when the rest bound equals the plain bound, the rest planner is also
       run and its plan kept if it reaches the bound and is better on these
       aims; with rest no team ever plays two slots in a row, in any layout;
    2. fair waits: ``"shared"`` prefers the teams that have waited longest
       and :func:`_improve` evens out each team's idle runs; with rest the
       run with the smallest wait spread wins among those with fewest slots;
    3. A/B sides: the Berger sides are kept, which gives every team
       ``|A - B| <= 1`` (§1.4); a last pass (:func:`_balance_sides`) swaps
       the sides of a game whenever that makes a team's counts more even.

    The pinned layouts keep the official order on each court (Berger rounds
    and boards, reproducible by hand); only the rest rule reorders boards.

    Returns a :class:`Plan`.  Raises ``ValueError`` for an unknown layout, no
    court, a repeated court id, a group of fewer than 2 teams, or a team in
    two groups.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; expected one of {LAYOUTS}")
    _validate(groups, courts)
    courts = list(courts)
    c = len(courts)
    sizes = [len(g) for g in groups]
    bound = lower_bound(sizes, c, rest) if groups else 0

    if layout == "shared":
        if rest:
            games = _plan_shared_rest(groups, courts, bound)
        else:
            games = _plan_shared(groups, courts, bound)
            # When the rest rule costs no slot, a rest schedule that reaches
            # the bound is also a valid plan here, with no team ever playing
            # two games in a row: keep whichever is better on the secondary
            # aims (games in a row, back-to-backs, wait spread).
            if games and lower_bound(sizes, c, True) == bound:
                rested = _plan_shared_rest(groups, courts, bound)
                if max(g.slot for g in rested) + 1 == bound:
                    old_m, new_m = _measure(games), _measure(rested)
                    if (new_m[0], new_m[1], new_m[2]) < (old_m[0], old_m[1], old_m[2]):
                        games = rested
    else:
        if layout == "several_groups_per_court" and len(groups) > c:
            court_of = _deal_by_load(sizes, c)
        else:
            court_of = [gi % c for gi in range(len(groups))]
        games = _plan_pinned(groups, courts, court_of, rest)

    games = _balance_sides(games)
    position = {court: i for i, court in enumerate(courts)}
    games.sort(key=lambda g: (g.slot, position[g.court]))
    slots = games[-1].slot + 1 if games else 0
    return Plan(
        games=games,
        slots=slots,
        lower_bound=bound,
        layout=layout,
        rest=bool(rest),
        groups=tuple(tuple(g) for g in groups),
        courts=tuple(courts),
    )


def plan_groups_on_courts(groups: list[list[int]], courts: list[int]) -> list[PlannedGame]:
    """Lay groups out on courts, one group per court (official Hitachi format).

    Thin wrapper: ``plan(groups, courts, "one_group_per_court").games``.

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
    return plan(groups, courts, "one_group_per_court").games


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


@lru_cache(maxsize=64)
def _one_court_order(n: int, rest: bool) -> tuple[tuple[int, int, int] | None, ...]:
    """Order of the games of an ``n``-team group played on one court.

    Items are ``(round, seat_a, seat_b)``, or ``None`` for an idle slot.
    Without rest: Berger round order, board order.  With rest two consecutive
    games must share no team:

    * ``n >= 6``: rounds stay in Berger order; in each round the first board
      (in board order) that shares no team with the previous game is played
      first, the others follow in board order.  A round has ``n // 2 >= 3``
      boards and the previous game touches at most 2, so no idle slot.
    * ``n <= 5``: a depth-first search for an order without idle slots,
      preferring Berger order (it exists for ``n = 2, 5``: the Petersen graph
      has a Hamiltonian path); else (``n = 3, 4``) first fit with idle slots,
      which gives the proven minima 5 and 8 (reference §2.3).
    """
    table = _berger_cached(n)
    seq = [(ri, a, b) for ri, rnd in enumerate(table) for a, b in rnd]
    if not rest:
        return tuple(seq)
    if n >= 6:
        out: list[tuple[int, int, int]] = []
        for ri, rnd in enumerate(table):
            boards = list(rnd)
            if out:
                prev = {out[-1][1], out[-1][2]}
                first = next(i for i, (a, b) in enumerate(boards) if a not in prev and b not in prev)
                boards.insert(0, boards.pop(first))
            out.extend((ri, a, b) for a, b in boards)
        return tuple(out)

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

    if dfs():
        return tuple(seq[i] for i in path)
    out2: list[tuple[int, int, int] | None] = []
    left = list(seq)
    prev_teams: set[int] = set()
    while left:
        pick = next((g for g in left if g[1] not in prev_teams and g[2] not in prev_teams), None)
        if pick is None:
            out2.append(None)
            prev_teams = set()
            continue
        left.remove(pick)
        out2.append(pick)
        prev_teams = {pick[1], pick[2]}
    return tuple(out2)


def _plan_pinned(groups: list[list[int]], courts: list[int], court_of: list[int], rest: bool) -> list[PlannedGame]:
    next_slot = [0] * len(courts)
    games: list[PlannedGame] = []
    for gi, group in enumerate(groups):
        ci = court_of[gi]
        for item in _one_court_order(len(group), bool(rest)):
            if item is not None:
                ri, a, b = item
                games.append(
                    PlannedGame(
                        slot=next_slot[ci],
                        court=courts[ci],
                        group=gi,
                        round=ri,
                        team_a=group[a - 1],
                        team_b=group[b - 1],
                    )
                )
            next_slot[ci] += 1
    return games


# --------------------------------------------------------------------------
# Shared layout without rest: exact (reaches the lower bound)
# --------------------------------------------------------------------------

# A game inside the shared planners: (round, board, team_a, team_b).
_Game = tuple[int, int, int, int]


def _profile(games: list[int], caps: list[int], c: int, slots: int) -> list[list[int]]:
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
    n_groups = len(games)
    left = list(games)
    x = [[0] * slots for _ in range(n_groups)]
    done = [0] * n_groups
    for t in range(slots):
        later = slots - t - 1
        y = [max(0, left[i] - caps[i] * later) for i in range(n_groups)]
        free = c - sum(y)
        if free < 0:  # pragma: no cover - excluded by the bound
            raise AssertionError("slot profile infeasible")
        must = max(0, sum(left) - c * later) - sum(y)
        heap = []
        for i in range(n_groups):
            if y[i] < min(caps[i], left[i]):
                lag = games[i] * (t + 1) - slots * (done[i] + y[i])
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
        for i in range(n_groups):
            x[i][t] = y[i]
            left[i] -= y[i]
            done[i] += y[i]
    return x


def _realise(rounds: list[list[_Game]], targets: list[int]) -> list[list[_Game]]:
    """Split a group's games into ``len(targets)`` matchings of the given sizes.

    ``rounds`` are the Berger rounds (each a matching of ``k`` games);
    ``targets`` (any order, zeros ignored) sum to the number of games, each
    ``<= k``, so at least as many are positive as there are rounds.  Returns
    classes (lists of games, no team twice in a class) with sizes
    ``sorted(positive targets, reverse=True)``.

    Method (the constructive side of the equitable edge-colouring result,
    reference §2.2): the Berger rounds get the largest targets, empty classes
    the others.  While a round has more games than its target, take a class
    that has fewer than its target; since its target is not larger, it has
    fewer games than the round, so the union of the two matchings (paths and
    even cycles) holds a path that starts and ends with a game of the round.
    Swapping the two classes along that path moves one game over and keeps
    both classes matchings.
    """
    tg = sorted((x for x in targets if x > 0), reverse=True)
    classes: list[dict[int, _Game]] = []
    for j in range(len(tg)):
        cls: dict[int, _Game] = {}
        if j < len(rounds):
            for g in rounds[j]:
                cls[g[2]] = g
                cls[g[3]] = g
        classes.append(cls)
    surplus = [j for j in range(len(rounds)) if len(classes[j]) // 2 > tg[j]]
    deficit = list(range(len(rounds), len(tg)))
    while surplus:
        p, q = surplus[-1], deficit[-1]
        P, Q = classes[p], classes[q]
        path = None
        seen: set[int] = set()
        starts = list(P)
        shift_by = (2 * (q + len(Q) // 2)) % len(starts)
        for v in starts[shift_by:] + starts[:shift_by]:
            if v in Q or v in seen:
                continue
            walk = []
            cur = v
            while True:
                g = P[cur]
                walk.append(g)
                nxt = g[3] if g[2] == cur else g[2]
                seen.add(cur)
                seen.add(nxt)
                if nxt not in Q:
                    path = walk
                    break
                g2 = Q[nxt]
                walk.append(g2)
                cur = g2[3] if g2[2] == nxt else g2[2]
                if cur not in P:
                    seen.add(cur)
                    break
            if path is not None:
                break
        if path is None:  # pragma: no cover - impossible by the argument above
            raise AssertionError("no augmenting path")
        from_p = path[0::2]
        from_q = path[1::2]
        for g in from_p:
            del P[g[2]], P[g[3]]
        for g in from_q:
            del Q[g[2]], Q[g[3]]
        for g in from_p:
            Q[g[2]] = Q[g[3]] = g
        for g in from_q:
            P[g[2]] = P[g[3]] = g
        if len(P) // 2 == tg[p]:
            surplus.pop()
        if len(Q) // 2 == tg[q]:
            deficit.pop()
    return [sorted(set(cls.values())) for cls in classes]


def _group_games(group: list[int]) -> list[list[_Game]]:
    return [
        [(ri, bi, group[a - 1], group[b - 1]) for bi, (a, b) in enumerate(rnd)]
        for ri, rnd in enumerate(_berger_cached(len(group)))
    ]


class _SlotWriter:
    """Turns per-slot game lists into PlannedGames, choosing the courts.

    Court choice: a group keeps the courts it used last time when they are
    free (a group stays on its courts as much as possible, §2.1 aim 7), the
    other games take the free courts in list order.
    """

    def __init__(self, courts: list[int]):
        self.courts = courts
        self.last_courts: dict[int, list[int]] = {}
        self.out: list[PlannedGame] = []

    def write(self, slot: int, items: list[tuple[int, _Game]]) -> None:
        items = sorted(items, key=lambda it: (it[0], it[1][0], it[1][1]))
        taken: set[int] = set()
        chosen: list[int | None] = [None] * len(items)
        wanted: dict[int, list[int]] = {gi: list(self.last_courts.get(gi, ())) for gi, _ in items}
        for idx, (gi, _) in enumerate(items):
            while wanted[gi]:
                ci = wanted[gi].pop(0)
                if ci not in taken:
                    chosen[idx] = ci
                    taken.add(ci)
                    break
        free = (ci for ci in range(len(self.courts)) if ci not in taken)
        used: dict[int, list[int]] = defaultdict(list)
        for idx, (gi, g) in enumerate(items):
            if chosen[idx] is None:
                chosen[idx] = next(free)
            used[gi].append(chosen[idx])
            ri, _, a, b = g
            self.out.append(
                PlannedGame(slot=slot, court=self.courts[chosen[idx]], group=gi, round=ri, team_a=a, team_b=b)
            )
        self.last_courts.update(used)


def _due(teams: frozenset[int], last: dict[int, int], t: int) -> tuple[int, int]:
    """Sort key preferring the teams that have waited longest: the shortest
    wait among them first (negated), then the total wait (negated)."""
    waits = [t - last.get(v, -1) for v in teams]
    return (-min(waits), -sum(waits))


def _plan_shared(groups: list[list[int]], courts: list[int], slots: int) -> list[PlannedGame]:
    """Shared courts, no rest: exactly ``slots`` (= the lower bound) slots.

    1. :func:`_profile` fixes how many games each group plays in each slot;
    2. :func:`_realise` splits each group's games into matchings of exactly
       those sizes (every slot is then valid: at most ``c`` games, no team
       twice);
    3. slot by slot, each group takes, among its unused matchings of the
       needed size, the one that extends the fewest streaks: smallest longest
       streak it would create, then fewest teams continuing a streak, then
       the teams that have waited longest (fair waits), then Berger order;
    4. :func:`_improve` moves games between slots along alternating paths
       while that shortens runs of games in a row or evens out the waits,
       without adding a slot.
    """
    if not groups:
        return []
    c = len(courts)
    all_games = [_group_games(g) for g in groups]
    counts = [len(g) * (len(g) - 1) // 2 for g in groups]
    caps = [len(g) // 2 for g in groups]
    x = _profile(counts, caps, c, slots)

    # buckets[gi][size] = unused matchings of that size: (teams, games).
    buckets: list[dict[int, list[tuple[frozenset[int], list[_Game]]]]] = []
    for gi, rounds in enumerate(all_games):
        by_size: dict[int, list[tuple[frozenset[int], list[_Game]]]] = defaultdict(list)
        for cls in _realise(rounds, x[gi]):
            if cls:
                teams = frozenset(v for g in cls for v in (g[2], g[3]))
                by_size[len(cls)].append((teams, cls))
        buckets.append(by_size)

    # at[gi][t] = the matching group gi plays in slot t, as {team: game}.
    at: list[dict[int, dict[int, _Game]]] = [{} for _ in groups]
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
            best_i = 0
            if len(options) > 1:
                best_key = None
                tied: list[int] = []
                for i, (teams, _) in enumerate(options):
                    cont = teams & previous
                    key = (max(streak[v] for v in cont), len(cont)) if cont else (0, 0)
                    if best_key is None or key < best_key:
                        best_key, tied = key, [i]
                    elif key == best_key:
                        tied.append(i)
                best_i = min(tied[:16], key=lambda i: (_due(options[i][0], last, t), i))
            teams, cls = options.pop(best_i)
            playing |= teams
            at[gi][t] = {v: g for g in cls for v in (g[2], g[3])}
        for v in playing:
            streak[v] = streak[v] + 1 if v in previous else 1
            last[v] = t
        previous = playing

    _improve(at, groups, c, slots)

    writer = _SlotWriter(courts)
    per_slot: list[list[tuple[int, _Game]]] = [[] for _ in range(slots)]
    for gi, by_slot in enumerate(at):
        for t, cls in by_slot.items():
            per_slot[t].extend((gi, g) for g in set(cls.values()))
    for t in range(slots):
        writer.write(t, per_slot[t])
    return writer.out


def _run_cost(length: int) -> int:
    return 4 ** (length - 1) - 1 if length > 1 else 0


def _team_cost(slots: list[int], weight: int) -> int:
    """Cost of one team's sorted slot list: runs of games in a row first
    (``4**(L-1) - 1`` per run of ``L`` games, times ``weight``, so a run of 3
    costs more than any waits), then the waits (sum of squared idle runs,
    smallest when the waits are equal)."""
    cost = 0
    run = 1
    for s0, s1 in zip(slots, slots[1:]):
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


def _improve(
    at: list[dict[int, dict[int, _Game]]],
    groups: list[list[int]],
    c: int,
    slots: int,
    budget: int = 60000,
) -> None:
    """Local search on the secondary aims, in place; never adds a slot.

    Move: team ``v`` plays in slot ``s`` and is idle in slot ``t``.  In the
    union of its group's matchings at ``s`` and ``t`` (paths and even
    cycles) ``v`` is the end of a path; swapping the path between the two
    slots keeps both matchings valid and moves ``v``'s game to ``t``.  Only
    the two ends of the path change slots (every inner team keeps one game in
    each slot).  A path with one more game from ``s`` makes slot ``t`` one
    game longer, allowed only when ``t`` has a free court.  A move is made
    when it lowers the summed :func:`_team_cost` of the two end teams
    (first improvement); at most ``budget`` moves are tried.
    """
    load = [0] * slots
    team_slots: dict[int, list[int]] = {v: [] for grp in groups for v in grp}
    for by_slot in at:
        for t, cls in by_slot.items():
            load[t] += len(cls) // 2
            for v in cls:
                team_slots[v].append(t)
    for v in team_slots:
        team_slots[v].sort()
    weight = slots * slots + 1
    cost = {v: _team_cost(sl, weight) for v, sl in team_slots.items()}
    group_of = {v: gi for gi, grp in enumerate(groups) for v in grp}
    window = min(slots, 8)

    def candidates(v: int) -> list[tuple[int, int, int]]:
        # Moves (s -> t) that lower v's own cost, best first.  A move that
        # helps only the other end of the path is found from that end.
        mine = team_slots[v]
        busy = set(mine)
        out = []
        # Games worth moving: those in a run of games in a row, and the two
        # around the team's shortest wait.
        movable = set()
        shortest = None
        for a, b in zip(mine, mine[1:]):
            if b == a + 1:
                movable.update((a, b))
            elif shortest is None or b - a < shortest[1] - shortest[0]:
                shortest = (a, b)
        if shortest is not None:
            movable.update(shortest)
        for s in sorted(movable):
            rest_ = [u for u in mine if u != s]
            base = _team_cost(rest_, weight)
            m = len(rest_)
            # Length of the run ending / starting at each position.
            ends = [1] * m
            for i in range(1, m):
                if rest_[i] == rest_[i - 1] + 1:
                    ends[i] = ends[i - 1] + 1
            starts = [1] * m
            for i in range(m - 2, -1, -1):
                if rest_[i + 1] == rest_[i] + 1:
                    starts[i] = starts[i + 1] + 1
            for t in range(max(0, s - window), min(slots - 1, s + window) + 1):
                if t in busy:
                    continue
                i = bisect.bisect_left(rest_, t)
                left = ends[i - 1] if i > 0 and rest_[i - 1] == t - 1 else 0
                right = starts[i] if i < m and rest_[i] == t + 1 else 0
                delta = weight * (_run_cost(left + 1 + right) - _run_cost(left) - _run_cost(right))
                if i > 0:
                    delta += (t - rest_[i - 1] - 1) ** 2
                if i < m:
                    delta += (rest_[i] - t - 1) ** 2
                if 0 < i < m:
                    delta -= (rest_[i] - rest_[i - 1] - 1) ** 2
                cv = base + delta
                if cv < cost[v]:
                    out.append((cv, s, t))
        out.sort()
        return out

    cache: dict[int, list[tuple[int, int, int]]] = {}
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for v in sorted(team_slots, key=lambda u: (-cost[u], u)):
            if cost[v] == 0:
                break
            if v not in cache:
                cache[v] = candidates(v)
            by_slot = at[group_of[v]]
            todo = cache[v]
            while todo and tries < budget:
                # A move that fails now is not retried until v moves again.
                cv, s, t = todo.pop(0)
                tries += 1
                A = by_slot[s]
                B = by_slot.get(t, {})
                # Walk the alternating path from v.
                path_a: list[_Game] = []
                path_b: list[_Game] = []
                cur = v
                while True:
                    g = A[cur]
                    path_a.append(g)
                    nxt = g[3] if g[2] == cur else g[2]
                    if nxt not in B:
                        end, end_from, end_to = nxt, s, t
                        break
                    g2 = B[nxt]
                    path_b.append(g2)
                    cur = g2[3] if g2[2] == nxt else g2[2]
                    if cur not in A:
                        end, end_from, end_to = cur, t, s
                        break
                grows = len(path_a) > len(path_b)
                if grows and load[t] >= c:
                    continue
                new_e = [u for u in team_slots[end] if u != end_from] + [end_to]
                new_e.sort()
                ce = _team_cost(new_e, weight)
                if cv + ce >= cost[v] + cost[end]:
                    continue
                # Apply the swap.
                B = by_slot.setdefault(t, {})
                for g in path_a:
                    del A[g[2]], A[g[3]]
                for g in path_b:
                    del B[g[2]], B[g[3]]
                for g in path_a:
                    B[g[2]] = B[g[3]] = g
                for g in path_b:
                    A[g[2]] = A[g[3]] = g
                if not A:
                    del by_slot[s]
                if grows:
                    load[s] -= 1
                    load[t] += 1
                new_v = [u for u in team_slots[v] if u != s] + [t]
                new_v.sort()
                team_slots[v], team_slots[end] = new_v, new_e
                cost[v], cost[end] = cv, ce
                cache.pop(v, None)
                cache.pop(end, None)
                improved = True
                break
            if tries >= budget:
                break


# --------------------------------------------------------------------------
# Shared layout with rest: greedy list scheduling
# --------------------------------------------------------------------------


def _plan_shared_rest(groups: list[list[int]], courts: list[int], bound: int) -> list[PlannedGame]:
    """Shared courts, no team in two consecutive slots.

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
    early once one reaches ``bound``, the lower bound.  Games in a row are at
    most 1 by construction (the rule itself); A/B sides are the Berger ones.
    """
    if not groups:
        return []
    total = sum(len(g) * (len(g) - 1) // 2 for g in groups)
    runs = 2 + min(30, 6000 // total)
    best = None
    best_key = None
    for variant in range(runs):
        games = _greedy_rest(groups, courts, variant)
        slots = max(g.slot for g in games) + 1
        rep = _measure(games)
        key = (slots, rep[2], rep[1], variant)
        if best_key is None or key < best_key:
            best, best_key = games, key
        if best_key[0] <= bound and variant >= 1:
            break
    assert best is not None
    return best


def _greedy_rest(groups: list[list[int]], courts: list[int], variant: int) -> list[PlannedGame]:
    c = len(courts)
    rng = random.Random(variant) if variant >= 2 else None
    remaining = [[g for rnd in _group_games(grp) for g in rnd] for grp in groups]
    caps = [len(g) // 2 for g in groups]
    left_team: dict[int, int] = {v: len(grp) - 1 for grp in groups for v in grp}
    last: dict[int, int] = {}
    writer = _SlotWriter(courts)

    def tie() -> float:
        return rng.random() if rng is not None else 0.0

    key_of = {gi: (-(len(grp) - 1), -len(remaining[gi]), tie(), gi) for gi, grp in enumerate(groups)}
    active = set(range(len(groups)))
    t = 0
    while active:
        order = sorted(active, key=key_of.__getitem__)
        used: set[int] = set()
        items: list[tuple[int, _Game]] = []
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


# --------------------------------------------------------------------------
# A/B sides
# --------------------------------------------------------------------------


def _balance_sides(games: list[PlannedGame]) -> list[PlannedGame]:
    """Swap the sides of a game while that makes A/B counts more even.

    With ``d = A - B`` per team, swapping a game where ``a`` is on side A
    changes ``d_a`` by -2 and ``d_b`` by +2, which lowers ``sum d²`` exactly
    when ``d_a - d_b >= 3``; swaps are made in game order until none
    applies (``sum d²`` falls each time, so it ends).  Berger sides already
    give ``|d| <= 1`` (reference §1.4), so on a complete round robin this
    returns the games unchanged.
    """
    d: Counter[int] = Counter()
    for g in games:
        d[g.team_a] += 1
        d[g.team_b] -= 1
    if all(abs(v) <= 1 for v in d.values()):
        return list(games)
    out = list(games)
    changed = True
    while changed:
        changed = False
        for i, g in enumerate(out):
            if d[g.team_a] - d[g.team_b] >= 3:
                d[g.team_a] -= 2
                d[g.team_b] += 2
                out[i] = PlannedGame(
                    slot=g.slot, court=g.court, group=g.group, round=g.round, team_a=g.team_b, team_b=g.team_a
                )
                changed = True
    return out


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ScheduleReport:
    """Measures of a plan (all counts in slots or games).

    ``max_streak``: most games a team plays in consecutive slots (1 = never
    back-to-back); ``back_to_back``: number of times a team plays in two
    consecutive slots; ``waits``: per team ``(min, max)`` idle slots between
    two of its consecutive games (``(0, 0)`` for a team with one game);
    ``max_wait``: the longest idle run of any team; ``wait_spread``: the
    largest ``max - min`` of any team (0 = every team waits evenly);
    ``side_imbalance``: the largest ``|A count - B count|`` of any team;
    ``problems``: :func:`check_schedule` on the plan (with the rest check
    when the plan was made with ``rest``) — must be empty.
    """

    slots: int
    lower_bound: int
    gap: int
    max_streak: int
    back_to_back: int
    waits: dict[int, tuple[int, int]] = field(default_factory=dict)
    max_wait: int = 0
    wait_spread: int = 0
    side_imbalance: int = 0
    problems: list[str] = field(default_factory=list)


def _measure(
    games: list[PlannedGame],
) -> tuple[int, int, int, int, dict[int, tuple[int, int]], int]:
    """(max_streak, back_to_back, wait_spread, side_imbalance, waits, max_wait)."""
    slots_of: dict[int, list[int]] = defaultdict(list)
    side: Counter[int] = Counter()
    for g in games:
        slots_of[g.team_a].append(g.slot)
        slots_of[g.team_b].append(g.slot)
        side[g.team_a] += 1
        side[g.team_b] -= 1
    max_streak = 0
    b2b = 0
    waits: dict[int, tuple[int, int]] = {}
    spread = 0
    max_wait = 0
    for team, slots in slots_of.items():
        slots.sort()
        run = 1
        best = 1
        gaps = []
        for s0, s1 in zip(slots, slots[1:]):
            if s1 == s0 + 1:
                run += 1
                b2b += 1
                best = max(best, run)
            else:
                run = 1
            gaps.append(s1 - s0 - 1)
        max_streak = max(max_streak, best)
        lo, hi = (min(gaps), max(gaps)) if gaps else (0, 0)
        waits[team] = (lo, hi)
        spread = max(spread, hi - lo)
        max_wait = max(max_wait, hi)
    imbalance = max((abs(v) for v in side.values()), default=0)
    return max_streak, b2b, spread, imbalance, waits, max_wait


def report(p: Plan) -> ScheduleReport:
    """Measure ``p`` (a :class:`Plan`) against the secondary aims.

    Returns a :class:`ScheduleReport`; ``problems`` re-runs
    :func:`check_schedule` with ``p.groups`` (and ``rest=p.rest``), so an
    empty list means every hard constraint of reference §2.1 holds.
    """
    max_streak, b2b, spread, imbalance, waits, max_wait = _measure(p.games)
    return ScheduleReport(
        slots=p.slots,
        lower_bound=p.lower_bound,
        gap=p.gap,
        max_streak=max_streak,
        back_to_back=b2b,
        waits=waits,
        max_wait=max_wait,
        wait_spread=spread,
        side_imbalance=imbalance,
        problems=check_schedule(p.games, [list(g) for g in p.groups], rest=p.rest),
    )


# --------------------------------------------------------------------------
# Slot-based check
# --------------------------------------------------------------------------


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
    return event_start + datetime.timedelta(minutes=slot * (game_minutes + changeover_minutes))


def _pairs_not_meeting_once(
    pair_count: Counter, groups_members: list[tuple[int, list[int]]]
) -> list[tuple[int, int, int, int]]:
    """``(group, team a, team b, meetings)`` for each pair of a group that does not meet once."""
    return [
        (gi, a, b, pair_count.get((a, b), 0))
        for gi, members in groups_members
        for i, a in enumerate(members)
        for b in members[i + 1 :]
        if pair_count.get((a, b), 0) != 1
    ]


def _pair_problems(pair_count: Counter, groups_members: list[tuple[int, list[int]]]) -> list[str]:
    return [
        f"teams {a} and {b} of group {gi} meet {count} times instead of once"
        for gi, a, b, count in _pairs_not_meeting_once(pair_count, groups_members)
    ]


def check_schedule(games: list[PlannedGame], groups: list[list[int]], *, rest: bool = False) -> list[str]:
    """Return the problems of a slot-based schedule as English sentences; ``[]`` = fine.

    Checks (reference §2.1 hard constraints, §2.6 invariants):

    * a team in two games in one slot;
    * a court with two games in one slot;
    * a team playing itself, or a team that is in no group;
    * a game between teams of different groups;
    * a pair of teams of one group that does not meet exactly once
      (missing or repeated; A/B order does not matter);
    * with ``rest=True``: a team playing in two consecutive slots.
    """
    problems: list[str] = []

    group_of: dict[int, int] = {}
    for gi, group in enumerate(groups):
        for team in group:
            if team in group_of and group_of[team] != gi:
                problems.append(f"team {team} is listed in groups {group_of[team]} and {gi}")
            group_of.setdefault(team, gi)

    team_slots: Counter[tuple[int, int]] = Counter()
    court_slots: Counter[tuple[int, int]] = Counter()
    for g in games:
        team_slots[(g.slot, g.team_a)] += 1
        if g.team_b != g.team_a:
            team_slots[(g.slot, g.team_b)] += 1
        court_slots[(g.slot, g.court)] += 1
    for (slot, team), count in sorted(k for k in team_slots.items() if k[1] > 1):
        problems.append(f"team {team} plays {count} games in slot {slot}")
    for (slot, court), count in sorted(k for k in court_slots.items() if k[1] > 1):
        problems.append(f"court {court} has {count} games in slot {slot}")
    if rest:
        for slot, team in sorted(k for k in team_slots if (k[0] + 1, k[1]) in team_slots):
            problems.append(f"team {team} plays in consecutive slots {slot} and {slot + 1}")

    # Game problems are reported in (slot, court) order, then input order.
    game_problems: list[tuple[int, int, int, str]] = []
    pair_count: Counter[tuple[int, int]] = Counter()
    for i, g in enumerate(games):
        where = (g.slot, g.court, i)
        if g.team_a == g.team_b:
            game_problems.append((*where, f"team {g.team_a} plays itself in slot {g.slot}"))
            continue
        ga = group_of.get(g.team_a)
        gb = group_of.get(g.team_b)
        if ga is None or gb is None:
            for t in (g.team_a, g.team_b):
                if t not in group_of:
                    game_problems.append((*where, f"team {t} in slot {g.slot} is not in any group"))
            continue
        if ga != gb:
            game_problems.append(
                (
                    *where,
                    f"game {g.team_a} v {g.team_b} in slot {g.slot} is between "
                    f"teams of different groups ({ga} and {gb})",
                )
            )
            continue
        a, b = (g.team_a, g.team_b) if g.team_a < g.team_b else (g.team_b, g.team_a)
        pair_count[(a, b)] += 1
    game_problems.sort(key=lambda p: p[:3])
    problems += [p[3] for p in game_problems]

    members = [(gi, [t for t in sorted(set(group)) if group_of.get(t) == gi]) for gi, group in enumerate(groups)]
    problems += _pair_problems(pair_count, members)
    return problems


# --------------------------------------------------------------------------
# Timed schedules
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TimedGame:
    """A game with a real time: ``[start_minute, end_minute)`` in minutes
    from midnight on ``court``; ``group`` is a group index (into the
    ``groups`` given to :func:`check_timed`, or just a label)."""

    court: int
    team_a: int
    team_b: int
    start_minute: int
    end_minute: int
    group: int


@dataclass(frozen=True)
class TimedProblem:
    """One problem of a timed schedule, as data (see :func:`timed_problems`).

    ``kind`` is one of ``KINDS``; ``games`` are indexes into the checked list; the other
    fields are filled as the kind needs: ``team`` (id), ``court`` (id), ``teams`` (a pair
    of ids), ``group`` (index), ``groups`` (the teams' group indexes), ``count`` (meetings)
    and ``minutes`` ((start, end) per game in ``games``). ``str()`` gives an English sentence.
    """

    KINDS = ("bad_time", "plays_itself", "team_overlap", "court_overlap", "no_group", "wrong_group", "pair_count")

    kind: str
    games: tuple[int, ...] = ()
    team: int | None = None
    court: int | None = None
    teams: tuple[int, int] | None = None
    group: int | None = None
    groups: tuple[int, int] | None = None
    count: int | None = None
    minutes: tuple[tuple[int, int], ...] = ()

    def __str__(self) -> str:
        g = self.games
        if self.kind == "bad_time":
            start, end = self.minutes[0]
            return f"game {g[0]} ends at {end}, not after its start {start}"
        if self.kind == "plays_itself":
            return f"team {self.team} plays itself in game {g[0]}"
        if self.kind in ("team_overlap", "court_overlap"):
            what, key = ("team", self.team) if self.kind == "team_overlap" else ("court", self.court)
            (s1, e1), (s2, e2) = self.minutes
            return f"{what} {key} is in games {g[0]} ({s1}-{e1}) and {g[1]} ({s2}-{e2}) at once"
        if self.kind == "no_group":
            return f"team {self.team} in game {g[0]} is not in any group"
        if self.kind == "wrong_group":
            a, b = self.teams
            return (
                f"game {g[0]} ({a} v {b}) is labelled group {self.group} "
                f"but the teams are in groups {self.groups[0]} and {self.groups[1]}"
            )
        a, b = self.teams
        return f"teams {a} and {b} of group {self.group} meet {self.count} times instead of once"


def _overlaps(items: list[tuple[int, int, int]], kind: str, key: int) -> list[TimedProblem]:
    """Pairs of overlapping half-open intervals ``(start, end, index)``.

    Sweep in start order keeping every interval still open, so partial,
    nested and equal-start overlaps are all found, each pair once.
    Touching intervals (one ends when the next starts) do not overlap.
    """
    problems = []
    open_: list[tuple[int, int, int]] = []
    who = {"team": key} if kind == "team_overlap" else {"court": key}
    for s, e, i in sorted(items):
        open_ = [o for o in open_ if o[1] > s]
        for os_, oe, oi in open_:
            problems.append(TimedProblem(kind, games=(oi, i), minutes=((os_, oe), (s, e)), **who))
        open_.append((s, e, i))
    return problems


def check_timed(games: list[TimedGame], groups: list[list[int]] | None = None) -> list[str]:
    """Return the problems of a timed schedule as English sentences; ``[]`` = fine.

    The sentences of :func:`timed_problems`, which gives the same problems as data.
    """
    return [str(p) for p in timed_problems(games, groups)]


def timed_problems(games: list[TimedGame], groups: list[list[int]] | None = None) -> list[TimedProblem]:
    """Return the problems of a timed schedule as ``TimedProblem`` data; ``[]`` = fine.

    A game occupies ``[start_minute, end_minute)`` (minutes); games are
    named by their index in ``games``.  Checks:

    * a game that does not end after it starts, or a team playing itself;
    * a team in two games whose times overlap (partial, nested or equal;
      a game ending at 10:00 and one starting at 10:00 do not overlap);
    * a court with two games whose times overlap;
    * every pair of teams of a group meets exactly once.  With ``groups``
      (team ids per group, ``TimedGame.group`` an index into it) the members
      come from ``groups`` and a game between groups, or a team in no group,
      is reported; without it, a group's members are the teams seen in its
      games.

    This is the timed counterpart of :func:`check_schedule` (reference §2.6):
    slot numbers cannot see games of unequal length or courts that start at
    different times.
    """
    problems: list[TimedProblem] = []
    by_team: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    by_court: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for i, g in enumerate(games):
        if g.end_minute <= g.start_minute:
            problems.append(TimedProblem("bad_time", games=(i,), minutes=((g.start_minute, g.end_minute),)))
        if g.team_a == g.team_b:
            problems.append(TimedProblem("plays_itself", games=(i,), team=g.team_a))
            by_team[g.team_a].append((g.start_minute, g.end_minute, i))
        else:
            by_team[g.team_a].append((g.start_minute, g.end_minute, i))
            by_team[g.team_b].append((g.start_minute, g.end_minute, i))
        by_court[g.court].append((g.start_minute, g.end_minute, i))
    for team in sorted(by_team):
        problems += _overlaps(by_team[team], "team_overlap", team)
    for court in sorted(by_court):
        problems += _overlaps(by_court[court], "court_overlap", court)

    pair_count: Counter[tuple[int, int]] = Counter()
    if groups is not None:
        group_of: dict[int, int] = {}
        for gi, group in enumerate(groups):
            for team in group:
                group_of.setdefault(team, gi)
        for i, g in enumerate(games):
            if g.team_a == g.team_b:
                continue
            bad = False
            for t in (g.team_a, g.team_b):
                if t not in group_of:
                    problems.append(TimedProblem("no_group", games=(i,), team=t))
                    bad = True
            if bad:
                continue
            if group_of[g.team_a] != group_of[g.team_b] or group_of[g.team_a] != g.group:
                problems.append(
                    TimedProblem(
                        "wrong_group",
                        games=(i,),
                        teams=(g.team_a, g.team_b),
                        group=g.group,
                        groups=(group_of[g.team_a], group_of[g.team_b]),
                    )
                )
                continue
            pair_count[(min(g.team_a, g.team_b), max(g.team_a, g.team_b))] += 1
        members = [(gi, [t for t in sorted(set(group)) if group_of.get(t) == gi]) for gi, group in enumerate(groups)]
    else:
        seen: dict[int, set[int]] = defaultdict(set)
        for g in games:
            if g.team_a == g.team_b:
                continue
            seen[g.group].update((g.team_a, g.team_b))
            pair_count[(min(g.team_a, g.team_b), max(g.team_a, g.team_b))] += 1
        members = [(gi, sorted(seen[gi])) for gi in sorted(seen)]
    problems += [
        TimedProblem("pair_count", teams=(a, b), group=gi, count=count)
        for gi, a, b, count in _pairs_not_meeting_once(pair_count, members)
    ]
    return problems


def _check_int(name: str, value: object, minimum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int (minutes), got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


class Clock:
    """Turns (slot, court) into a start minute.

    ``start_minute``: when slot 0 starts (minutes from midnight, >= 0);
    ``game_minutes`` (> 0) and ``changeover_minutes`` (>= 0): a slot is
    ``game + changeover`` minutes; ``lunch``: an optional break
    ``[lunch_start, lunch_end)`` in minutes; ``court_start``: optional
    ``{court id: start minute}`` for courts that open at another time (the
    others use ``start_minute``).

    Raises ``ValueError`` for a non-int or negative time, a game length of 0,
    or a lunch that does not end after it starts.
    """

    def __init__(
        self,
        start_minute: int,
        game_minutes: int,
        changeover_minutes: int,
        lunch: tuple[int, int] | None = None,
        court_start: dict[int, int] | None = None,
    ) -> None:
        self.start_minute = _check_int("start_minute", start_minute, 0)
        self.game_minutes = _check_int("game_minutes", game_minutes, 1)
        self.changeover_minutes = _check_int("changeover_minutes", changeover_minutes, 0)
        if lunch is not None:
            if len(lunch) != 2:
                raise ValueError(f"lunch must be (start, end), got {lunch!r}")
            ls = _check_int("lunch start", lunch[0], 0)
            le = _check_int("lunch end", lunch[1], 0)
            if le <= ls:
                raise ValueError(f"lunch must end after it starts, got {lunch!r}")
            lunch = (ls, le)
        self.lunch = lunch
        self.court_start = {
            court: _check_int(f"start of court {court}", m, 0) for court, m in (court_start or {}).items()
        }

    def __repr__(self) -> str:
        return (
            f"Clock(start_minute={self.start_minute}, game_minutes={self.game_minutes}, "
            f"changeover_minutes={self.changeover_minutes}, lunch={self.lunch!r}, "
            f"court_start={self.court_start!r})"
        )

    @property
    def slot_minutes(self) -> int:
        """Length of a slot: game + changeover (minutes)."""
        return self.game_minutes + self.changeover_minutes

    def start_of(self, slot: int, court: int) -> int:
        """Start minute of ``slot`` (0-based) on ``court``.

        Slot ``k`` starts at ``base + k·(game + changeover)``, ``base`` being
        the court's own start or ``start_minute``.  The first game that would
        overlap the lunch break (``start < lunch_end`` and
        ``start + game > lunch_start``) starts at ``lunch_end`` instead, and
        every later slot of the court moves by the same amount (the slot
        length is unchanged).  A game may end exactly when lunch starts.
        Raises ``ValueError`` for a negative slot.
        """
        _check_int("slot", slot, 0)
        base = self.court_start.get(court, self.start_minute)
        step = self.slot_minutes
        plain = base + slot * step
        if self.lunch is None:
            return plain
        ls, le = self.lunch
        g = self.game_minutes
        # First slot j whose game would end after lunch starts.
        j = 0 if base + g > ls else (ls - g - base) // step + 1
        if base + j * step >= le or slot < j:
            return plain
        return le + (slot - j) * step

    def end_of(self, slot: int, court: int) -> int:
        """End minute of the game in ``slot`` on ``court`` (start + game)."""
        return self.start_of(slot, court) + self.game_minutes


def timed_games(games: list[PlannedGame] | Plan, clock: Clock) -> list[TimedGame]:
    """The games of a plan (or a list of PlannedGames) with start and end
    minutes from ``clock``, in the same order; feed them to :func:`check_timed`
    to see whether courts with their own start times make a team play on two
    courts at once."""
    items = games.games if isinstance(games, Plan) else games
    out = []
    for g in items:
        start = clock.start_of(g.slot, g.court)
        out.append(
            TimedGame(
                court=g.court,
                team_a=g.team_a,
                team_b=g.team_b,
                start_minute=start,
                end_minute=start + clock.game_minutes,
                group=g.group,
            )
        )
    return out


def shift(games_starts: dict, from_minute: int, delay: int) -> dict:
    """Delay the remaining games of a court; pure, returns the new starts.

    ``games_starts`` maps a game id (any hashable) to its start minute;
    the caller passes the games of one court.  Every game starting at or
    after ``from_minute`` moves ``delay`` minutes later; earlier games keep
    their start.  The lunch break is not re-applied: run :func:`check_timed`
    on the result.  Raises ``ValueError`` for a negative delay or a non-int
    minute.
    """
    _check_int("from_minute", from_minute)
    _check_int("delay", delay, 0)
    return {gid: (start + delay if start >= from_minute else start) for gid, start in games_starts.items()}
