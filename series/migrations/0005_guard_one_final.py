"""One final per series (issue 28, item 4): a series could get two finals (a key file's holder
joined their event as the final). Before the constraint, every final of a series but the first
made (lowest id) becomes a qualifier; its district and results are kept, and the organiser sees
the role on the series' page."""

from django.db import migrations, models


def one_final(apps, schema_editor):
    SeriesEvent = apps.get_model("series", "SeriesEvent")
    seen = set()
    for member in SeriesEvent.objects.filter(role="final").order_by("series_id", "pk"):
        if member.series_id in seen:
            SeriesEvent.objects.filter(pk=member.pk).update(role="qualifier")
        seen.add(member.series_id)


class Migration(migrations.Migration):
    dependencies = [
        ("series", "0004_guard_spelling_key_invisible"),
    ]

    operations = [
        migrations.RunPython(one_final, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="seriesevent",
            constraint=models.UniqueConstraint(
                condition=models.Q(("role", "final")), fields=("series",), name="series_one_final"
            ),
        ),
    ]
