"""``manage.py print_team_cards EVENT [-o FILE] [--changed]``: the event's team cards, four A6
cards to an A4 page (``--changed``: only those changed since the last recorded print; the print
is recorded), with the QR of each team's card (issue 32; docs/people.md "Team cards"). URLs start
with SITE_URL (default ``http://127.0.0.1:8000``); the default file is ``<slug>-team-cards.pdf``."""

from django.conf import settings

from people import cards, paper
from people.services import cards as service
from tournament.management.commands._base import EventCommand, get_event, in_site_language, write_output


class Command(EventCommand):
    help = "Write the team cards of an event (four A6 cards to an A4 page) to a PDF."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("-o", "--output", help="the PDF file to write (default: <slug>-team-cards.pdf)")
        parser.add_argument("--changed", action="store_true", help="only the cards changed since the last print")

    def handle(self, *args, **options):
        event = get_event(options["event"])
        base = settings.SITE_URL or "http://127.0.0.1:8000"
        with in_site_language():
            found = cards.team_cards(event, base)
            if options["changed"] and cards.last_print(event) is not None:
                found = [c for c in found if c.changed]
            data = paper.team_cards_pdf(str(event), found)
        path = write_output(options["output"] or f"{event.slug}-team-cards.pdf", data)
        service.record_print(event, cards.printed_snapshot(found))
        self.stdout.write(f"{len(found)} team cards written to {path}")
