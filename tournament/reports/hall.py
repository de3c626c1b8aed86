"""What the hall screens show beyond the standings (issue 17, item 2; docs/hall-screens.md):
each court's game now and next with the late flag, the newest confirmed results (the
ticker), the announcements shown now, and the version a screen compares to know that it
must fetch its page again.

Nothing here writes. ``now`` is an aware datetime everywhere.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.db.models import F, Max, Q, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext as _

from common import page_cache
from tournament.models import Announcement, Match
from tournament.reports.timetable import MatchLine, event_slots, match_line, match_queryset

TICKER_SIZE = 8
DEFAULT_PAGE_SECONDS = 12  # seconds a page of a hall screen is shown
MAX_PAGE_SECONDS = 600


@dataclass(frozen=True)
class CourtNow:
    """One court on the overview: ``current`` is its first game still waiting for a result
    (playing, or due), ``following`` the one after (``MatchLine`` or None); ``late_minutes``
    is how long the current game's start time has passed while it has neither started nor a
    result (None: not late); ``recording`` the games whose result the referee saved and that
    wait for the recorder (as the court's page says: no longer played)."""

    court: object
    current: MatchLine | None
    following: MatchLine | None
    late_minutes: int | None
    recording: tuple = ()

    @property
    def late(self):
        return self.late_minutes is not None

    @property
    def playing(self):
        return self.current is not None and self.current.match.actual_start is not None


def late_minutes(line, now):
    """Whole minutes since ``line``'s start time (a ``MatchLine``) when the game is late at
    ``now``: its start time has passed, nobody pressed 開始 and no result was entered; else
    None (docs/hall-screens.md, "Late")."""
    match = line.match
    if line.start is None or match.actual_start is not None or match.status != Match.Status.SCHEDULED:
        return None
    if line.start >= now:
        return None
    return int((now - line.start).total_seconds() // 60)


def courts_overview(event, now):
    """``[CourtNow]`` for every court of ``event`` that has games, in court order, at ``now``.

    Reads only the games it shows, each court's first two waiting for a result (a window
    over the open games) and those waiting for the recorder (issue 31, item 3: the hall
    screens' fragment loaded and shaped all 500 games of a prefectural event for the 100 it
    shows). A fixed number of queries."""
    with_games = set(event.matches.values_list("court_id", flat=True).distinct())
    # A saved result waiting for the recorder is no longer played (the court's page says
    # "Waiting for the recorder"): the game now is the first one without a result.
    order = ("slot", "match_number")
    first_two = (
        event.matches.open()
        .exclude(status=Match.Status.SUBMITTED)
        .annotate(place=Window(RowNumber(), partition_by=[F("court_id")], order_by=[F(f) for f in order]))
        .filter(place__lte=2)
        .values("pk")
    )
    recording_now = event.matches.filter(status=Match.Status.SUBMITTED).values("pk")
    shown = {}
    for match in match_queryset(event).filter(Q(pk__in=first_two) | Q(pk__in=recording_now)).order_by(*order):
        recording, waiting = shown.setdefault(match.court_id, ([], []))
        (recording if match.status == Match.Status.SUBMITTED else waiting).append(match)
    needed = [m for recording, waiting in shown.values() for m in (*recording, *waiting)]
    slots = event_slots(event) if any(not m.is_group_match for m in needed) else {}
    found = []
    for court in event.courts.all():
        if court.pk not in with_games:
            continue
        recording, waiting = shown.get(court.pk, ([], []))
        waiting = [match_line(m, slots) for m in waiting]
        current = waiting[0] if waiting else None
        following = waiting[1] if len(waiting) > 1 else None
        late = late_minutes(current, now) if current else None
        found.append(CourtNow(court, current, following, late, tuple(match_line(m, slots) for m in recording)))
    return found


def recent_results(event, size=TICKER_SIZE):
    """``[MatchLine]`` of the ``size`` newest confirmed results (by the moment they were
    confirmed, newest first): the ticker of the hall screens."""
    matches = (
        match_queryset(event)
        .played()
        .annotate(done=Max("sheets__confirmed_at"))
        .order_by(F("done").desc(nulls_last=True), "-match_number")[:size]
    )
    slots = event_slots(event) if any(not m.is_group_match for m in matches) else {}
    return [match_line(m, slots) for m in matches]


ANNOUNCEMENTS_KEY = "announcements:{pk}"


def announcements_now(event, now):
    """The announcements of ``event`` shown at ``now`` (aware datetime), newest first:
    ``[Announcement]`` with ``shown_from <= now < shown_until``.

    Every hall screen's poll asks for them (``hall_version``), so the event's announcements
    are read once per data version and kept in the shared cache
    (``page_cache.kept_per_data_version``: never behind a committed write); which of them
    are shown at ``now`` is decided here, so one that starts or ends shows at its minute."""
    kept = page_cache.kept_per_data_version(
        ANNOUNCEMENTS_KEY.format(pk=event.pk), lambda: list(Announcement.objects.filter(event=event))
    )
    return [a for a in kept if a.shown_from <= now < a.shown_until]


def hall_version(event, now, event_version, shown=None):
    """A short text (16 hex digits) that changes whenever what a hall screen shows may have
    changed: the event's version (``event_version``, from ``reports.api.event_version``: every
    result, game, history line, kept game, lot and team edit), the announcements shown at
    ``now`` (``shown``: ``announcements_now(event, now)`` when the caller has them already),
    whether the event publishes players' names (the podium shows them then) and the minute of
    ``now`` (so late flags and ended announcements appear within a minute). A screen embeds it
    when its page is rendered and fetches the page again as soon as the polled version differs
    (docs/hall-screens.md, "Within 10 seconds"). One query (the announcements) besides the
    event's version, which the shared cache keeps (issue 31, item 3: seven aggregates per
    screen poll)."""
    shown = announcements_now(event, now) if shown is None else shown
    key = repr(
        (
            event_version,
            [(a.pk, a.shown_until.isoformat()) for a in shown],
            event.publish_names,
            now.strftime("%Y%m%d%H%M"),
        )
    )
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def screen_choices(event):
    """``[(code, label)]`` of every screen a rotation may show: the overview, each division,
    each division's podium, each court (the organiser's page lists them; codes as in
    ``?screens=``)."""
    divisions = list(event.divisions.all())
    return [
        ("courts", _("All courts")),
        *((f"division:{d.pk}", d.name) for d in divisions),
        *((f"podium:{d.pk}", _("%(division)s: podium") % {"division": d.name}) for d in divisions),
        *((f"court:{c.pk}", str(c)) for c in event.courts.all()),
    ]
