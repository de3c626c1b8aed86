"""Who may open the pages of the people of the day (issue 32, docs/people.md): organisers
everything; the reception role (受付) the reception desk; the announcer the calls.
Referees' and staff names are for organisers only."""

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404

from people.models import DaySettings
from tournament.models import Event


def day_settings(event):
    """The event's ``DaySettings`` (made with its defaults on first use)."""
    return DaySettings.objects.get_or_create(event=event)[0]


def is_receptionist(event, user):
    """Whether ``user`` may work ``event``'s reception desk: an organiser or a 受付 account."""
    if not user.is_authenticated:
        return False
    if event.is_organiser(user):
        return True
    return DaySettings.objects.filter(event=event, receptionists=user).exists()


def is_announcer(event, user):
    """Whether ``user`` may call teams to courts: an organiser or a 放送係 account."""
    if not user.is_authenticated:
        return False
    if event.is_organiser(user):
        return True
    return DaySettings.objects.filter(event=event, announcers=user).exists()


def event_for_reception(request, slug):
    """The ``Event`` of ``slug`` for its reception desk (organisers and 受付 accounts).
    Raises ``Http404`` for an unknown slug and ``PermissionDenied`` for anyone else."""
    event = get_object_or_404(Event, slug=slug)
    if not is_receptionist(event, request.user):
        raise PermissionDenied
    return event


def event_for_announcer(request, slug):
    """The ``Event`` of ``slug`` for its announcer page (organisers and 放送係 accounts).
    Raises ``Http404`` for an unknown slug and ``PermissionDenied`` for anyone else."""
    event = get_object_or_404(Event, slug=slug)
    if not is_announcer(event, request.user):
        raise PermissionDenied
    return event


def reception_events(user) -> list:
    """The events whose reception desk ``user`` may work (organised or as a 受付 account), newest
    first; [] for anyone else."""
    if not user.is_authenticated:
        return []
    if user.is_superuser:
        return []
    events = Event.objects.filter(Q(organisers=user) | Q(day_settings__receptionists=user)).distinct()
    return list(events.order_by("-date", "name")[:5])
