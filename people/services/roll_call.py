"""The roll call on the court tablet (issue 32 item 2; docs/people.md "Roll call"): before
開始 the referee ticks both teams' players present; an absent player and a substitute who plays
are kept on the game (``RollCall``) and shown on the desk's game page, and each player's
presence is updated as the reception desk's ticks are.

One transaction, the game's row locked first; a refusal is a ``UserError`` before any write.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from people.models import CheckinLog, PlayerPresence, RollCall
from tournament.models import Match, Player


def seating(team) -> list[Player]:
    """``team``'s players who sit (substitutes left out) in their seats: the leader in the
    middle, the others around in their order (docs/rules: 主将 sits in the middle)."""
    sitting = [p for p in team.players.all() if not p.is_substitute]
    leader = next((p for p in sitting if p.is_leader), None)
    others = [p for p in sitting if p is not leader]
    if leader is None:
        return others
    middle = len(others) // 2
    return others[:middle] + [leader] + others[middle:]


@transaction.atomic
def record(match, present_ids, substitute_ids, now=None):
    """Record ``match``'s roll call: ``present_ids`` the players (ids) ticked present among both
    teams' sitting players, ``substitute_ids`` the substitutes who play. Returns the ``RollCall``.

    Raises ``UserError`` for a game already started or over, or an id of no player of the game."""
    match = Match.objects.select_for_update(of=("self",)).select_related("team_a", "team_b", "event").get(pk=match.pk)
    if match.actual_start is not None or not match.awaits_result or not match.teams_known:
        raise UserError(
            _("Game %(number)s has started or is over: the roll call comes before the start.")
            % {"number": match.match_number}
        )
    players = {p.pk: p for p in Player.objects.filter(team__in=[match.team_a_id, match.team_b_id])}
    chosen = set(present_ids) | set(substitute_ids)
    if not chosen <= set(players):
        raise UserError(_("A player ticked is not in this game: reload the page."))
    absent = [pk for pk, p in players.items() if not p.is_substitute and pk not in present_ids]
    substitutes = [pk for pk in substitute_ids if players[pk].is_substitute]
    for pk, player in players.items():
        if player.is_substitute and pk not in substitutes:
            continue
        present = pk not in absent
        PlayerPresence.objects.update_or_create(player=player, defaults={"present": present})
    roll, _made = RollCall.objects.update_or_create(
        match=match, defaults={"absent": absent, "substitutes": substitutes, "at": now or timezone.now()}
    )
    for team in (match.team_a, match.team_b):
        CheckinLog.objects.create(event=match.event, team=team, action=CheckinLog.Action.ROLL_CALL, source="tablet")
    return roll
