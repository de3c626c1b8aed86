"""Reception (受付, issue 32 item 1; docs/people.md "Reception"): a team received or not, its
players present or absent, every tick and undo logged.

Each function is one transaction that first locks the team's row (``select_for_update``): two
receptionists ticking the same team at once write one after the other on the one state of the
team (``TeamCheckin``, one row per team), and a tick already made changes nothing and logs
nothing. A refusal is a ``UserError`` raised before anything is written.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from people.models import CheckinLog, PlayerPresence, TeamCheckin
from tournament.engine.names import name_key
from tournament.models import Player, Team


def _locked_team(team):
    return Team.objects.select_for_update(of=("self",)).select_related("division__event").get(pk=team.pk)


def _log(team, action, user, source, player=None):
    CheckinLog.objects.create(
        event=team.division.event,
        team=team,
        player=player,
        action=action,
        source=source,
        user=user if user is not None and user.is_authenticated else None,
    )


@transaction.atomic
def set_received(team, received=True, *, user=None, source="desk", now=None):
    """Mark ``team`` received at reception or, with ``received=False``, undo its reception.

    Returns ``(TeamCheckin, changed)``: ``changed`` is False when the team already was in that
    state (a second receptionist's tick: nothing written, nothing logged). Raises ``UserError``
    for a withdrawn team (it is not expected at the desk)."""
    team = _locked_team(team)
    if received and team.withdrawn:
        raise UserError(_("%(team)s has withdrawn: it cannot be received.") % {"team": team.name})
    checkin, _made = TeamCheckin.objects.get_or_create(team=team)
    if checkin.received == received:
        return checkin, False
    checkin.received = received
    checkin.received_at = (now or timezone.now()) if received else None
    checkin.received_by = user if received and user is not None and user.is_authenticated else None
    checkin.save()
    _log(team, CheckinLog.Action.RECEIVED if received else CheckinLog.Action.UNDONE, user, source)
    return checkin, True


@transaction.atomic
def set_present(player, present=True, *, user=None, source="desk"):
    """Mark ``player`` present or absent (substitutes too). Returns ``(PlayerPresence, changed)``."""
    _locked_team(player.team)
    presence, made = PlayerPresence.objects.get_or_create(player=player, defaults={"present": present})
    if not made and presence.present == present:
        return presence, False
    if not made:
        presence.present = present
        presence.save(update_fields=["present"])
    _log(player.team, CheckinLog.Action.PRESENT if present else CheckinLog.Action.ABSENT, user, source, player)
    return presence, True


def find_players(team, names):
    """The players of ``team`` named in ``names`` (compared after normalisation).

    Raises ``UserError`` naming the first name that is none of the team's players."""
    players = list(Player.objects.filter(team=team))
    by_key = {name_key(p.name): p for p in players}
    found = []
    for name in names:
        player = by_key.get(name_key(name))
        if player is None:
            raise UserError(
                _("%(name)s is not a player of %(team)s (players: %(players)s).")
                % {"name": name, "team": team.name, "players": "、".join(p.name for p in players) or "—"}
            )
        found.append(player)
    return found


@transaction.atomic
def check_in(team, *, absent=(), user=None, source="desk"):
    """Receive ``team`` with every player present except those named in ``absent`` (names).

    Returns the ``TeamCheckin``. Raises ``UserError`` (nothing written) for a name that is not
    one of the team's players or a withdrawn team."""
    absent_players = {p.pk for p in find_players(team, absent)}
    checkin, _changed = set_received(team, True, user=user, source=source)
    for player in Player.objects.filter(team=team):
        set_present(player, player.pk not in absent_players, user=user, source=source)
    return checkin
