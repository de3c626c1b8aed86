"""Load test of `make serve`: referees posting results through their court links while
spectators reload the public pages; then every acknowledged result is checked.

    .venv/bin/python bench/load.py                          # 50 referees, 200 spectators, 60 s, SQLite
    .venv/bin/python bench/load.py --referees 10 --spectators 40 --duration 20
    .venv/bin/python bench/load.py --database-url postgres://karuta:karuta@127.0.0.1:5432/karuta_bench

What it does, all on 127.0.0.1:
1. a fresh data directory (and, with --database-url, an empty PostgreSQL database: it
   refuses one that holds a tournament unless --flush); migrate; the demo tournament;
   a bench tournament with one court per referee (TEAMS_PER_COURT teams each), drawn,
   scheduled, results confirmed on entry (auto_confirm);
2. `make serve HOST=127.0.0.1 PORT=<free port>` in its own process group (the real
   target: collectstatic, check --deploy, gunicorn with its workers);
3. for --duration seconds: each referee, on its own court, opens a game's entry page
   (GET: CSRF token, submission key, base version), posts a valid sheet (302 expected)
   and goes on to the next game, round and round (later rounds are corrections: new
   versions); now and then it posts the same form again as if the answer had been lost
   (same submission key: must answer with the same version). Each spectator reloads the
   timetable, the standings and the results. One thread times /healthz (a view that
   does nothing) as the baseline;
4. the server is stopped, then the database is checked: every acknowledged submission
   is there exactly once with the version it was acknowledged with, each game has as
   many versions as acknowledged submissions (1..n, no gap, no double), one confirmed
   version per game, the newest; and no error answer at all;
5. p50 / p95 / max latency per kind of request, and the ratio to the baseline.

Exit status 0 only when there was no error and nothing was lost or doubled. Every loop
is bounded by the duration and by a count; it only ever connects to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from html import unescape
from pathlib import Path

BASE = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
TEAMS_PER_COURT = 5  # 10 games per court
MAX_ACTIONS = 100_000  # per thread, whatever the duration


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--referees", type=int, default=50, help="referees, one court each (default 50)")
    p.add_argument("--spectators", type=int, default=200, help="spectators reloading public pages (default 200)")
    p.add_argument("--duration", type=float, default=60, help="seconds of load (default 60)")
    # A real court posts one result per 15-20 minute game; a phone reloads now and then.
    p.add_argument(
        "--referee-think",
        type=float,
        default=5.0,
        help="mean seconds between a referee's posts (default 5: ~200× a real court)",
    )
    p.add_argument(
        "--spectator-think", type=float, default=30.0, help="mean seconds between a spectator's reloads (default 30)"
    )
    p.add_argument("--retry-rate", type=float, default=0.1, help="share of posts sent twice, as after a lost answer")
    p.add_argument("--database-url", default="", help="PostgreSQL URL (default: SQLite in the fresh data directory)")
    p.add_argument("--flush", action="store_true", help="empty the --database-url database first")
    p.add_argument("--workers", type=int, default=0, help="gunicorn workers (default: make serve's, 2 × cores + 1)")
    p.add_argument("--threads", type=int, default=0, help="threads per worker (default: make serve's)")
    p.add_argument("--port", type=int, default=0, help="port (default: a free one)")
    p.add_argument("--keep", action="store_true", help="keep the data directory and the server log")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.referees < 1 or args.spectators < 0 or args.duration <= 0:
        p.error("at least one referee, no negative spectators, a positive duration")
    return args


# --- Setting up the database (in this process, before the server starts) ------------------


def setup_django(data_dir, database_url):
    os.environ["KARUTA_DATA_DIR"] = str(data_dir)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
    os.environ["DEBUG"] = "false"
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
    sys.path.insert(0, str(BASE))
    import django

    django.setup()


def prepare(args):
    import datetime
    import io

    from django.core.management import call_command
    from django.db import connection

    from tournament.models import Court, Division, Event
    from tournament.services.draw import draw_groups
    from tournament.services.events import create_event
    from tournament.services.registration import PlayerData, save_team
    from tournament.services.schedule import make_schedule

    quiet = io.StringIO()
    call_command("migrate", verbosity=0)
    if Event.objects.exists():
        if not args.flush:
            sys.exit("The database already holds tournaments: give an empty database, or --flush to empty it.")
        call_command("flush", interactive=False, verbosity=0)
    call_command("load_demo", stdout=quiet)
    call_command("draw_groups", "demo", "--seed", "1", stdout=quiet)
    call_command("make_schedule", "demo", stdout=quiet)
    event = create_event("load", "負荷試験大会", datetime.date(2027, 1, 17), courts=args.referees, auto_confirm=True)
    division = Division.objects.create(event=event, name="一般の部")
    division.courts.set(Court.objects.filter(event=event))
    for i in range(args.referees * TEAMS_PER_COURT):
        save_team(
            division,
            f"負荷チーム{i:03d}",
            f"クラブ{i % 17}",
            [PlayerData(f"選手{i}-{j}", "せんしゅ", "小5", is_leader=j == 1) for j in range(3)],
        )
    draw_groups(event, seed=args.seed)
    make_schedule(event)
    courts = [
        (
            court.token,
            list(event.matches.filter(court=court).order_by("match_number").values_list("match_number", flat=True)),
        )
        for court in event.courts.order_by("order")
    ]
    connection.close()
    return event.slug, event.card_total, courts


# --- The server ---------------------------------------------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(args, data_dir, port, log_path):
    command = ["make", "-s", "serve", f"HOST={HOST}", f"PORT={port}"]
    if args.workers:
        command.append(f"WORKERS={args.workers}")
    if args.threads:
        command.append(f"THREADS={args.threads}")
    env = dict(os.environ, KARUTA_DATA_DIR=str(data_dir))
    env.pop("SITE_URL", None)
    log = open(log_path, "wb")  # noqa: SIM115 - closed by stop_server
    process = subprocess.Popen(
        command,
        cwd=BASE,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    process.log = log
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            stop_server(process)
            sys.exit(
                f"make serve stopped (exit {process.returncode}); see {log_path}:\n{Path(log_path).read_text()[-3000:]}"
            )
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                conn.close()
                return process
        except OSError:
            time.sleep(0.3)
    stop_server(process)
    sys.exit(f"the server did not answer within 120 s; see {log_path}")


def stop_server(process):
    """Stop `make serve` and gunicorn: the process group this script started, and only it."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    # gunicorn may outlive make for a moment: wait until the group is empty.
    for _ in range(60):
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.5)
    else:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    process.log.close()


# --- The clients ------------------------------------------------------------------------


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.latency = defaultdict(list)
        self.errors = []
        self.acks = []  # (match_number, submission_key, version)
        self.retries = []  # (match_number, submission_key, version first, version again)

    def record(self, kind, seconds):
        with self.lock:
            self.latency[kind].append(seconds)

    def error(self, kind, detail):
        with self.lock:
            self.errors.append((kind, str(detail)[:300]))


class Client:
    """One keep-alive HTTP connection to 127.0.0.1 with a cookie jar of its own."""

    def __init__(self, port):
        self.port = port
        self.cookies = {}
        self.conn = None

    def request(self, method, path, body=None):
        headers = {"Accept-Language": "ja", "User-Agent": "karuta-load/1"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            body = urllib.parse.urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed while idle (max-requests restart):
                # only then is a request sent again on a new connection; the submission key
                # makes a repeated POST harmless.
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name.strip()] = rest.split(";")[0]
        return response.status, response.headers, data.decode("utf-8", "replace")

    def close(self):
        if self.conn is not None:
            self.conn.close()


INPUT = re.compile(r"<input[^>]*>")


FORM = re.compile(r"<form[^>]*>(.*?)</form>", re.S)


def hidden_fields(html):
    """The hidden fields of the result form (not the walkover form beside it)."""
    form = next((f for f in FORM.findall(html) if 'name="cards_a"' in f), "")
    fields = {}
    for tag in INPUT.findall(form):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and 'type="hidden"' in tag:
            fields.setdefault(unescape(name.group(1)), unescape(value.group(1)) if value else "")
    return fields


def sheet_values(rng, card_total):
    half = card_total // 2
    a = rng.randint(max(1, half - 10), min(card_total - 1, half + 10))
    b = card_total - a
    return {
        "cards_a": str(a),
        "cards_b": str(b),
        "referee_cards": "0",
        "joker_holder": "A" if a >= b else "B",
        "rps_winner": "",
        "rps_used": "0",
    }


def referee(index, token, matches, card_total, args, port, stats, stop_at):
    rng = random.Random(args.seed * 1000 + index)
    client = Client(port)
    try:
        time.sleep(rng.random() * args.referee_think)  # do not all start in the same millisecond
        for action in range(MAX_ACTIONS):
            if time.monotonic() >= stop_at:
                break
            if action:
                time.sleep(min(args.referee_think * rng.uniform(0.5, 1.5), max(0.0, stop_at - time.monotonic())))
                if time.monotonic() >= stop_at:
                    break
            number = matches[action % len(matches)]
            path = f"/court/{token}/game/{number}/"
            started = time.monotonic()
            status, _headers, html = client.request("GET", path)
            stats.record("entry GET", time.monotonic() - started)
            if status != 200:
                stats.error("entry GET", f"{path}: {status}")
                continue
            form = hidden_fields(html)
            if "csrfmiddlewaretoken" not in form or "submission_key" not in form:
                stats.error("entry GET", f"{path}: no form")
                continue
            data = {**form, **sheet_values(rng, card_total)}
            started = time.monotonic()
            status, headers, _body = client.request("POST", path, data)
            stats.record("entry POST", time.monotonic() - started)
            location = headers.get("Location", "")
            found = re.search(r"/saved/(\d+)/$", location)
            if status != 302 or not found:
                stats.error("entry POST", f"{path}: {status} {location}")
                continue
            version = int(found.group(1))
            with stats.lock:
                stats.acks.append((number, form["submission_key"], version))
            if rng.random() < args.retry_rate:
                started = time.monotonic()
                status, headers, _body = client.request("POST", path, data)
                stats.record("entry POST again", time.monotonic() - started)
                again = re.search(r"/saved/(\d+)/$", headers.get("Location", ""))
                if status != 302 or not again:
                    stats.error("entry POST again", f"{path}: {status}")
                else:
                    with stats.lock:
                        stats.retries.append((number, form["submission_key"], version, int(again.group(1))))
    except Exception as error:
        stats.error("referee", repr(error))
    finally:
        client.close()


def spectator(index, slug, args, port, stats, stop_at):
    rng = random.Random(args.seed * 7919 + index)
    client = Client(port)
    pages = [("timetable", f"/e/{slug}/"), ("standings", f"/e/{slug}/standings/"), ("results", f"/e/{slug}/results/")]
    try:
        time.sleep(rng.random() * args.spectator_think)
        for action in range(MAX_ACTIONS):
            if time.monotonic() >= stop_at:
                break
            kind, path = pages[action % len(pages)] if action % 2 == 0 else rng.choice(pages)
            started = time.monotonic()
            status, _headers, _html = client.request("GET", path)
            stats.record(kind, time.monotonic() - started)
            if status != 200:
                stats.error(kind, f"{path}: {status}")
            time.sleep(min(args.spectator_think * rng.uniform(0.5, 1.5), max(0.0, stop_at - time.monotonic())))
    except Exception as error:
        stats.error("spectator", repr(error))
    finally:
        client.close()


def baseline(port, stats, stop_at, kind="healthz"):
    client = Client(port)
    try:
        for _ in range(MAX_ACTIONS):
            if time.monotonic() >= stop_at:
                break
            started = time.monotonic()
            status, _headers, body = client.request("GET", "/healthz")
            stats.record(kind, time.monotonic() - started)
            if status != 200 or body != "ok":
                stats.error(kind, status)
            time.sleep(0.2)
    except Exception as error:
        stats.error(kind, repr(error))
    finally:
        client.close()


def run_load(args, port, slug, card_total, courts):
    stats = Stats()
    # The baseline on the idle server first.
    idle = Stats()
    baseline(port, idle, time.monotonic() + 3, kind="healthz idle")
    stats.latency["healthz idle"] = idle.latency["healthz idle"]
    stop_at = time.monotonic() + args.duration
    threads = [
        threading.Thread(target=referee, args=(i, token, matches, card_total, args, port, stats, stop_at), daemon=True)
        for i, (token, matches) in enumerate(courts)
    ]
    threads += [
        threading.Thread(target=spectator, args=(i, slug, args, port, stats, stop_at), daemon=True)
        for i in range(args.spectators)
    ]
    threads.append(threading.Thread(target=baseline, args=(port, stats, stop_at), daemon=True))
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(1.0, stop_at - time.monotonic()) + 90)
    stuck = sum(thread.is_alive() for thread in threads)
    if stuck:
        stats.error("threads", f"{stuck} client threads did not finish")
    return stats, time.monotonic() - started


# --- Checking what was saved ------------------------------------------------------------


def verify(slug, stats):
    from django.db import connection

    from judging.models import RecordingSheet

    connection.close()
    problems = []
    sheets = list(
        RecordingSheet.objects.filter(match__event__slug=slug).values_list(
            "match__match_number", "submission_key", "version", "is_confirmed"
        )
    )
    by_key = defaultdict(list)
    by_match = defaultdict(list)
    for number, key, version, confirmed in sheets:
        by_key[(number, key)].append(version)
        by_match[number].append((version, confirmed))
    acked = defaultdict(set)
    for number, key, version in stats.acks:
        acked[number].add(key)
        if by_key.get((number, key)) != [version]:  # lost (missing) or doubled (two versions)
            problems.append(
                f"game {number}: acknowledged key {key[:8]}… as version {version}, saved as {by_key.get((number, key))}"
            )
    for number, _key, first, again in stats.retries:
        if first != again:
            problems.append(f"game {number}: the same form answered version {first}, then {again}")
    for number, versions in by_match.items():
        numbers = sorted(v for v, _c in versions)
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"game {number}: versions {numbers}")
        confirmed = [v for v, c in versions if c]
        if confirmed != [max(numbers)]:
            problems.append(f"game {number}: confirmed {confirmed}, newest {max(numbers)}")
    # Saved but never acknowledged: the client gave up waiting (a timeout, counted as an
    # error) after the server had saved it. Not lost; the referee would see it on reload.
    unacknowledged = {k for k in by_key if k[1] not in acked[k[0]]}
    for number, versions in by_match.items():
        if len(versions) != len(acked[number]) + sum(1 for k in unacknowledged if k[0] == number):
            problems.append(f"game {number}: {len(versions)} versions saved, {len(acked[number])} acknowledged")
    connection.close()
    return len(sheets), len(unacknowledged), problems


# --- Report -----------------------------------------------------------------------------


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def report(args, stats, elapsed, saved, unacknowledged, problems, database):
    print()
    print(
        f"Load: {args.referees} referees, {args.spectators} spectators, {args.duration:.0f} s on {database}"
        f" (referee think {args.referee_think} s, spectator think {args.spectator_think} s)"
    )
    total = sum(len(v) for k, v in stats.latency.items() if k != "healthz idle")
    print(
        f"{total} requests in {elapsed:.1f} s = {total / elapsed:.0f} requests/s; "
        f"{len(stats.acks)} results acknowledged, {len(stats.retries)} sent twice, {saved} versions saved"
    )
    base = statistics.median(stats.latency["healthz"]) if stats.latency.get("healthz") else None
    print(f"{'request':<18}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'p50/baseline':>14}")
    for kind in (
        "entry GET",
        "entry POST",
        "entry POST again",
        "timetable",
        "standings",
        "results",
        "healthz",
        "healthz idle",
    ):
        values = stats.latency.get(kind)
        if not values:
            continue
        p50 = statistics.median(values)
        ratio = f"{p50 / base:.1f}×" if base and kind not in ("healthz", "healthz idle") else ""
        print(
            f"{kind:<18}{len(values):>7}{p50 * 1000:>9.1f}{pct(values, 95) * 1000:>9.1f}{max(values) * 1000:>9.1f}{ratio:>14}"
        )
    print(f"errors: {len(stats.errors)}" + (f"  e.g. {stats.errors[:5]}" if stats.errors else ""))
    print(
        "lost or doubled results: "
        + (f"{len(problems)}  e.g. {problems[:5]}" if problems else "none")
        + (f"; {unacknowledged} saved after the client gave up waiting" if unacknowledged else "")
    )


def main(argv=None):
    args = parse_args(argv)
    data_dir = Path(tempfile.mkdtemp(prefix="karuta-load-"))
    database = "PostgreSQL" if args.database_url else "SQLite"
    setup_django(data_dir, args.database_url)
    print(f"Preparing {args.referees} courts in {data_dir} ({database}) …", flush=True)
    slug, card_total, courts = prepare(args)
    port = args.port or free_port()
    log_path = data_dir / "server.log"
    server = start_server(args, data_dir, port, log_path)
    print(f"make serve answers on http://{HOST}:{port}/; load for {args.duration:.0f} s …", flush=True)
    try:
        stats, elapsed = run_load(args, port, slug, card_total, courts)
    finally:
        stop_server(server)
    saved, unacknowledged, problems = verify(slug, stats)
    report(args, stats, elapsed, saved, unacknowledged, problems, database)
    if args.keep:
        print(f"kept {data_dir} (server log: {log_path})")
    else:
        shutil.rmtree(data_dir, ignore_errors=True)
    return 0 if not stats.errors and not problems and stats.acks else 1


if __name__ == "__main__":
    sys.exit(main())
