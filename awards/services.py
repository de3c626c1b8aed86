"""Writes of the awards desk: prizes added by hand and the print log of certificates.

Each function is one transaction; a refusal is a ``UserError`` raised before any write
(docs/architecture.md, "Errors"). Rules: ``docs/rules/awards.md``.
"""

from __future__ import annotations

from typing import NamedTuple

from django.db import transaction
from django.utils.translation import gettext as _

from awards.models import HandPrize, PrintLog
from common.errors import UserError

PRIZE_NAME_MAX = 20


@transaction.atomic
def add_hand_prize(event, name, team, player=None):
    """A prize added by hand (敢闘賞, 特別賞 …) to ``team`` of ``event``, or to ``player`` of it.

    In: the prize's name (1–20 characters once trimmed), a Team, optionally one of its Players.
    Out: the ``HandPrize``. Raises ``UserError`` (nothing written) for an empty or too long
    name, a team of another event, or a player of another team.
    """
    name = (name or "").strip()
    if not name:
        raise UserError(_("Prize: type the prize's name (e.g. 「敢闘賞」)."))
    if len(name) > PRIZE_NAME_MAX:
        raise UserError(_("Prize: at most %(n)s characters.") % {"n": PRIZE_NAME_MAX})
    if team.division.event_id != event.pk:
        raise UserError(_("Team: not a team of this tournament."))
    if player is not None and player.team_id != team.pk:
        raise UserError(_("Player: %(player)s is not a member of %(team)s.") % {"player": player, "team": team})
    return HandPrize.objects.create(event=event, division=team.division, name=name, team=team, player=player)


@transaction.atomic
def remove_hand_prize(event, prize_id):
    """Remove the prize added by hand ``prize_id`` of ``event``; its printed certificates stay
    in the print log (listed as no longer given). Raises ``UserError`` when there is none."""
    deleted, _rows = HandPrize.objects.filter(event=event, pk=prize_id).delete()
    if not deleted:
        raise UserError(_("That prize was already removed."))


class Printed(NamedTuple):
    """One certificate as printed: its key, its text's fingerprint, a one-line summary and what
    the paper says (recipient, team, place), kept to say later which paper to take back."""

    key: str
    fingerprint: str
    summary: str
    recipient: str = ""
    team: str = ""
    place: str = ""


@transaction.atomic
def mark_collected(event, logs, user=None):
    """Record that the papers of ``logs`` (``PrintLog`` lines of ``event``, from
    ``awards.reports.orphaned_prints``) were collected or discarded: one print-log line each,
    with the fingerprint ``PrintLog.COLLECTED`` and what the paper said, so the desk's list of
    papers no longer given empties and the key counts as not printed (docs/rules/awards.md,
    "The print log"). Returns how many. Raises ``UserError`` (nothing written) when ``logs``
    is empty."""
    if not logs:
        raise UserError(_("No printed paper to mark as collected or discarded (the list changed)."))
    user = user if user is not None and user.is_authenticated else None
    PrintLog.objects.bulk_create(
        [
            PrintLog(
                event=event,
                key=log.key,
                fingerprint=PrintLog.COLLECTED,
                summary=log.summary,
                recipient=log.recipient,
                team=log.team,
                place=log.place,
                printed_by=user,
            )
            for log in logs
        ]
    )
    return len(logs)


def record_prints(event, printed, user=None):
    """Write one ``PrintLog`` line per certificate printed: ``printed`` is ``[Printed]`` (or
    tuples of its fields: key, fingerprint, summary, then optionally recipient, team, place).
    Call it inside the transaction that answers the file (the view and the command do), so the
    log and the paper agree. Returns how many lines were written (docs/rules/awards.md,
    "The print log")."""
    user = user if user is not None and user.is_authenticated else None
    rows = [Printed(*row) for row in printed]
    PrintLog.objects.bulk_create(
        [
            PrintLog(
                event=event,
                key=row.key,
                fingerprint=row.fingerprint,
                summary=row.summary[:200],
                recipient=row.recipient[:200],
                team=row.team[:200],
                place=row.place[:100],
                printed_by=user,
            )
            for row in rows
        ]
    )
    return len(rows)
