"""The PostgreSQL backend's health check (config/postgresql/base.py): a kept connection is
asked nothing while its socket is quiet, and one the server has dropped is replaced."""

import socket
import time
from unittest import mock

import pytest
from django.db import connection
from django.db.backends.postgresql import base as django_base

from config.postgresql import base
from tests.config.test_settings import settings_in

on_postgresql = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only")


def test_a_quiet_socket_has_nothing_to_read_and_a_closed_one_has():
    left, right = socket.socketpair()
    try:
        assert not base._readable(left.fileno())
        right.send(b"N")  # a message from the server (NOTIFY, a changed setting, an error)
        assert base._readable(left.fileno())
        left.recv(1)
        assert not base._readable(left.fileno())
        right.close()  # the server went away: the end of the stream is something to read
        assert base._readable(left.fileno())
    finally:
        left.close()


def test_a_database_url_chooses_this_backend(tmp_path):
    (engine,) = settings_in(
        tmp_path, {"DATABASE_URL": "postgres://karuta@127.0.0.1:1/karuta"}, 'DATABASES["default"]["ENGINE"]'
    )
    assert engine == "config.postgresql"


@pytest.fixture
def kept():
    """A second connection with the test database's settings, outside the test's transaction."""
    wrapper = base.DatabaseWrapper({**connection.settings_dict}, alias="health-check")
    wrapper.ensure_connection()
    yield wrapper
    wrapper.close()


def _pid(wrapper):
    with wrapper.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _wait_readable(wrapper, seconds=5.0):
    deadline = time.monotonic() + seconds
    while not base._readable(wrapper.connection.fileno()) and time.monotonic() < deadline:
        time.sleep(0.02)


@on_postgresql
@pytest.mark.django_db
def test_an_idle_kept_connection_is_usable_without_a_round_trip(kept):
    with mock.patch.object(django_base.DatabaseWrapper, "is_usable", side_effect=AssertionError("asked the server")):
        assert kept.is_usable()


@on_postgresql
@pytest.mark.django_db
def test_news_on_the_socket_is_checked_with_the_server_and_the_connection_kept(kept):
    kept.connection.execute("LISTEN karuta_health_check")
    other = base.DatabaseWrapper({**connection.settings_dict}, alias="health-check-notify")
    try:
        other.ensure_connection()
        other.connection.execute("NOTIFY karuta_health_check")
    finally:
        other.close()
    _wait_readable(kept)
    with mock.patch.object(django_base.DatabaseWrapper, "is_usable", autospec=True, return_value=True) as asked:
        assert kept.is_usable()
    assert asked.call_count == 1
    assert kept.is_usable()  # the real SELECT 1 answers


@on_postgresql
@pytest.mark.django_db
def test_a_connection_the_server_ended_is_closed_and_the_next_query_reconnects(kept):
    pid = _pid(kept)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    _wait_readable(kept)
    assert not kept.is_usable()
    kept.health_check_enabled, kept.health_check_done = True, False
    kept.close_if_health_check_failed()
    assert kept.connection is None
    assert _pid(kept) != pid


@on_postgresql
@pytest.mark.django_db
def test_every_connection_plans_joins_in_the_order_written(kept):
    with kept.cursor() as cursor:
        cursor.execute("SHOW join_collapse_limit")
        assert cursor.fetchone()[0] == "1"
    with connection.cursor() as cursor:  # the test database's own connection too
        cursor.execute("SHOW join_collapse_limit")
        assert cursor.fetchone()[0] == "1"
