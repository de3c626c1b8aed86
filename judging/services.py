"""Writing results: every submission is a new recording-sheet version, in one transaction.

In this release a submitted sheet is confirmed at once (the referee's entry stands);
the previous confirmed version is kept, unconfirmed, so a correction never loses the
values it replaced. The database allows one confirmed version per game.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from judging import rules
from judging.models import RecordingSheet
from tournament.models import Match
from tournament.services import ServiceError, advance_knockout


def _record(match, *, values, outcome, is_walkover, court=None, user=None, ip=None, device=""):
    with transaction.atomic():
        # Re-read the game inside the write transaction (IMMEDIATE on SQLite, a row lock
        # on PostgreSQL) so two submissions for one game are serialised.
        match = Match.objects.select_for_update().get(pk=match.pk)
        if not match.teams_known:
            raise ServiceError(_("Both teams of game %(number)s are not known yet.") % {"number": match.match_number})
        version = (match.sheets.aggregate(m=Max("version"))["m"] or 0) + 1
        match.sheets.filter(is_confirmed=True).update(is_confirmed=False)
        sheet = RecordingSheet.objects.create(
            match=match,
            version=version,
            cards_a=values.cards_a,
            cards_b=values.cards_b,
            referee_cards=values.referee_cards,
            joker_holder=values.joker_holder.value if values.joker_holder else "",
            rps_winner=values.rps_winner.value if values.rps_winner else "",
            rps_used=values.rps_used,
            winner_side=outcome.winner.value,
            decided_by=outcome.decided_by.value,
            is_walkover=is_walkover,
            court=court,
            submitted_by=user if user is not None and user.is_authenticated else None,
            ip_address=ip,
            device=(device or "")[:200],
            is_confirmed=True,
        )
        match.status = Match.Status.WALKOVER if is_walkover else Match.Status.DONE
        match.winner_id = match.team_a_id if outcome.winner is rules.Side.A else match.team_b_id
        match.save(update_fields=["status", "winner"])
        if not match.is_group_game:
            advance_knockout(match)
    return sheet


def submit_result(match, values: rules.SheetValues, **who):
    """Record a game's result from the recording sheet's values; the winner is derived.

    ``who`` carries ``court`` (the court link used), ``user``, ``ip`` and ``device``.
    Raises ``ServiceError`` when the sheet breaks a rule (see ``rules.validate_sheet``)
    or the game cannot take a result; nothing is saved then. Returns the new sheet.
    """
    problems = rules.validate_sheet(values, match.event.card_total)
    if problems:
        raise ServiceError(_("The recording sheet is not valid: %(problems)s") % {"problems": problems})
    return _record(match, values=values, outcome=rules.decide_winner(values, match.event.card_total),
                   is_walkover=False, **who)


def submit_walkover(match, absent_side: rules.Side, **who):
    """Record a walkover (不戦勝): the team present wins 28–0 (rules page default)."""
    winner = rules.Side(absent_side).other
    cards_a, cards_b = rules.walkover_cards(winner, match.event.card_total // 2)
    values = rules.SheetValues(cards_a=cards_a, cards_b=cards_b, referee_cards=0)
    outcome = rules.Outcome(winner, rules.DecidedBy.WALKOVER)
    return _record(match, values=values, outcome=outcome, is_walkover=True, **who)
