"""The reader (読み手, issue 21): deck editions and their cards."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import new_court_token

#: The edition the product ships (migration 0003): edited by staff and superusers only.
SHIPPED_EDITION = "hitachi"


class DeckEdition(models.Model):
    """One edition of a deck: 56 cards (44 + 「り」 … as the rules say), read by the reader.

    Its owners edit it (``reader.access.may_edit_edition``): ``owner`` (who made it) and the
    organisers of ``event`` (the tournament it was made for), besides staff and superusers.
    """

    slug = models.SlugField(_("short name"), max_length=40, unique=True)
    name = models.CharField(_("deck name"), max_length=120)
    source = models.TextField(_("source of the card texts"), blank=True)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reader_decks",
        verbose_name=_("made by"),
    )
    event = models.ForeignKey(
        "tournament.Event",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reader_decks",
        verbose_name=_("tournament"),
        help_text=_("Optional: the organisers of this tournament may edit the deck too."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("deck edition")
        verbose_name_plural = _("deck editions")
        ordering = ["name"]

    def __str__(self):
        return self.name


class Card(models.Model):
    """One reading card (読み札): its head kana (頭字), its text, and whether it is the 役札 「り」."""

    edition = models.ForeignKey(
        DeckEdition, on_delete=models.CASCADE, related_name="cards", verbose_name=_("deck edition")
    )
    head_kana = models.CharField(_("head kana"), max_length=4)
    text = models.TextField(_("reading text"), blank=True)
    furigana = models.TextField(_("reading in kana"), blank=True)
    is_joker = models.BooleanField(_("special card 「り」"), default=False)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("card")
        verbose_name_plural = _("cards")
        ordering = ["edition", "order", "head_kana"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "head_kana"], name="reader_card_head_kana_unique"),
        ]

    def __str__(self):
        return f"{self.head_kana} {self.text}"[:60]


class Recording(models.Model):
    """The club's own reader's voice for one audio key of an edition (issue 21, item 3).

    ``key`` is ``card:<head_kana>`` or ``phrase:<name>`` (``reader.voices``). The audio is
    kept in the database, so a backup of the database keeps the club's recordings too;
    ``sha256`` names the content for the browser's cache.
    """

    edition = models.ForeignKey(
        DeckEdition, on_delete=models.CASCADE, related_name="recordings", verbose_name=_("deck edition")
    )
    key = models.CharField(_("audio key"), max_length=40)
    audio = models.BinaryField(_("audio"))
    content_type = models.CharField(_("type"), max_length=40)
    extension = models.CharField(_("file extension"), max_length=8)
    duration_ms = models.PositiveIntegerField(_("length (ms)"))
    size = models.PositiveIntegerField(_("size (bytes)"))
    sha256 = models.CharField(max_length=64)
    uploaded_at = models.DateTimeField(_("recorded at"), auto_now=True)

    class Meta:
        verbose_name = _("recording")
        verbose_name_plural = _("recordings")
        ordering = ["edition", "key"]
        constraints = [
            models.UniqueConstraint(fields=["edition", "key"], name="reader_recording_key_unique"),
        ]

    def __str__(self):
        return f"{self.edition.slug} {self.key}"


class ReaderLink(models.Model):
    """A court's reader link (``/reader/<token>/``): the token is the credential and reaches
    only its court's reading page (issue 21, item 4). Revoked: ``enabled`` off; renewed: a
    new token (the old one stops working at once and is kept as ``previous_token``, so it
    answers the explanation page like a revoked one)."""

    court = models.OneToOneField(
        "tournament.Court", on_delete=models.CASCADE, related_name="reader_link", verbose_name=_("court")
    )
    token = models.CharField(_("reader link secret"), max_length=64, unique=True, default=new_court_token)
    enabled = models.BooleanField(_("reader link active"), default=True)
    # The token before the last renewal: a tablet still on it is told to ask the desk (410).
    previous_token = models.CharField(max_length=64, blank=True, default="", db_index=True, editable=False)

    class Meta:
        verbose_name = _("reader link")
        verbose_name_plural = _("reader links")

    def __str__(self):
        return str(self.court)


class ReadingSession(models.Model):
    """One game read by the reader: where (event, court, game if chosen), which deck, the seed
    and the shuffled order, the pauses, and when it started and ended. Its log is
    ``ReadingLogEntry`` (docs/rules/reader.md)."""

    event = models.ForeignKey(
        "tournament.Event", on_delete=models.CASCADE, related_name="readings", verbose_name=_("tournament")
    )
    court = models.ForeignKey(
        "tournament.Court",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="readings",
        verbose_name=_("court"),
        help_text=_("Empty: the whole hall."),
    )
    match = models.ForeignKey(
        "tournament.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="readings",
        verbose_name=_("game"),
    )
    edition = models.ForeignKey(DeckEdition, on_delete=models.PROTECT, related_name="readings", verbose_name=_("deck"))
    seed = models.PositiveIntegerField(_("seed of the shuffle"))
    order = models.JSONField(_("order of the cards"), default=list)
    between_readings = models.FloatField(_("pause between the two readings (seconds)"))
    between_cards = models.FloatField(_("pause between cards (seconds)"))
    SPEEDS = [("slow", _("slow (a tournament: “read the card slowly”)")), ("normal", _("normal"))]
    voice_speed = models.CharField(
        _("speed of the synthetic voice"),
        max_length=6,
        choices=SPEEDS,
        default="slow",
        help_text=_("Recordings play as recorded."),
    )
    via_link = models.BooleanField(_("started on the reader link"), default=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("reading")
        verbose_name_plural = _("readings")
        ordering = ["-started_at", "-pk"]

    def __str__(self):
        return f"{self.edition} #{self.pk}"


class ReadingLogEntry(models.Model):
    """One line of a reading's log: a phrase, a reading of a card (first, second, confirming,
    again), a skip, a pause or a resume, with the time the reading device gave it. ``seq`` is
    the device's number for the line: a line sent twice is stored once."""

    # "cut": a reading cut by a pause (read again whole on resume, not counted); "reopened":
    # the reading page was opened again and went on (docs/rules/reader.md); "placed": the
    # referee tapped 「続ける」 at the last two cards; "mismatch": the cards on the court did not
    # match the reading cards left (``reading`` says how: sequence.MISMATCHES; issue 33).
    KINDS = ("phrase", "read", "again", "skip", "pause", "cut", "resume", "reopened", "placed", "mismatch", "end")

    session = models.ForeignKey(ReadingSession, on_delete=models.CASCADE, related_name="entries")
    seq = models.PositiveIntegerField(_("line"))
    kind = models.CharField(_("what"), max_length=10)
    card = models.CharField(_("card"), max_length=4, blank=True)
    reading = models.CharField(_("reading"), max_length=10, blank=True)
    key = models.CharField(_("audio"), max_length=40, blank=True)
    at = models.DateTimeField(_("time"))
    received_at = models.DateTimeField(_("received"), auto_now_add=True)

    class Meta:
        verbose_name = _("reading log line")
        verbose_name_plural = _("reading log lines")
        ordering = ["session", "seq"]
        constraints = [models.UniqueConstraint(fields=["session", "seq"], name="reader_log_seq_unique")]

    def __str__(self):
        return f"{self.seq} {self.kind} {self.card}"
