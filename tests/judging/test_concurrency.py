"""Two writers on one game at the same moment, in real threads on a real database file.

Why a file: pytest-django gives SQLite tests an in-memory database in shared-cache mode
(``file:memorydb_default?mode=memory&cache=shared``). Threads can open it, but shared
cache locks table by table and answers a second writer at once with "database table is
locked" (SQLITE_LOCKED), ignoring the busy timeout. That is not how the app runs at the
venue (a WAL database file, IMMEDIATE transactions, a 20 s busy timeout), so these tests
copy the test schema into a temporary file and point the connection at it for the
duration of each test. The in-memory test database is kept alive by an extra connection
and is back in place when the test ends.

Every thread waits at a ``threading.Barrier`` so the two calls start together, and closes
its own connection when done.
"""

import shutil
import sqlite3
import tempfile
import threading
from pathlib import Path

import pytest
from django.db import IntegrityError, connection, transaction

from judging import services
from judging.engine import rules
from judging.models import HistoryEntry, RecordingSheet
from tests import factories
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db(transaction=True)

VALUES = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
OTHER_VALUES = rules.SheetValues(20, 36, 0, rules.JokerHolder.B)
THIRD_VALUES = rules.SheetValues(29, 27, 0, rules.JokerHolder.A)


@pytest.fixture
def file_database(transactional_db):
    """Point the default connection (and every thread's) at a copy of the test schema in a file."""
    settings_dict = connection.settings_dict
    if connection.vendor != "sqlite":
        yield  # a server database (PostgreSQL) already serves many connections
        return
    memory_name = settings_dict["NAME"]
    directory = Path(tempfile.mkdtemp(prefix="karuta-concurrency-"))
    path = directory / "db.sqlite3"
    # Keeps an in-memory database alive while Django's own connection to it is closed.
    keeper = sqlite3.connect(str(memory_name), uri=True) if connection.is_in_memory_db() else None
    source = keeper or sqlite3.connect(str(memory_name))
    target = sqlite3.connect(str(path))
    source.backup(target)
    target.close()
    if keeper is None:
        source.close()
    settings_dict["NAME"] = str(path)  # the dict every thread's connection is built from
    connection.close()  # now really closed (an in-memory connection is never closed by Django)
    try:
        yield path
    finally:
        connection.close()
        settings_dict["NAME"] = memory_name
        if keeper is not None:
            connection.ensure_connection()  # back on the in-memory database before the keeper lets go
            keeper.close()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def match(file_database):
    """A group game of an event whose results wait for a recorder."""
    if file_database is not None:
        assert connection.settings_dict["NAME"] == str(file_database)
    event = factories.make_event(courts=1, auto_confirm=False)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    return Match.objects.filter(event=event).order_by("match_number").first()


@pytest.fixture
def recorders(match, django_user_model):
    users = [django_user_model.objects.create_user(f"recorder{i}") for i in (1, 2)]
    match.event.recorders.add(*users)
    return users


def run_together(*calls):
    """Run each call in its own thread, all released at once; return [(result, error)] in order."""
    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait(timeout=10)
            outcomes[index] = (call(), None)
        except Exception as error:  # reported to the test, never lost in the thread
            outcomes[index] = (None, error)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not any(thread.is_alive() for thread in threads), "a thread is stuck"
    return outcomes


def fresh(model_object):
    return type(model_object).objects.get(pk=model_object.pk)


def test_the_threads_really_use_the_database_file(match):
    if connection.vendor != "sqlite":
        pytest.skip("only SQLite needs a database file for threads")
    names = run_together(lambda: connection.settings_dict["NAME"], lambda: Match.objects.filter(pk=match.pk).exists())
    assert names[0] == (connection.settings_dict["NAME"], None)
    assert names[1] == (True, None)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode")
        assert cursor.fetchone()[0].lower() == "wal"


def test_two_recorders_confirming_two_different_versions_at_once_leave_exactly_one_confirmed(match, recorders):
    first, _ = services.submit_sheet(match, VALUES, base_version=0, court=match.court)
    second, _ = services.submit_sheet(match, OTHER_VALUES, base_version=1, court=match.court)
    outcomes = run_together(
        lambda: services.confirm_sheet(fresh(first), recorders[0]),
        lambda: services.confirm_sheet(fresh(second), recorders[1]),
    )
    errors = [error for _result, error in outcomes if error is not None]
    assert len(errors) == 1 and type(errors[0]) is services.UserError  # the older version: "not the newest"
    assert outcomes[1][1] is None
    confirmed = list(RecordingSheet.objects.filter(match=match, is_confirmed=True))
    assert [s.version for s in confirmed] == [2]
    assert confirmed[0].confirmed_by == recorders[1]
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.team_b_id
    assert HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.CONFIRMED).count() == 1


def test_a_correction_racing_a_confirmation_never_leaves_two_confirmed_versions(match, recorders):
    first, _ = services.submit_sheet(match, VALUES, base_version=0, court=match.court)
    outcomes = run_together(
        lambda: services.confirm_sheet(fresh(first), recorders[0]),
        lambda: services.submit_sheet(fresh(match), OTHER_VALUES, base_version=1, court=match.court),
    )
    assert outcomes[1][1] is None  # the correction is based on version 1 and always saved
    # Either the confirmation came first (version 1 confirmed, version 2 waits), or the
    # correction did and version 1 is no longer the newest: refused, nothing confirmed.
    assert outcomes[0][1] is None or type(outcomes[0][1]) is services.UserError
    assert RecordingSheet.objects.filter(match=match).count() == 2
    assert RecordingSheet.objects.filter(match=match, is_confirmed=True).count() == (1 if outcomes[0][1] is None else 0)
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED


def test_two_recorders_confirming_the_same_version_at_once_confirm_it_once_without_an_error(match, recorders):
    sheet, _ = services.submit_sheet(match, VALUES, base_version=0, court=match.court)
    outcomes = run_together(
        lambda: services.confirm_sheet(fresh(sheet), recorders[0]),
        lambda: services.confirm_sheet(fresh(sheet), recorders[1]),
    )
    assert [error for _result, error in outcomes] == [None, None]
    assert [result.pk for result, _error in outcomes] == [sheet.pk, sheet.pk]
    assert RecordingSheet.objects.filter(match=match, is_confirmed=True).count() == 1
    assert HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.CONFIRMED).count() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_the_same_submission_posted_twice_at_once_makes_one_version(match):
    outcomes = run_together(
        *[
            lambda: services.submit_sheet(
                fresh(match), VALUES, base_version=0, submission_key="retry-key", court=match.court
            )
            for _ in range(2)
        ]
    )
    assert [error for _result, error in outcomes] == [None, None]
    (sheet_1, created_1), (sheet_2, created_2) = [result for result, _error in outcomes]
    assert sheet_1.pk == sheet_2.pk
    assert sorted([created_1, created_2]) == [False, True]
    assert RecordingSheet.objects.filter(match=match).count() == 1
    assert HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.SUBMITTED).count() == 1


def test_two_submissions_based_on_the_same_version_make_one_version_and_the_other_gets_a_conflict(match):
    services.submit_sheet(match, VALUES, base_version=0, court=match.court)
    outcomes = run_together(
        lambda: services.submit_sheet(
            fresh(match), THIRD_VALUES, base_version=1, submission_key="tablet", court=match.court
        ),
        lambda: services.submit_sheet(
            fresh(match), OTHER_VALUES, base_version=1, submission_key="laptop", court=match.court
        ),
    )
    errors = [error for _result, error in outcomes if error is not None]
    assert len(errors) == 1 and isinstance(errors[0], services.Conflict)
    ((saved, created),) = [result for result, error in outcomes if error is None]
    assert created and saved.version == 2
    assert errors[0].current.pk == saved.pk  # the conflict shows the version that won
    assert sorted(RecordingSheet.objects.filter(match=match).values_list("version", flat=True)) == [1, 2]


def test_the_database_itself_refuses_a_second_confirmed_version_written_at_the_same_moment(match):
    """The service is bypassed: two raw writes each mark a different version confirmed."""
    first, _ = services.submit_sheet(match, VALUES, base_version=0, court=match.court)
    second, _ = services.submit_sheet(match, OTHER_VALUES, base_version=1, court=match.court)

    def mark_confirmed(sheet):
        with transaction.atomic():
            return RecordingSheet.objects.filter(pk=sheet.pk).update(is_confirmed=True)

    outcomes = run_together(lambda: mark_confirmed(first), lambda: mark_confirmed(second))
    errors = [error for _result, error in outcomes if error is not None]
    assert len(errors) == 1 and isinstance(errors[0], IntegrityError)
    assert RecordingSheet.objects.filter(match=match, is_confirmed=True).count() == 1


def test_results_of_two_games_are_written_side_by_side_and_a_settings_change_waits_for_them(match):
    """PostgreSQL: ``lock_match`` locks the game for update and its event for share. While one
    game's result is being written, another game's goes on (no wait), and a step that locks
    the event for update (the settings, its people, its deletion) cannot go on."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's IMMEDIATE transactions write one at a time")
    from django.db import DatabaseError

    from tournament.models import Event

    first, second = Match.objects.filter(event=match.event).order_by("match_number")[:2]
    holding, done = threading.Event(), threading.Event()

    def write_first():
        with transaction.atomic():
            services.lock_match(first)
            holding.set()
            return done.wait(timeout=10)  # False: the other game waited for this one

    def write_second():
        assert holding.wait(timeout=10)
        try:
            with transaction.atomic():
                services.lock_match(second)
                try:
                    with transaction.atomic():
                        Event.objects.select_for_update(nowait=True).get(pk=match.event_id)
                except DatabaseError:
                    return "settings wait"
                return "settings went on"
        finally:
            done.set()

    (held, error_1), (settings, error_2) = run_together(write_first, write_second)
    assert error_1 is None and error_2 is None
    assert held is True  # the second game's lock did not wait for the first
    assert settings == "settings wait"
