"""Recompute ``ClubLink.club_key`` now that ``name_key`` ignores invisible marks (issue 28, item 8).

Two links of one event whose new keys coincide keep distinct keys (the later gets its pk
appended), so the unique constraint holds; the organiser sees both clubs unchanged.
"""

from django.db import migrations

from tournament.engine.names import name_key


def recompute(apps, schema_editor):
    ClubLink = apps.get_model("club_entry", "ClubLink")
    links = list(ClubLink.objects.order_by("event_id", "pk"))
    taken: set[tuple[int, str]] = set()
    changed = []
    for link in links:
        key = name_key(link.club)
        if (link.event_id, key) in taken:
            key = f"{key[:50]}#{link.pk}"
        taken.add((link.event_id, key))
        if key != link.club_key:
            link.club_key = key
            changed.append(link)
    for link in changed:
        ClubLink.objects.filter(pk=link.pk).update(club_key=f"#{link.pk}")
    for link in changed:
        ClubLink.objects.filter(pk=link.pk).update(club_key=link.club_key)


class Migration(migrations.Migration):
    dependencies = [
        ("club_entry", "0003_change_details"),
    ]

    operations = [
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
