from django.conf import settings
from django.core.management.base import CommandError

from tournament import printing
from tournament.management.commands._base import EventCommand, get_event, in_site_language, write_output
from tournament.paper import PROGRAMME_DEFAULT_SECTIONS, PROGRAMME_SECTIONS


class Command(EventCommand):
    help = (
        "Write the tournament programme booklet (大会プログラム) to a PDF: cover, contents, the day's schedule, "
        "notes, groups and teams, court timetables, bracket; the referees and duty roster only when --sections "
        "names staff. --booklet imposes it 2-up on A3 for folding."
    )

    def add_arguments(self, parser):
        parser.add_argument("event")
        parser.add_argument("-o", "--output", help="PDF file (default EVENT-programme.pdf)")
        parser.add_argument(
            "--sections",
            nargs="+",
            choices=PROGRAMME_SECTIONS,
            metavar="SECTION",
            help="the sections to print (default: "
            + " ".join(PROGRAMME_DEFAULT_SECTIONS)
            + "; staff, the referees and duty roster with their names, only when named): "
            + ", ".join(PROGRAMME_SECTIONS),
        )
        parser.add_argument("--booklet", action="store_true", help="2-up on A3 landscape in folding order")

    def handle(self, event, output=None, sections=None, booklet=False, **options):
        event = get_event(event)
        output = output or f"{event.slug}-programme.pdf"
        with in_site_language():
            try:
                data = printing.programme(
                    event, sections, booklet=booklet, base_url=settings.SITE_URL or "http://127.0.0.1:8000"
                )
            except ValueError as exc:
                raise CommandError(str(exc)) from exc
        write_output(output, data)
        self.stdout.write(f"{event.slug}: programme written to {output}.")
