"""The data of a tournament day: events, divisions, courts, teams, groups and games.

Models hold data and the invariants the database can enforce (unique normalised team
names, unique match numbers, one leader per team). Work that changes several rows lives
in ``tournament/services.py``; standings are never stored, they are computed from the
confirmed recording sheets (``tournament/standings.py``).
"""

import datetime
import secrets
import string

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Mod
from django.db.models.lookups import Exact
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext

from judging.engine import rules
from tournament.engine import limits, names, standings

CRITERION_LABELS = {
    standings.WINS: _("wins"),
    standings.CARD_DIFF: _("card difference"),
    standings.CARDS_TAKEN: _("cards taken"),
    standings.HEAD_TO_HEAD: _("head-to-head"),
    standings.LOT: _("lot / play-off"),
}


def bounds(limit):
    """Validators of a ``(smallest, largest)`` pair of ``tournament.engine.limits``."""
    return [MinValueValidator(limit[0]), MaxValueValidator(limit[1])]


def between(name, limit):
    """``Q``: the field ``name`` within a ``(smallest, largest)`` pair (a check constraint)."""
    return Q(**{f"{name}__gte": limit[0], f"{name}__lte": limit[1]})


# An edit form carries the version it was opened with; a save from an older version is refused
# (tournament.services.versions, issue 18 item 8).
def version_field():
    return models.PositiveIntegerField(default=1, editable=False)


def new_court_token():
    """A court link's secret: 32 URL-safe characters, 192 bits of randomness."""
    return secrets.token_urlsafe(24)


class Event(models.Model):
    class Visibility(models.TextChoices):
        """Who sees the event's public pages and its API documents (issue 27): a draft only its
        organisers and recorders (anyone else gets 404), a public event everyone, on the public
        home page; an archived event everyone too, listed under the past tournaments."""

        DRAFT = "draft", _("draft: organisers and recorders only")
        PUBLIC = "public", _("public: on the public home page")
        ARCHIVED = "archived", _("archived: listed under past tournaments")

    slug = models.SlugField(_("short name (URL)"), max_length=40, unique=True)
    name = models.CharField(_("tournament name"), max_length=120)
    edition = models.PositiveSmallIntegerField(
        _("edition number"), null=True, blank=True, validators=bounds(limits.EDITION)
    )
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    start_time = models.TimeField(_("start time"), default=datetime.time(9, 30))
    game_minutes = models.PositiveSmallIntegerField(
        _("game length (minutes)"), default=15, validators=bounds(limits.GAME_MINUTES)
    )
    changeover_minutes = models.PositiveSmallIntegerField(
        _("changeover (minutes)"), default=5, validators=bounds(limits.CHANGEOVER_MINUTES)
    )
    card_total = models.PositiveSmallIntegerField(
        _("cards in play"), default=rules.CARD_TOTAL, validators=bounds(limits.CARD_TOTAL)
    )
    lunch_start = models.TimeField(_("lunch break from"), null=True, blank=True)
    lunch_end = models.TimeField(_("lunch break until"), null=True, blank=True)
    japanese_era = models.BooleanField(
        _("write dates in the Japanese era (Reiwa)"),
        default=False,
        help_text=_("「令和9年1月17日(日)」 instead of 「2027年1月17日(日)」 on the pages."),
    )
    publish_names = models.BooleanField(
        _("publish players' names in the final results"),
        default=False,
        help_text=_("Off: public pages and public files show team names and affiliations only."),
    )
    auto_confirm = models.BooleanField(
        _("confirm referees' entries at once"),
        default=False,
        help_text=_("For small events: a result entered at the court counts at once, without a recorder's check."),
    )
    leaders_sign_off = models.BooleanField(
        _("leaders sign off the counts on the tablet"),
        default=True,
        help_text=_(
            "After the referee saves, both leaders confirm the counts with a tap, as they sign the paper sheet; "
            "a change after that needs a recorder. Off: the tablet does not ask."
        ),
    )
    recorders_confirm_own = models.BooleanField(
        _("recorders may confirm their own corrections"),
        default=False,
        help_text=_(
            "For a desk of one person: a recorder confirms a correction they typed themselves, with a second "
            "step; the history records it as a one-person confirmation. Organisers always may."
        ),
    )
    individual_counts = models.BooleanField(
        _("individual card counts"),
        default=False,
        help_text=_(
            "The referee may enter each player's cards; the standings then offer an individual table "
            "(most cards over the group stage) for individual prizes."
        ),
    )
    visibility = models.CharField(
        _("public pages"),
        max_length=10,
        choices=Visibility.choices,
        default=Visibility.PUBLIC,
        help_text=_(
            "Draft: the public pages, hall screens and API answer “not found” to everyone but the organisers and "
            "recorders. Court, club and reader links work in every state."
        ),
    )
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_events", verbose_name=_("organisers")
    )
    recorders = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="recorded_events", verbose_name=_("recorders")
    )
    created_at = models.DateTimeField(auto_now_add=True)
    version = version_field()

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(condition=Q(card_total__gte=2), name="event_card_total_positive"),
            models.CheckConstraint(condition=Q(game_minutes__gte=1), name="event_game_minutes_positive"),
            # The limits of tournament.engine.limits (issue 18, item 5).
            models.CheckConstraint(
                condition=between("card_total", limits.CARD_TOTAL) & Exact(Mod("card_total", 2), 0),
                name="event_card_total_even_in_limits",
            ),
            models.CheckConstraint(
                condition=between("game_minutes", limits.GAME_MINUTES), name="event_game_minutes_limits"
            ),
            models.CheckConstraint(
                condition=between("changeover_minutes", limits.CHANGEOVER_MINUTES), name="event_changeover_limits"
            ),
            models.CheckConstraint(
                condition=Q(date__gte=limits.DATE_FLOOR, date__lte=limits.DATE_CEILING), name="event_date_limits"
            ),
            models.CheckConstraint(
                condition=Q(edition__isnull=True) | between("edition", limits.EDITION), name="event_edition_limits"
            ),
        ]

    def __str__(self):
        return self.title

    def get_absolute_url(self):
        return reverse("tournament:event_detail", args=[self.slug])

    @property
    def title(self):
        if self.edition:
            return _("No. %(edition)s %(name)s") % {"edition": self.edition, "name": self.name}
        return self.name

    def is_organiser(self, user):
        if not user.is_authenticated:
            return False
        return user.is_superuser or self.organisers.filter(pk=user.pk).exists()

    @property
    def is_draft(self):
        return self.visibility == self.Visibility.DRAFT

    def is_visible_to(self, user):
        """Whether ``user`` may open the event's public pages: everyone unless it is a draft;
        a draft only its organisers, recorders and superusers (issue 27)."""
        return not self.is_draft or self.is_recorder(user)

    def is_recorder(self, user):
        """Recorders (記録係) check results; organisers may do all a recorder does."""
        if not user.is_authenticated:
            return False
        return self.is_organiser(user) or self.recorders.filter(pk=user.pk).exists()


class Court(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="courts", verbose_name=_("tournament"))
    name = models.CharField(_("court name"), max_length=20)
    order = models.PositiveSmallIntegerField(_("order"), default=0, validators=bounds(limits.COURT_ORDER))
    token = models.CharField(_("court link secret"), max_length=64, unique=True, default=new_court_token)
    link_enabled = models.BooleanField(_("court link active"), default=True)
    # The secret of the link before the last renewal: a tablet still on it is told that its
    # link is no longer valid (and keeps what it typed) instead of a bare 404.
    previous_token = models.CharField(max_length=64, blank=True, default="", db_index=True, editable=False)
    start_time = models.TimeField(
        _("first game at"), null=True, blank=True, help_text=_("Empty: the tournament's start time.")
    )
    closed = models.BooleanField(_("closed"), default=False)
    # A delay on the day (services.day_changes.delay_court): the court takes no game before this
    # time (its first game not started then starts at it). Empty: no delay.
    delayed_until = models.TimeField(_("delayed until"), null=True, blank=True, editable=False)
    # What the court tablet's page last reported (judging.views.court.court_heard): when, and how
    # many results it holds that the server has not acknowledged yet.
    tablet_heard_at = models.DateTimeField(_("tablet last heard from"), null=True, blank=True, editable=False)
    tablet_unsent = models.PositiveSmallIntegerField(_("unsent results on the tablet"), default=0, editable=False)
    version = version_field()

    class Meta:
        ordering = ["event", "order", "pk"]
        verbose_name = _("court")
        verbose_name_plural = _("courts")
        constraints = [models.UniqueConstraint(fields=["event", "name"], name="court_name_unique_in_event")]

    def __str__(self):
        """「第1コート」 for a numbered court, 「Aコート」 otherwise (issue 17: never 「第Aコート」);
        a name that already says コート / court is printed as typed."""
        name = self.name.strip()
        if name.endswith("コート") or name.lower().startswith("court"):
            return name
        if name.isdecimal():
            return pgettext("numbered court", "Court %(number)s") % {"number": name}
        return _("Court %(name)s") % {"name": name}

    def get_link_path(self):
        return reverse("judging:court_home", args=[self.token])

    def renew_token(self):
        """Give the court a new secret link; the old link stops working at once (it is kept as
        ``previous_token`` so a tablet still on it is told what to do)."""
        self.previous_token = self.token
        self.token = new_court_token()
        self.link_enabled = True
        self.save(update_fields=["token", "previous_token", "link_enabled"])


class Division(models.Model):
    WALKOVER_CHOICES = [
        ("count", _("count as a 28–0 win in the card criteria")),
        ("exclude", _("leave out of the card criteria")),
    ]
    WITHDRAWAL_CHOICES = [
        ("annul", _("annul all the team's games")),
        ("walkover", _("keep played games, score the rest as walkovers")),
    ]
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="divisions", verbose_name=_("tournament"))
    name = models.CharField(_("division name"), max_length=60)
    grade_band = models.CharField(_("grades"), max_length=40, blank=True)
    order = models.PositiveSmallIntegerField(_("order"), default=0, validators=bounds(limits.DIVISION_ORDER))
    courts = models.ManyToManyField(Court, blank=True, related_name="divisions", verbose_name=_("courts"))
    # The ranking order as data: criterion codes of tournament.engine.standings, best first.
    criteria_codes = models.CharField(
        _("ranking order"), max_length=100, default=",".join(standings.PRESET_JAPANESE), editable=False
    )
    walkover_cards = models.CharField(
        _("walkovers in card criteria"), max_length=10, choices=WALKOVER_CHOICES, default="count"
    )
    LAYOUT_CHOICES = [
        ("one_group_per_court", _("one group per court (official format)")),
        ("shared", _("groups share the division's courts (finish earliest)")),
        ("several_groups_per_court", _("several groups per court, one after the other")),
    ]
    layout = models.CharField(
        _("schedule layout"), max_length=30, choices=LAYOUT_CHOICES, default="one_group_per_court"
    )
    rest_rule = models.BooleanField(
        _("no team plays two games in a row"),
        default=False,
        help_text=_("Costs slots on small groups; the schedule page shows how many."),
    )
    withdrawal = models.CharField(
        _("when a team withdraws"), max_length=10, choices=WITHDRAWAL_CHOICES, default="annul"
    )
    qualifiers_per_group = models.PositiveSmallIntegerField(_("qualifiers per group"), default=1)
    best_runners_up = models.PositiveSmallIntegerField(
        _("best-placed runners-up who also qualify"),
        default=0,
        validators=bounds(limits.BEST_RUNNERS_UP),
        help_text=_("Compared across groups by the same criteria, per game played (groups may differ in size)."),
    )
    third_place_game = models.BooleanField(
        _("third-place game"), default=True, help_text=_("Off: both semifinal losers share third place.")
    )
    games_per_team = models.PositiveSmallIntegerField(
        _("games per team in a group"),
        null=True,
        blank=True,
        validators=bounds(limits.GAMES_PER_TEAM),
        help_text=_("Empty: every team plays every other team of its group (round robin)."),
    )
    AFTER_GROUPS_CHOICES = [
        ("knockout", _("knockout (semifinal and final)")),
        ("placement", _("placement games (1st v 1st, 2nd v 2nd …)")),
        ("both", _("knockout for the qualifiers, placement games for the others")),
        ("none", _("nothing: the group standings are the result")),
    ]
    after_groups = models.CharField(
        _("after the groups"), max_length=10, choices=AFTER_GROUPS_CHOICES, default="knockout"
    )
    placement_pairs = models.CharField(
        _("group pairs for placement games"),
        max_length=200,
        blank=True,
        help_text=_("For example “A-B, C-D”. Empty: groups in order, two by two."),
    )
    version = version_field()

    class Meta:
        ordering = ["event", "order", "pk"]
        verbose_name = _("division")
        verbose_name_plural = _("divisions")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="division_name_unique_in_event"),
            models.CheckConstraint(
                condition=Q(qualifiers_per_group__gte=1) & Q(qualifiers_per_group__lte=4),
                name="division_qualifiers_1_to_4",
            ),
            models.CheckConstraint(
                condition=Q(games_per_team__isnull=True) | between("games_per_team", limits.GAMES_PER_TEAM),
                name="division_games_per_team_limits",
            ),
            models.CheckConstraint(
                condition=between("best_runners_up", limits.BEST_RUNNERS_UP), name="division_best_runners_up_limits"
            ),
        ]

    def __str__(self):
        return self.name

    @property
    def criteria(self):
        return tuple(code for code in self.criteria_codes.split(",") if code)

    @property
    def criteria_text(self):
        return " → ".join(str(CRITERION_LABELS.get(code, code)) for code in self.criteria)

    @property
    def preset(self):
        """The name of the preset the criteria follow, or "custom"."""
        return next((name for name, codes in standings.PRESETS.items() if codes == self.criteria), "custom")


class Group(models.Model):
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="groups", verbose_name=_("division"))
    name = models.CharField(_("group name"), max_length=20)
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    court = models.ForeignKey(
        Court, on_delete=models.SET_NULL, null=True, blank=True, related_name="groups", verbose_name=_("court")
    )

    class Meta:
        ordering = ["division", "order", "pk"]
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        constraints = [models.UniqueConstraint(fields=["division", "name"], name="group_name_unique_in_division")]

    def __str__(self):
        return _("Group %(name)s") % {"name": self.name}


def group_letter(index):
    """0 -> A, 25 -> Z, 26 -> AA: group names as printed."""
    letters = string.ascii_uppercase
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = letters[rest] + name
    return name


class Team(models.Model):
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="teams", verbose_name=_("division"))
    name = models.CharField(_("team name"), max_length=names.TEAM_NAME_MAX)
    name_key = models.CharField(max_length=60, editable=False)
    affiliation = models.CharField(
        _("affiliation (school or children's association)"), max_length=names.AFFILIATION_MAX, blank=True
    )
    chaperone = models.CharField(_("chaperone"), max_length=names.CHAPERONE_MAX, blank=True)
    seed = models.PositiveSmallIntegerField(
        _("seed"),
        null=True,
        blank=True,
        validators=bounds(limits.SEED),
        help_text=_("Optional: 1 is the strongest. Seeds are spread over the groups."),
    )
    entry_number = models.PositiveIntegerField(_("entry no."), default=0)
    group = models.ForeignKey(
        Group, on_delete=models.SET_NULL, null=True, blank=True, related_name="teams", verbose_name=_("group")
    )
    group_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    # Withdrew once its group was complete: it keeps its group results whatever the division's
    # withdrawal setting (docs/rules/stages.md, "Withdrawals").
    withdrawn_after_groups = models.BooleanField(_("withdrew after its group was complete"), default=False)
    # Withdrew when it already held a side of a game after the groups: it keeps its slots, and
    # its games there are walkovers for its opponents (docs/rules/stages.md, "Withdrawals").
    withdrawn_keeps_slots = models.BooleanField(
        _("withdrew after being drawn into the games after the groups"), default=False
    )
    version = version_field()

    class Meta:
        ordering = ["division", "entry_number", "pk"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.CheckConstraint(
                condition=Q(seed__isnull=True) | between("seed", limits.SEED), name="team_seed_limits"
            ),
            models.UniqueConstraint(fields=["division", "name_key"], name="team_name_unique_in_division"),
        ]

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        # The display keeps the organiser's spelling; the key compares (issue 18, item 7).
        self.name = names.normalize_team_name(self.name)
        self.affiliation = names.clean_display(self.affiliation)
        self.chaperone = names.clean_display(self.chaperone)
        self.name_key = names.name_key(self.name)
        super().save(*args, **kwargs)


class Player(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="players", verbose_name=_("team"))
    name = models.CharField(_("name"), max_length=names.PLAYER_NAME_MAX)
    furigana = models.CharField(_("furigana"), max_length=names.FURIGANA_MAX, blank=True)
    grade = models.CharField(_("grade"), max_length=10, blank=True)
    is_leader = models.BooleanField(_("leader"), default=False)
    is_substitute = models.BooleanField(_("substitute"), default=False)
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        ordering = ["team", "order", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(fields=["team"], condition=Q(is_leader=True), name="one_leader_per_team"),
            models.CheckConstraint(
                condition=~(Q(is_leader=True) & Q(is_substitute=True)), name="leader_is_not_substitute"
            ),
        ]

    def __str__(self):
        return self.name


class MatchQuerySet(models.QuerySet):
    """The games by stage and by status, each filter spelled once (issue 30, item 2; the model
    is djangoproject.com's ``EntryQuerySet.published()``). ``Match.objects``, ``event.matches``,
    ``division.matches``, ``court.matches`` and ``group.matches`` all have these methods; each
    returns a ``MatchQuerySet``, so they chain (``event.matches.group_stage().open()``).

    The status methods take the named sets of ``Match.Status`` (``OPEN``, ``WAITING``,
    ``PLAYED``, ``DONE``), the stage methods those of ``Match.Stage`` (``AFTER_GROUPS``,
    ``BRACKET``). The stages are those of docs/rules/stages.md; a result counts once confirmed
    (docs/rules/hitachi-karuta.md, "The recording sheet")."""

    def group_stage(self):
        """The group stage's games (予選リーグ)."""
        return self.filter(stage=Match.Stage.GROUP)

    def after_groups(self):
        """Every game after the groups: knockout, third-place and placement games."""
        return self.exclude(stage=Match.Stage.GROUP)

    def bracket(self):
        """The knockout's games (its rounds, the third-place game and the final), without the
        group stage and the placement games."""
        return self.exclude(stage__in=[Match.Stage.GROUP, Match.Stage.PLACEMENT])

    def placement(self):
        """The placement games (1st v 1st, 2nd v 2nd …)."""
        return self.filter(stage=Match.Stage.PLACEMENT)

    def open(self):
        """Games without a result that counts and not void: ``Match.Status.OPEN``."""
        return self.filter(status__in=Match.Status.OPEN)

    def waiting(self):
        """Games with a result entered that a recorder has not confirmed (submitted or sent
        back): ``Match.Status.WAITING``, the desk's queue."""
        return self.filter(status__in=Match.Status.WAITING)

    def played(self):
        """Games with a result that counts, played or a walkover: ``Match.Status.PLAYED``."""
        return self.filter(status__in=Match.Status.PLAYED)

    def done(self):
        """Games nothing more happens to: a result that counts, or void (``Match.Status.DONE``)."""
        return self.filter(status__in=Match.Status.DONE)

    def not_done(self):
        """The games ``done()`` leaves out (written as its exclusion)."""
        return self.exclude(status__in=Match.Status.DONE)

    def not_void(self):
        """Every game but the void ones."""
        return self.exclude(status=Match.Status.VOID)

    def void(self):
        """The void games."""
        return self.filter(status=Match.Status.VOID)

    def frozen(self):
        """Games whose teams no longer follow their references: started, or a result entered
        (any status but scheduled); the query of ``tournament.reports.stages.is_frozen``."""
        return self.filter(Q(actual_start__isnull=False) | ~Q(status=Match.Status.SCHEDULED))


class Match(models.Model):
    """A game: two teams (known once their slots are decided) on a court and slot, its stage
    and its status.

    Filter games with ``Match.objects`` / ``event.matches`` (``MatchQuerySet``: ``group_stage()``,
    ``open()`` …) and test a status against the named sets, frozensets set on the choices
    classes: ``Match.Status.OPEN`` (scheduled, submitted, disputed), ``WAITING`` (submitted,
    disputed), ``AT_COURT`` (scheduled, disputed), ``PLAYED`` (confirmed, walkover), ``ENTERED``
    (waiting or played), ``DONE`` (played or void); ``Match.Stage.AFTER_GROUPS`` (every stage but
    the group stage) and ``BRACKET`` (the knockout's stages: neither group nor placement)."""

    class Stage(models.TextChoices):
        GROUP = "group", _("Group stage")
        ROUND_OF_16 = "round_of_16", _("Round of 16")
        QUARTERFINAL = "quarterfinal", _("Quarterfinal")
        SEMIFINAL = "semifinal", _("Semifinal")
        FINAL = "final", _("Final")
        THIRD_PLACE = "third_place", _("Third-place game")
        KNOCKOUT = "knockout", _("Knockout")
        PLACEMENT = "placement", _("Placement game")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        SUBMITTED = "submitted", _("Waiting for confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        WALKOVER = "walkover", _("Walkover")
        VOID = "void", _("Void")

    # The named sets of stages and statuses (issue 30, item 2). A TextChoices class makes a member
    # of every name its body assigns, so the sets are set on it just after, as plain frozensets:
    # ``Match.Stage.AFTER_GROUPS``, ``Match.Status.OPEN`` … are no choices, only names for sets
    # of choices. ``MatchQuerySet`` filters by them; code tests ``match.status in Match.Status.OPEN``.
    Stage.AFTER_GROUPS = frozenset(Stage) - {Stage.GROUP}
    Stage.BRACKET = frozenset(Stage) - {Stage.GROUP, Stage.PLACEMENT}
    # No result that counts yet, not void: the game is still to be played or decided.
    Status.OPEN = frozenset({Status.SCHEDULED, Status.SUBMITTED, Status.DISPUTED})
    # A result entered that waits for a recorder (submitted, or sent back to the court).
    Status.WAITING = frozenset({Status.SUBMITTED, Status.DISPUTED})
    # The court's turn: nothing entered yet, or the entry was sent back.
    Status.AT_COURT = frozenset({Status.SCHEDULED, Status.DISPUTED})
    # A result that counts: played and confirmed, or a walkover.
    Status.PLAYED = frozenset({Status.CONFIRMED, Status.WALKOVER})
    # A result entered, counted or waiting (every status but scheduled and void).
    Status.ENTERED = Status.WAITING | Status.PLAYED
    # Nothing more happens to the game: a result that counts, or void.
    Status.DONE = frozenset({Status.CONFIRMED, Status.WALKOVER, Status.VOID})

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="matches", verbose_name=_("tournament"))
    division = models.ForeignKey(Division, on_delete=models.CASCADE, related_name="matches", verbose_name=_("division"))
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, null=True, blank=True, related_name="matches", verbose_name=_("group")
    )
    stage = models.CharField(_("stage"), max_length=20, choices=Stage.choices, default=Stage.GROUP)
    round = models.PositiveSmallIntegerField(_("round"), default=0)
    bracket_position = models.PositiveSmallIntegerField(null=True, blank=True)
    match_number = models.PositiveIntegerField(_("match no."))
    court = models.ForeignKey(
        Court, on_delete=models.SET_NULL, null=True, blank=True, related_name="matches", verbose_name=_("court")
    )
    slot = models.PositiveSmallIntegerField(_("slot"), null=True, blank=True)
    start_at = models.DateTimeField(_("start"), null=True, blank=True)
    team_a = models.ForeignKey(
        Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("team A")
    )
    team_b = models.ForeignKey(
        Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("team B")
    )
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.SCHEDULED)
    actual_start = models.DateTimeField(_("started"), null=True, blank=True)
    actual_end = models.DateTimeField(_("ended"), null=True, blank=True)
    changed_at = models.DateTimeField(_("last moved"), null=True, blank=True)
    winner = models.ForeignKey(
        Team, on_delete=models.RESTRICT, null=True, blank=True, related_name="+", verbose_name=_("winner")
    )
    # Knockout: the game whose winner (or loser, for the third-place game) fills a side.
    feeds = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="fed_by", editable=False
    )
    feeds_side = models.CharField(max_length=1, blank=True, editable=False)
    loser_feeds = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="loser_fed_by", editable=False
    )
    loser_feeds_side = models.CharField(max_length=1, blank=True, editable=False)
    # Knockout and placement: where a side's team comes from when no earlier game feeds it, as a
    # reference of tournament.engine.slots ("group:<pk>:<place>", "best:<place>:<rank>").
    source_a = models.CharField(max_length=40, blank=True, editable=False)
    source_b = models.CharField(max_length=40, blank=True, editable=False)
    # The resolution ("<team a>,<team b>") the organiser chose to keep when a change reached
    # this game after it had started: it is no longer shown as out of date for that change.
    kept_teams = models.CharField(max_length=40, blank=True, editable=False)
    sheet_printed_at = models.DateTimeField(_("recording sheet printed"), null=True, blank=True, editable=False)
    # The court a closed court's game was moved from (issue 15, item 9): the closed court's
    # tablet lists where its games went, and an old sheet's QR code says where the game is now.
    moved_from = models.ForeignKey(
        Court, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", editable=False
    )

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["event", "match_number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["event", "match_number"], name="match_number_unique_in_event"),
            models.UniqueConstraint(
                fields=["court", "slot"],
                condition=Q(court__isnull=False, slot__isnull=False),
                name="one_game_per_court_slot",
            ),
            models.CheckConstraint(
                condition=Q(team_a__isnull=True) | Q(team_b__isnull=True) | ~Q(team_a=models.F("team_b")),
                name="match_teams_differ",
            ),
        ]
        indexes = [models.Index(fields=["court", "status"])]

    def __str__(self):
        return _("Game %(number)s") % {"number": self.match_number}

    def get_stage_display(self):
        """The stage's name. The early rounds of a knockout are named from its first round
        (issue 17: 「1回戦」, 「2回戦」 …, then 準々決勝, 準決勝, 決勝), never 「ラウンド16」:
        ``round`` counts the bracket's rounds from 0 (``tournament.services.knockout``)."""
        if self.stage in (self.Stage.ROUND_OF_16, self.Stage.KNOCKOUT):
            return _("Round %(number)s") % {"number": self.round + 1}
        try:  # not ``in Stage.values``: that list is built afresh at every call (500 games a page)
            return str(self.Stage(self.stage).label)
        except ValueError:
            return self.stage

    @property
    def is_group_match(self):
        return self.stage == self.Stage.GROUP

    @property
    def has_result(self):
        """A confirmed result (a played game or a walkover) counts; a submitted one not yet."""
        return self.status in self.Status.PLAYED

    @property
    def awaits_result(self):
        """No result that counts yet and not void (``Match.Status.OPEN``)."""
        return self.status in self.Status.OPEN

    @property
    def teams_known(self):
        return self.team_a_id is not None and self.team_b_id is not None

    @property
    def loser_id(self):
        """The team (id) that lost a game with a winner; None before a result."""
        if self.winner_id is None:
            return None
        return self.team_b_id if self.winner_id == self.team_a_id else self.team_a_id

    @property
    def loser(self):
        """The team that lost a game with a winner (``team_a``/``team_b``, no query of its own)."""
        if self.winner_id is None:
            return None
        return self.team_b if self.winner_id == self.team_a_id else self.team_a


class LotRecord(models.Model):
    """What a lot or play-off decided for one team: its ``position`` (1 = first) among the
    tied teams, how it was decided, by whom and when. Concrete records add their scope."""

    METHOD_CHOICES = [("lot", _("lot")), ("playoff", _("play-off"))]
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+", verbose_name=_("team"))
    position = models.PositiveSmallIntegerField(_("position"))
    method = models.CharField(_("how"), max_length=10, choices=METHOD_CHOICES, default="lot")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class TieBreak(LotRecord):
    """A lot drawn or a play-off played to order teams tied on every criterion.

    ``position`` is 1 for the team placed first among the tied teams. Recorded by the
    organiser; the standings use it through the LOT criterion.
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="tie_breaks", verbose_name=_("group"))

    class Meta:
        ordering = ["group", "position"]
        verbose_name = _("lot or play-off")
        verbose_name_plural = _("lots and play-offs")
        constraints = [models.UniqueConstraint(fields=["group", "team"], name="one_tie_break_per_team")]

    def __str__(self):
        return f"{self.group}: {self.team} {self.position}"


class RunnerUpLot(LotRecord):
    """A lot drawn (or play-off played) between best runners-up of different groups who are
    equal on every cross-group criterion (wins, card difference and cards per game) where
    the qualifying places end.

    ``position`` is 1 for the team placed first among the tied runners-up. Recorded by the
    organiser on the knockout page; the seeding uses it to decide who goes through.
    """

    division = models.ForeignKey(
        Division, on_delete=models.CASCADE, related_name="runner_up_lots", verbose_name=_("division")
    )

    class Meta:
        ordering = ["division", "position"]
        verbose_name = _("lot between runners-up")
        verbose_name_plural = _("lots between runners-up")
        constraints = [models.UniqueConstraint(fields=["division", "team"], name="one_runner_up_lot_per_team")]

    def __str__(self):
        return f"{self.division}: {self.team} {self.position}"


class Announcement(models.Model):
    """A call typed by the organiser for the hall screens (「第3コートへ集合：○○チーム」), shown
    large from ``shown_from`` until ``shown_until`` (issue 17, item 2)."""

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="announcements", verbose_name=_("tournament")
    )
    text = models.CharField(_("announcement"), max_length=200)
    shown_from = models.DateTimeField(_("shown from"))
    shown_until = models.DateTimeField(_("shown until"))
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-shown_from", "-pk"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        indexes = [models.Index(fields=["event", "shown_until"])]

    def __str__(self):
        return self.text


class ProgrammeSettings(models.Model):
    """The editable texts of the event's 大会プログラム (issue 34 item 1): the cover's title
    ("" = the event's name), 主催 and 後援 (one per line), and the 注意事項 (one paragraph per
    line; "" = the short form of the rules, ``tournament.programme.default_notes``)."""

    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="programme", verbose_name=_("tournament")
    )
    title = models.CharField(_("programme title"), max_length=120, blank=True)
    organiser = models.CharField(_("organised by"), max_length=200, blank=True)
    supporters = models.TextField(_("supported by, one per line"), max_length=1000, blank=True)
    notes = models.TextField(_("notes, one per line"), max_length=4000, blank=True)

    class Meta:
        verbose_name = _("programme settings")
        verbose_name_plural = _("programme settings")

    def __str__(self):
        return f"{self.event}: {self.title or self.event.name}"
