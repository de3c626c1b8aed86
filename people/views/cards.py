"""Team cards as a PDF (issue 32 item 5; docs/people.md "Team cards"): four A6 cards to an A4
page, offered on the print page; ``manage.py print_team_cards`` writes the same file."""

from django.conf import settings as django_settings
from django.contrib.auth.decorators import login_required

from common.downloads import PDF, file_response
from people import cards, paper
from people.services import cards as service
from tournament.access import event_for_organiser


def base_url(request) -> str:
    """The site's address for the QR codes: ``SITE_URL``, else the request's host."""
    return django_settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")


@login_required
def team_cards_pdf(request, slug):
    """The event's team cards (organisers only), shown in the browser to print. GET: every card,
    those changed since the last recorded print marked, nothing recorded. POST (the People of
    the day page): the print is recorded; ``changed`` limits it to the cards that changed."""
    event = event_for_organiser(request, slug)
    found = cards.team_cards(event, base_url(request))
    if request.method == "POST":
        if request.POST.get("changed"):
            found = [c for c in found if c.changed or cards.last_print(event) is None]
        service.record_print(event, cards.printed_snapshot(found))
    data = paper.team_cards_pdf(str(event), found)
    return file_response(data, f"{event.slug}-team-cards.pdf", PDF, inline=True)
