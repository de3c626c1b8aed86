"""The court link (``/court/<token>/…``) as a credential: the court it opens, and what a
revoked or renewed link answers instead of a bare 404 (issue 16, item 7), and what a game
moved away from a closed court answers on its old court's link (issue 15, item 9).

A link that the organisers revoked, or renewed (its old token is kept as
``Court.previous_token``), answers a page that says to ask the desk (本部) for a new link and
shows the values a POST carried, so nothing typed is lost (status 410). An unknown token is
still a plain 404 that reveals nothing.
"""

import functools
import hashlib

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from tournament.models import Court, Match


class LinkRevoked(Http404):
    """A court link that was revoked or renewed: the court pages say so (``court_page``)."""

    def __init__(self, court):
        super().__init__()
        self.court = court


class GameMoved(Http404):
    """A game that was moved away from this court (a closed court): the court pages say
    where it is now (``court_page``) instead of a 404 or another court's form."""

    def __init__(self, court, match):
        super().__init__()
        self.court, self.match = court, match


def moved_game(court, number):
    """Game ``number`` of the court's event when it moved away from ``court``: it was moved
    from this court (``Match.moved_from``), or this court is closed and the game moved
    again since. None otherwise (an unknown number or a game that was never here: 404)."""
    match = (
        Match.objects.select_related("court", "team_a", "team_b")
        .filter(event_id=court.event_id, match_number=number, court__isnull=False)
        .exclude(court=court)
        .first()
    )
    if match is None or match.moved_from_id is None:
        return None
    if match.moved_from_id == court.pk or court.closed:
        return match
    return None


def court(token):
    """The court of an active link; ``LinkRevoked`` for a revoked or renewed one, 404 otherwise."""
    found = Court.objects.select_related("event").filter(token=token).first()
    if found is None:
        old = Court.objects.select_related("event").filter(previous_token=token).first() if token else None
        if old is None:
            raise Http404
        raise LinkRevoked(old)
    if not found.link_enabled:
        raise LinkRevoked(found)
    return found


# What a referee may have typed on a court page, as (field, label); shown again on the page of a
# revoked link so nothing typed is lost.
_TYPED_FIELDS = (
    ("cards_a", _lazy("cards of team A")),
    ("cards_b", _lazy("cards of team B")),
    ("referee_cards", _lazy("cards held by the referee")),
    ("joker_holder", _lazy("「り」 holder")),
    ("rps_winner", _lazy("rock-paper-scissors winner")),
    ("rps_used", _lazy("rock-paper-scissors decisions during the game")),
    ("absent_side", _lazy("absent team")),
    ("state_a", _lazy("team A")),
    ("state_b", _lazy("team B")),
)


def _typed(request):
    """What a POST carried, as (label, value) pairs to show again (nothing typed is lost)."""
    typed = []
    if request.method == "POST":
        shown = {"A": _("Team A"), "B": _("Team B"), "referee": _("Referee")}
        for field, label in _TYPED_FIELDS:
            value = request.POST.get(field, "").strip()[:20]
            if value:
                typed.append((label, shown.get(value, value)))
    return typed


def _revoked_page(request, court, token, number=None):
    """A revoked (or renewed) court link: what to do, and the values a POST carried (410)."""
    context = {"court": court, "number": number, "typed": _typed(request), "token": token}
    return render(request, "judging/court_revoked.html", context, status=410)


def _moved_page(request, moved, token):
    """A game moved away from this court: where it is now (its court and start), and the
    values a POST carried, not saved here (410, so the tablet's script keeps them)."""
    context = {"court": moved.court, "match": moved.match, "typed": _typed(request), "token": token}
    return render(request, "judging/court_moved.html", context, status=410 if request.method == "POST" else 200)


def court_page(view):
    """A court page (``token`` first): a revoked or renewed link answers the page that keeps
    what was typed and says to ask the desk for a new link, not a bare 404."""

    @functools.wraps(view)
    def wrapper(request, token, *args, **kwargs):
        try:
            return view(request, token, *args, **kwargs)
        except LinkRevoked as revoked:
            return _revoked_page(request, revoked.court, token, kwargs.get("number"))
        except GameMoved as moved:
            return _moved_page(request, moved, token)

    return wrapper


def court_signature(court):
    """A short fingerprint of a court's games (number, status, teams, slot): it changes when
    the next game changes, a result is confirmed, sent back or voided, or a game moves."""
    rows = Match.objects.filter(court=court).order_by("match_number")
    text = ";".join(
        f"{m.match_number}:{m.status}:{m.team_a_id}:{m.team_b_id}:{m.slot}"
        for m in rows.only("match_number", "status", "team_a_id", "team_b_id", "slot")
    )
    return hashlib.sha256(text.encode()).hexdigest()[:16]
