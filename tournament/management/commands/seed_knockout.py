from django.core.management.base import BaseCommand, CommandError

from common.errors import UserError
from tournament.management.commands._base import get_event
from tournament.services.knockout import seed_knockout


class Command(BaseCommand):
    help = "Seed each division's group qualifiers into its knockout bracket."

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("--reset", action="store_true", help="delete knockout games without results first")

    def handle(self, event, reset, **options):
        event = get_event(event)
        try:
            count = seed_knockout(event, reset=reset)
        except UserError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"{event.slug}: {count} knockout games created.")
