#!/usr/bin/env python
"""Cold renders of the public and organiser pages of a prefectural event (issue 17 item 3).

Usage (from the project root)::

    .venv/bin/python bench/pages.py [--courts 50] [--repeat 9] [--only schedule,standings]

Builds, in a fresh data directory (SQLite, DEBUG off), an event of 5 teams per court in
groups of five (50 courts: 250 teams, 500 games) with the first half of the games
confirmed, then renders each page ``--repeat`` times through Django's test client with the
cache cleared before every request, and prints per page: the median render in ms (CPU
time of this process, which includes SQLite's work: other load on the machine changes it
less than the wall clock), the ratio to the court entry page (the referee's tablet page,
rendered in the same run), the query count and the size in KB. Targets (issue 31 item 1):
public pages within 5x the court entry page (public standings 3x) and under 150 KB for a
phone's default view; organiser pages' default views (a page of django-tables2 rows, the
coming games first) within 5x; the full lists (``?show=all``, for printing) are printed
without a target. No network, no server.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _event import TEAMS_PER_COURT, build, setup_django  # the builder shared with bench/scale.py

TARGETS = {"public": 5, "organiser": 5}  # by kind; "full" (every row on one page) has none
PAGE_TARGETS = {"public standings": 3}  # issue 31 item 1


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--courts", type=int, default=50, help="courts (5 teams, 10 games each; default 50)")
    p.add_argument("--repeat", type=int, default=9, help="renders per page (default 9, the median is printed)")
    p.add_argument("--only", default="", help="comma-separated page names (default: all)")
    return p.parse_args(argv)


def pages(event):
    """(name, kind, url): the court entry page first (the reference)."""
    from django.urls import reverse

    from tournament.models import Match

    court = event.courts.order_by("order").first()
    team = event.divisions.first().teams.order_by("entry_number").first()
    division = event.divisions.first()
    later = (
        Match.objects.filter(event=event, court=court, status=Match.Status.SCHEDULED).order_by("match_number").first()
    )
    slug = event.slug
    return [
        ("court entry (tablet)", "reference", reverse("judging:court_entry", args=[court.token, later.match_number])),
        ("public timetable", "public", reverse("tournament:public_timetable", args=[slug])),
        ("public timetable of a team", "public", reverse("tournament:public_team", args=[slug, team.pk])),
        ("public timetable of a court", "public", reverse("tournament:public_court", args=[slug, court.pk])),
        ("public results", "public", reverse("tournament:public_results", args=[slug])),
        ("public standings", "public", reverse("tournament:public_standings", args=[slug])),
        ("public bracket", "public", reverse("tournament:public_bracket", args=[slug])),
        ("division display", "public", reverse("tournament:division_display", args=[slug, division.pk])),
        ("api timetable", "public", reverse("api:timetable", args=[slug])),
        ("api results", "public", reverse("api:results", args=[slug])),
        ("api standings", "public", reverse("api:standings", args=[slug])),
        ("organiser schedule", "organiser", reverse("tournament:schedule", args=[slug])),
        ("organiser standings", "organiser", reverse("tournament:standings", args=[slug])),
        ("organiser teams", "organiser", reverse("tournament:team_list", args=[slug])),
        (
            "organiser schedule of a court",
            "organiser",
            reverse("tournament:schedule", args=[slug]) + f"?court={court.pk}",
        ),
        ("organiser schedule, all games", "full", reverse("tournament:schedule", args=[slug]) + "?show=all"),
        ("organiser standings, all groups", "full", reverse("tournament:standings", args=[slug]) + "?show=all"),
        ("organiser teams, all teams", "full", reverse("tournament:team_list", args=[slug]) + "?show=all"),
        ("organiser games (status board)", "organiser", reverse("judging:status_board", args=[slug])),
    ]


def render(client, url, repeat):
    """Median CPU ms of ``repeat`` cold renders, the query count and the bytes."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times, queries, size = [], 0, 0
    for _ in range(repeat):
        cache.clear()
        with CaptureQueriesContext(connection) as captured:
            t = time.process_time()
            response = client.get(url)
            times.append((time.process_time() - t) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
        queries, size = len(captured), len(response.content)
    return statistics.median(times), queries, size


def main(argv=None):
    args = parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="karuta-bench-pages-") as data_dir:
        setup_django(data_dir)
        from django.test import Client

        t = time.perf_counter()
        event, user, games = build(args.courts)
        teams = args.courts * TEAMS_PER_COURT
        print(f"{teams} teams, {games} games, {args.courts} courts: built in {time.perf_counter() - t:.0f} s")
        only = {n.strip() for n in args.only.split(",") if n.strip()}
        anonymous, organiser = Client(), Client()
        organiser.force_login(user)
        reference = None
        print(f"{'page':34} {'ms':>7} {'ratio':>6} {'target':>7} {'queries':>7} {'KB':>6}")
        for name, kind, url in pages(event):
            if only and kind != "reference" and not any(o in name for o in only):
                continue
            client = organiser if kind in ("organiser", "full") else anonymous
            ms, queries, size = render(client, url, args.repeat)
            if reference is None:
                reference = ms
            ratio = ms / reference
            target = PAGE_TARGETS.get(name, TARGETS.get(kind))
            mark = "" if target is None else (f"≤{target}x " + ("ok" if ratio <= target else "OVER"))
            print(f"{name:34} {ms:7.1f} {ratio:5.1f}x {mark:>7} {queries:7d} {size / 1024:6.0f}")


if __name__ == "__main__":
    main()
