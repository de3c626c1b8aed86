"""Public, read-only pages: timetable, results, standings, bracket, final results, Excel, CSV and calendars (.ics).

No login. They show team names and affiliations and never players' names (the final
results show them only when the event publishes them).

Phone first (issue 17, item 1): every game is a card (number, time, court, both teams,
result) rendered from the read side with a plain template loop; a page that would be
heavy on a phone shows a part by default (the coming games, a page of results, the short
standings) with everything one tap away. Each page carries the event's version
(``reports.api.event_version``) and ``static/js/public_refresh.js`` swaps in the page's
fragment (``?fragment=1``) when the events document says the version changed.
"""

import functools
import hashlib
import itertools
import re
import time
from urllib.parse import urlsplit

from django.conf import settings
from django.core.paginator import Paginator
from django.db.models import F, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.functional import SimpleLazyObject
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from awards.reports import open_games, team_page_stamp, team_prizes
from common import page_cache
from common.downloads import CSV, ICS, PDF, XLSX, file_response
from common.page_cache import cache_add, cache_delete, cache_get, cache_set
from tournament import calendars, exports, family, printing, reports, share
from tournament.access import event_for_public, whole_number
from tournament.models import CRITERION_LABELS, Court, Division, Event, Group, Match, Team
from tournament.reports import hall
from tournament.reports.api import event_version
from tournament.reports.placement import division_placements, nth_place
from tournament.reports.versions import team_place, team_version

FRESH_SECONDS = 15  # a fragment is kept this long for the same event version (lots carry no version)
SCOPED_SECONDS = 300  # a fragment keyed on what it shows (its scope: the team page) is kept this long
LIVE_LAG_SECONDS = 5  # a polled fragment may be this many seconds behind the newest version
RENDER_LOCK = 10  # seconds: longest a fragment's render lock is held (a crashed render frees it then)
RENDER_WAIT = 2  # seconds: longest a request waits for another's render before rendering itself
REFRESH_SECONDS = 15  # how often a public page asks whether the event changed
COMING = 60  # games shown by default on the timetable of a big event: the next ones without a result
SPLIT_ABOVE = 120  # an event with more games shows only the coming ones by default
RESULTS_PER_PAGE = 100
GROUPS_PER_PAGE = 10  # groups on a page of the short standings (a phone's default view)
LAZY = ("lines", "standings", "day")  # context entries that are functions, called only to render the fragment
FIGURES = ("card_diff", "cards_taken")  # criteria shown as the deciding figure of the short standings


def _number(request, name):
    """A positive whole number from the query string, or None (anything else is ignored:
    ``access.whole_number``, issue 18 item 5)."""
    return whole_number(request.GET.get(name, ""), low=1)


def cached_fragment(path, event, version, params, build, polled=False, scope=None):
    """What ``build()`` makes of a page's live part (its HTML, or what ``live_page``'s ``head``
    keeps beside it) and the event's version it stands for: ``(value, version)``. ``version``
    is the event's (``reports.api.event_version``); ``scope``, for a page that shows less than
    the whole event, a version of what it shows (the team page: ``reports.versions.team_version``;
    issue 31, item 3). The cache key holds ``scope`` (``version`` without one): a fragment made
    under an older event version with the same scope is current, and stands for the event's
    version of now.

    Made at most once per page (``path``, which names the court or team), known parameters,
    language and scope (``params``: the parameters the page reads, never the raw query string,
    so ``?x=<random>`` is served from the cache), kept ``FRESH_SECONDS`` for changes the
    version does not see (a court renamed); ``SCOPED_SECONDS`` with a scope, which sees them
    (a fragment kept 15 s made every team page render again at every phone's next poll).

    Under a full hall (issue 31, item 3: 1,000 phones, a result every second or so) a new
    version made every phone's next fetch render the same fragment at once, each worker
    thread its own copy. So one request renders (a lock in the shared cache, ``RENDER_LOCK``
    seconds at most) while the others are answered with the newest fragment already made, of
    an older scope, which stands for the version it was made under (``live_page`` writes it
    into ``data-version``) so the page's script fetches again at its next poll; a request with
    no older fragment waits for the render (up to ``RENDER_WAIT`` seconds), then renders
    itself. With ``polled`` (``?fragment=1``, the script's fetch) the newest fragment is also
    served while it is younger than ``LIVE_LAG_SECONDS``: a polled fragment is rendered at most
    once per that many seconds per page, however often results arrive, and is at most that
    much behind. A page opened afresh always shows the version of the moment."""
    place = f"{path}|{event.pk}|{get_language()}|{sorted(params.items())}"
    key = "public-live:" + hashlib.sha256(f"{place}|{scope or version}".encode()).hexdigest()
    newest_key = "public-live-newest:" + hashlib.sha256(place.encode()).hexdigest()
    lock_key = newest_key + ":lock"
    value = cache_get(key)
    if value is not None:
        return value, version
    newest = cache_get(newest_key)  # (version, value, made at)
    if polled and newest is not None and time.time() - newest[2] < LIVE_LAG_SECONDS:
        return newest[1], newest[0]
    locked = cache_add(lock_key, 1, RENDER_LOCK)
    if not locked:
        if newest is not None:
            return newest[1], newest[0]
        waited_until = time.monotonic() + RENDER_WAIT
        while time.monotonic() < waited_until:
            time.sleep(0.05)
            value = cache_get(key)
            if value is not None:
                return value, version
    try:
        value = build()
        cache_set(key, value, SCOPED_SECONDS if scope else FRESH_SECONDS)  # a full disk: served uncached
        cache_set(newest_key, (version, value, time.time()), FRESH_SECONDS)
    finally:
        if locked:
            cache_delete(lock_key)
    return value, version


def live_page(request, template, fragment, context, params, clock="", scope=None, head=None):
    """Render ``template`` around the live fragment ``fragment`` (the part that refreshes
    itself); with ``?fragment=1`` only the fragment, for ``public_refresh.js``. The fragment
    is wrapped here in ``<div class="live-body" data-version="…">`` with the event's version
    it stands for: the script compares it with the events document's.

    ``scope``: a version of what the fragment shows when that is less than the whole event
    (``cached_fragment``). ``head``: ``(keep, show)`` for a part made at every request in
    front of the cached fragment: ``keep(context)`` (the fragment's context, its lazy entries
    made) gives what is kept beside it in the cache, ``show(kept)`` its HTML (the team page's
    next game: its minutes and calls follow the clock, not the data). ``clock``: a text that changes with the time the page
    shows ("in 12 minutes": the minute), kept in the ETag so a reload gets the new text."""
    event = context["event"]
    version = event_version(event)
    clock += "|" + (scope or "")  # a scope may change without the event's version (two teams swapped)
    etag = _page_etag(request, event, version + clock, params)
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return not_modified  # 304: the phone's copy is current (issue 17, item 3)
    context = {**context, "version": version}

    def build():
        # What is costly to shape ("lines", "standings": functions) is made once, on a cache miss.
        ready = {key: value() if key in LAZY else value for key, value in context.items()}
        html = render_to_string(fragment, ready, request)
        return (head[0](ready), html) if head is not None else html

    polled = request.GET.get("fragment") == "1"
    value, made = cached_fragment(request.path, event, version, params, build, polled, scope)
    if made != version:  # an older fragment (another request is rendering the new one)
        etag = _page_etag(request, event, made + clock, params)
        context["version"] = made
    html = head[1](value[0]) + value[1] if head is not None else value
    html = format_html('<div class="live-body" data-version="{}">\n{}</div>', made, mark_safe(html))
    if polled:
        response = HttpResponse(html)
    else:
        live = {
            "api": reverse("api:events"),
            "seconds": REFRESH_SECONDS,
            "fragment": request.path + "?" + _query({**params, "fragment": 1}),
        }
        response = render(request, template, {**context, "live_html": html, "live": live})
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    patch_vary_headers(response, ("Accept-Language", "Cookie"))
    return response


def _page_etag(request, event, version, params):
    """The ETag of a public page: its path, the parameters it reads, fragment or whole page, the
    language, the event's version (``reports.api.event_version``) and who is logged in (a login
    rotates the CSRF secret the page's language form uses), so a phone's copy answers 304 until
    one of them changes."""
    parts = (
        request.path,
        sorted(params.items()),
        request.GET.get("fragment") == "1",
        get_language(),
        event.pk,
        version,
        request.user.pk if request.user.is_authenticated else None,
    )
    return page_cache.etag_of(repr(parts).encode())


def _query(params):
    return "&".join(f"{k}={v}" for k, v in params.items() if v not in (None, ""))


def _with_slots(event, matches, team=None):
    """The cards (``game_cards``) of ``matches``; the slot labels are read only when a
    knockout or placement game is among them."""
    matches = list(matches)
    slots = reports.event_slots(event) if any(m.stage != Match.Stage.GROUP for m in matches) else {}
    return game_cards([reports.match_line(m, slots) for m in matches], team)


# How a level game was decided, after its score: 「り」 stays the card's name; じゃんけん is translated.
DECIDED = {"joker": lambda: " (り)", "rps": lambda: " (" + _("rock-paper-scissors") + ")"}


def _side(line, side, team):
    """One side of a card: its text, the class of the text when it is no team yet ("tbd
    slot": a slot's label, "tbd": to be decided), the side's classes, whether its place changed."""
    team_id = line.match.team_a_id if side == "a" else line.match.team_b_id
    slot = line.slot_a if side == "a" else line.slot_b
    classes = ""
    if team_id is not None and team_id == line.match.winner_id:
        classes += " winner"
    if team is not None and team_id == team.pk:
        classes += " me"
    tbd = "" if team_id is not None else ("tbd slot" if slot is not None and slot.label else "tbd")
    text = line.team_a_text if side == "a" else line.team_b_text
    return text, tbd, classes, bool(slot is not None and slot.changed)


def _score(line):
    if line.annulled and line.sheet is not None:  # a withdrawal annulled it: it counts for nobody
        return f"{line.status_text} ({line.sheet.cards_a} - {line.sheet.cards_b})"
    if line.sheet is not None and line.sheet.is_walkover:
        return line.result
    if line.sheet is not None:
        return f"{line.sheet.cards_a} - {line.sheet.cards_b}{DECIDED.get(line.sheet.decided_by, str)()}"
    return str(line.match.get_status_display()) if line.status == Match.Status.VOID else "—"


def game_cards(lines, team=None):
    """The cards of the timetable and results (``public/includes/games.html``) from ``[MatchLine]``:
    plain dicts with the texts ready, so the template loop only prints them (a card costs
    a few dozen microseconds). ``team``: the team whose page this is (its side is marked)."""
    cards = []
    for line in lines:
        a, a_tbd, a_class, a_changed = _side(line, "a", team)
        b, b_tbd, b_class, b_changed = _side(line, "b", team)
        start = timezone.localtime(line.start).strftime("%H:%M") if line.start else "—"
        cards.append(
            {
                "number": line.number,
                "classes": (" annulled" if line.annulled else " done" if line.result else "")
                + (" stale" if line.out_of_date else ""),
                "start": start,
                "court": str(line.match.court) if line.match.court else "—",
                "what": f"{line.division} ・ {line.stage_and_group}",
                "a": a,
                "a_tbd": a_tbd,
                "a_class": a_class,
                "a_changed": a_changed,
                "b": b,
                "b_tbd": b_tbd,
                "b_class": b_class,
                "b_changed": b_changed,
                "score": _score(line),
                "stale": line.slots.out_of_date_text if line.out_of_date else "",
            }
        )
    return cards


def home(request):
    """The public home page: the public events, then the archived ones under the past
    tournaments; drafts are not listed, for anyone (issue 27; organisers find them under
    /manage/)."""
    events = Event.objects.exclude(visibility=Event.Visibility.DRAFT)
    current = [e for e in events if e.visibility == Event.Visibility.PUBLIC]
    archived = [e for e in events if e.visibility == Event.Visibility.ARCHIVED]
    return render(request, "public/home.html", {"events": current, "archived": archived})


def _kept_count(event, name, queryset):
    """``queryset.count()`` (int), read once per data version and kept in the shared cache
    under ``name`` (``page_cache.kept_per_data_version``: never behind a committed write).
    A phone's refresh that finds its fragment cached asks no query (issue 31, item 3: the
    timetable's and the results' counts were the database's work per refresh)."""
    return page_cache.kept_per_data_version(f"public-count:{event.pk}:{name}", queryset.count)


class _CountedPaginator(Paginator):
    """Django's ``Paginator`` told its number of items (``count``: int) instead of counting."""

    def __init__(self, object_list, per_page, count):
        super().__init__(object_list, per_page)
        self.__dict__["count"] = count  # Paginator.count is a cached_property


def _timetable_choice(request, event, court, team):
    """What the timetable shows: ``(matches, params, context)``. A court's or a team's
    games; else one division (``?division=``), every game (``?show=all``, and by default
    up to ``SPLIT_ABOVE`` games) or, by default in a big event, the next ``COMING`` games
    without a result."""
    matches = reports.match_queryset(event)
    if court is not None:
        return matches.filter(court=court), {}, {}
    if team is not None:
        return matches.filter(Q(team_a=team) | Q(team_b=team)), {}, {}
    division_pk = _number(request, "division")
    division = event.divisions.filter(pk=division_pk).first() if division_pk else None
    if division is not None:
        return matches.filter(division=division), {"division": division.pk}, {"division": division}
    if request.GET.get("show") == "all" or _kept_count(event, "games", event.matches.all()) <= SPLIT_ABOVE:
        return matches, {"show": "all"}, {"show_all": True}
    coming = matches.not_done().order_by(F("start_at").asc(nulls_last=True), "match_number")
    return coming[:COMING], {}, {"coming": True, "coming_total": coming.count}


def timetable(request, slug, court=None, team=None):
    """The games, as cards. ``?team=<id>`` (the team selector, a QR code) leads to the team's
    own page; an unknown team or court is a 404."""
    event = event_for_public(request, slug)
    if court is None and team is None and request.GET.get("team"):
        chosen = get_object_or_404(Team, division__event=event, pk=_number(request, "team") or 0)
        return redirect("tournament:public_team", event.slug, chosen.pk)
    if team is not None:
        return _team_page(request, event, team)
    court_obj = get_object_or_404(Court, event=event, pk=court) if court is not None else None
    team_obj = None
    matches, params, extra = _timetable_choice(request, event, court_obj, team_obj)
    teams = (
        Team.objects.filter(division__event=event).select_related("division").order_by("division__order", "name_key")
    )
    context = {
        "event": event,
        "court": court_obj,
        "team": team_obj,
        "courts": event.courts.all(),
        "divisions": event.divisions.all(),
        "teams": teams,
        **extra,
    }
    context["lines"] = lambda: _with_slots(event, matches, team_obj)
    return live_page(request, "public/timetable.html", "public/includes/timetable_live.html", context, params)


def _team_page(request, event, pk):
    """The team's page as the family's page (issue 35, item 1): the next game with a banner when
    it is due or called, the group rank and what placed it, the stage path, the final place and
    the prizes, then the team's games; no players' names unless the event publishes them.
    ``pk``: the team's id; a team not of ``event`` is a 404.

    The fragment is keyed on what it shows (``reports.versions.team_version``), not on the
    whole event: a result in another group leaves it current (issue 31, item 3). The next game
    is kept beside it as a ``family.ComingGame`` and its minutes and call are made at each
    request (``team_next.html``): the clock is in the ETag only. A phone's refresh of a kept
    fragment reads the team's division, group and name from the event's kept parts
    (``versions.team_place``) and asks no query; the team's row is read only to render."""
    place = team_place(event, pk)
    if place is None:
        raise Http404("No such team in this tournament.")
    now = timezone.now()
    url = request.build_absolute_uri(request.path)
    with_group = Team.objects.select_related("division", "group")  # the page reads both
    team = functools.cache(lambda: get_object_or_404(with_group, division__event=event, pk=pk))
    matches = reports.match_queryset(event).filter(Q(team_a_id=pk) | Q(team_b_id=pk))
    games = functools.cache(lambda: list(matches))  # read once for the next game and the cards

    def day():
        found = family.team_day(event, team(), now, games())
        found.place = place_text(found.place) if found.place else ""
        found.certificates = team_prizes(event, team())
        found.share = share.team_text(event, team(), found, url)
        return found

    shown = hall.announcements_now(event, now)  # kept per data version

    def next_game(coming):  # the ComingGame kept beside the fragment, or None
        found = coming.at(now, shown, place.name) if coming is not None else None
        return render_to_string("public/includes/team_next.html", {"n": found}, request)

    context = {
        "event": event,
        "team": SimpleLazyObject(team),
        "day": day,
        "lines": lambda: _with_slots(event, games(), team()),
    }
    # The minute ("in 12 minutes") and the announcements shown now (a call names the team)
    # change the page without a write: they are in its ETag beside the version.
    clock = "|" + timezone.localtime(now).strftime("%H%M") + "|" + ",".join(str(a.pk) for a in shown)
    scope = team_version(event, place, finished=not open_games(event).get(place.division_id, 0))
    scope += team_page_stamp(event)  # the prizes the awards desk adds
    return live_page(
        request,
        "public/team.html",
        "public/includes/team_live.html",
        context,
        {},
        clock,
        scope,
        (lambda ready: ready["day"].coming, next_game),
    )


def results(request, slug):
    """The games with a result, newest number first, ``RESULTS_PER_PAGE`` to a page (``?page=``)."""
    event = event_for_public(request, slug)
    matches = reports.match_queryset(event).exclude(status=Match.Status.SCHEDULED).order_by("-match_number")
    paginator = _CountedPaginator(matches, RESULTS_PER_PAGE, _kept_count(event, "results", matches))
    page = paginator.get_page(_number(request, "page") or 1)
    context = {"event": event, "page": page, "lines": lambda: _with_slots(event, page.object_list)}
    return live_page(
        request, "public/results.html", "public/includes/results_live.html", context, {"page": page.number}
    )


def short_standings(groups, criteria, team_url="/"):
    """The short standings of a division's groups (``[(reports.RankedGroup, [StandingLine])]``)
    for a phone: per group, its rows as plain
    dicts (rank, team, wins and the deciding figure: the first of ``FIGURES`` among the
    division's ``criteria``, card difference when none; ``url``: ``team_url`` + the team's id
    + "/", its page). Returns ``(criterion code, [(GroupStandings, [row])])``."""
    code = next((c for c in criteria if c in FIGURES), "card_diff")
    return code, [(group, [_short_row(line, code, team_url) for line in lines]) for group, lines in groups]


def _short_row(line, code, team_url):
    classes = "withdrawn" if line.withdrawn else "provisional" if line.provisional else ""
    left = ""
    if not line.withdrawn and line.provisional and line.games_left:
        left = ngettext("%(counter)s left", "%(counter)s left", line.games_left) % {"counter": line.games_left}
    return {
        "key": line.team.pk,
        "classes": classes + (" annulled" if line.annulled else ""),
        "rank": line.rank_text,
        "url": f"{team_url}{line.team.pk}/",
        "name": line.team.name,
        "mark": str(line.mark) if line.withdrawn else "",
        "left": left,
        "wins": "—" if line.annulled else line.wins,
        "figure": "—" if line.annulled else _figure(line, code),
    }


def _figure(line, code):
    return f"{line.card_diff:+d}" if code == "card_diff" else str(line.cards_taken)


def standings(request, slug):
    """Per group: rank, team, wins and the deciding figure, ``GROUPS_PER_PAGE`` groups to a page
    (``?page=``) with links to every group's page; the full table and the 星取表 with
    ``?full=1`` (and ``?division=`` for one division); per division the comparison across
    groups that decides its best runners-up (``reports.best_places``), after its last group."""
    event = event_for_public(request, slug)
    division_pk = _number(request, "division")
    division = get_object_or_404(Division, event=event, pk=division_pk) if division_pk else None
    full = request.GET.get("full") == "1"
    number = None if full else _number(request, "page")

    team_url = reverse("tournament:public_team", args=[event.slug, 0]).removesuffix("0/")

    def divisions():
        """The full tables (with the 星取表) from ``event_standings``; the short ones of the
        page's groups from those groups' tables and lines only (no 星取表 or tied blocks)."""
        if full:
            found = [
                (d, groups, "", [], reports.best_places(d, [g.table for g in groups]))
                for d, groups in reports.event_standings(event, division)
            ]
            return {"divisions": found, "page": None, "jump": []}
        page, jump = _standings_page(event, division, number)
        found = []
        for d, groups, last in page.object_list:
            tables = reports.division_standings(d, groups=groups) if groups else []
            lines = [(t, reports.standing_lines(t)) for t in tables]
            code, rows = short_standings(lines, d.criteria, team_url)
            # The comparison across groups reads every group of the division: after its last one.
            best = reports.best_places(d) if last and d.best_runners_up else None
            found.append((d, [], CRITERION_LABELS[code], rows, best))
        return {"divisions": found, "page": page, "jump": jump}

    context = {"event": event, "division": division, "full": full, "standings": divisions}
    context["division_links"] = event.divisions.all()
    params = {"division": division.pk if division else None, "full": 1 if full else None, "page": number}
    return live_page(request, "public/standings.html", "public/includes/standings_live.html", context, params)


def _standings_page(event, division, number):
    """Page ``number`` (1 when None or past the end: the last) of the short standings of
    ``event`` (only ``division`` when given), ``GROUPS_PER_PAGE`` groups to a page, and the
    links to every group: ``(page, jump)``. ``page.object_list`` is ``[(Division, [Group], the
    division's last group is on the page)]`` in order, a division without groups taking a
    place of its own (it says "Not drawn yet."); ``jump`` is ``[(Division, [(Group, page
    number)])]`` for a standings of more than one page, else ``[]``."""
    chosen = [division] if division is not None else list(event.divisions.all())
    groups = Group.objects.filter(division__in=chosen)
    by_division = {d.pk: [] for d in chosen}
    for group in groups:
        by_division[group.division_id].append(group)
    items = [(d, g) for d in chosen for g in by_division[d.pk] or [None]]
    page = Paginator(items, GROUPS_PER_PAGE).get_page(number or 1)
    shown = []
    for d, on_page in itertools.groupby(page.object_list, key=lambda item: item[0]):
        here = [g for _d, g in on_page if g is not None]
        shown.append((d, here, not here or here[-1] == by_division[d.pk][-1]))
    page.object_list = shown
    jump = []
    if page.paginator.num_pages > 1:
        at = {g.pk: i // GROUPS_PER_PAGE + 1 for i, (_d, g) in enumerate(items) if g is not None}
        jump = [(d, [(g, at[g.pk]) for g in by_division[d.pk]]) for d in chosen if by_division[d.pk]]
    return page, jump


def bracket(request, slug):
    event = event_for_public(request, slug)
    return render(
        request,
        "public/bracket.html",
        {
            "event": event,
            "brackets": reports.division_brackets(event),
            "placements": division_placements(event),
            "champions": reports.single_champions(event),
        },
    )


def public_export(request, slug):
    """Final ranking, standings, games and timetable as Excel, for anyone: team names only, no
    personal data."""
    event = event_for_public(request, slug)
    data = exports.event_workbook(event, ("ranking", "standings", "games", "timetable"))
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-results.xlsx", XLSX)


def public_csv(request, slug, kind):
    """The games or the standings as CSV for anyone, beside the public workbook (team names
    only, no personal data: the same tables as its sheets)."""
    event = event_for_public(request, slug)
    if kind not in exports.CSV_KINDS:
        raise Http404
    return file_response(exports.event_csv(event, kind), f"{event.slug}-{event.date:%Y%m%d}-{kind}.csv", CSV)


def _site_host(request):
    """The host named in calendar UIDs: ``SITE_URL``'s, else the request's (without a port)."""
    return urlsplit(settings.SITE_URL).hostname or request.get_host().split(":")[0]


def event_calendar(request, slug):
    """Every planned game of the event as an ``.ics`` (``tournament.calendars``)."""
    event = event_for_public(request, slug)
    data = calendars.calendar_bytes(event, _site_host(request))
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}.ics", ICS)


def team_calendar(request, slug, team):
    """One team's planned games as an ``.ics``; its players only where the event publishes names."""
    event = event_for_public(request, slug)
    team_obj = get_object_or_404(Team, division__event=event, pk=team)
    data = calendars.calendar_bytes(event, _site_host(request), team=team_obj)
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-team{team_obj.pk}.ics", ICS)


NTH_PLACE = re.compile(r"^第(\d+)位$")


def place_text(name):
    """A place of the read side ("優勝", "準優勝", "第3位") in the active language: the same
    words in Japanese, "Champion", "Runner-up", "3rd place" in English (issue 17, item 5)."""
    if name == "優勝":
        return _("Champion")
    if name == "準優勝":
        return _("Runner-up")
    found = NTH_PLACE.match(name)
    if found:
        return nth_place(found.group(1))
    return name


def final_results(request, slug):
    """成績一覧 for everyone: places per division; players' names only when the event publishes them."""
    event = event_for_public(request, slug)
    if request.GET.get("format") == "pdf":
        data = printing.final_results(event, with_names=event.publish_names)
        return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-results.pdf", PDF, inline=True)
    url = request.build_absolute_uri(request.path)
    divisions = []
    for division, places in reports.final_places(event):
        shown = [(place_text(place), team, check) for place, team, check in places]
        divisions.append((division, shown, share.division_text(event, division, shown, url), f"share-{division.pk}"))
    return render(request, "public/final.html", {"event": event, "divisions": divisions, "names": event.publish_names})
