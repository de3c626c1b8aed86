"""Shared pieces of the event-day commands."""

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from tournament.models import Event


class EventCommand(BaseCommand):
    """An event-day command. It prints in English whatever the site's language (README,
    "Event-day commands"), so scripts and checks read one language on one screen; team, division
    and court names stay as typed."""

    def execute(self, *args, **options):
        with translation.override("en"):
            return super().execute(*args, **options)


def get_event(slug):
    try:
        return Event.objects.get(slug=slug)
    except Event.DoesNotExist:
        raise CommandError(f"No tournament with the short name {slug!r}.") from None
