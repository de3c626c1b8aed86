"""Standings and the knockout: the group tables with their lots and play-offs, seeding each
division's bracket at its own time (with the lot between tied best runners-up), and the
organiser's choice for the games a later change left out of date."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from common.errors import UserError
from common.once import one_step_at_a_time
from tournament import reports
from tournament.access import event_for_organiser, event_for_recorder, int_param, object_or_404, whole_number
from tournament.models import Division, Group, Match
from tournament.reports import stage_notes
from tournament.reports.placement import division_placements
from tournament.services.knockout import seed_divisions
from tournament.services.lots import record_runner_up_lot, record_tie_break
from tournament.services.stages import keep_result, replay_match, undo_keep
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
        # Back to the page of groups the lot was recorded on (the form posts to the page's own
        # address: its division, page and full-list parameters are in the query string).
        kept = {k: request.GET[k] for k in ("division", "page", "show") if request.GET.get(k)}
        url = reverse("tournament:standings", args=[event.slug])
        return redirect(f"{url}?{urlencode(kept)}" if kept else url)
    organiser = event.is_organiser(request.user)
    # Players' names: the individual table is for organisers only.
    individual = reports.individual_table(event) if organiser and event.individual_counts else None
    # One division (?division=) or all; five groups a page, every group with ?show=all.
    pk = int_param(request, "division")
    division = get_object_or_404(Division, event=event, pk=pk) if pk is not None else None
    page = None if request.GET.get("show") == "all" else request.GET.get("page", "1")
    divisions, groups_page = standings_tables(event, division, page=page)
    return render(
        request,
        "tournament/standings.html",
        {
            "event": event,
            "divisions": divisions,
            "groups_page": groups_page,
            "division_links": event.divisions.all(),
            "organiser": organiser,
            "individual": individual,
        },
    )


def _posted_number(request, name):
    """The whole number posted as ``name``; 404 for anything else (a tampered form)."""
    number = whole_number(request.POST.get(name, ""))
    if number is None:  # not a plain number, or beyond any id (issue 18, item 5)
        raise Http404
    return number


def _division(request, event):
    return get_object_or_404(Division, event=event, pk=_posted_number(request, "division"))


def _seed(request, event, division=None, reset=False):
    """Seed one division (or every ready one) and say, per division, what was done or why not."""
    report = seed_divisions(event, division=division, reset=reset)
    for d, count in report.seeded:
        messages.success(request, stage_notes.seeded_text(d, count))
    for d, reason in report.not_seeded:
        level = messages.error if division is not None else messages.info
        text = str(reason)
        level(request, text if d.name in text else f"{d.name}: {text}")


def _match(request, event):
    return get_object_or_404(Match, event=event, match_number=_posted_number(request, "match"))


def _knockout_post(request, event):
    """Record the runners-up lot, seed (every ready division, or one), reset one division's
    bracket, keep or replay an out-of-date game, undo a keep; ``UserError`` when refused."""
    action = request.POST.get("action", "")
    if "lot" in request.POST:
        division = _division(request, event)
        ordered = _lot_order(request, division.teams.all())
        record_runner_up_lot(division, ordered, request.POST.get("method", "lot"), request.user)
        messages.success(
            request, _("The order of the tied runners-up of %(division)s is recorded.") % {"division": division}
        )
    elif action == "seed":
        _seed(request, event, _division(request, event))
    elif action == "reset":
        _seed(request, event, _division(request, event), reset=True)
    elif action == "keep":
        match = keep_result(_match(request, event), request.user, request.POST.get("note", ""))
        messages.success(request, _("%(game)s: the played result is kept.") % {"game": match})
    elif action == "undo_keep":
        match = undo_keep(_match(request, event), request.user, request.POST.get("note", ""))
        messages.warning(
            request,
            _("%(game)s: the keep is undone; the game is out of date again, to keep or replay.") % {"game": match},
        )
    elif action == "replay":
        match = replay_match(_match(request, event), request.user, request.POST.get("note", ""))
        messages.warning(
            request, _("%(game)s: the result is void; the game is open again for its new teams.") % {"game": match}
        )
    elif action == "seed_all":
        _seed(request, event)


@login_required
@one_step_at_a_time
def knockout(request, slug):
    """Per division: its groups still playing, ready to seed (a button), seeded, a single
    qualifier who is the champion, or no knockout; its out-of-date games on top, each with what
    changed and the organiser's choice (keep the played result with a note, or replay)."""
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
        {
            "event": event,
            "brackets": reports.division_brackets(event),
            "placements": division_placements(event),
            "organiser": True,
            "runner_up_ties": ties,
            "stages": stage_notes.event_stages(event),
        },
    )
