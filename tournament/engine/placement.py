"""Placement games (順位決定戦) after the groups: who plays whom, and the places each game decides.

Responsibility
--------------
Groups are paired ("A-B, C-D", or in order two by two). In each pair, the teams at the same
place of both groups play one game: 1st v 1st, 2nd v 2nd … from ``first_place`` on (1 for a
division that plays only placement games, the first place below the knockout's qualifiers for
"both"). The final places follow place by place (docs/rules/stages.md, "Placement games"):

* the winners of the games at place ``p`` share the best places of that place's block, their
  losers the next ones (one pair: the place-``p`` game decides places ``2p-1`` and ``2p``);
* a team with no opponent at its place (the left-over group when the number of groups is odd,
  or a place the other group of its pair does not have) plays no placement game, keeps its
  group place and comes after the teams at that place who played.

What it must not do
-------------------
Pure: standard library only, no Django, no translated text. Groups are plain ids with names
and sizes; errors are ``PairsError`` with a code the caller turns into words.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "Block",
    "GroupSize",
    "PairsError",
    "PlacementGame",
    "blocks",
    "check_format",
    "default_pairs",
    "parse_pairs",
    "plan",
    "shared_ranks",
]

# Between two pairs: comma, 読点, semicolon, slash or a new line (after NFKC).
PAIR_SEPARATORS = re.compile(r"[,、;/\n]+")
# Between the two groups of a pair: hyphen, minus and dashes, ×, 対 or "vs".
GROUP_SEPARATORS = re.compile(r"\s*(?:-|−|–|—|×|対|\bvs\b)\s*", re.IGNORECASE)
# What an organiser may write around a group's name: "Aリーグ", "A組", "Group A".
NAME_AFFIXES = re.compile(r"^(?:group\s*)?(.*?)(?:リーグ|組|グループ)?$", re.IGNORECASE)


class PairsError(ValueError):
    """The organiser's pair text cannot be used. ``code``: "format" (``part`` is not two group
    names), "unknown" (``part`` names no group), "twice" (``part`` is a group written twice,
    or paired with itself), "missing" (``groups``: the groups left out, beyond the one left-over
    group an odd number of groups allows)."""

    def __init__(self, code: str, part: str = "", groups: Sequence[str] = ()):
        super().__init__(f"{code}: {part or ', '.join(groups)}")
        self.code = code
        self.part = part
        self.groups = tuple(groups)


@dataclass(frozen=True)
class GroupSize:
    """A group: its ``id``, its ``name`` ("A") and how many teams it places (withdrawn teams
    left out)."""

    id: int
    name: str
    size: int


@dataclass(frozen=True)
class PlacementGame:
    """One placement game: ``place`` of group ``group_a`` v the same place of ``group_b`` (ids);
    ``pair`` is the pair's index (0 = first pair)."""

    place: int
    group_a: int
    group_b: int
    pair: int


@dataclass(frozen=True)
class Block:
    """The final places of the teams at one group place: ``games`` placement games at it; its
    winners share ``winner_rank``, its losers ``loser_rank``, and the ``unpaired`` teams with no
    game share ``unpaired_rank`` (ranks 1 = first; equal ranks are shared places)."""

    place: int
    games: int
    unpaired: int
    winner_rank: int
    loser_rank: int
    unpaired_rank: int


def _key(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).strip()
    match = NAME_AFFIXES.match(text)
    return (match.group(1) if match and match.group(1) else text).strip().upper()


def default_pairs(count: int) -> list[tuple[int, int]]:
    """Groups in order, two by two (indices); with an odd ``count`` the last group is left over."""
    return [(i, i + 1) for i in range(0, count - 1, 2)]


def _parts(text: str) -> list[tuple[str, list[str]]]:
    """(pair text, its two or more group names) per pair of ``text``; ``PairsError("format")``
    for a pair that is not two names."""
    parts = []
    for part in PAIR_SEPARATORS.split(unicodedata.normalize("NFKC", text)):
        part = part.strip()
        if not part:
            continue
        sides = [s.strip() for s in GROUP_SEPARATORS.split(part) if s.strip()]
        if len(sides) != 2:
            raise PairsError("format", part)
        parts.append((part, sides))
    return parts


def check_format(text: str) -> None:
    """``PairsError("format")`` unless every pair of ``text`` is two names (groups not checked)."""
    _parts(text)


def parse_pairs(text: str, names: Sequence[str]) -> list[tuple[int, int]]:
    """The pairs written in ``text`` ("A-B, C-D"; full-width letters, 読点 and "Aリーグ" are
    fine) as indices into ``names`` (the groups in order); blank text gives ``default_pairs``.

    Every group is in exactly one pair, except that with an odd number of groups one group is
    left over (not written). Raises ``PairsError`` naming the bad part.
    """
    if not text.strip():
        return default_pairs(len(names))
    keys = {_key(name): i for i, name in enumerate(names)}
    pairs, seen = [], set()
    for _part, sides in _parts(text):
        indices = []
        for side in sides:
            index = keys.get(_key(side))
            if index is None:
                raise PairsError("unknown", side)
            if index in seen:
                raise PairsError("twice", side)
            seen.add(index)
            indices.append(index)
        pairs.append((indices[0], indices[1]))
    missing = [names[i] for i in range(len(names)) if i not in seen]
    if len(missing) > len(names) % 2:
        raise PairsError("missing", groups=missing)
    return pairs


def plan(groups: Sequence[GroupSize], pairs: Sequence[tuple[int, int]], first_place: int = 1) -> list[PlacementGame]:
    """The placement games, place by place from ``first_place``, pair by pair in order: for
    each pair (indices into ``groups``) and each place both groups have, one game. A group in
    no pair, and a place only one group of a pair has, get no game."""
    if first_place < 1:
        raise ValueError("places start at 1")
    games = []
    deepest = max((g.size for g in groups), default=0)
    for place in range(first_place, deepest + 1):
        for index, (a, b) in enumerate(pairs):
            if groups[a].size >= place and groups[b].size >= place:
                games.append(PlacementGame(place, groups[a].id, groups[b].id, index))
    return games


def blocks(teams_at: Mapping[int, int], games_at: Mapping[int, int], first_place: int = 1) -> list[Block]:
    """The final places, block by block: ``teams_at`` maps a group place to how many teams hold
    it (one per group that has it), ``games_at`` to how many placement games are played at it.
    The places above ``first_place`` (a knockout's) come first; then, per place from
    ``first_place``, winners, losers, then the teams without a game (module docstring)."""
    taken = sum(count for place, count in teams_at.items() if place < first_place)
    result = []
    for place in sorted(p for p in teams_at if p >= first_place):
        games = games_at.get(place, 0)
        unpaired = max(teams_at[place] - 2 * games, 0)
        result.append(Block(place, games, unpaired, taken + 1, taken + games + 1, taken + 2 * games + 1))
        taken += 2 * games + unpaired
    return result


def shared_ranks(
    groups: Sequence[GroupSize], pairs: Sequence[tuple[int, int]], first_place: int = 1
) -> list[tuple[int, int]]:
    """The final places the placement games leave shared: ``[(rank, teams)]`` for every rank
    held by more than one team, best first (docs/rules/stages.md, "Placement games": with two
    or more pairs the winners of the games at one place share a rank, and so do their losers
    and the teams of that place with no game). ``[]``: every place has one team (one pair, or
    one pair and a left-over group). The places above ``first_place`` (a knockout's) are not
    counted."""
    games = plan(groups, pairs, first_place)
    teams_at: dict[int, int] = {}
    for group in groups:
        for place in range(1, group.size + 1):
            teams_at[place] = teams_at.get(place, 0) + 1
    games_at: dict[int, int] = {}
    for game in games:
        games_at[game.place] = games_at.get(game.place, 0) + 1
    shared = []
    for block in blocks(teams_at, games_at, first_place):
        for rank, count in (
            (block.winner_rank, block.games),
            (block.loser_rank, block.games),
            (block.unpaired_rank, block.unpaired),
        ):
            if count > 1:
                shared.append((rank, count))
    return shared
