"""Standings and the knockout: the group tables with their lots and play-offs, and seeding
the bracket (with the lot between tied best runners-up)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament import reports
from tournament.access import event_for_organiser, event_for_recorder, object_or_404, whole_number
from tournament.models import Division, Group
from tournament.services.knockout import seed_knockout
from tournament.services.lots import record_runner_up_lot, record_tie_break
from tournament.tables import standings_tables


def _lot_order(request, teams):
    """The teams of a lot form (``team_<pk>`` = position) best first; ``UserError`` when a
    position repeats or a team is not one of ``teams``."""
    picks = [
        (whole_number(value), key[5:])
        for key, value in request.POST.items()
        if key.startswith("team_") and whole_number(value) is not None
    ]
    by_pk = {str(t.pk): t for t in teams}
    if len(picks) != len({p for p, _t in picks}) or any(t not in by_pk for _p, t in picks):
        raise UserError(_("Give each tied team a different position."))
    return [by_pk[t] for _p, t in sorted(picks)]


@login_required
def standings_view(request, slug):
    event = event_for_recorder(request, slug)
    if request.method == "POST":
        if not event.is_organiser(request.user):
            raise PermissionDenied
        group = object_or_404(Group.objects.filter(division__event=event), request.POST.get("group"))
        try:
            ordered = _lot_order(request, group.teams.all())
            record_tie_break(group, ordered, request.POST.get("method", "lot"), request.user)
            messages.success(request, _("The order of the tied teams in %(group)s is recorded.") % {"group": group})
        except UserError as e:
            messages.error(request, str(e))
        return redirect("tournament:standings", event.slug)
    organiser = event.is_organiser(request.user)
    # Players' names: the individual table is for organisers only.
    individual = reports.individual_table(event) if organiser and event.individual_counts else None
    return render(
        request,
        "tournament/standings.html",
        {"event": event, "divisions": standings_tables(event), "organiser": organiser, "individual": individual},
    )


def _knockout_post(request, event):
    """Record the runners-up lot, or seed the bracket; ``UserError`` when refused."""
    if "lot" in request.POST:
        division = object_or_404(Division.objects.filter(event=event), request.POST.get("division"))
        ordered = _lot_order(request, division.teams.all())
        record_runner_up_lot(division, ordered, request.POST.get("method", "lot"), request.user)
        messages.success(
            request, _("The order of the tied runners-up of %(division)s is recorded.") % {"division": division}
        )
    else:
        count = seed_knockout(event, reset="reset" in request.POST)
        messages.success(request, _("Bracket seeded: %(count)s games.") % {"count": count})


@login_required
def knockout(request, slug):
    event = event_for_organiser(request, slug)
    if request.method == "POST":
        try:
            _knockout_post(request, event)
        except UserError as e:
            messages.error(request, str(e))
        return redirect("tournament:knockout", event.slug)
    ties = [(d, teams) for d in event.divisions.all() if (teams := reports.runner_up_tie(d))]
    return render(
        request,
        "tournament/knockout.html",
        {"event": event, "brackets": reports.division_brackets(event), "organiser": True, "runner_up_ties": ties},
    )
