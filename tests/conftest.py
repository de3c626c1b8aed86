import os
import tempfile
import time
from pathlib import Path

# Tests never touch the developer's database or secret: a throwaway data directory, one per
# process (the cache, the rate limits and the kept forms live there: two processes of
# `pytest -n` must not clear or count each other's).
os.environ["KARUTA_DATA_DIR"] = tempfile.mkdtemp(prefix=f"karuta-test-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-")


import pytest


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A request through the test client leaves its language active: reset it."""
    yield
    from django.conf import settings

    if not settings.configured:  # pure-module runs with -p no:django
        return
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _private_data_dir(request, tmp_path):
    """Uploads and backups of a test go to its own folder, never to ./var."""
    if "settings" not in request.fixturenames and not _django_configured():
        yield
        return
    from django.conf import settings

    old = settings.DATA_DIR
    settings.DATA_DIR = tmp_path
    yield
    settings.DATA_DIR = old


def _django_configured():
    try:
        from django.conf import settings

        return settings.configured
    except Exception:
        return False


@pytest.fixture(autouse=True)
def _empty_cache():
    """Public pages are cached for a few seconds: each test starts with an empty cache."""
    if _django_configured():
        from django.core.cache import cache

        cache.clear()
    yield


_STARTED = time.time()
_SURFACE_SUMMARY = Path(__file__).resolve().parents[1] / "test-artifacts" / "surface-summary.txt"


def pytest_terminal_summary(terminalreporter):
    """The surface crawl's counts (tests/surface), when it ran in this session: read back from
    the file it wrote, since the crawl may have run in another process (pytest -n)."""
    if _SURFACE_SUMMARY.exists() and _SURFACE_SUMMARY.stat().st_mtime >= _STARTED:
        terminalreporter.write_line(_SURFACE_SUMMARY.read_text(encoding="utf-8").rstrip())
        terminalreporter.write_line("coverage list: test-artifacts/surface-coverage.txt")


# On PostgreSQL (DATABASE_URL=postgres…) the suite runs the tests that reach the database; the
# rest gives the same answer on any database and has run on the SQLite pass of the same CI run:
# the pure tests (no database fixture) and the browser tests (tests/browser drive Chromium
# through the same views and services as the tests that run here). KARUTA_TESTS=all runs
# everything on PostgreSQL too.
_BROWSER = Path(__file__).resolve().parent / "browser"
_DB_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}


def _on_postgresql():
    return os.environ.get("DATABASE_URL", "").startswith(("postgres", "pgsql"))


def pytest_collection_modifyitems(config, items):
    if not _on_postgresql() or os.environ.get("KARUTA_TESTS") == "all":
        return
    same = pytest.mark.skip(reason="independent of the database: run on the SQLite pass (KARUTA_TESTS=all runs it)")
    for item in items:
        reaches_db = item.get_closest_marker("django_db") or _DB_FIXTURES & set(getattr(item, "fixturenames", ()))
        if not reaches_db or _BROWSER in Path(str(item.path)).parents:
            item.add_marker(same)


@pytest.fixture(autouse=True)
def _shipped_rows(request):
    """The rows the migrations ship (reader 0003: the deck ``hitachi``) are there for every test
    that uses the database: a transactional test (the browser tests' live server), a restore or a
    flush empties the tables, and with ``pytest -n`` the later tests of the same process would
    miss them. One query when they are there."""
    transactional = "transactional_db" in request.fixturenames or "live_server" in request.fixturenames
    marker = request.node.get_closest_marker("django_db")
    if transactional or "db" in request.fixturenames or marker is not None:
        request.getfixturevalue(
            "transactional_db" if transactional or (marker and marker.kwargs.get("transaction")) else "db"
        )
        from django.apps import apps
        from django.utils.module_loading import import_string

        if not apps.get_model("reader", "DeckEdition").objects.filter(slug="hitachi").exists():
            import_string("reader.migrations.0003_hitachi_deck.ship")(apps, None)
    yield
