import datetime

from django.core.management.base import CommandError
from django.utils.text import slugify

from common.errors import UserError
from tournament.management.commands._base import EventCommand
from tournament.services.events import create_event


class Command(EventCommand):
    help = "Create a tournament with N courts named 1..N."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--name", required=True)
        parser.add_argument("--date", required=True, help="YYYY-MM-DD")
        parser.add_argument("--courts", type=int, default=4)
        parser.add_argument("--edition", type=int)
        parser.add_argument("--venue", default="")

    def handle(self, slug, name, date, courts, edition, venue, **options):
        if slugify(slug) != slug:
            raise CommandError("The short name may hold only lower-case letters, digits and hyphens.")
        try:
            day = datetime.date.fromisoformat(date)
        except ValueError:
            raise CommandError(f"--date must be YYYY-MM-DD, not {date!r}.") from None
        if not 1 <= courts <= 100:
            raise CommandError("--courts must be between 1 and 100.")
        try:
            event = create_event(slug, name, day, courts=courts, edition=edition, venue=venue)
        except UserError as e:
            raise CommandError(str(e)) from None
        self.stdout.write(f"Created {event.title} ({event.slug}) on {event.date} with {courts} courts.")
