"""The single round robin of a group: FIDE Berger rounds.

Pure: standard library only.  Seats are the ints ``1..n``; a group's games
are built from its team ids in seat order.
"""

from __future__ import annotations

from functools import lru_cache

#: A game inside the planners: ``(round, board, team_a, team_b)``, the round
#: and board 0-based, in Berger order.
Match = tuple[int, int, int, int]


def berger_rounds(n: int) -> list[list[tuple[int, int]]]:
    """Return the FIDE Berger round robin for seats ``1..n``.

    In: ``n``, the number of seats (an int >= 2).  Out: a list of rounds;
    each round is a list of ``(a, b)`` games in board order, ``a`` on side A
    (White in the FIDE tables), ``b`` on side B.  There are ``n - 1`` rounds
    for an even ``n`` and ``n`` rounds for an odd ``n``; every round has
    ``n // 2`` games.  Raises ``TypeError`` when ``n`` is not an int and
    ``ValueError`` when it is below 2.

    The result reproduces the published tables exactly, board order and sides
    included (``docs/rules/scheduling-standings-seeding.md``, section 1.2).
    For an odd ``n`` the table for ``n + 1`` is used and seat ``n + 1`` is the
    bye ("the highest number counts as a bye"): its game is removed from the
    round, the other boards keep their order, so a bye is never a game.

    Construction (the "add n/2" rule of section 1.3 of the same page), with
    ``m`` the even table size:

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
def berger_table(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`berger_rounds` as nested tuples, cached (the planners ask often)."""
    return tuple(tuple(rnd) for rnd in berger_rounds(n))


def group_matches(group: list[int]) -> list[list[Match]]:
    """The Berger rounds of one group with its team ids in place of the seats.

    ``group`` lists team ids in seat order (seat 1 first); returns one list of
    :data:`Game` per round, in board order.
    """
    return [
        [(ri, bi, group[a - 1], group[b - 1]) for bi, (a, b) in enumerate(rnd)]
        for ri, rnd in enumerate(berger_table(len(group)))
    ]
