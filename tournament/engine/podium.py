"""Final places of a division's knockout, from its decided games (plain team ids).

Pure: no Django, no database, no translation. The rule is in ``docs/rules/podium.md``:
the winner of the final is first and its loser second; the winner of the third-place
game is third; a division without a third-place game awards joint third to both
losers of the semifinals.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

FIRST, SECOND, THIRD = 1, 2, 3


@dataclass(frozen=True)
class Outcome:
    """A decided knockout game: the winning and the losing team (ids)."""

    winner: int
    loser: int


@dataclass(frozen=True)
class Place:
    """A final place (1, 2 or 3) and the team (id) that holds it."""

    place: int
    team: int


def joint_third(third_place: Sequence[Outcome | None], semifinals: Sequence[Outcome | None]) -> list[int]:
    """The teams (ids) sharing third place: the losers of the decided semifinals, in order,
    when the division has no third-place game (``third_place`` empty); else ``[]``.

    ``None`` in a sequence stands for a game without a result yet."""
    if third_place:
        return []
    return [match.loser for match in semifinals if match is not None]


def final_places(
    final: Outcome | None,
    third_place: Sequence[Outcome | None],
    semifinals: Sequence[Outcome | None],
) -> list[Place]:
    """The places decided so far, best first: first and second from ``final``, then third
    from each decided third-place game, or both semifinal losers (joint third) when the
    division has no third-place game. ``None`` is a game without a result yet; a game not
    decided gives no place."""
    places = []
    if final is not None:
        places += [Place(FIRST, final.winner), Place(SECOND, final.loser)]
    places += [Place(THIRD, match.winner) for match in third_place if match is not None]
    places += [Place(THIRD, team) for team in joint_third(third_place, semifinals)]
    return places
