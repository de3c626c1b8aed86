#!/usr/bin/env python
"""Time and measure the court scheduler (the package tournament/engine/scheduling/).

Usage (from anywhere)::

    .venv/bin/python bench/schedule.py            # the table, about 10-15 s
    .venv/bin/python bench/schedule.py --quick    # a smaller table
    .venv/bin/python bench/schedule.py --grid     # also the full test family (+45 s)

The table covers groups of 4-8 teams, 2-250 groups (up to 1,000 teams), 1-100
courts, every layout, rest off and on.  Columns: teams, groups, teams per
group, courts, layout, rest, slots used, lower bound, gap (slots - bound),
most games in a row for a team, largest spread of a team's waits (slots),
"ok" when check_schedule finds nothing, run time of ``plan`` in ms.

The last lines say whether every shared/no-rest case reached the lower bound
(docs/rules/scheduling-standings-seeding.md, sections 2.2 and 2.4, says it
always can), and sum up the gaps with rest.
A second table (``--partial`` alone skips the first) measures groups in which every team
plays a fixed number of games (section 1.5: 8 teams x 3 games is the city's school
format): groups of 6-12 teams, 2-4 games each, 1-25 groups, 1-16 courts; "ok" there
means every team plays its number of games, no pair twice, nobody twice in a slot.
``--grid`` adds the family used by the tests, in full: 1-12 groups of 2-16
teams (uniform sizes and one mixed spread) on 1-16 courts, shared layout
without rest (3,072 plans, about 45 s more).  No Django needed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from tournament.engine.scheduling import LAYOUTS, check_schedule, plan, report  # noqa: E402

SHORT = {
    "one_group_per_court": "one/court",
    "shared": "shared",
    "several_groups_per_court": "several/court",
}


def make_groups(sizes: list[int]) -> list[list[int]]:
    groups, next_id = [], 1
    for size in sizes:
        groups.append(list(range(next_id, next_id + size)))
        next_id += size
    return groups


def configurations(quick: bool) -> list[tuple[list[int], int]]:
    """(group sizes, courts): up to 1,000 teams and 100 courts."""
    configs = []
    courts_list = (1, 4, 16, 100) if not quick else (1, 16, 100)
    for size in (4, 5, 6, 7, 8):
        most = 1000 // size  # 250, 200, 166, 142, 125 groups
        counts = (2, 10, 50, most) if not quick else (2, 25, most)
        for n_groups in counts:
            configs.extend(([size] * n_groups, courts) for courts in courts_list)
    # Mixed sizes 4-8, 1,000 teams in 167 groups.
    mixed = [4 + (7 * i) % 5 for i in range(400)]
    total, sizes = 0, []
    for s in mixed:
        if total + s > 1000:
            break
        sizes.append(s)
        total += s
    configs.extend((sizes, courts) for courts in ((1, 10, 100) if not quick else (10,)))
    return configs


def size_label(sizes: list[int]) -> str:
    lo, hi = min(sizes), max(sizes)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def run_table(quick: bool) -> None:
    header = (
        f"{'teams':>5} {'groups':>6} {'size':>4} {'courts':>6} {'layout':<13} {'rest':<4} "
        f"{'slots':>6} {'bound':>6} {'gap':>5} {'streak':>6} {'waits':>5} {'ok':<3} {'ms':>7}"
    )
    print(header)
    print("-" * len(header))
    shared_free_total = 0
    shared_free_at_bound = 0
    rest_gaps: dict[str, list[int]] = {layout: [] for layout in LAYOUTS}
    started = time.perf_counter()
    for sizes, courts in configurations(quick):
        groups = make_groups(sizes)
        court_ids = list(range(1, courts + 1))
        for layout in LAYOUTS:
            for rest in (False, True):
                t0 = time.perf_counter()
                p = plan(groups, court_ids, layout, rest=rest)
                ms = (time.perf_counter() - t0) * 1000
                r = report(p)
                ok = not r.problems
                if layout == "shared" and not rest:
                    shared_free_total += 1
                    shared_free_at_bound += p.slots == p.lower_bound
                if rest:
                    rest_gaps[layout].append(p.gap)
                print(
                    f"{sum(sizes):>5} {len(sizes):>6} {size_label(sizes):>4} {courts:>6} "
                    f"{SHORT[layout]:<13} {'yes' if rest else 'no':<4} {p.slots:>6} "
                    f"{p.lower_bound:>6} {p.gap:>5} {r.max_streak:>6} {r.wait_spread:>5} "
                    f"{'ok' if ok else 'BAD':<3} {ms:>7.1f}",
                    flush=True,
                )
    elapsed = time.perf_counter() - started
    print()
    print(
        f"every shared/no-rest case at the lower bound: "
        f"{'yes' if shared_free_at_bound == shared_free_total else 'no'} "
        f"({shared_free_at_bound}/{shared_free_total})"
    )
    for layout, gaps in rest_gaps.items():
        at = sum(1 for g in gaps if g == 0)
        print(f"with rest, {SHORT[layout]}: {at}/{len(gaps)} at the bound, largest gap {max(gaps)} slots")
    print(f"total time {elapsed:.1f} s")


def run_partial_table() -> None:
    """Groups with a fixed number of games per team (``plan(..., games_per_team=k)``)."""
    header = (
        f"{'teams':>5} {'groups':>6} {'size':>4} {'games':>5} {'courts':>6} {'layout':<13} {'rest':<4} "
        f"{'slots':>6} {'bound':>6} {'gap':>5} {'streak':>6} {'waits':>5} {'ok':<3} {'ms':>7}"
    )
    print()
    print(header)
    print("-" * len(header))
    started = time.perf_counter()
    bad = 0
    for size, games in ((6, 3), (7, 2), (7, 4), (8, 3), (9, 4), (10, 3), (12, 4)):
        for n_groups, courts in ((1, 1), (1, 2), (4, 4), (4, 16), (25, 4), (25, 16)):
            groups = make_groups([size] * n_groups)
            court_ids = list(range(1, courts + 1))
            for layout in LAYOUTS:
                for rest in (False, True):
                    t0 = time.perf_counter()
                    p = plan(groups, court_ids, layout, rest=rest, games_per_team=games)
                    ms = (time.perf_counter() - t0) * 1000
                    r = report(p)
                    bad += bool(r.problems)
                    print(
                        f"{size * n_groups:>5} {n_groups:>6} {size:>4} {games:>5} {courts:>6} "
                        f"{SHORT[layout]:<13} {'yes' if rest else 'no':<4} {p.slots:>6} {p.lower_bound:>6} "
                        f"{p.gap:>5} {r.max_streak:>6} {r.wait_spread:>5} {'ok' if not r.problems else 'BAD':<3} "
                        f"{ms:>7.1f}",
                        flush=True,
                    )
    print(f"games per team: schedules with problems: {bad}, total time {time.perf_counter() - started:.1f} s")


def run_grid() -> None:
    started = time.perf_counter()
    total = at_bound = bad = 0
    for n_groups in range(1, 13):
        for n_courts in range(1, 17):
            courts = [10 * (k + 1) for k in range(n_courts)]
            shapes = [[size] * n_groups for size in range(2, 17)]
            shapes.append([2 + (7 * n_groups + 3 * n_courts + 5 * i) % 15 for i in range(n_groups)])
            for sizes in shapes:
                groups = make_groups(sizes)
                p = plan(groups, courts, "shared")
                total += 1
                at_bound += p.slots == p.lower_bound
                bad += bool(check_schedule(p.matches, groups))
    print(
        f"grid (1-12 groups of 2-16 teams, 1-16 courts), shared/no-rest at the lower "
        f"bound: {'yes' if at_bound == total else 'no'} ({at_bound}/{total}), "
        f"schedules with problems: {bad}, {time.perf_counter() - started:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller table")
    parser.add_argument("--grid", action="store_true", help="also run the full test family")
    parser.add_argument("--partial", action="store_true", help="only the table of fixed games per team")
    args = parser.parse_args()
    if not args.partial:
        run_table(args.quick)
    run_partial_table()
    if args.grid:
        run_grid()


if __name__ == "__main__":
    main()
