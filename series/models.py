"""Series and seasons (issue 20): events grouped into a series, their results exchanged
between laptops, the series ranking and the archive of editions."""

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.engine.names import name_key
from tournament.models import Event, Team


def new_series_secret():
    """A series' secret key: 32 random bytes as 64 hex characters."""
    return secrets.token_hex(32)


class Series(models.Model):
    """Events that belong together: the district qualifiers and the final of one year, or the
    tournaments of a season."""

    slug = models.SlugField(_("short name (URL)"), max_length=40, unique=True)
    name = models.CharField(_("series name"), max_length=120)
    season = models.PositiveSmallIntegerField(_("season (year)"))
    points_table = models.CharField(
        _("points per place"),
        max_length=120,
        default="10,7,5,3,2,1",
        help_text=_("Points for 1st, 2nd, 3rd … place, separated by commas."),
    )
    secret = models.CharField(max_length=64, default=new_series_secret, editable=False)
    # Who may open and edit the series besides the organisers of its events (the user who made
    # it); see docs/rules/series.md, "Who".
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="organised_series", verbose_name=_("organisers")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-season", "name"]

    def __str__(self):
        return f"{self.name} ({self.season})"


class SeriesEvent(models.Model):
    """An event's place in a series: a qualifier (of a district) or the final."""

    class Role(models.TextChoices):
        QUALIFIER = "qualifier", _("qualifier")
        FINAL = "final", _("final")
        ROUND = "round", _("tournament of the season")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="members", verbose_name=_("series"))
    event = models.OneToOneField(
        Event, on_delete=models.CASCADE, related_name="series_member", verbose_name=_("tournament")
    )
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.ROUND)
    district = models.CharField(_("district"), max_length=60, blank=True)

    class Meta:
        verbose_name = _("tournament of a series")
        verbose_name_plural = _("tournaments of a series")
        ordering = ["series", "event__date"]
        constraints = [
            # One final per series (issue 28, item 4): the results files go into it.
            models.UniqueConstraint(fields=["series"], condition=models.Q(role="final"), name="series_one_final"),
        ]

    def __str__(self):
        return f"{self.series} — {self.event}"


class ImportedPlacing(models.Model):
    """A final place won at an event that ran on another laptop, brought in with its signed
    results file (issue 20 item 1), so the series ranking counts it like a local event's place.

    Written by the results import; read by the series ranking. ``source`` names the event as the
    file named it (e.g. 「第3回 日立市北部地区予選」); ``source_key`` identifies it (the exporting
    installation's event id), so one event's places are counted once.
    """

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="imported_placings", verbose_name=_("series")
    )
    source_key = models.CharField(max_length=80)
    source = models.CharField(_("tournament"), max_length=160)
    district = models.CharField(_("district"), max_length=60, blank=True)
    event_date = models.DateField(_("date"), null=True, blank=True)
    division = models.CharField(_("division"), max_length=60)
    place = models.PositiveSmallIntegerField(_("place"))
    team = models.CharField(_("team name"), max_length=60)
    club = models.CharField(_("affiliation"), max_length=80, blank=True)

    class Meta:
        verbose_name = _("place won at another laptop's event")
        verbose_name_plural = _("places won at other laptops' events")
        ordering = ["series", "source", "division", "place"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "source_key", "division", "team"], name="series_imported_placing_unique"
            ),
        ]

    def __str__(self):
        return f"{self.source} {self.division} {self.place} {self.team}"


class ImportedFile(models.Model):
    """A signed results file imported into an event of the series (issue 20 item 1,
    docs/exchange.md): its ``file_id`` (made at export), its SHA-256 ``sha256`` and the event it
    came from (``source_key``, as ``ImportedPlacing.source_key``). A second import of the same
    file, or of another file of the same event, is refused."""

    series = models.ForeignKey(
        Series, on_delete=models.CASCADE, related_name="imported_files", verbose_name=_("series")
    )
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="imported_results", verbose_name=_("tournament")
    )
    file_id = models.CharField(_("file id"), max_length=40, unique=True)
    sha256 = models.CharField(_("SHA-256 of the file"), max_length=64, unique=True)
    source_key = models.CharField(max_length=80)
    source = models.CharField(_("tournament"), max_length=160)
    district = models.CharField(_("district"), max_length=60, blank=True)
    exported_at = models.DateTimeField(_("exported at"))
    imported_at = models.DateTimeField(_("imported at"), auto_now_add=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("imported results file")
        verbose_name_plural = _("imported results files")
        ordering = ["event", "imported_at"]
        constraints = [
            models.UniqueConstraint(fields=["series", "source_key"], name="series_imported_file_source_once"),
        ]

    def __str__(self):
        return f"{self.source} ({self.file_id})"


class QualifiedTeam(models.Model):
    """A team of the final that qualified at another event of the series: where (``source``,
    ``district``, the ``division`` there) and at which ``place``; shown beside the team as
    「北部地区予選 1位」."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="qualification", verbose_name=_("team"))
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="+", verbose_name=_("series"))
    imported_file = models.ForeignKey(
        ImportedFile, on_delete=models.CASCADE, related_name="teams", verbose_name=_("imported results file")
    )
    source = models.CharField(_("tournament"), max_length=160)
    district = models.CharField(_("district"), max_length=60, blank=True)
    division = models.CharField(_("division"), max_length=60)
    place = models.PositiveSmallIntegerField(_("place"))

    class Meta:
        verbose_name = _("qualified team")
        verbose_name_plural = _("qualified teams")
        ordering = ["team"]

    def __str__(self):
        return self.label

    @property
    def label(self):
        """「北部地区予選 1位」: the district's qualifier (else the event's name) and the place."""
        where = _("%(district)s qualifier") % {"district": self.district} if self.district else self.source
        return _("%(where)s, place %(place)s") % {"where": where, "place": self.place}


class Club(models.Model):
    """A club (affiliation: a school, a 子ども会) as one thing across events and years.

    Its spellings (``ClubSpelling``) are the affiliations that mean it, compared by
    ``tournament.engine.names.name_key``. An affiliation no spelling names is a club of its own
    (its key); a row is made when the organiser merges two spellings (docs/rules/series.md,
    "Clubs"). The teams' stored affiliation text is never rewritten."""

    name = models.CharField(_("club name"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name


class ClubSpelling(models.Model):
    """One spelling of a club: ``key`` is the ``name_key`` of ``text``; a key belongs to one club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="spellings", verbose_name=_("club"))
    key = models.CharField(max_length=80, unique=True, editable=False)
    text = models.CharField(_("spelling"), max_length=80)

    class Meta:
        verbose_name = _("spelling of a club")
        verbose_name_plural = _("spellings of clubs")
        ordering = ["club", "text"]

    def __str__(self):
        return self.text

    def save(self, *args, **kwargs):
        self.key = name_key(self.text)
        super().save(*args, **kwargs)


def club_index():
    """The merged spellings: ``{key: (club id, club name)}`` for every ``ClubSpelling`` (one
    query). A key not in it is a club of its own (``club_of``)."""
    return {s.key: (s.club_id, s.club.name) for s in ClubSpelling.objects.select_related("club")}


def club_of(text, index):
    """``(club ref, club name)`` of an affiliation ``text`` by ``index`` (``club_index``):
    ``"c<id>"`` and the club's name for a merged spelling, else ``"k<key>"`` and ``text`` itself;
    ``("", "")`` for a blank affiliation. The ref is the same for every spelling of one club."""
    key = name_key(text or "")
    if not key:
        return "", ""
    if key in index:
        pk, name = index[key]
        return f"c{pk}", name
    return f"k{key}", text


def player_key(name, furigana):
    """The key that matches one player across editions (issue 35; docs/rules/records.md): the
    SHA-256 of the ``name_key`` of the name and of the furigana, so the removal list
    (``ForgottenPlayer``) keeps no name. Two players with the same name and furigana are one."""
    return hashlib.sha256(f"{name_key(name or '')}|{name_key(furigana or '')}".encode()).hexdigest()


class ForgottenPlayer(models.Model):
    """A player whose history across editions was removed (at the family's request): the player
    history never shows the players of this ``key`` (``player_key``) again. Only the hash is kept;
    the events' own records (reception list, sheets) are not changed."""

    key = models.CharField(max_length=64, unique=True, editable=False)
    removed_at = models.DateTimeField(_("removed at"), auto_now_add=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", editable=False
    )

    class Meta:
        verbose_name = _("removed player history")
        verbose_name_plural = _("removed player histories")

    def __str__(self):
        return self.key[:12]
