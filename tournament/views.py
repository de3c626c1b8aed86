"""The organiser's screens: setup, teams, draw, schedule, standings, knockout, downloads.

Views stay thin: load, check access, call a service, respond. Every view here needs a
logged-in organiser of the event (``_event_for_organiser``).
"""

import datetime
import secrets
from collections import defaultdict
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Prefetch, Q
from django.http import Http404
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_tables2 import RequestConfig

from common.downloads import PDF, file_response
from common.errors import UserError
from tournament import exports, imports, reports
from tournament.forms import CourtForm, DivisionForm, EventForm, ImportForm, NewEventForm, TeamForm
from tournament.models import Court, Division, Event, Group, Match, Player, Team
from tournament.services.day_changes import add_late_team, close_court, delay_court
from tournament.services.draw import draw_groups, move_team
from tournament.services.events import create_event
from tournament.services.knockout import seed_knockout
from tournament.services.lots import record_runner_up_lot, record_tie_break
from tournament.services.registration import import_entries, save_team
from tournament.services.schedule import clear_schedule, make_schedule
from tournament.services.withdrawal import withdraw_team
from tournament.tables import MatchTable, TeamTable


def _event_for_organiser(request, slug):
    """The event, for one of its organisers (or a superuser); 403 for anyone else."""
    event = get_object_or_404(Event, slug=slug)
    if not event.is_organiser(request.user):
        raise PermissionDenied
    return event


def _event_for_recorder(request, slug):
    """The event, for its recorders (記録係) and organisers; 403 for anyone else."""
    event = get_object_or_404(Event, slug=slug)
    if not event.is_recorder(request.user):
        raise PermissionDenied
    return event


def int_param(request, name):
    """A whole-number query parameter, or None when absent or not a number (never a 500)."""
    value = request.GET.get(name, "")
    return int(value) if value.isascii() and value.isdigit() else None


def schedule_queryset(event):
    return (
        event.matches.select_related("division", "group", "court", "team_a", "team_b", "winner")
        .prefetch_related(Prefetch("sheets", to_attr="confirmed_sheets", queryset=_confirmed_sheets()))
        .order_by("match_number")
    )


def _confirmed_sheets():
    from judging.models import RecordingSheet

    return RecordingSheet.objects.filter(is_confirmed=True)


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
def games(request):
    """The club games besides tournaments: Musashino-bana and Sanjô Dôsai (issues 9 and 10)."""
    return render(request, "tournament/games.html")


@login_required
def event_detail(request, slug):
    event = _event_for_organiser(request, slug)
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
    event = _event_for_organiser(request, slug)
    form = EventForm(request.POST or None, instance=event)
    if request.method == "POST" and form.is_valid():
        event = form.save()
        messages.success(request, _("Saved."))
        return redirect(event)
    return render(request, "tournament/form.html", {"event": event, "form": form, "title": _("Tournament settings")})


@login_required
def division_edit(request, slug, pk=None):
    event = _event_for_organiser(request, slug)
    division = get_object_or_404(Division, event=event, pk=pk) if pk else None
    form = DivisionForm(request.POST or None, instance=division, event=event)
    if request.method == "POST" and form.is_valid():
        division = form.save(commit=False)
        division.event = event
        division.save()
        form.save_m2m()
        messages.success(request, _("Division “%(name)s” saved.") % {"name": division.name})
        return redirect(event)
    title = _("Edit division") if division else _("Add a division")
    return render(request, "tournament/division_form.html", {"event": event, "form": form, "title": title})


@login_required
def court_edit(request, slug, pk=None):
    event = _event_for_organiser(request, slug)
    court = get_object_or_404(Court, event=event, pk=pk) if pk else None
    form = CourtForm(request.POST or None, instance=court, event=event)
    if request.method == "POST" and form.is_valid():
        court = form.save(commit=False)
        court.event = event
        court.save()
        messages.success(request, _("Court saved."))
        return redirect("tournament:court_links", event.slug)
    title = _("Edit court") if court else _("Add a court")
    return render(request, "tournament/form.html", {"event": event, "form": form, "title": title})


# --- Teams -----------------------------------------------------------------------------


@login_required
def team_list(request, slug):
    event = _event_for_organiser(request, slug)
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
    event = _event_for_organiser(request, slug)
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
@require_POST
def team_withdraw(request, slug, pk):
    event = _event_for_organiser(request, slug)
    team = get_object_or_404(Team.objects.select_related("division"), division__event=event, pk=pk)
    try:
        changed = withdraw_team(team, request.user)
    except UserError as e:
        messages.error(request, str(e))
    else:
        messages.warning(
            request,
            ngettext(
                "%(team)s has withdrawn (%(policy)s): %(count)s unplayed game changed.",
                "%(team)s has withdrawn (%(policy)s): %(count)s unplayed games changed.",
                changed,
            )
            % {"team": team, "policy": team.division.get_withdrawal_display(), "count": changed},
        )
    return redirect("tournament:team_list", event.slug)


def _import_dir():
    """Uploaded entry sheets wait here between the preview and the import; a day at most."""
    import time

    path = Path(settings.DATA_DIR) / "imports"
    path.mkdir(parents=True, exist_ok=True)
    for old in path.glob("*.xlsx"):
        if time.time() - old.stat().st_mtime > 24 * 3600:
            old.unlink(missing_ok=True)
    return path


@login_required
def team_import(request, slug):
    """Upload an entry sheet, see the dry-run report, then import all or nothing."""
    event = _event_for_organiser(request, slug)
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
    event = _event_for_organiser(request, slug)
    path = _upload_path(token)
    if not path.exists():
        raise Http404
    parsed = imports.parse_entry_workbook(path.read_bytes(), default_division=request.GET.get("division", ""))
    report = import_entries(event, parsed, dry_run=True)
    data = exports.problems_workbook(report.problems)
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-import-problems.xlsx", exports.XLSX)


@login_required
def import_template(request, slug):
    event = _event_for_organiser(request, slug)
    data = imports.entry_template_workbook([d.name for d in event.divisions.all()])
    return file_response(data, f"{event.slug}-entry-template.xlsx", exports.XLSX)


# --- Groups and schedule ---------------------------------------------------------------


@login_required
def groups(request, slug):
    event = _event_for_organiser(request, slug)
    if request.method == "POST":
        try:
            if "draw" in request.POST:
                seed = request.POST.get("seed") or None
                drawn = draw_groups(event, seed=int(seed) if seed and seed.isdigit() else None)
                messages.success(request, _("Groups drawn for %(count)s divisions.") % {"count": len(drawn)})
            elif "move" in request.POST:
                team = get_object_or_404(Team, division__event=event, pk=request.POST.get("team"))
                group = get_object_or_404(Group, division__event=event, pk=request.POST.get("group"))
                move_team(team, group)
                messages.success(request, _("%(team)s moved to %(group)s.") % {"team": team, "group": group})
            elif "late" in request.POST:
                team = get_object_or_404(Team, division__event=event, pk=request.POST.get("team"))
                group = get_object_or_404(Group, division__event=event, pk=request.POST.get("group"))
                added = add_late_team(team, group)
                numbers = ",".join(str(m.match_number) for m in added)
                messages.success(
                    request,
                    ngettext(
                        "%(team)s joined %(group)s: %(count)s game added (%(numbers)s).",
                        "%(team)s joined %(group)s: %(count)s games added (%(numbers)s).",
                        len(added),
                    )
                    % {"team": team, "group": group, "count": len(added), "numbers": numbers or "—"},
                )
                if numbers:
                    return redirect(reverse("tournament:schedule", args=[event.slug]) + f"?added={numbers}")
        except UserError as e:
            messages.error(request, str(e))
        return redirect("tournament:groups", event.slug)
    divisions = event.divisions.prefetch_related(
        Prefetch(
            "groups",
            queryset=Group.objects.select_related("court").prefetch_related(
                Prefetch("teams", queryset=Team.objects.order_by("group_seat"))
            ),
        ),
        "teams",
    )
    late = defaultdict(list)
    for team in Team.objects.filter(division__event=event, group__isnull=True, withdrawn=False).order_by("name_key"):
        late[team.division_id].append(team)
    return render(
        request,
        "tournament/groups.html",
        {"event": event, "divisions": [(d, late[d.pk]) for d in divisions], "scheduled": event.matches.exists()},
    )


@login_required
def schedule(request, slug):
    event = _event_for_recorder(request, slug)
    if request.method == "POST":
        if not event.is_organiser(request.user):
            raise PermissionDenied
        try:
            if "delay" in request.POST or "close" in request.POST:
                court = get_object_or_404(Court, event=event, pk=request.POST.get("court"))
                if "delay" in request.POST:
                    minutes = request.POST.get("minutes", "").strip()
                    moved = delay_court(court, int(minutes) if minutes.lstrip("-").isdigit() else 0)
                    messages.success(
                        request,
                        ngettext(
                            "%(court)s: %(count)s game moved by %(minutes)s minutes.",
                            "%(court)s: %(count)s games moved by %(minutes)s minutes.",
                            moved,
                        )
                        % {"court": court, "count": moved, "minutes": minutes},
                    )
                else:
                    moved = close_court(court)
                    numbers = ",".join(str(m.match_number) for m in moved)
                    messages.warning(
                        request,
                        ngettext(
                            "%(court)s is closed: %(count)s game moved. Reprint its sheet: %(numbers)s.",
                            "%(court)s is closed: %(count)s games moved. Reprint their sheets: %(numbers)s.",
                            len(moved),
                        )
                        % {"court": court, "count": len(moved), "numbers": numbers or "—"},
                    )
                    if numbers:
                        return redirect(reverse("tournament:schedule", args=[event.slug]) + f"?moved={numbers}")
                return redirect("tournament:schedule", event.slug)
            if "make" in request.POST:
                count = make_schedule(event)
                messages.success(request, _("Schedule made: %(count)s games.") % {"count": count})
            elif "clear" in request.POST:
                clear_schedule(event)
                messages.success(request, _("Schedule cleared."))
        except UserError as e:
            messages.error(request, str(e))
        return redirect("tournament:schedule", event.slug)
    matches = schedule_queryset(event)
    court = int_param(request, "court")
    team = int_param(request, "team")
    if court is not None:
        matches = matches.filter(court_id=court)
    if team is not None:
        matches = matches.filter(Q(team_a_id=team) | Q(team_b_id=team))
    table = MatchTable(matches, entry_url_name="judging:game_detail", event=event)
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "tournament/schedule.html",
        {
            "event": event,
            "table": table,
            "courts": event.courts.all(),
            "organiser": event.is_organiser(request.user),
            "layouts": layout_summary(event),
            "moved": ",".join(n for n in request.GET.get("moved", "").split(",") if n.isdigit()),
            "added": ",".join(n for n in request.GET.get("added", "").split(",") if n.isdigit()),
            "has_groups": Group.objects.filter(division__event=event).exists(),
        },
    )


# --- Standings and knockout ------------------------------------------------------------


def standings_context(event):
    from tournament.tables import standings_table

    divisions = []
    for division in event.divisions.all():
        tables = reports.division_standings(division)
        divisions.append((division, [(t, standings_table(t), cross_table(t), tied_blocks(t)) for t in tables]))
    return divisions


def tied_blocks(table):
    """Blocks of teams tied on every criterion: [[Team, …], …] for the lot form."""
    blocks = defaultdict(list)
    for row in table.rows:
        if row.tied:
            blocks[row.rank].append(table.teams[row.team])
    return [blocks[rank] for rank in sorted(blocks)]


def cross_table(table):
    """The 星取表: rows and columns in rank order, each cell ○/● with the score."""
    order = [table.teams[r.team] for r in table.rows]
    grid = []
    for row_team in order:
        cells = []
        for col_team in order:
            if row_team.pk == col_team.pk:
                cells.append(None)
                continue
            cell = table.cells.get((row_team.pk, col_team.pk))
            cells.append(cell and {"won": cell[0], "score": f"{cell[1]}-{cell[2]}", "mark": cell[3]})
        grid.append((row_team, cells))
    return {"teams": order, "grid": grid}


def _lot_order(request, teams):
    """The teams of a lot form (``team_<pk>`` = position) best first; ``UserError`` when a
    position repeats or a team is not one of ``teams``."""
    picks = [
        (int(value), key[5:]) for key, value in request.POST.items() if key.startswith("team_") and value.isdigit()
    ]
    by_pk = {str(t.pk): t for t in teams}
    if len(picks) != len({p for p, _t in picks}) or any(t not in by_pk for _p, t in picks):
        raise UserError(_("Give each tied team a different position."))
    return [by_pk[t] for _p, t in sorted(picks)]


@login_required
def standings_view(request, slug):
    event = _event_for_recorder(request, slug)
    if request.method == "POST":
        if not event.is_organiser(request.user):
            raise PermissionDenied
        group = get_object_or_404(Group, division__event=event, pk=request.POST.get("group"))
        try:
            ordered = _lot_order(request, group.teams.all())
            record_tie_break(group, ordered, request.POST.get("method", "lot"), request.user)
            messages.success(request, _("The order of the tied teams in %(group)s is recorded.") % {"group": group})
        except UserError as e:
            messages.error(request, str(e))
        return redirect("tournament:standings", event.slug)
    return render(
        request,
        "tournament/standings.html",
        {"event": event, "divisions": standings_context(event), "organiser": event.is_organiser(request.user)},
    )


def bracket_context(event):
    """Per division: (division, rounds of games, third-place games, joint third teams)."""
    rounds_by_division = []
    for division in event.divisions.all():
        games = list(
            schedule_queryset(event)
            .filter(division=division)
            .exclude(stage=Match.Stage.GROUP)
            .order_by("round", "bracket_position", "match_number")
        )
        if not games:
            continue
        rounds = {}
        third = [g for g in games if g.stage == Match.Stage.THIRD_PLACE]
        for g in games:
            if g.stage != Match.Stage.THIRD_PLACE:
                rounds.setdefault(g.round, []).append(g)
        joint_third = []
        if not third:
            # No third-place game: both semifinal losers share third place.
            for g in games:
                if g.stage == Match.Stage.SEMIFINAL and g.has_result:
                    joint_third.append(g.team_b if g.winner_id == g.team_a_id else g.team_a)
        rounds_by_division.append((division, [rounds[r] for r in sorted(rounds)], third, joint_third))
    return rounds_by_division


@login_required
def knockout(request, slug):
    event = _event_for_organiser(request, slug)
    if request.method == "POST":
        try:
            if "lot" in request.POST:
                division = get_object_or_404(Division, event=event, pk=request.POST.get("division"))
                ordered = _lot_order(request, division.teams.all())
                record_runner_up_lot(division, ordered, request.POST.get("method", "lot"), request.user)
                messages.success(
                    request, _("The order of the tied runners-up of %(division)s is recorded.") % {"division": division}
                )
            else:
                count = seed_knockout(event, reset="reset" in request.POST)
                messages.success(request, _("Bracket seeded: %(count)s games.") % {"count": count})
        except UserError as e:
            messages.error(request, str(e))
        return redirect("tournament:knockout", event.slug)
    ties = [(d, teams) for d in event.divisions.all() if (teams := reports.runner_up_tie(d))]
    return render(
        request,
        "tournament/knockout.html",
        {"event": event, "brackets": bracket_context(event), "organiser": True, "runner_up_ties": ties},
    )


# --- Downloads -------------------------------------------------------------------------


@login_required
def export_workbook(request, slug):
    """One workbook with the kinds ticked (default standings and games), or one kind alone."""
    event = _event_for_organiser(request, slug)
    kinds = [k for k in request.GET.getlist("kind") if k in exports.KINDS] or ["standings", "games"]
    data = exports.event_workbook(event, kinds)
    name = "results" if kinds == ["standings", "games"] else "-".join(kinds)
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-{name}.xlsx", exports.XLSX)


@login_required
def recording_sheets(request, slug):
    from judging.paper.match_sheets import event_sheets_pdf

    event = _event_for_organiser(request, slug)
    matches = event.matches.all()
    label = "all"
    division, court, round_index = (
        int_param(request, "division"),
        int_param(request, "court"),
        int_param(request, "round"),
    )
    if division is not None:
        matches = matches.filter(division_id=division)
        label = f"division{division}"
    if court is not None:
        matches = matches.filter(court_id=court)
        label += f"-court{court}"
    if request.GET.get("stage") == "knockout":
        matches = matches.exclude(stage=Match.Stage.GROUP)
        label += "-knockout"
    elif request.GET.get("stage") == "group":
        matches = matches.filter(stage=Match.Stage.GROUP)
    numbers = [int(n) for n in request.GET.get("numbers", "").split(",") if n.strip().isdigit()]
    if numbers:  # only the sheets that changed (a closed court, a delay)
        matches = matches.filter(match_number__in=numbers)
        label += "-changed"
    if round_index is not None:
        matches = matches.filter(round=round_index, stage=Match.Stage.GROUP)
        label += f"-round{round_index + 1}"
    per_page = 2 if request.GET.get("per_page") == "2" else 1
    data = event_sheets_pdf(
        event, matches, base_url=settings.SITE_URL or request.build_absolute_uri("/").rstrip("/"), per_page=per_page
    )
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-sheets-{label}.pdf", PDF, inline=True)


@login_required
def print_menu(request, slug):
    event = _event_for_organiser(request, slug)
    rounds = sorted(set(event.matches.filter(stage=Match.Stage.GROUP).values_list("round", flat=True)))
    return render(
        request,
        "tournament/print_menu.html",
        {
            "event": event,
            "divisions": event.divisions.all(),
            "courts": event.courts.all(),
            "rounds": [(r, r + 1) for r in rounds],
            "export_kinds": [
                ("standings", _("standings")),
                ("games", _("all games")),
                ("timetable", _("timetable")),
                ("teams", _("teams with players")),
            ],
        },
    )


@login_required
def print_paper(request, slug, kind):
    """The other paper of the day as PDF: 対戦表, 受付名簿, 順位表, トーナメント表, 成績一覧, 判定表."""
    from tournament import printing

    event = _event_for_organiser(request, slug)
    if kind == "matrix":
        data = printing.touch_matrix()
    elif kind == "results":
        data = printing.final_results(event, with_names=request.GET.get("names") == "1")
    elif kind in printing.KINDS:
        data = printing.KINDS[kind](event)
    else:
        raise Http404
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-{kind}.pdf", PDF, inline=True)


@login_required
def people(request, slug):
    """Who may do what in this event: organisers (everything) and recorders (results only)."""
    from django.contrib.auth import get_user_model

    from tournament.forms import PersonForm

    event = _event_for_organiser(request, slug)
    form = PersonForm(request.POST or None)
    if request.method == "POST" and "remove" in request.POST:
        user = get_object_or_404(get_user_model(), pk=request.POST.get("user"))
        if user == request.user:
            messages.error(request, _("You cannot remove yourself."))
        else:
            event.organisers.remove(user)
            event.recorders.remove(user)
            messages.success(request, _("%(user)s no longer has a role in this event.") % {"user": user})
        return redirect("tournament:people", event.slug)
    if request.method == "POST" and form.is_valid():
        User = get_user_model()
        data = form.cleaned_data
        user = User.objects.filter(username=data["username"].strip()).first()
        if user is None:
            user = User.objects.create_user(data["username"].strip(), password=data["password"])
        (event.organisers if data["role"] == "organiser" else event.recorders).add(user)
        if data["role"] == "organiser":
            messages.success(request, _("%(user)s is now an organiser of this event.") % {"user": user})
        else:
            messages.success(request, _("%(user)s is now a recorder of this event.") % {"user": user})
        return redirect("tournament:people", event.slug)
    return render(
        request,
        "tournament/people.html",
        {"event": event, "form": form, "organisers": event.organisers.all(), "recorders": event.recorders.all()},
    )


def layout_summary(event):
    """Per division: its layout, the slots it uses and the lower bound (the best possible)."""
    from django.db.models import Max as _Max

    from tournament.engine import scheduling

    rows = []
    for division in event.divisions.prefetch_related("groups__teams"):
        sizes = [len([t for t in g.teams.all() if not t.withdrawn]) for g in division.groups.all()]
        games = event.matches.filter(division=division, stage=Match.Stage.GROUP)
        courts = games.values("court").distinct().count()
        if not sizes or not courts or min(sizes) < 2:
            continue
        slots = games.aggregate(m=_Max("slot"))["m"]
        first = games.order_by("slot").values_list("slot", flat=True).first()
        used = (slots - first + 1) if slots is not None else None
        rows.append(
            {
                "division": division,
                "slots": used,
                "bound": scheduling.lower_bound(sizes, courts, rest=division.rest_rule),
            }
        )
    return rows


@login_required
def schedule_checks(request, slug):
    """The organiser's checks: nobody in two places at once, no double-booked court, pairs once."""
    event = _event_for_recorder(request, slug)
    problems, rows = reports.schedule_checks(event)
    return render(request, "tournament/schedule_checks.html", {"event": event, "problems": problems, "rows": rows})
