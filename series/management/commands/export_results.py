from pathlib import Path

from django.core.management.base import CommandError

from common.errors import UserError
from series.exchange.export import DEFAULT_QUALIFIERS, export_results, qualifier_counts
from tournament.management.commands._base import EventCommand, get_event, write_output


class Command(EventCommand):
    help = (
        "Write the signed results file of a finished event of a series (docs/exchange.md): teams with "
        "players, standings, games, final places and the qualifiers it sends on. Organiser to organiser only."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("-o", "--output", help="the file to write (default: <event>-<date>-results.karuta)")
        parser.add_argument(
            "--qualifiers",
            type=int,
            default=DEFAULT_QUALIFIERS,
            help=f"places per division that go on to the final (default {DEFAULT_QUALIFIERS})",
        )

    def handle(self, event, output, qualifiers, **options):
        event = get_event(event)
        try:
            data, name = export_results(event, qualifiers)
        except UserError as error:
            raise CommandError(str(error)) from None
        path = Path(output or name)
        write_output(path, data, private=True)  # children's names: the owner only (0600)
        self.stdout.write(f"{event.slug}: results file written to {path} ({len(data)} bytes).")
        for count in qualifier_counts(event, qualifiers):
            self.stdout.write(count.sentence())
