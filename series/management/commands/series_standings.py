from django.core.management.base import CommandError

from common.errors import UserError
from series.exports import ranking_rows, series_workbook
from series.models import Series
from series.ranking import series_standings, stored_table
from tournament.management.commands._base import EventCommand, in_site_language, write_output


class Command(EventCommand):
    help = (
        "Print a series' ranking per division and per club with each row's explanation, "
        "or write it to an Excel file with -o."
    )

    def add_arguments(self, parser):
        parser.add_argument("series", help="the series' short name")
        parser.add_argument("-o", "--output", help="write an Excel workbook (.xlsx) instead of printing")

    def handle(self, series, output=None, **options):
        try:
            found = Series.objects.get(slug=series)
        except Series.DoesNotExist:
            raise CommandError(f"No series with the short name {series!r}.") from None
        try:
            stored_table(found)
        except UserError as error:
            raise CommandError(str(error)) from None
        if output:
            with in_site_language():
                data = series_workbook(series_standings(found))
            write_output(output, data)
            self.stdout.write(f"{found.slug}: series ranking written to {output}.")
            return
        standings = series_standings(found)
        table = ",".join(str(p) for p in standings.table)
        self.stdout.write(f"{found.name} ({found.season}), points per place {table}")
        for division in standings.divisions:
            self._table(division.name, ranking_rows(division.rows, standings.explain))
        self._table("Clubs", ranking_rows(standings.clubs, standings.club_explain, False))
        if not standings.divisions:
            self.stdout.write("No places decided yet.")

    def _table(self, title, rows):
        self.stdout.write(f"\n{title}")
        for line in rows:
            rank, name, *rest = line
            club = f" ({rest[0]})" if len(line) == 8 and rest[0] else ""
            self.stdout.write(f"  {rank:>4} {name}{club}: {line[-5]} points — {line[-1]}")
