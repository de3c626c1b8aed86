"""Faults at the venue: a killed server, a lost response, a locked, read-only or full database.

- The server killed in the middle of a submission: what was acknowledged (302) stays,
  the interrupted sheet leaves nothing behind (a real process killed with SIGKILL inside
  ``submit_sheet``'s transaction, and an exception injected at the same place).
- A response lost on the Wi-Fi: the tablet posts the same form again (same submission
  key) and gets the same version, never a second one.
- The database locked by another writer for a moment: the POST waits (SQLite's busy
  timeout, PostgreSQL's row lock) and succeeds. Locked for longer than the wait: a 503
  page "busy, try again — your values are kept" with the typed values as hidden fields,
  which, sent again, save exactly one version.
- A read-only or full database: a clear 503 page, values kept, nothing half-saved.

The lock tests need a database that two connections share: PostgreSQL as it is, SQLite
as a real WAL file (the in-memory test database's shared cache answers "table is
locked" at once and ignores the busy timeout), built the same way as in
``tests/judging/test_concurrency.py``.
"""

import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from html import unescape
from pathlib import Path
from unittest import mock

import pytest
from django.db import OperationalError, connection, transaction
from django.urls import reverse

from config.middleware import classify
from judging import services as judging_services
from judging.engine import rules
from judging.models import HistoryEntry, RecordingSheet
from tests import factories
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

BASE = Path(__file__).resolve().parent.parent.parent


def post_values(**overrides):
    data = {
        "cards_a": "30",
        "cards_b": "26",
        "referee_cards": "0",
        "joker_holder": "A",
        "rps_winner": "",
        "rps_used": "0",
    }
    data.update(overrides)
    return data


def make_day(courts=1, teams=3):
    event = factories.make_event(courts=courts)
    division = factories.make_division(event, courts=list(range(1, courts + 1)))
    factories.make_teams(division, teams)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event


def first_match(event):
    return Match.objects.select_related("court").filter(event=event).order_by("match_number").first()


def entry_url(match):
    return reverse("judging:court_entry", args=[match.court.token, match.match_number])


def form_fields(html):
    """The hidden and text inputs of the first POST form of a page, as a dict."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and 'type="radio"' not in tag and 'type="checkbox"' not in tag:
            fields.setdefault(unescape(name.group(1)), unescape(value.group(1)) if value else "")
    return fields


# --- A server killed mid-submission --------------------------------------------------------


@pytest.mark.django_db
def test_an_error_after_the_sheet_row_is_written_leaves_nothing(client):
    event = make_day()
    match = first_match(event)
    seen = {}

    def crash(*args, **kwargs):
        seen["sheet rows before the crash"] = RecordingSheet.objects.filter(match=match).count()
        raise RuntimeError("the server died here")

    with (
        mock.patch.object(HistoryEntry.objects, "create", side_effect=crash),
        pytest.raises(RuntimeError, match="the server died here"),
    ):
        judging_services.submit_sheet(
            match,
            rules.SheetValues(30, 26, 0, rules.JokerHolder.A),
            base_version=0,
            submission_key="k1",
            court=match.court,
        )
    assert seen == {"sheet rows before the crash": 1}  # the row was written inside the transaction …
    assert RecordingSheet.objects.filter(match=match).count() == 0  # … and rolled back with it
    assert HistoryEntry.objects.filter(match=match).count() == 0
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.winner_id is None
    # The referee sends again: version 1, once.
    response = client.post(entry_url(match), post_values(base_version="0", submission_key="k1"))
    assert response.status_code == 302
    assert list(RecordingSheet.objects.filter(match=match).values_list("version", flat=True)) == [1]


KILL_SCRIPT = textwrap.dedent(
    """
    import json, os, signal, sys
    import django
    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from judging import services as judging_services
    from judging.engine import rules
    from judging.models import RecordingSheet, HistoryEntry
    from tournament.models import Court, Division, Event, Match
    from tournament.services.draw import draw_groups
    from tournament.services.schedule import make_schedule
    from tests import factories

    phase = sys.argv[1]
    if phase == "setup":
        if connection.vendor == "sqlite":
            call_command("migrate", verbosity=0)
        event = factories.make_event(courts=1, slug="killed")
        division = factories.make_division(event, courts=[1])
        factories.make_teams(division, 3)
        draw_groups(event, seed=1)
        make_schedule(event)
    elif phase == "kill":
        games = list(Match.objects.filter(event__slug="killed").select_related("event", "court").order_by("match_number"))
        values = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
        judging_services.submit_sheet(games[0], values, base_version=0, submission_key="acknowledged", court=games[0].court)
        print("acknowledged", flush=True)
        real = HistoryEntry.objects.create
        def die(*args, **kwargs):
            # The sheet row of the second game is written, its transaction still open.
            assert RecordingSheet.objects.filter(match=games[1]).count() == 1
            os.kill(os.getpid(), signal.SIGKILL)
        HistoryEntry.objects.create = die
        judging_services.submit_sheet(games[1], values, base_version=0, submission_key="interrupted", court=games[1].court)
        print("not reached", flush=True)
    elif phase == "inspect":
        games = list(Match.objects.filter(event__slug="killed").order_by("match_number"))
        report = {
            "sheets": [[s.match.match_number, s.version, s.submission_key, s.is_confirmed]
                       for s in RecordingSheet.objects.filter(match__event__slug="killed").order_by("match__match_number")],
            "events": HistoryEntry.objects.filter(match__event__slug="killed").count(),
            "statuses": [m.status for m in games],
        }
        if connection.vendor == "sqlite":
            with connection.cursor() as cursor:
                cursor.execute("PRAGMA integrity_check")
                report["integrity"] = cursor.fetchone()[0]
        print(json.dumps(report))
    """
)


def _database_url_for_subprocess():
    if connection.vendor != "postgresql":
        return None
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "") + "@" if s["USER"] else ""
    return f"postgres://{auth}{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_a_server_killed_inside_the_transaction_keeps_what_was_acknowledged_and_nothing_else(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update(
        {
            "KARUTA_DATA_DIR": str(tmp_path),
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "KARUTA_AUTO_BACKUP": "0",
            "PYTHONPATH": str(BASE),
        }
    )
    url = _database_url_for_subprocess()
    if url:
        env["DATABASE_URL"] = url  # the test database, which this test leaves committed to

    def run(phase):
        return subprocess.run(
            [sys.executable, "-c", KILL_SCRIPT, phase], cwd=BASE, env=env, capture_output=True, text=True, timeout=120
        )

    setup = run("setup")
    assert setup.returncode == 0, setup.stderr
    killed = run("kill")
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert killed.stdout.split() == ["acknowledged"]
    inspect = run("inspect")
    assert inspect.returncode == 0, inspect.stderr
    report = json.loads(inspect.stdout.strip().splitlines()[-1])
    assert report["sheets"] == [[1, 1, "acknowledged", True]]  # the auto-confirmed first game, once
    assert report["events"] == 2  # SUBMITTED + AUTO_CONFIRMED of game 1; none of game 2
    assert report["statuses"][1] == Match.Status.SCHEDULED
    assert report.get("integrity", "ok") == "ok"


# --- A lost response: the same form posted again ----------------------------------------


@pytest.mark.django_db
def test_a_retried_submission_after_a_lost_response_makes_one_version(client):
    event = make_day()
    match = first_match(event)
    form = form_fields(client.get(entry_url(match)).content.decode())
    assert form["submission_key"] and form["base_version"] == "0"
    data = post_values(base_version=form["base_version"], submission_key=form["submission_key"])
    first = client.post(entry_url(match), data)
    # The tablet never saw that answer (Wi-Fi dropped); the referee presses the button again.
    again = client.post(entry_url(match), data)
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"]
    assert RecordingSheet.objects.filter(match=match).count() == 1
    assert HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.SUBMITTED).count() == 1


# --- A locked database ----------------------------------------------------------------------


@pytest.fixture
def shared_database(transactional_db):
    """A database that a second connection (another thread) really shares with the test client."""
    settings_dict = connection.settings_dict
    if connection.vendor != "sqlite":
        yield None
        return
    memory_name = settings_dict["NAME"]
    directory = Path(tempfile.mkdtemp(prefix="karuta-faults-"))
    path = directory / "db.sqlite3"
    keeper = sqlite3.connect(str(memory_name), uri=True) if connection.is_in_memory_db() else None
    source = keeper or sqlite3.connect(str(memory_name))
    target = sqlite3.connect(str(path))
    source.backup(target)
    target.close()
    if keeper is None:
        source.close()
    settings_dict["NAME"] = str(path)
    connection.close()
    try:
        yield path
    finally:
        connection.close()
        settings_dict["NAME"] = memory_name
        if keeper is not None:
            connection.ensure_connection()
            keeper.close()
        shutil.rmtree(directory, ignore_errors=True)


class LockHolder(threading.Thread):
    """Another writer holding the game's lock (SQLite: the whole database) until ``release``
    is set, or for ``seconds`` at most."""

    def __init__(self, match_pk, seconds):
        super().__init__(daemon=True)
        self.match_pk, self.seconds = match_pk, seconds
        self.locked = threading.Event()
        self.release = threading.Event()
        self.error = None

    def run(self):
        try:
            with transaction.atomic():  # BEGIN IMMEDIATE on SQLite: the write lock at once
                list(Match.objects.select_for_update().filter(pk=self.match_pk))  # PostgreSQL: the game's row
                self.locked.set()
                self.release.wait(self.seconds)
        except Exception as error:
            self.error = error
            self.locked.set()
        finally:
            connection.close()


def short_wait(milliseconds):
    """Make the test client's connection give up waiting for a lock after ``milliseconds``."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"PRAGMA busy_timeout = {int(milliseconds)}")
        else:
            cursor.execute(f"SET lock_timeout = '{int(milliseconds)}ms'")


def reset_wait():
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(f"PRAGMA busy_timeout = {int(connection.settings_dict['OPTIONS'].get('timeout', 5) * 1000)}")
        else:
            cursor.execute("SET lock_timeout = 0")


def test_a_post_while_another_writer_holds_the_lock_waits_and_succeeds(shared_database, client):
    event = make_day()
    match = first_match(event)
    url = entry_url(match)
    form = form_fields(client.get(url).content.decode())
    # The other writer's 1.5 s is the behaviour under test: the post must wait for it (it is
    # not released early) and then succeed, within the connection's 5 s wait.
    holder = LockHolder(match.pk, 1.5)
    holder.start()
    assert holder.locked.wait(10) and holder.error is None
    started = time.monotonic()
    if connection.vendor == "sqlite":
        # WAL: readers are never blocked by the writer; the public pages open at once.
        assert client.get(reverse("tournament:public_timetable", args=[event.slug])).status_code == 200
        assert time.monotonic() - started < 1.0
        started = time.monotonic()
    response = client.post(url, post_values(base_version=form["base_version"], submission_key=form["submission_key"]))
    waited = time.monotonic() - started
    holder.join(10)
    assert holder.error is None
    assert response.status_code == 302, response.content.decode()[:500]
    assert waited >= 0.5  # it really waited for the other writer (1.5 s)
    assert list(RecordingSheet.objects.filter(match=match).values_list("version", flat=True)) == [1]


def test_a_post_locked_out_longer_than_the_wait_gets_a_503_that_keeps_the_values(shared_database, client):
    event = make_day()
    match = first_match(event)
    url = entry_url(match)
    form = form_fields(client.get(url).content.decode())
    typed = post_values(
        cards_a="31", cards_b="25", base_version=form["base_version"], submission_key=form["submission_key"]
    )
    holder = LockHolder(match.pk, 30)  # held until the post has given up, however slow the machine
    holder.start()
    assert holder.locked.wait(10) and holder.error is None
    short_wait(200)
    try:
        response = client.post(url, typed)
    finally:
        reset_wait()
        holder.release.set()
    holder.join(10)
    assert holder.error is None
    assert response.status_code == 503
    assert response["Retry-After"] == "3"
    page = response.content.decode()
    assert 'data-kind="busy"' in page
    assert "入力した内容は残っています" in page
    resend = form_fields(page)
    for name in ("cards_a", "cards_b", "referee_cards", "joker_holder", "submission_key", "base_version"):
        assert resend[name] == typed[name], name
    assert RecordingSheet.objects.filter(match=match).count() == 0  # nothing half-saved
    # The lock is gone: "Send again" saves it, once, even if pressed twice.
    assert client.post(url, resend).status_code == 302
    assert client.post(url, resend).status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.version, sheet.cards_a, sheet.cards_b, sheet.submission_key) == (1, 31, 25, typed["submission_key"])


# --- Read-only or full database -----------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_read_only_database_gives_a_clear_page_and_keeps_the_values(client):
    event = make_day()
    match = first_match(event)
    url = entry_url(match)
    form = form_fields(client.get(url).content.decode())
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA query_only = ON")  # writes fail: "attempt to write a readonly database"
        else:
            cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    try:
        assert client.get(reverse("tournament:public_timetable", args=[event.slug])).status_code == 200  # reading works
        response = client.post(
            url, post_values(submission_key=form["submission_key"], base_version=form["base_version"])
        )
    finally:
        with connection.cursor() as cursor:
            if connection.vendor == "sqlite":
                cursor.execute("PRAGMA query_only = OFF")
            else:
                cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE")
    assert response.status_code == 503
    page = response.content.decode()
    assert 'data-kind="readonly"' in page and "読み取り専用" in page
    assert form_fields(page)["cards_a"] == "30"
    assert RecordingSheet.objects.filter(match=match).count() == 0
    assert client.post(url, form_fields(page)).status_code == 302


@pytest.mark.django_db
def test_a_full_disk_gives_a_clear_page_in_english_too(client):
    event = make_day()
    match = first_match(event)
    with mock.patch.object(RecordingSheet.objects, "create", side_effect=OperationalError("database or disk is full")):
        response = client.post(entry_url(match), post_values(), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    page = response.content.decode()
    assert 'data-kind="full"' in page and "disk is full" in page and "Your values are kept" in page


@pytest.mark.django_db
def test_other_database_errors_stay_errors(client):
    event = make_day()
    match = first_match(event)
    with (
        mock.patch.object(RecordingSheet.objects, "create", side_effect=OperationalError("no such table: x")),
        pytest.raises(OperationalError, match="no such table: x"),
    ):
        client.post(entry_url(match), post_values())


@pytest.mark.django_db
def test_a_get_while_the_database_is_unreachable_offers_a_reload(client):
    event = make_day()
    match = first_match(event)
    with mock.patch("judging.services.latest_sheet", side_effect=OperationalError("connection refused")):
        response = client.get(entry_url(match))
    assert response.status_code == 503
    page = response.content.decode()
    assert 'data-kind="unavailable"' in page and "<form" not in page


@pytest.mark.parametrize(
    "message, kind",
    [
        ("database is locked", "busy"),
        ("database table is locked: tournament_match", "busy"),
        ("canceling statement due to lock timeout", "busy"),
        ("deadlock detected", "busy"),
        ("could not serialize access due to concurrent update", "busy"),
        ("attempt to write a readonly database", "readonly"),
        ("cannot execute INSERT in a read-only transaction", "readonly"),
        ("database or disk is full", "full"),
        ('could not extend file "base/1/2": No space left on device', "full"),
        ('connection to server at "127.0.0.1", port 5432 failed: Connection refused', "unavailable"),
        ("no such table: tournament_match", None),
        ('near "SELEC": syntax error', None),
    ],
)
def test_which_database_errors_are_trouble(message, kind):
    assert classify(OperationalError(message)) == kind
    assert classify(ValueError(message)) is None
