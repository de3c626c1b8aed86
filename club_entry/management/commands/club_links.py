"""``manage.py club_links EVENT [-o FILE.pdf]``: every club's entry link (issue 20 item 4).

Without ``-o`` the active links are printed, one per line (club, tab, URL); with ``-o`` the PDF of
cards with QR codes is written (the same as the organiser's page offers). URLs start with
SITE_URL (default ``http://127.0.0.1:8000``).
"""

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from club_entry import paper
from club_entry.link import link_url
from club_entry.models import ClubLink
from tournament.management.commands._base import get_event, write_output


class Command(BaseCommand):
    help = "Print the clubs' entry links of an event, or write them with QR codes to a PDF (-o)."

    def add_arguments(self, parser):
        parser.add_argument("event", help="the event's short name (slug)")
        parser.add_argument("-o", "--output", help="write the PDF of the links with QR codes to this file")

    def handle(self, *args, **options):
        event = get_event(options["event"])
        base = settings.SITE_URL or "http://127.0.0.1:8000"
        links = list(ClubLink.objects.filter(event=event, enabled=True))
        if not options["output"]:
            for link in links:
                self.stdout.write(f"{link.club}\t{link_url(base, link)}")
            return
        cards = [paper.LinkCard(link.club, link.contact_name, link.contact, link_url(base, link)) for link in links]
        path = Path(options["output"])
        write_output(path, paper.club_links_pdf(str(event), cards), private=True)
        self.stdout.write(f"{len(cards)} links written to {path}")
