"""The placement games (順位決定戦) of each division as every medium shows them: a list by place,
what each game decides, the teams that play none, and the final places they give.

Nothing here writes. The rules are in ``docs/rules/stages.md`` ("Placement games"); the ranks
come from ``tournament.engine.placement.blocks``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.engine import placement, slots
from tournament.models import Match
from tournament.reports.stages import division_slots
from tournament.reports.standings import division_standings
from tournament.reports.timetable import confirmed_sheet, match_queryset, result_text


def nth_place(rank):
    """A final place by its number in the active language: 「第3位」, "3rd place" (issue 27:
    English pages said 第3位 and "Place 3"). The English ordinal's suffix is translated to
    nothing in Japanese (``pgettext`` "ordinal"), so one catalogue entry carries each language."""
    n = int(rank)
    if n % 100 in (11, 12, 13) or n % 10 not in (1, 2, 3):
        ordinal = pgettext("ordinal", "%(n)sth") % {"n": n}
    elif n % 10 == 1:
        ordinal = pgettext("ordinal", "%(n)sst") % {"n": n}
    elif n % 10 == 2:
        ordinal = pgettext("ordinal", "%(n)snd") % {"n": n}
    else:
        ordinal = pgettext("ordinal", "%(n)srd") % {"n": n}
    return _("%(ordinal)s place") % {"ordinal": ordinal}


def place_name(rank, shared=False):
    """The name of a final place as printed on the results, in the active language: "優勝",
    "準優勝", else "第N位" ("Champion", "Runner-up", "3rd place"; a place shared by several teams
    is always "第N位")."""
    if not shared and rank == 1:
        return _("Champion")
    if not shared and rank == 2:
        return _("Runner-up")
    return nth_place(rank)


def placement_title(place, pair):
    """ "1位決定戦（A-B）" in the active language: the game for group ``place`` of pair ``pair``."""
    return _("Play-off for place %(place)s (%(pair)s)") % {"place": place, "pair": pair}


@dataclass
class PlacementLine:
    """One placement game: ``match`` (from ``match_queryset``), the group ``place`` it is for,
    ``pair`` ("A-B"), the final ranks of its ``winner_rank`` and ``loser_rank``, ``shared``
    (how many games at this place share these ranks), ``label_a``/``label_b`` (where each
    side comes from: "Aリーグ1位") and ``out_of_date``."""

    match: Match
    place: int
    pair: str
    winner_rank: int
    loser_rank: int
    shared: int
    label_a: str = ""
    label_b: str = ""
    out_of_date: bool = False

    @property
    def title(self):
        """ "1位決定戦（A-B）" in the active language."""
        return placement_title(self.place, self.pair)

    @property
    def decides(self):
        """What the game decides: "1位・2位", or, when games of other pairs are played at the same
        place, the shared ranks."""
        values = {"winner": self.winner_rank, "loser": self.loser_rank, "count": self.shared}
        if self.shared == 1:
            return _("places %(winner)s and %(loser)s") % values
        return (
            _("winner place %(winner)s, loser place %(loser)s (shared by the %(count)s games at this place)") % values
        )

    @property
    def result(self):
        """ "30-26", "walkover" or "" (no confirmed result)."""
        return result_text(confirmed_sheet(self.match))


@dataclass
class Unpaired:
    """A team at group ``place`` of ``group`` that plays no placement game (left-over group, or
    a place the other group of its pair does not have): its final ``rank`` and ``team`` (None
    until the group place is final)."""

    group: object
    place: int
    rank: int
    team: object = None

    @property
    def rank_name(self):
        return place_name(self.rank, shared=True)


@dataclass
class DivisionPlacement:
    """One division's placement games, ``lines`` by place then pair, and its ``unpaired`` teams."""

    division: object
    lines: list
    unpaired: list = field(default_factory=list)

    def places(self):
        """The final places decided so far, best first: ``[(rank, Team, shared, to confirm)]``:
        the winner and loser of each played game (to confirm when the game is out of date), and
        the unpaired teams whose group place is final."""
        decided = []
        for line in self.lines:
            match = line.match
            if match.has_result and match.winner_id is not None:
                shared, check = line.shared > 1, line.out_of_date
                decided += [
                    (line.winner_rank, match.winner, shared, check),
                    (line.loser_rank, match.loser, shared, check),
                ]
        counts = {}
        for item in self.unpaired:
            counts[item.rank] = counts.get(item.rank, 0) + 1
        decided += [(u.rank, u.team, counts[u.rank] > 1, False) for u in self.unpaired if u.team is not None]
        return sorted(decided, key=lambda item: item[0])


def _group_sizes(tables):
    """Group pk -> (group, its teams that have not withdrawn, in place order, with finality)."""
    sizes = {}
    for table in tables:
        eligible = [row for row in table.rows if not table.teams[row.team].withdrawn]
        sizes[table.group.pk] = (table.group, [(table.teams[r.team], table.complete and not r.tied) for r in eligible])
    return sizes


def _counts(groups, matches):
    """(teams per group place, placement games per place, group pks playing at each place). A
    game counts its two sides even when a withdrawal left a slot without a team."""
    paired, teams_at, games_at = {}, {}, {}
    for m in matches:
        games_at[m.round] = games_at.get(m.round, 0) + 1
        for source in (m.source_a, m.source_b):
            if source:
                paired.setdefault(m.round, set()).add(slots.parse(source).target)
    for _group, rows in groups.values():
        for place in range(1, len(rows) + 1):
            teams_at[place] = teams_at.get(place, 0) + 1
    for place, games in games_at.items():
        teams_at[place] = max(teams_at.get(place, 0), 2 * games)
    return teams_at, games_at, paired


def _division_placement(division, matches):
    """The ``DivisionPlacement`` of ``division`` from its placement ``matches``."""
    tables = division_standings(division)
    groups = _group_sizes(tables)
    states = {s.match.pk: s for s in division_slots(division, tables=tables, matches=matches)}
    teams_at, games_at, paired = _counts(groups, matches)
    first = min(games_at)
    ranks = {b.place: b for b in placement.blocks(teams_at, games_at, first)}
    lines = []
    for m in matches:
        block, state = ranks[m.round], states[m.pk]
        names = [_group_name(groups, source) for source in (m.source_a, m.source_b)]
        lines.append(
            PlacementLine(
                m, m.round, "-".join(names), block.winner_rank, block.loser_rank, block.games,
                state.a.label, state.b.label, state.out_of_date,
            )
        )  # fmt: skip
    unpaired = []
    for place, block in sorted(ranks.items()):
        for pk, (group, rows) in groups.items():
            if len(rows) >= place and pk not in paired.get(place, set()):
                team, final = rows[place - 1]
                unpaired.append(Unpaired(group, place, block.unpaired_rank, team if final else None))
    return DivisionPlacement(division, lines, unpaired)


def _group_name(groups, source):
    if not source:
        return "?"
    group = groups.get(slots.parse(source).target)
    return group[0].name if group else "?"


def division_placements(event, division=None):
    """``[DivisionPlacement]`` of every division of ``event`` with placement games (or only
    ``division``), games loaded by ``match_queryset``, by place then pair."""
    games = list(match_queryset(event).placement().order_by("round", "bracket_position", "match_number"))
    divisions = [division] if division is not None else list(event.divisions.all())
    result = []
    for d in divisions:
        matches = [m for m in games if m.division_id == d.pk]
        if matches:
            result.append(_division_placement(d, matches))
    return result


def placement_places(event):
    """Division pk -> ``[(place name, Team, to confirm)]`` decided so far by placement games,
    best first (``place_name``: "優勝", "準優勝", "第3位" …; below a knockout, the places after
    its own; to confirm: from an out-of-date game, see ``bracket.final_places``)."""
    return {
        p.division.pk: [(place_name(rank, shared), team, check) for rank, team, shared, check in p.places()]
        for p in division_placements(event)
    }
