"""Lots and play-offs that settle teams tied on every criterion, in a group or across groups."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.services import refresh_slots
from tournament.models import (
    LotRecord,
    RunnerUpLot,
    TieBreak,
)
from tournament.reports.standings import division_standings


def _record_lot(model, scope, ordered_teams, method, user, division):
    """Replace the lot records (``model``: a ``LotRecord``) of ``ordered_teams`` within
    ``scope`` (its field → value) by their new positions, best first; the slots of ``division``
    after the groups follow at once (docs/rules/stages.md, "Slots")."""
    if len(ordered_teams) < 2 or len({t.pk for t in ordered_teams}) != len(ordered_teams):
        raise UserError(_("Order at least two different tied teams."))
    if method not in dict(LotRecord.METHOD_CHOICES):
        raise UserError(_("Say how the order was decided: lot or play-off."))
    with transaction.atomic():
        model.objects.filter(team__in=ordered_teams, **scope).delete()
        model.objects.bulk_create(
            model(team=t, position=i, method=method, recorded_by=user, **scope)
            for i, t in enumerate(ordered_teams, start=1)
        )
        refresh_slots(division, user=user)


def record_tie_break(group, ordered_teams, method, user=None):
    """Record a lot or play-off: ``ordered_teams`` (Team list) best first, among tied teams.

    Replaces any earlier lot of these teams. Raises ``UserError`` when a team is not
    in the group, fewer than two teams are given, or the group still has games without a
    confirmed result: until then the standings are provisional and a game may still
    break the tie (``docs/rules/standings-display.md``, "Provisional standings").
    """
    members = set(group.teams.values_list("pk", flat=True))
    if any(t.pk not in members for t in ordered_teams):
        raise UserError(_("Every team must belong to %(group)s.") % {"group": group})
    _check_group_complete(group)
    _record_lot(TieBreak, {"group": group}, ordered_teams, method, user, group.division)


def _check_group_complete(group):
    """``UserError`` naming the division and group when the group is not complete."""
    table = next(t for t in division_standings(group.division) if t.group.pk == group.pk)
    if not table.complete:
        left = sum(table.games_left.values()) // 2
        raise UserError(
            _(
                "%(division)s・%(group)s still has %(count)s games without a confirmed result: "
                "record a lot or play-off once every game of the group has one."
            )
            % {"division": group.division, "group": group, "count": left}
        )


def record_runner_up_lot(division, ordered_teams, method, user=None):
    """Record a lot or play-off between best runners-up of different groups tied on every
    criterion: ``ordered_teams`` (Team list) best first. Replaces any earlier lot of these
    teams. Raises ``UserError`` when fewer than two different teams are given or a team
    is not of ``division``."""
    if any(t.division_id != division.pk for t in ordered_teams):
        raise UserError(_("Every team must belong to %(division)s.") % {"division": division})
    _record_lot(RunnerUpLot, {"division": division}, ordered_teams, method, user, division)
