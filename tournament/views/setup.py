"""Setting up a tournament: the list of events, an event's page and settings, divisions, courts."""

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Count, Q
from django.http import HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from tournament.access import event_for_organiser, event_for_recorder
from tournament.forms import CourtForm, DivisionForm, EventForm, NewEventForm, compare_versions, merge_stale
from tournament.models import Court, Division, Event, Match
from tournament.services import settings_guard, versions
from tournament.services.events import create_event, delete_event, deletion_preview, set_visibility


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
        # Every field the form offers is kept (issue 27, item 1: the lunch and the six settings were
        # dropped here once, and the event came back with the model's defaults).
        fields = {k: data[k] for k in form.event_fields() if k not in ("slug", "name", "date")}
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
        knockout=Count("pk", filter=Q(stage__in=Match.Stage.AFTER_GROUPS)),
    )
    return render(
        request,
        "tournament/event_detail.html",
        {
            "event": event,
            "divisions": divisions,
            "courts": event.courts.all(),
            "counts": counts,
            "settings_list": [
                (Event._meta.get_field(name).verbose_name, getattr(event, name)) for name in EVENT_SWITCHES
            ],
        },
    )


# The event's yes/no settings, shown on its card so that one kept at its default is seen (issue 27).
EVENT_SWITCHES = (
    "auto_confirm",
    "leaders_sign_off",
    "recorders_confirm_own",
    "individual_counts",
    "japanese_era",
    "publish_names",
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
                form, stale = _stale(e, EventForm, request.POST, event, {})
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


@login_required
def event_visibility(request, slug):
    """The switch on the event's card: draft, public or archived (``services.events.set_visibility``).
    Organisers only (403 for recorders and others), POST only (405 after the organiser check); a
    value that is not one of the three is refused naming the field, nothing saved."""
    event = event_for_organiser(request, slug)
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    try:
        set_visibility(event, request.POST.get("visibility", ""))
    except UserError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, VISIBILITY_SAVED[event.visibility]())
    return redirect(event)


VISIBILITY_SAVED = {
    Event.Visibility.DRAFT: lambda: _(
        "Draft: the public pages now answer “not found” to everyone but its organisers and recorders."
    ),
    Event.Visibility.PUBLIC: lambda: _("Public: the tournament is on the public home page."),
    Event.Visibility.ARCHIVED: lambda: _("Archived: the tournament is listed under past tournaments."),
}


@login_required
def event_delete(request, slug):
    """Delete a rehearsal event: a page that names what goes with it (counts of divisions, teams,
    players, games, sheets, photos …), then, on confirmation (its short name typed), one
    transaction after a backup (``services.events.delete_event``). Organisers of the event and
    superusers only: 403 for recorders, 404 for an unknown event."""
    event = event_for_organiser(request, slug)
    error = ""
    if request.method == "POST":
        try:
            done = delete_event(event, typed_slug=request.POST.get("slug", ""), digest=request.POST.get("digest", ""))
        except UserError as e:
            error = str(e)
        else:
            if done.backup:
                messages.success(
                    request,
                    _("“%(title)s” was deleted. A backup taken just before: %(file)s")
                    % {"title": event.title, "file": done.backup.name},
                )
            else:
                messages.success(request, _("“%(title)s” was deleted.") % {"title": event.title})
            return redirect("tournament:event_list")
    preview = deletion_preview(event)
    return render(
        request,
        "tournament/event_delete.html",
        {"event": event, "preview": preview, "error": error, "typed": request.POST.get("slug", "")},
        status=400 if error else 200,
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


def _stale(error, form_class, post, instance, kwargs):
    """A save refused as stale (``versions.StaleEdit``): the form of ``form_class`` with the typed
    ``post`` merged field by field with the saved row, based on the saved version
    (``forms.merge_stale``: a field only the other person changed keeps their value, issue 28
    item 7), and the page's context: the saved and the typed values side by side (issue 18, item 8)."""
    saved_form = form_class(instance=error.saved, **kwargs)
    data, merge = merge_stale(post, saved_form, error.saved.version)
    form = form_class(data, instance=instance, **kwargs)
    form.is_valid()
    form.add_error(None, str(error))
    return form, {
        "stale_rows": compare_versions(form, saved_form, merge),
        "stale_version": error.saved.version,
        "stale_merged": True,
    }


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
                form, stale = _stale(e, DivisionForm, request.POST, division, {"event": event})
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
            form, stale = _stale(e, CourtForm, request.POST, court, {"event": event})
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
