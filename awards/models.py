"""The awards desk (issue 19): certificate settings, prizes and printed certificates.

The rules these models hold are in ``docs/rules/awards.md``: who gets a certificate, the
members of a team, the print log and "changed since printed".
"""

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import Division, Event, Player, Team

DEFAULT_BODY = "あなたは第{edition}回{event}{division}において頭書の成績を収められました よってこれを賞します"


class AwardSettings(models.Model):
    """One event's certificate settings: the paper and where the text goes on it (mm), who gets
    a certificate and what it says. An event without a saved row uses the defaults
    (``for_event``)."""

    class Per(models.TextChoices):
        MEMBER = "member", _("one per member (with the member's name)")
        TEAM = "team", _("one per team (with the team's name)")

    class IndividualBy(models.TextChoices):
        NONE = "none", _("no individual prize")
        DIVISION = "division", _("per division")
        GRADE = "grade", _("per grade within each division")

    class Order(models.TextChoices):
        LOWEST_FIRST = "lowest_first", _("lowest place first (the champion last)")
        HIGHEST_FIRST = "highest_first", _("champion first")

    HONORIFICS = [("殿", "殿"), ("様", "様"), ("", _("none"))]
    SIZES = [("A4", "A4 (210 × 297 mm)"), ("B5", "B5 (182 × 257 mm)")]
    ORIENTATIONS = [("portrait", _("portrait")), ("landscape", _("landscape"))]

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="award_settings", verbose_name=_("tournament")
    )
    paper_size = models.CharField(_("paper size"), max_length=2, choices=SIZES, default="A4")
    orientation = models.CharField(_("orientation"), max_length=10, choices=ORIENTATIONS, default="portrait")
    margin_top = models.DecimalField(_("top margin (mm)"), max_digits=5, decimal_places=1, default=30)
    margin_right = models.DecimalField(_("right margin (mm)"), max_digits=5, decimal_places=1, default=25)
    margin_bottom = models.DecimalField(_("bottom margin (mm)"), max_digits=5, decimal_places=1, default=30)
    margin_left = models.DecimalField(_("left margin (mm)"), max_digits=5, decimal_places=1, default=25)
    offset_x = models.DecimalField(_("offset right (mm)"), max_digits=5, decimal_places=1, default=0)
    offset_y = models.DecimalField(_("offset down (mm)"), max_digits=5, decimal_places=1, default=0)
    draw_frame = models.BooleanField(
        _("draw a frame (plain paper)"), default=False, help_text=_("Off for bought certificate paper with a frame.")
    )
    per = models.CharField(_("certificates"), max_length=6, choices=Per.choices, default=Per.MEMBER)
    include_substitutes = models.BooleanField(
        _("substitutes who did not play get one too"),
        default=False,
        help_text=_("Off: the regular members, and a substitute only when a confirmed sheet records cards for them."),
    )
    honorific = models.CharField(_("honorific"), max_length=2, choices=HONORIFICS, default="殿", blank=True)
    title = models.CharField(_("title"), max_length=10, default="賞状")
    body = models.TextField(
        _("body text"),
        max_length=300,
        default=DEFAULT_BODY,
        help_text=_("Placeholders: {edition}, {event}, {division}, {place}."),
    )
    kanji_numerals = models.BooleanField(
        _("numbers in kanji"),
        default=True,
        help_text=_(
            "The place, the edition and the date in kanji numerals, as a vertical certificate writes "
            "them. Off: Arabic digits."
        ),
    )
    award_date = models.DateField(_("date on the certificates"), null=True, blank=True)
    issuers = models.TextField(
        _("issuers"),
        max_length=400,
        blank=True,
        help_text=_(
            "One per line: title | name, e.g. 「ひたち郷土かるた大会実行委員会 会長 | 日立 太郎」. "
            "Empty: the certificates name no issuer (the desk warns)."
        ),
    )
    places_up_to = models.PositiveSmallIntegerField(
        _("places that get certificates (1 to N)"),
        default=3,
        help_text=_("3: champion, runner-up and third place(s)."),
    )
    individual_by = models.CharField(
        _("individual prize (most cards over the group stage)"),
        max_length=10,
        choices=IndividualBy.choices,
        default=IndividualBy.DIVISION,
    )
    individual_name = models.CharField(_("name of the individual prize"), max_length=20, default="個人賞")
    ceremony_order = models.CharField(
        _("ceremony order"), max_length=14, choices=Order.choices, default=Order.LOWEST_FIRST
    )

    class Meta:
        verbose_name = _("award settings")
        verbose_name_plural = _("award settings")
        constraints = [
            models.CheckConstraint(
                condition=Q(places_up_to__gte=1) & Q(places_up_to__lte=16), name="awards_places_up_to_1_16"
            ),
        ]

    def __str__(self):
        return str(self.event)

    @classmethod
    def for_event(cls, event):
        """The saved settings of ``event``, or the defaults (unsaved) when none were saved."""
        found = cls.objects.filter(event=event).first()
        return found if found is not None else cls(event=event)

    def issuer_lines(self):
        """``((title, name), …)`` from ``issuers``: a line without "|" is a title alone."""
        pairs = []
        for line in self.issuers.splitlines():
            if not line.strip():
                continue
            title, _bar, name = line.partition("|")
            pairs.append((title.strip(), name.strip()))
        return tuple(pairs)


class HandPrize(models.Model):
    """A prize the organiser adds by hand (敢闘賞, 特別賞 …) to a team, or to one of its players."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="hand_prizes", verbose_name=_("tournament"))
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="+", verbose_name=_("division"))
    name = models.CharField(_("prize"), max_length=20)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team"))
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="+", verbose_name=_("player")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["division__order", "division_id", "pk"]
        verbose_name = _("prize added by hand")
        verbose_name_plural = _("prizes added by hand")

    def __str__(self):
        return f"{self.name}: {self.player or self.team}"


class PrintLog(models.Model):
    """One certificate printed: its ``key`` (which certificate: division, prize, place in the
    list, member) and the ``fingerprint`` of its text at that moment. The latest line per key
    says printed, or "changed since printed" when the text is now different; ``recipient``,
    ``team`` and ``place`` are what the printed paper says (empty on lines logged before they
    were kept: ``summary`` then says it). A line whose ``fingerprint`` is :attr:`COLLECTED`
    says the paper of that key was collected or discarded: the key counts as not printed."""

    #: No real fingerprint (hex) looks like it.
    COLLECTED = "collected"

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="award_prints", verbose_name=_("tournament")
    )
    key = models.CharField(max_length=80)
    fingerprint = models.CharField(max_length=64)
    summary = models.CharField(_("certificate"), max_length=200)
    # What the paper says (issue 19 fix): kept so a correction can say which paper to take back.
    recipient = models.CharField(_("printed for"), max_length=200, blank=True, default="")
    team = models.CharField(_("team"), max_length=200, blank=True, default="")
    place = models.CharField(_("prize"), max_length=100, blank=True, default="")
    printed_at = models.DateTimeField(_("printed"), auto_now_add=True)
    printed_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["event", "key", "-printed_at", "-pk"]
        indexes = [models.Index(fields=["event", "key"])]
        verbose_name = _("printed certificate")
        verbose_name_plural = _("printed certificates")

    def __str__(self):
        return self.summary
