"""Time the standings workbook of a 500-team event (100 groups of 5) and print the figures.

Run: .venv/bin/python bench/exports.py   (uses a throwaway SQLite database)
"""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["KARUTA_DATA_DIR"] = tempfile.mkdtemp(prefix="karuta-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402


def main():
    call_command("migrate", verbosity=0)
    from tournament import exports
    from tournament.management.commands.simulate_results import Command as Simulate
    from tournament.models import Court, Division
    from tournament.services.draw import draw_groups
    from tournament.services.events import create_event
    from tournament.services.registration import PlayerData, save_team
    from tournament.services.schedule import make_schedule

    event = create_event("bench", "ベンチ大会", __import__("datetime").date(2027, 1, 17), courts=100)
    division = Division.objects.create(event=event, name="一般の部")
    division.courts.set(Court.objects.filter(event=event))
    started = time.perf_counter()
    for i in range(500):
        save_team(
            division,
            f"チーム{i:03d}",
            f"クラブ{i % 40}",
            [PlayerData(f"選手{i}-{j}", "せんしゅ", "一般", is_leader=j == 1) for j in range(3)],
        )
    setup = time.perf_counter() - started
    draw_groups(event, seed=1)
    make_schedule(event)
    Simulate().handle(event="bench", stage="groups", seed=1)
    matches = event.matches.count()
    for kinds in (("standings",), ("standings", "games", "timetable", "teams")):
        started = time.perf_counter()
        data = exports.event_workbook(event, kinds)
        seconds = time.perf_counter() - started
        print(
            f"workbook {'+'.join(kinds)}: 500 teams, 100 groups, {matches} games: {seconds:.2f} s, {len(data) / 1024:.0f} KiB"
        )
    print(f"(setup: 500 teams registered in {setup:.1f} s)")


if __name__ == "__main__":
    main()
