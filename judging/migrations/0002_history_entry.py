from django.conf import settings
from django.db import migrations


class Migration(migrations.Migration):
    """``SheetEvent`` was a history entry of a game's recording sheet: "event" already means the tournament."""

    dependencies = [
        ("judging", "0001_initial"),
        ("tournament", "0002_runner_up_lot"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel(old_name="SheetEvent", new_name="HistoryEntry"),
    ]
