"""Public, read-only pages: timetable, results, standings, bracket.

No login. They show team names and affiliations and never players' names.
"""

import hashlib

from django.db.models import Q
from django.utils.safestring import mark_safe
from django.shortcuts import get_object_or_404, render
from django_tables2 import RequestConfig

from tournament.models import Court, Event, Team
from tournament.tables import MatchTable
from tournament.views import bracket_context, schedule_queryset, standings_context


def results_version(event):
    """A key that changes whenever a game or a result of the event changes.

    Every write to a result leaves a history row (SheetEvent) and every move of a game
    sets ``changed_at``; new knockout games get new ids. One cheap query.
    """
    from django.db.models import Count, Max

    from judging.models import SheetEvent

    games = event.matches.aggregate(n=Count("pk"), last=Max("pk"), moved=Max("changed_at"), started=Max("actual_start"))
    history = SheetEvent.objects.filter(match__event=event).aggregate(last=Max("pk"))["last"]
    return f"{games['n']}-{games['last']}-{games['moved']}-{games['started']}-{history}"


def cached_table_html(request, event, table, name):
    """The table's HTML, rendered once per change of the results (spectators reload a lot).

    Rendering every game of a big event costs about half a second of CPU; the cache holds
    it until a result or a game changes (and 60 s at most), per language and query.
    """
    from django.core.cache import cache
    from django.utils.translation import get_language

    parts = f"{name}|{event.pk}|{get_language()}|{request.get_full_path()}|{results_version(event)}"
    key = "public-table:" + hashlib.sha256(parts.encode()).hexdigest()
    html = cache.get(key)
    if html is None:
        RequestConfig(request, paginate=False).configure(table)
        html = table.as_html(request)
        cache.set(key, str(html), 60)
    return mark_safe(html)


def home(request):
    return render(request, "public/home.html", {"events": Event.objects.all()})


def timetable(request, slug, court=None, team=None):
    event = get_object_or_404(Event, slug=slug)
    matches = schedule_queryset(event)
    court_obj = team_obj = None
    if court is not None:
        court_obj = get_object_or_404(Court, event=event, pk=court)
        matches = matches.filter(court=court_obj)
    if team is not None:
        team_obj = get_object_or_404(Team, division__event=event, pk=team)
        matches = matches.filter(Q(team_a=team_obj) | Q(team_b=team_obj))
    table_html = cached_table_html(request, event, MatchTable(matches), "timetable")
    teams = Team.objects.filter(division__event=event).select_related("division").order_by("division__order", "name_key")
    return render(
        request,
        "public/timetable.html",
        {"event": event, "table_html": table_html, "courts": event.courts.all(), "teams": teams, "court": court_obj,
         "team": team_obj},
    )


def results(request, slug):
    event = get_object_or_404(Event, slug=slug)
    matches = schedule_queryset(event).exclude(status="scheduled").order_by("-match_number")
    table_html = cached_table_html(request, event, MatchTable(matches, order_by=("-match_number",)), "results")
    return render(request, "public/results.html", {"event": event, "table_html": table_html})


def standings(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return render(request, "public/standings.html", {"event": event, "divisions": standings_context(event)})


def bracket(request, slug):
    event = get_object_or_404(Event, slug=slug)
    return render(request, "public/bracket.html", {"event": event, "brackets": bracket_context(event)})


def _display(request, template, fragment, context):
    """A hall screen: the whole page once, then only its fragment every few seconds."""
    if request.GET.get("fragment"):
        return render(request, fragment, context)
    return render(request, template, {**context, "fragment_template": fragment})


def division_display(request, slug, division):
    """Projector view of a division: standings and bracket in large type, refreshing itself."""
    from tournament.services import division_standings
    from tournament.tables import standings_table
    from tournament.views import cross_table

    event = get_object_or_404(Event, slug=slug)
    division = get_object_or_404(event.divisions, pk=division)
    tables = [(t, standings_table(t), cross_table(t), []) for t in division_standings(division)]
    brackets = [b for b in bracket_context(event) if b[0].pk == division.pk]
    return _display(
        request, "public/display.html", "public/display_division.html",
        {"event": event, "division": division, "divisions": [(division, tables)], "brackets": brackets},
    )


def court_display(request, slug, court):
    """A court's screen: the current game and the next ones, refreshing itself."""
    event = get_object_or_404(Event, slug=slug)
    court = get_object_or_404(Court, event=event, pk=court)
    games = list(schedule_queryset(event).filter(court=court).order_by("slot", "match_number"))
    waiting = [g for g in games if g.awaits_result]
    last = [g for g in games if g.has_result][-1:]
    return _display(
        request, "public/display.html", "public/display_court.html",
        {"event": event, "court": court, "current": waiting[:1], "next_games": waiting[1:4], "last": last},
    )


def public_export(request, slug):
    """Standings, games and timetable as Excel, for anyone: team names only, no personal data."""
    from django.http import HttpResponse

    from tournament import exports

    event = get_object_or_404(Event, slug=slug)
    response = HttpResponse(exports.event_workbook(event, ("standings", "games", "timetable")), content_type=exports.XLSX)
    response["Content-Disposition"] = f'attachment; filename="{event.slug}-{event.date:%Y%m%d}-results.xlsx"'
    return response


def final_results(request, slug):
    """成績一覧 for everyone: places per division; players' names only when the event publishes them."""
    from django.http import HttpResponse

    from tournament import printing

    event = get_object_or_404(Event, slug=slug)
    if request.GET.get("format") == "pdf":
        response = HttpResponse(printing.final_results(event, with_names=event.publish_names), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{event.slug}-{event.date:%Y%m%d}-results.pdf"'
        return response
    divisions = printing.final_places(event)
    return render(request, "public/final.html", {"event": event, "divisions": divisions, "names": event.publish_names})
