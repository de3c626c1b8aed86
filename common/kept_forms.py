"""Kept forms: what was typed in a form that could not be saved, offered back safely.

Two moments lose a form: the CSRF check refuses it (the page was open too long, a tablet
lost its cookie) and the login expired before it was sent (``login_required`` redirects).
The values are kept in the session and shown again, *as text to copy*, above the same
form when the person opens it again. Issue 18, item 1 sets the rules, because the old
page (hidden fields, a fresh token and a "send again" button) let a cross-site page make
a logged-in organiser add a stranger as organiser with one click:

- never a ready-to-send form: nothing kept is ever put back into a form with a token;
- a CSRF failure keeps values only when the form came from this site (its ``Origin``, or
  without one its ``Referer``, names this host or a trusted origin); a cross-site post
  keeps nothing;
- offered back only in the same session or browser (it lives there, or under its cookie), for the same path (the same
  form), to the same user (or, after the login, to a user the page answers 200 to: a
  user who may not open the form gets its 403 page and never sees the values);
- no field whose name contains "password" or "secret" is ever kept or shown (the outgoing
  webhook's token, issue 35);
- at most ``LIMIT_BYTES`` (16 KB) of values and ``LIFE_SECONDS`` (10 minutes) of life:
  a bigger form keeps nothing, never reaches the database;
- a client without a stored session (a stranger, a tablet that lost its cookies, a login
  that expired) never gets a session row for it (issue 28, item 2: 20 clients posting for a
  minute made 1,122 rows): its values go to the cache for their life, under a random key
  named by a cookie (``COOKIE``), and at most ``common.limits.KEPT_FORMS_ANONYMOUS`` such forms
  are kept per ``LIFE_SECONDS`` (past it, nothing is kept). A logged-in user's, or a client's
  whose session already exists, stay in that session.
"""

from __future__ import annotations

import logging
import secrets
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from common import limits

logger = logging.getLogger("tournament.kept_forms")

SESSION_KEY = "kept_form"
# Set on an anonymous session whose expiry was shortened to the kept form's life; the
# login lifts it again (``KeptFormMiddleware``).
SHORT_SESSION_KEY = "kept_form_short_session"
LIMIT_BYTES = limits.KEPT_FORM_BYTES
LIFE_SECONDS = limits.KEPT_FORM_SECONDS
MARKER = "<!-- kept-form -->"
# The cookie naming a client's kept form in the cache (a random key, nothing else).
COOKIE = "karuta_kept_form"
_CACHE_PREFIX = "kept-form:"
_COUNT_PREFIX = "kept-form-count:"
# Set on the request when a form was kept in the cache: the middleware sets the cookie.
_NEW_TOKEN = "_kept_form_token"


def is_secret(name: str) -> bool:
    """True for a field never kept or shown: its name contains "password" or "secret" (any case)."""
    lowered = name.lower()
    return "password" in lowered or "secret" in lowered


def visible_fields(request) -> list[tuple[str, str]]:
    """The POST's (name, value) pairs without the CSRF token and without secret fields."""
    return [
        (name, value)
        for name, values in request.POST.lists()
        if name != "csrfmiddlewaretoken" and not is_secret(name)
        for value in values
    ]


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower() if parts.scheme and parts.netloc else ""


def is_same_origin(request) -> bool:
    """True when the POST came from a page of this site.

    In: the refused request. The browser's ``Origin`` header decides; without it the
    ``Referer``; without either the answer is False (nothing proves the form was ours).
    The site is the request's own scheme and host, or an origin of
    ``CSRF_TRUSTED_ORIGINS`` (which includes SITE_URL).
    """
    try:
        own = f"{request.scheme}://{request.get_host()}".lower()
    except DisallowedHost:
        return False
    trusted = {own, *(o.lower() for o in settings.CSRF_TRUSTED_ORIGINS)}
    origin = request.META.get("HTTP_ORIGIN")
    if origin is not None:
        return origin.lower() in trusted
    referer = request.META.get("HTTP_REFERER", "")
    return bool(referer) and _origin_of(referer) in trusted


def _has_session(request) -> bool:
    """Whether the request's session is already stored (a login, or a session opened before):
    then keeping a form in it creates no row. One query for an anonymous client's cookie."""
    if request.user.is_authenticated:
        return True
    if not request.session.session_key:
        return False
    request.session.keys()  # loads it: an unknown or expired key is dropped (saving would make a new row)
    return request.session.session_key is not None


def _cache_key(token: str) -> str:
    return _CACHE_PREFIX + token


def _keep_in_cache(request, entry) -> bool:
    """Keep ``entry`` in the cache for ``LIFE_SECONDS`` under a new random key; False (nothing
    kept) once ``KEPT_FORMS_ANONYMOUS`` forms were kept in this window, or the cache fails."""
    window = int(time.time() // LIFE_SECONDS)
    counter = f"{_COUNT_PREFIX}{window}"
    try:
        cache.add(counter, 0, 2 * LIFE_SECONDS)
        if cache.incr(counter) > limits.KEPT_FORMS_ANONYMOUS:
            return False
        token = secrets.token_urlsafe(24)
        cache.set(_cache_key(token), entry, LIFE_SECONDS)
    except Exception as error:  # a full disk, Redis away: the form is not kept, the page answers
        logger.warning("kept form not kept: %s", error)
        return False
    setattr(request, _NEW_TOKEN, token)
    return True


def on_page(name: str):
    """Mark a POST-only action view with the page that holds its form (issue 30, item 5).

    In: the URL name of that page, which takes the same URL arguments as the action (the
    game's page for the desk's buttons, the groups or schedule page for their steps). A GET
    of the action answers 405, so a form refused by the CSRF check, or sent after the login
    expired, leads back to that page and its values are offered there (``form_page``).
    """

    def mark(view):
        view.form_page = name  # functools.wraps copies it onto the decorators around the view
        return view

    return mark


def form_page(request) -> str:
    """The path of the page the POST ``request`` came from: ``request.path``, or for an
    action marked with ``on_page`` the path of its page (the same URL arguments)."""
    try:
        found = resolve(request.path_info)
        name = getattr(found.func, "form_page", None)
        return reverse(name, args=found.args, kwargs=found.kwargs) if name else request.path
    except (Resolver404, NoReverseMatch):
        return request.path


def keep(request, *, after_login: bool = False) -> bool:
    """Keep the POST's visible fields for the same form's page (``form_page``); True if kept.

    In: a POST that was not saved. Out: False, and nothing written, when there is no
    session, no field to keep, or the fields exceed ``LIMIT_BYTES``. ``after_login``
    marks a form sent with an expired login: it is offered to whoever logs in on this
    browser and may open the page; otherwise only to the same user (or the same
    anonymous court tablet). A user's form, or one of a client whose session is already
    stored, goes into that session (an anonymous one then expires with the kept form);
    any other client's goes to the cache (``_keep_in_cache``), never a new session row.
    """
    if not hasattr(request, "session"):
        return False
    fields = visible_fields(request)
    size = sum(len(name.encode()) + len(value.encode()) for name, value in fields)
    if not fields or size > LIMIT_BYTES:
        return False
    user = request.user.pk if request.user.is_authenticated else None
    entry = {
        "path": form_page(request),
        "action": request.path,  # the address it was sent to: which form of the page
        "fields": fields,
        "at": time.time(),
        "user": user,
        "after_login": after_login,
    }
    if not _has_session(request):
        return _keep_in_cache(request, entry)
    request.session[SESSION_KEY] = entry
    if user is None:
        request.session.set_expiry(LIFE_SECONDS)
        request.session[SHORT_SESSION_KEY] = True
    return True


def set_cookie(request, response):
    """Name a form just kept in the cache in the client's cookie (``COOKIE``, ``LIFE_SECONDS``)."""
    token = getattr(request, _NEW_TOKEN, None)
    if token:
        response.set_cookie(
            COOKIE,
            token,
            max_age=LIFE_SECONDS,
            httponly=True,
            samesite="Lax",
            secure=settings.SESSION_COOKIE_SECURE,
        )
    return response


def _cached(request):
    """The form kept in the cache for this client's cookie, or None."""
    token = request.COOKIES.get(COOKIE, "")
    if not (token.isascii() and 20 <= len(token) <= 64):
        return None
    try:
        return cache.get(_cache_key(token))
    except Exception:  # the cache is in trouble: nothing to offer
        return None


def _forget_cached(request, response):
    token = request.COOKIES.get(COOKIE, "")
    try:
        cache.delete(_cache_key(token))
    except Exception as error:
        logger.warning("kept form not forgotten: %s", error)
    response.delete_cookie(COOKIE, samesite="Lax")


def _offered_to(kept, request) -> bool:
    if kept.get("path") != request.path or time.time() - kept.get("at", 0) > LIFE_SECONDS:
        return False
    if kept.get("after_login"):
        return request.user.is_authenticated
    user = request.user.pk if request.user.is_authenticated else None
    return kept.get("user") == user


def offer_back(request, response):
    """Show a kept form's values above the page of the same form, once; returns ``response``.

    In: a GET and its response. Only a 200 HTML page that carries ``MARKER`` (every page
    built on base.html) for the same path, the same user and within the life gets the
    values, as text; the kept values are then forgotten (from the session, or the cache and
    the cookie). An expired entry is dropped.
    """
    in_session = request.session.get(SESSION_KEY) if hasattr(request, "session") else None
    kept = in_session or (_cached(request) if COOKIE in request.COOKIES else None)
    if not kept:
        if COOKIE in request.COOKIES:
            response.delete_cookie(COOKIE, samesite="Lax")
        return response
    if time.time() - kept.get("at", 0) > LIFE_SECONDS:
        _forget(request, response, in_session)
        return response
    if not _offered_to(kept, request) or response.status_code != 200 or response.streaming:
        return response
    if "text/html" not in response.get("Content-Type", "") or MARKER.encode() not in response.content:
        return response
    fields = [(name, value) for name, value in kept["fields"] if not is_secret(name)]
    box = render_to_string(
        "includes/kept_form.html",
        {"fields": fields, "after_login": kept.get("after_login"), "action": kept.get("action", "")},
    )
    response.content = response.content.replace(MARKER.encode(), box.encode(response.charset), 1)
    response["Cache-Control"] = "no-store"
    _forget(request, response, in_session)
    return response


def _forget(request, response, in_session):
    if in_session:
        del request.session[SESSION_KEY]
    else:
        _forget_cached(request, response)


def lift_short_expiry(request) -> None:
    """After the login, a session shortened to a kept form's life lasts a normal session again."""
    if request.user.is_authenticated and request.session.get(SHORT_SESSION_KEY):
        del request.session[SHORT_SESSION_KEY]
        request.session.set_expiry(None)
