"""Who may open an event's pages (the one place the event of a URL is loaded and checked),
and the query parameters the pages share.

Used by the tournament and judging views alike, so a rule changes in one place.
"""

import hashlib

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from common import page_cache
from tournament.models import Event


def event_for_organiser(request, slug):
    """The ``Event`` of ``slug`` for one of its organisers (or a superuser).

    Raises ``Http404`` for an unknown slug and ``PermissionDenied`` (403) for anyone else.
    """
    event = get_object_or_404(Event, slug=slug)
    if not event.is_organiser(request.user):
        raise PermissionDenied
    return event


def event_for_recorder(request, slug):
    """The ``Event`` of ``slug`` for its recorders (記録係) and organisers.

    Raises ``Http404`` for an unknown slug and ``PermissionDenied`` (403) for anyone else.
    """
    event = get_object_or_404(Event, slug=slug)
    if not event.is_recorder(request.user):
        raise PermissionDenied
    return event


def event_for_public(request, slug):
    """The ``Event`` of ``slug`` for its public pages and hall screens.

    Raises ``Http404`` for an unknown slug, and for a draft event (``Event.Visibility.DRAFT``)
    to anyone but its organisers, recorders and superusers: a draft is not there for the public
    (issue 27; README, "Public pages of an event"). Archived events answer as public ones.
    """
    event = public_event(slug)
    if event is None:
        raise Http404("no such event")
    if not event.is_visible_to(request.user):
        raise Http404("draft event")
    return event


def public_event(slug):
    """The ``Event`` of ``slug`` or None, without the visibility check of
    ``event_for_public``; kept per data version (``page_cache.kept_per_data_version``): every
    phone's fetch of a public page and every hall screen's loaded the event's row first
    (issue 31, item 3: a sixth of the server's time on PostgreSQL under a full hall's polls).
    Never behind a committed write; an unknown slug is never kept."""
    key = "public-event:" + hashlib.sha256(slug.encode()).hexdigest()
    return page_cache.kept_per_data_version(key, lambda: Event.objects.filter(slug=slug).first())


# The largest whole number a query or form field may name: an id, a game number, a round.
# PostgreSQL's integer and far beyond any real one; a bigger number names nothing.
MAX_ID = 2**31 - 1


def whole_number(value, *, low=0, high=MAX_ID):
    """``value`` (text) as an int within ``low``..``high``, or None when it is not one.

    ASCII digits with an optional leading minus only; never raises. Issue 18, item 5:
    no parse of a request's number may make a 500 (an overflowing number once reached
    SQLite as an integer too large for it).
    """
    text = str(value or "").strip()
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
        return None
    number = int(text)
    return number if low <= number <= high else None


def int_param(request, name):
    """A whole-number query parameter of ``request``, or None when absent or not a number.

    A filter such as ``?court=abc`` is ignored (None); a number too large to name
    anything (``?division=99999999999999999999``) raises ``Http404``, never a 500
    (issue 18, item 5).
    """
    value = request.GET.get(name, "")
    if not (value.isascii() and value.isdigit()):
        return None
    number = whole_number(value)
    if number is None:
        raise Http404(f"{name} out of range")
    return number


def object_or_404(queryset, value, field="pk"):
    """The object of ``queryset`` whose ``field`` is the whole number ``value`` (a form field).

    Raises ``Http404`` when ``value`` is missing, not a number or out of range, or names
    nothing: a tampered form answers 404, never a 500.
    """
    number = whole_number(value)
    if number is None:
        raise Http404(f"{field} is not a number")
    return get_object_or_404(queryset, **{field: number})
