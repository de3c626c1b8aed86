"""The club's entry link (``/club/<token>/…``) as a credential, as a court link is
(``judging.court_link``): the link it opens, the club's own teams only (another club's: 404),
and what a revoked or renewed link answers instead of a bare 404: a page that says so and shows
the values a POST carried, so nothing typed is lost (status 410). An unknown token is a plain
404 that reveals nothing. Tokens are found by a unique lookup (never compared in Python).
"""

import functools

from django.http import Http404
from django.shortcuts import render
from django.urls import reverse

from club_entry.forms import ClubTeamForm
from club_entry.models import ClubLink
from common.kept_forms import visible_fields
from tournament.access import whole_number


class LinkRevoked(Http404):
    """A club link that was revoked or renewed: the club pages say so (``club_page``)."""

    def __init__(self, link):
        super().__init__()
        self.link = link


def club_link(token) -> ClubLink:
    """The link of an active ``token``; ``LinkRevoked`` for a revoked or renewed one, 404 otherwise."""
    if not token:
        raise Http404
    found = ClubLink.objects.select_related("event").filter(token=token).first()
    if found is None:
        old = ClubLink.objects.select_related("event").filter(previous_token=token).first()
        if old is None:
            raise Http404
        raise LinkRevoked(old)
    if not found.enabled:
        raise LinkRevoked(found)
    return found


def link_url(base, link) -> str:
    """The absolute URL of a club's link (``base``: SITE_URL or this server's address, no slash)."""
    return base + reverse("club_entry:home", args=[link.token])


def own_team(link, pk):
    """One of the club's teams (its event, its affiliation); 404 for any other team."""
    number = whole_number(pk)
    team = next((t for t in link.teams() if t.pk == number), None) if number is not None else None
    if team is None:
        raise Http404
    return team


def typed_values(request) -> list[tuple[str, str]]:
    """What a POST carried (without the CSRF token and ticks), as (field, value) pairs to show
    again as text: nothing typed is lost (``common.kept_forms``, issue 18)."""
    if request.method != "POST":
        return []
    skip = {"version", "accept_warnings", "action", "agree"}
    return [(name, value[:100]) for name, value in visible_fields(request) if name not in skip and value.strip()]


def club_page(view):
    """A club page (``token`` first): a revoked or renewed link answers the page that keeps what
    was typed and says to ask the organisers for a new link (410), not a bare 404."""

    @functools.wraps(view)
    def wrapper(request, token, *args, **kwargs):
        try:
            return view(request, token, *args, **kwargs)
        except LinkRevoked as revoked:
            typed = ClubTeamForm(event=revoked.link.event).typed_rows(typed_values(request))
            context = {"link": revoked.link, "event": revoked.link.event, "typed": typed}
            return render(request, "club_entry/revoked.html", context, status=410)

    return wrapper
