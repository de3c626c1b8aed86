"""The games of a knockout bracket, from its first-round line-up.

Responsibility
--------------
``plan_bracket`` turns a line-up (team ids in bracket order, ``None`` for a bye, as
``seeding.seed_bracket`` returns it) into the games of every round: which team or which
earlier game's winner fills each side, the round's size (1 game: the final, 2: the
semifinals …), and the third-place game between the semifinal losers when asked for
(docs/rules/scheduling-standings-seeding.md, 4.1 and 4.4; docs/rules/hitachi-karuta.md, "Standings, walkovers, knockout").

What it must not do
-------------------
Pure: standard library only, no Django, no database, no translated text. Courts, slots,
times and match numbers are the service's (``tournament.services.knockout``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BracketMatch", "BracketRound", "plan_bracket"]


@dataclass(frozen=True)
class BracketMatch:
    """One knockout game. A side is a team id (``int``) or the index, in the previous round's
    ``games``, of the game whose winner comes (``Feeder``)."""

    position: int
    a: int | Feeder
    b: int | Feeder


@dataclass(frozen=True)
class Feeder:
    """The winner (or, for the third-place game, the loser) of game ``index`` of the previous round."""

    index: int


@dataclass(frozen=True)
class BracketRound:
    """The games of one round, in bracket order; ``size`` is the number of games the round
    would have without byes (1 final, 2 semifinals, 4 quarterfinals …); ``third_place`` is
    set in the final round when the losers of the semifinals play for third place: its sides
    are ``Feeder``s of the semifinals (the losers)."""

    size: int
    matches: tuple[BracketMatch, ...]
    third_place: BracketMatch | None = None


def plan_bracket(lineup: Sequence[int | None], *, third_place_game: bool) -> list[BracketRound]:
    """The rounds of a bracket whose first-round line-up is ``lineup`` (a power of two long).

    A bye (``None``) sends the other side straight to the next round without a game. A
    third-place game is planned only when ``third_place_game`` is set and both semifinals are
    real games (a semifinal against a bye has no loser). Raises ``ValueError`` when the
    line-up is not a power of two of at least 2 or holds two byes against each other.
    """
    size = len(lineup)
    if size < 2 or size & (size - 1):
        raise ValueError(f"a bracket line-up has a power-of-two length >= 2, not {size}")
    rounds: list[BracketRound] = []
    entrants: list[int | Feeder | None] = list(lineup)
    while len(entrants) > 1:
        matches_in_round = len(entrants) // 2
        matches, next_entrants = [], []
        for i in range(matches_in_round):
            a, b = entrants[2 * i], entrants[2 * i + 1]
            if a is None and b is None:
                raise ValueError(f"two byes meet at position {i}")
            if a is None or b is None:
                next_entrants.append(b if a is None else a)  # a bye: straight through
                continue
            next_entrants.append(Feeder(len(matches)))
            matches.append(BracketMatch(i, a, b))
        third = None
        if matches_in_round == 1 and third_place_game and all(isinstance(e, Feeder) for e in entrants):
            third = BracketMatch(0, entrants[0], entrants[1])
        rounds.append(BracketRound(matches_in_round, tuple(matches), third))
        entrants = next_entrants
    return rounds
