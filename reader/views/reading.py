"""The reader's pages (issue 21, items 2–4): the organisers' reader page of an event (courts,
reader links, start a reading, the logs), the reading page itself (on the organiser's laptop,
or on a tablet through a court's reader link), and the practice page without a tournament.

The reading plays in the page's script (static/js/reader.js) from the steps of the pure engine
(docs/rules/reader.md); it sends its log lines to ``*_lines`` (JSON) and keeps them in
localStorage until the server has them.
"""

import csv
import functools
import secrets

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import RequestDataTooBig
from django.db.models import Count, Max
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.views.decorators.http import require_POST

from common.errors import UserError
from common.qr_svg import qr_svg
from reader import log_json, sessions, synth, voices
from reader.access import may_edit_edition
from reader.engine import sequence
from reader.models import DeckEdition, ReadingSession
from tournament.access import event_for_organiser, event_for_recorder, object_or_404, whole_number
from tournament.models import Court, Match

# The largest game number the start form takes (its input says max="9999").
MAX_GAME_NUMBER = 9999


def _editions():
    return DeckEdition.objects.order_by("name").select_related("event").annotate(card_count=Count("cards"))


def _deck_notes(request, editions):
    """The decks with fewer than the 56 cards (``voices.DECK_SIZE``): each with its count and,
    for those who may edit that deck (``reader.access.may_edit_edition``), the link to its
    page (issue 21, the incomplete deck)."""
    return [
        {
            "edition": edition,
            "count": edition.card_count,
            "full": voices.DECK_SIZE,
            "url": reverse("reader:deck_detail", args=[edition.slug])
            if may_edit_edition(request.user, edition)
            else "",
        }
        for edition in editions
        if edition.card_count < voices.DECK_SIZE
    ]


def _form_context(request, event, *, court=None, values=None):
    """What the start form needs: the decks (with the incomplete ones named), the pauses, the
    values typed before a refusal, and the games of ``court`` (a reader link's court)."""
    editions = list(_editions())
    games = []
    if court is not None:
        games = (
            Match.objects.filter(event=event, court=court).order_by("match_number").select_related("team_a", "team_b")
        )
    return {
        "editions": editions,
        "deck_notes": _deck_notes(request, editions),
        "timing": sequence.Timing(),
        "values": values or {},
        "court_games": games,
        "speeds": ReadingSession.SPEEDS,
    }


def _pauses(request):
    return sessions.timing(request.POST.get("between_readings", "2"), request.POST.get("between_cards", "4"))


def _court_rows(request, event):
    """The event's courts with their reader links (URL and QR) for the organisers."""
    base = settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")
    rows = []
    for court in event.courts.all():
        link = sessions.reader_link(court)
        url = base + reverse("reader:link_home", args=[link.token])
        qr = qr_svg(url, _("QR code of the link")) if link.enabled else ""
        rows.append({"court": court, "link": link, "url": url, "qr": qr})
    return rows


@login_required
def manage(request, slug):
    """The event's reader page: start a reading for a court or the hall (organisers and
    recorders), the courts' reader links with QR codes (organisers), the readings so far."""
    event = event_for_recorder(request, slug)
    return _manage_page(request, event)


def _manage_page(request, event, values=None, status=200):
    organiser = event.is_organiser(request.user)
    context = {
        "event": event,
        "organiser": organiser,
        "courts": _court_rows(request, event) if organiser else [],
        "court_choices": event.courts.all(),
        "readings": event.readings.select_related("court", "edition", "match")[:50],
        **_form_context(request, event, values=values),
    }
    return render(request, "reader/manage.html", context, status=status)


def _start(request, event, *, court=None, via_link=False):
    """Start a reading from the POSTed form (deck, pauses, court and game when given)."""
    edition = object_or_404(_editions(), request.POST.get("edition"))
    if court is None and request.POST.get("court"):
        court = object_or_404(Court.objects.filter(event=event), request.POST.get("court"))
    match = None
    raw = str(request.POST.get("match") or "").strip()
    number = whole_number(raw, low=1, high=MAX_GAME_NUMBER)
    if raw and number is None:
        raise UserError(
            _("Game number: write the number of a game (1 to %(max)d), or leave it empty.") % {"max": MAX_GAME_NUMBER}
        )
    if number is not None:
        games = Match.objects.filter(event=event, match_number=number)
        match = games.filter(court=court).first() if via_link else games.first()
        if match is None:
            raise UserError(_("There is no game %(number)d here.") % {"number": number})
        if court is not None and match.court_id is not None and match.court_id != court.pk:
            raise UserError(
                _("Game number: game %(number)d is on %(game_court)s, not on %(court)s.")
                % {"number": number, "game_court": match.court, "court": court}
            )
    if edition.card_count < voices.DECK_SIZE and not request.POST.get("incomplete_ok"):
        raise UserError(
            _(
                "The deck %(deck)s has %(count)d of %(full)d cards: tick “start with this incomplete deck” "
                "to read it anyway."
            )
            % {"deck": edition, "count": edition.card_count, "full": voices.DECK_SIZE}
        )
    return sessions.start_reading(
        edition,
        event,
        unreadable=voices.unreadable_cards(edition),
        pauses=_pauses(request),
        speed=request.POST.get("voice_speed") or "slow",
        court=court,
        match=match,
        user=request.user,
        via_link=via_link,
    )


@login_required
@require_POST
def manage_start(request, slug):
    """Start a reading (POST): to its reading page; a refusal (cards that cannot be read, a bad
    pause, an incomplete deck not confirmed) is said on the reader page with the values typed
    kept (400), and nothing is stored."""
    event = event_for_recorder(request, slug)
    try:
        reading = _start(request, event)
    except UserError as error:
        messages.error(request, str(error))
        return _manage_page(request, event, values=request.POST, status=400)
    return redirect("reader:manage_read", event.slug, reading.pk)


@login_required
@require_POST
def manage_link(request, slug):
    """Revoke or renew a court's reader link (organisers, POST)."""
    event = event_for_organiser(request, slug)
    court = object_or_404(Court.objects.filter(event=event), request.POST.get("court"))
    try:
        sessions.change_link(court, request.POST.get("action"))
    except UserError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, _("The reader link of %(court)s was changed.") % {"court": court})
    return redirect(reverse("reader:manage", args=[event.slug]) + "#links")


def _plan(reading, edition=None, order=None, pauses=None, speed="normal"):
    """What the reading page's script needs: the steps, the audio URL of each key (the
    synthetic voice at the reading's speed, or ``speed`` for practice), the cards' texts (for
    the referee's large display)."""
    edition = edition or reading.edition
    if reading is not None:
        steps = sessions.steps(reading)
    else:
        steps = [step.as_dict() for step in sequence.plan(order, pauses)]
    urls = voices.audio_urls(edition, reading.voice_speed if reading is not None else speed)
    audio = {step["key"]: urls[step["key"]] for step in steps if step["key"]}
    cards = {card.head_kana: card.text for card in edition.cards.all()}
    order = list(reading.order) if reading is not None else list(order)
    return {"steps": steps, "audio": audio, "cards": cards, "order": order}


def _resume_pos(reading):
    """The index of the last step done, from the server's log (-1: nothing read yet), for a
    page opened again (docs/rules/reader.md, "Opening the page again")."""
    lines = reading.entries.order_by("seq").values_list("kind", "card", "reading")[: sessions.MAX_LINES_PER_READING]
    pauses = sequence.Timing(reading.between_readings, reading.between_cards)
    return sequence.resume_position(sequence.plan(reading.order, pauses), list(lines))


def _logged(reading):
    """The server's log of ``reading`` for the page's list of cards read (a page opened on
    another device shows what the first one read): dicts of kind, card, reading and the
    local time "HH:MM:SS". docs/rules/reader.md, "Opening the page again"."""
    lines = reading.entries.order_by("seq").values_list("kind", "card", "reading", "at")
    lines = lines[: sessions.MAX_LINES_PER_READING]  # the cap of the write side; older logs too
    return [
        {"kind": kind, "card": card, "reading": read, "time": timezone.localtime(at).strftime("%H:%M:%S")}
        for kind, card, read, at in lines
    ]


def _read_page(request, reading, *, lines_url, back_url, event=None, court=None):
    context = {
        "event": event,
        "court": court,
        "reading": reading,
        "plan": _plan(reading),
        "lines_url": lines_url,
        "back_url": back_url,
        "fast": request.GET.get("fast") == "1",
        "store_key": f"reader-log:{reading.pk}:{reading.seed}",
        # A page opened again numbers its log lines after those the server has.
        "seq_base": reading.entries.aggregate(last=Max("seq"))["last"] or 0,
        "resume_pos": _resume_pos(reading),
        "logged": _logged(reading),
    }
    return render(request, "reader/read.html", context)


@login_required
def manage_read(request, slug, pk):
    """The reading page on the organiser's laptop (organisers and recorders)."""
    event = event_for_recorder(request, slug)
    reading = get_object_or_404(ReadingSession.objects.select_related("court", "edition"), event=event, pk=pk)
    lines_url = reverse("reader:manage_lines", args=[event.slug, reading.pk])
    back = reverse("reader:manage", args=[event.slug])
    return _read_page(request, reading, lines_url=lines_url, back_url=back, event=event, court=reading.court)


def _body(request) -> bytes:
    """The request's body; ``UserError`` (too large) past Django's own upload limit."""
    try:
        return request.body
    except RequestDataTooBig as error:
        raise log_json.too_large() from error


def _lines(request, reading):
    """Store the POSTed JSON log lines of ``reading``: ``{"stored": [seq …]}``; 400 with a
    sentence for a body too big, too deep or not JSON, or naming the wrong line."""
    try:
        payload = log_json.parse_body(_body(request))
        payload = payload if isinstance(payload, dict) else {}
        stored = sessions.record_lines(reading, payload.get("lines"), payload.get("sent"))
    except UserError as error:
        return JsonResponse({"error": str(error)}, status=400)
    return JsonResponse({"stored": stored})


@login_required
@require_POST
def manage_lines(request, slug, pk):
    """The reading page's log lines (POST, JSON) for a reading of the event."""
    event = event_for_recorder(request, slug)
    return _lines(request, get_object_or_404(ReadingSession, event=event, pk=pk))


# What the log page says for each kind of line and each reading (the CSV keeps the codes).
_KIND_LABELS = {
    "read": _lazy("reading"),
    "again": _lazy("read again"),
    "skip": _lazy("skipped"),
    "pause": _lazy("paused"),
    "cut": _lazy("paused: this reading was cut, it is read again whole on resume"),
    "resume": _lazy("resumed"),
    "reopened": _lazy("resumed (page opened again)"),
    "placed": _lazy("the last two cards placed: go on"),
    "mismatch": _lazy("the last two cards did not match"),
    "end": _lazy("The reading is over."),
}
#: What the referee does in each case of the last two cards (the rule sheet,
#: docs/rules/hitachi-karuta.md "Last two cards"): the log page's words and the page's buttons.
MISMATCH_LABELS = {
    "more": _lazy("More than two cards on the court: the referee collects the extra cards"),
    "fewer": _lazy("Fewer than two cards on the court: the referee prepares the missing cards"),
    "wrong": _lazy("Both cards wrong: the referee collects them and prepares the correct ones"),
}
_READING_LABELS = {
    sequence.FIRST: _lazy("1st reading"),
    sequence.SECOND: _lazy("2nd reading"),
    sequence.CONFIRM: _lazy("confirming the last two"),
    sequence.AGAIN: _lazy("read again"),
}


def _log_rows(reading, limit=None):
    """The log lines of ``reading`` in order (the first ``limit`` only, when given), each with
    its ``label`` and ``reading_label`` for the page and the CSV."""
    rows = reading.entries.order_by("seq")
    rows = list(rows[:limit] if limit else rows)
    for row in rows:
        if row.kind == "phrase":
            row.label = voices.PHRASES.get(row.key.partition(":")[2], ("",))[0]
        else:
            row.label = _KIND_LABELS.get(row.kind, row.kind)
        # A skip, a pause, a resume name a card at most, never a reading (older lines did).
        no_reading = row.kind in ("phrase", "skip", "pause", "resume", "reopened", "placed", "end")
        row.reading_label = "" if no_reading else _READING_LABELS.get(row.reading, row.reading)
        if row.kind == "mismatch":
            row.reading_label = MISMATCH_LABELS.get(row.reading, row.reading)
    return rows


@login_required
def manage_log(request, slug, pk):
    """A reading's log ("was it read twice?"): every step with its time, and how many times
    each card was read."""
    event = event_for_recorder(request, slug)
    reading = get_object_or_404(ReadingSession.objects.select_related("court", "edition", "match"), event=event, pk=pk)
    rows = _log_rows(reading, limit=sessions.MAX_LINES_PER_READING + 1)
    # A log longer than the cap (written before it existed) shows its first lines; the CSV has all.
    cut = len(rows) > sessions.MAX_LINES_PER_READING
    rows = rows[: sessions.MAX_LINES_PER_READING]
    counts = {}
    for row in rows:
        if row.kind in ("read", "again") and row.reading != sequence.CONFIRM:
            counts[row.card] = counts.get(row.card, 0) + 1
    read = [(card, counts.get(card, 0)) for card in reading.order if card in counts]
    context = {"event": event, "reading": reading, "rows": rows, "read": read, "cut": cut}
    return render(request, "reader/log.html", context)


# A CSV cell starting with one of these is a formula when Excel opens the file (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value) -> str:
    """``value`` as a CSV cell Excel shows as text: a leading ``'`` before a cell that would
    start a formula (= + - @ tab CR). The log's lines are validated when they arrive
    (``reader.sessions.record_lines``); this guards the file whatever the database holds."""
    text = str(value)
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


@login_required
def manage_log_csv(request, slug, pk):
    """A reading's log as CSV (UTF-8 with BOM, so Excel opens the Japanese right; JST times)."""
    event = event_for_recorder(request, slug)
    reading = get_object_or_404(ReadingSession, event=event, pk=pk)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="reading-{reading.pk}.csv"'
    response.write("\ufeff")
    writer = csv.writer(response)
    writer.writerow([_("line"), _("time"), _("what"), _("card"), _("reading"), _("received")])
    for row in _log_rows(reading):
        writer.writerow(
            [
                row.seq,
                timezone.localtime(row.at).strftime("%Y-%m-%d %H:%M:%S.%f")[:-3],
                csv_cell(str(row.label)),
                csv_cell(row.card),
                csv_cell(str(row.reading_label)),
                timezone.localtime(row.received_at).strftime("%Y-%m-%d %H:%M:%S"),
            ]
        )
    return response


def _no_store(view):
    """A page behind a reader link's token is never stored (like ``config.middleware``'s
    private areas; ``/reader/`` also holds the public, cacheable audio)."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        response["Cache-Control"] = "no-store"
        return response

    return wrapper


def _link_court(token):
    """The court of the reader link ``token``, or the ``LinkRevoked`` that says why it no
    longer works (revoked, or renewed); ``Http404`` for an unknown token."""
    try:
        return sessions.court_of_link(token)
    except sessions.LinkRevoked as gone:
        return gone


def _revoked(request, gone):
    return render(request, "reader/link_revoked.html", {"renewed": gone.renewed}, status=410)


@_no_store
def link_home(request, token):
    """A court's reader link (the token is the credential): start a reading for its court."""
    court = _link_court(token)
    if isinstance(court, sessions.LinkRevoked):
        return _revoked(request, court)
    values = None
    if request.method == "POST":
        try:
            reading = _start(request, court.event, court=court, via_link=True)
        except UserError as error:
            messages.error(request, str(error))
            values = request.POST
        else:
            return redirect("reader:link_read", token, reading.pk)
    context = {
        "court": court,
        "event": court.event,
        "token": token,
        **_form_context(request, court.event, court=court, values=values),
    }
    context["readings"] = court.readings.select_related("edition")[:10]
    return render(request, "reader/link_home.html", context, status=400 if values is not None else 200)


@_no_store
def link_read(request, token, pk):
    """The reading page on a court's tablet: only readings of the link's court."""
    court = _link_court(token)
    if isinstance(court, sessions.LinkRevoked):
        return _revoked(request, court)
    reading = get_object_or_404(ReadingSession.objects.select_related("edition"), court=court, pk=pk)
    lines_url = reverse("reader:link_lines", args=[token, reading.pk])
    back = reverse("reader:link_home", args=[token])
    return _read_page(request, reading, lines_url=lines_url, back_url=back, event=court.event, court=court)


@_no_store
@require_POST
def link_lines(request, token, pk):
    """The log lines of a reading on a court's tablet (POST, JSON); 410 for a revoked link."""
    court = _link_court(token)
    if isinstance(court, sessions.LinkRevoked):
        return JsonResponse({"error": _("This reader link no longer works: ask the desk for the new one.")}, status=410)
    return _lines(request, get_object_or_404(ReadingSession, court=court, pk=pk))


def practice(request):
    """The practice page (no tournament, no login): choose a deck and the pauses, then read.
    The log stays in the browser (nothing is stored on the server: docs/rules/reader.md)."""
    edition = None
    error = ""
    slug = request.GET.get("edition", "")
    if slug:
        edition = DeckEdition.objects.filter(slug=slug).first()
        if edition is None:
            raise Http404
    plan = None
    skipped = []
    if edition is not None:
        try:
            # Practice reads the cards that can be read (a text for the synthetic voice, or a
            # recording) and names the others; a tournament game needs them all (issue 27:
            # the shipped deck, 3 texts of 56, could not be practised at all).
            skipped = voices.unreadable_cards(edition)
            left_out = {card.pk for card in skipped}
            cards = [
                head
                for pk, head in edition.cards.order_by("order", "head_kana").values_list("pk", "head_kana")
                if pk not in left_out
            ]
            if len(cards) < 2:
                raise UserError(
                    " ".join(
                        part
                        for part in (
                            _("Practice needs at least two cards that can be read."),
                            voices.unreadable_message(skipped),
                            voices.voice_status().message if not voices.voice_status().installed else "",
                        )
                        if part
                    )
                )
            pauses = sessions.timing(request.GET.get("between_readings", "2"), request.GET.get("between_cards", "4"))
            seed = secrets.randbelow(sessions.MAX_SEED)
            speed = synth.speed_name(request.GET.get("voice_speed", synth.DEFAULT_SPEED))
            plan = _plan(None, edition, sequence.shuffled(cards, seed), pauses, speed) | {"seed": seed}
        except (UserError, sequence.ReadingError) as problem:
            error = str(problem) if isinstance(problem, UserError) else _("This deck has fewer than two cards.")
    editions = list(_editions())
    notes = {note["edition"].pk: note for note in _deck_notes(request, editions)}
    context = {
        "editions": editions,
        "edition": edition,
        "deck_note": notes.get(edition.pk) if edition is not None else None,
        "plan": plan,
        "skipped": "、".join(card.head_kana for card in skipped),
        "skipped_count": len(skipped),
        "read_count": len(plan["order"]) if plan else 0,
        "deck_list_url": reverse("reader:deck_list"),
        # The practice game (its order, position and list) is kept in this browser under
        # this key: a page opened again offers "continue" (docs/rules/reader.md).
        "practice_key": f"reader-practice:{edition.slug}" if edition is not None else "",
        "error": error,
        "fast": request.GET.get("fast") == "1",
        "timing": sequence.Timing(),
        "values": request.GET,
        "speeds": ReadingSession.SPEEDS,
    }
    return render(request, "reader/practice.html", context)
