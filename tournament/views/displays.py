"""Hall screens (projectors, court screens): large type, refreshing themselves.

The page is sent once; ``static/js/display.js`` then asks the JSON API whether anything
changed (a conditional GET answered 304 while nothing did) and only then fetches the
page's fragment again.
"""

from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from tournament import reports
from tournament.models import Court, Event
from tournament.reports import stage_notes
from tournament.tables import standings_tables


def _display(request, template, fragment, context, api_url):
    """A hall screen: the whole page once, then only its fragment when the API says it changed."""
    if request.GET.get("fragment"):
        return render(request, fragment, context)
    return render(request, template, {**context, "fragment_template": fragment, "api_url": api_url})


def division_display(request, slug, division):
    """Projector view of a division: standings and bracket in large type, refreshing itself; the
    games a change left out of date are named above the bracket until the organiser decides."""
    event = get_object_or_404(Event, slug=slug)
    division = get_object_or_404(event.divisions, pk=division)
    return _display(
        request,
        "public/display.html",
        "public/display_division.html",
        {
            "event": event,
            "division": division,
            "divisions": standings_tables(event, division),
            "brackets": reports.division_brackets(event, division),
            "stale": stage_notes.division_out_of_date(division),
        },
        reverse("api:results", args=[event.slug]),
    )


def court_display(request, slug, court):
    """A court's screen: the current game and the next ones, refreshing itself; a game a change
    left out of date is marked "under review"."""
    event = get_object_or_404(Event, slug=slug)
    court = get_object_or_404(Court, event=event, pk=court)
    matches = list(reports.match_queryset(event).filter(court=court).order_by("slot", "match_number"))
    slots = {}
    for division in {g.division_id: g.division for g in matches if not g.is_group_match}.values():
        slots.update(reports.division_game_slots(division))
    for g in matches:
        g.slots = slots.get(g.pk)  # a side without a team shows its slot's label
    waiting = [g for g in matches if g.awaits_result]
    last = [g for g in matches if g.has_result][-1:]
    return _display(
        request,
        "public/display.html",
        "public/display_court.html",
        {
            "event": event,
            "court": court,
            "current": waiting[:1],
            "next_games": waiting[1:4],
            "last": last,
        },
        reverse("api:timetable", args=[event.slug]),
    )
