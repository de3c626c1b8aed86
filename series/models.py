"""Series and seasons (issue 20): events grouped into a series, their results exchanged
between laptops, the series ranking and the archive of editions."""

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Event


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

    def __str__(self):
        return f"{self.series} — {self.event}"
