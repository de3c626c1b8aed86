from pathlib import Path

from django.core.management.base import CommandError

from tournament.imports import parse_entry_workbook
from tournament.management.commands._base import EventCommand, get_event
from tournament.services.registration import import_entries


class Command(EventCommand):
    help = (
        "Import teams from an Excel entry sheet (all or nothing); --dry-run only checks; "
        "--accept-warnings imports despite warnings (hidden rows, a player in two teams, a grade "
        "outside the division's band)."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("file")
        parser.add_argument("--dry-run", action="store_true")
        parser.add_argument("--division", default="", help="division for rows without one")
        parser.add_argument("--accept-warnings", action="store_true", help="import despite warnings")

    def handle(self, event, file, dry_run, division, accept_warnings=False, **options):
        event = get_event(event)
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"No such file: {file}")
        report = import_entries(
            event,
            parse_entry_workbook(path.read_bytes(), default_division=division),
            dry_run=dry_run,
            accept_warnings=accept_warnings,
        )
        for warning in report.warnings:
            self.stderr.write(str(warning))
        if not report.ok:
            for problem in report.problems:
                self.stderr.write(str(problem))
            raise CommandError(f"{len(report.problems)} problems; nothing was imported.")
        if report.warnings and not (dry_run or accept_warnings):
            raise CommandError(f"{len(report.warnings)} warnings; nothing was imported (see --accept-warnings).")
        new = f"; new divisions: {', '.join(report.new_divisions)}" if report.new_divisions else ""
        verb = "would import" if dry_run else "imported"
        self.stdout.write(f"{event.slug}: {verb} {len(report.teams)} teams{new}.")
