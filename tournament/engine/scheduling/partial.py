"""A fixed number of games per team in a group: the rounds of a partial round robin.

Pure: standard library only, deterministic.  Seats are the ints ``1..n``, as
in :func:`~tournament.engine.scheduling.round_robin.berger_rounds`; the
caller maps them to team ids.  The rule and the construction are in
``docs/rules/scheduling-standings-seeding.md``, section 1.5.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache

from tournament.engine.scheduling.round_robin import berger_table

#: Why a partial round robin cannot be made (``PartialRoundRobinError.reason``).
REASONS = ("too_few", "too_many", "odd_total")


class PartialRoundRobinError(ValueError):
    """``n`` teams cannot each play ``k`` games; ``reason`` is one of :data:`REASONS`.

    ``too_few``: ``k < 1``; ``too_many``: ``k >= n`` (a team has only
    ``n - 1`` opponents); ``odd_total``: ``n * k`` is odd, so the games, two
    teams each, cannot add up to ``n * k`` places.  ``n`` and ``k`` are kept
    for the caller's message.
    """

    def __init__(self, n: int, k: int, reason: str):
        self.n, self.k, self.reason = n, k, reason
        super().__init__(f"{n} teams cannot each play {k} games ({reason})")


def check_partial(n: int, k: int) -> None:
    """Raise :class:`PartialRoundRobinError` when ``n`` teams cannot each play ``k`` games.

    In: ``n`` teams (an int >= 2), ``k`` games per team.  Out: None.  The
    order of the checks is the order of :data:`REASONS`.  Raises
    ``ValueError`` for ``n < 2`` (no group).
    """
    if n < 2:
        raise ValueError(f"a group needs at least 2 teams, got {n}")
    if k < 1:
        raise PartialRoundRobinError(n, k, "too_few")
    if k >= n:
        raise PartialRoundRobinError(n, k, "too_many")
    if n * k % 2:
        raise PartialRoundRobinError(n, k, "odd_total")


def partial_rounds(n: int, k: int) -> list[list[tuple[int, int]]]:
    """The rounds of a group of ``n`` seats in which every seat plays exactly ``k`` games.

    In: ``n`` seats (``1..n``), ``k`` games per seat.  Out: a list of rounds,
    each a list of ``(a, b)`` games (``a`` on side A), such that every seat
    plays exactly ``k`` games, no pair meets twice, no seat plays twice in a
    round and every seat's A and B counts differ by at most 1.  ``k`` rounds
    for an even ``n`` (every seat plays in every round), ``k + 1`` for an odd
    ``n`` (every seat rests exactly once; fewer rounds are impossible, since a
    round of an odd group holds at most ``(n - 1) / 2`` games).  With
    ``k = n - 1`` the games are those of the full round robin.  Raises
    :class:`PartialRoundRobinError` when it cannot be done (see
    :func:`check_partial`).

    Construction (``docs/rules/scheduling-standings-seeding.md``, section 1.5):

    * even ``n``: the first ``k`` rounds of the Berger table (section 1.2),
      boards and sides as published, so an organiser can read the games off
      the printed table;
    * odd ``n`` (then ``k`` is even): the circle method on ``n + 1`` places,
      place ``n + 1`` being the rest.  Round ``r`` pairs ``r`` with the rest
      and ``r - i`` with ``r + i`` (seats mod ``n``).  Take the ``k + 1``
      rounds ``c - k/2 .. c + k/2`` around a centre ``c``: each seat then
      plays ``k + 1`` times, less its own rest round.  The seats outside those
      rounds' rest seats are paired with each other in the centre round,
      which is why their games of that round are dropped: everyone ends with
      exactly ``k`` games and rests exactly once.

    Sides: kept when they already differ by at most 1 for every seat;
    otherwise oriented along Euler circuits (:func:`balance_orientation`),
    which gives every seat ``|A - B| <= 1``.
    """
    if isinstance(n, bool) or not isinstance(n, int) or isinstance(k, bool) or not isinstance(k, int):
        raise TypeError("n and k must be ints")
    check_partial(n, k)
    return [list(rnd) for rnd in _partial_table(n, k)]


@lru_cache(maxsize=128)
def _partial_table(n: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    rounds = _even_rounds(n, k) if n % 2 == 0 else _odd_rounds(n, k)
    return tuple(tuple(rnd) for rnd in balance_orientation(rounds))


def _even_rounds(n: int, k: int) -> list[list[tuple[int, int]]]:
    """The first ``k`` Berger rounds of an even group."""
    return [list(rnd) for rnd in berger_table(n)[:k]]


def _odd_rounds(n: int, k: int) -> list[list[tuple[int, int]]]:
    """``k + 1`` rounds of the circle method around the centre round ``(n - 1) // 2``."""
    half = k // 2
    centre = (n - 1) // 2
    rest_seats = {(centre + j) % n for j in range(-half, half + 1)}
    rounds = []
    for j in range(-half, half + 1):
        r = (centre + j) % n
        games = []
        for i in range(1, (n - 1) // 2 + 1):
            a, b = (r - i) % n, (r + i) % n
            if r == centre and a not in rest_seats:
                continue  # both outside: their k-th game comes from elsewhere
            games.append((a + 1, b + 1))
        rounds.append(games)
    return rounds


def balance_orientation(rounds: list[list[tuple[int, int]]]) -> list[list[tuple[int, int]]]:
    """The same rounds with sides chosen so that every seat's ``|A - B| <= 1``.

    In: rounds of ``(a, b)`` games.  Out: a new list; unchanged when every
    seat is already balanced.  Otherwise each game is oriented along an Euler
    circuit of its connected part, after joining every seat of odd degree to
    one extra point: walking a circuit enters and leaves a seat equally
    often, so dropping the extra edges leaves each seat at most one apart.
    Deterministic (smallest seat and earliest game first).
    """
    diff: dict[int, int] = defaultdict(int)
    for rnd in rounds:
        for a, b in rnd:
            diff[a] += 1
            diff[b] -= 1
    if all(abs(v) <= 1 for v in diff.values()):
        return [list(rnd) for rnd in rounds]
    games = [(a, b) for rnd in rounds for a, b in rnd]
    extra = 0  # seats are >= 1, so 0 is free for the extra point
    edges = [*games]
    degree: dict[int, int] = defaultdict(int)
    for a, b in games:
        degree[a] += 1
        degree[b] += 1
    edges += [(extra, v) for v in sorted(degree) if degree[v] % 2]
    oriented = _euler_orient(edges)
    side = {frozenset(e): oriented[i] for i, e in enumerate(edges) if i < len(games)}
    return [[side[frozenset((a, b))] for a, b in rnd] for rnd in rounds]


def _euler_orient(edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Orient every edge of a graph with only even degrees along Euler circuits (Hierholzer)."""
    adjacent: dict[int, list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(edges):
        adjacent[a].append(i)
        adjacent[b].append(i)
    used = [False] * len(edges)
    oriented: list[tuple[int, int]] = list(edges)
    pointer: dict[int, int] = defaultdict(int)
    for start in sorted(adjacent):
        stack = [start]
        while stack:
            v = stack[-1]
            ids = adjacent[v]
            while pointer[v] < len(ids) and used[ids[pointer[v]]]:
                pointer[v] += 1
            if pointer[v] == len(ids):
                stack.pop()
                continue
            i = ids[pointer[v]]
            used[i] = True
            a, b = edges[i]
            w = b if a == v else a
            oriented[i] = (v, w)
            stack.append(w)
    return oriented


def partial_lower_bound(sizes: list[int], k: int, courts: int, rest: bool = False) -> int:
    """Fewest slots for groups of ``sizes`` teams, ``k`` games each, on ``courts`` courts.

    In: team counts (each >= 2), games per team ``k``, courts (>= 1), the rest
    rule.  Out: slots (0 without groups).  The largest of the court capacity
    ``ceil(sum n*k/2 / c)``, a team's ``k`` games (``2k - 1`` slots with rest)
    and, for an odd group, ``k + 1`` rounds (a slot holds at most
    ``(n - 1) / 2`` of its games).  Raises ``ValueError`` for fewer than one
    court.
    """
    if courts < 1:
        raise ValueError(f"at least one court is needed, got {courts}")
    if not sizes:
        return 0
    total = sum(n * k // 2 for n in sizes)
    bound = -(-total // courts)
    for n in sizes:
        bound = max(bound, 2 * k - 1 if rest else k, k + 1 if n % 2 else k)
    return bound
