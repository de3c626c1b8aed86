from django.conf import settings
from django.core.management.base import CommandError

from judging.paper.match_sheets import event_sheets_pdf
from tournament.management.commands._base import EventCommand, get_event, in_site_language, write_output
from tournament.reports.sheets import moved_since_printed
from tournament.services.sheets import mark_sheets_printed


class Command(EventCommand):
    help = "Write the recording sheets (記録用紙) of the chosen games to a PDF."

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("--division", help="division name")
        parser.add_argument("--court", help="court name")
        parser.add_argument("--per-page", type=int, choices=[1, 2], default=1)
        parser.add_argument(
            "--moved", action="store_true", help="only the games moved since their sheet was last printed"
        )
        parser.add_argument("-o", "--output", required=True)

    def handle(self, event, division, court, per_page, output, moved=False, **options):
        event = get_event(event)
        matches = event.matches.all()
        if division:
            if not event.divisions.filter(name=division).exists():
                raise CommandError(f"No division named {division!r} in {event.slug}.")
            matches = matches.filter(division__name=division)
        if court:
            if not event.courts.filter(name=court).exists():
                raise CommandError(f"No court named {court!r} in {event.slug}.")
            matches = matches.filter(court__name=court)
        if moved:
            matches = moved_since_printed(matches)
            if not matches.exists():
                raise CommandError("No game moved since its sheet was last printed.")
        if not matches.exists():
            raise CommandError("No games to print: make the schedule first.")
        printed = list(matches)
        with in_site_language():
            data = event_sheets_pdf(
                event, matches, base_url=settings.SITE_URL or "http://127.0.0.1:8000", per_page=per_page
            )
        write_output(output, data)
        mark_sheets_printed(printed)
        self.stdout.write(f"{event.slug}: {len(printed)} recording sheets written to {output}.")
