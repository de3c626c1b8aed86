"""An event's results as the contents of a signed results file (docs/exchange.md, "Contents").

Reads only (the read side: standings, brackets, placement games, teams with players). The file
goes from organiser to organiser: it holds the players' names, furigana and grades, which the
final needs to enter the qualifying teams; it is never published.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from series.exchange import signing
from series.models import SeriesEvent
from tournament.models import Match
from tournament.reports import stage_notes
from tournament.reports.bracket import division_brackets, single_champions
from tournament.reports.placement import division_placements
from tournament.reports.standings import division_standings, rank_text
from tournament.reports.teams import teams_with_players
from tournament.reports.timetable import confirmed_sheet, match_queryset, result_text

# How many of each division's final places qualify for the final unless the organiser says
# otherwise: the champion and the runner-up (docs/exchange.md, "Qualifiers").
DEFAULT_QUALIFIERS = 2
MAX_QUALIFIERS = 16


def division_places(event) -> dict:
    """Division pk -> ``[(place, Team, to confirm)]``, best first: the knockout's places (1, 2,
    3), a single qualifier as champion, the placement games' ranks, and for a division with
    nothing after one group, the group's ranks (docs/rules/podium.md)."""
    places = defaultdict(list)
    for bracket in division_brackets(event):
        places[bracket.division.pk] += bracket.checked_places()
    for champion in single_champions(event):
        if not places[champion.division.pk]:
            places[champion.division.pk] = [(1, champion.team, False)]
    for placement in division_placements(event):
        places[placement.division.pk] += [(rank, team, check) for rank, team, _shared, check in placement.places()]
    for division in event.divisions.all():
        if division.after_groups == "none" and division.groups.count() == 1:
            table = division_standings(division)[0]
            places[division.pk] = [(row.rank, table.teams[row.team], not table.complete) for row in table.rows]
    return {pk: sorted(rows, key=lambda item: item[0]) for pk, rows in places.items()}


def unfinished(event, places) -> list[str]:
    """Why divisions cannot be exported yet, one sentence per division (empty: all finished):
    group games or games after the groups still to play or to make, a tie waiting for a lot,
    a place to confirm (an out-of-date game)."""
    reasons = []
    for division in event.divisions.all():
        if not division.teams.exists():
            continue
        stage = stage_notes.division_stage(division)
        open_games = Match.objects.filter(division=division).open().count()
        ungrouped = list(division.teams.filter(withdrawn=False, group=None).values_list("name", flat=True))
        if ungrouped and division.groups.exists():
            why = _("teams in no group (%(teams)s): draw the division again, or move them into a group") % {
                "teams": "、".join(ungrouped)
            }
        elif stage.state == stage_notes.BLOCKED:
            why = stage.reason
        elif stage.state == stage_notes.READY:
            why = _("the games after the groups are not made yet")
        elif open_games or stage.state == stage_notes.PLAYING:
            why = _("%(count)s games have no result yet") % {"count": open_games}
        elif any(check for _place, _team, check in places.get(division.pk, [])):
            why = _("a place is to be confirmed (an out-of-date game)")
        else:
            continue
        reasons.append(_("%(division)s: %(why)s.") % {"division": division.name, "why": why})
    return reasons


@dataclass(frozen=True)
class QualifierCount:
    """How many teams a division sends on (``sent``) of the places asked for (``asked``) and,
    when fewer, why (``reason``, a sentence; empty otherwise)."""

    division: str
    asked: int
    sent: int
    reason: str

    def sentence(self) -> str:
        """「小学生の部: 2 qualify.」 or the number with the reason when fewer than asked."""
        if not self.reason:
            return _("%(division)s: %(sent)s of %(asked)s places qualify.") % vars(self)
        return _("%(division)s: %(sent)s of %(asked)s places qualify: %(reason)s") % vars(self)


def _fewer_reason(division, teams, decided, single) -> str:
    if not teams:
        return _("the division has no team.")
    if decided >= teams:
        return _("the division has only %(teams)s teams.") % {"teams": teams}
    open_games = Match.objects.filter(division=division).open().count()
    if open_games:
        return ngettext(
            "not finished (%(count)s game without a confirmed result).",
            "not finished (%(count)s games without a confirmed result).",
            open_games,
        ) % {"count": open_games}
    if single:
        return _(
            "its only group sends one team on, so its winner is the champion and no other place is decided. "
            "To send more, give the division games after the groups that decide more places (a knockout with "
            "more qualifiers per group, or placement games)."
        )
    return _("its games decide only %(decided)s final places (docs/rules/podium.md).") % {"decided": decided}


def qualifier_counts(event, qualifiers: int, places: dict | None = None) -> list[QualifierCount]:
    """Per division of ``event``: the places asked for (``qualifiers``), the teams the results
    file sends on (places up to ``qualifiers``, ties at the last place included) and why fewer
    when fewer (no team, few teams, a single group whose winner is the champion, fewer places
    decided by the games: docs/exchange.md, "Qualifiers"). Said by ``export_results`` (command)
    and the exchange page. ``places``: ``division_places(event)`` when already read."""
    places = division_places(event) if places is None else places
    single = {champion.division.pk for champion in single_champions(event)}
    counts = []
    for division in event.divisions.all():
        ranked = places.get(division.pk, [])
        sent = sum(1 for place, _team, _check in ranked if place <= qualifiers)
        teams = division.teams.filter(withdrawn=False).count()
        reason = "" if sent >= qualifiers else _fewer_reason(division, teams, len(ranked), division.pk in single)
        counts.append(QualifierCount(division.name, qualifiers, sent, reason))
    return counts


def _teams(event) -> dict:
    by_division = defaultdict(list)
    for team in teams_with_players(event):
        by_division[team.division_id].append(
            {
                "ref": team.pk,
                "name": team.name,
                "affiliation": team.affiliation,
                "chaperone": team.chaperone,
                "group": team.group.name if team.group else "",
                "withdrawn": team.withdrawn,
                "players": [
                    {
                        "name": p.name,
                        "furigana": p.furigana,
                        "grade": p.grade,
                        "leader": p.is_leader,
                        "substitute": p.is_substitute,
                    }
                    for p in team.players.all()
                ],
            }
        )
    return by_division


def _groups(division) -> list:
    return [
        {
            "name": table.group.name,
            "complete": table.complete,
            "rows": [
                {
                    "team": row.team,
                    "rank": rank_text(row),
                    "played": row.played,
                    "wins": row.wins,
                    "losses": row.losses,
                    "cards_taken": row.cards_taken,
                    "cards_conceded": row.cards_conceded,
                    "card_diff": row.card_diff,
                }
                for row in table.rows
            ],
        }
        for table in division_standings(division)
    ]


def _games(event) -> dict:
    by_division = defaultdict(list)
    for match in match_queryset(event):
        by_division[match.division_id].append(
            {
                "number": match.match_number,
                "stage": match.stage,
                "stage_name": match.get_stage_display(),
                "round": match.round,
                "group": match.group.name if match.group else "",
                "team_a": match.team_a_id,
                "team_b": match.team_b_id,
                "winner": match.winner_id,
                "status": match.status,
                "result": result_text(confirmed_sheet(match)),
            }
        )
    return by_division


def build_payload(event, member: SeriesEvent, qualifiers: int, places: dict) -> dict:
    """The file's contents (JSON-ready): the series, the event, and per division its teams with
    players, group standings, games, final places and the qualifiers (places up to
    ``qualifiers``; teams sharing the last qualifying place all qualify)."""
    teams, games = _teams(event), _games(event)
    divisions = []
    for division in event.divisions.all():
        ranked = [{"place": place, "team": team.pk} for place, team, _check in places.get(division.pk, [])]
        divisions.append(
            {
                "name": division.name,
                "grade_band": division.grade_band,
                "teams": teams.get(division.pk, []),
                "groups": _groups(division),
                "games": games.get(division.pk, []),
                "places": ranked,
                "qualifiers": [row for row in ranked if row["place"] <= qualifiers],
            }
        )
    return {
        "exported_at": timezone.now().isoformat(),
        "source_key": signing.source_key(event),
        "series": {"slug": member.series.slug, "name": member.series.name, "season": member.series.season},
        "event": {
            "slug": event.slug,
            "name": event.name,
            "title": str(event.title),
            "edition": event.edition,
            "date": event.date.isoformat(),
            "venue": event.venue,
            "district": member.district,
            "role": member.role,
        },
        "qualifiers_per_division": qualifiers,
        "divisions": divisions,
    }


def export_results(event, qualifiers: int = DEFAULT_QUALIFIERS) -> tuple[bytes, str]:
    """The signed results file of ``event``: ``(bytes, file name)``.

    ``qualifiers``: the places of each division that go on to the final (1–16, default 2).
    Raises ``UserError`` when the event is in no series, when ``qualifiers`` is out of range,
    or when a division is unfinished (each named with why: docs/exchange.md, "Export").
    Nothing is written."""
    member = SeriesEvent.objects.select_related("series").filter(event=event).first()
    if member is None:
        raise UserError(
            _("%(event)s is in no series: a results file is signed with its series' key.") % {"event": event.title}
        )
    if not 1 <= qualifiers <= MAX_QUALIFIERS:
        raise UserError(
            _("Qualifiers per division: a number from 1 to %(max)s, not %(value)s.")
            % {"max": MAX_QUALIFIERS, "value": qualifiers}
        )
    places = division_places(event)
    reasons = unfinished(event, places)
    if reasons:
        raise UserError(_("Not every division is finished: %(reasons)s") % {"reasons": " ".join(reasons)})
    data, _file_id = signing.sign(member.series, build_payload(event, member, qualifiers, places))
    return data, f"{event.slug}-{event.date:%Y%m%d}-results.karuta"
