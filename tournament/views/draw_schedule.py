"""Groups and schedule: the draw, moving a team, a late team, the schedule, its checks, and
the day's changes to a court (a delay, a closed court). The two pages are GET only; each of
their steps has its own POST-only address (issue 30, item 5)."""

from collections import defaultdict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch, Q
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from common.errors import UserError
from common.kept_forms import on_page
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


def _confirm_back_to_back(request, event, warning, back):
    """The confirmation step of a change that breaks the rest rule (``BackToBack``): the
    teams and games it names, and the same form again with "save anyway" (to the same step's
    address), "cancel" going back to ``back`` (the page's URL name); nothing is saved."""
    fields = [
        (name, value)
        for name, values in request.POST.lists()
        if name not in ("csrfmiddlewaretoken", "allow_back_to_back")
        for value in values
    ]
    return render(
        request,
        "tournament/confirm_back_to_back.html",
        {
            "event": event,
            "lines": warning.lines,
            "fields": fields,
            "action": request.path,
            "back": reverse(back, args=[event.slug]),
        },
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


def _step(request, slug, page, act):
    """An organiser's step on the groups or the schedule page: ``act(request, event)`` calls
    the service and says what it did, and answers a redirect or None (then back to ``page``,
    the page's URL name). The event's organisers only (403; 404 for an unknown event). A
    change that breaks the rest rule asks first (``_confirm_back_to_back``); a refusal
    (``UserError``) is a message, nothing written."""
    event = event_for_organiser(request, slug)
    try:
        response = act(request, event)
    except BackToBack as warning:
        return _confirm_back_to_back(request, event, warning, back=page)
    except UserError as e:
        messages.error(request, str(e))
    else:
        if response is not None:
            return response
    return redirect(page, event.slug)


def _draw(request, event):
    seed = request.POST.get("seed") or None
    drawn = draw_groups(event, seed=whole_number(seed))
    messages.success(request, _("Groups drawn for %(count)s divisions.") % {"count": len(drawn)})


def _move(request, event):
    team = object_or_404(Team.objects.filter(division__event=event), request.POST.get("team"))
    group = object_or_404(Group.objects.filter(division__event=event), request.POST.get("group"))
    move_team(team, group)
    messages.success(request, _("%(team)s moved to %(group)s.") % {"team": team, "group": group})


# The steps of the groups and schedule pages, one POST-only address each (issue 30, item 5).
# Each runs one at a time per event, and the same form sent twice gets the first answer
# again (``one_step_at_a_time``, issue 29 item 3).


@login_required
@require_POST
@one_step_at_a_time
@on_page("tournament:groups")
def groups_draw(request, slug):
    """Draw the groups of every division (``services.draw.draw_groups``; POST ``seed``
    optional, repeats a draw); back to the groups page."""
    return _step(request, slug, "tournament:groups", _draw)


@login_required
@require_POST
@one_step_at_a_time
@on_page("tournament:groups")
def team_move(request, slug):
    """Move team POST ``team`` to group ``group`` before the schedule
    (``services.draw.move_team``); back to the groups page."""
    return _step(request, slug, "tournament:groups", _move)


@login_required
@require_POST
@one_step_at_a_time
@on_page("tournament:groups")
def late_team(request, slug):
    """A team registered after the draw (POST ``team``) joins group ``group``
    (``services.day_changes.add_late_team``); to the schedule with its new games marked."""
    return _step(request, slug, "tournament:groups", _late_team)


@login_required
@require_safe
def groups(request, slug):
    """The groups page: the draw, moving a team, the late teams (each form posts to its step)."""
    event = event_for_organiser(request, slug)
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
        {
            "event": event,
            "divisions": [(d, late[d.pk]) for d in divisions],
            "scheduled": event.matches.exists(),
            # drawing again replaces the groups and the moves made by hand: the button asks first
            "drawn": Group.objects.filter(division__event=event).exists(),
        },
    )


def _delay(request, event):
    """A delay of POST ``court``'s remaining games by ``minutes``; the redirect to the schedule."""
    court = object_or_404(Court.objects.filter(event=event), request.POST.get("court"))
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
    return None


def _close(request, event):
    """Close POST ``court``: its unplayed games to free courts; the redirect to the schedule."""
    court = object_or_404(Court.objects.filter(event=event), request.POST.get("court"))
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
    return None


def _make(request, event):
    count = make_schedule(event)
    messages.success(request, _("Schedule made: %(count)s games.") % {"count": count})


def _clear(request, event):
    clear_schedule(event)
    messages.success(request, _("Schedule cleared."))


@login_required
@require_POST
@one_step_at_a_time
@on_page("tournament:schedule")
def schedule_make(request, slug):
    """Make the round robin of every group (``services.schedule.make_schedule``)."""
    return _step(request, slug, "tournament:schedule", _make)


@login_required
@require_POST
@one_step_at_a_time
@on_page("tournament:schedule")
def schedule_clear(request, slug):
    """Delete every game of the schedule (``services.schedule.clear_schedule``)."""
    return _step(request, slug, "tournament:schedule", _clear)


@login_required
@require_POST
@one_step_at_a_time
@on_page("tournament:schedule")
def court_delay(request, slug):
    """Shift the remaining games of POST ``court`` by ``minutes`` (negative: earlier;
    ``services.day_changes.delay_court``)."""
    return _step(request, slug, "tournament:schedule", _delay)


@login_required
@require_POST
@one_step_at_a_time
@on_page("tournament:schedule")
def court_close(request, slug):
    """Close POST ``court`` and move its unplayed games to free courts
    (``services.day_changes.close_court``)."""
    return _step(request, slug, "tournament:schedule", _close)


def _numbers_param(request, name):
    """A comma-separated list of match numbers from the query, digits only."""
    return ",".join(n for n in request.GET.get(name, "").split(",") if n.isdigit())


@login_required
@require_safe
def schedule(request, slug):
    """The schedule and results for the event's recorders and organisers; the organisers'
    forms post to their steps (``schedule_make`` … above)."""
    event = event_for_recorder(request, slug)
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
