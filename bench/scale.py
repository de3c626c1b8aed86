#!/usr/bin/env python
"""How the cost grows from a city event to a national qualifier series (issue 31 item 4).

Usage (from the project root)::

    .venv/bin/python bench/scale.py [--sizes 35,250,1000] [--database sqlite|postgres]
                                    [--database-url URL] [--repeat 5] [--doc-repeat 3]
                                    [--only standings,workbook] [--clock cpu|wall] [--markdown]
                                    [--json FILE | --from-json FILE]

For each size (a number of teams, a multiple of 5) a fresh process builds the event of
bench/pages.py (``bench/_event.py``: 5 teams per court in groups of five, 10 games per
court, the first half confirmed) in a throwaway database: SQLite in a temporary data
directory, or a new database on the PostgreSQL server of ``--database-url`` (or
``DATABASE_URL``; the bench creates and drops it, so the account needs CREATEDB). It then
fetches through Django's test client, with the cache cleared before every request: every
page of bench/pages.py (public and organiser) and the organiser's print menu, every PDF of
``tournament.printing.KINDS``, the recording sheets (all, and one court's), every workbook
(the default one, each kind of ``tournament.exports.KINDS`` alone, all kinds) and the CSVs,
and prints per item: the median ms (CPU time of this process by default: for PostgreSQL
the server's own work is not in it, ``--clock wall`` counts it), the ratio to the court
entry page fetched in the same run (the reference), the queries and the KB.

Then one table: for every item, the growth factor of its cost (its ratio to the court
entry page at each size over the same ratio at the smallest size, so that a machine
busier at one size than another changes it less; the court entry page's own row is its
ms) and of its bytes, against the growth of the number of teams, and a verdict: "flat"
(growth ≤ 2x), "linear or better" (growth ≤ the teams' growth x 1.3) or "GROWS FASTER",
from the smallest size to the largest.
Pages' default views are expected flat (paged), whole-event documents (API documents,
PDFs, workbooks, all the sheets) linear or better; an item that misses its expectation is
marked. ``--markdown`` prints the table for the README as well; ``--json FILE`` keeps the
figures and ``--from-json FILE`` prints the tables again from them without measuring. No
timed test uses this.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent  # bench/: _event and pages are imported from here by the run

FLAT = "flat"
LINEAR = "linear or better"
FASTER = "GROWS FASTER"
FLAT_LIMIT = 2.0  # a paged view may cost up to twice as much at the largest size
LINEAR_SLACK = 1.3  # a whole-event document may grow up to 1.3x the number of teams
RANK = {FLAT: 0, LINEAR: 1, FASTER: 2}
DOCUMENTS = ("PDF", "workbook", "public workbook", "CSV")  # fetched --doc-repeat times, the rest --repeat
MARK = "@@scale "  # the line of the child's stdout that carries its figures


# --- pure helpers (tests/test_bench_scale.py) ---------------------------------------------


def parse_sizes(text):
    """``"35,250,1000"`` -> ``[35, 250, 1000]``: at least one size, each a positive multiple
    of 5 (teams per court), in increasing order. Raises ``ValueError`` naming the bad size."""
    sizes = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or int(part) <= 0 or int(part) % 5:
            raise ValueError(f"--sizes: {part!r} is not a positive multiple of 5 teams")
        sizes.append(int(part))
    if not sizes:
        raise ValueError("--sizes: no size given")
    if sizes != sorted(set(sizes)):
        raise ValueError(f"--sizes: {text!r} is not in increasing order without repeats")
    return sizes


def growth(values):
    """Each value over the first: ``[10, 15, 40]`` -> ``[1.0, 1.5, 4.0]``. A first value of 0
    (nothing measured) gives growth 1 for 0 and infinity for a later positive value."""
    first = values[0]
    if first == 0:
        return [1.0 if v == 0 else float("inf") for v in values]
    return [v / first for v in values]


def verdict(factor, team_ratio):
    """The class of a growth ``factor`` when the teams grew by ``team_ratio``: ``FLAT``
    (≤ ``FLAT_LIMIT``), ``LINEAR`` (≤ ``team_ratio`` x ``LINEAR_SLACK``) or ``FASTER``."""
    if factor <= FLAT_LIMIT:
        return FLAT
    if factor <= team_ratio * LINEAR_SLACK:
        return LINEAR
    return FASTER


def size_verdict(factors, team_ratios):
    """The :func:`verdict` from the smallest size to the largest (``factors`` and
    ``team_ratios`` from :func:`growth`: their last entries); ``FLAT`` for one size. The
    sizes between are printed, not judged: their small costs at the smallest size make
    their factors noisier than the largest one's."""
    return verdict(factors[-1], team_ratios[-1])


def meets(found, expected):
    """Whether the verdict ``found`` is within the ``expected`` one (flat is within linear)."""
    return RANK[found] <= RANK[expected]


def verdict_text(found, expected):
    """The verdict as printed: ``"flat"``, ``"linear or better"``, ``"GROWS FASTER"``, with
    ``" (NOT FLAT)"`` after a page expected flat that grew linearly."""
    if found == LINEAR and not meets(found, expected):
        return f"{found} (NOT FLAT)"
    return found


def summarise(sizes, runs):
    """The growth table's rows from the children's figures.

    ``runs``: one dict per size, ``{"items": [{"name", "expected", "ms", "bytes",
    "queries"}, ...]}`` with the court entry page first (the reference). Returns one dict per
    item present at every size: name, expected, ms / ratio / bytes / queries per size, the
    cost growth (ratios to the reference; the reference's own ms), the bytes growth, the
    verdict and whether it meets the expectation."""
    team_ratios = growth(sizes)
    by_size = [{item["name"]: item for item in run["items"]} for run in runs]
    references = [run["items"][0]["ms"] for run in runs]
    rows = []
    for index, first in enumerate(runs[0]["items"]):
        name = first["name"]
        if not all(name in found for found in by_size):
            continue
        items = [found[name] for found in by_size]
        ms = [item["ms"] for item in items]
        ratios = [m / ref if ref else 0.0 for m, ref in zip(ms, references, strict=True)]
        cost = growth(ms if index == 0 else ratios)
        found = size_verdict(cost, team_ratios)
        rows.append(
            {
                "name": name,
                "expected": first["expected"],
                "ms": ms,
                "ratio": ratios,
                "bytes": [item["bytes"] for item in items],
                "queries": [item["queries"] for item in items],
                "growth": cost,
                "bytes_growth": growth([item["bytes"] for item in items]),
                "team_ratio": team_ratios,
                "verdict": found,
                "meets": meets(found, first["expected"]),
            }
        )
    return rows


def size_text(n):
    """Bytes as printed: ``"9 KB"``, ``"1.2 MB"``."""
    if n >= 1024 * 1024:
        return f"{n / 1024 / 1024:.1f} MB"
    return f"{n / 1024:.0f} KB"


def markdown(sizes, rows):
    """The growth table as markdown (the README's "Scale" table)."""
    head = ["item", "expected"]
    head += [f"{s} teams: ms · ratio · size · queries" for s in sizes]
    head += [
        f"growth of cost ({' / '.join(f'teams ×{r:.1f}' for r in growth(sizes)[1:])})",
        "growth of size",
        "verdict",
    ]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        cells = [row["name"], row["expected"]]
        for ms, ratio, size, queries in zip(row["ms"], row["ratio"], row["bytes"], row["queries"], strict=True):
            cells.append(f"{ms:.0f} · {ratio:.1f}× · {size_text(size)} · {queries}")
        cells.append(" / ".join(f"×{g:.1f}" for g in row["growth"][1:]))
        cells.append(" / ".join(f"×{g:.1f}" for g in row["bytes_growth"][1:]))
        text = verdict_text(row["verdict"], row["expected"])
        cells.append(text if row["meets"] else f"**{text}**")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# --- the measured run, one process per size ------------------------------------------------


def items(event):
    """(name, expected verdict, url, before) of every measured item, the court entry page
    first; ``before`` is called before every fetch (the QR codes forgotten: a first print)."""
    from django.urls import reverse
    from pages import pages

    from common.pdf.qr import clear_qr_cache
    from tournament import exports, printing

    slug = event.slug
    court = event.courts.order_by("order").first()
    found = []
    for name, kind, url in pages(event):
        # the API's documents and the full lists (?show=all, every row) are the whole event
        expected = LINEAR if name.startswith("api ") or kind == "full" else FLAT
        found.append((name, FLAT if kind == "reference" else expected, url, None))
    found.append(("organiser print menu", LINEAR, reverse("tournament:print_menu", args=[slug]), None))
    found += [(f"PDF {k}", LINEAR, reverse("tournament:print_paper", args=[slug, k]), None) for k in printing.KINDS]
    sheets = reverse("tournament:recording_sheets", args=[slug])
    found.append(("PDF recording sheets, all", LINEAR, sheets, clear_qr_cache))
    found.append(("PDF recording sheets, one court", FLAT, f"{sheets}?court={court.pk}", clear_qr_cache))
    workbook = reverse("tournament:export_workbook", args=[slug])
    found.append(("workbook (default kinds)", LINEAR, workbook, None))
    found += [(f"workbook {kind}", LINEAR, f"{workbook}?kind={kind}", None) for kind in exports.KINDS]
    found.append(("workbook, all kinds", LINEAR, workbook + "?" + "&".join(f"kind={k}" for k in exports.KINDS), None))
    found.append(("public workbook", LINEAR, reverse("tournament:public_export", args=[slug]), None))
    found += [(f"CSV {k}", LINEAR, reverse("tournament:export_csv", args=[slug, k]), None) for k in exports.CSV_KINDS]
    return found


def fetch(client, url, repeat, before=None):
    """Median CPU and wall ms of ``repeat`` cold fetches (the cache cleared, ``before``
    called), the query count and the bytes of the last. Exits on an answer other than 200."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cpu, wall, queries, size = [], [], 0, 0
    for _ in range(repeat):
        cache.clear()
        if before:
            before()
        with CaptureQueriesContext(connection) as captured:
            c, w = time.process_time(), time.perf_counter()
            response = client.get(url)
            cpu.append((time.process_time() - c) * 1000)
            wall.append((time.perf_counter() - w) * 1000)
        if response.status_code != 200:
            raise SystemExit(f"{url}: HTTP {response.status_code}")
        body = b"".join(response.streaming_content) if response.streaming else response.content
        queries, size = len(captured), len(body)
    return statistics.median(cpu), statistics.median(wall), queries, size


def run_size(teams, database_url, repeat, doc_repeat, only, clock):
    """Build the event of ``teams`` teams and measure every item; the figures as a dict
    (``summarise``'s ``runs`` entry). Progress goes to stderr."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    from _event import TEAMS_PER_COURT, build, setup_django

    with tempfile.TemporaryDirectory(prefix="karuta-bench-scale-") as data_dir:
        setup_django(data_dir, database_url)
        from django.db import connection
        from django.test import Client

        old_name = None
        if database_url:  # a database of its own on the server, dropped at the end
            connection.settings_dict["TEST"]["NAME"] = f"karuta_scale_{teams}_{os.getpid()}"
            old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            started = time.perf_counter()
            event, user, games = build(teams // TEAMS_PER_COURT)
            built = time.perf_counter() - started
            say = lambda text: print(text, file=sys.stderr, flush=True)  # noqa: E731
            say(
                f"{teams} teams, {games} games, {teams // TEAMS_PER_COURT} courts "
                f"({connection.vendor}): built in {built:.0f} s"
            )
            anonymous, organiser = Client(), Client()
            organiser.force_login(user)
            from common.pdf.fonts import japanese_font

            japanese_font()  # registered once, outside the timed fetches
            measured, reference = [], None
            say(f"{'item':36} {'cpu ms':>8} {'wall ms':>8} {'ratio':>7} {'queries':>7} {'size':>8}")
            for name, expected, url, before in items(event):
                if reference is not None and only and not any(o in name for o in only):
                    continue
                client = anonymous if name.startswith(("public", "api", "division", "court entry")) else organiser
                page = not name.startswith(DOCUMENTS)
                times = repeat if page else doc_repeat
                if page:
                    fetch(client, url, 1, before)  # the templates compiled, outside the timed fetches
                cpu, wall, queries, size = fetch(client, url, times, before)
                ms = cpu if clock == "cpu" else wall
                reference = ms if reference is None else reference
                say(f"{name:36} {cpu:8.1f} {wall:8.1f} {ms / reference:6.1f}x {queries:7d} {size_text(size):>8}")
                measured.append({"name": name, "expected": expected, "ms": ms, "bytes": size, "queries": queries})
            return {"teams": teams, "games": games, "vendor": connection.vendor, "built_s": built, "items": measured}
        finally:
            if old_name is not None:
                connection.creation.destroy_test_db(old_name, verbosity=0)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="35,250,1000", help="numbers of teams, multiples of 5 (default 35,250,1000)")
    p.add_argument("--database", choices=("sqlite", "postgres"), default="sqlite")
    p.add_argument(
        "--database-url", default="", help="PostgreSQL server for --database postgres (default DATABASE_URL)"
    )
    p.add_argument("--repeat", type=int, default=5, help="fetches per page (default 5, the median is used)")
    p.add_argument("--doc-repeat", type=int, default=3, help="fetches per PDF, workbook or CSV (default 3)")
    p.add_argument("--only", default="", help="comma-separated parts of item names (default: all)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="the cost compared (default cpu)")
    p.add_argument("--markdown", action="store_true", help="print the growth table as markdown too")
    p.add_argument("--json", default="", help="write the measured figures to this file")
    p.add_argument("--from-json", default="", help="print the tables from figures written by --json")
    p.add_argument("--child", type=int, help=argparse.SUPPRESS)  # one size, in its own process
    args = p.parse_args(argv)
    try:
        args.size_list = parse_sizes(args.sizes)
    except ValueError as error:
        p.error(str(error))
    if args.repeat < 1 or args.doc_repeat < 1:
        p.error("--repeat and --doc-repeat must be at least 1")
    if args.database == "postgres":
        args.database_url = args.database_url or os.environ.get("DATABASE_URL", "")
        if not args.database_url.startswith(("postgres://", "postgresql://")):
            p.error("--database postgres needs a postgres:// URL in --database-url or DATABASE_URL")
    else:
        args.database_url = ""
    args.only_names = [o.strip() for o in args.only.split(",") if o.strip()]
    return args


def main(argv=None):
    args = parse_args(argv)
    if args.child is not None:
        figures = run_size(args.child, args.database_url, args.repeat, args.doc_repeat, args.only_names, args.clock)
        print(MARK + json.dumps(figures), flush=True)
        return
    if args.from_json:
        saved = json.loads(Path(args.from_json).read_text())
        report(saved["sizes"], saved["database"], saved["clock"], saved["runs"], args.markdown)
        return
    runs = []
    for teams in args.size_list:
        command = [sys.executable, str(Path(__file__).resolve()), "--child", str(teams)]
        command += ["--database", args.database, "--repeat", str(args.repeat), "--doc-repeat", str(args.doc_repeat)]
        command += ["--only", args.only, "--clock", args.clock, "--sizes", str(teams)]
        env = dict(os.environ, DATABASE_URL=args.database_url) if args.database_url else None
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True, env=env, check=False)
        if done.returncode:
            raise SystemExit(f"the run of {teams} teams failed (exit {done.returncode})")
        lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
        runs.append(json.loads(lines[-1][len(MARK) :]))
        print(file=sys.stderr)
    if args.json:
        figures = {"sizes": args.size_list, "database": args.database, "clock": args.clock, "runs": runs}
        Path(args.json).write_text(json.dumps(figures, indent=1))
    report(args.size_list, args.database, args.clock, runs, args.markdown)


def report(sizes, database, clock, runs, with_markdown):
    """Print the growth table (and its markdown) of the children's figures."""
    rows = summarise(sizes, runs)
    print(
        f"Growth from {sizes[0]} teams ({database}, {clock} ms; cost = ratio to the court entry page; "
        f"teams {' / '.join(f'x{r:.1f}' for r in growth(sizes)[1:])}):"
    )
    print(f"{'item':36} {'expected':>16} {'cost growth':>16} {'size growth':>16}  verdict")
    for row in rows:
        cost = " / ".join(f"x{g:.1f}" for g in row["growth"][1:])
        size = " / ".join(f"x{g:.1f}" for g in row["bytes_growth"][1:])
        text = verdict_text(row["verdict"], row["expected"])
        print(f"{row['name']:36} {row['expected']:>16} {cost:>16} {size:>16}  {text}")
    missed = [row["name"] for row in rows if not row["meets"]]
    print(
        f"{len(rows) - len(missed)} of {len(rows)} within their expectation"
        + (f"; not: {', '.join(missed)}" if missed else "")
    )
    if with_markdown:
        print()
        print(markdown(sizes, rows))


if __name__ == "__main__":
    main()
