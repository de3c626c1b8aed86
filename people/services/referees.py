"""Referees (審判, issue 32 item 4; docs/people.md "Referees"): the list, the generated
assignment (``people.engine.referees``) and the changes by hand.

One transaction each; a refusal is a ``UserError`` raised before anything is written: a
referee given two games at one time is refused naming both games, a game of the referee's own
club is refused naming the club.
"""

import datetime

from django.db import transaction
from django.utils.translation import gettext as _

from common.dates import format_time
from common.errors import UserError
from people.engine import referees as engine
from people.models import DaySettings, Referee, RefereeAssignment
from tournament.engine.names import name_key
from tournament.models import Match


def _games(event):
    """The event's games with a court and a time, not over, in time order."""
    return list(
        event.matches.filter(court__isnull=False, start_at__isnull=False)
        .not_void()
        .select_related("court", "team_a", "team_b")
        .order_by("start_at", "court__order", "match_number")
    )


def _clubs(match):
    return frozenset(name_key(t.affiliation) for t in (match.team_a, match.team_b) if t and t.affiliation)


def _game_text(match):
    return _("game %(number)s (%(time)s, %(court)s)") % {
        "number": match.match_number,
        "time": format_time(match.start_at),
        "court": match.court or "—",
    }


@transaction.atomic
def assign(event, rest=None):
    """Assign referees to every game of ``event`` with a court and a time: the games given by
    hand are kept, the others generated afresh with ``rest`` (None: the event's setting).
    Returns the ``engine.Plan``."""
    settings = DaySettings.objects.get_or_create(event=event)[0]
    rest = settings.referee_rest if rest is None else rest
    if not 0 <= rest <= 20:
        raise UserError(_("Rest after games in a row: between 0 and 20."))
    matches = _games(event)
    blocks = engine.blocks_of([int(m.start_at.timestamp() // 60) for m in matches])
    games = [
        engine.Game(m.pk, blocks[int(m.start_at.timestamp() // 60)], m.court.order * 1000 + m.court_id, _clubs(m))
        for m in matches
    ]
    refs = [engine.Referee(r.pk, name_key(r.club)) for r in Referee.objects.filter(event=event)]
    kept = RefereeAssignment.objects.filter(match__event=event, by_hand=True)
    fixed = dict(kept.values_list("match_id", "referee_id"))
    result = engine.plan(games, refs, rest, fixed)
    RefereeAssignment.objects.filter(match__event=event, by_hand=False).delete()
    RefereeAssignment.objects.bulk_create(
        [RefereeAssignment(match_id=g, referee_id=r) for g, r in result.assigned.items() if g not in fixed]
    )
    return result


def _overlaps(a, b, minutes):
    length = datetime.timedelta(minutes=minutes)
    return a.start_at < b.start_at + length and b.start_at < a.start_at + length


@transaction.atomic
def set_referee(match, referee):
    """Give ``match`` the ``referee`` by hand (None: no referee). Returns the assignment or None.

    Raises ``UserError`` when the referee judges another game at the same time (naming both
    games) or a team of the game is of the referee's club."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("court", "team_a", "team_b", "event")
        .get(pk=match.pk)
    )
    if referee is None:
        RefereeAssignment.objects.filter(match=match).delete()
        return None
    if referee.event_id != match.event_id:
        raise UserError(_("%(name)s is not a referee of this event.") % {"name": referee.name})
    if referee.club and name_key(referee.club) in _clubs(match):
        raise UserError(
            _("%(name)s is of %(club)s, a club playing %(game)s: a referee never judges their own club.")
            % {"name": referee.name, "club": referee.club, "game": _game_text(match)}
        )
    if match.start_at is not None:
        others = (
            RefereeAssignment.objects.filter(referee=referee, match__start_at__isnull=False)
            .exclude(match=match)
            .select_related("match__court")
        )
        for other in others:
            if _overlaps(other.match, match, match.event.game_minutes):
                raise UserError(
                    _("%(name)s already judges %(other)s at the same time as %(game)s.")
                    % {"name": referee.name, "other": _game_text(other.match), "game": _game_text(match)}
                )
    assignment, _made = RefereeAssignment.objects.update_or_create(
        match=match, defaults={"referee": referee, "by_hand": True}
    )
    return assignment


@transaction.atomic
def delete_referee(referee):
    """Remove ``referee`` from the list, with their games (they become unassigned)."""
    Referee.objects.filter(pk=referee.pk).delete()
