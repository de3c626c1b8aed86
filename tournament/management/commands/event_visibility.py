from django.core.management.base import CommandError

from common.errors import UserError
from tournament.management.commands._base import EventCommand, get_event
from tournament.models import Event
from tournament.services.events import set_visibility


class Command(EventCommand):
    help = (
        "Who sees a tournament's public pages: draft (its organisers and recorders only; not on the home page "
        "nor in the API), public, or archived (under past tournaments). Without a state, prints the current one. "
        "Example at the venue: manage.py event_visibility demo archived"
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("state", nargs="?", choices=Event.Visibility.values)

    def handle(self, event, state, **options):
        event = get_event(event)
        if state is not None:
            try:
                set_visibility(event, state)
            except UserError as e:
                raise CommandError(str(e)) from None
        self.stdout.write(f"{event.slug}: {event.visibility} ({event.get_visibility_display()})")
