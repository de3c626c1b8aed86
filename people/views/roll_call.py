"""The roll call on the court tablet (issue 32 item 2; docs/people.md "Roll call"):
``/court/<token>/game/<n>/roll-call/``, the court link being the credential as for the
result. Only where the event asks for it (``DaySettings.roll_call``); otherwise 404."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from common.errors import UserError
from judging import court_link
from people import access, reports
from people.models import PlayerPresence
from people.services import roll_call
from tournament.access import whole_number
from tournament.models import Match


def _ids(values):
    return {n for n in (whole_number(v) for v in values) if n is not None}


@never_cache
@court_link.court_page
def roll_call_page(request, token, number):
    """GET both teams' sitting players (leader in the middle) and substitutes to tick; POST
    ``present`` and ``substitute`` (player ids) records the roll call and goes back to the court."""
    court = court_link.court(token)
    if not access.day_settings(court.event).roll_call:
        raise Http404("no roll call in this event")
    match = get_object_or_404(
        Match.objects.select_related("team_a", "team_b", "event").prefetch_related(
            "team_a__players", "team_b__players"
        ),
        court=court,
        match_number=number,
    )
    if not match.teams_known:
        raise Http404("teams not known")
    if request.method == "POST":
        try:
            roll_call.record(match, _ids(request.POST.getlist("present")), _ids(request.POST.getlist("substitute")))
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Roll call of game %(number)s recorded.") % {"number": match.match_number})
            return redirect("judging:court_home", token)
    absent = set(
        PlayerPresence.objects.filter(player__team__in=[match.team_a_id, match.team_b_id], present=False).values_list(
            "player_id", flat=True
        )
    )
    sides = [
        {
            "team": team,
            "seats": roll_call.seating(team),
            "substitutes": [p for p in team.players.all() if p.is_substitute],
        }
        for team in (match.team_a, match.team_b)
    ]
    return render(
        request,
        "people/roll_call.html",
        {
            "court": court,
            "event": court.event,
            "match": match,
            "sides": sides,
            "absent": absent,
            "done": reports.roll_call_of(match),
            "token": token,
        },
    )
