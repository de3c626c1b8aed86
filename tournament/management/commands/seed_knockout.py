from django.core.management.base import CommandError

from tournament.management.commands._base import EventCommand, get_event
from tournament.reports import stage_notes
from tournament.services.knockout import seed_divisions


class Command(EventCommand):
    help = (
        "Seed the knockout of every division that is ready (or only --division), each at its own time; "
        "says which divisions were seeded and why the others were not."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("--division", help="the division's name (as on the entry sheet)")
        parser.add_argument("--reset", action="store_true", help="delete knockout games not started and seed again")

    def handle(self, event, division, reset, **options):
        """Exit code 0 unless the named ``--division`` is refused (unknown, or not ready)."""
        event = get_event(event)
        named = None
        if division is not None:
            named = event.divisions.filter(name=division.strip()).first()
            if named is None:
                known = "、".join(event.divisions.values_list("name", flat=True))
                raise CommandError(f"No division named {division!r} in {event.slug} (divisions: {known}).")
        report = seed_divisions(event, division=named, reset=reset)
        for d, count in report.seeded:
            self.stdout.write(stage_notes.seeded_text(d, count))
        for d, reason in report.not_seeded:
            text = str(reason)
            self.stdout.write(text if d.name in text else f"{d.name}: {text}")
        if named is not None and report.not_seeded:
            raise CommandError(str(report.not_seeded[0][1]))
        self.stdout.write(f"{event.slug}: {report.created} knockout games created.")
