"""The round-robin schedule of the drawn groups, on the day's clock."""

from __future__ import annotations

import dataclasses
import datetime
from collections import defaultdict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from ops import backups
from tournament.clock import event_clock, event_midnight
from tournament.engine import scheduling
from tournament.models import (
    Group,
    Match,
    Team,
)


def make_schedule(event):
    """Create the round-robin games of every drawn group, in each division's layout.

    Each pair of a group meets once (Berger order, a bye per round for an odd group), or,
    when the division sets its games per team, every team plays exactly that many games
    (no pair twice, sides balanced: ``docs/rules/scheduling-standings-seeding.md``,
    section 1.5); the division's layout places them: one group per court (the official format),
    groups sharing the division's courts (fewest slots), or several groups per court;
    with the rest rule no team plays twice in a row. Start times come from the clock
    (start, game length, changeover, lunch break, courts starting late); match numbers
    follow time, then court. Refused (``UserError``, nothing written, no backup taken)
    when games already exist, a group lacks a court or teams, or a group cannot play the
    division's games per team (:func:`games_per_team_problem`). Returns the number of
    games created.
    """
    if event.matches.exists():
        raise UserError(_("The schedule already exists."))
    groups = list(Group.objects.filter(division__event=event).select_related("court", "division"))
    if not groups:
        raise UserError(_("Draw the groups first."))
    seats = defaultdict(list)
    for team in Team.objects.filter(group__in=groups, withdrawn=False).order_by("group_seat", "pk"):
        seats[team.group_id].append(team.pk)
    planned = []
    _check_groups(groups, seats)
    by_division = defaultdict(list)
    for group in groups:
        by_division[group.division].append(group)
    report = {}
    next_free = defaultdict(int)  # court id -> first slot not taken by an earlier division
    for division, division_groups in by_division.items():
        # The groups' own courts, in group order (one group per court pins group i to court i).
        courts_in_order = list(dict.fromkeys(g.court_id for g in division_groups))
        if division.layout == "one_group_per_court":
            pinned = [g.court_id for g in division_groups]
            if len(set(pinned)) == len(pinned):
                courts_in_order = pinned
        elif division.layout == "shared":
            extra = [c.pk for c in division.courts.all() if c.pk not in courts_in_order]
            courts_in_order += extra
        plan = scheduling.plan(
            [seats[g.pk] for g in division_groups],
            courts_in_order,
            division.layout,
            rest=division.rest_rule,
            games_per_team=division.games_per_team,
        )
        report[division] = plan
        # Divisions sharing a court play one after the other: shift this division's whole
        # plan (one offset, so its teams never meet themselves across courts).
        offset = max((next_free[c] for c in courts_in_order), default=0)
        shifted = [dataclasses.replace(p, slot=p.slot + offset) for p in plan.matches]
        for p in shifted:
            next_free[p.court] = max(next_free[p.court], p.slot + 1)
        planned += [(division_groups[p.group], p) for p in shifted]
    courts = {c.pk: c for c in event.courts.all()}
    planned.sort(key=lambda gp: (gp[1].slot, courts[gp[1].court].order, gp[1].court))
    clock = event_clock(event)
    day = event_midnight(event)
    matches = [
        Match(
            event=event,
            division=group.division,
            group=group,
            stage=Match.Stage.GROUP,
            round=p.round,
            match_number=i,
            court_id=p.court,
            slot=p.slot,
            start_at=day + datetime.timedelta(minutes=clock.start_of(p.slot, p.court)),
            team_a_id=p.team_a,
            team_b_id=p.team_b,
        )
        for i, (group, p) in enumerate(planned, start=1)
    ]
    backups.auto_backup("make-schedule")  # only now: a refused step leaves the backups alone
    with transaction.atomic():
        Match.objects.bulk_create(matches)
    return len(matches)


def _check_groups(groups, seats):
    """Refuse (``UserError``) a group without a court, with fewer than two teams, or whose
    teams cannot each play the division's games per team (:func:`games_per_team_problem`)."""
    for group in groups:
        if group.court is None:
            raise UserError(_("%(group)s of %(division)s has no court.") % {"group": group, "division": group.division})
        if len(seats[group.pk]) < 2:
            raise UserError(
                _("%(group)s of %(division)s has fewer than two teams.") % {"group": group, "division": group.division}
            )
    for group in groups:
        refusal = games_per_team_problem(group.division, group, len(seats[group.pk]))
        if refusal:
            raise UserError(refusal)


def clear_schedule(event):
    """Delete every game of the event, refused once any result exists (``UserError``).

    The courts' delays of the day (``Court.delayed_until``) go with the games they moved: a
    schedule made again starts every court at the event's start
    (``docs/rules/scheduling-standings-seeding.md``, section 5)."""
    if event.matches.exclude(status=Match.Status.SCHEDULED).exists():
        raise UserError(_("Results have been entered; the schedule can no longer be cleared."))
    with transaction.atomic():
        event.matches.all().delete()
        event.courts.exclude(delayed_until=None).update(delayed_until=None)


def games_per_team_problem(division, group, teams, games=None):
    """Why ``teams`` teams of ``group`` cannot each play the division's games per team.

    In: the division, the group (or None for the division as a whole), the number of
    teams, and optionally the games per team to test (default: the division's own; None
    there means a full round robin, always possible). Out: the refusal in the active
    language, naming the division and the group ("小学生高学年の部・Aリーグ: 7チームで
    1チーム3試合は組めません（試合数の合計が奇数）"), or None when it can be done or the
    group has fewer than two teams (refused elsewhere). The rule is
    ``docs/rules/scheduling-standings-seeding.md``, section 1.5: 1 <= games < teams,
    teams x games even.
    """
    games = division.games_per_team if games is None else games
    if games is None or teams < 2:
        return None
    try:
        scheduling.check_partial(teams, games)
    except scheduling.PartialRoundRobinError as error:
        reasons = {
            "too_few": _("at least one game is needed"),
            "too_many": ngettext("a team has only %(count)d opponent", "a team has only %(count)d opponents", teams - 1)
            % {"count": teams - 1},
            "odd_total": _("the total of games is odd"),
        }
        where = _("%(division)s, %(group)s") % {"division": division, "group": group} if group else str(division)
        return _("%(where)s: %(teams)d teams cannot each play %(games)d games (%(reason)s).") % {
            "where": where,
            "teams": teams,
            "games": games,
            "reason": reasons[error.reason],
        }
    return None


def past_the_day(event) -> str | None:
    """The warning when games of ``event`` start after its day ends (24:00 of its date, JST:
    the clock counts minutes from its midnight, ``tournament.clock``; no later end of day is
    configured), or None. Names how many, the last game (number, court, start and the day) and
    what to change: more courts, shorter games or changeovers, then the schedule made again.
    The schedule is never silently put into the next day (acceptance findings of issue 20, item 9)."""
    day_end = event_midnight(event) + datetime.timedelta(days=1)
    late = event.matches.filter(start_at__gte=day_end)
    count = late.count()
    if not count:
        return None
    last = late.select_related("court").order_by("-start_at", "-match_number").first()
    start = timezone.localtime(last.start_at)
    return ngettext(
        "%(count)s game starts after the tournament's day has ended (24:00): the last, game %(number)s on "
        "%(court)s, starts at %(time)s on %(day)s. Add courts or shorten the games or the changeovers, "
        "then clear the schedule and make it again.",
        "%(count)s games start after the tournament's day has ended (24:00): the last, game %(number)s on "
        "%(court)s, starts at %(time)s on %(day)s. Add courts or shorten the games or the changeovers, "
        "then clear the schedule and make it again.",
        count,
    ) % {
        "count": count,
        "number": last.match_number,
        "court": last.court,
        "time": f"{start:%H:%M}",
        "day": start.date().isoformat(),
    }
