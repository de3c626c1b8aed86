"""The reader (読み手, issue 21): deck editions and their cards."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class DeckEdition(models.Model):
    """One edition of a deck: 56 cards (44 + 「り」 … as the rules say), read by the reader."""

    slug = models.SlugField(_("short name"), max_length=40, unique=True)
    name = models.CharField(_("deck name"), max_length=120)
    source = models.TextField(_("source of the card texts"), blank=True)
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
    head_kana = models.CharField(_("head kana (頭字)"), max_length=4)
    text = models.TextField(_("reading text (読み札)"), blank=True)
    furigana = models.TextField(_("reading in kana"), blank=True)
    is_joker = models.BooleanField(_("役札 「り」"), default=False)
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
