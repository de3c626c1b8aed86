"""Hall screens (projectors, court screens): large type, paging, refreshing themselves
(issue 17, item 2; docs/hall-screens.md).

Every screen is the same frame (``public/display.html``: title, QR code of the public pages,
announcements, the page of the screen, the ticker of new results) around one screen's
fragment. The page embeds the version it was rendered with (``reports.hall.hall_version``);
``static/js/display.js`` polls ``display_state`` every few seconds and fetches the fragment
again (``?fragment=1``) as soon as the version differs, so a change made in the first
seconds after loading is shown too. The script pages through the blocks of a screen
(``.hall-item``) that do not fit at once, and a rotation shows several screens in turn.

The screens are cached like the other public pages (``common.page_cache.shared_page``, keyed on
the hall version, so never behind it; issue 28: 30 clients on a court page had a p95 of 11 s):
thirty tablets polling the same court render it once per change.
"""

from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from common.page_cache import shared_page
from common.qr_svg import qr_svg
from tournament import reports
from tournament.access import event_for_public, public_event
from tournament.models import Court
from tournament.reports import api, hall, ranking, stage_notes

POLL_SECONDS = 5
DEFAULT_PAGE_SECONDS = hall.DEFAULT_PAGE_SECONDS
MAX_PAGE_SECONDS = hall.MAX_PAGE_SECONDS


#: The query parameters that change what a screen shows (the cache's key; others are ignored).
SCREEN_PARAMS = ("fragment", "seconds", "screens", "screen")


def _hall_version(request, slug, **kwargs):
    """The cache version of a hall screen: the event's hall version now
    (``reports.hall.hall_version``: the event's version, announcements, the minute), or
    "unknown" for an unknown event (its 404 is never stored)."""
    event = public_event(slug)
    if event is None:
        return "unknown"
    return hall.hall_version(event, timezone.now(), api.event_version(event))


def _screen(name):
    """A hall screen's view: GET and HEAD only, cached per hall version and known parameters."""

    def decorate(view):
        return require_safe(shared_page(name, params=SCREEN_PARAMS, version=_hall_version)(view))

    return decorate


def _page_seconds(request):
    """``?seconds=`` (1–600, seconds per page of a screen), the default when absent; None when
    it is not such a number."""
    value = request.GET.get("seconds", "")
    if not value:
        return DEFAULT_PAGE_SECONDS
    if value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_PAGE_SECONDS:
        return int(value)
    return None


def _frame(request, event, fragment, context, screens, status=200):
    """A hall screen: the whole frame once, or only the screen (``?fragment=1``) for the script.

    The version is read before the screen's data, so a change in between makes the script
    fetch once more rather than miss it."""
    now = timezone.now()
    shown = hall.announcements_now(event, now)
    version = hall.hall_version(event, now, api.event_version(event), shown)
    screen = {"version": version, "fragment_template": fragment, **context}
    if request.GET.get("fragment"):
        return render(request, "public/display_screen.html", {"event": event, **screen}, status=status)
    seconds = _page_seconds(request) or DEFAULT_PAGE_SECONDS
    return render(
        request,
        "public/display.html",
        {
            "event": event,
            **screen,
            "screens": screens,
            "seconds": seconds,
            "poll_seconds": POLL_SECONDS,
            "state_url": reverse("tournament:display_state", args=[event.slug]),
            "qr_url": reverse("tournament:display_qr", args=[event.slug]),
            "announcements": shown,
            "ticker": [api.ticker_item(line) for line in hall.recent_results(event)],
        },
        status=status,
    )


def _division_context(event, division):
    return {
        "division": division,
        "groups": reports.group_standings(division),
        "brackets": [b for b in reports.division_brackets(event, division) if b.matches],
        "stale": stage_notes.division_out_of_date(division),
    }


@_screen("display-division")
def division_display(request, slug, division):
    """Projector view of a division: every group's standings in large type, a page of groups
    at a time, then the bracket; the games a change left out of date are named until the
    organiser decides."""
    event = event_for_public(request, slug)
    division = get_object_or_404(event.divisions, pk=division)
    return _frame(request, event, "public/display_division.html", _division_context(event, division), [request.path])


# Left to right on the podium: 2nd, 1st, 3rd.
PODIUM_ORDER = (2, 1, 3)


def _podium_context(event, division):
    """The podium of ``division``: its ``DivisionRanking`` (players loaded only when the event
    publishes names) and ``spots``, left to right, ``(rank, [RankLine])`` for only the places
    the division's format gives (``DivisionRanking.podium_places``: no 3rd step after a lone
    final, joint thirds together on one)."""
    names = event.publish_names
    standing = ranking.division_rankings(event, division, with_players=names)[0]
    spots = [(rank, standing.at(rank)) for rank in PODIUM_ORDER if standing.podium_places.get(rank)]
    return {"division": division, "ranking": standing, "names": names, "spots": spots}


@_screen("display-podium")
def podium_display(request, slug, division):
    """A division's podium (issue 19, item 6; docs/hall-screens.md, "Podium"): 1st in the
    middle, 2nd left, 3rd right (joint thirds both; only the places the format gives), team
    names large and fitted (at most three lines, broken between phrases), affiliation small,
    players' names only when the event publishes names; "not decided yet" until the final is
    confirmed, then the podium appears by itself (the version changes with the result)."""
    event = event_for_public(request, slug)
    division = get_object_or_404(event.divisions, pk=division)
    return _frame(request, event, "public/display_podium.html", _podium_context(event, division), [request.path])


def _court_context(event, court):
    matches = list(reports.match_queryset(event).filter(court=court).order_by("slot", "match_number"))
    slots = {}
    for division in {g.division_id: g.division for g in matches if not g.is_group_match}.values():
        slots.update(reports.division_game_slots(division))
    for g in matches:
        g.slots = slots.get(g.pk)  # a side without a team shows its slot's label
    waiting = [g for g in matches if g.awaits_result]
    last = [g for g in matches if g.has_result][-1:]
    return {"court": court, "current": waiting[:1], "next_games": waiting[1:4], "last": last}


@_screen("display-court")
def court_display(request, slug, court):
    """A court's screen: the current game and the next ones, refreshing itself; a game a change
    left out of date is marked "under review"."""
    event = event_for_public(request, slug)
    court = get_object_or_404(Court, event=event, pk=court)
    return _frame(request, event, "public/display_court.html", _court_context(event, court), [request.path])


@_screen("display-courts")
def courts_display(request, slug):
    """The all-courts overview: per court the game now playing (or due), the next one, and
    "late" when a game's start time has passed with neither a start nor a result
    (``reports.hall.courts_overview``)."""
    event = event_for_public(request, slug)
    context = {"courts": hall.courts_overview(event, timezone.now())}
    return _frame(request, event, "public/display_courts.html", context, [request.path])


def _screen_paths(event, spec):
    """The paths of the screens named in ``spec`` ("courts,division:3,podium:3,court:2"), and the
    words that name no screen of this event."""
    divisions = {str(d.pk): d for d in event.divisions.all()}
    courts = {str(c.pk): c for c in event.courts.all()}
    paths, unknown = [], []
    for word in (w.strip() for w in spec.split(",")):
        kind, _sep, key = word.partition(":")
        if word == "courts":
            paths.append(reverse("tournament:courts_display", args=[event.slug]))
        elif kind == "division" and key in divisions:
            paths.append(reverse("tournament:division_display", args=[event.slug, int(key)]))
        elif kind == "podium" and key in divisions:
            paths.append(reverse("tournament:podium_display", args=[event.slug, int(key)]))
        elif kind == "court" and key in courts:
            paths.append(reverse("tournament:court_display", args=[event.slug, int(key)]))
        elif word:
            unknown.append(word)
    return paths, unknown


@_screen("display-rotation")
def rotation_display(request, slug):
    """Several screens in turn: ``?screens=courts,division:3,court:2`` or the organiser page's
    ``?screen=…&screen=…`` (default: the overview and every division) and ``?seconds=`` per page (1–600). A word that names no screen or a
    wrong number of seconds is named on the page (400), never a 500."""
    event = event_for_public(request, slug)
    spec = ",".join(request.GET.getlist("screen")) or request.GET.get("screens")
    spec = spec or ",".join(["courts", *(f"division:{d.pk}" for d in event.divisions.all())])
    paths, unknown = _screen_paths(event, spec)
    problems = []
    if unknown:
        problems.append(_("Screens: not a screen of this tournament: %(words)s") % {"words": ", ".join(unknown)})
    if _page_seconds(request) is None:
        problems.append(_("Seconds: a whole number from 1 to %(max)d.") % {"max": MAX_PAGE_SECONDS})
    if problems or not paths:
        problems = problems or [_("Screens: choose at least one screen.")]
        return _frame(request, event, "public/display_problem.html", {"problems": problems}, [], status=400)
    return _frame(request, event, "public/display_rotation.html", {"version": ""}, paths)


@require_safe
@shared_page("display-state", strict=True)
def display_state(request, slug):
    """What the screens poll: ``reports.api.hall_document`` as JSON (version, announcements,
    ticker). Made once per write for every screen (``shared_page(strict=True)``: never behind
    a write, and at most ``page_cache.FRESH_SECONDS`` behind the clock, so an announcement's
    end and the late flags still show within the screens' 10 seconds); the browser asks
    again every time (``no-cache``, a 304 while it has not changed)."""
    event = event_for_public(request, slug)
    return JsonResponse(api.hall_document(event, timezone.now()), json_dumps_params={"ensure_ascii": False})


@require_safe
def display_qr(request, slug):
    """The QR code (SVG, served from here: no outside service) of the event's public timetable
    at the address the screen itself used, for parents to scan from the hall."""
    event = event_for_public(request, slug)
    url = request.build_absolute_uri(reverse("tournament:public_timetable", args=[event.slug]))
    response = HttpResponse(qr_svg(url), content_type="image/svg+xml")
    response["Cache-Control"] = "max-age=3600"
    return response
