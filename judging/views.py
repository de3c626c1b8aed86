"""The referee's screens (court link, no account) and the organiser's result entry.

A court link's token is the credential: it opens only its own court's games; any other
game number answers 404 and reveals nothing.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from judging.forms import ResultForm, WalkoverForm
from judging.services import submit_result, submit_walkover
from tournament.models import Court, Match
from tournament.services import ServiceError
from tournament.views import _event_for_organiser


def _client(request):
    return {"ip": request.META.get("REMOTE_ADDR"), "device": request.META.get("HTTP_USER_AGENT", "")}


def _court_matches(court):
    return (
        Match.objects.filter(court=court)
        .select_related("division", "group", "team_a", "team_b", "winner")
        .order_by("slot", "match_number")
    )


def court_home(request, token):
    court = get_object_or_404(Court.objects.select_related("event"), token=token)
    matches = list(_court_matches(court))
    current = next((m for m in matches if not m.has_result and m.teams_known), None)
    upcoming = [m for m in matches if not m.has_result and m is not current][:4]
    finished = [m for m in matches if m.has_result][-5:]
    return render(
        request,
        "judging/court_home.html",
        {"court": court, "event": court.event, "current": current, "upcoming": upcoming, "finished": finished, "token": token},
    )


def _entry(request, match, *, template, done_url, who):
    event = match.event
    names = {"team_a": match.team_a.name if match.team_a else "", "team_b": match.team_b.name if match.team_b else ""}
    current = match.sheets.filter(is_confirmed=True).first()
    if request.method == "POST" and request.POST.get("action") == "walkover":
        form = ResultForm(card_total=event.card_total, **names)
        walkover_form = WalkoverForm(request.POST, **names)
        if walkover_form.is_valid():
            try:
                submit_walkover(match, walkover_form.cleaned_data["absent_side"], **who, **_client(request))
            except ServiceError as e:
                messages.error(request, str(e))
            else:
                messages.success(request, _("Game %(number)s saved as a walkover.") % {"number": match.match_number})
                return redirect(done_url)
    elif request.method == "POST":
        form = ResultForm(request.POST, card_total=event.card_total, **names)
        walkover_form = WalkoverForm(**names)
        if form.is_valid():
            try:
                sheet = submit_result(match, form.values(), **who, **_client(request))
            except ServiceError as e:
                form.add_error(None, str(e))
            else:
                winner = match.team_a if sheet.winner_side == "A" else match.team_b
                messages.success(
                    request,
                    _("Game %(number)s saved: %(team_a)s %(a)s – %(b)s %(team_b)s. Winner: %(winner)s.")
                    % {"number": match.match_number, "team_a": match.team_a, "team_b": match.team_b,
                       "a": sheet.cards_a, "b": sheet.cards_b, "winner": winner},
                )
                return redirect(done_url)
    else:
        initial = {}
        if current and not current.is_walkover:
            initial = {
                "cards_a": current.cards_a, "cards_b": current.cards_b, "referee_cards": current.referee_cards,
                "joker_holder": current.joker_holder, "rps_winner": current.rps_winner, "rps_used": current.rps_used,
            }
        form = ResultForm(initial=initial, card_total=event.card_total, **names)
        walkover_form = WalkoverForm(**names)
    history = match.sheets.select_related("submitted_by", "court").order_by("-version")
    return render(
        request,
        template,
        {"event": event, "match": match, "form": form, "walkover_form": walkover_form, "current": current,
         "history": history, "done_url": done_url},
    )


def court_entry(request, token, number):
    court = get_object_or_404(Court.objects.select_related("event"), token=token)
    match = get_object_or_404(
        Match.objects.select_related("event", "division", "group", "court", "team_a", "team_b"),
        court=court, match_number=number,
    )
    if not match.teams_known:
        messages.error(request, _("The teams of this game are not known yet."))
        return redirect("judging:court_home", token)
    return _entry(request, match, template="judging/court_entry.html",
                  done_url=reverse("judging:court_home", args=[token]), who={"court": court})


@login_required
def organiser_entry(request, slug, number):
    event = _event_for_organiser(request, slug)
    match = get_object_or_404(
        Match.objects.select_related("event", "division", "group", "court", "team_a", "team_b"),
        event=event, match_number=number,
    )
    if not match.teams_known:
        messages.error(request, _("The teams of this game are not known yet."))
        return redirect("tournament:schedule", event.slug)
    return _entry(request, match, template="judging/organiser_entry.html",
                  done_url=reverse("tournament:schedule", args=[event.slug]) + f"#m{match.match_number}", who={"user": request.user})

