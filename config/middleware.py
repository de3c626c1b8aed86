"""A database in trouble answers "busy, try again — your values are kept" (503), not a 500.

At the venue one laptop's SQLite file takes every tablet's result. A writer waits for
the lock up to the busy timeout (20 s); past it, or when the disk is full, the file is
read-only, or the PostgreSQL server is unreachable or cancels a statement for a lock or
a deadlock, the view raises ``OperationalError``. This middleware turns exactly those
errors into a friendly page with status 503 and ``Retry-After``: for a POST the typed
values come back as hidden fields with a button that sends them again (like the CSRF
failure page once did), so a referee never types a sheet twice. The CSRF check passed
before the view ran, so the form is the person's own; fields named like a password are
left out. Resending is harmless: the result form carries a submission key, and the same
key never makes a second version.

Any other database error (a bug, a missing table) stays a 500. The page is rendered
without touching the database (no user, no session), since the database is the problem.
"""

from __future__ import annotations

import json
import logging

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import resolve_url
from django.template.loader import render_to_string

from common import kept_forms

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
        fields = kept_forms.visible_fields(request)  # never a password
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


class KeptFormMiddleware:
    """A form sent after the login expired is kept, not lost; kept values come back as text.

    A recorder who leaves the game page open past the session's age (14 hours) and then
    sends a result is redirected to the login page by ``login_required``; the browser then
    comes back to the page with a GET, and what was typed would be gone. When a POST is
    answered with a redirect to the login page, its values are kept for this browser
    (``common.kept_forms.keep``: no passwords, at most 16 KB, 10 minutes; in the cache under a
    cookie when the client has no stored session, so a flood of anonymous posts creates no
    session row); Django's login keeps session data and the cookie stays, so once logged in, the page of the same form, if the user
    may open it, shows the values as text to copy (``offer_back``), never as a form ready
    to send. The same happens after a same-origin CSRF failure (``config.views``). A POST to an
    action's own address (``kept_forms.on_page``, which answers a GET with 405) is sent back,
    after the login, to the page that holds its form, and its values are offered there.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not hasattr(request, "session") or response.status_code == 503:  # 503: the database is in trouble
            return response
        kept_forms.lift_short_expiry(request)
        if request.method == "GET":
            return kept_forms.offer_back(request, response)
        if (
            request.method == "POST"
            and not request.user.is_authenticated
            and response.status_code == 302
            and response.get("Location", "").split("?")[0] == resolve_url(settings.LOGIN_URL)
        ):
            kept_forms.keep(request, after_login=True)
            page = kept_forms.form_page(request)
            if page != request.path:  # an action's own address: back to the page of its form
                response["Location"] = redirect_to_login(page)["Location"]
        return kept_forms.set_cookie(request, response)  # a form just kept in the cache (no session row)


# --- headers: no caching of private pages, no indexing ----------------------------------

# URL areas whose pages and files need a login or a court token (docs/architecture.md,
# "URL areas"): organiser pages and their PDFs and workbooks (children's names), court
# links, club entry links, the club games, the admin, the login pages, the series pages
# (/series/: clubs, rankings).
PRIVATE_AREAS = ("/manage/", "/court/", "/club/", "/games/", "/admin/", "/accounts/", "/series/")


# Issue 34 item 5: what a page may ask the browser for. No page uses the camera (a QR code is
# scanned with the phone's own camera app, which opens the link) or the position; the reader's
# page records the reading with the microphone (static/js/reader_record.js), on this site only.
PERMISSIONS_POLICY = (
    "camera=(), microphone=(self), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), "
    "midi=(), magnetometer=(), gyroscope=(), accelerometer=(), display-capture=(), interest-cohort=()"
)


class PrivacyHeadersMiddleware:
    """``Cache-Control: no-store`` on every private page or file; ``X-Robots-Tag: noindex`` everywhere.

    Issue 18, item 4: the reception list PDF, the teams export and the court pages could
    stay in a shared tablet's or a proxy's cache. The private areas are recognised by
    their URL prefix (``PRIVATE_AREAS``), so a new page in them is covered without a
    decorator. Nothing of the site is meant for search engines: public and court pages
    say noindex too (with robots.txt and the pages' ``<meta name="robots">``).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path_info.startswith(PRIVATE_AREAS):
            response["Cache-Control"] = "no-store"
        response.setdefault("X-Robots-Tag", "noindex, nofollow")
        response.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


# --- the API's errors in JSON; compression where it is safe -------------------------------

API_PREFIX = "/api/"


class ApiErrorsMiddleware:
    """Every error under ``/api/`` answers JSON: ``{"error": <reason>, "status": <code>}``.

    Issue 34 item 5: a 405 (``require_safe``), a 400 (a bad Host, a malformed request), a 500
    (a bug) and a 503 (the database busy) came back as the site's HTML pages. An answer the
    API already gave as JSON (its 404s) is left as it is; the other headers (``Allow``,
    ``Retry-After``) are kept. docs/api.md, "Errors".
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            request.path_info.startswith(API_PREFIX)
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
            and not response.streaming
        ):
            body = {"error": response.reason_phrase.lower(), "status": response.status_code}
            response.content = json.dumps(body).encode()
            response["Content-Type"] = "application/json"
        return response


# Only these answers are compressed: the API and the public pages (GET and HEAD). They carry no
# secret: no CSRF token, no court or club link, no session (a public page sets no cookie).
GZIP_AREAS = (API_PREFIX, "/e/")


class SafeGZipMiddleware(GZipMiddleware):
    """Django's ``GZipMiddleware`` for the answers BREACH cannot reach (issue 34 item 5).

    BREACH reads a secret out of a compressed page that also reflects text an attacker chose
    (a query parameter, a team name). So only the public pages (``/e/…``, the home page ``/``)
    and the API are compressed, for GET and HEAD, and never an answer that carries a CSRF
    token (a form) or sets a cookie: organiser, court, club and reader pages, which show
    tokens and forms, are sent uncompressed. Static files are compressed ahead by WhiteNoise.
    README, "Compression".
    """

    def process_response(self, request, response):
        if request.method not in ("GET", "HEAD"):
            return response
        path = request.path_info
        if not (path == "/" or path.startswith(GZIP_AREAS)):
            return response
        if response.cookies or (not response.streaming and b"csrfmiddlewaretoken" in response.content):
            return response
        return super().process_response(request, response)
