"""A team withdrawing (棄権): its games follow the division's setting."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.engine import rules
from judging.services import record_confirmed_result, void_match, walkover_values
from tournament.models import (
    Match,
)


def withdraw_team(team, user=None):
    """Withdraw a team (棄権) following its division's setting; a withdrawn team never qualifies.

    "annul": its unplayed games are voided and all its games leave the standings.
    "walkover": its played games stand and each unplayed game becomes a confirmed
    walkover (28–0) for the opponent. Played games never change. Returns the number of
    unplayed games changed.
    """
    if team.withdrawn:
        raise UserError(_("%(team)s has already withdrawn.") % {"team": team})
    changed = 0
    with transaction.atomic():
        team.withdrawn = True
        team.save(update_fields=["withdrawn"])
        unplayed = Match.objects.filter(
            Q(team_a=team) | Q(team_b=team),
            stage=Match.Stage.GROUP,
            status__in=[Match.Status.SCHEDULED, Match.Status.SUBMITTED, Match.Status.DISPUTED],
        ).select_related("event")
        for match in unplayed:
            if team.division.withdrawal == "walkover":
                winner = rules.Side.B if match.team_a_id == team.pk else rules.Side.A
                record_confirmed_result(match, walkover_values(match, winner), is_walkover=True, user=user)
            else:
                void_match(match, user, reason=str(_("team withdrew")))
            changed += 1
    return changed
