"""Teams: the list, registering and editing a team, withdrawing one, importing an entry sheet."""

import hashlib

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.db.models import Prefetch
from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from club_entry import services as club_entry_services
from common.downloads import XLSX, file_response
from common.errors import UserError
from common.once import one_step_at_a_time
from common.pdf.coverage import entry_font_warnings
from ops import backups
from tournament import exports, imports
from tournament.access import event_for_organiser, int_param
from tournament.forms import ImportForm, TeamForm, compare_versions, merge_stale
from tournament.imports import store
from tournament.models import Division, Event, Player, Team
from tournament.services import versions
from tournament.services.registration import import_entries, save_team
from tournament.services.withdrawal import withdraw_team
from tournament.tables import TeamTable, configure


@login_required
def team_list(request, slug):
    event = event_for_organiser(request, slug)
    teams = (
        Team.objects.filter(division__event=event)
        # ``qualification``: where a team of a series' final qualified (series app, docs/exchange.md).
        .select_related("division__event", "group", "qualification")
        .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("order")))
    )
    division = int_param(request, "division")
    if division is not None:
        teams = teams.filter(division_id=division)
    table = TeamTable(teams, csrf_token=get_token(request), absent=club_entry_services.absent_players(event))
    configure(request, table)
    return render(
        request,
        "tournament/team_list.html",
        {"event": event, "table": table, "divisions": event.divisions.all(), "count": teams.count()},
    )


@login_required
def team_edit(request, slug, pk=None):
    event = event_for_organiser(request, slug)
    team = get_object_or_404(Team, division__event=event, pk=pk) if pk else None
    if not event.divisions.exists():
        messages.warning(request, _("Add a division first."))
        return redirect("tournament:division_add", event.slug)
    initial = TeamForm.initial_for(team) if team else {"division": int_param(request, "division")}
    form = TeamForm(request.POST or None, event=event, team=team, initial=initial)
    stale = {}
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            with transaction.atomic():
                if team is not None:
                    versions.claim(team, form.base_version())
                    # A club's absence reports and its hold on the team (issue 20 item 4).
                    club_entry_services.organiser_edits_team(
                        team, affiliation=data["affiliation"], players=form.players()
                    )
                team = save_team(
                    data["division"],
                    data["name"],
                    data["affiliation"],
                    form.players(),
                    team=team,
                    seed=data["seed"],
                    chaperone=data["chaperone"],
                )
        except versions.StaleEdit as e:
            form, stale = _stale_team(request, event, e)
        except UserError as e:
            form.add_error("name", str(e))
        else:
            messages.success(request, _("Team “%(name)s” saved.") % {"name": team.name})
            for warning in form.font_warnings:
                messages.warning(request, warning.message)
            if "add_another" in request.POST:
                return redirect(reverse("tournament:team_add", args=[event.slug]) + f"?division={team.division_id}")
            return redirect("tournament:team_list", event.slug)
    title = _("Edit team") if team else _("Register a team")
    return render(
        request,
        "tournament/team_form.html",
        {"event": event, "form": form, "title": title, "team": team, **stale},
        status=409 if stale else 200,
    )


def _stale_team(request, event, error):
    """A team save refused as stale: the typed values (based on the saved version, so that
    saving again keeps them) and the saved team beside them (issue 18, item 8)."""
    saved = error.saved
    saved_form = TeamForm(event=event, team=saved, initial=TeamForm.initial_for(saved))
    # Field by field: what only the other organiser changed stays theirs (issue 28, item 7).
    data, merge = merge_stale(request.POST, saved_form, saved.version)
    form = TeamForm(data, event=event, team=saved)
    form.is_valid()
    form.add_error(None, str(error))
    return form, {
        "stale_rows": compare_versions(form, saved_form, merge),
        "stale_version": saved.version,
        "stale_merged": True,
    }


@login_required
@one_step_at_a_time
def team_withdraw(request, slug, pk):
    """Withdraw a team (棄権). GET: the confirmation page, listing exactly what will change
    (games, standings places, slots after the groups), computed by running the withdrawal in a
    transaction that is rolled back; POST: the withdrawal, unless what it changes differs from
    the page the organiser read (then the page is shown again)."""
    event = event_for_organiser(request, slug)
    team = get_object_or_404(Team.objects.select_related("division"), division__event=event, pk=pk)
    try:
        preview = withdraw_team(team, request.user, preview=True)
    except UserError as e:
        messages.error(request, str(e))
        return redirect("tournament:team_list", event.slug)
    digest = _report_digest(preview)
    stale = request.method == "POST" and request.POST.get("digest") != digest
    if request.method == "POST" and not stale:
        try:
            report = withdraw_team(team, request.user)
        except UserError as e:
            messages.error(request, str(e))
        else:
            messages.warning(
                request,
                _("%(team)s has withdrawn (%(rule)s).") % {"team": team, "rule": _rule_name(report)}
                + " "
                + report.summary(),
            )
        return redirect("tournament:team_list", event.slug)
    return render(
        request,
        "tournament/withdraw_confirm.html",
        {"event": event, "team": team, "report": preview, "digest": digest, "stale": stale},
    )


def _rule_name(report):
    if report.after_groups:
        return _("after its group was complete: its group results stand")
    return dict(Division.WITHDRAWAL_CHOICES)[report.policy]


def _report_digest(report):
    """A short fingerprint of what a withdrawal changes: the confirmation page carries it, so a
    POST after something else changed shows the page again instead of saving unseen changes."""
    return hashlib.sha256(repr(report.changes).encode()).hexdigest()[:16]


def _keep_parsed(parsed, default_division, event, user):
    """Keep the parsed result under a new token (:mod:`tournament.imports.store`): the import
    and the problems download read it instead of parsing the file again."""
    return store.keep(settings.DATA_DIR, parsed, default_division, event_id=event.pk, user_id=user.pk)


def _kept_fault(error):
    """The sentence for an upload the server could not keep (issue 18, item 5): a full disk
    named as such, never a traceback; nothing was imported."""
    if backups.is_disk_full(error):
        return _(
            "The disk of the computer running the tournament is full: the file could not be kept, nothing was "
            "imported. Free some space (old backups, other files), then upload it again."
        )
    return _("The file could not be kept (%(reason)s); nothing was imported. Upload it again.") % {
        "reason": error.strerror or error
    }


class OtherUpload(UserError):
    """A kept upload's token used on another event's page or by another person."""


def _kept_parsed(token, event, user):
    """The parsed result kept under *token* for ``event`` and ``user``: ``(ParsedEntries,
    default division)``, or None when it has expired or cannot be read; 404 for a token of the
    wrong shape. Raises ``OtherUpload`` when it was uploaded for another event (named, when this
    user uploaded it) or by another person: a token never imports into an event it was not
    uploaded for."""
    try:
        kept = store.load(settings.DATA_DIR, token)
    except ValueError:
        raise Http404 from None
    if kept is None:
        return None
    if kept.user_id != user.pk:
        raise OtherUpload(_("This uploaded file was uploaded by another person; upload the file again here."))
    if kept.event_id != event.pk:
        other = Event.objects.filter(pk=kept.event_id).first()
        raise OtherUpload(
            _("This uploaded file was uploaded for another tournament (%(event)s); upload it again here.")
            % {"event": other.name if other else "?"}
        )
    return kept.parsed, kept.default_division


@login_required
def team_import(request, slug):
    """Upload an entry sheet, see the dry-run report, accept its warnings, then import all or
    nothing; the file is parsed once, at the upload."""
    event = event_for_organiser(request, slug)
    report = token = None
    default_division = ""
    form = ImportForm()
    if request.method == "POST" and "token" in request.POST:
        token = request.POST["token"]
        try:
            kept = _kept_parsed(token, event, request.user)
        except OtherUpload as error:
            messages.error(request, str(error))
            return redirect("tournament:team_import", event.slug)
        if kept is None:
            messages.error(request, _("The uploaded file has expired; upload it again."))
            return redirect("tournament:team_import", event.slug)
        parsed, default_division = kept
        accept = request.POST.get("accept_warnings") == "1"
        report = import_entries(event, parsed, dry_run=False, accept_warnings=accept)
        if report.imported:
            store.discard(settings.DATA_DIR, token)
            messages.success(request, _("%(count)s teams imported.") % {"count": len(report.teams)})
            return redirect("tournament:team_list", event.slug)
        if report.ok and report.warnings and not accept:
            messages.error(request, _("Read the warnings and tick the box to accept them, or correct the file."))
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            default_division = form.cleaned_data["default_division"]
            parsed = imports.parse_entry_workbook(form.cleaned_data["file"], default_division=default_division)
            report = import_entries(event, parsed, dry_run=True)
            try:
                token = _keep_parsed(parsed, default_division, event, request.user)
            except OSError as error:
                form.add_error("file", _kept_fault(error))
                report = None
    return render(
        request,
        "tournament/team_import.html",
        {
            "event": event,
            "form": form,
            "report": report,
            "token": token,
            "default_division": default_division,
            "font_warnings": entry_font_warnings(report.teams) if report else [],
        },
    )


@login_required
def import_report(request, slug, token):
    """The problems of an uploaded entry sheet as an Excel file, one row per problem; read from
    the result kept at the upload, not parsed again."""
    event = event_for_organiser(request, slug)
    try:
        kept = _kept_parsed(token, event, request.user)
    except OtherUpload:
        kept = None  # another event's or person's upload: as if it did not exist
    if kept is None:
        raise Http404
    report = import_entries(event, kept[0], dry_run=True)
    data = exports.problems_workbook(report.problems)
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-import-problems.xlsx", XLSX)


@login_required
def import_template(request, slug):
    event = event_for_organiser(request, slug)
    # The clubs' entry form is Japanese in every session (README "Languages"): its column
    # titles are what the reader looks for, and its title and note must not mix with them.
    with translation.override("ja"):
        data = imports.entry_template_workbook([d.name for d in event.divisions.all()])
    return file_response(data, f"{event.slug}-entry-template.xlsx", XLSX)
