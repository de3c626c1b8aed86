from pathlib import Path

from django.core.management.base import CommandError

from common.errors import UserError
from series.exchange.importer import import_results
from tournament.management.commands._base import EventCommand, get_event


class Command(EventCommand):
    help = (
        "Import a district's signed results file into the series' final: the qualifying teams and their "
        "players, and the district's places for the series ranking (docs/exchange.md). --dry-run saves nothing."
    )

    def add_arguments(self, parser):
        parser.add_argument("event", help="the final (its short name)")
        parser.add_argument("file")
        parser.add_argument("--dry-run", action="store_true", help="show what would be imported; save nothing")

    def handle(self, event, file, dry_run, **options):
        event = get_event(event)
        try:
            data = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"{file}: {error.strerror or error}") from None
        try:
            report = import_results(event, data, preview=dry_run)
        except UserError as error:
            raise CommandError(f"{error} Nothing was imported.") from None
        for refusal in report.refusals:
            self.stdout.write(f"REFUSED: {refusal}")
        for warning in report.warnings:
            self.stdout.write(f"warning: {warning}")
        for division, qualifiers in report.by_division():
            for q in qualifiers:
                self.stdout.write(
                    f"{division}: {q.team.name} ({q.team.affiliation or '-'}), {q.division} place {q.place}"
                )
        if report.refusals:
            raise CommandError(f"{file}: {len(report.refusals)} refusals; nothing was imported.")
        verb = "would import" if dry_run else "imported"
        self.stdout.write(
            f"{event.slug}: {verb} {len(report.qualifiers)} qualifying teams and {len(report.placings)} places "
            f"from {report.source}."
        )
