from pathlib import Path

from django.core.management.base import CommandError

from series.exchange.signing import key_file
from series.models import Series
from tournament.management.commands._base import EventCommand, write_output


class Command(EventCommand):
    help = (
        "Write a series' key file on the final's laptop, to load on each district's laptop before the day "
        "(load_series_key). The key signs results files: carry it like a password (docs/exchange.md)."
    )

    def add_arguments(self, parser):
        parser.add_argument("series", help="the series' short name")
        parser.add_argument("-o", "--output", help="the file to write (default: <series>.karuta-key)")

    def handle(self, series, output, **options):
        found = Series.objects.filter(slug=series).first()
        if found is None:
            known = ", ".join(Series.objects.values_list("slug", flat=True)) or "none"
            raise CommandError(f"No series with the short name {series!r} (series: {known}).")
        path = Path(output or f"{found.slug}.karuta-key")
        write_output(path, key_file(found), private=True)  # the series' secret: the owner only (0600)
        self.stdout.write(f"{found.slug}: key file written to {path}. Keep it like a password.")
