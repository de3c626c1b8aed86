"""The outgoing webhook's app (issue 35 item 2): its receivers connected, and in a server process
of ``serve`` a sender on a timer.

``serve`` sets ``KARUTA_SEND_WEBHOOKS=1`` for its server processes (as it asks them to clear
expired sessions, ``ops.sessions``); each then runs ``send_webhooks --once`` every
``INTERVAL_SECONDS`` on a daemon thread (its own connections closed after each run). The
deliveries are claimed one by one (``webhooks.sender.send_due``), so several processes never
send one twice; with no webhook on, a run is one query. Elsewhere (tests, ``runserver``, the
commands) nothing starts.
"""

import io
import logging
import os
import random
import threading

from django.apps import AppConfig
from django.core.management import call_command
from django.db import connections
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger("webhooks")

SENDER_ENV = "KARUTA_SEND_WEBHOOKS"
INTERVAL_SECONDS = 15

_started = threading.Event()


def send_once() -> None:
    """One run of the sender (``send_webhooks --once``, by the command's name); a fault is logged."""
    try:
        call_command("send_webhooks", "--once", stdout=io.StringIO())
    except Exception as error:  # a busy database, the network: the next run tries again
        logger.warning("webhook messages not sent now: %s", error)


def _run(interval: float, stop: threading.Event) -> None:
    wait = interval * random.uniform(0.2, 1.0)  # the processes started together do not run together
    while not stop.wait(wait):
        try:
            send_once()
        finally:
            connections.close_all()  # this thread's connections only
        wait = interval


def start_sender(interval: float | None = None, stop: threading.Event | None = None) -> threading.Thread | None:
    """Start the daemon thread running the sender every ``interval`` seconds until ``stop`` is
    set; once per process (None when already started, unless a ``stop`` is given, as tests do)."""
    if stop is None:
        if _started.is_set():
            return None
        _started.set()
        stop = threading.Event()
    thread = threading.Thread(target=_run, args=(interval or INTERVAL_SECONDS, stop), name="send-webhooks", daemon=True)
    thread.start()
    return thread


class WebhooksConfig(AppConfig):
    """The outgoing webhook of an event (issue 35 item 2): settings, the outbox, the sender."""

    name = "webhooks"
    verbose_name = _("Outgoing webhook")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from webhooks import signals  # noqa: PLC0415 - the models are loaded only now

        signals.connect()
        if os.environ.get(SENDER_ENV) == "1":
            start_sender()

    def start_sender(self):
        """The sender's timer in this process, once (``serve`` with waitress: the process that
        serves is the one that ran ``serve``)."""
        return start_sender()
