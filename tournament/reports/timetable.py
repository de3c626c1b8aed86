"""The games of an event as every medium shows them: timetable, results, games list.

Nothing here writes. A result is shown only once its recording sheet is confirmed.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from judging.models import RecordingSheet
from tournament.models import Match


def confirmed_sheets():
    """The recording sheets that count (confirmed ones), for ``Prefetch``."""
    return RecordingSheet.objects.filter(is_confirmed=True)


def match_queryset(event):
    """The event's games by match number, with division, group, court, teams, winner and
    the confirmed sheets (``match.confirmed_sheets``, a list) loaded: no query per game."""
    return (
        event.matches.select_related("division", "group", "court", "team_a", "team_b", "winner")
        .prefetch_related(Prefetch("sheets", to_attr="confirmed_sheets", queryset=confirmed_sheets()))
        .order_by("match_number")
    )


def confirmed_sheet(match):
    """The confirmed ``RecordingSheet`` of a game from ``match_queryset``, or None."""
    sheets = match.confirmed_sheets
    return sheets[0] if sheets else None


def result_text(sheet):
    """ "30-26", "walkover" (active language) or "" for no confirmed sheet."""
    if sheet is None:
        return ""
    return str(_("walkover")) if sheet.is_walkover else f"{sheet.cards_a}-{sheet.cards_b}"


@dataclass(frozen=True)
class MatchLine:
    """One game as shown in a timetable or a results list.

    ``start`` is an aware datetime (None before the schedule); ``stage`` the code of
    ``Match.Stage`` and ``stage_text`` its name; ``team_a``/``team_b`` are Teams or None
    (to be decided); ``sheet`` is the confirmed recording sheet or None, and
    ``result`` its text ("30-26", "walkover", "")."""

    match: Match
    number: int
    court: str
    start: object
    division: str
    stage: str
    stage_text: str
    group: str
    team_a: object
    team_b: object
    status: str
    sheet: RecordingSheet | None
    result: str

    @property
    def stage_and_group(self):
        """ "Group stage A" for a group game, the stage alone otherwise."""
        return f"{self.stage_text} {self.group}".strip()


def match_line(match):
    """The ``MatchLine`` of a game loaded by ``match_queryset``."""
    sheet = confirmed_sheet(match)
    return MatchLine(
        match=match,
        number=match.match_number,
        court=match.court.name if match.court else "",
        start=match.start_at,
        division=match.division.name,
        stage=match.stage,
        stage_text=str(match.get_stage_display()),
        group=match.group.name if match.group else "",
        team_a=match.team_a,
        team_b=match.team_b,
        status=match.status,
        sheet=sheet,
        result=result_text(sheet),
    )


def match_lines(event, order=("match_number",)):
    """``[MatchLine]`` of every game of ``event`` in ``order`` (field names of ``Match``)."""
    return [match_line(m) for m in match_queryset(event).order_by(*order)]


def court_timetables(event):
    """``[(Court, [MatchLine])]``: each court's games by slot, courts without games left out."""
    by_court = {court.pk: (court, []) for court in event.courts.all()}
    for line in match_lines(event, order=("slot", "match_number")):
        if line.match.court_id in by_court:
            by_court[line.match.court_id][1].append(line)
    return [(court, lines) for court, lines in by_court.values() if lines]
