"""Creating the placement games (順位決定戦) of one division once its groups are complete."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.services import refresh_slots
from ops import backups
from tournament.models import Match
from tournament.reports import division_standings
from tournament.services.knockout import _Placer, division_courts
from tournament.services.placement_games import plan_placement, require_complete, write_placement_games


def create_placement_games(event, division):
    """Create the placement games of ``division`` (docs/rules/stages.md, "Placement games").

    Refused (``UserError`` naming the division, and the group where it is a group's), before
    any write, when the division plays no placement games (``after_groups`` "knockout" or
    "none"), already has games after its groups, has a group still playing, has no court, or
    when its pair text is bad. For "both" the games start at the place after the knockout's
    qualifiers. The games (one per place of each pair of groups) are numbered after the
    event's last game and placed on the division's earliest free courts after the games of
    their two groups (``knockout._Placer``); their teams
    are the group places' teams once final (``refresh_slots``). The automatic backup is taken
    after the refusals, then one transaction. Returns the games created.
    """
    if division.after_groups not in ("placement", "both"):
        raise UserError(_("%(division)s plays no placement games.") % {"division": division.name})
    if Match.objects.filter(division=division).placement().exists():
        raise UserError(_("%(division)s already has its placement games.") % {"division": division.name})
    tables = division_standings(division)
    if not tables:
        raise UserError(_("%(division)s has no groups yet.") % {"division": division.name})
    require_complete(division, tables)
    first_place = division.qualifiers_per_group + 1 if division.after_groups == "both" else 1
    games = plan_placement(division, tables, first_place)
    courts = division_courts(division)
    backups.auto_backup("placement-games")
    with transaction.atomic():
        created = write_placement_games(event, division, games, _Placer(event, courts, division))
        refresh_slots(division)
    return created
