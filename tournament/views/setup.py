"""Setting up a tournament: the list of events, an event's page and settings, divisions, courts."""

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from tournament.access import event_for_organiser, event_for_recorder
from tournament.forms import CourtForm, DivisionForm, EventForm, NewEventForm, compare_versions, with_version
from tournament.models import Court, Division, Event, Match
from tournament.services import settings_guard, versions
from tournament.services.events import create_event


@login_required
def event_list(request):
    if request.user.is_superuser:
        events = Event.objects.all()
    else:
        events = Event.objects.filter(Q(organisers=request.user) | Q(recorders=request.user)).distinct()
    may_create = request.user.has_perm("tournament.add_event") or request.user.organised_events.exists()
    if request.method == "POST" and not may_create:
        raise PermissionDenied
    form = NewEventForm(request.POST or None, initial={"date": datetime.date.today()})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {
            k: data[k] for k in ("edition", "venue", "start_time", "game_minutes", "changeover_minutes", "card_total")
        }
        try:
            event = create_event(data["slug"], data["name"], data["date"], courts=data["court_count"], **fields)
        except UserError as e:
            form.add_error("slug", str(e))
        else:
            event.organisers.add(request.user)
            messages.success(request, _("Tournament created. Next: add divisions, then register teams."))
            return redirect(event)
    return render(request, "tournament/event_list.html", {"events": events, "form": form, "may_create": may_create})


@login_required
def club_games(request):
    """The club games besides tournaments: Musashino-bana and Sanjô Dôsai (issues 9 and 10)."""
    return render(request, "tournament/games.html")


@login_required
def event_detail(request, slug):
    """The organiser's home of an event; a recorder (記録係) who follows the event's link
    lands on the confirmation queue, the recorders' home, instead of a refusal."""
    event = event_for_recorder(request, slug)  # organisers are recorders too; anyone else: 403
    if not event.is_organiser(request.user):
        return redirect("judging:confirm_queue", event.slug)
    divisions = event.divisions.prefetch_related("courts").annotate(
        team_count=Count("teams", distinct=True), group_count=Count("groups", distinct=True)
    )
    counts = event.matches.aggregate(
        total=Count("pk"),
        done=Count("pk", filter=~Q(status=Match.Status.SCHEDULED)),
        knockout=Count("pk", filter=~Q(stage=Match.Stage.GROUP)),
    )
    return render(
        request,
        "tournament/event_detail.html",
        {"event": event, "divisions": divisions, "courts": event.courts.all(), "counts": counts},
    )


@login_required
def event_edit(request, slug):
    """The event's settings. Once results exist, a change of the card total shows what it affects
    and is saved only after the organiser confirms it (``settings_guard``); a total that would
    break recorded sheets is refused by the form with their number. Once games are scheduled, a
    change of the start time, game or changeover minutes or lunch break names the games it
    moves and where (and the teams it makes play twice in a row), and is saved, with the games
    moved, only after the organiser confirms it; the schedule then offers their sheets."""
    event = event_for_organiser(request, slug)
    old = Event.objects.get(pk=event.pk)
    form = EventForm(request.POST or None, instance=event)
    effects = None
    stale = {}
    if request.method == "POST" and form.is_valid():
        effects = settings_guard.event_effects(old, form.instance)
        if _confirmed(request, effects):
            try:
                with transaction.atomic():
                    versions.claim(form.instance, form.base_version())
                    event = settings_guard.save_event(form.instance, user=request.user)
            except versions.StaleEdit as e:
                form, stale = _stale(e, EventForm(with_version(request.POST, e.saved.version), instance=event), {})
            except UserError as e:
                form.add_error(None, str(e))
            else:
                return _event_saved(request, event)
    return render(
        request,
        "tournament/form.html",
        {"event": old, "form": form, "title": _("Tournament settings"), "effects": effects, **stale},
        status=409 if stale else 200,
    )


def _event_saved(request, event):
    """After the settings are saved: to the event's page, or, when a change of the day's clock
    moved games, to the schedule with the moved games' sheets offered for reprinting."""
    moved = getattr(event, "moved_games", [])
    if not moved:
        messages.success(request, _("Saved."))
        return redirect(event)
    numbers = ",".join(str(m.match_number) for m in moved)
    messages.warning(
        request,
        ngettext(
            "Saved: %(count)s game moved. Reprint its sheet: %(numbers)s.",
            "Saved: %(count)s games moved. Reprint their sheets: %(numbers)s.",
            len(moved),
        )
        % {"count": len(moved), "numbers": numbers},
    )
    return redirect(reverse("tournament:schedule", args=[event.slug]) + f"?moved={numbers}")


def _stale(error, form, kwargs):
    """A save refused as stale (``versions.StaleEdit``): ``form`` (the typed values, based on the
    saved version so that saving again keeps them, on purpose) and the page's context: the saved
    and the typed values side by side (issue 18, item 8)."""
    form.is_valid()
    form.add_error(None, str(error))
    saved_form = type(form)(instance=error.saved, **kwargs)
    return form, {"stale_rows": compare_versions(form, saved_form), "stale_version": error.saved.version}


def _confirmed(request, effects):
    """Whether a valid settings form may be saved: nothing results depend on changes, or the
    organiser ticked the confirmation of exactly these effects (the second step)."""
    if not effects.needs_confirmation:
        return True
    return bool(request.POST.get("confirm_effects")) and request.POST.get("effects_digest") == effects.digest


@login_required
def division_edit(request, slug, pk=None):
    """A division's settings. Once it has results, a change of a setting they depend on shows
    the places, slots and games it affects and is saved only after confirmation; changes that
    cannot apply are refused by the form. Saving fills the division's slots again."""
    event = event_for_organiser(request, slug)
    division = get_object_or_404(Division, event=event, pk=pk) if pk else None
    old = Division.objects.get(pk=division.pk) if division else None
    form = DivisionForm(request.POST or None, instance=division, event=event)
    effects, stale = None, {}
    if request.method == "POST" and form.is_valid():
        division = form.save(commit=False)
        division.event = event
        effects = settings_guard.division_effects(old, division) if old else settings_guard.SettingsEffects()
        if _confirmed(request, effects):
            try:
                with transaction.atomic():
                    versions.claim(division, form.base_version())
                    settings_guard.save_division(division, save_related=form.save_m2m, user=request.user)
            except versions.StaleEdit as e:
                data = with_version(request.POST, e.saved.version)
                form, stale = _stale(e, DivisionForm(data, instance=division, event=event), {"event": event})
            except UserError as e:
                form.add_error(None, str(e))
            else:
                messages.success(request, _("Division “%(name)s” saved.") % {"name": division.name})
                return redirect(event)
    title = _("Edit division") if pk else _("Add a division")
    return render(
        request,
        "tournament/division_form.html",
        {"event": event, "form": form, "title": title, "effects": effects, **stale},
        status=409 if stale else 200,
    )


@login_required
def court_edit(request, slug, pk=None):
    event = event_for_organiser(request, slug)
    court = get_object_or_404(Court, event=event, pk=pk) if pk else None
    form = CourtForm(request.POST or None, instance=court, event=event)
    stale = {}
    if request.method == "POST" and form.is_valid():
        court = form.save(commit=False)
        court.event = event
        try:
            with transaction.atomic():
                versions.claim(court, form.base_version())
                court.save()
        except versions.StaleEdit as e:
            data = with_version(request.POST, e.saved.version)
            form, stale = _stale(e, CourtForm(data, instance=court, event=event), {"event": event})
        else:
            messages.success(request, _("Court saved."))
            return redirect("tournament:court_links", event.slug)
    title = _("Edit court") if pk else _("Add a court")
    return render(
        request,
        "tournament/form.html",
        {"event": event, "form": form, "title": title, **stale},
        status=409 if stale else 200,
    )
