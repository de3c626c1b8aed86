"""Public, read-only pages: timetable, results, standings, bracket, final results, Excel.

No login. They show team names and affiliations and never players' names (the final
results show them only when the event publishes them).
"""

import hashlib

from django.core.cache import cache
from django.db.models import Q
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django_tables2 import RequestConfig

from common.downloads import PDF, XLSX, file_response
from tournament import exports, printing, reports
from tournament.models import Court, Event, Team
from tournament.reports.placement import division_placements
from tournament.tables import MatchTable, standings_tables

FRESH_SECONDS = 5  # public pages may be this many seconds behind the last result


def cached_fragment(request, name, event, render):
    """HTML rendered at most once per ``FRESH_SECONDS`` per page, language and query.

    Spectators reload a lot and a big event's timetable costs about half a second of CPU
    to render; during play results arrive several times a second, so the cache is kept
    by time, not by change: a public page is at most a few seconds behind (the hall
    screens refresh every 5 s anyway). Organisers' pages are never cached.
    """
    parts = f"{name}|{event.pk}|{get_language()}|{request.get_full_path()}"
    key = "public-fragment:" + hashlib.sha256(parts.encode()).hexdigest()
    html = cache.get(key)
    if html is None:
        html = str(render())
        cache.set(key, html, FRESH_SECONDS)
    return mark_safe(html)


def cached_table_html(request, event, table, name):
    def render():
        RequestConfig(request, paginate=False).configure(table)
        return table.as_html(request)

    return cached_fragment(request, name, event, render)


def home(request):
    return render(request, "public/home.html", {"events": Event.objects.all()})


def timetable(request, slug, court=None, team=None):
    event = get_object_or_404(Event, slug=slug)
    matches = reports.match_queryset(event)
    court_obj = team_obj = None
    if court is not None:
        court_obj = get_object_or_404(Court, event=event, pk=court)
        matches = matches.filter(court=court_obj)
    if team is not None:
        team_obj = get_object_or_404(Team, division__event=event, pk=team)
        matches = matches.filter(Q(team_a=team_obj) | Q(team_b=team_obj))
    table = MatchTable(matches, slots=lambda: reports.event_slots(event))
    table_html = cached_table_html(request, event, table, "timetable")
    teams = (
        Team.objects.filter(division__event=event).select_related("division").order_by("division__order", "name_key")
    )
    return render(
        request,
        "public/timetable.html",
        {
            "event": event,
            "table_html": table_html,
            "courts": event.courts.all(),
            "teams": teams,
            "court": court_obj,
            "team": team_obj,
        },
    )


def results(request, slug):
    event = get_object_or_404(Event, slug=slug)
    matches = reports.match_queryset(event).exclude(status="scheduled").order_by("-match_number")
    table = MatchTable(matches, order_by=("-match_number",), slots=lambda: reports.event_slots(event))
    table_html = cached_table_html(request, event, table, "results")
    return render(request, "public/results.html", {"event": event, "table_html": table_html})


def standings(request, slug):
    event = get_object_or_404(Event, slug=slug)
    divisions = list(event.divisions.all())
    body = cached_fragment(
        request,
        "standings",
        event,
        lambda: render_to_string(
            "includes/standings_tables.html", {"event": event, "divisions": standings_tables(event)}, request
        ),
    )
    return render(
        request, "public/standings.html", {"event": event, "standings_html": body, "division_links": divisions}
    )


def bracket(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return render(
        request,
        "public/bracket.html",
        {
            "event": event,
            "brackets": reports.division_brackets(event),
            "placements": division_placements(event),
            "champions": reports.single_champions(event),
        },
    )


def public_export(request, slug):
    """Standings, games and timetable as Excel, for anyone: team names only, no personal data."""
    event = get_object_or_404(Event, slug=slug)
    data = exports.event_workbook(event, ("standings", "games", "timetable"))
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-results.xlsx", XLSX)


def final_results(request, slug):
    """成績一覧 for everyone: places per division; players' names only when the event publishes them."""
    event = get_object_or_404(Event, slug=slug)
    if request.GET.get("format") == "pdf":
        data = printing.final_results(event, with_names=event.publish_names)
        return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-results.pdf", PDF, inline=True)
    divisions = reports.final_places(event)
    return render(request, "public/final.html", {"event": event, "divisions": divisions, "names": event.publish_names})
