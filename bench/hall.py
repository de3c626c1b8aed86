"""The hall screens at a prefectural event (250 teams, 500 games, 50 courts): what one
screen's poll and each screen costs, as the ratio to the court entry page rendered in the
same run (issue 17, item 2; docs/hall-screens.md).

Run: .venv/bin/python bench/hall.py   (uses a throwaway SQLite database; DEBUG off)
Prints per request the median of 9 in ms, the ratio to the court entry page, the queries
and the bytes.
"""

import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["KARUTA_DATA_DIR"] = tempfile.mkdtemp(prefix="karuta-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from tournament.management.commands.simulate_results import Command as Simulate  # noqa: E402
from tournament.models import Court, Division  # noqa: E402
from tournament.services.announcements import announce  # noqa: E402
from tournament.services.draw import draw_groups  # noqa: E402
from tournament.services.events import create_event  # noqa: E402
from tournament.services.registration import PlayerData, save_team  # noqa: E402
from tournament.services.schedule import make_schedule  # noqa: E402

REPEAT = 9


def build():
    """250 teams in one division on 50 courts, every group game confirmed, one announcement."""
    call_command("migrate", verbosity=0)
    event = create_event("hall", "県大会", datetime.date(2027, 1, 17), courts=50, auto_confirm=True)
    division = Division.objects.create(event=event, name="一般の部")
    division.courts.set(Court.objects.filter(event=event))
    for i in range(250):
        players = [PlayerData(f"選手{i}-{j}", "せんしゅ", "一般", is_leader=j == 1) for j in range(3)]
        save_team(division, f"チーム{i:03d}", f"クラブ{i % 40}", players)
    draw_groups(event, seed=1)
    make_schedule(event)
    Simulate().handle(event="hall", stage="groups", seed=1)
    announce(event, "第3コートへ集合：チーム007", 30)
    return event, division


def measure(client, url):
    """Median ms of ``REPEAT`` cold requests (cache cleared), the queries and the bytes."""
    times, queries, size = [], 0, 0
    for _ in range(REPEAT):
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
        queries, size = len(captured), len(response.content)
    return statistics.median(times), queries, size


def main():
    setup_test_environment()
    event, division = build()
    court = event.courts.order_by("order").first()
    first = event.matches.filter(court=court).order_by("slot").first()
    client = Client(HTTP_HOST="localhost")
    slug = event.slug
    urls = {
        "court entry (reference)": reverse("judging:court_entry", args=[court.token, first.match_number]),
        "screens' poll (state.json)": reverse("tournament:display_state", args=[slug]),
        "all courts, fragment": reverse("tournament:courts_display", args=[slug]) + "?fragment=1",
        "all courts, page": reverse("tournament:courts_display", args=[slug]),
        "division (50 groups), fragment": reverse("tournament:division_display", args=[slug, division.pk])
        + "?fragment=1",
        "court screen, fragment": reverse("tournament:court_display", args=[slug, court.pk]) + "?fragment=1",
        "podium, fragment (no final yet)": reverse("tournament:podium_display", args=[slug, division.pk])
        + "?fragment=1",
        "QR code (svg)": reverse("tournament:display_qr", args=[slug]),
    }
    print(f"{event.matches.count()} games, {event.courts.count()} courts; median of {REPEAT}, cache cleared")
    reference = None
    for label, url in urls.items():
        ms, queries, size = measure(client, url)
        reference = reference or ms
        print(f"{label:34} {ms:8.1f} ms  {ms / reference:5.1f}×  {queries:3d} queries  {size / 1024:7.1f} KB")


if __name__ == "__main__":
    main()
