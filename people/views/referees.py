"""Referees (審判, issue 32 item 4; docs/people.md "Referees"), organisers only: the list
(name, furigana, club), the generated assignment with rest, and each game's referee by hand.
Referees' names are never shown on a public page."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from common.downloads import PDF, file_response
from common.errors import UserError
from people import access, paper, reports
from people.forms import RefereeForm
from people.models import Referee, RefereeAssignment
from people.services import referees as service
from tournament.access import event_for_organiser, object_or_404, whole_number


@login_required
def referees(request, slug):
    """GET the page. POST ``action``: ``add`` (the referee form), ``generate`` (with ``rest``)
    or ``set`` (``match`` id and ``referee`` id, empty for none)."""
    event = event_for_organiser(request, slug)
    action = request.POST.get("action")
    form = RefereeForm(request.POST if action == "add" else None, event=event)
    if action == "add" and form.is_valid():
        form.instance.event = event
        form.save()
        messages.success(request, _("%(name)s added.") % {"name": form.instance.name})
        return redirect("people:referees", event.slug)
    if action == "generate":
        rest = whole_number(request.POST.get("rest"), high=20)
        if rest is None:
            messages.error(request, _("Rest after games in a row: a whole number between 0 and 20."))
        else:
            try:
                plan = service.assign(event, rest)
            except UserError as error:
                messages.error(request, error.message)
            else:
                messages.success(
                    request,
                    _("Referees assigned: %(n)d games; %(left)d without a referee.")
                    % {"n": len(plan.assigned), "left": len(plan.unassigned)},
                )
        return redirect("people:referees", event.slug)
    if action == "set":
        match = object_or_404(event.matches.all(), request.POST.get("match"))
        value = request.POST.get("referee", "")
        referee = object_or_404(Referee.objects.filter(event=event), value) if value else None
        try:
            service.set_referee(match, referee)
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Game %(number)s saved.") % {"number": match.match_number})
        return redirect("people:referees", event.slug)
    games = list(
        event.matches.filter(court__isnull=False)
        .select_related("court", "team_a", "team_b")
        .order_by("start_at", "court__order", "match_number")
    )
    names = reports.referee_names(games)
    chosen = dict(RefereeAssignment.objects.filter(match__in=games).values_list("match_id", "referee_id"))
    for game in games:
        game.referee_name = names.get(game.pk, "")
        game.referee_id = chosen.get(game.pk)
    return render(
        request,
        "people/referees.html",
        {
            "event": event,
            "form": form,
            "referees": list(Referee.objects.filter(event=event)),
            "games": games,
            "rest": access.day_settings(event).referee_rest,
        },
        status=400 if request.method == "POST" else 200,
    )


@login_required
def referee_edit(request, slug, pk):
    """Edit one referee (POST the form) or remove them (POST ``delete``)."""
    event = event_for_organiser(request, slug)
    referee = get_object_or_404(Referee, event=event, pk=pk)
    if request.method == "POST" and "delete" in request.POST:
        service.delete_referee(referee)
        messages.success(request, _("%(name)s removed.") % {"name": referee.name})
        return redirect("people:referees", event.slug)
    form = RefereeForm(request.POST or None, instance=referee, event=event)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("%(name)s saved.") % {"name": referee.name})
        return redirect("people:referees", event.slug)
    return render(
        request,
        "people/referee_edit.html",
        {"event": event, "form": form, "referee": referee},
        status=400 if request.method == "POST" else 200,
    )


@login_required
def referees_pdf(request, slug):
    """The referees' games as a PDF: the hall's list by referee, then a page per court."""
    event = event_for_organiser(request, slug)
    courts, by_referee = reports.referee_sheets(event)
    data = paper.referees_pdf(str(event), courts, by_referee)
    return file_response(data, f"{event.slug}-referees.pdf", PDF, inline=True)
