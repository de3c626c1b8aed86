"""Expired sessions cleared, so the session table cannot grow without end (issue 28, item 2).

Django never deletes an expired session by itself (``manage.py clearsessions`` does), and
every backup copied them. ``make serve`` (``ops.management.commands.serve``) clears them
when it starts and asks each server process to clear them again every
``common.limits.SESSION_CLEAR_SECONDS`` (a daemon thread, ``start_timer``, started by
``OpsConfig.ready`` when ``KARUTA_CLEAR_SESSIONS=1``; each run one ``DELETE``, its own
connection closed after it). A backup drops the expired sessions of its copy
(``ops.backups``). Sessions still valid are kept: nobody is logged out.
"""

from __future__ import annotations

import logging
import random
import threading

from django.contrib.sessions.models import Session
from django.db import connections
from django.utils import timezone

from common import limits

logger = logging.getLogger("tournament.sessions")

#: The environment variable that starts the timer in a server process.
TIMER_ENV = "KARUTA_CLEAR_SESSIONS"

_started = threading.Event()


def clear_expired() -> int:
    """Delete every session whose expiry date has passed; the number deleted. Raises the
    database's errors (the caller decides whether that matters)."""
    deleted, _kinds = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


def _run(interval: float, stop: threading.Event) -> None:
    # The first run comes at a random point of the first interval, so that the server's
    # processes, started together, do not all clear at the same moment.
    wait = interval * random.uniform(0.1, 1.0)
    while not stop.wait(wait):
        try:
            count = clear_expired()
            if count:
                logger.info("cleared %d expired sessions", count)
        except Exception as error:  # a busy or full database: try again at the next turn
            logger.warning("expired sessions not cleared: %s", error)
        finally:
            connections.close_all()  # this thread's connections only
        wait = interval


def start_timer(interval: float | None = None, stop: threading.Event | None = None) -> threading.Thread | None:
    """Start the daemon thread clearing expired sessions every ``interval`` seconds (default
    ``SESSION_CLEAR_SECONDS``) until ``stop`` is set; once per process (None when already
    started, unless a ``stop`` event is given, as the tests do)."""
    if stop is None:
        if _started.is_set():
            return None
        _started.set()
        stop = threading.Event()
    thread = threading.Thread(
        target=_run,
        args=(interval or limits.SESSION_CLEAR_SECONDS, stop),
        name="clear-expired-sessions",
        daemon=True,
    )
    thread.start()
    return thread
