"""Teams: the list, registering and editing a team, withdrawing one, importing an entry sheet."""

import hashlib
import secrets
import time
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from common.downloads import XLSX, file_response
from common.errors import UserError
from tournament import exports, imports
from tournament.access import event_for_organiser, int_param
from tournament.forms import ImportForm, TeamForm
from tournament.models import Division, Player, Team
from tournament.services.registration import import_entries, save_team
from tournament.services.withdrawal import withdraw_team
from tournament.tables import TeamTable


@login_required
def team_list(request, slug):
    event = event_for_organiser(request, slug)
    teams = (
        Team.objects.filter(division__event=event)
        .select_related("division__event", "group")
        .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("order")))
    )
    division = int_param(request, "division")
    if division is not None:
        teams = teams.filter(division_id=division)
    table = TeamTable(teams, csrf_token=get_token(request))
    RequestConfig(request, paginate=False).configure(table)
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
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            team = save_team(
                data["division"], data["name"], data["affiliation"], form.players(), team=team, seed=data["seed"]
            )
        except UserError as e:
            form.add_error("name", str(e))
        else:
            messages.success(request, _("Team “%(name)s” saved.") % {"name": team.name})
            if "add_another" in request.POST:
                return redirect(reverse("tournament:team_add", args=[event.slug]) + f"?division={team.division_id}")
            return redirect("tournament:team_list", event.slug)
    title = _("Edit team") if team else _("Register a team")
    return render(request, "tournament/team_form.html", {"event": event, "form": form, "title": title, "team": team})


@login_required
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


def _import_dir():
    """Uploaded entry sheets wait here between the preview and the import; a day at most."""
    path = Path(settings.DATA_DIR) / "imports"
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.xlsx"):
        if time.time() - old.stat().st_mtime > 24 * 3600:
            old.unlink(missing_ok=True)
    return path


@login_required
def team_import(request, slug):
    """Upload an entry sheet, see the dry-run report, then import all or nothing."""
    event = event_for_organiser(request, slug)
    report = token = None
    form = ImportForm()
    if request.method == "POST" and "token" in request.POST:
        token = request.POST["token"]
        path = _upload_path(token)
        if not path.exists():
            messages.error(request, _("The uploaded file has expired; upload it again."))
            return redirect("tournament:team_import", event.slug)
        parsed = imports.parse_entry_workbook(
            path.read_bytes(), default_division=request.POST.get("default_division", "")
        )
        report = import_entries(event, parsed, dry_run=False)
        if report.imported:
            path.unlink(missing_ok=True)
            messages.success(request, _("%(count)s teams imported.") % {"count": len(report.teams)})
            return redirect("tournament:team_list", event.slug)
    elif request.method == "POST":
        form = ImportForm(request.POST, request.FILES)
        if form.is_valid():
            data = form.cleaned_data["file"].read()
            parsed = imports.parse_entry_workbook(data, default_division=form.cleaned_data["default_division"])
            report = import_entries(event, parsed, dry_run=True)
            # Kept for the import itself, or for the downloadable error report.
            token = secrets.token_hex(16)
            _upload_path(token).write_bytes(data)
    return render(
        request,
        "tournament/team_import.html",
        {
            "event": event,
            "form": form,
            "report": report,
            "token": token,
            "default_division": request.POST.get("default_division", ""),
        },
    )


def _upload_path(token):
    if not (token.isascii() and token.isalnum() and len(token) == 32):
        raise Http404
    return _import_dir() / f"{token}.xlsx"


@login_required
def import_report(request, slug, token):
    """The problems of an uploaded entry sheet as an Excel file, one row per problem."""
    event = event_for_organiser(request, slug)
    path = _upload_path(token)
    if not path.exists():
        raise Http404
    parsed = imports.parse_entry_workbook(path.read_bytes(), default_division=request.GET.get("division", ""))
    report = import_entries(event, parsed, dry_run=True)
    data = exports.problems_workbook(report.problems)
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-import-problems.xlsx", XLSX)


@login_required
def import_template(request, slug):
    event = event_for_organiser(request, slug)
    data = imports.entry_template_workbook([d.name for d in event.divisions.all()])
    return file_response(data, f"{event.slug}-entry-template.xlsx", XLSX)
