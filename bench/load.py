"""Load test of `make serve`: referees posting results through their court links while
spectators reload the public pages; then every acknowledged result is checked.

    .venv/bin/python bench/load.py                          # stress: 50 referees, 200 spectators, 60 s, SQLite
    .venv/bin/python bench/load.py --shape day              # the real day: 50 tablets, 1,000 phones, 8 screens
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
   version per game, the newest; and no error answer at all (a correction that happens to
   carry the values of the game's newest version makes no new version: the server answers
   with that version, and it is counted apart, not as a lost result);
5. p50 / p95 / max latency per kind of request, and the ratio to the baseline.

Two shapes (``--shape``, issue 31 item 3):

- ``stress`` (the default, above): referees posting every ``--referee-think`` seconds (about
  200× a real court) and spectators reloading whole pages; it finds the throughput at
  saturation (requests/s) and every request kind's p95 as a ratio to ``/healthz``'s.
- ``day``: the busiest minute of a prefectural event, the end of a round, as the pages' own
  scripts make it: each of the 50 court tablets posts its game's result once at a random
  moment of the window (a court posts one result per 20-minute round, and a round ends on
  every court within minutes), polls its court's state every 20 s (court_refresh.js) and
  says it is there every 60 s (offline.js); 1,000 phones ask the API's events document every
  15 s with ``If-None-Match`` (public_refresh.js: a 304 while nothing changed) and fetch their
  page's fragment when the version changed and once a minute anyway (half of them, by
  default, on their team's page: two phones a team; the others on the timetable, the
  standings and the results); 8 hall screens poll
  ``display/state.json`` every 5 s (display.js) and fetch their fragment when it changed.
  Before the window every phone and screen opens its page once (``open_pages``, timed as
  "page open", no mark): at the end of a round the pages are open already.
  Marks: result POST p95 under 300 ms, every poll's p95 under 100 ms.

The generator and the server share the machine: with ``--pin`` (the default on Linux with two
or more cores and ``taskset``) the server runs on the last core and this generator on the
first, so the generator does not eat the server's CPU (gunicorn's workers then count one core).

Exit status 0 only when there was no error and nothing was lost or doubled. Every loop
is bounded by the duration and by a count; it only ever connects to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
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
    p.add_argument("--shape", choices=("stress", "day"), default="stress", help="the load's shape (default stress)")
    p.add_argument("--referees", type=int, default=50, help="referees (tablets), one court each (default 50)")
    p.add_argument("--phones", type=int, default=1000, help="--shape day: phones polling (default 1000)")
    p.add_argument("--screens", type=int, default=8, help="--shape day: hall screens polling (default 8)")
    p.add_argument(
        "--team-phones",
        type=float,
        default=0.5,
        help="--shape day: share of the phones on their team's page, the family page (default 0.5; "
        "the others on the timetable, the standings and the results in turn)",
    )
    p.add_argument(
        "--pin",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="server on the last core, generator on the first (default: on with taskset and 2+ cores)",
    )
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
    if args.referees < 1 or args.spectators < 0 or args.duration <= 0 or args.phones < 0 or args.screens < 0:
        p.error("at least one referee, no negative spectators, phones or screens, a positive duration")
    if not 0 <= args.team_phones <= 1:
        p.error("--team-phones: a share from 0 to 1")
    if args.pin is None:
        args.pin = can_pin()
    elif args.pin and not can_pin():
        p.error("--pin needs Linux, taskset and two cores")
    # Chosen once, before this process pins itself: the server on the last core, this generator on the first.
    args.server_core, args.generator_core = (cores()[-1], cores()[0]) if args.pin else (None, None)
    return args


def can_pin():
    """Whether the server and the generator can each have a core of their own (Linux)."""
    return hasattr(os, "sched_setaffinity") and shutil.which("taskset") is not None and len(cores()) >= 2


def cores():
    return sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


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
    teams = list(event.divisions.get().teams.order_by("pk").values_list("pk", flat=True))
    connection.close()
    return event.slug, event.card_total, courts, teams


# --- The server ---------------------------------------------------------------------------


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def start_server(args, data_dir, port, log_path):
    command = ["make", "-s", "serve", f"HOST={HOST}", f"PORT={port}"]
    if args.pin:
        command = ["taskset", "-c", str(args.server_core), *command]
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
        self.not_modified = defaultdict(int)  # kind -> answers 304 (a conditional GET that cost no page)
        self.errors = []
        self.acks = []  # (match_number, submission_key, version)
        self.retries = []  # (match_number, submission_key, version first, version again)
        # (match_number, version): a new key with the values of the game's newest version, based
        # on it, answered with that version and no new one (judging.services.submit_sheet)
        self.unchanged = []
        self.newest = {}  # match_number -> (version, values) acknowledged last

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

    def request(self, method, path, body=None, extra=None):
        headers = {"Accept-Language": "ja", "User-Agent": "karuta-load/1", **(extra or {})}
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


SHEET_FIELDS = ("cards_a", "cards_b", "referee_cards", "joker_holder", "rps_winner", "rps_used")


def sheet_values_of(data):
    """The sheet's own values in a posted form (not its keys and tokens)."""
    return tuple(data.get(name, "") for name in SHEET_FIELDS)


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
        pause(rng.random() * args.referee_think, stop_at)  # do not all start in the same millisecond
        for action in range(MAX_ACTIONS):
            if time.monotonic() >= stop_at:
                break
            if action:
                pause(args.referee_think * rng.uniform(0.5, 1.5), stop_at)
                if time.monotonic() >= stop_at:
                    break
            post_result(client, token, matches[action % len(matches)], rng, card_total, args, stats)
    except Exception as error:
        stats.error("referee", repr(error))
    finally:
        client.close()


def post_result(client, token, number, rng, card_total, args, stats):
    """Open game ``number``'s entry page, post a valid sheet (302 to its saved page expected)
    and, for ``args.retry_rate`` of the posts, post the same form again as after a lost answer.
    Returns the entry page's HTML (its CSRF token serves the tablet's other posts), or ''."""
    path = f"/court/{token}/game/{number}/"
    started = time.monotonic()
    status, _headers, html = client.request("GET", path)
    stats.record("entry GET", time.monotonic() - started)
    if status != 200:
        stats.error("entry GET", f"{path}: {status}")
        return ""
    form = hidden_fields(html)
    if "csrfmiddlewaretoken" not in form or "submission_key" not in form:
        stats.error("entry GET", f"{path}: no form")
        return ""
    data = {**form, **sheet_values(rng, card_total)}
    started = time.monotonic()
    status, headers, _body = client.request("POST", path, data)
    stats.record("entry POST", time.monotonic() - started)
    location = headers.get("Location", "")
    found = re.search(r"/saved/(\d+)/$", location)
    if status != 302 or not found:
        stats.error("entry POST", f"{path}: {status} {location}")
        return html
    version = int(found.group(1))
    values = sheet_values_of(data)
    with stats.lock:
        if stats.newest.get(number) == (version, values):
            stats.unchanged.append((number, version))  # the same values again: no new version
        else:
            stats.acks.append((number, form["submission_key"], version))
            stats.newest[number] = (version, values)
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
    return html


# --- The real day (--shape day): the pages' own polling -----------------------------------

COURT_STATE_SECONDS = 20  # static/js/court_refresh.js
HEARTBEAT_SECONDS = 60  # static/js/offline.js HEARTBEAT
PHONE_SECONDS = 15  # static/js/public_refresh.js (data-seconds)
PHONE_FRAGMENT_TICKS = 4  # a phone fetches its fragment once a minute anyway
SCREEN_SECONDS = 5  # tournament.views.displays.POLL_SECONDS (static/js/display.js)
CSRF = re.compile(r'data-csrf="([^"]*)"')


def pause(seconds, stop_at):
    time.sleep(max(0.0, min(seconds, stop_at - time.monotonic())))


def tablet(index, token, matches, card_total, args, port, stats, stop_at):
    """A court tablet during the minute a round ends: its court's state every 20 s, its
    heartbeat every 60 s (a POST with the page's CSRF token), and its game's result posted once,
    at a random moment of the window."""
    rng = random.Random(args.seed * 1000 + index)
    client = Client(port)
    start = time.monotonic()
    post_at = start + rng.uniform(0.05, 0.9) * args.duration
    next_state = start + rng.uniform(0, COURT_STATE_SECONDS)
    next_heard = start + rng.uniform(0, HEARTBEAT_SECONDS)
    csrf = ""
    try:
        for _ in range(MAX_ACTIONS):
            soonest = min(next_state, next_heard, post_at if post_at else stop_at)
            pause(soonest - time.monotonic(), stop_at)
            now = time.monotonic()
            if now >= stop_at:
                break
            if post_at and now >= post_at:
                post_at = 0
                html = post_result(client, token, matches[0], rng, card_total, args, stats)
                found = CSRF.search(html)
                csrf = unescape(found.group(1)) if found else csrf
            if now >= next_state:
                next_state += COURT_STATE_SECONDS
                timed_get(client, "court state", f"/court/{token}/state.json", stats)
            if now >= next_heard and csrf:
                next_heard += HEARTBEAT_SECONDS
                started = time.monotonic()
                status, _h, _b = client.request(
                    "POST", f"/court/{token}/heard/", {"unsent": "0"}, {"X-CSRFToken": csrf}
                )
                stats.record("tablet heard", time.monotonic() - started)
                if status != 200:
                    stats.error("tablet heard", status)
            elif now >= next_heard:
                next_heard += HEARTBEAT_SECONDS  # no page yet, so no CSRF token: as a tablet just opened
    except Exception as error:
        stats.error("tablet", repr(error))
    finally:
        client.close()


def timed_get(client, kind, path, stats, etag=""):
    """GET ``path`` (conditional with ``etag``), timed as ``kind``; returns (status, headers, body)."""
    started = time.monotonic()
    status, headers, body = client.request("GET", path, extra={"If-None-Match": etag} if etag else None)
    stats.record(kind, time.monotonic() - started)
    if status == 304:
        with stats.lock:
            stats.not_modified[kind] += 1
    if status not in (200, 304):
        stats.error(kind, f"{path}: {status}")
    return status, headers, body


def phone_page(index, slug, teams, args):
    """The page phone ``index`` is on and the kind its fragment is timed as: the first
    ``--team-phones`` of the phones on a team's page (``teams``: team ids, taken in turn), the
    others on the timetable, the standings and the results in turn."""
    if index < round(args.team_phones * args.phones) and teams:
        return f"/e/{slug}/team/{teams[index % len(teams)]}/", "team fragment"
    return [f"/e/{slug}/", f"/e/{slug}/standings/", f"/e/{slug}/results/"][index % 3], "phone fragment"


OPENERS = 4  # connections that open the phones' and screens' pages before the window


def open_pages(args, port, slug, teams, stats):
    """Before the window (``--shape day``): every phone and hall screen opens its page once,
    the whole page as the browser loads it before its script polls, ``OPENERS`` at a time,
    timed as "page open" (no mark, not in the window's requests/s). The window is a minute of
    a day on which the pages are open, as they are at the end of a round: a phone polls a page
    it has opened, and opening it made the page's fragment."""
    paths = [phone_page(i, slug, teams, args)[0] for i in range(args.phones)]
    paths += [f"/e/{slug}/display/courts/"] * args.screens
    lock = threading.Lock()

    def opener():
        client = Client(port)
        try:
            while True:
                with lock:
                    if not paths:
                        return
                    path = paths.pop()
                timed_get(client, "page open", path, stats)
        except Exception as error:
            stats.error("page open", repr(error))
        finally:
            client.close()

    threads = [threading.Thread(target=opener, daemon=True) for _ in range(OPENERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def phone(index, slug, teams, args, port, stats, stop_at):
    """A parent's phone on a public page: every 15 s the API's events document, conditional;
    the page's fragment when the event's version changed, and once a minute anyway. The first
    ``--team-phones`` of the phones are on a team's page (``teams``: team ids, taken in turn),
    the others on the timetable, the standings and the results in turn."""
    rng = random.Random(args.seed * 7919 + index)
    client = Client(port)
    page, kind = phone_page(index, slug, teams, args)
    etag, version = "", None
    try:
        pause(rng.uniform(0, PHONE_SECONDS), stop_at)
        for tick in range(1, MAX_ACTIONS):
            if time.monotonic() >= stop_at:
                break
            status, headers, body = timed_get(client, "phone poll", "/api/v1/events/", stats, etag)
            changed = False
            if status == 200:
                etag = headers.get("ETag", "")
                current = next((e.get("version") for e in json.loads(body)["events"] if e.get("slug") == slug), None)
                changed, version = current != version and version is not None, current
            if changed or tick % PHONE_FRAGMENT_TICKS == 0:
                timed_get(client, kind, page + "?fragment=1", stats)
            pause(PHONE_SECONDS * rng.uniform(0.9, 1.1), stop_at)
    except Exception as error:
        stats.error("phone", repr(error))
    finally:
        client.close()


def screen(index, slug, args, port, stats, stop_at):
    """A hall screen: ``display/state.json`` every 5 s, its page's fragment when the version
    in it changed."""
    rng = random.Random(args.seed * 104729 + index)
    client = Client(port)
    version = None
    try:
        pause(rng.uniform(0, SCREEN_SECONDS), stop_at)
        for _ in range(MAX_ACTIONS):
            if time.monotonic() >= stop_at:
                break
            status, _headers, body = timed_get(client, "screen poll", f"/e/{slug}/display/state.json", stats)
            current = json.loads(body).get("version") if status == 200 else version
            if version is not None and current != version:
                timed_get(client, "screen fragment", f"/e/{slug}/display/courts/?fragment=1", stats)
            version = current
            pause(SCREEN_SECONDS, stop_at)
    except Exception as error:
        stats.error("screen", repr(error))
    finally:
        client.close()


def spectator(index, slug, args, port, stats, stop_at):
    rng = random.Random(args.seed * 7919 + index)
    client = Client(port)
    pages = [("timetable", f"/e/{slug}/"), ("standings", f"/e/{slug}/standings/"), ("results", f"/e/{slug}/results/")]
    try:
        pause(rng.random() * args.spectator_think, stop_at)
        for action in range(MAX_ACTIONS):
            if time.monotonic() >= stop_at:
                break
            kind, path = pages[action % len(pages)] if action % 2 == 0 else rng.choice(pages)
            started = time.monotonic()
            status, _headers, _html = client.request("GET", path)
            stats.record(kind, time.monotonic() - started)
            if status != 200:
                stats.error(kind, f"{path}: {status}")
            pause(args.spectator_think * rng.uniform(0.5, 1.5), stop_at)
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


def run_load(args, port, slug, card_total, courts, teams):
    stats = Stats()
    # The baseline on the idle server first.
    idle = Stats()
    baseline(port, idle, time.monotonic() + 3, kind="healthz idle")
    stats.latency["healthz idle"] = idle.latency["healthz idle"]
    if args.shape == "day":
        open_pages(args, port, slug, teams, stats)
    stop_at = time.monotonic() + args.duration
    court_client = tablet if args.shape == "day" else referee
    threading.stack_size(512 * 1024)  # a thousand phone threads: a small stack each
    threads = [
        threading.Thread(
            target=court_client, args=(i, token, matches, card_total, args, port, stats, stop_at), daemon=True
        )
        for i, (token, matches) in enumerate(courts)
    ]
    if args.shape == "day":
        threads += [
            threading.Thread(target=phone, args=(i, slug, teams, args, port, stats, stop_at), daemon=True)
            for i in range(args.phones)
        ]
        threads += [
            threading.Thread(target=screen, args=(i, slug, args, port, stats, stop_at), daemon=True)
            for i in range(args.screens)
        ]
    else:
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
    """The ``q``-th percentile of ``values`` by nearest rank (the ⌈q/100 × n⌉-th smallest)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(round(q / 100 * len(ordered), 9)) - 1))]


KINDS = (
    "entry GET",
    "entry POST",
    "entry POST again",
    "court state",
    "tablet heard",
    "phone poll",
    "phone fragment",
    "team fragment",
    "screen poll",
    "screen fragment",
    "timetable",
    "standings",
    "results",
    "healthz",
    "healthz idle",
    "page open",
)
BEFORE = ("healthz idle", "page open")  # timed before the window: not in its requests/s
# --shape day's marks (issue 31 item 3): p95 in seconds.
DAY_MARKS = {"entry POST": 0.300, "court state": 0.100, "phone poll": 0.100, "screen poll": 0.100}


def day_marks(stats):
    """One line per mark of the day shape: the kind, its p95 against the mark, met or not."""
    lines = []
    for kind, mark in DAY_MARKS.items():
        values = stats.latency.get(kind)
        if not values:
            lines.append(f"mark {kind}: p95 < {mark * 1000:.0f} ms: no request")
            continue
        p95 = pct(values, 95)
        verdict = "met" if p95 < mark else "NOT MET"
        lines.append(f"mark {kind}: p95 {p95 * 1000:.0f} ms < {mark * 1000:.0f} ms: {verdict}")
    return lines


def report(args, stats, elapsed, saved, unacknowledged, problems, database):
    print()
    who = (
        f"{args.referees} tablets, {args.phones} phones, {args.screens} screens"
        if args.shape == "day"
        else f"{args.referees} referees, {args.spectators} spectators"
        f" (referee think {args.referee_think} s, spectator think {args.spectator_think} s)"
    )
    pinned = f"; server on core {args.server_core}, generator on core {args.generator_core}" if args.pin else ""
    print(f"Load ({args.shape}): {who}, {args.duration:.0f} s on {database}{pinned}")
    total = sum(len(v) for k, v in stats.latency.items() if k not in BEFORE)
    print(
        f"{total} requests in {elapsed:.1f} s = {total / elapsed:.0f} requests/s; "
        f"{len(stats.acks)} results acknowledged, {len(stats.retries)} sent twice, {saved} versions saved"
        f", {len(stats.unchanged)} the same values again (no new version)"
    )
    base = stats.latency.get("healthz")
    base50, base95 = (statistics.median(base), pct(base, 95)) if base else (None, None)
    print(
        f"{'request':<18}{'count':>7}{'p50 ms':>9}{'p95 ms':>9}{'max ms':>9}{'p50/healthz':>13}{'p95/healthz':>13}{'304s':>7}"
    )
    for kind in KINDS:
        values = stats.latency.get(kind)
        if not values:
            continue
        p50, p95 = statistics.median(values), pct(values, 95)
        own = kind in ("healthz", *BEFORE)
        r50 = f"{p50 / base50:.1f}×" if base50 and not own else ""
        r95 = f"{p95 / base95:.1f}×" if base95 and not own else ""
        print(
            f"{kind:<18}{len(values):>7}{p50 * 1000:>9.1f}{p95 * 1000:>9.1f}{max(values) * 1000:>9.1f}{r50:>13}{r95:>13}{stats.not_modified.get(kind, '') or '':>7}"
        )
    if args.shape == "day":
        for line in day_marks(stats):
            print(line)
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
    slug, card_total, courts, teams = prepare(args)
    port = args.port or free_port()
    log_path = data_dir / "server.log"
    server = start_server(args, data_dir, port, log_path)
    print(f"make serve answers on http://{HOST}:{port}/; load for {args.duration:.0f} s …", flush=True)
    if args.pin:
        os.sched_setaffinity(0, {args.generator_core})  # the server runs on its own core (taskset)
    try:
        stats, elapsed = run_load(args, port, slug, card_total, courts, teams)
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
