"""One page cache for every server worker, and conditional GET (``ETag``/``Last-Modified`` → 304).

Decision (issue 17, item 3): a public page or API answer is rendered at most once per
``FRESH_SECONDS`` per page, language and *known* query parameters, whatever the number of
workers and readers, and a change to the tournament shows within ``FRESH_SECONDS``:

- the cache is Django's default cache (``config/settings.py`` ``CACHES``: diskcache's SQLite cache
  under the data directory shared by every worker of ``make serve``, or Redis when
  ``KARUTA_REDIS_URL`` is set);
- the key is the page's name, its URL arguments, the language and only the query parameters
  the page declares (``?x=<random>`` finds the same entry);
- every write to a model of the ``tournament``, ``judging`` or ``series`` app (the archive) bumps one *data version*
  when its transaction commits; an entry made under an older version is
  served for at most ``FRESH_SECONDS`` after it was made, so results arriving several times a
  second do not make every reader render afresh; an entry of the current version is kept for
  ``KEEP_SECONDS`` (writes that bypass the signals, ``QuerySet.update``, show by then);
- a page whose own version is cheap to compute passes it (``shared_page(version=…)``): its
  entries are keyed on it and never behind (the API's event documents, keyed on
  ``reports.api.event_version``);
- requests with a session cookie (organisers, recorders) are never served from or stored in
  the cache, nor is an answer that sets a cookie or varies on it.

Every answer through :func:`shared_page` carries an ``ETag`` (a hash of its body) and
``Cache-Control: no-cache``, and a matching ``If-None-Match``/``If-Modified-Since`` gets 304.

A cache in trouble is a miss, never a 500 (issue 28, item 6: on a full disk every public page
answered 500 from the file cache's write): ``get``, ``set`` and the version go through
:func:`cache_get` and :func:`cache_set`, which log the error and answer as if the entry were
absent; the page is then rendered uncached.
"""

import functools
import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import m2m_changed, post_delete, post_save
from django.http import HttpResponse
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.http import parse_http_date_safe
from django.utils.translation import get_language

logger = logging.getLogger("tournament.page_cache")

FRESH_SECONDS = 5  # a page may be this many seconds behind the last write
KEEP_SECONDS = 60  # longest life of an entry, even when nothing was written
VERSION_KEY = "page-cache:data-version"
WATCHED_APPS = frozenset({"tournament", "judging", "series"})
KEPT_HEADERS = ("Content-Type", "Content-Language", "Last-Modified", "ETag", "Content-Disposition")


def cache_get(key, default=None):
    """``cache.get(key, default)``; ``default`` when the cache fails (a full disk, Redis away,
    a damaged entry): a miss, logged, never an exception."""
    try:
        return cache.get(key, default)
    except Exception as error:
        logger.warning("cache read failed (%s): %s", type(error).__name__, error)
        return default


def cache_set(key, value, timeout) -> bool:
    """``cache.set(key, value, timeout)``; False, logged, when the cache fails (a full disk: the
    cache cannot write its entry). Never raises."""
    try:
        cache.set(key, value, timeout)
    except Exception as error:
        logger.warning("cache write failed (%s): %s", type(error).__name__, error)
        return False
    return True


def cache_add(key, value, timeout) -> bool:
    """``cache.add(key, value, timeout)``: True when this call stored it (the key was absent);
    False when it was there or the cache failed (logged). Never raises. Redis's and diskcache's
    add are atomic, but a cache in trouble answers False to everybody: use it where that costs
    only work done twice or waited for (a render lock), never for correctness."""
    try:
        return bool(cache.add(key, value, timeout))
    except Exception as error:
        logger.warning("cache write failed (%s): %s", type(error).__name__, error)
        return False


def cache_delete(key):
    """``cache.delete(key)``; logged, never raised, when the cache fails."""
    try:
        cache.delete(key)
    except Exception as error:
        logger.warning("cache delete failed (%s): %s", type(error).__name__, error)


MAKING_LOCK_SECONDS = 10  # longest a "being made" lock lives (a killed worker's frees itself then)
MAKING_WAIT_SECONDS = 1.0  # longest a request waits for another's making before making it itself


def single_flight(key, fresh, make, wait=MAKING_WAIT_SECONDS):
    """What ``fresh()`` finds, else what ``make()`` makes, made by one request at a time.

    In: ``key``, the cache key of what is made (its lock is ``key + ":making"`` in the shared
    cache); ``fresh()``, the current value or None (it must check that the value is current:
    it is asked again while waiting); ``make()``, which makes the value and stores it where
    ``fresh`` finds it. Out: the value.

    After every write the first requests to arrive found nothing current and each made the
    same answer at once, one per worker thread (issue 31, item 3: under a full hall's polls
    the events document and the event's version were made several times per write). So one
    request makes it while the others wait, asking ``fresh()`` every 20 ms (``fresh`` compares
    with the data version read when its request began: what a maker made from that version
    misses no write committed before the request, even if one came since), for at most
    ``wait`` seconds or until the maker is done without storing (an answer that is never
    kept, a 404), then make it themselves. A cache in trouble: no lock, every request makes
    its own (never an error). A lock left by a killed worker expires after
    ``MAKING_LOCK_SECONDS``."""
    found = fresh()
    if found is not None:
        return found
    lock = key + ":making"
    if cache_add(lock, 1, MAKING_LOCK_SECONDS):
        try:
            return make()
        finally:
            cache_delete(lock)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        time.sleep(0.02)
        found = fresh()
        if found is not None:
            return found
        if cache_get(lock) is None:
            break  # made and not stored, or the maker failed: make it here
    return make()


def kept_per_data_version(key, compute, timeout=FRESH_SECONDS):
    """``compute()``, kept in the shared cache under ``key`` per data version for at most
    ``timeout`` seconds (a write that bypasses the signals, ``QuerySet.update``, shows by then).

    Never behind a committed write: the data version is read before ``compute`` runs, so a
    value computed across a commit is kept under the older version and never served after
    it; computed afresh, and not kept, while this connection's transaction holds writes not
    yet committed (they are not in the data version yet). After a write one request computes
    it while the others wait for it (``single_flight``). None is never kept (an unknown
    event's slug: random slugs would fill the cache). A cache in trouble: computed every
    time. Used for what nearly every public request asks first (issue 31, item 3): the
    event's version (``reports.api.event_version``) and row (``access.public_event``)."""
    if transaction.get_connection().run_on_commit:
        return compute()
    stamp = data_version()  # at the start: a value made from it misses no earlier write

    def fresh():
        kept = cache_get(key)
        if kept is not None and kept[0] == stamp and time.time() - kept[1] < timeout:
            return kept[2]
        return None

    def make():
        made_at, now = data_version(), time.time()
        value = compute()
        if value is not None:
            cache_set(key, (made_at, now, value), timeout)
        return value

    return single_flight(key, fresh, make)


def data_version():
    """The current data version (an opaque int; 0 before the first write, or when the cache
    cannot be read)."""
    return cache_get(VERSION_KEY, 0)


def bump_data_version():
    """Make every cached page older than now stale (served at most ``FRESH_SECONDS`` more).

    A new value from the clock rather than ``incr``: two workers bumping at once both
    change it, with no increment to agree on."""
    cache_set(VERSION_KEY, time.time_ns(), None)


def _on_write(sender, **kwargs):
    """Signal receiver: a write to a watched app's model bumps the version once its
    transaction commits (at once outside a transaction), never while the database is locked
    for the write; once per transaction however many rows it writes. A reader before the
    commit sees the old data under the old version, which is right."""
    if sender._meta.app_label not in WATCHED_APPS:
        return
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        bump_data_version()
    else:
        # once per transaction (per savepoint of it): on_commit keeps (savepoint ids, function, robust)
        here = set(connection.savepoint_ids)
        if not any(sids == here and func is bump_data_version for sids, func, _robust in connection.run_on_commit):
            transaction.on_commit(bump_data_version, robust=True)


def connect_signals():
    """Connect the version bump to every save, delete and many-to-many change (``CommonConfig.ready``)."""
    for signal in (post_save, post_delete, m2m_changed):
        signal.connect(_on_write, dispatch_uid=f"page-cache-{signal!r}")


def page_key(name, request, args, kwargs, params):
    """The cache key of one page: ``name``, URL arguments, language, and the declared ``params``
    of the query string (in the declared order; anything else in the query is ignored)."""
    query = [(p, request.GET.getlist(p)) for p in params if p in request.GET]
    parts = repr((name, args, sorted(kwargs.items()), get_language(), query, request.method == "HEAD"))
    return "page-cache:" + hashlib.sha256(parts.encode()).hexdigest()


def _private(request):
    return settings.SESSION_COOKIE_NAME in request.COOKIES


def _storable(response):
    vary = response.get("Vary", "")
    return (
        response.status_code == 200
        and not response.streaming
        and not response.cookies
        and "cookie" not in vary.lower()
        and not response.has_header("Set-Cookie")
    )


def _entry(response, version):
    headers = {h: response[h] for h in KEPT_HEADERS if response.has_header(h)}
    return {"version": version, "at": time.time(), "content": response.content, "headers": headers}


def _from_entry(entry):
    response = HttpResponse(entry["content"])
    for header, value in entry["headers"].items():
        response[header] = value
    return response


def etag_of(data: bytes) -> str:
    """The strong ETag (quoted, 40 hex digits of SHA-256) of ``data``: a body, or the parts a
    page's answer depends on. The one way this project spells an ETag."""
    return '"' + hashlib.sha256(data).hexdigest()[:40] + '"'


def conditional(request, response):
    """Add ``ETag`` (hash of the body, unless present) and ``Cache-Control: no-cache`` to a 200
    answer and answer 304 when the client's copy is current; any other answer as it is."""
    if response.status_code != 200 or response.streaming:
        return response
    if not response.has_header("ETag"):
        response["ETag"] = etag_of(response.content)
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language",))
    return get_conditional_response(
        request,
        etag=response["ETag"],
        last_modified=_last_modified(response),
        response=response,
    )


def _last_modified(response):
    from_header = response.get("Last-Modified")
    return parse_http_date_safe(from_header) if from_header else None


def conditional_page(view):
    """Decorator: conditional GET alone (``ETag``, ``Cache-Control: no-cache``, 304), no cache;
    for an answer that is cheap to make but must never be behind (the API's events list)."""

    @functools.wraps(view)
    def wrapped(request, *args, **kwargs):
        return conditional(request, view(request, *args, **kwargs))

    return wrapped


def shared_page(name, params=(), version=None, strict=False):
    """Decorator for a read-only page or API view: the shared cache and conditional GET.

    ``name`` names the page in the key; ``params`` are the query parameters that change
    what it shows (all others are ignored for the key, so must not change the answer).
    ``version``, when given, is a function of the view's arguments returning a short text
    that changes whenever the answer would (e.g. ``reports.api.event_version``): entries are
    then keyed on it and never served behind it. Without it, an entry is current when no
    write happened since (the data version), or younger than ``FRESH_SECONDS``; with
    ``strict``, only while no write happened since *and* for ``FRESH_SECONDS`` at most (never
    behind a write, and at most that long behind one that bypasses the signals): for an answer
    polled by every phone that must not lag (the API's events list, issue 31 item 3).
    In: a view answering GET/HEAD. Out: the view's answer, from the cache when current,
    with ETag; 304 when the client's copy matches. Other methods and private requests pass
    through uncached.
    """

    def decorate(view):
        @functools.wraps(view)
        def wrapped(request, *args, **kwargs):
            if request.method not in ("GET", "HEAD") or _private(request):
                return conditional(request, view(request, *args, **kwargs))
            exact = version(request, *args, **kwargs) if version is not None else None
            key = page_key((name, exact), request, args, kwargs, params)

            stamp = data_version()  # at the request's start: an entry of it misses no write before the request

            def fresh():
                entry = cache_get(key)
                if entry is None:
                    return None
                young = time.time() - entry["at"] < FRESH_SECONDS
                current = entry["version"] == stamp
                if exact is not None or (current and young if strict else current or young):
                    return _from_entry(entry)
                return None

            def make():
                made_at = data_version()  # read before the view's queries: a write after them makes it stale
                response = view(request, *args, **kwargs)
                if _storable(response):
                    cache_set(key, _entry(response, made_at), KEEP_SECONDS)
                return response

            return conditional(request, single_flight(key, fresh, make))

        return wrapped

    return decorate
