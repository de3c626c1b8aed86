"""The people of the day (issue 32, docs/people.md): who may work the reception desk (受付) and
call teams (放送係), which teams and players have arrived, which games were called to their court,
the referees and their games, and the duty roster (係分担表).

Models hold the data and what the database can enforce: one reception state per team, one
presence per player, one referee per game, a call numbered once per game. The writes are in
``people.services``.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import Event, Match, Player, Team

NAME_MAX = 60
FURIGANA_MAX = 80
CLUB_MAX = 80


class DaySettings(models.Model):
    """An event's people of the day: the accounts of the reception desk and the announcer, and
    whether the court tablet asks for a roll call (点呼) before 開始."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="day_settings")
    receptionists = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="reception_events", verbose_name=_("reception desk")
    )
    announcers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="announcer_events", verbose_name=_("announcers")
    )
    roll_call = models.BooleanField(
        _("roll call on the court tablet"),
        default=False,
        help_text=_("Before the start the tablet lists both teams' players to tick present."),
    )
    referee_rest = models.PositiveSmallIntegerField(
        _("referee rests after this many games in a row"), default=2, help_text=_("0: no rest.")
    )

    class Meta:
        verbose_name = _("people of the day")
        verbose_name_plural = _("people of the day")
        constraints = [models.CheckConstraint(condition=Q(referee_rest__lte=20), name="day_referee_rest_limit")]

    def __str__(self):
        return str(self.event)


class TeamCheckin(models.Model):
    """One team's reception state: one row per team (the unique key), so two receptionists
    ticking at once write the same row one after the other (``select_for_update``)."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="checkin")
    received = models.BooleanField(_("received at reception"), default=False)
    received_at = models.DateTimeField(null=True, blank=True)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("team reception")
        verbose_name_plural = _("team receptions")

    def __str__(self):
        return f"{self.team}: {self.received}"


class PlayerPresence(models.Model):
    """A player marked at reception or at the roll call: present or absent (no row: not marked)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="presence")
    present = models.BooleanField(_("present"), default=True)

    class Meta:
        verbose_name = _("player's presence")
        verbose_name_plural = _("players' presence")

    def __str__(self):
        return f"{self.player}: {self.present}"


class CheckinLog(models.Model):
    """One line of the reception's log: what was ticked or undone, by whom, when and where."""

    class Action(models.TextChoices):
        RECEIVED = "received", _("received")
        UNDONE = "undone", _("reception undone")
        PRESENT = "present", _("present")
        ABSENT = "absent", _("absent")
        CALLED = "called", _("called to the court")
        ROLL_CALL = "roll_call", _("roll call")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    action = models.CharField(max_length=12, choices=Action.choices)
    source = models.CharField(max_length=12, blank=True)  # "desk", "card", "command", "tablet"
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["event", "at"])]
        verbose_name = _("reception log line")
        verbose_name_plural = _("reception log lines")

    def __str__(self):
        return f"{self.at:%H:%M} {self.action}"


class MatchCall(models.Model):
    """A call of a game's teams to its court (呼び出し): the first, the second …; the unique
    (game, number) makes a double tap one call."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="calls")
    number = models.PositiveSmallIntegerField()
    called_at = models.DateTimeField()
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    text = models.CharField(max_length=200)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("call to a court")
        verbose_name_plural = _("calls to a court")
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="one_call_number_per_match")]

    def __str__(self):
        return self.text


class Referee(models.Model):
    """A referee of the event (name, furigana, club): never shown on a public page."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="referees")
    name = models.CharField(_("name"), max_length=NAME_MAX)
    furigana = models.CharField(_("furigana"), max_length=FURIGANA_MAX, blank=True)
    club = models.CharField(
        _("club"), max_length=CLUB_MAX, blank=True, help_text=_("Never assigned to a game of a team of this club.")
    )

    class Meta:
        ordering = ["event", "furigana", "name", "pk"]
        verbose_name = _("referee")
        verbose_name_plural = _("referees")
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="referee_name_unique_in_event")]

    def __str__(self):
        return self.name


class RefereeAssignment(models.Model):
    """The referee of one game (one per game)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="referee_assignment")
    referee = models.ForeignKey(Referee, on_delete=models.CASCADE, related_name="assignments")
    by_hand = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("referee's game")
        verbose_name_plural = _("referees' games")

    def __str__(self):
        return f"{self.match}: {self.referee}"


class Duty(models.Model):
    """One line of the duty roster (係分担表): a role in a time block and who holds it."""

    class Role(models.TextChoices):
        RECEPTION = "reception", _("reception desk")
        RECORDING = "recording", _("recording desk")
        REFEREE = "referee", _("refereeing")
        READER = "reader", _("card reader")
        ANNOUNCER = "announcer", _("announcing")
        CERTIFICATES = "certificates", _("certificates desk")
        VENUE = "venue", _("venue staff")
        ORGANISER = "organiser", _("headquarters")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="duties")
    role = models.CharField(_("role"), max_length=12, choices=Role.choices)
    block = models.PositiveSmallIntegerField(_("time block"))
    name = models.CharField(_("name"), max_length=NAME_MAX)

    class Meta:
        ordering = ["event", "block", "role", "pk"]
        verbose_name = _("duty")
        verbose_name_plural = _("duties")
        constraints = [
            models.UniqueConstraint(fields=["event", "role", "block", "name"], name="duty_unique"),
            models.CheckConstraint(condition=Q(block__lte=20), name="duty_block_limit"),
        ]

    def __str__(self):
        return f"{self.get_role_display()} {self.block}: {self.name}"


class RollCall(models.Model):
    """The roll call (点呼) of one game on the court tablet before 開始: which players were
    absent and which substitutes play (player ids), shown to the desk."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="roll_call")
    absent = models.JSONField(default=list)
    substitutes = models.JSONField(default=list)
    at = models.DateTimeField()

    class Meta:
        verbose_name = _("roll call")
        verbose_name_plural = _("roll calls")

    def __str__(self):
        return f"{self.match}: {self.at:%H:%M}"


class CardPrint(models.Model):
    """A recorded print of the team cards: each team's games as printed (``snapshot``: team id ->
    [[No., time, court, opponent], …]), so a reprint shows what changed since."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    printed_at = models.DateTimeField()
    snapshot = models.JSONField(default=dict)

    class Meta:
        ordering = ["-printed_at", "-pk"]
        verbose_name = _("print of the team cards")
        verbose_name_plural = _("prints of the team cards")

    def __str__(self):
        return f"{self.event}: {self.printed_at:%H:%M}"
