"""Sessions that cannot grow (issue 28, item 2).

The outside tester's flood: 20 anonymous clients posting 16 KB to an organiser URL for a
minute (redirected to the login, or refused by the CSRF check with a spoofed ``Origin``) made
1,122 session rows. A client without a stored session now never gets one for a refused form:
its values go to the cache, at most ``KEPT_FORMS_ANONYMOUS`` per ten minutes; expired sessions
are cleared when ``make serve`` starts and on a timer, and a backup holds none.
"""

import io
import os
import sqlite3
import threading

import pytest
from django.conf import settings as settings_module
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from common import kept_forms, limits
from ops import backups, sessions
from tests import factories

pytestmark = pytest.mark.django_db

OURS = "http://testserver"


@pytest.fixture
def url():
    event = factories.make_event(courts=1, slug="flood")
    return reverse("tournament:people", args=[event.slug])


def body(n):
    """Almost 16 KB of typed values (just within what is kept)."""
    return {"username": f"{n}" + "あ" * (kept_forms.LIMIT_BYTES // 3 - 50), "role": "recorder"}


def cache_entries():
    """Entries of the page cache the tests use (diskcache's count of its items)."""
    return len(cache._cache)  # diskcache.DjangoCache keeps its FanoutCache there


def test_500_anonymous_posts_create_no_session_row_and_keep_a_bounded_number(url):
    redirected = Client()
    strict = Client(enforce_csrf_checks=True)
    answers, issued = [], 0
    for n in range(500):
        if n % 3 == 0:
            response = redirected.post(url, body(n))  # login expired: to the login page
        elif n % 3 == 1:
            response = strict.post(url, body(n), HTTP_ORIGIN=OURS)  # CSRF refused, "our" Origin spoofed
        else:
            response = strict.post(url, body(n), HTTP_ORIGIN="https://evil.example")
        answers.append(response.status_code)
        issued += kept_forms.COOKIE in response.cookies
        redirected.cookies.clear()
        strict.cookies.clear()
    assert set(answers) == {302, 403}
    assert Session.objects.count() == 0
    # 334 posts could be kept; the cap stops at KEPT_FORMS_ANONYMOUS per ten minutes (twice that
    # if the test crossed from one ten minutes into the next).
    assert limits.KEPT_FORMS_ANONYMOUS <= issued <= 2 * limits.KEPT_FORMS_ANONYMOUS
    assert cache_entries() <= issued + 5


def test_a_client_with_a_stored_session_keeps_its_form_in_that_one_row(url):
    client = Client(enforce_csrf_checks=True)
    session = SessionStore()
    session["seen"] = True
    session.create()
    client.cookies["sessionid"] = session.session_key
    for n in range(20):
        client.post(url, body(n), HTTP_ORIGIN=OURS)
    assert Session.objects.count() == 1
    assert kept_forms.COOKIE not in client.cookies


def _expired_and_valid():
    for key, days in (("old", -1), ("new", 1)):
        Session.objects.create(
            session_key=key * 8, session_data="x", expire_date=timezone.now() + timezone.timedelta(days=days)
        )


def test_serve_clears_expired_sessions_on_start_and_asks_for_the_timer(monkeypatch):
    _expired_and_valid()
    monkeypatch.setenv(sessions.TIMER_ENV, "0")  # put back after the test
    out = io.StringIO()
    call_command("serve", "--dry-run", "--no-qr", stdout=out)
    assert list(Session.objects.values_list("session_key", flat=True)) == ["new" * 8]
    assert "1 expired sessions cleared" in out.getvalue()
    assert os.environ[sessions.TIMER_ENV] == "1"


@pytest.mark.django_db(transaction=True)
def test_the_timer_clears_expired_sessions_while_the_server_runs():
    _expired_and_valid()
    stop = threading.Event()
    thread = sessions.start_timer(interval=0.05, stop=stop)
    try:
        for _ in range(200):
            if not Session.objects.filter(session_key="old" * 8).exists():
                break
            stop.wait(0.05)
    finally:
        stop.set()
        thread.join(5)
    assert list(Session.objects.values_list("session_key", flat=True)) == ["new" * 8]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not settings_module.DATABASES["default"]["ENGINE"].endswith("sqlite3"),
    reason="reads the copy as SQLite; PostgreSQL clears expired sessions before pg_dump",
)
def test_a_backup_holds_no_expired_session(tmp_path, settings):
    settings.BACKUP_DIR = str(tmp_path)
    _expired_and_valid()
    path = backups.create_backup(tmp_path / "copy.sqlite3")
    copy = sqlite3.connect(path)
    try:
        kept = [row[0] for row in copy.execute("SELECT session_key FROM django_session")]
    finally:
        copy.close()
    assert kept == ["new" * 8]
    assert Session.objects.count() == 2  # the live database is not touched (SQLite)


def test_an_expired_session_cookie_gets_no_new_row_for_each_post(url):
    session = SessionStore()
    session["seen"] = True
    session.create()
    Session.objects.filter(session_key=session.session_key).update(
        expire_date=timezone.now() - timezone.timedelta(days=1)
    )
    client = Client(enforce_csrf_checks=True)
    for n in range(20):
        client.cookies["sessionid"] = session.session_key
        client.post(url, body(n), HTTP_ORIGIN=OURS)
    assert Session.objects.count() == 1  # only the expired one, which the timer clears
