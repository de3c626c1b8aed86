"""Clubs entering their own teams through an entry link (issue 20 item 4).

A club is identified within its event by its affiliation text, compared by
``tournament.engine.names.name_key`` (``club_key``). Teams entered by a club are the event's
``Team`` rows (the same tables as the organiser's form and the Excel import). A club's teams
(``ClubLink.teams``) are the teams it entered or edited through its link (``EnteredTeam``,
recorded when saved), whatever their affiliation becomes, plus the teams whose affiliation has
its key that no other link entered: an organiser correcting an affiliation's spelling takes no
team away from its club; giving a team the affiliation of another club with a link moves it
there, said on the organiser's page and in the change log (``services.organiser_edits_team``). The link's token is the credential, as a
court link's (``tournament.models.new_court_token``: 192 random bits, found by a unique lookup).
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.engine import names
from tournament.models import Event, Player, Team, new_court_token, version_field

DEFAULT_CONSENT_NOTE = (
    "この申込ページで入力する選手の氏名・ふりがな・学年は、大会の運営（組合せ、受付名簿、記録用紙、"
    "結果の掲示）にのみ使います。公開ページと公開ファイルには、大会の設定で許可した場合を除き、"
    "チーム名と所属だけを載せます。保護者の同意を得てから入力してください。"
    "大会後、記録として保存し、第三者には提供しません。"
)
# The same note in the page's language: a club's page in English shows it in English while the
# organisers kept the default (issue 27); the Japanese translation is DEFAULT_CONSENT_NOTE.
DEFAULT_CONSENT_NOTE_SHOWN = _(
    "The players' names, furigana and grades you enter on this entry page are used only to run the "
    "tournament (the draw, the reception list, the recording sheets and the posted results). Public "
    "pages and public files show only team names and affiliations, unless the tournament's settings "
    "allow more. Ask the parents' consent before you enter them. After the tournament they are kept "
    "as a record and never given to third parties."
)


class EntrySettings(models.Model):
    """An event's entry settings: the deadline (JST), locked or not, the consent note."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="entry_settings")
    deadline = models.DateTimeField(_("entry deadline"), null=True, blank=True)
    locked = models.BooleanField(_("entries locked"), default=False)
    consent_note = models.TextField(_("consent note for children's data"), default=DEFAULT_CONSENT_NOTE)
    version = version_field()

    class Meta:
        verbose_name = _("entry settings")
        verbose_name_plural = _("entry settings")

    def __str__(self):
        return str(self.event)

    @property
    def shown_consent_note(self) -> str:
        """The note the clubs read: the organisers' own text as typed, or the default in the
        page's language while they kept the default (translated, ``DEFAULT_CONSENT_NOTE_SHOWN``)."""
        if (self.consent_note or "").strip() == DEFAULT_CONSENT_NOTE:
            return str(DEFAULT_CONSENT_NOTE_SHOWN)
        return self.consent_note


class ClubLink(models.Model):
    """A club's entry link: its club (affiliation) in one event, a contact, the secret token."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="club_links")
    club = models.CharField(_("club (affiliation)"), max_length=names.AFFILIATION_MAX)
    club_key = models.CharField(max_length=60, editable=False)
    contact_name = models.CharField(_("contact"), max_length=60, blank=True)
    contact = models.CharField(_("e-mail or phone"), max_length=120, blank=True)
    token = models.CharField(max_length=64, unique=True, default=new_court_token, editable=False)
    # The secret before the last renewal: a phone still on it is told so (and keeps what it typed).
    previous_token = models.CharField(max_length=64, blank=True, default="", db_index=True, editable=False)
    enabled = models.BooleanField(_("link active"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity = models.DateTimeField(_("last activity"), null=True, blank=True)
    consent_at = models.DateTimeField(_("consent given at"), null=True, blank=True)

    class Meta:
        ordering = ["event", "club_key", "pk"]
        verbose_name = _("club entry link")
        verbose_name_plural = _("club entry links")
        constraints = [models.UniqueConstraint(fields=["event", "club_key"], name="club_link_unique_in_event")]

    def __str__(self):
        return self.club

    def save(self, *args, **kwargs):
        self.club = names.clean_display(self.club)
        self.club_key = names.name_key(self.club)
        super().save(*args, **kwargs)

    def teams(self):
        """The club's teams: those it entered or edited through this link (``EnteredTeam``) and the
        event's teams whose affiliation has the club's key that no other link entered."""
        entered = dict(EnteredTeam.objects.filter(link__event_id=self.event_id).values_list("team_id", "link_id"))
        keys = [
            t.pk
            for t in Team.objects.filter(division__event_id=self.event_id).only("pk", "affiliation")
            if entered.get(t.pk, self.pk) == self.pk
            and (t.pk in entered or names.name_key(t.affiliation) == self.club_key)
        ]
        return Team.objects.filter(pk__in=keys).select_related("division").order_by("division__order", "entry_number")


class ChangeLog(models.Model):
    """One change made through a club's link: which club, which team, what, when."""

    ADDED, EDITED, REMOVED, ABSENT, PRESENT, CONSENT = "added", "edited", "removed", "absent", "present", "consent"
    CLOSED, MOVED_OUT, MOVED_IN, RENAMED = "closed", "moved_out", "moved_in", "renamed"
    DETAIL_MAX = 2000
    WHAT_CHOICES = [
        (ADDED, _("team added")),
        (EDITED, _("team edited")),
        (REMOVED, _("team removed")),
        (ABSENT, _("player reported absent")),
        (PRESENT, _("absence withdrawn")),
        (CONSENT, _("consent given")),
        (CLOSED, _("absence report closed: the player is no longer in the team")),
        (MOVED_OUT, _("team moved to another club")),
        (MOVED_IN, _("team moved here from another club")),
        (RENAMED, _("affiliation changed (the team stays with this club)")),
    ]
    link = models.ForeignKey(ClubLink, on_delete=models.CASCADE, related_name="changes")
    team = models.ForeignKey(Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    team_name = models.CharField(max_length=names.TEAM_NAME_MAX, blank=True)
    # The team's division when the line was written (two clubs' teams may share a name).
    division_name = models.CharField(max_length=60, blank=True)
    what = models.CharField(max_length=10, choices=WHAT_CHOICES)
    # What changed, field by field (``club_entry.changes.describe``).
    detail = models.TextField(blank=True)
    by_organiser = models.BooleanField(_("by the organisers"), default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("change by a club")
        verbose_name_plural = _("changes by clubs")

    def __str__(self):
        return f"{self.link} {self.what} {self.team_name}"


class EnteredTeam(models.Model):
    """A team a club entered or edited through its link, recorded when saved: the team stays the
    club's whatever its affiliation text becomes, until the organisers give it the affiliation of
    another club that has a link (then this row moves to that link)."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="club_entry")
    link = models.ForeignKey(ClubLink, on_delete=models.CASCADE, related_name="entered")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("team entered by a club")
        verbose_name_plural = _("teams entered by clubs")

    def __str__(self):
        return f"{self.link}: {self.team}"


class AbsenceReport(models.Model):
    """A player a club reported absent on the day (the organiser sees it on the team list and
    the reception list); deleted when the club withdraws the report."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="absence_report")
    link = models.ForeignKey(ClubLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    reported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("absence report")
        verbose_name_plural = _("absence reports")

    def __str__(self):
        return str(self.player)
