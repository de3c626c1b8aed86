"""The public read-only JSON API v1 (``docs/api.md``): events, timetable, results,
standings and bracket.

No login, no personal data. Every answer carries an ``ETag`` (a hash of its body) and a
``Last-Modified``, and a conditional GET that matches is answered ``304 Not Modified``;
``Cache-Control: no-cache`` makes screens revalidate every time. An event's documents come
from the cache shared by every worker (``common.page_cache.shared_page``), keyed on the
event's version (``reports.api.event_version``: never behind) and never re-rendered for an
unknown query parameter; the events list is made afresh each time (it is small). An unknown event, and a
draft one (``Event.Visibility.DRAFT``, issue 27), is a 404 with a JSON body; every other error
under /api/ is JSON too (``config.middleware.ApiErrorsMiddleware``). ``/api/v1/openapi.json``
describes every answer (issue 34 item 5).
"""

import datetime

from django.http import JsonResponse
from django.urls import reverse
from django.utils.http import http_date
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_safe

from common import page_cache
from common.page_cache import shared_page
from tournament.models import Event
from tournament.reports import api

JSON_OPTIONS = {"ensure_ascii": False}
NO_CHANGE = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)  # Last-Modified of an empty list


def _answer(request, document, changed_at):
    """``document`` as JSON with ETag and Last-Modified; :func:`shared_page` adds no-cache and
    answers 304 when the client's copy is current (``If-None-Match``, else ``If-Modified-Since``)."""
    response = JsonResponse(document, json_dumps_params=JSON_OPTIONS)
    response["ETag"] = page_cache.etag_of(response.content)
    response["Last-Modified"] = http_date(int(changed_at.timestamp()))
    return response


def _listed():
    """The events the API shows: public and archived ones; a draft is not there (issue 27)."""
    return Event.objects.exclude(visibility=Event.Visibility.DRAFT)


def _event_answer(request, slug, build):
    event = _listed().filter(slug=slug).first()
    if event is None:
        return JsonResponse(
            {"error": "unknown event", "status": 404, "slug": slug}, status=404, json_dumps_params=JSON_OPTIONS
        )
    return _answer(request, build(event), api.last_change(event))


def _version(request, slug):
    """The cache version of an event's documents (``reports.api.event_version``), or None
    for an unknown event (its 404 is never stored)."""
    event = _listed().filter(slug=slug).first()
    return f"{event.visibility}-{api.event_version(event)}" if event is not None else "unknown"


def _read_only(view):
    """GET and HEAD only (405 otherwise); no CSRF check, as nothing here reads a cookie or writes."""
    return csrf_exempt(require_safe(view))


@csrf_exempt
def not_found(request):
    """A path under /api/v1/ that is not one of the documents: a JSON 404."""
    return JsonResponse(
        {"error": "unknown path", "status": 404, "path": request.path}, status=404, json_dumps_params=JSON_OPTIONS
    )


@_read_only
def openapi(request):
    """``/api/v1/openapi.json``: the OpenAPI 3.1 document of this API (``reports.api.openapi_document``),
    built from the schemas written beside the documents' builders."""
    base = reverse("api:events").removesuffix("/events/")
    return JsonResponse(api.openapi_document(server=base), json_dumps_params=JSON_OPTIONS)


@_read_only
@shared_page("api-events", strict=True)
def events(request):
    """``/api/v1/events/``: the public and archived events, newest first (drafts are left out).

    Every phone on a public page asks it every 15 s (static/js/public_refresh.js), and each
    event's version costs eight aggregate queries: the answer is shared by every worker until
    the next write (``strict``: never behind one, docs/api.md), so a full hall costs one
    render per write or per 5 s, not one per poll."""
    listed = list(_listed())
    changed_at = max((api.last_change(e) for e in listed), default=NO_CHANGE)
    return _answer(request, api.events_document(listed), changed_at)


@_read_only
@shared_page("api-timetable", version=_version)
def timetable(request, slug):
    return _event_answer(request, slug, api.timetable_document)


@_read_only
@shared_page("api-results", version=_version)
def results(request, slug):
    return _event_answer(request, slug, api.results_document)


@_read_only
@shared_page("api-standings", version=_version)
def standings(request, slug):
    return _event_answer(request, slug, api.standings_document)


@_read_only
@shared_page("api-bracket", version=_version)
def bracket(request, slug):
    return _event_answer(request, slug, api.bracket_document)
