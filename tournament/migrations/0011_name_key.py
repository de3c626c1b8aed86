"""Recompute ``Team.name_key`` with the one name key of issue 18, item 7.

The key now also unifies the dash and tilde families (〜～~, ‐-−–—, ー between Latin letters
or digits). Names stay as typed. Two teams of one division whose new keys coincide (they were
always the same name to a person) keep the older key with their pk appended to the later one,
so the unique constraint holds; the organiser sees both names unchanged and can rename one.
"""

from django.db import migrations

from tournament.engine.names import name_key


def recompute(apps, schema_editor):
    Team = apps.get_model("tournament", "Team")
    taken: set[tuple[int, str]] = set()
    teams = list(Team.objects.order_by("division_id", "pk"))
    for team in teams:
        key = name_key(team.name)
        if (team.division_id, key) in taken:
            key = f"{key[:50]}#{team.pk}"
        taken.add((team.division_id, key))
        team.name_key = key
    # Two passes so that no intermediate state breaks the unique constraint.
    for team in teams:
        Team.objects.filter(pk=team.pk).update(name_key=f"#{team.pk}")
    for team in teams:
        Team.objects.filter(pk=team.pk).update(name_key=team.name_key)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_chaperone"),
    ]

    operations = [
        migrations.RunPython(recompute, migrations.RunPython.noop),
    ]
