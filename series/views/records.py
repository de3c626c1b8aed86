"""Records across editions (issue 35, item 3; docs/rules/records.md): the public club records and
the MC's 「記録」 under /archive/records/ (no players' names, shared cache like the archive), and
the organisers' player history under /series/players/ (login; each organiser sees the players of
the events they organise), where a player's history is removed at the family's request."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from common.errors import UserError
from common.page_cache import shared_page
from series import services
from series.access import may_see_players
from series.players import histories, visible_events
from series.records import club_rows, tournament_records

MAX_QUERY = 60  # characters of the player history's search


@shared_page("archive-records")
def club_records(request):
    """Each club's editions, titles (優勝回数), best place and places per division, and its games
    won by 「り」 and by じゃんけん, over every edition stored here and the imported places."""
    joker = mark_safe('<span lang="ja">「り」</span>')  # the card's name in every language (glossary)
    return render(request, "series/records_clubs.html", {"rows": club_rows(), "joker": joker})


@shared_page("archive-records-mc")
def mc_records(request):
    """The MC's 「記録」 per tournament: its latest edition and 記念大会, most appearances (最多出場),
    runs of titles (連覇) and most titles."""
    return render(request, "series/records_mc.html", {"tournaments": tournament_records()})


@login_required
def players(request):
    """The player history of the events the user organises (``?q=`` searches name or furigana);
    POST ``remove`` = a player's key removes that player's history after the page's question."""
    if not may_see_players(request.user):
        raise PermissionDenied
    if request.method == "POST":
        try:
            services.forget_player(request.POST.get("remove", ""), request.user)
        except UserError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("The player's history was removed."))
        return redirect("series:players")
    query = request.GET.get("q", "")[:MAX_QUERY]
    found = histories(visible_events(request.user), query)
    return render(request, "series/players.html", {"histories": found, "query": query})
