"""Limits of an event's numbers and dates as check constraints, and the version counters of the
edit forms (issue 18, items 5 and 8).

Values already stored outside the limits (typed before the forms refused them) are brought
within them first, so that the constraints can be added: a number to its nearest limit, an odd
card total one down, a date to the nearest of 2000-01-01 and 2199-12-31.
"""

import datetime
import django.core.validators
import django.db.models.functions.math
import django.db.models.lookups
from django.conf import settings
from django.db import migrations, models


def clamp(value, low, high):
    return None if value is None else min(max(value, low), high)


def within_limits(apps, schema_editor):
    Event = apps.get_model("tournament", "Event")
    Division = apps.get_model("tournament", "Division")
    Team = apps.get_model("tournament", "Team")
    for event in Event.objects.all():
        total = clamp(event.card_total, 2, 100)
        fixed = {
            "card_total": total - total % 2,
            "game_minutes": clamp(event.game_minutes, 1, 120),
            "changeover_minutes": clamp(event.changeover_minutes, 0, 60),
            "edition": clamp(event.edition, 1, 999),
            "date": clamp(event.date, datetime.date(2000, 1, 1), datetime.date(2199, 12, 31)),
        }
        Event.objects.filter(pk=event.pk).update(**fixed)
    for division in Division.objects.all():
        Division.objects.filter(pk=division.pk).update(
            games_per_team=clamp(division.games_per_team, 1, 99),
            best_runners_up=clamp(division.best_runners_up, 0, 32),
        )
    Team.objects.filter(seed__gt=999).update(seed=999)
    Team.objects.filter(seed__lt=1).update(seed=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_name_key"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="court",
            name="version",
            field=models.PositiveIntegerField(default=1, editable=False),
        ),
        migrations.AddField(
            model_name="division",
            name="version",
            field=models.PositiveIntegerField(default=1, editable=False),
        ),
        migrations.AddField(
            model_name="event",
            name="version",
            field=models.PositiveIntegerField(default=1, editable=False),
        ),
        migrations.AddField(
            model_name="team",
            name="version",
            field=models.PositiveIntegerField(default=1, editable=False),
        ),
        migrations.AlterField(
            model_name="court",
            name="order",
            field=models.PositiveSmallIntegerField(
                default=0,
                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(999)],
                verbose_name="order",
            ),
        ),
        migrations.AlterField(
            model_name="division",
            name="best_runners_up",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="Compared across groups by the same criteria, per game played (groups may differ in size).",
                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(32)],
                verbose_name="best-placed runners-up who also qualify",
            ),
        ),
        migrations.AlterField(
            model_name="division",
            name="games_per_team",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Empty: every team plays every other team of its group (round robin).",
                null=True,
                validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(99)],
                verbose_name="games per team in a group",
            ),
        ),
        migrations.AlterField(
            model_name="division",
            name="order",
            field=models.PositiveSmallIntegerField(
                default=0,
                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(999)],
                verbose_name="order",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="card_total",
            field=models.PositiveSmallIntegerField(
                default=56,
                validators=[django.core.validators.MinValueValidator(2), django.core.validators.MaxValueValidator(100)],
                verbose_name="cards in play",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="changeover_minutes",
            field=models.PositiveSmallIntegerField(
                default=5,
                validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(60)],
                verbose_name="changeover (minutes)",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="edition",
            field=models.PositiveSmallIntegerField(
                blank=True,
                null=True,
                validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(999)],
                verbose_name="edition (第N回)",
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="game_minutes",
            field=models.PositiveSmallIntegerField(
                default=15,
                validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(120)],
                verbose_name="game length (minutes)",
            ),
        ),
        migrations.AlterField(
            model_name="team",
            name="seed",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="Optional: 1 is the strongest. Seeds are spread over the groups.",
                null=True,
                validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(999)],
                verbose_name="seed",
            ),
        ),
        migrations.RunPython(within_limits, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="division",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("games_per_team__isnull", True),
                    models.Q(("games_per_team__gte", 1), ("games_per_team__lte", 99)),
                    _connector="OR",
                ),
                name="division_games_per_team_limits",
            ),
        ),
        migrations.AddConstraint(
            model_name="division",
            constraint=models.CheckConstraint(
                condition=models.Q(("best_runners_up__gte", 0), ("best_runners_up__lte", 32)),
                name="division_best_runners_up_limits",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("card_total__gte", 2),
                    ("card_total__lte", 100),
                    django.db.models.lookups.Exact(django.db.models.functions.math.Mod("card_total", 2), 0),
                ),
                name="event_card_total_even_in_limits",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("game_minutes__gte", 1), ("game_minutes__lte", 120)),
                name="event_game_minutes_limits",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(("changeover_minutes__gte", 0), ("changeover_minutes__lte", 60)),
                name="event_changeover_limits",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("date__gte", datetime.date(2000, 1, 1)), ("date__lte", datetime.date(2199, 12, 31))
                ),
                name="event_date_limits",
            ),
        ),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("edition__isnull", True), models.Q(("edition__gte", 1), ("edition__lte", 999)), _connector="OR"
                ),
                name="event_edition_limits",
            ),
        ),
        migrations.AddConstraint(
            model_name="team",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("seed__isnull", True), models.Q(("seed__gte", 1), ("seed__lte", 999)), _connector="OR"
                ),
                name="team_seed_limits",
            ),
        ),
    ]
