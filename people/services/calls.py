"""Calling a game's teams to its court (呼び出し, issue 32 item 3; docs/people.md "Announcer"):
the call shown on every hall screen through the hall screens' announcements
(``tournament.services.announcements``) and the game marked called.

One transaction per call, the game's row locked first: the same tap sent twice (the form
carries the call's number) is one call, never two announcements.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from people.models import CheckinLog, MatchCall
from people.signals import match_called
from tournament.models import Match
from tournament.services.announcements import announce

CALL_MINUTES = 5


def call_text(match, number=1) -> str:
    """The call's words: 「第3コートに集合してください：○○子ども会A、△△子ども会B」, with
    「（2回目）」 in front from the second call on."""
    text = _("Please come to %(court)s: %(teams)s") % {
        "court": match.court,
        "teams": _(", ").join(t.name for t in (match.team_a, match.team_b)),
    }
    if number > 1:
        text = _("(call %(number)d) ") % {"number": number} + text
    return text


@transaction.atomic
def call_match(match, number=None, *, user=None, now=None, minutes=CALL_MINUTES):
    """Call ``match``'s teams to its court: its ``number``-th call (None: the next one).

    A call of a number already made returns that call and writes nothing (a double tap).
    Returns the ``MatchCall``. Raises ``UserError`` naming the game when it has no court or
    not both teams, is over, or ``number`` skips a call."""
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("court", "team_a", "team_b", "event")
        .get(pk=match.pk)
    )
    if match.court_id is None or not match.teams_known:
        raise UserError(
            _("Game %(number)s has no court or not both teams yet: it cannot be called.")
            % {"number": match.match_number}
        )
    if not match.awaits_result:
        raise UserError(_("Game %(number)s is over: it is not called.") % {"number": match.match_number})
    made = list(MatchCall.objects.filter(match=match).order_by("number"))
    if number is None:
        number = len(made) + 1
    for call in made:
        if call.number == number:
            return call
    if number != len(made) + 1:
        raise UserError(
            _("Game %(number)s has been called %(count)d times; reload the page.")
            % {"number": match.match_number, "count": len(made)}
        )
    now = now or timezone.now()
    text = call_text(match, number)
    announce(match.event, text, minutes, now=now)
    call = MatchCall.objects.create(
        match=match,
        number=number,
        called_at=now,
        called_by=user if user and user.is_authenticated else None,
        text=text,
    )
    for team in (match.team_a, match.team_b):
        CheckinLog.objects.create(
            event=match.event,
            team=team,
            action=CheckinLog.Action.CALLED,
            source="announcer",
            user=call.called_by,
        )
    match_called.send(sender=Match, match=match, call=call)
    return call
