"""The group draw: courts per division, groups dealt by seed with clubs kept apart, moving a team."""

from __future__ import annotations

import random

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.engine import draw, names
from tournament.models import (
    Group,
    Match,
    Team,
    group_letter,
)


def division_courts(event):
    """Courts for each division: its assigned courts, or a proportional share of the rest."""
    divisions = list(event.divisions.prefetch_related("courts"))
    team_counts = {d.pk: d.teams.filter(withdrawn=False).count() for d in divisions}
    assigned = {d.pk: list(d.courts.all()) for d in divisions}
    used = {c.pk for courts in assigned.values() for c in courts}
    free = [c for c in event.courts.all() if c.pk not in used]
    without = {d.pk: team_counts[d.pk] for d in divisions if not assigned[d.pk] and team_counts[d.pk]}
    try:
        shares = draw.share_courts([c.pk for c in free], without)
    except draw.NotEnoughCourts as e:
        raise UserError(
            _("Not enough courts: %(divisions)s divisions need a court each, %(courts)s are free.")
            % {"divisions": e.divisions, "courts": e.courts}
        ) from None
    by_pk = {c.pk: c for c in free}
    assigned.update({d: [by_pk[c] for c in courts] for d, courts in shares.items()})
    return divisions, assigned


def draw_groups(event, *, seed=None, division=None):
    """Draw the groups of every division (or one), one group per court of the division.

    Uses the courts assigned to each division; where none are, shares the event's free
    courts among divisions in proportion to their teams. Groups have at least three
    teams where the entry allows. Refused once a division has a schedule.
    Returns a dict division -> list of groups.
    """
    rng = random.Random(seed)
    divisions, courts = division_courts(event)
    if division is not None:
        divisions = [d for d in divisions if d.pk == division.pk]
    result = {}
    with transaction.atomic():
        for d in divisions:
            teams = list(d.teams.filter(withdrawn=False))
            if not teams:
                continue
            if Match.objects.filter(division=d).exists():
                raise UserError(
                    _("%(division)s already has a schedule; clear it before drawing again.") % {"division": d.name}
                )
            if len(teams) < 2:
                raise UserError(_("%(division)s needs at least two teams.") % {"division": d.name})
            d_courts = courts.get(d.pk) or []
            if not d_courts:
                raise UserError(_("%(division)s has no court.") % {"division": d.name})
            group_count = max(1, min(len(d_courts), len(teams) // 3))
            d.teams.update(group=None, group_seat=None)
            d.groups.all().delete()
            groups = []
            entries = [
                draw.DrawEntry(t.pk, t.seed, t.entry_number, names.name_key(t.affiliation) if t.affiliation else None)
                for t in teams
            ]
            by_pk = {t.pk: t for t in teams}
            for i, seats in enumerate(draw.spread_into_groups(entries, group_count, rng)):
                members = [by_pk[pk] for pk in seats]
                group = Group.objects.create(division=d, name=group_letter(i), order=i, court=d_courts[i])
                for seat, team in enumerate(members, start=1):
                    team.group, team.group_seat = group, seat
                Team.objects.bulk_update(members, ["group", "group_seat"])
                groups.append(group)
            result[d] = groups
    if not result:
        raise UserError(_("No teams to draw."))
    return result


def move_team(team, group):
    """Move a team into another group of its division (before the schedule exists)."""
    if group.division_id != team.division_id:
        raise UserError(_("A team can only move to a group of its own division."))
    if Match.objects.filter(division_id=team.division_id).exists():
        raise UserError(_("The schedule exists; clear it before moving teams."))
    with transaction.atomic():
        seat = (group.teams.aggregate(m=Max("group_seat"))["m"] or 0) + 1
        team.group, team.group_seat = group, seat
        team.save(update_fields=["group", "group_seat"])
