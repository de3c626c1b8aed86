"""The shared page cache and conditional GET (common/page_cache.py, issue 17 item 3)."""

import threading

import pytest
from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils import translation

from common import page_cache
from tests import factories

calls = []


@page_cache.shared_page("demo-page", params=("court",))
def view(request, slug):
    calls.append(request.get_full_path())
    return HttpResponse(f"page {slug} {len(calls)} {translation.get_language()}")


@pytest.fixture(autouse=True)
def _fresh():
    calls.clear()
    cache.clear()


def get(path="/e/x/", **extra):
    return view(RequestFactory().get(path, **extra), "x")


def test_unknown_query_parameters_share_one_entry_known_ones_do_not(db):
    first = get("/e/x/")
    assert get("/e/x/?x=123").content == first.content
    assert get("/e/x/?x=456&utm=1").content == first.content
    assert len(calls) == 1
    assert get("/e/x/?court=2").content != first.content
    assert len(calls) == 2


def test_the_language_is_part_of_the_key(db):
    with translation.override("ja"):
        ja = get()
    with translation.override("en"):
        en = get()
    assert ja.content.endswith(b"ja") and en.content.endswith(b"en")


def test_etag_and_304(db):
    first = get()
    assert first["Cache-Control"] == "no-cache"
    again = get(HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again.content == b""


def test_a_write_makes_the_entry_stale_after_fresh_seconds(db, monkeypatch, django_capture_on_commit_callbacks):
    first = get()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        factories.make_event(slug="written")  # a write to a tournament model bumps the version on commit
    assert len(callbacks) == 1  # once per transaction, however many rows
    assert get().content == first.content  # still within FRESH_SECONDS
    monkeypatch.setattr(page_cache, "FRESH_SECONDS", 0)
    assert get().content != first.content
    assert len(calls) == 2


def test_without_a_write_the_entry_stays_past_fresh_seconds(db, monkeypatch):
    first = get()
    monkeypatch.setattr(page_cache, "FRESH_SECONDS", 0)
    assert get().content == first.content
    assert len(calls) == 1


def test_a_session_is_never_served_from_or_stored_in_the_cache(db):
    get()
    request = RequestFactory().get("/e/x/")
    request.COOKIES[settings.SESSION_COOKIE_NAME] = "abc"
    view(request, "x")
    view(request, "x")
    assert len(calls) == 3


def test_the_cache_is_shared_by_every_worker():
    """The default cache is a store outside the process (SQLite files under the data dir, or Redis)."""
    backend = settings.CACHES["default"]["BACKEND"]
    assert backend.endswith(("KeptOpenDiskCache", "RedisCache")), backend


current = {"version": "a"}


@page_cache.shared_page("versioned", version=lambda request, slug: current["version"])
def versioned(request, slug):
    calls.append(slug)
    return HttpResponse(f"page {len(calls)}")


def test_a_page_with_its_own_version_is_never_behind_it(db):
    first = versioned(RequestFactory().get("/v/"), "x")
    assert versioned(RequestFactory().get("/v/"), "x").content == first.content
    current["version"] = "b"  # within FRESH_SECONDS, still rendered afresh
    assert versioned(RequestFactory().get("/v/"), "x").content != first.content
    assert len(calls) == 2


def test_conditional_page_answers_304_without_a_cache(db):
    view_304 = page_cache.conditional_page(lambda request: HttpResponse("x"))
    etag = view_304(RequestFactory().get("/c/"))["ETag"]
    assert view_304(RequestFactory().get("/c/", HTTP_IF_NONE_MATCH=etag)).status_code == 304


def test_a_strict_page_is_never_behind_a_write_and_at_most_fresh_seconds_old(db, monkeypatch):
    """``shared_page(strict=True)`` (the API's events list, issue 31 item 3): one render shared
    while nothing is written; a write renders it again at once; so does age past FRESH_SECONDS."""
    cache.clear()
    renders = []

    @page_cache.shared_page("strict-probe", strict=True)
    def view(request):
        renders.append(1)
        return HttpResponse(str(len(renders)))

    bare = RequestFactory().get
    assert view(bare("/p")).content == b"1"
    assert view(bare("/p")).content == b"1"  # shared: no second render
    page_cache.bump_data_version()
    assert view(bare("/p")).content == b"2"  # a write: never behind it
    clock = [page_cache.time.time() + page_cache.FRESH_SECONDS + 1]
    monkeypatch.setattr(page_cache.time, "time", lambda: clock[0])
    assert view(bare("/p")).content == b"3"  # older than FRESH_SECONDS without a write


def test_single_flight_makes_once_while_others_wait_for_it():
    """Two threads after a write: one makes the answer, the other waits and gets it."""
    store, made, started = {}, [], threading.Event()

    def make():
        started.set()
        made.append(1)
        threading.Event().wait(0.3)  # a slow render
        store["v"] = "answer"
        return "answer"

    maker = threading.Thread(target=lambda: page_cache.single_flight("sf-test", lambda: store.get("v"), make))
    maker.start()
    assert started.wait(2)
    got = page_cache.single_flight("sf-test", lambda: store.get("v"), make)
    maker.join()
    assert got == "answer" and len(made) == 1


def test_single_flight_waiters_make_it_themselves_when_the_maker_stores_nothing(monkeypatch):
    """A maker whose answer is never kept (a 404) frees the waiters at once, not after the wait."""
    page_cache.cache_add("sf-none:making", 1, 10)  # another request is making it
    monkeypatch.setattr(page_cache.time, "sleep", lambda s: page_cache.cache_delete("sf-none:making"))
    assert page_cache.single_flight("sf-none", lambda: None, lambda: "made here", wait=60) == "made here"


def test_single_flight_with_the_cache_in_trouble_makes_it_here(monkeypatch):
    monkeypatch.setattr(page_cache, "cache_add", lambda *a: False)  # the cache fails: every add is refused
    monkeypatch.setattr(page_cache, "cache_get", lambda key, default=None: default)
    assert page_cache.single_flight("sf-fail", lambda: None, lambda: "made", wait=0.05) == "made"
