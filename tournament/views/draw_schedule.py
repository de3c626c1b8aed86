"""Groups and schedule: the draw, moving a team, a late team, the schedule, its checks, and
the day's changes to a court (a delay, a closed court)."""

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from common.once import one_step_at_a_time
from tournament import reports
from tournament.access import MAX_ID, event_for_organiser, event_for_recorder, int_param, object_or_404, whole_number
from tournament.models import Court, Group, Team
from tournament.services.day_changes import add_late_team, close_court, delay_court, moved_lines
from tournament.services.draw import draw_groups, move_team
from tournament.services.schedule import clear_schedule, make_schedule, past_the_day
from tournament.services.timeline import BackToBack
from tournament.tables import MatchTable, coming_first, configure


def _confirmed(request):
    """Whether the organiser confirmed a change that makes teams play twice in a row."""
    return request.POST.get("allow_back_to_back") == "1"


def _confirm_back_to_back(request, event, warning):
    """The confirmation step of a change that breaks the rest rule (``BackToBack``): the
    teams and games it names, and the same form again with "save anyway"; nothing is saved."""
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "allow_back_to_back")
        for value in values
    ]
    return render(
        request,
        "tournament/confirm_back_to_back.html",
        {"event": event, "lines": warning.lines, "fields": fields, "action": request.path},
    )


def _late_team(request, event):
    """Add a late team to a group; returns a redirect to the new games, or None."""
    team = object_or_404(Team.objects.filter(division__event=event), request.POST.get("team"))
    group = object_or_404(Group.objects.filter(division__event=event), request.POST.get("group"))
    added = add_late_team(team, group, allow_back_to_back=_confirmed(request))
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
    if added:
        messages.info(request, " / ".join(moved_lines(added)))
    if numbers:
        return redirect(reverse("tournament:schedule", args=[event.slug]) + f"?added={numbers}")
    return None


def _groups_post(request, event):
    """The draw, a move or a late team; ``UserError`` when the service refuses."""
    if "draw" in request.POST:
        seed = request.POST.get("seed") or None
        drawn = draw_groups(event, seed=whole_number(seed))
        messages.success(request, _("Groups drawn for %(count)s divisions.") % {"count": len(drawn)})
    elif "move" in request.POST:
        team = object_or_404(Team.objects.filter(division__event=event), request.POST.get("team"))
        group = object_or_404(Group.objects.filter(division__event=event), request.POST.get("group"))
        move_team(team, group)
        messages.success(request, _("%(team)s moved to %(group)s.") % {"team": team, "group": group})
    elif "late" in request.POST:
        return _late_team(request, event)
    return None


@login_required
@one_step_at_a_time
def groups(request, slug):
    event = event_for_organiser(request, slug)
    if request.method == "POST":
        try:
            response = _groups_post(request, event)
        except BackToBack as warning:
            return _confirm_back_to_back(request, event, warning)
        except UserError as e:
            messages.error(request, str(e))
        else:
            if response is not None:
                return response
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


def _court_change(request, event):
    """A delay or a closed court; returns the redirect to the schedule."""
    court = object_or_404(Court.objects.filter(event=event), request.POST.get("court"))
    if "delay" in request.POST:
        minutes = request.POST.get("minutes", "").strip()
        moved = delay_court(court, whole_number(minutes, low=-MAX_ID) or 0, allow_back_to_back=_confirmed(request))
        messages.success(
            request,
            ngettext(
                "%(court)s: %(count)s game moved by %(minutes)s minutes.",
                "%(court)s: %(count)s games moved by %(minutes)s minutes.",
                moved,
            )
            % {"court": court, "count": moved, "minutes": minutes},
        )
        if moved.held:
            messages.warning(request, " ".join(moved.held))
        if moved.restaged:
            numbers = ",".join(str(m.match_number) for m in moved.restaged)
            messages.warning(
                request,
                _("Games after the groups moved to start after the games that decide their teams: %(where)s.")
                % {"where": " / ".join(moved_lines(moved.restaged))},
            )
            return redirect(reverse("tournament:schedule", args=[event.slug]) + f"?moved={numbers}")
        return redirect("tournament:schedule", event.slug)
    moved = close_court(court, allow_back_to_back=_confirmed(request))
    numbers = ",".join(str(m.match_number) for m in moved)
    if moved.stayed:
        messages.warning(
            request,
            ngettext(
                "Game %(numbers)s had started: it stays on %(court)s until its result is in.",
                "Games %(numbers)s had started: they stay on %(court)s until their results are in.",
                len(moved.stayed),
            )
            % {"court": court, "numbers": ", ".join(str(m.match_number) for m in moved.stayed)},
        )
    messages.warning(
        request,
        ngettext(
            "%(court)s is closed: %(count)s game moved. Reprint its sheet: %(numbers)s.",
            "%(court)s is closed: %(count)s games moved. Reprint their sheets: %(numbers)s.",
            len(moved),
        )
        % {"court": court, "count": len(moved), "numbers": numbers or "—"},
    )
    if moved:
        messages.info(request, " / ".join(moved_lines(moved)))
    if numbers:
        return redirect(reverse("tournament:schedule", args=[event.slug]) + f"?moved={numbers}")
    return redirect("tournament:schedule", event.slug)


def _schedule_post(request, event):
    """Make or clear the schedule, or change a court; ``UserError`` when refused."""
    if "delay" in request.POST or "close" in request.POST:
        return _court_change(request, event)
    if "make" in request.POST:
        count = make_schedule(event)
        messages.success(request, _("Schedule made: %(count)s games.") % {"count": count})
    elif "clear" in request.POST:
        clear_schedule(event)
        messages.success(request, _("Schedule cleared."))
    return redirect("tournament:schedule", event.slug)


def _numbers_param(request, name):
    """A comma-separated list of match numbers from the query, digits only."""
    return ",".join(n for n in request.GET.get(name, "").split(",") if n.isdigit())


@login_required
@one_step_at_a_time
def schedule(request, slug):
    event = event_for_recorder(request, slug)
    if request.method == "POST":
        if not event.is_organiser(request.user):
            raise PermissionDenied
        try:
            return _schedule_post(request, event)
        except BackToBack as warning:
            return _confirm_back_to_back(request, event, warning)
        except UserError as e:
            messages.error(request, str(e))
        return redirect("tournament:schedule", event.slug)
    matches = reports.match_queryset(event)
    court = int_param(request, "court")
    team = int_param(request, "team")
    if court is not None:
        matches = matches.filter(court_id=court)
    if team is not None:
        matches = matches.filter(Q(team_a_id=team) | Q(team_b_id=team))
    division = int_param(request, "division")
    if division is not None:
        matches = matches.filter(division_id=division)
    table = MatchTable(
        coming_first(matches),
        entry_url_name="judging:match_detail",
        event=event,
        slots=lambda: reports.event_slots(event),
    )
    configure(request, table)
    return render(
        request,
        "tournament/schedule.html",
        {
            "event": event,
            "table": table,
            "courts": event.courts.all(),
            "divisions": event.divisions.all(),
            "organiser": event.is_organiser(request.user),
            "layouts": reports.layout_summary(event),
            "moved": _numbers_param(request, "moved"),
            "added": _numbers_param(request, "added"),
            "has_groups": Group.objects.filter(division__event=event).exists(),
            "fixed_games": reports.partial_divisions(event),
            "past_the_day": past_the_day(event),
        },
    )


@login_required
def schedule_checks(request, slug):
    """The organiser's checks: nobody in two places at once, no double-booked court, pairs once."""
    event = event_for_recorder(request, slug)
    problems, rows = reports.schedule_checks(event)
    return render(
        request,
        "tournament/schedule_checks.html",
        {
            "event": event,
            "problems": problems,
            "rows": rows,
            "rest_rule": event.divisions.filter(rest_rule=True).exists(),
            "fixed_games": reports.partial_divisions(event),
        },
    )
