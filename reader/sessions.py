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

from common import limits
from common.errors import UserError
from reader import synth
from reader.engine import sequence
from reader.models import ReaderLink, ReadingLogEntry, ReadingSession
from tournament.models import new_court_token

# A log line's time must lie between the reading's start and the server's "now", give or take
# this much (a tablet's clock is not exact). Lines queued offline keep the time they were made,
# so arriving late is fine. Beyond it the line is refused, not stored wrong.
CLOCK_SKEW = datetime.timedelta(minutes=10)
# A line numbered before the end may carry a time this much after it (the batch's clock
# correction varies with the network's delay).
END_TOLERANCE = datetime.timedelta(seconds=5)
MAX_SEED = 2**31 - 1
# Lines one request may carry (a game of 56 cards has about 340 steps), and one reading in all
# (issue 28: a reader link posted 54,000 lines and the organiser's log page took 36 s).
MAX_LINES = limits.READER_LOG_LINES_PER_POST
MAX_LINES_PER_READING = limits.READER_LOG_LINES_PER_READING


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


def start_reading(
    edition, event, *, unreadable, pauses, court=None, match=None, seed=None, user=None, via_link=False, speed="slow"
):
    """Start a reading of ``edition`` for ``event`` (a ``court`` of it, or the hall when None;
    optionally one of its games): shuffle with ``seed`` (random when None) and store the
    order. Returns the ``ReadingSession``.

    ``unreadable``: the cards that cannot be read (``reader.voices.unreadable_cards``);
    ``pauses``: a ``sequence.Timing``; ``speed``: the synthetic voice's, "slow" (the
    default: the rule sheet's "read the card slowly") or "normal" (``reader.synth.SPEEDS``;
    another is refused). Raises ``UserError`` for unreadable cards, a deck of
    fewer than two cards, a court or game of another event. docs/rules/reader.md.
    """
    refuse_unreadable(unreadable)
    if speed not in synth.SPEEDS:
        raise UserError(_("Speed of the synthetic voice: choose slow or normal."))
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
        voice_speed=speed,
        started_by=user if user is not None and user.is_authenticated else None,
        via_link=via_link,
    )


def steps(session):
    """The steps of ``session``'s reading (its stored order and pauses), as dicts for the page."""
    pauses = sequence.Timing(session.between_readings, session.between_cards)
    return [step.as_dict() for step in sequence.plan(session.order, pauses)]


# What each kind of log line may carry (the reading page's ``log`` in static/js/reader.js):
# the kinds that name a card and one of its readings, and those that carry nothing.
_CARD_KINDS = ("read", "again", "skip")
_EMPTY_KINDS = ("pause", "resume", "placed", "end")
_PHRASE_KEYS = (sequence.START, sequence.NEXT, sequence.CHECK)
_READINGS = (sequence.FIRST, sequence.SECOND, sequence.CONFIRM, sequence.AGAIN)


def _refuse(number, message):
    return UserError(_("Log line %(n)d: %(what)s") % {"n": number, "what": message})


def _check_fields(session, number, kind, card, reading, key):
    """Refuse a line whose card, reading or audio key is not one this reading can log:
    no free text reaches the log (the outside tester's findings, item 3)."""
    if kind not in ReadingLogEntry.KINDS:
        raise _refuse(number, _("unknown step %(kind)s.") % {"kind": str(kind)[:20]})
    if not all(isinstance(value, str) for value in (card, reading, key)):
        raise _refuse(number, _("the card, the reading and the audio must be text."))
    if kind == "phrase" and (card or reading or key not in _PHRASE_KEYS):
        raise _refuse(number, _("not one of the phrases of the reading."))
    if kind in _EMPTY_KINDS and (card or reading or key):
        raise _refuse(number, _("a pause, a resume or the end names no card."))
    if kind == "mismatch" and (card or key or reading not in sequence.MISMATCHES):
        raise _refuse(number, _("not one of the cases of the last two cards."))
    if kind == "cut" and not card:  # a phrase cut by a pause (read again whole on resume)
        if reading or key not in _PHRASE_KEYS:
            raise _refuse(number, _("not one of the phrases of the reading."))
        return
    if kind == "reopened":  # the page opened again goes on with ``card`` (docs/rules/reader.md)
        if (card and card not in session.order) or reading or key:
            raise _refuse(number, _("the card %(card)s is not in this reading.") % {"card": card[:8]})
        return
    if kind in _CARD_KINDS or kind == "cut":
        if card not in session.order:
            raise _refuse(number, _("the card %(card)s is not in this reading.") % {"card": card[:8]})
        known = _READINGS + ("",) if kind == "skip" else _READINGS  # a skip may name no reading
        if reading not in known or key not in ("", sequence.card_key(card)):
            raise _refuse(number, _("the reading is wrong."))


def _at(number, millis):
    """The line's time (ms since the epoch) as a UTC datetime; ``UserError`` when missing."""
    at = None
    if isinstance(millis, int | float) and not isinstance(millis, bool):
        try:
            at = datetime.datetime.fromtimestamp(millis / 1000, tz=datetime.UTC)
        except (OverflowError, OSError, ValueError):
            at = None
    if at is None:
        raise _refuse(number, _("the time is missing."))
    return at


def _check_time(session, number, at, now):
    """Refuse a time before the reading started or after now (each with :data:`CLOCK_SKEW`)."""
    if at < session.started_at - CLOCK_SKEW or at > now + CLOCK_SKEW:
        raise _refuse(number, _("the time is outside the reading (from its start until now)."))


def _clock_offset(sent, now):
    """How far the device's clock is behind the server's (a timedelta), from ``sent``: the
    device's time when it sent the batch (ms since the epoch), or None (no correction).
    ``UserError`` for a ``sent`` that is not a time."""
    if sent is None:
        return datetime.timedelta(0)
    if not isinstance(sent, int | float) or isinstance(sent, bool):
        raise UserError(_("The log's sending time is wrong."))
    try:
        return now - datetime.datetime.fromtimestamp(sent / 1000, tz=datetime.UTC)
    except (OverflowError, OSError, ValueError) as error:
        raise UserError(_("The log's sending time is wrong.")) from error


def _line(session, raw, number, now, offset=datetime.timedelta(0)):
    """One log line sent by the page (a dict) as an unsaved ``ReadingLogEntry``, its time put
    on the server's clock (``offset``: ``_clock_offset``); ``UserError`` naming the line (its
    position ``number`` in the request) when a field is wrong."""
    if not isinstance(raw, dict):
        raise UserError(_("Log line %(n)d is not a record.") % {"n": number})
    seq, kind = raw.get("seq"), raw.get("kind")
    card, reading, key = raw.get("card") or "", raw.get("reading") or "", raw.get("key") or ""
    if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq <= MAX_SEED:
        raise UserError(_("Log line %(n)d: the line number is missing or wrong.") % {"n": number})
    _check_fields(session, number, kind, card, reading, key)
    try:
        at = _at(number, raw.get("at")) + offset
    except OverflowError as error:
        raise _refuse(number, _("the time is missing.")) from error
    _check_time(session, number, at, now)
    return ReadingLogEntry(session=session, seq=seq, kind=kind, card=card, reading=reading, key=key, at=at)


def _end_of(session, entries):
    """The (seq, time) of the reading's end: the stored "end" line, else the first of the batch."""
    stored = session.entries.filter(kind="end").order_by("seq").values_list("seq", "at").first()
    sent = sorted((entry.seq, entry.at) for entry in entries if entry.kind == "end")
    return stored or (sent[0] if sent else None)


def _refuse_after_end(session, entries):
    """Refuse a new line after the reading's end (a later number, or a time later than the
    end's by more than :data:`END_TOLERANCE`), by its number. Lines already stored are
    exempt (a resent batch is taken; its times may differ by the network's delay)."""
    end = _end_of(session, entries)
    if end is None:
        return
    stored = set(session.entries.filter(seq__in=[entry.seq for entry in entries]).values_list("seq", flat=True))
    for number, entry in enumerate(entries, start=1):
        if entry.seq not in stored and (entry.seq > end[0] or entry.at > end[1] + END_TOLERANCE):
            raise _refuse(number, _("the reading had already ended."))


def _refuse_past_the_cap(session, entries):
    """Refuse a batch whose new lines would take the reading past :data:`MAX_LINES_PER_READING`
    (lines already stored, resent, do not count twice)."""
    seqs = {entry.seq for entry in entries}
    stored = session.entries.count()
    again = session.entries.filter(seq__in=seqs).count() if seqs else 0
    if stored + len(seqs) - again > MAX_LINES_PER_READING:
        raise UserError(
            _("A reading keeps at most %(max)s log lines; this one has %(count)s. Start a new reading.")
            % {"max": f"{MAX_LINES_PER_READING:,}", "count": f"{stored:,}"}
        )


def record_lines(session, lines, sent=None):
    """Store the log lines ``lines`` (dicts: seq, kind, card, reading, key, at in ms since the
    epoch) sent by the reading page; a line already stored (same ``seq``) is kept as it was,
    so a resent batch stores nothing twice. An "end" line ends the reading. ``sent`` (ms since
    the epoch, optional) is the device's clock when it sent the batch: the lines' times are
    moved by the difference to the server's clock, so a tablet whose clock is wrong still logs
    on the server's time.

    Each line must be one this reading can log (a known kind; a phrase of the rules; a card
    of its order with a known reading; its time within the reading's start and now, give or
    take :data:`CLOCK_SKEW`; nothing after the end), and the reading keeps at most
    :data:`MAX_LINES_PER_READING` lines (``common.limits``). docs/rules/reader.md, "The log".

    Returns the sequence numbers stored or already there (the page forgets those). Raises
    ``UserError`` naming the first wrong line; nothing of the batch is written then.
    """
    if not isinstance(lines, list) or len(lines) > MAX_LINES:
        raise UserError(_("The log must be a list of at most %(max)d lines.") % {"max": MAX_LINES})
    now = timezone.now()
    offset = _clock_offset(sent, now)
    entries = [_line(session, raw, number, now, offset) for number, raw in enumerate(lines, start=1)]
    _refuse_after_end(session, entries)
    with transaction.atomic():
        _refuse_past_the_cap(session, entries)
        ReadingLogEntry.objects.bulk_create(entries, ignore_conflicts=True)
        ended = [entry.at for entry in entries if entry.kind == "end"]
        if ended and session.ended_at is None:
            session.ended_at = min(ended)
            session.save(update_fields=["ended_at"])
    return sorted({entry.seq for entry in entries})


def reader_link(court):
    """The court's reader link, made on first use (a new random token, like the court links)."""
    link, _created = ReaderLink.objects.get_or_create(court=court)
    return link


def change_link(court, action):
    """Revoke (``"revoke"``: the link stops working, its token kept to show it again on
    renewal) or renew (``"renew"``: a new token, active; the old one stops at once) the
    court's reader link (the old token kept as ``previous_token``). Raises ``UserError`` for another action."""
    if action not in ("revoke", "renew"):
        raise UserError(_("Unknown action."))
    link = reader_link(court)
    if action == "revoke":
        link.enabled = False
    else:
        link.previous_token, link.token, link.enabled = link.token, new_court_token(), True
    link.save(update_fields=["token", "previous_token", "enabled"])
    return link


class LinkRevoked(Http404):
    """A reader link that was revoked or renewed (``renewed``): the page says to ask the desk
    (本部) for the new one."""

    def __init__(self, renewed=False):
        super().__init__()
        self.renewed = renewed


def court_of_link(token):
    """The court of an active reader link. ``LinkRevoked`` for a revoked one or the old token
    of a renewed one (as ``judging.court_link.court`` does), ``Http404`` for an unknown token
    (it reveals nothing)."""
    link = ReaderLink.objects.select_related("court__event").filter(token=token).first()
    if link is None:
        if token and ReaderLink.objects.filter(previous_token=token).exists():
            raise LinkRevoked(renewed=True)
        raise Http404
    if not link.enabled:
        raise LinkRevoked
    return link.court
