"""Who may open an event's pages (the one place the event of a URL is loaded and checked),
and the query parameters the pages share.

Used by the tournament and judging views alike, so a rule changes in one place.
"""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

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


def int_param(request, name):
    """A whole-number query parameter of ``request``, or None when absent or not a number
    (a filter such as ``?court=abc`` never makes a 500)."""
    value = request.GET.get(name, "")
    return int(value) if value.isascii() and value.isdigit() else None
