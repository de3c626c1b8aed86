"""The series ranking as every medium shows it (page, Excel, PDF, command): the places of the
series' events, their points, the ranking per division and per club, and each row's explanation.

Reads only: the local events' final places come from the tournament's read side
(``tournament.reports.ranking.division_rankings``, the places of the final results PDF), the places of
events run on other laptops from ``ImportedPlacing``. The rules are in ``docs/rules/series.md``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from common.errors import UserError
from series.engine import points
from series.labels import table_error_text
from series.models import ImportedPlacing, SeriesEvent, club_index, club_of
from tournament.engine.names import name_key
from tournament.reports.placement import place_name
from tournament.reports.ranking import division_rankings


@dataclass(frozen=True)
class Placing:
    """One team's final place at one event of the series, local or imported."""

    event: str  # the event's label in the explanation (「北部予選」)
    date: datetime.date | None
    division: str
    place: int
    team: str
    club: str  # the affiliation as stored
    to_confirm: bool = False


@dataclass
class DivisionRanking:
    """The ranking of one division (divisions matched across events by ``name_key``)."""

    name: str
    rows: list


@dataclass
class SeriesStandings:
    """Everything the outputs show: the ``series``, its points ``table``, the ``events`` (label,
    date, local or not) in order, the ranking per division and per club, and ``explain`` (row →
    its sentence)."""

    series: object
    table: tuple
    events: list
    divisions: list = field(default_factory=list)
    clubs: list = field(default_factory=list)

    def explain(self, row, with_division=False):
        return points.explain(row, place_name, with_division)

    def club_explain(self, row):
        return points.explain(row, place_name, with_division=True)


def event_label(role, district, title):
    """An event's label in the explanations: 「北部予選」 for a district's qualifier, 「決勝大会」
    for the final, else the event's title (in the active language)."""
    if role == SeriesEvent.Role.QUALIFIER and district:
        return _("%(district)s qualifier") % {"district": district}
    if role == SeriesEvent.Role.FINAL:
        return _("Final tournament")
    return str(title)


def local_placings(series):
    """The ``Placing`` rows of the series' events on this installation: each division's final
    places as decided so far (``division_rankings``: those of the final results), to confirm
    where the read side says so."""
    found = []
    members = SeriesEvent.objects.filter(series=series).select_related("event").order_by("event__date", "pk")
    for member in members:
        event = member.event
        label = event_label(member.role, member.district, event.title)
        for ranking in division_rankings(event):
            found += [
                Placing(
                    label,
                    event.date,
                    ranking.division.name,
                    line.rank,
                    line.team.name,
                    line.team.affiliation,
                    line.to_confirm,
                )
                for line in ranking.lines
            ]
    return found


def imported_placings(series):
    """The ``Placing`` rows brought in from other laptops' events (``ImportedPlacing``)."""
    return [
        Placing(
            event_label(SeriesEvent.Role.QUALIFIER, p.district, p.source) if p.district else p.source,
            p.event_date,
            p.division,
            p.place,
            p.team,
            p.club,
        )
        for p in ImportedPlacing.objects.filter(series=series).order_by("event_date", "source", "pk")
    ]


def _by_date(placing):
    return (placing.date is None, placing.date or datetime.date.min)


def _event_order(placings):
    """(label → position) by date, undated last, and the events' list ``[(label, date)]``."""
    seen = {}
    for p in sorted(placings, key=_by_date):
        seen.setdefault(p.event, p.date)
    return {label: i for i, label in enumerate(seen)}, list(seen.items())


def stored_table(series) -> tuple:
    """``series``' stored points table parsed; a table that is not valid (a key file of an
    older version, a hand edit) is a ``UserError`` naming the bad entry and where to fix it,
    never a 500 (docs/rules/series.md, "Points")."""
    try:
        return points.parse_table(series.points_table)
    except points.PointsTableError as error:
        raise UserError(
            _("The series' points table 「%(table)s」 is not valid: %(reason)s Fix it on the series' edit page.")
            % {"table": series.points_table, "reason": table_error_text(error)}
        ) from None


def series_standings(series):
    """The ``SeriesStandings`` of ``series`` (``docs/rules/series.md``): every placing of its
    local and imported events, points by its table, a ranking per division (matched by
    ``name_key``; a team is one entrant by its name key and club) and one per club (the
    affiliation's club, merged spellings as one; teams without an affiliation are left out).
    Raises ``UserError`` for a stored points table that is not valid (``stored_table``)."""
    table = stored_table(series)
    placings = sorted(local_placings(series) + imported_placings(series), key=_by_date)
    order, events = _event_order(placings)
    index = club_index()
    divisions, by_division, by_club = {}, {}, []
    for p in placings:
        dkey = name_key(p.division)
        divisions.setdefault(dkey, p.division)
        ref, club = club_of(p.club, index)
        common = {"event": p.event, "place": p.place, "order": order[p.event], "to_confirm": p.to_confirm}
        by_division.setdefault(dkey, []).append(
            points.Entry(entrant=f"{name_key(p.team)}|{ref}", name=p.team, club=club, division=p.division, **common)
        )
        if ref:
            by_club.append(points.Entry(entrant=ref, name=club, club=club, division=divisions[dkey], **common))
    return SeriesStandings(
        series=series,
        table=table,
        events=events,
        divisions=[
            DivisionRanking(name, points.rank_entries(by_division[key], table)) for key, name in divisions.items()
        ],
        clubs=points.rank_entries(by_club, table),
    )


def rank_text(row):
    """「1」, or 「1=」 for a rank shared with another row."""
    return f"{row.rank}=" if row.tied else str(row.rank)
