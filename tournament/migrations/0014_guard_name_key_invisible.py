"""Recompute ``Team.name_key`` now that the key ignores invisible marks (issue 28, item 8).

Variation selectors (U+FE00–FE0F, U+E0100–E01EF: 葛󠄀 / 葛), the Mongolian ones, the combining
grapheme joiner and the Hangul fillers are no longer part of the key; names stay as typed.
Two teams of one division whose new keys coincide (they always looked like one name) keep
distinct keys: the later one gets its pk appended, as in 0011, so the unique constraint holds;
the organiser sees both names unchanged, and the next save of either names the clash.
"""

from django.db import migrations

from tournament.engine.names import name_key


def recompute(apps, schema_editor):
    Team = apps.get_model("tournament", "Team")
    teams = list(Team.objects.order_by("division_id", "pk"))
    taken: set[tuple[int, str]] = set()
    changed = []
    for team in teams:
        key = name_key(team.name)
        if (team.division_id, key) in taken:
            key = f"{key[:50]}#{team.pk}"
        taken.add((team.division_id, key))
        if key != team.name_key:
            team.name_key = key
            changed.append(team)
    # Two passes so that no intermediate state breaks the unique constraint.
    for team in changed:
        Team.objects.filter(pk=team.pk).update(name_key=f"#{team.pk}")
    for team in changed:
        Team.objects.filter(pk=team.pk).update(name_key=team.name_key)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0013_announcements"),
    ]

    operations = [
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
