"""Shared pieces of the event-day commands."""

from django.core.management.base import CommandError

from tournament.models import Event


def get_event(slug):
    try:
        return Event.objects.get(slug=slug)
    except Event.DoesNotExist:
        raise CommandError(f"No tournament with the short name {slug!r}.") from None
