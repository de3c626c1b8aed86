"""The final ranking of every division (成績一覧) with how each place was decided, and the podium
of the hall screen (issue 19, items 5 and 6).

Nothing here writes. The places are those of ``tournament.reports.bracket.final_places`` (the
final results page and PDF), built from the same brackets, group champions and placement games,
with two things more: how each place was decided (the final, the third-place game, joint third,
a placement game, a group) and whether the division is finished. The rules are in
``docs/rules/podium.md`` and ``docs/rules/stages.md`` ("Placement games", "Per division").
No players' names: a caller that may show them reads ``team.players``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import prefetch_related_objects
from django.utils.translation import gettext as _

from tournament.engine import podium
from tournament.reports.bracket import PLACES, division_brackets, single_champions
from tournament.reports.placement import division_placements, place_name

# How a place was decided (``RankLine.how``).
FINAL = "final"
THIRD_PLACE = "third_place"
JOINT_THIRD = "joint_third"  # the losers of two semifinals share third (no third-place game)
LONE_THIRD = "lone_third"  # the loser of the only semifinal is third alone (no third-place game)
PLACEMENT = "placement"
UNPAIRED = "unpaired"  # a group place that plays no placement game
GROUP = "group"  # the division's only qualifier: its group winner is the champion

# Where a division stands (``DivisionRanking.state``).
FINISHED = "finished"
UNFINISHED = "unfinished"
GROUPS_ONLY = "groups_only"  # nothing follows the groups (its setting)


@dataclass(frozen=True)
class RankLine:
    """One final place: ``rank`` (1, 2, 3 …), ``place`` (its name: "優勝", "準優勝", "第3位" in
    the active language), ``team``, ``how`` (one of the codes above), ``how_text`` (in words:
    "決勝", "3位決定戦", a placement game's title …) and ``to_confirm`` (from a game a later
    change left out of date, or a team listed twice: as ``final_places``)."""

    rank: int
    place: str
    team: object
    how: str
    how_text: str
    to_confirm: bool = False


@dataclass
class DivisionRanking:
    """A division's final places decided so far (``lines``, best first), its ``state``
    (``FINISHED``, ``UNFINISHED`` or ``GROUPS_ONLY``) and, when not finished, ``games_left``
    (games after the groups without a confirmed result; None while they are not made yet).
    ``podium_places``: rank (1, 2, 3) -> how many teams the division's format gives that place,
    decided or not (``format_places``); a rank the format cannot give is absent."""

    division: object
    lines: list = field(default_factory=list)
    state: str = UNFINISHED
    games_left: int | None = None
    podium_places: dict = field(default_factory=dict)

    @property
    def finished(self):
        return self.state == FINISHED

    @property
    def state_text(self):
        """Why the ranking is not complete, in the active language ("" when finished)."""
        if self.state == FINISHED:
            return ""
        if self.state == GROUPS_ONLY:
            return _("No games after the groups: the group standings are the result.")
        if self.games_left is None:
            return _("Not finished: the games after the groups are not made yet.")
        return _("Not finished: %(count)s games after the groups have no confirmed result yet.") % {
            "count": self.games_left
        }

    def at(self, rank):
        """The lines at ``rank`` (joint thirds: two)."""
        return [line for line in self.lines if line.rank == rank]

    @property
    def champion_decided(self):
        """True once first place is decided (the final, or what stands for it, is confirmed)."""
        return bool(self.at(podium.FIRST))


def _knockout_lines(bracket):
    """The ``RankLine`` of a ``DivisionBracket``'s places (``checked_places``). Without a
    third-place game the semifinal losers are third: "joint" only when two semifinals give two
    of them, else the one loser is third alone (docs/rules/podium.md)."""
    lines = []
    for rank, team, check in bracket.checked_places():
        if rank != podium.THIRD:
            how, text = FINAL, _("by the final")
        elif bracket.third:
            how, text = THIRD_PLACE, _("by the third-place game")
        elif bracket.third_shared:
            how, text = JOINT_THIRD, _("joint third (no third-place game)")
        else:
            how, text = LONE_THIRD, _("third (no third-place game)")
        lines.append(RankLine(rank, str(PLACES[rank]), team, how, text, check))
    return lines


def format_places(bracket, placement, champion):
    """Rank (1, 2, 3) -> how many teams the division's format gives that place, from its games
    after the groups whether played or not (docs/rules/podium.md, "Places a format gives"): a
    final gives 1st and 2nd; each third-place game one 3rd, else each semifinal's loser a 3rd
    (joint when two; none when the knockout is only a final); a group champion that is the only
    qualifier gives 1st alone; placement games and unpaired teams the ranks they decide.
    ``bracket``: a ``DivisionBracket`` or None; ``placement``: a ``DivisionPlacement`` or None;
    ``champion``: a ``GroupChampion`` or None."""
    counts = {}

    def add(rank, count=1):
        if rank <= podium.THIRD and count:
            counts[rank] = counts.get(rank, 0) + count

    if champion is not None:
        add(podium.FIRST)
    if bracket is not None and bracket.final is not None:
        add(podium.FIRST)
        add(podium.SECOND)
        add(podium.THIRD, len(bracket.third) or bracket.semifinal_count)
    for line in placement.lines if placement else []:
        add(line.winner_rank)
        add(line.loser_rank)
    for item in placement.unpaired if placement else []:
        add(item.rank)
    return counts


def _placement_lines(placement):
    """The ``RankLine`` of a ``DivisionPlacement``'s places, best first (as its ``places()``)."""
    lines = []
    for line in placement.lines:
        match = line.match
        if match.has_result and match.winner_id is not None:
            shared, title = line.shared > 1, str(line.title)
            for rank, team in ((line.winner_rank, match.winner), (line.loser_rank, match.loser)):
                lines.append(RankLine(rank, place_name(rank, shared), team, PLACEMENT, title, line.out_of_date))
    counts = {}
    for item in placement.unpaired:
        counts[item.rank] = counts.get(item.rank, 0) + 1
    for item in placement.unpaired:
        if item.team is not None:
            text = _("group %(group)s, place %(place)s (no placement game)") % {
                "group": item.group.name,
                "place": item.place,
            }
            lines.append(RankLine(item.rank, place_name(item.rank, counts[item.rank] > 1), item.team, UNPAIRED, text))
    return sorted(lines, key=lambda line: line.rank)


def _games_left(bracket, placement):
    """Games after the groups still without a confirmed result (a knockout's and placements')."""
    games = list(bracket.matches) if bracket else []
    games += [line.match for line in placement.lines] if placement else []
    return sum(1 for g in games if not g.has_result)


def _state(division, bracket, placement, champion):
    """(state, games left) of a division (see ``DivisionRanking``). The games after the groups
    are made at once (``tournament.services.knockout.seed_divisions``), so a division with any
    of them, or with a group champion, has them all."""
    if division.after_groups not in ("knockout", "placement", "both"):
        return GROUPS_ONLY, None
    if bracket is None and placement is None and champion is None:
        return UNFINISHED, None
    left = _games_left(bracket, placement)
    waiting = placement is not None and any(item.team is None for item in placement.unpaired)
    if left == 0 and not waiting:
        return FINISHED, 0
    return UNFINISHED, left


def division_rankings(event, division=None, with_players=False):
    """``[DivisionRanking]`` of every division of ``event`` (or only ``division``), in the
    divisions' order.

    The places equal ``reports.final_places`` (same names, teams, order and "to confirm"):
    the knockout's places (or the group champion of a division whose only qualifier it is),
    then the placement games' places; a team listed at two places is to be confirmed.
    ``with_players``: the teams' players are loaded (one query) for a caller that may show them.
    """
    brackets = {b.division.pk: b for b in division_brackets(event, division)}
    placements = {p.division.pk: p for p in division_placements(event, division)}
    champions = {c.division.pk: c for c in single_champions(event)}
    result = []
    for d in [division] if division is not None else event.divisions.all():
        bracket, placement = brackets.get(d.pk), placements.get(d.pk)
        champion = champions.get(d.pk) if bracket is None else None
        lines = _knockout_lines(bracket) if bracket else []
        if champion is not None:
            text = _("group %(group)s, place 1 (only qualifier)") % {"group": champion.group.name}
            lines = [RankLine(podium.FIRST, champion.place, champion.team, GROUP, text)]
        lines += _placement_lines(placement) if placement else []
        listed = [line.team.pk for line in lines]
        lines = [
            RankLine(x.rank, x.place, x.team, x.how, x.how_text, x.to_confirm or listed.count(x.team.pk) > 1)
            for x in lines
        ]
        state, left = _state(d, bracket, placement, champion)
        result.append(DivisionRanking(d, lines, state, left, format_places(bracket, placement, champion)))
    if with_players:
        prefetch_related_objects([line.team for r in result for line in r.lines], "players")
    return result
