"""A database in trouble answers "busy, try again — your values are kept" (503), not a 500.

At the venue one laptop's SQLite file takes every tablet's result. A writer waits for
the lock up to the busy timeout (20 s); past it, or when the disk is full, the file is
read-only, or the PostgreSQL server is unreachable or cancels a statement for a lock or
a deadlock, the view raises ``OperationalError``. This middleware turns exactly those
errors into a friendly page with status 503 and ``Retry-After``: for a POST the typed
values come back as hidden fields with a button that sends them again (like the CSRF
failure page), so a referee never types a sheet twice. Resending is harmless: the
result form carries a submission key, and the same key never makes a second version.

Any other database error (a bug, a missing table) stays a 500. The page is rendered
without touching the database (no user, no session), since the database is the problem.
"""

from __future__ import annotations

import logging
import time

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import resolve_url
from django.template.loader import render_to_string

logger = logging.getLogger("tournament.database")

# (kind, fragments of the driver's message, lower case). SQLite messages, then PostgreSQL's.
TROUBLE = [
    (
        "busy",
        (
            "database is locked",
            "database table is locked",
            "database schema is locked",
            "lock timeout",
            "could not obtain lock",
            "deadlock detected",
            "could not serialize access",
            "canceling statement due to statement timeout",
            "too many clients",
            "remaining connection slots",
        ),
    ),
    (
        "readonly",
        (
            "readonly database",
            "read-only database",
            "read-only transaction",
            "read only",
        ),
    ),
    (
        "full",
        (
            "database or disk is full",
            "disk is full",
            "no space left on device",
            "could not extend file",
        ),
    ),
    (
        "unavailable",
        (
            "unable to open database file",
            "disk i/o error",
            "connection refused",
            "could not connect",
            "server closed the connection",
            "connection is closed",
            "the database system is starting up",
            "the database system is shutting down",
            "terminating connection",
        ),
    ),
]

RETRY_AFTER = {"busy": 3, "readonly": 30, "full": 30, "unavailable": 10}


def classify(error) -> str | None:
    """The kind of trouble an exception means ("busy", "readonly", "full", "unavailable"), or None."""
    if not isinstance(error, (OperationalError, InterfaceError, DatabaseError)):
        return None
    message = " ".join(str(part) for part in (error, getattr(error, "__cause__", None) or "")).lower()
    for kind, fragments in TROUBLE:
        if any(fragment in message for fragment in fragments):
            return kind
    return None


def trouble_response(request, kind):
    """The 503 page for ``kind``; a POST's values come back as hidden fields to send again."""
    fields = []
    if request.method == "POST":
        fields = _form_fields(request)
        get_token(request)  # a fresh CSRF cookie, so the resend is accepted
    html = render_to_string(
        "errors/busy.html",
        {
            "kind": kind,
            "fields": fields,
            "action": request.path,
            "retry_after": RETRY_AFTER[kind],
            "is_post": request.method == "POST",
        },
        request=request,
    )
    response = HttpResponse(html, status=503)
    response["Retry-After"] = str(RETRY_AFTER[kind])
    response["Cache-Control"] = "no-store"
    return response


class DatabaseTroubleMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        kind = classify(exception)
        if kind is None:
            return None
        logger.warning("database %s on %s %s: %s", kind, request.method, request.path, exception)
        return trouble_response(request, kind)


# --- a form sent after the login expired --------------------------------------------------

KEPT_FORM = "kept_form"
KEPT_FORM_SECONDS = 60 * 60


def _form_fields(request):
    return [(k, v) for k, values in request.POST.lists() if k != "csrfmiddlewaretoken" for v in values]


class KeptFormMiddleware:
    """A form sent after the login expired is kept, not lost.

    A recorder who leaves the game page open past the session's age (14 hours) and then
    sends a result is redirected to the login page by ``login_required``; the browser then
    comes back to the page with a GET, and what was typed would be gone. This middleware
    keeps that POST's values in the (anonymous) session when a POST is answered with a
    redirect to the login page; Django's login keeps session data, so once logged in, the
    first GET of the same page shows the values with a "Send again" button (as the CSRF
    failure page does). Nothing is sent on its own: the person checks and sends. Resending
    is harmless: result forms carry a submission key and a base version.

    The kept values last an hour and only for the same path. The CSRF check runs before
    any view, so only a form that passed it (the person's own) can be kept.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        kept = request.session.get(KEPT_FORM) if hasattr(request, "session") else None
        if kept and request.method == "GET" and request.user.is_authenticated and kept.get("path") == request.path:
            del request.session[KEPT_FORM]
            if time.time() - kept.get("at", 0) <= KEPT_FORM_SECONDS:
                get_token(request)
                html = render_to_string(
                    "csrf_failure.html",
                    {"fields": [tuple(f) for f in kept["fields"]], "action": request.path, "after_login": True},
                    request=request,
                )
                response = HttpResponse(html)
                response["Cache-Control"] = "no-store"
                return response
        response = self.get_response(request)
        if (
            request.method == "POST"
            and hasattr(request, "session")
            and not request.user.is_authenticated
            and response.status_code == 302
            and response.get("Location", "").split("?")[0] == resolve_url(settings.LOGIN_URL)
        ):
            request.session[KEPT_FORM] = {"path": request.path, "fields": _form_fields(request), "at": time.time()}
        return response
