"""Sending the outbox (issue 35 item 2; docs/family-page.md, "The outgoing webhook").

``send_due`` takes the deliveries waiting whose time has come, oldest first, and posts each to
its event's webhook with a short timeout. A delivery that fails waits ``backoff(attempts)``
(30 s, 1, 2, 4 … minutes, at most an hour) and is tried again; after ``MAX_ATTEMPTS`` it is
given up (``FAILED``), its last error kept. A webhook turned off leaves its deliveries waiting.

The text is the share text of issue 35 (``tournament.share``: the same words as the
「LINEで送る文面」 buttons, in the site's language), fixed at the first attempt; never a player's
name. Two kinds of request (``build_request``):

- LINE Messaging API push message: ``POST https://api.line.me/v2/bot/message/push`` with
  ``Authorization: Bearer <channel access token>`` and
  ``{"to": <group or user id>, "messages": [{"type": "text", "text": …}]}``;
- any URL: ``POST`` of ``{"event", "kind", "text", "sent_at", "id"}`` with
  ``X-Karuta-Signature: sha256=<HMAC-SHA256 of the body with the secret, hex>``.

The network is reached only through a *transport* (``urllib_transport``, or the one a caller
passes: tests pass a fake), ``transport(request) -> status code``, raising ``OSError`` on a
failure to connect.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import json
import socket
import ssl
import urllib.error
import urllib.request
from dataclasses import dataclass
from types import SimpleNamespace

from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournament import share
from webhooks.models import LINE_PUSH_URL, MAX_ATTEMPTS, Delivery, WebhookSettings

TIMEOUT_SECONDS = 5
LEASE = datetime.timedelta(seconds=60)  # a claimed delivery's time to be sent before another sender may try
SIGNATURE_HEADER = "X-Karuta-Signature"
LINE_TEXT_LIMIT = 5000  # the Messaging API's limit of a text message


@dataclass(frozen=True)
class Request:
    """One HTTP request to make: ``url``, ``headers``, ``body`` (bytes)."""

    url: str
    headers: dict
    body: bytes


class SendError(Exception):
    """A delivery that did not arrive; the message names why, without the secret."""


def urllib_transport(request: Request, timeout=TIMEOUT_SECONDS) -> int:
    """POST ``request`` with the standard library; the response's status code."""
    req = urllib.request.Request(request.url, data=request.body, headers=request.headers, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=timeout) as response:
            return response.status
    except urllib.error.HTTPError as e:
        return e.code


# The transport of the organiser's test message and of ``send_webhooks``; tests replace it.
TRANSPORT = urllib_transport


def backoff(attempts: int) -> datetime.timedelta:
    """The wait after ``attempts`` failed attempts: 30 s, 1 min, 2 min … at most an hour."""
    return datetime.timedelta(seconds=min(30 * 2 ** max(attempts - 1, 0), 3600))


def _public(path):
    return (settings.SITE_URL or "").rstrip("/") + path


def compose(delivery: Delivery) -> str:
    """The text of ``delivery`` in the site's language (``LANGUAGE_CODE``, Japanese): the share
    text of the result (``share.result_text``), of the call as the hall screens' announcement
    (``share.announcement_text``), or a test message."""
    event = delivery.event
    with translation.override(settings.LANGUAGE_CODE):
        if delivery.kind == Delivery.Kind.RESULT:
            sheet = delivery.sheet
            url = _public(reverse("tournament:public_results", args=[event.slug]))
            return share.result_text(event, sheet.match, sheet, url)
        if delivery.kind == Delivery.Kind.CALL:
            call = delivery.call
            url = _public(reverse("tournament:public_timetable", args=[event.slug]))
            shown = SimpleNamespace(shown_from=call.called_at, text=call.text)
            return share.announcement_text(event, shown, url)
        return "\n".join(
            [
                share.head(event),
                _("Test message from the tournament manager: the webhook works."),
                _public(reverse("tournament:public_timetable", args=[event.slug])),
            ]
        )


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex>``: HMAC-SHA256 of ``body`` keyed with ``secret`` (UTF-8)."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def build_request(hook: WebhookSettings, delivery: Delivery, text: str) -> Request:
    """The request that sends ``text`` of ``delivery`` to ``hook`` (see the module's docstring)."""
    if hook.kind == WebhookSettings.Kind.LINE:
        body = json.dumps(
            {"to": hook.line_to, "messages": [{"type": "text", "text": text[:LINE_TEXT_LIMIT]}]},
            ensure_ascii=False,
        ).encode()
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {hook.secret}"}
        return Request(hook.url or LINE_PUSH_URL, headers, body)
    body = json.dumps(
        {
            "event": hook.event.slug,
            "kind": delivery.kind,
            "text": text,
            "sent_at": timezone.now().isoformat(),
            "id": delivery.pk,
        },
        ensure_ascii=False,
    ).encode()
    headers = {"Content-Type": "application/json", SIGNATURE_HEADER: signature(hook.secret, body)}
    return Request(hook.url, headers, body)


def error_text(error: Exception) -> str:
    """Why a delivery did not arrive, as a sentence in the active language: the receiver's
    name not found (no internet at the venue, a wrong address), no answer in time, the
    connection refused, the secure connection failed; else the system's own words in brackets."""
    reason = error.reason if isinstance(error, urllib.error.URLError) else error
    if isinstance(error, SendError):
        return str(error)
    if isinstance(reason, socket.gaierror):
        return _("The receiver's address was not found: no internet here, or a wrong address.")
    if isinstance(reason, TimeoutError | socket.timeout):
        return _("The receiver did not answer within %(seconds)s seconds.") % {"seconds": TIMEOUT_SECONDS}
    if isinstance(reason, ConnectionRefusedError):
        return _("The receiver refused the connection.")
    if isinstance(reason, ssl.SSLError):
        return _("The secure (https) connection to the receiver failed.")
    return _("The message could not be sent (%(reason)s).") % {"reason": str(error) or error.__class__.__name__}


def _masked(text: str, secret: str) -> str:
    if secret:
        text = text.replace(secret, "***")
    return text[:300]


def attempt(delivery: Delivery, hook: WebhookSettings, transport=urllib_transport, now=None) -> bool:
    """One attempt at ``delivery``: True when the receiver answered 2xx. The outcome is saved
    (attempts, last error without the secret, next attempt or given up)."""
    now = now or timezone.now()
    if not delivery.text:
        delivery.text = compose(delivery)
    delivery.attempts += 1
    try:
        status = transport(build_request(hook, delivery, delivery.text))
        if not 200 <= status < 300:
            raise SendError(_("The receiver answered HTTP %(status)s.") % {"status": status})
    except (OSError, SendError, ValueError) as e:
        delivery.last_error = _masked(error_text(e), hook.secret)
        if delivery.attempts >= MAX_ATTEMPTS or delivery.kind == Delivery.Kind.TEST:
            delivery.status = Delivery.Status.FAILED
            delivery.next_attempt_at = None
        else:
            delivery.next_attempt_at = now + backoff(delivery.attempts)
        ok = False
    else:
        delivery.status = Delivery.Status.SENT
        delivery.sent_at = now
        delivery.next_attempt_at = None
        delivery.last_error = ""
        ok = True
    delivery.save(update_fields=["text", "attempts", "status", "last_error", "next_attempt_at", "sent_at"])
    return ok


def send_due(transport=urllib_transport, now=None, limit=50) -> tuple[int, int]:
    """Send the deliveries due now (of events whose webhook is on), oldest first, at most
    ``limit``. Returns (sent, failed attempts).

    Each delivery is first claimed by one short UPDATE (its next attempt moved a lease ahead),
    so two senders (two server processes) never send it twice, and no write lock is held while
    the network answers (the court tablets' results keep being saved)."""
    now = now or timezone.now()
    due = list(
        Delivery.objects.filter(status=Delivery.Status.PENDING, event__webhook_settings__enabled=True)
        .exclude(next_attempt_at__gt=now)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    sent = failed = 0
    for pk in due:
        claimed = (
            Delivery.objects.filter(pk=pk, status=Delivery.Status.PENDING)
            .exclude(next_attempt_at__gt=now)
            .update(next_attempt_at=now + LEASE)
        )
        if not claimed:
            continue
        delivery = Delivery.objects.select_related("event__webhook_settings").get(pk=pk)
        if attempt(delivery, delivery.event.webhook_settings, transport, now):
            sent += 1
        else:
            failed += 1
    return sent, failed


def send_test(hook: WebhookSettings, transport=urllib_transport) -> Delivery:
    """A test message to ``hook`` sent at once (tried once, never retried); the delivery."""
    delivery = Delivery.objects.create(event=hook.event, kind=Delivery.Kind.TEST)
    attempt(delivery, hook, transport)
    return delivery
