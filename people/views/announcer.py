"""The announcer's page (放送係, issue 32 item 3; docs/people.md "Announcer"): each court's next
game with its teams (players' names with furigana where the event publishes names), the time
it is due, whether a team is not received, and one tap 「呼び出し」 that shows the call on every
hall screen and marks the game called; the second call is one tap too."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.errors import UserError
from people import access, reports
from people.services import calls
from tournament.access import object_or_404, whole_number


@login_required
def announcer(request, slug):
    """GET: the courts' next games. POST ``match`` (id) and ``number`` (the call's number, so a
    double tap is one call) calls the game and answers with a redirect to the page."""
    event = access.event_for_announcer(request, slug)
    if request.method == "POST":
        match = object_or_404(event.matches.all(), request.POST.get("match"))
        try:
            call = calls.call_match(match, whole_number(request.POST.get("number"), low=1, high=99), user=request.user)
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("On the screens: %(text)s") % {"text": call.text})
        return redirect("people:announcer", event.slug)
    return render(
        request,
        "people/announcer.html",
        {"event": event, "rows": reports.announcer_rows(event), "is_organiser": event.is_organiser(request.user)},
    )
