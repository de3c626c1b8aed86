from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.imports import parse_entry_workbook
from tournament.management.commands._base import get_event
from tournament.services.registration import import_entries


class Command(BaseCommand):
    help = "Import teams from an Excel entry sheet (all or nothing); --dry-run only checks."

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("file")
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--division", default="", help="division for rows without one")

    def handle(self, event, file, dry_run, division, **options):
        event = get_event(event)
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No such file: {file}")
        report = import_entries(
            event, parse_entry_workbook(path.read_bytes(), default_division=division), dry_run=dry_run
        )
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(report.problems)} problems; nothing was imported.")
        new = f"; new divisions: {', '.join(report.new_divisions)}" if report.new_divisions else ""
        verb = "would import" if dry_run else "imported"
        self.stdout.write(f"{event.slug}: {verb} {len(report.teams)} teams{new}.")
