"""The archive of editions as its public pages show it: the stored events by name and edition
(第N回), each edition's placings per division, the places brought in from other laptops'
events, and the teams of each club over the years. Reads only; team names and affiliations,
never players' names (docs/rules/series.md, "Archive")."""

from dataclasses import dataclass, field

from django.db.models import Count, Max, Sum
from django.utils.translation import get_language

from common.page_cache import cache_get, cache_set
from series.models import ImportedPlacing, club_index, club_of
from tournament.engine.names import name_key
from tournament.models import Event, Team
from tournament.reports import final_places
from tournament.reports.api import event_version
from tournament.reports.placement import place_name
from tournament.reports.ranking import division_rankings

KEEP_SECONDS = 24 * 3600  # an event's places, kept per event version and language


def _per_version(kind, event, build):
    """``build()`` once per ``event``'s version (``reports.api.event_version``: results, games,
    teams; with the event's and its divisions' edit counters, for a renamed division) and
    language: a past edition's places are not worked out again for every page."""
    divisions = event.divisions.aggregate(n=Count("pk"), v=Sum("version"), newest=Max("pk"))
    stamp = f"{event_version(event)}:{event.version}:{divisions['n']}:{divisions['v']}:{divisions['newest']}"
    key = f"series-archive:{kind}:{event.pk}:{get_language()}:{stamp}"
    found = cache_get(key)
    if found is None:
        found = build()
        cache_set(key, found, KEEP_SECONDS)  # a cache in trouble is a miss (common.page_cache)
    return found


@dataclass
class Tournament:
    """One tournament name and its editions (events), newest first."""

    name: str
    editions: list = field(default_factory=list)


def tournaments():
    """``[Tournament]`` of every stored event but the drafts (issue 27), grouped by ``name_key`` of the name, the
    tournament with the newest edition first."""
    grouped = {}
    for event in Event.objects.exclude(visibility=Event.Visibility.DRAFT).order_by("-date", "name"):
        grouped.setdefault(name_key(event.name), Tournament(event.name)).editions.append(event)
    return list(grouped.values())


def imported_sources():
    """The events of other laptops whose places were brought in: ``[ImportedPlacing]``, the
    first row of each (series, source), newest first (its ``pk`` names it in the URL)."""
    firsts = {}
    for p in ImportedPlacing.objects.select_related("series").order_by("pk"):
        firsts.setdefault((p.series_id, p.source_key), p)
    return sorted(
        firsts.values(), key=lambda p: (p.event_date is None, -(p.event_date.toordinal() if p.event_date else 0))
    )


def edition_places(event):
    """``[(division name, [(place name, team name, affiliation, to confirm)])]`` of ``event``,
    from the read side of the final results (``tournament.reports.final_places``), kept per
    event version."""
    return _per_version(
        "edition",
        event,
        lambda: [
            (division.name, [(name, team.name, team.affiliation, check) for name, team, check in places])
            for division, places in final_places(event)
        ],
    )


def source_places(first):
    """The placings of the imported event of ``first`` (an ``ImportedPlacing``), as
    ``edition_places`` shapes them."""
    rows = ImportedPlacing.objects.filter(series_id=first.series_id, source_key=first.source_key).order_by("pk")
    divisions = {}
    for p in sorted(rows, key=lambda p: p.place):
        divisions.setdefault(p.division, []).append((place_name(p.place), p.team, p.club, False))
    return list(divisions.items())


@dataclass
class ClubHistory:
    """A club's teams over the years: ``years`` is ``[(year, [(tournament, division, team,
    place name or "")])]``, newest year first."""

    name: str
    spellings: set
    years: list


def best_lines(event):
    """Team pk -> its line of the final ranking of ``event`` (``division_rankings``): the best
    one, should a team be listed twice."""
    found = {}
    for ranking in division_rankings(event):
        for line in ranking.lines:
            found.setdefault(line.team.pk, line)
    return found


def _places_of(event):
    """Team pk -> its place's name in ``event``."""
    return {pk: line.place for pk, line in best_lines(event).items()}


def _event_places():
    """Team pk -> its place's name, over every stored event (each kept per event version)."""
    found = {}
    for event in Event.objects.all():
        found.update(_per_version("places", event, lambda event=event: _places_of(event)))
    return found


def clubs_over_years():
    """``[ClubHistory]`` of every club (merged spellings as one), by name: each stored team
    and each imported place under its affiliation's club, by year."""
    index = club_index()
    places = _event_places()
    clubs = {}
    lines = [
        (
            t.division.event.date.year,
            t.division.event.date,
            str(t.division.event),
            t.division.name,
            t.name,
            places.get(t.pk, ""),
            t.affiliation,
        )
        for t in Team.objects.exclude(affiliation="").select_related("division__event")
    ]
    lines += [
        (
            p.event_date.year if p.event_date else 0,
            p.event_date,
            p.source,
            p.division,
            p.team,
            place_name(p.place),
            p.club,
        )
        for p in ImportedPlacing.objects.exclude(club="")
    ]
    for year, date, title, division, team, place, affiliation in lines:
        ref, name = club_of(affiliation, index)
        if not ref:
            continue
        club = clubs.setdefault(ref, ClubHistory(name, set(), {}))
        club.spellings.add(affiliation)
        club.years.setdefault(year, []).append((date, title, division, team, place))
    result = []
    for club in sorted(clubs.values(), key=lambda c: name_key(c.name)):
        years = sorted(club.years.items(), reverse=True)
        club.years = [
            (year, [row[1:] for row in sorted(rows, key=lambda r: (r[0] is None, r[0], r[1], r[2], r[3]))])
            for year, rows in years
        ]
        result.append(club)
    return result
