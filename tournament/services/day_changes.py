"""Changes on the day: a court delayed or closed, a team arriving after the draw.

No game that is under way or has a result ever moves."""

from __future__ import annotations

import datetime
from collections import defaultdict

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from ops import backups
from tournament.clock import event_clock, event_midnight
from tournament.models import (
    Division,
    Match,
)

OPEN_STATUSES = (Match.Status.SCHEDULED, Match.Status.SUBMITTED, Match.Status.DISPUTED)


def delay_court(court, minutes):
    """Shift the start of a court's games that have not started by ``minutes`` (a delay).

    Played and started games never move. Returns the number of games moved.
    """
    if not isinstance(minutes, int) or minutes == 0 or abs(minutes) > 600:
        raise UserError(_("Give a delay in minutes (for example 15, or -10 to move back)."))
    now = timezone.now()
    with transaction.atomic():
        matches = list(
            Match.objects.select_for_update().filter(
                court=court, status=Match.Status.SCHEDULED, actual_start__isnull=True, start_at__isnull=False
            )
        )
        for match in matches:
            match.start_at += datetime.timedelta(minutes=minutes)
            match.changed_at = now
        Match.objects.bulk_update(matches, ["start_at", "changed_at"])
    return len(matches)


def _busy(matches):
    """The (court id, slot) and (team id, slot) pairs that ``games`` (Match list) take."""
    busy_court = {(g.court_id, g.slot) for g in matches if g.court_id is not None and g.slot is not None}
    busy_team = {(t, g.slot) for g in matches if g.slot is not None for t in (g.team_a_id, g.team_b_id) if t}
    return busy_court, busy_team


def _earliest_free(courts, first, teams, busy_court, busy_team):
    """The earliest ``(court, slot)`` from slot ``first`` on where one of ``courts`` (in order
    of preference) is free and none of ``teams`` (ids; None ignored) plays; the pair is
    then marked busy in ``busy_court`` ({(court id, slot)}) and ``busy_team`` ({(team id, slot)})."""
    teams = [t for t in teams if t]
    slot = first
    while True:
        court = next((c for c in courts if (c.pk, slot) not in busy_court), None)
        if court is not None and all((t, slot) not in busy_team for t in teams):
            busy_court.add((court.pk, slot))
            busy_team.update((t, slot) for t in teams)
            return court, slot
        slot += 1


def add_late_team(team, group):
    """A late entry: put ``team`` (registered after the draw) into ``group`` and, when the
    group's games are already scheduled, add its games against every team of the group.

    Each new game goes to the earliest slot after the games already under way (started or
    with a result) where neither team plays and a court is free: the group's court first,
    then the division's courts, then any open court. Match numbers continue after the
    highest; no existing game moves. Refused (``UserError``) for a team of another
    division, a team already in a group, a withdrawn team, once the division's knockout
    is seeded, or when the division sets its games per team and the group's games exist
    (``docs/rules/scheduling-standings-seeding.md``, section 1.5). Returns the new games (to print their recording sheets).
    """
    if group.division_id != team.division_id:
        raise UserError(_("A team can only join a group of its own division."))
    if team.group_id is not None:
        raise UserError(_("%(team)s is already in %(group)s.") % {"team": team, "group": team.group})
    if team.withdrawn:
        raise UserError(_("%(team)s has withdrawn.") % {"team": team})
    event = group.division.event
    if Match.objects.filter(division_id=team.division_id).exclude(stage=Match.Stage.GROUP).exists():
        raise _knockout_seeded(group.division)
    if group.division.games_per_team and Match.objects.filter(group=group).exists():
        raise UserError(
            _(
                "%(division)s: each team plays %(games)s games, so a late entry cannot join %(group)s once its "
                "games are scheduled (the others would play one game more). Clear the schedule and make it again."
            )
            % {"division": group.division, "games": group.division.games_per_team, "group": group}
        )
    backups.auto_backup("late-entry")
    with transaction.atomic():
        division_matches = Match.objects.select_for_update().filter(division_id=team.division_id)
        if division_matches.exclude(stage=Match.Stage.GROUP).exists():  # seeded meanwhile
            raise _knockout_seeded(group.division)
        has_schedule = division_matches.filter(group=group).exists()
        seat = (group.teams.aggregate(m=Max("group_seat"))["m"] or 0) + 1
        team.group, team.group_seat = group, seat
        team.save(update_fields=["group", "group_seat"])
        if not has_schedule:
            return []
        matches = list(Match.objects.filter(event=event))
        busy_court, busy_team = _busy(matches)
        under_way = [
            g.slot
            for g in matches
            if g.slot is not None and (g.actual_start is not None or g.status not in OPEN_STATUSES)
        ]
        first = max(under_way) + 1 if under_way else 0
        open_courts = list(event.courts.filter(closed=False).order_by("order", "pk"))
        ids = set(group.division.courts.values_list("pk", flat=True))
        division_courts = [c for c in open_courts if c.pk in ids]
        preferred = ([group.court] if group.court and not group.court.closed else []) + division_courts + open_courts
        preferred = list(dict.fromkeys(preferred))
        if not preferred:
            raise UserError(_("No court is open."))
        opponents = [t for t in group.teams.exclude(pk=team.pk).order_by("group_seat") if not t.withdrawn]
        clock = event_clock(event)
        day = event_midnight(event)
        number = max((g.match_number for g in matches), default=0)
        last_round = max((g.round for g in matches if g.group_id == group.pk), default=0)
        now = timezone.now()
        created = []
        for i, opponent in enumerate(opponents, start=1):
            court, slot = _earliest_free(preferred, first, (team.pk, opponent.pk), busy_court, busy_team)
            created.append(
                Match(
                    event=event,
                    division=group.division,
                    group=group,
                    stage=Match.Stage.GROUP,
                    round=last_round + i,
                    match_number=number + i,
                    court=court,
                    slot=slot,
                    start_at=day + datetime.timedelta(minutes=clock.start_of(slot, court.pk)),
                    team_a=opponent,
                    team_b=team,
                    changed_at=now,
                )
            )
        Match.objects.bulk_create(created)
    return created


def _knockout_seeded(division):
    return UserError(
        _("The knockout of %(division)s is already seeded: a late entry can no longer join a group.")
        % {"division": division}
    )


def close_court(court):
    """Close a court mid-day: its unplayed games move to the earliest free slots of other courts.

    A game moves to a court of its division (or any open court of the event) at the
    earliest slot where that court is free and neither team plays; played games never
    move; match numbers stay. Returns the list of moved games (to reprint their sheets).
    """
    event = court.event
    clock = event_clock(event)
    day = event_midnight(event)
    now = timezone.now()
    with transaction.atomic():
        court.closed = True
        court.save(update_fields=["closed"])
        to_move = list(
            Match.objects.select_for_update()
            .filter(court=court, status__in=OPEN_STATUSES, actual_start__isnull=True)
            .select_related("division")
            .order_by("slot", "match_number")
        )
        matches = list(Match.objects.filter(event=event).exclude(pk__in=[m.pk for m in to_move]))
        busy_court, busy_team = _busy(matches)
        open_courts = list(event.courts.filter(closed=False).order_by("order", "pk"))
        if not open_courts:
            raise UserError(_("No other court is open."))
        moved = []
        division_courts = defaultdict(set)
        for division_id, court_id in Division.courts.through.objects.filter(division__event=event).values_list(
            "division_id", "court_id"
        ):
            division_courts[division_id].add(court_id)
        for match in to_move:
            preferred = [c for c in open_courts if c.pk in division_courts[match.division_id]] or open_courts
            court_free, slot = _earliest_free(
                preferred, max(match.slot or 0, 0), (match.team_a_id, match.team_b_id), busy_court, busy_team
            )
            match.court, match.slot = court_free, slot
            match.start_at = day + datetime.timedelta(minutes=clock.start_of(slot, court_free.pk))
            match.changed_at = now
            moved.append(match)
        # Free the old (court, slot) pairs first: the unique index allows one game per pair.
        Match.objects.filter(pk__in=[m.pk for m in moved]).update(slot=None)
        Match.objects.bulk_update(moved, ["court", "slot", "start_at", "changed_at"])
    return moved
