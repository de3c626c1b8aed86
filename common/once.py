"""A "create" form sent twice creates one object.

A person who presses Back after creating something and sends the form again (or whose
tablet resends it after a lost answer) must not get a second session or edition. Each
create form carries a random ``creation_key``; once an object is created from a key, the
key and the object's address are kept in the person's (server-side) session, and the same
key sent again leads to that object instead of creating another.

An organiser's step (the schedule, the draw, seeding, a delay, a closed court, a withdrawal)
sent twice at the same moment runs once: see ``one_step_at_a_time`` below.
"""

import fcntl
import functools
import hashlib
import secrets
import time
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.db import OperationalError, connection
from django.http import HttpResponseRedirect

KEY = "creation_key"
_STORE = "created_by_form"
_KEEP = 50  # keys kept per browser session, newest last


def form_key(request) -> str:
    """The key for a create form: the one sent with it (a refused form keeps its key), or a new one."""
    sent = request.POST.get(KEY, "") if request.method == "POST" else ""
    return sent if 16 <= len(sent) <= 64 and sent.isascii() else secrets.token_urlsafe(16)


def already_created(request) -> str | None:
    """The address of what this form's key already created, or None."""
    key = request.POST.get(KEY)
    return request.session.get(_STORE, {}).get(key) if key else None


def remember(request, url: str) -> None:
    """Keep ``url`` as what this form's key created."""
    key = request.POST.get(KEY)
    if not key:
        return
    store = dict(request.session.get(_STORE, {}))
    store[key] = url
    request.session[_STORE] = dict(list(store.items())[-_KEEP:])


# --- An organiser's step sent twice is done once (issue 29, item 3) -----------------------
#
# A double tap on slow Wi-Fi, or the same step sent from two tabs, must not run the step
# twice at the same moment: before, both sends passed the step's own "already done?" check,
# each took an automatic backup, and the second write failed (500). ``one_step_at_a_time``
# makes an organiser's POSTs to one event's step pages run one after the other (a lock held
# across the whole step, every server worker included), so the second send sees what the
# first did: its service refuses before taking a backup ("対戦表はすでに作成されています"),
# or, when it carries the same submission key (the same form sent twice), it gets the
# first send's answer again: the same messages and the same redirect, nothing done twice.

STEP_WAIT = 60  # seconds a step waits for another step of the same event
_ANSWER_SECONDS = 30 * 60  # how long the answer to a submission key is kept


class StepBusy(OperationalError):
    """Another step of the same event ran longer than ``STEP_WAIT``. Its message contains
    "lock timeout", so ``config.middleware`` answers "busy, send again" (503) with the typed
    values kept, as for a busy database."""


def new_key() -> str:
    """A fresh submission key for a step's form (the ``step_key`` template tag)."""
    return secrets.token_urlsafe(16)


def _lock_path(scope: str) -> Path:
    digest = hashlib.sha256(scope.encode()).hexdigest()[:32]
    directory = Path(settings.DATA_DIR) / "locks"
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f"step-{digest}.lock"


@contextmanager
def step_lock(scope: str, wait: float | None = None):
    """Hold the lock of ``scope`` (for example "event:<slug>") while the block runs.

    In: the scope's name; ``wait`` in seconds (default ``STEP_WAIT``). PostgreSQL: a
    session advisory lock, so every server sharing the database waits; otherwise (SQLite,
    one machine) an exclusive ``flock`` on a file under ``DATA_DIR/locks/``, shared by
    every worker process and thread. Raises ``StepBusy`` when the lock is still held after
    ``wait`` seconds. Released when the block ends, also on an error.
    """
    wait = STEP_WAIT if wait is None else wait
    deadline = time.monotonic() + wait
    if connection.vendor == "postgresql":
        number = int.from_bytes(hashlib.sha256(scope.encode()).digest()[:8], "big", signed=True)
        with connection.cursor() as cursor:
            while True:
                cursor.execute("SELECT pg_try_advisory_lock(%s)", [number])
                if cursor.fetchone()[0]:
                    break
                if time.monotonic() > deadline:
                    raise StepBusy(f"lock timeout: another step of {scope} is still running")
                time.sleep(0.05)
        try:
            yield
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_unlock(%s)", [number])
        return
    with open(_lock_path(scope), "a+b") as handle:
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise StepBusy(f"lock timeout: another step of {scope} is still running") from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle.fileno(), fcntl.LOCK_UN)


def _answer_key(request, scope, key):
    return "step-answer:" + hashlib.sha256(f"{scope}|{request.user.pk}|{key}".encode()).hexdigest()


def one_step_at_a_time(view):
    """Decorate a view of ``/manage/<slug>/…`` whose POSTs are organiser steps.

    Its POSTs run one at a time per event (``step_lock``). A POST that carries a submission
    key (``KEY``, written by ``{% step_key %}``) and was answered with a redirect leaves its
    answer (the redirect and the messages it added) in the cache shared by the server's
    workers for 30 minutes, under the person, the event and the key; the same key sent
    again by the same person gets that answer again without running the view. GETs and
    POSTs without a key run as before (still one at a time).
    """

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "POST":
            return view(request, *args, **kwargs)
        scope = f"event:{kwargs.get('slug', '')}"
        sent = request.POST.get(KEY, "")
        key = sent if 16 <= len(sent) <= 64 and sent.isascii() else ""
        with step_lock(scope):
            if key and request.user.is_authenticated:
                answer = cache.get(_answer_key(request, scope, key))
                if answer is not None:
                    for level, text in answer["messages"]:
                        messages.add_message(request, level, text)
                    return HttpResponseRedirect(answer["location"])
            response = view(request, *args, **kwargs)
            if key and request.user.is_authenticated and response.status_code in (301, 302, 303):
                storage = messages.get_messages(request)
                said = [(m.level, str(m.message)) for m in storage]
                storage.used = False  # still shown on the page the redirect leads to
                cache.set(
                    _answer_key(request, scope, key),
                    {"location": response["Location"], "messages": said},
                    _ANSWER_SECONDS,
                )
            return response

    return wrapper
