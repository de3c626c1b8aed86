"""The reader's services (issue 21, items 2 and 4): start a reading for a court or the hall,
record its log lines as the reading device sends them, and the courts' reader links.

Each function is one transaction and refuses with ``UserError`` before any write. The order
and the steps come from the pure engine (``reader.engine.sequence``, docs/rules/reader.md);
which cards cannot be read (no text, no recording) is ``reader.voices.unreadable_cards``, which
the views pass in.
"""

import datetime
import secrets

from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from reader.engine import sequence
from reader.models import ReaderLink, ReadingLogEntry, ReadingSession
from tournament.models import new_court_token

# A log line's time may be this far from the server's clock (a tablet's clock is not exact,
# and lines queued offline arrive late): beyond it the line is refused, not stored wrong.
CLOCK_SLACK = datetime.timedelta(hours=12)
MAX_SEED = 2**31 - 1
# Lines one request may carry (a game of 56 cards has about 340 steps).
MAX_LINES = 500


def refuse_unreadable(cards):
    """Refuse to start while ``cards`` (the edition's cards with no text and no recording) is
    not empty, naming them: 「3枚は読み札の文も録音もありません: あ、い、う」 (issue 21, "Bad input")."""
    if cards:
        names = "、".join(card.head_kana for card in cards)
        raise UserError(
            ngettext(
                "%(count)d card has neither a reading text nor a recording: %(cards)s",
                "%(count)d cards have neither a reading text nor a recording: %(cards)s",
                len(cards),
            )
            % {"count": len(cards), "cards": names}
        )


def timing(between_readings, between_cards):
    """The pauses (seconds, text or numbers from a form) as a ``sequence.Timing``.

    Raises ``UserError`` naming the pause that is not a number in 0–30 seconds.
    """
    values = []
    for value, label in (
        (between_readings, _("pause between the two readings")),
        (between_cards, _("pause between cards")),
    ):
        try:
            number = float(str(value).strip())
        except ValueError:
            number = None
        if number is None or not sequence.MIN_PAUSE <= number <= sequence.MAX_PAUSE:
            raise UserError(
                _("The %(field)s must be a number of seconds from %(low)d to %(high)d.")
                % {"field": label, "low": sequence.MIN_PAUSE, "high": sequence.MAX_PAUSE}
            )
        values.append(number)
    return sequence.Timing(*values)


def start_reading(edition, event, *, unreadable, pauses, court=None, match=None, seed=None, user=None, via_link=False):
    """Start a reading of ``edition`` for ``event`` (a ``court`` of it, or the hall when None;
    optionally one of its games): shuffle with ``seed`` (random when None) and store the
    order. Returns the ``ReadingSession``.

    ``unreadable``: the cards that cannot be read (``reader.voices.unreadable_cards``);
    ``pauses``: a ``sequence.Timing``. Raises ``UserError`` for unreadable cards, a deck of
    fewer than two cards, a court or game of another event. docs/rules/reader.md.
    """
    refuse_unreadable(unreadable)
    if court is not None and court.event_id != event.pk:
        raise UserError(_("That court is not one of this tournament's."))
    if match is not None and match.event_id != event.pk:
        raise UserError(_("That game is not one of this tournament's."))
    cards = list(edition.cards.order_by("order", "head_kana").values_list("head_kana", flat=True))
    if len(cards) < 2:
        raise UserError(_("The deck %(deck)s has fewer than two cards.") % {"deck": edition})
    seed = secrets.randbelow(MAX_SEED) if seed is None else seed
    order = sequence.shuffled(cards, seed)
    return ReadingSession.objects.create(
        event=event,
        court=court,
        match=match,
        edition=edition,
        seed=seed,
        order=order,
        between_readings=pauses.between_readings,
        between_cards=pauses.between_cards,
        started_by=user if user is not None and user.is_authenticated else None,
        via_link=via_link,
    )


def steps(session):
    """The steps of ``session``'s reading (its stored order and pauses), as dicts for the page."""
    pauses = sequence.Timing(session.between_readings, session.between_cards)
    return [step.as_dict() for step in sequence.plan(session.order, pauses)]


def _line(session, raw, number, now):
    """One log line sent by the page (a dict) as an unsaved ``ReadingLogEntry``; ``UserError``
    naming the line (its position ``number`` in the request) when a field is wrong."""
    if not isinstance(raw, dict):
        raise UserError(_("Log line %(n)d is not a record.") % {"n": number})
    seq, kind, card = raw.get("seq"), raw.get("kind"), raw.get("card") or ""
    reading, key, millis = raw.get("reading") or "", raw.get("key") or "", raw.get("at")
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_SEED:
        raise UserError(_("Log line %(n)d: the line number is missing or wrong.") % {"n": number})
    if kind not in ReadingLogEntry.KINDS:
        raise UserError(_("Log line %(n)d: unknown step %(kind)s.") % {"n": number, "kind": str(kind)[:20]})
    if card and card not in session.order:
        raise UserError(
            _("Log line %(n)d: the card %(card)s is not in this reading.") % {"n": number, "card": str(card)[:8]}
        )
    if not isinstance(reading, str) or len(reading) > 10 or not isinstance(key, str) or len(key) > 40:
        raise UserError(_("Log line %(n)d: the reading is wrong.") % {"n": number})
    if not isinstance(millis, int | float) or isinstance(millis, bool):
        raise UserError(_("Log line %(n)d: the time is missing.") % {"n": number})
    try:
        at = datetime.datetime.fromtimestamp(millis / 1000, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError):
        at = None
    if at is None or abs(at - now) > CLOCK_SLACK:
        raise UserError(_("Log line %(n)d: the time is not today's.") % {"n": number})
    return ReadingLogEntry(session=session, seq=seq, kind=kind, card=card, reading=reading, key=key, at=at)


def record_lines(session, lines):
    """Store the log lines ``lines`` (dicts: seq, kind, card, reading, key, at in ms since the
    epoch) sent by the reading page; a line already stored (same ``seq``) is kept as it was,
    so a resent batch stores nothing twice. An "end" line ends the reading.

    Returns the sequence numbers stored or already there (the page forgets those). Raises
    ``UserError`` naming the first wrong line; nothing of the batch is written then.
    """
    if not isinstance(lines, list) or len(lines) > MAX_LINES:
        raise UserError(_("The log must be a list of at most %(max)d lines.") % {"max": MAX_LINES})
    now = timezone.now()
    entries = [_line(session, raw, number, now) for number, raw in enumerate(lines, start=1)]
    with transaction.atomic():
        ReadingLogEntry.objects.bulk_create(entries, ignore_conflicts=True)
        ended = [entry.at for entry in entries if entry.kind == "end"]
        if ended and session.ended_at is None:
            session.ended_at = max(ended)
            session.save(update_fields=["ended_at"])
    return sorted({entry.seq for entry in entries})


def reader_link(court):
    """The court's reader link, made on first use (a new random token, like the court links)."""
    link, _created = ReaderLink.objects.get_or_create(court=court)
    return link


def change_link(court, action):
    """Revoke (``"revoke"``: the link stops working, its token kept to show it again on
    renewal) or renew (``"renew"``: a new token, active; the old one stops at once) the
    court's reader link. Raises ``UserError`` for another action."""
    if action not in ("revoke", "renew"):
        raise UserError(_("Unknown action."))
    link = reader_link(court)
    if action == "revoke":
        link.enabled = False
    else:
        link.token, link.enabled = new_court_token(), True
    link.save(update_fields=["token", "enabled"])
    return link


class LinkRevoked(Http404):
    """A reader link that was revoked: the page says to ask the desk (本部) for a new one."""


def court_of_link(token):
    """The court of an active reader link. ``LinkRevoked`` for a revoked one, ``Http404`` for
    an unknown token (it reveals nothing)."""
    link = ReaderLink.objects.select_related("court__event").filter(token=token).first()
    if link is None:
        raise Http404
    if not link.enabled:
        raise LinkRevoked
    return link.court
