"""Recompute ``ClubSpelling.key`` now that ``name_key`` ignores invisible marks (issue 28, item 8).

Two spellings whose new keys coincide keep distinct keys (the later gets its pk appended), so
the unique constraint holds; the organiser sees both spellings on the clubs page.
"""

from django.db import migrations

from tournament.engine.names import name_key


def recompute(apps, schema_editor):
    ClubSpelling = apps.get_model("series", "ClubSpelling")
    spellings = list(ClubSpelling.objects.order_by("pk"))
    taken: set[str] = set()
    changed = []
    for spelling in spellings:
        key = name_key(spelling.text)
        if key in taken:
            key = f"{key[:70]}#{spelling.pk}"
        taken.add(key)
        if key != spelling.key:
            spelling.key = key
            changed.append(spelling)
    for spelling in changed:
        ClubSpelling.objects.filter(pk=spelling.pk).update(key=f"#{spelling.pk}")
    for spelling in changed:
        ClubSpelling.objects.filter(pk=spelling.pk).update(key=spelling.key)


class Migration(migrations.Migration):
    dependencies = [
        ("series", "0003_series_rank"),
    ]

    operations = [
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
