"""The outgoing webhook of an event (issue 35 item 2; docs/family-page.md, "The outgoing webhook").

``WebhookSettings``: one per event, off by default: where to send (the LINE Messaging API's push
message to a group or user id, or any URL receiving JSON signed with HMAC-SHA256), the secret
(the LINE channel access token or the signing secret), which events to send (results confirmed,
teams called to a court).

The secret is kept as the series key is (``series.models.Series.secret``): a column the forms
and the admin never edit or show (``editable=False``); pages name it by a fingerprint only
(``secret_id``), and a new one replaces it only when typed.

``Delivery``: the outbox. A row is written in the transaction that confirms the result or makes
the call (``webhooks.signals``), so a result confirmed while the network is down is sent later;
``webhooks.sender`` sends it, retries with back-off and gives up after ``MAX_ATTEMPTS``.
"""

import hashlib

from django.db import models
from django.utils.translation import gettext_lazy as _

from judging.models import RecordingSheet
from people.models import MatchCall
from tournament.models import Event

LINE_PUSH_URL = "https://api.line.me/v2/bot/message/push"
MAX_ATTEMPTS = 8


def secret_id(secret: str) -> str:
    """12 hex characters naming a secret without revealing it (SHA-256 of a label and the
    secret), as the series key's id does; "" for no secret."""
    if not secret:
        return ""
    return hashlib.sha256(b"karuta-webhook-secret\n" + secret.encode()).hexdigest()[:12]


class WebhookSettings(models.Model):
    """An event's outgoing webhook. Off until an organiser turns it on with a complete target."""

    class Kind(models.TextChoices):
        LINE = "line", _("LINE Messaging API (push message to a group or user)")
        URL = "url", _("Any URL (JSON signed with HMAC-SHA256)")

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="webhook_settings")
    enabled = models.BooleanField(_("send messages"), default=False)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.LINE)
    url = models.CharField(_("address (URL)"), max_length=300, blank=True, default=LINE_PUSH_URL)
    line_to = models.CharField(_("LINE group or user id (to)"), max_length=40, blank=True)
    # The channel access token (LINE) or the signing secret (any URL): never shown back.
    secret = models.CharField(max_length=400, blank=True, editable=False)
    send_results = models.BooleanField(_("results confirmed"), default=True)
    send_calls = models.BooleanField(_("teams called to a court"), default=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("outgoing webhook")
        verbose_name_plural = _("outgoing webhooks")

    def __str__(self):
        return f"{self.event} — {self.get_kind_display()}"

    @classmethod
    def for_event(cls, event):
        """The event's settings, unsaved defaults (off) when it has none yet."""
        return cls.objects.filter(event=event).first() or cls(event=event)

    @property
    def secret_id(self) -> str:
        return secret_id(self.secret)

    def sends(self, kind) -> bool:
        """Whether a ``Delivery.Kind`` of the event is sent now."""
        if not self.enabled:
            return False
        return {Delivery.Kind.RESULT: self.send_results, Delivery.Kind.CALL: self.send_calls}.get(kind, True)


class Delivery(models.Model):
    """One message to send: a confirmed result, a call, or an organiser's test message."""

    class Kind(models.TextChoices):
        RESULT = "result", _("result confirmed")
        CALL = "call", _("teams called")
        TEST = "test", _("test message")

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting to be sent")
        SENT = "sent", _("sent")
        FAILED = "failed", _("given up")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="webhook_deliveries")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    sheet = models.ForeignKey(RecordingSheet, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    call = models.ForeignKey(MatchCall, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    # The text sent, fixed at the first attempt so that every retry sends the same words.
    text = models.TextField(blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("webhook message")
        verbose_name_plural = _("webhook messages")
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhook_delivery_due")]

    def __str__(self):
        return f"{self.get_kind_display()} ({self.get_status_display()})"
