from pathlib import Path

from django.core.management.base import CommandError

from common.errors import UserError
from series.exchange.signing import load_key
from series.models import SeriesEvent
from tournament.management.commands._base import EventCommand, get_event


class Command(EventCommand):
    help = (
        "Load a series' key file written on the final's laptop (series_key): this laptop then has the same "
        "series and signs its results files with its key. --event adds a tournament of this laptop to it."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--event", help="a tournament of this laptop to add to the series")
        parser.add_argument("--role", choices=SeriesEvent.Role.values, default=SeriesEvent.Role.QUALIFIER)
        parser.add_argument("--district", default="", help="the district this tournament qualifies for")

    def handle(self, file, event, role, district, **options):
        try:
            data = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror or error}") from None
        try:
            target = get_event(event) if event is not None else None
            series, created = load_key(data, target, role, district)
        except UserError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{series.slug}: key {'loaded' if created else 'already loaded; nothing changed'}.")
        if event is not None:
            self.stdout.write(f"{event}: in the series {series.slug} as {role} {district}".rstrip() + ".")
