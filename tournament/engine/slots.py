"""Slots after the group stage: references to where a team comes from, and who fills them now.

Responsibility
--------------
A knockout or placement game's side is a *slot*. Its team is never copied once and forgotten:
the slot names its source, and the team is worked out again from the confirmed results whenever
they change (docs/rules/stages.md). The references, as stored on a game:

* ``group:<group>:<place>``: the ``place``-th team of a group (1 = group winner), withdrawn teams
  left out ("Aリーグ1位");
* ``best:<place>:<rank>``: the ``rank``-th best, compared across groups, of the teams at ``place``
  of their groups ("2位の中で成績上位2番目": the best runners-up);
* ``winner:<game>`` and ``loser:<game>``: an earlier game's winner or loser.

``resolve`` says which team fills a reference now and whether that is final: a group place is
final when every game of the group has a confirmed result and the place is not tied; a best-of
place when every group is final there and no tie crosses its rank; a winner when the game has a
result.

What it must not do
-------------------
Pure: standard library only, no Django, no database, no translated text. Identifiers are plain
ints (group, team and game ids); the read side (``tournament.reports.stages``) supplies the
tables and turns references into words.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Filled",
    "Outcome",
    "PlaceTable",
    "Reference",
    "ReferenceError",
    "best",
    "group_place",
    "loser",
    "parse",
    "resolve",
    "winner",
]

KINDS = ("group", "best", "winner", "loser")


class ReferenceError(ValueError):
    """A reference string that is not one of the forms above."""


@dataclass(frozen=True)
class Reference:
    """A parsed reference: ``kind`` is "group", "best", "winner" or "loser"; ``target`` the group
    id (group), the place (best) or the game id (winner, loser); ``index`` the place in the group
    (group) or the rank among the teams at that place (best), 0 for a game."""

    kind: str
    target: int
    index: int = 0

    def __str__(self) -> str:
        if self.kind in ("winner", "loser"):
            return f"{self.kind}:{self.target}"
        return f"{self.kind}:{self.target}:{self.index}"


def group_place(group: int, place: int) -> str:
    """The reference of ``place`` (1 = first) of group ``group``."""
    return str(Reference("group", group, place))


def best(place: int, rank: int) -> str:
    """The reference of the ``rank``-th best (1 = best) of the teams at ``place`` of their groups."""
    return str(Reference("best", place, rank))


def winner(game: int) -> str:
    """The reference of game ``game``'s winner."""
    return str(Reference("winner", game))


def loser(game: int) -> str:
    """The reference of game ``game``'s loser."""
    return str(Reference("loser", game))


def parse(text: str) -> Reference:
    """The ``Reference`` written as ``text``; raises ``ReferenceError`` for anything else."""
    parts = text.split(":")
    try:
        numbers = [int(p) for p in parts[1:]]
    except ValueError:
        raise ReferenceError(f"not a slot reference: {text!r}") from None
    kind = parts[0]
    wanted = 1 if kind in ("winner", "loser") else 2
    if kind not in KINDS or len(numbers) != wanted or min(numbers) < 1:
        raise ReferenceError(f"not a slot reference: {text!r}")
    return Reference(kind, *numbers)


@dataclass(frozen=True)
class PlaceTable:
    """The teams of one ranking in place order, and per place whether it is final.

    For a group: its non-withdrawn teams from first to last, ``final[i]`` true when the group is
    complete and place ``i + 1`` is not tied. For the teams at one place across groups (``best``):
    those teams from best to worst, ``final[i]`` true when rank ``i + 1`` is settled."""

    teams: tuple[int, ...]
    final: tuple[bool, ...]

    def __post_init__(self) -> None:
        if len(self.teams) != len(self.final):
            raise ValueError("a place table has one finality per team")


@dataclass(frozen=True)
class Outcome:
    """A game's result: its ``winner`` and ``loser`` (team ids)."""

    winner: int
    loser: int


@dataclass(frozen=True)
class Filled:
    """Who fills a slot now: ``team`` (None when nobody can yet, e.g. a place beyond the group's
    size or a game without a result) and whether that is ``final``."""

    team: int | None
    final: bool


EMPTY = Filled(None, False)


def resolve(
    reference: str | Reference,
    *,
    groups: Mapping[int, PlaceTable],
    bests: Mapping[int, PlaceTable],
    outcomes: Mapping[int, Outcome | None],
) -> Filled:
    """Who fills ``reference`` now (docs/rules/stages.md, "Slots").

    ``groups`` maps a group id to its ``PlaceTable``; ``bests`` maps a place to the cross-group
    ``PlaceTable`` of the teams at that place; ``outcomes`` maps a game id to its ``Outcome`` (None
    or missing: no result yet). An unknown group, place or game gives an empty, non-final slot.
    Raises ``ReferenceError`` for a malformed reference string.
    """
    ref = parse(reference) if isinstance(reference, str) else reference
    if ref.kind in ("winner", "loser"):
        outcome = outcomes.get(ref.target)
        if outcome is None:
            return EMPTY
        return Filled(outcome.winner if ref.kind == "winner" else outcome.loser, True)
    table = groups.get(ref.target) if ref.kind == "group" else bests.get(ref.target)
    if table is None or ref.index > len(table.teams):
        return EMPTY
    return Filled(table.teams[ref.index - 1], table.final[ref.index - 1])


def settled_places(ranks: Sequence[int], tied: Sequence[bool], complete: bool) -> tuple[bool, ...]:
    """Per row of a ranking (``ranks`` and ``tied`` in order), whether its place is final: the
    ranking is ``complete`` and the row does not share its rank with another row."""
    return tuple(complete and not t for t in tied[: len(ranks)])
