"""The stage path of a group's teams: which game after the groups each place of the group leads to.

Responsibility
--------------
A knockout or placement game's side names where its team comes from (``tournament.engine.slots``:
``group:<group>:<place>``, ``best:<place>:<rank>``). Read the other way round, those references
say, for a team of a group, "1st of Group A plays the semifinal at 13:30 on court 1"
(docs/rules/stages.md, "Slots"). ``steps_for_group`` lists those steps for one group, place by
place; the words and times are the caller's (``tournament.stage_path``). Before those games
exist (they are written when the groups are complete), ``planned_steps`` says the same from the
division's settings: the places that go through to the knockout (its quota per group and the
best runners-up), and the placement game (順位決定戦) each place of a paired group plays
(docs/rules/stages.md, "Placement games"; ``tournament.engine.placement``).

What it must not do
-------------------
Pure: standard library only, no Django, no database, no translated text. Identifiers are plain
ints (group and game ids).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournament.engine import placement, seeding, slots

__all__ = ["Planned", "SlotGame", "Step", "planned_steps", "steps_for_group"]


@dataclass(frozen=True)
class SlotGame:
    """A game after the groups: its id ``game``, a sort key ``order`` (its start in minutes, or its
    number) and the references of its sides (``""`` for a side fed by an earlier game or fixed by
    hand)."""

    game: int
    order: int
    references: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    """Where a place of the group leads: ``place`` in the group (1 = first); ``rank`` 0 for the
    group place itself, else the rank (1 = best) the team must also have among the teams at that
    place of every group (a best runner-up); ``game`` the id of the game; ``reference`` the side's
    reference text."""

    place: int
    rank: int
    game: int
    reference: str


def steps_for_group(group: int, size: int, games: Sequence[SlotGame]) -> list[Step]:
    """The ``Step``s of group ``group`` (of ``size`` teams) over ``games``: each side whose
    reference is a place of that group, or a best-of place a team of the group can hold (a place
    up to ``size``), ordered by place, then rank, then the game's ``order``. A malformed
    reference is skipped (``slots.ReferenceError`` is not raised)."""
    found = []
    for game in games:
        for text in game.references:
            if not text:
                continue
            try:
                ref = slots.parse(text)
            except slots.ReferenceError:
                continue
            if ref.kind == "group" and ref.target == group and ref.index <= size:
                found.append((ref.index, 0, game.order, Step(ref.index, 0, game.game, text)))
            elif ref.kind == "best" and ref.target <= size:
                found.append((ref.target, ref.index, game.order, Step(ref.target, ref.index, game.game, text)))
    return [step for *_key, step in sorted(found, key=lambda item: item[:3])]


@dataclass(frozen=True)
class Planned:
    """What a place of the group will play, from the settings alone: ``kind`` "knockout" or
    "placement"; ``best_of`` (knockout) 0 for a whole place, else how many of the teams at that
    place go through (the best runners-up); ``first_round_games`` (knockout) the games of the
    bracket's first round (1 final, 2 semifinals …; with byes the best seeds start a round later);
    ``opponent_group`` (placement) the group whose team at the same place it meets."""

    place: int
    kind: str
    best_of: int = 0
    first_round_games: int = 0
    opponent_group: int | None = None


def planned_steps(
    group: int,
    *,
    after_groups: str,
    quota: int,
    best_runners_up: int,
    sizes: Sequence[tuple[int, int]],
    pairs: Sequence[tuple[int, int]],
) -> list[Planned]:
    """The ``Planned`` steps of group ``group`` before any game after the groups exists.

    ``after_groups`` is ``Division.after_groups`` ("knockout", "both", "placement", anything else:
    nothing after the groups); ``quota`` the places per group that go through, ``best_runners_up``
    how many of the next place join them; ``sizes`` every group of the division in order as
    (group id, teams not withdrawn); ``pairs`` the placement pairs as indices into ``sizes``
    (``placement.parse_pairs``). Knockout places come first, then placement places, by place.
    An unknown ``group`` gives ``[]``."""
    ids = [gid for gid, _size in sizes]
    if group not in ids:
        return []
    size = dict(sizes)[group]
    steps: list[Planned] = []
    knockout = after_groups in ("knockout", "both")
    if knockout:
        qualifiers = sum(min(quota, s) for _gid, s in sizes) + best_runners_up
        first_round = seeding.bracket_size(qualifiers) // 2 if qualifiers >= 2 else 0
        steps.extend(
            Planned(place, "knockout", first_round_games=first_round) for place in range(1, min(quota, size) + 1)
        )
        if best_runners_up and size > quota:
            steps.append(Planned(quota + 1, "knockout", best_of=best_runners_up, first_round_games=first_round))
    if after_groups in ("placement", "both"):
        first = 1 if after_groups == "placement" else quota + 1
        groups = [placement.GroupSize(gid, str(gid), s) for gid, s in sizes]
        for game in placement.plan(groups, pairs, first):
            if group in (game.group_a, game.group_b):
                other = game.group_b if game.group_a == group else game.group_a
                steps.append(Planned(game.place, "placement", opponent_group=other))
    return steps
