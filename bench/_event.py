"""The event the benchmarks build (shared by bench/pages.py and bench/scale.py).

``setup_django`` loads the settings on a throwaway data directory (DEBUG off, no Redis);
``build`` makes an event of ``courts`` courts with 5 teams each in groups of five (10 games
per court), the first half of the games confirmed, and an organiser account. Nothing here
is timed.
"""

from __future__ import annotations

import datetime
import os
import sys
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
TEAMS_PER_COURT = 5  # a group of five per court: 10 games per court


def setup_django(data_dir, database_url=None):
    """Django's settings on ``data_dir`` with DEBUG off. ``database_url`` (a PostgreSQL URL)
    is used as ``DATABASE_URL``; without it the database is SQLite in ``data_dir``."""
    os.environ["KARUTA_DATA_DIR"] = str(data_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DEBUG"] = "false"
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    os.environ.pop("KARUTA_REDIS_URL", None)
    if str(BASE) not in sys.path:
        sys.path.insert(0, str(BASE))
    import django

    django.setup()


def build(courts):
    """The event: ``courts`` courts, 5 teams per court, half the games confirmed.

    Returns ``(event, organiser user, number of games)``."""
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from judging.engine import rules
    from judging.services import record_confirmed_result
    from tournament.models import Court, Division, Match
    from tournament.services.draw import draw_groups
    from tournament.services.events import create_event
    from tournament.services.registration import PlayerData, save_team
    from tournament.services.schedule import make_schedule

    call_command("migrate", verbosity=0)
    event = create_event("bench", "ひたち郷土かるた県大会", datetime.date(2027, 1, 17), courts=courts)
    division = Division.objects.create(event=event, name="一般の部")
    division.courts.set(Court.objects.filter(event=event))
    for i in range(courts * TEAMS_PER_COURT):
        save_team(
            division,
            f"ひたち郷土かるたクラブ{i:03d}",
            f"日立市立第{i % 17 + 1}小学校",
            [PlayerData(f"選手{i}-{j}", "せんしゅ", "小5", is_leader=j == 1) for j in range(3)],
        )
    draw_groups(event, seed=1)
    make_schedule(event)
    matches = list(Match.objects.filter(event=event).select_related("event").order_by("match_number"))
    for match in matches[: len(matches) // 2]:
        a_wins = match.match_number % 3 != 0
        values = (30, 26, 0, rules.JokerHolder.A) if a_wins else (26, 30, 0, rules.JokerHolder.B)
        record_confirmed_result(match, rules.SheetValues(*values))
    user = get_user_model().objects.create_user("bench-organiser")
    event.organisers.add(user)
    return event, user, len(matches)
