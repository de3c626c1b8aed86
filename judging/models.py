"""The referee's side: recording sheets (記録用紙), one row per version.

Every submission or correction is a new version; earlier versions are kept. At most one
version of a game is confirmed, enforced by a partial unique constraint, so the database
itself refuses a second confirmed result whatever the application does.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from judging.engine import rules
from tournament.models import Court, Match, Player


class RecordingSheetQuerySet(models.QuerySet):
    """Recording sheets by what counts, each filter spelled once (issue 30, item 2, beside
    ``tournament.models.MatchQuerySet``). ``RecordingSheet.objects`` and ``match.sheets`` have
    these methods and they chain (``RecordingSheet.objects.confirmed().group_stage()``). Only
    a confirmed version counts (docs/rules/hitachi-karuta.md, "The recording sheet")."""

    def confirmed(self):
        """The confirmed versions (at most one per game, the database holds it)."""
        return self.filter(is_confirmed=True)

    def group_stage(self):
        """The sheets of group-stage games."""
        return self.filter(match__stage=Match.Stage.GROUP)

    def not_void(self):
        """The sheets of games that are not void."""
        return self.exclude(match__status=Match.Status.VOID)


class PlayerCardsQuerySet(models.QuerySet):
    """Players' cards by their recording sheet (``RecordingSheetQuerySet`` through ``sheet``)."""

    def confirmed(self):
        """The counts of confirmed versions: the only ones that reach a table or a prize."""
        return self.filter(sheet__is_confirmed=True)

    def group_stage(self):
        """The counts of group-stage games (the individual table's games)."""
        return self.filter(sheet__match__stage=Match.Stage.GROUP)


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
        (rules.DecidedBy.RPS.value, _("rock-paper-scissors")),
        (rules.DecidedBy.WALKOVER.value, _("walkover")),
    ]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sheets", verbose_name=_("game"))
    version = models.PositiveIntegerField(_("version"))
    cards_a = models.PositiveSmallIntegerField(_("cards of team A"))
    cards_b = models.PositiveSmallIntegerField(_("cards of team B"))
    referee_cards = models.PositiveSmallIntegerField(_("cards held by the referee"), default=0)
    joker_holder = models.CharField(_("「り」 holder"), max_length=10, choices=JOKER_CHOICES, blank=True)
    rps_winner = models.CharField(_("rock-paper-scissors winner"), max_length=1, choices=SIDE_CHOICES, blank=True)
    rps_used = models.PositiveSmallIntegerField(_("rock-paper-scissors decisions during the game"), default=0)
    winner_side = models.CharField(_("winner"), max_length=1, choices=SIDE_CHOICES)
    decided_by = models.CharField(_("decided by"), max_length=10, choices=DECIDED_BY_CHOICES)
    is_walkover = models.BooleanField(_("walkover"), default=False)
    # Who and how: a court link (no account) or a logged-in user.
    court = models.ForeignKey(
        Court, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("court link")
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("submitted by"),
    )
    submitted_at = models.DateTimeField(_("submitted at"), auto_now_add=True)
    ip_address = models.GenericIPAddressField(_("IP address"), null=True, blank=True)
    device = models.CharField(_("device"), max_length=200, blank=True)
    # A random key the form carries: the same form posted twice (a retry after a lost
    # response) finds its version instead of creating a second one.
    submission_key = models.CharField(max_length=64, blank=True, editable=False)
    restored_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("restored from")
    )
    is_confirmed = models.BooleanField(_("confirmed"), default=False)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("confirmed by"),
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    # The leaders' sign-off (issue 16, item 4): each team's leader confirms the counts on the
    # tablet, as they sign the paper sheet; optionally with a name.
    signed_a_at = models.DateTimeField(_("signed by the leader of team A at"), null=True, blank=True)
    signed_a_name = models.CharField(_("name of the leader of team A"), max_length=60, blank=True)
    signed_b_at = models.DateTimeField(_("signed by the leader of team B at"), null=True, blank=True)
    signed_b_name = models.CharField(_("name of the leader of team B"), max_length=60, blank=True)
    after_sign_off = models.BooleanField(
        _("correction after the leaders' sign-off"),
        default=False,
        help_text=_("The version it replaces was signed by a leader: a recorder must confirm it."),
    )
    # A photo of the paper sheet (issue 16, item 5): a JPEG under DATA_DIR/sheet-photos/,
    # the path relative to that folder; served only to the event's organisers and recorders.
    photo = models.CharField(_("photo of the paper sheet"), max_length=200, blank=True, editable=False)
    photo_at = models.DateTimeField(_("photo taken at"), null=True, blank=True)

    objects = RecordingSheetQuerySet.as_manager()

    class Meta:
        ordering = ["match", "-version"]
        verbose_name = _("recording sheet")
        verbose_name_plural = _("recording sheets")
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="sheet_version_unique"),
            models.UniqueConstraint(
                fields=["match"], condition=Q(is_confirmed=True), name="one_confirmed_sheet_per_match"
            ),
            models.UniqueConstraint(
                fields=["match", "submission_key"], condition=~Q(submission_key=""), name="one_version_per_submission"
            ),
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

    def differences(self, values):
        """The fields where ``values`` (rules.SheetValues) differ from this sheet: [(field, ours, theirs)]."""
        mine = self.values
        return [
            (field, getattr(mine, field), getattr(values, field))
            for field in ("cards_a", "cards_b", "referee_cards", "joker_holder", "rps_winner", "rps_used")
            if getattr(mine, field) != getattr(values, field)
        ]

    @property
    def signed_by_any(self):
        """Whether at least one leader signed this version."""
        return self.signed_a_at is not None or self.signed_b_at is not None

    @property
    def signed_by_both(self):
        return self.signed_a_at is not None and self.signed_b_at is not None

    @property
    def source(self):
        if self.submitted_by_id:
            return str(self.submitted_by)
        if self.court_id:
            return str(self.court)
        return "—"


class HistoryEntry(models.Model):
    """The history of a game's recording sheet: who did what, when. Never edited."""

    class Action(models.TextChoices):
        SUBMITTED = "submitted", _("submitted")
        CONFIRMED = "confirmed", _("confirmed")
        SELF_CONFIRMED = "self_confirmed", _("confirmed by one person (own entry)")
        AUTO_CONFIRMED = "auto_confirmed", _("confirmed automatically")
        REJECTED = "rejected", _("rejected")
        RESTORED = "restored", _("earlier version restored")
        VOIDED = "voided", _("game voided")
        DISPUTE = "dispute", _("dispute logged")
        RETYPE_MISMATCH = "retype_mismatch", _("re-typed sheet did not match")
        REOPENED = "reopened", _("game reopened")
        SIGNED = "signed", _("signed by a leader")
        PHOTO = "photo", _("photo of the paper sheet attached")
        STARTED = "started", _("game started")
        TEAMS_CHANGED = "teams_changed", _("teams changed")
        KEPT = "kept", _("result kept after a change")
        REPLAYED = "replayed", _("voided to be replayed")
        REFUSED = "refused", _("save refused (its values are kept)")
        KEEP_UNDONE = "keep_undone", _("kept result undone")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="history", verbose_name=_("game"))
    sheet = models.ForeignKey(RecordingSheet, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    court = models.ForeignKey(Court, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    at = models.DateTimeField(_("when"), auto_now_add=True)
    note = models.CharField(_("note"), max_length=300, blank=True)
    # A refused save's values (``REFUSED``: another tablet saved first, a stale page, a refused
    # correction), so the desk sees them and may adopt them (issue 28, item 7): the sheet's
    # fields, ``is_walkover``, ``player_cards`` ({player id: cards}), ``base_version``.
    values = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["match", "at", "pk"]
        verbose_name = _("history entry")
        verbose_name_plural = _("history")

    def __str__(self):
        return f"{self.match} {self.get_action_display()} {self.at:%H:%M}"

    @property
    def who(self):
        if self.user_id:
            return str(self.user)
        if self.court_id:
            return str(self.court)
        return _("system")


class Dispute(models.Model):
    """A disputed card settled with the touch-judgment matrix (判定表) during a game."""

    STATE_CHOICES = [
        (rules.TouchState.BOTH.value, _("touched both the correct and a wrong card")),
        (rules.TouchState.CORRECT_ONLY.value, _("touched the correct card only")),
        (rules.TouchState.WRONG_ONLY.value, _("touched a wrong card only")),
        (rules.TouchState.NEITHER.value, _("touched neither")),
    ]
    VERDICT_CHOICES = [
        (rules.Verdict.A.value, _("Team A")),
        (rules.Verdict.B.value, _("Team B")),
        (rules.Verdict.RPS.value, _("rock-paper-scissors")),
        (rules.Verdict.FIRST_TO_TOUCH.value, _("first team to touch the correct card")),
    ]
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes", verbose_name=_("game"))
    SETTLEMENT_CHOICES = [
        (rules.Settlement.UNDERNEATH.value, _("hand underneath")),
        (rules.Settlement.TABLE.value, _("the table")),
        (rules.Settlement.RPS.value, _("rock-paper-scissors")),
        (rules.Settlement.FIRST_TO_TOUCH.value, _("first team to touch the correct card")),
        (rules.Settlement.REFEREE.value, _("referee's decision (rock-paper-scissors limit reached)")),
    ]
    underneath = models.CharField(_("hand underneath"), max_length=1, blank=True, choices=RecordingSheet.SIDE_CHOICES)
    # Blank when a hand underneath decided (step one): the table was not used.
    state_a = models.CharField(_("team A"), max_length=20, blank=True, choices=STATE_CHOICES)
    state_b = models.CharField(_("team B"), max_length=20, blank=True, choices=STATE_CHOICES)
    verdict = models.CharField(_("verdict"), max_length=20, choices=VERDICT_CHOICES)
    settlement = models.CharField(_("settled by"), max_length=20, blank=True, choices=SETTLEMENT_CHOICES)
    taken_by = models.CharField(_("card taken by"), max_length=1, blank=True, choices=RecordingSheet.SIDE_CHOICES)
    rps_winner = models.CharField(
        _("rock-paper-scissors winner"), max_length=1, blank=True, choices=RecordingSheet.SIDE_CHOICES
    )
    court = models.ForeignKey(Court, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    submission_key = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["match", "created_at", "pk"]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")
        constraints = [
            models.CheckConstraint(
                condition=Q(verdict="rps") | Q(rps_winner=""), name="dispute_rps_winner_only_for_rps"
            ),
            models.UniqueConstraint(
                fields=["match", "submission_key"], condition=~Q(submission_key=""), name="one_dispute_per_submission"
            ),
        ]

    def __str__(self):
        return f"{self.match}: {self.state_a} / {self.state_b} → {self.verdict}"


class PlayerCards(models.Model):
    """One player's cards in one version of a recording sheet (individual counts, optional
    per event). A correction is a new version with its own counts; only the confirmed
    version's counts reach the individual table."""

    sheet = models.ForeignKey(
        RecordingSheet, on_delete=models.CASCADE, related_name="player_cards", verbose_name=_("recording sheet")
    )
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    cards = models.PositiveSmallIntegerField(_("cards"))

    objects = PlayerCardsQuerySet.as_manager()

    class Meta:
        ordering = ["sheet", "player__team", "player__order", "player__pk"]
        verbose_name = _("player's cards")
        verbose_name_plural = _("players' cards")
        constraints = [models.UniqueConstraint(fields=["sheet", "player"], name="one_count_per_player_and_version")]

    def __str__(self):
        return f"{self.sheet}: {self.player} {self.cards}"
