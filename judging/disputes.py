"""Disputed cards settled with the touch-judgment helper (判定表): the log of a game's disputes
and its じゃんけん count (docs/rules/hitachi-karuta.md, "Touch judgment matrix")."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy

from common.errors import UserError
from judging.engine import rules
from judging.models import Dispute, HistoryEntry
from judging.services import lock_match

TOUCH_PROBLEMS = {
    rules.TouchProblem.STATES_MISSING: gettext_lazy(
        "Tap how each team touched the card, or whose hand was underneath."
    ),
    rules.TouchProblem.RPS_WINNER_MISSING: gettext_lazy("Enter who won the rock-paper-scissors."),
    rules.TouchProblem.FIRST_TEAM_MISSING: gettext_lazy("Enter which team touched the correct card first."),
    rules.TouchProblem.REFEREE_DECISION_MISSING: gettext_lazy(
        "This game already had three rock-paper-scissors decisions, the most the rules allow: no more rock-paper-scissors. "
        "The referee raises a hand; the referee leader decides who takes the card. Enter that decision."
    ),
}


def log_dispute(
    match,
    state_a="",
    state_b="",
    *,
    underneath="",
    rps_winner="",
    first_team="",
    referee_choice="",
    court=None,
    user=None,
    submission_key="",
):
    """Log a disputed card settled by the whole touch rule; returns the dispute.

    In: the side whose hand was underneath ("" when none: a simultaneous touch), each
    team's touch state (needed only then), and the team the referee names when the rule
    asks for one: ``rps_winner`` (じゃんけん), ``first_team`` (first to touch the correct
    card) or ``referee_choice`` (three じゃんけん already used: the referee leader's
    decision, recorded as the referee's). The steps are ``rules.rule_touch``
    (``docs/rules/hitachi-karuta.md``, "Touch judgment matrix" and "Play": at most three
    じゃんけん). Out: the ``Dispute``, with ``rps_count`` = the game's じゃんけん so far.
    Errors: ``UserError`` naming what is missing; nothing is written then.
    """
    with transaction.atomic():
        match = lock_match(match)
        if submission_key:
            existing = match.disputes.filter(submission_key=submission_key).first()
            if existing is not None:  # the same form posted again: already logged
                existing.rps_count = rps_logged(match)
                return existing
        count = rps_logged(match)
        try:
            ruling = rules.rule_touch(underneath or None, state_a or None, state_b or None, count)
            named = {
                rules.Settlement.RPS: rps_winner,
                rules.Settlement.FIRST_TO_TOUCH: first_team,
                rules.Settlement.REFEREE: referee_choice,
            }.get(ruling.settlement)
            taker = rules.card_taker(ruling, named if named in ("A", "B") else None)
        except ValueError as e:
            problem = e.args[0] if e.args else None
            if problem in TOUCH_PROBLEMS:
                raise UserError(str(TOUCH_PROBLEMS[problem])) from e
            raise UserError(str(TOUCH_PROBLEMS[rules.TouchProblem.STATES_MISSING])) from e
        dispute = Dispute.objects.create(
            match=match,
            underneath=underneath or "",
            state_a="" if underneath else state_a,
            state_b="" if underneath else state_b,
            verdict=ruling.verdict.value,
            settlement=ruling.settlement.value,
            taken_by=taker.value,
            rps_winner=taker.value if ruling.settlement is rules.Settlement.RPS else "",
            court=court,
            user=user if user is not None and user.is_authenticated else None,
            submission_key=submission_key,
        )
        HistoryEntry.objects.create(
            match=match,
            court=court,
            user=dispute.user,
            action=HistoryEntry.Action.DISPUTE,
            note=_dispute_note(dispute, ruling),
        )
    dispute.rps_count = count + (1 if ruling.settlement is rules.Settlement.RPS else 0)
    return dispute


def _dispute_note(dispute, ruling):
    """The history line of a dispute, in codes: how it was settled and who took the card."""
    if ruling.settlement is rules.Settlement.UNDERNEATH:
        return f"underneath {dispute.underneath} → {dispute.taken_by}"
    head = f"{dispute.state_a} / {dispute.state_b} → {ruling.verdict.value}"
    if ruling.settlement is rules.Settlement.TABLE:
        return head
    if ruling.settlement is rules.Settlement.REFEREE:
        return f"{head}, limit reached: referee {dispute.taken_by}"
    return f"{head} {dispute.taken_by}"


def rps_logged(match):
    """じゃんけん played in this game on disputed touches (the referee leader's decisions are not)."""
    return match.disputes.filter(verdict=rules.Verdict.RPS).exclude(settlement=rules.Settlement.REFEREE).count()
