"""What the Sanjô Dôsai reader stores: the club's editions, sessions and hands.

Only what was observed is stored: the values read from the club's efuda, the layout of the
houses, who holds which house, and the yomifuda called in order. The state of a hand, its
payments and the ledger are derived by replaying the engine (``dosai.engine.calls``, ``dosai.services.replay``),
so undoing the last call is exact.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ClubEdition(models.Model):
    """A club's card table: a built-in edition (``dosai.engine.cards``) plus the values the club read
    from its own efuda. ``values`` maps subject number (as text, JSON) -> points, only for the
    numbers the built-in edition leaves unknown (a sourced value is never overwritten)."""

    BASE_MATSUI = "matsui"
    BASE_BLANK = "blank"
    BASES = [
        (BASE_MATSUI, _("Matsui Tengudô (values known from the sources filled in)")),
        (BASE_BLANK, _("Another maker (same numbering, no values)")),
    ]

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dosai_editions")
    name = models.CharField(_("edition name"), max_length=100)
    base = models.CharField(_("based on"), max_length=20, choices=BASES, default=BASE_MATSUI)
    values = models.JSONField(default=dict, blank=True)
    source = models.CharField(_("source of the entered values"), max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name


class Session(models.Model):
    """A sitting of three to six players with one edition and one set of house rules.

    ``options`` holds ``dosai.engine.options.options_as_dict``; ``players`` the names in seating order."""

    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dosai_sessions")
    title = models.CharField(_("title"), max_length=100)
    edition = models.ForeignKey(
        ClubEdition, on_delete=models.PROTECT, related_name="sessions", verbose_name=_("edition")
    )
    options = models.JSONField(default=dict)
    players = models.JSONField(default=list)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self):
        return self.title


class Hand(models.Model):
    """One hand of a session, as laid out on the table and as read.

    houses: list of {"name", "head", "upper", "middle", "lower"} in seating order (sanjo-dosai.md l.76);
    holdings: player -> house names (sanjo-dosai.md l.72–74); points: the edition's values when the hand
    was dealt (number as text -> points), so a later edit of the edition never changes it;
    reading_order: the shuffled yomifuda when the app reads, else null; calls: the yomifuda
    read, in order; turn_free: efuda 46/50 their holders turned at the end (D12 CHOICE only);
    carried_pool: the pool carried in from the previous hand (D13 CARRY_POOL)."""

    DEAL_APP = "app"
    DEAL_ENTERED = "entered"
    DEALS = [(DEAL_APP, _("dealt by the app")), (DEAL_ENTERED, _("entered as laid out"))]
    READ_APP = "app"
    READ_HUMAN = "human"
    READERS = [(READ_APP, _("the app reads")), (READ_HUMAN, _("a person reads, the app records"))]

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    dealing = models.CharField(max_length=10, choices=DEALS)
    reader = models.CharField(max_length=10, choices=READERS)
    houses = models.JSONField()
    holdings = models.JSONField()
    points = models.JSONField()
    reading_order = models.JSONField(null=True, blank=True)
    calls = models.JSONField(default=list, blank=True)
    turn_free = models.JSONField(default=list, blank=True)
    carried_pool = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="dosai_hand_number_unique")]

    def __str__(self):
        return f"{self.session} #{self.number}"
