"""The reception desk (受付, issue 32 item 1; docs/people.md "Reception") for organisers and
the 受付 role: the teams by division with a search, one tap to receive a team or undo it, and
each player present or absent; the counts per division; a scanned team card.

Every tap is a POST answered with a redirect to the same list (its filters kept); the writes
are ``people.services.reception``'s, so two receptionists at once share one state.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.errors import UserError
from people import access, cards, reports
from people.services import reception
from tournament.access import int_param, object_or_404
from tournament.models import Event, Player, Team

ACTIONS = ("receive", "undo", "present", "absent")


@login_required
def reception_desk(request, slug):
    """The desk: GET ``division`` (id) and ``q`` (text) filter the list; POST ``action`` (one of
    ``ACTIONS``) with ``team`` (id) and for a player's tick ``player`` (id)."""
    event = access.event_for_reception(request, slug)
    if request.method == "POST":
        _tap(request, event)
        query = {
            k: v for k, v in (("division", request.POST.get("division", "")), ("q", request.POST.get("q", ""))) if v
        }
        url = reverse("people:reception", args=[event.slug])
        anchor = f"#team-{request.POST.get('team')}" if str(request.POST.get("team", "")).isdigit() else ""
        return redirect(url + (f"?{urlencode(query)}" if query else "") + anchor)
    division = int_param(request, "division")
    query = request.GET.get("q", "")[:60]
    return render(
        request,
        "people/reception.html",
        {
            "event": event,
            "rows": reports.reception_rows(event, division=division, query=query),
            "counts": reports.division_counts(event),
            "divisions": list(event.divisions.all()),
            "division": division,
            "q": query,
            "is_organiser": event.is_organiser(request.user),
        },
    )


def _tap(request, event):
    action = request.POST.get("action")
    if action not in ACTIONS:
        messages.error(request, _("Unknown step: reload the page."))
        return
    team = object_or_404(Team.objects.filter(division__event=event), request.POST.get("team"))
    try:
        if action in ("receive", "undo"):
            _checkin, changed = reception.set_received(team, action == "receive", user=request.user)
            if action == "receive":
                text = _("%(team)s received.") if changed else _("%(team)s was already received.")
            else:
                text = _("Reception of %(team)s undone.") if changed else _("%(team)s was not received.")
            messages.success(request, text % {"team": team.name})
            return
        player = object_or_404(Player.objects.filter(team=team), request.POST.get("player"))
        reception.set_present(player, action == "present", user=request.user)
        text = _("%(player)s present.") if action == "present" else _("%(player)s absent.")
        messages.success(request, text % {"player": player.name})
    except UserError as error:
        messages.error(request, error.message)


@login_required
@require_POST
def card_checkin(request, slug):
    """The one tap of a scanned card's page: POST ``code`` (the card's signed code) receives the
    card's team, refused when the card is of another event or an old one."""
    event = access.event_for_reception(request, slug)
    try:
        team = cards.team_of_code(event, request.POST.get("code", ""))
        _checkin, changed = reception.set_received(team, True, user=request.user, source="card")
    except UserError as error:
        messages.error(request, error.message)
        return redirect("people:reception", event.slug)
    text = _("%(team)s received.") if changed else _("%(team)s was already received.")
    messages.success(request, text % {"team": team.name})
    return redirect(reverse("people:reception", args=[event.slug]) + f"#team-{team.pk}")


def card_scan(request, slug, code):
    """What a team card's QR code opens: for a reception user of the event, the team's
    reception with one tap to receive it (or the refusal naming the card's event); for a
    reception user of other events only, the refusal naming the card's event; for everyone else
    the team's public page."""
    event = get_object_or_404(Event, slug=slug)
    if not access.is_receptionist(event, request.user):
        desks = access.reception_events(request.user)
        if desks:
            # A tablet of another event's reception (a card brought from another tournament).
            message = _("This card was printed for 「%(card)s」, not for 「%(event)s」: use this event's card.") % {
                "card": event,
                "event": "、".join(str(e) for e in desks[:3]),
            }
            return render(request, "people/card_refused.html", {"event": event, "message": message}, status=400)
        team = Team.objects.filter(pk=cards.team_pk_of_code(event, code), division__event=event).first()
        if team is None:
            return redirect("tournament:public_timetable", event.slug)
        return redirect("tournament:public_team", event.slug, team.pk)
    try:
        team = cards.team_of_code(event, code)
    except UserError as error:
        return render(request, "people/card_refused.html", {"event": event, "message": error.message}, status=400)
    rows = [r for r in reports.reception_rows(event) if r.pk == team.pk]
    return render(
        request,
        "people/card_scan.html",
        {"event": event, "team": team, "row": rows[0] if rows else None, "code": code},
    )
