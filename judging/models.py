"""The referee's side: recording sheets (記録用紙), one row per version.

Every submission or correction is a new version; earlier versions are kept. At most one
version of a game is confirmed, enforced by a partial unique constraint, so the database
itself refuses a second confirmed result whatever the application does.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from judging import rules
from tournament.models import Court, Match


class RecordingSheet(models.Model):
    JOKER_CHOICES = [
        (rules.JokerHolder.A.value, _("Team A")),
        (rules.JokerHolder.B.value, _("Team B")),
        (rules.JokerHolder.REFEREE.value, _("Referee")),
    ]
    SIDE_CHOICES = [(rules.Side.A.value, _("Team A")), (rules.Side.B.value, _("Team B"))]
    DECIDED_BY_CHOICES = [
        (rules.DecidedBy.CARDS.value, _("cards")),
        (rules.DecidedBy.JOKER.value, _("「り」")),
        (rules.DecidedBy.RPS.value, _("じゃんけん")),
        (rules.DecidedBy.WALKOVER.value, _("walkover")),
    ]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sheets", verbose_name=_("game"))
    version = models.PositiveIntegerField(_("version"))
    cards_a = models.PositiveSmallIntegerField(_("cards of team A"))
    cards_b = models.PositiveSmallIntegerField(_("cards of team B"))
    referee_cards = models.PositiveSmallIntegerField(_("cards held by the referee"), default=0)
    joker_holder = models.CharField(_("「り」 holder"), max_length=10, choices=JOKER_CHOICES, blank=True)
    rps_winner = models.CharField(_("じゃんけん winner"), max_length=1, choices=SIDE_CHOICES, blank=True)
    rps_used = models.PositiveSmallIntegerField(_("じゃんけん decisions during the game"), default=0)
    winner_side = models.CharField(_("winner"), max_length=1, choices=SIDE_CHOICES)
    decided_by = models.CharField(_("decided by"), max_length=10, choices=DECIDED_BY_CHOICES)
    is_walkover = models.BooleanField(_("walkover"), default=False)
    # Who and how: a court link (no account) or a logged-in user.
    court = models.ForeignKey(
        Court, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("court link")
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    device = models.CharField(_("device"), max_length=200, blank=True)
    is_confirmed = models.BooleanField(_("confirmed"), default=False)

    class Meta:
        ordering = ["match", "-version"]
        verbose_name = _("recording sheet")
        verbose_name_plural = _("recording sheets")
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="sheet_version_unique"),
            models.UniqueConstraint(fields=["match"], condition=Q(is_confirmed=True), name="one_confirmed_sheet_per_match"),
            models.CheckConstraint(condition=Q(winner_side__in=["A", "B"]), name="sheet_winner_is_a_side"),
            models.CheckConstraint(condition=Q(rps_used__lte=rules.MAX_RPS_DECISIONS), name="sheet_rps_used_at_most_3"),
        ]

    def __str__(self):
        return _("%(match)s, version %(version)s") % {"match": self.match, "version": self.version}

    @property
    def values(self):
        return rules.SheetValues(
            cards_a=self.cards_a,
            cards_b=self.cards_b,
            referee_cards=self.referee_cards,
            joker_holder=rules.JokerHolder(self.joker_holder) if self.joker_holder else None,
            rps_winner=rules.Side(self.rps_winner) if self.rps_winner else None,
            rps_used=self.rps_used,
        )

    @property
    def source(self):
        if self.submitted_by_id:
            return str(self.submitted_by)
        if self.court_id:
            return str(self.court)
        return "—"
