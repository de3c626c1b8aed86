"""The team page as the family's page (issue 35, item 1): what a parent needs from one page.

``team_day(event, team, now)`` shapes, from the read side: the team's next game (time, court,
opponent or slot, minutes until it, playing / late / called), its group rank with what placed
it there, its stage path (``tournament.stage_path``), its final place and how it was decided.
The certificates it won come from the awards desk and are added by the view (``tournament``
never reads ``awards`` below the views: docs/architecture.md).

No players' names unless the event publishes them (``Event.publish_names``): ``players`` is
empty otherwise. Nothing here writes.

What every team of a group or a division reads alike (the group's standings, the division's
stage paths and final places) is kept per data version and language
(``page_cache.kept_per_data_version``, never behind a committed write): after each result
every phone on a team page fetches that page again, one render per team (issue 31 item 3:
with half the phones of the day shape on their team's page the server saturated, 26 queries
a page, half of its time the ORM compiling them).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from common import page_cache
from tournament.models import Match
from tournament.reports.hall import announcements_now
from tournament.reports.ranking import division_rankings
from tournament.reports.standings import division_standings, standing_lines
from tournament.reports.timetable import division_game_slots, match_line, match_queryset, side_text
from tournament.stage_path import stage_paths

DUE_MINUTES = 10  # the banner shows this long before the game's start (and while it is late)
SOON_MINUTES = 180  # "in N minutes" is said up to this long before the start (not days ahead)


@dataclass(frozen=True)
class NextGame:
    """The team's next game: ``number``, ``start`` ("13:30" JST or ""), ``court`` (words or ""),
    ``stage`` (its stage and group in words), ``opponent`` (a team's name, else its slot's words,
    else "to be decided"), ``minutes`` until its start (negative once passed; None without a
    time), ``playing`` (開始 was pressed), ``called`` (an announcement shown now names the team:
    its text), ``due`` (the banner: called, late, or starting within ``DUE_MINUTES``)."""

    number: int
    start: str
    court: str
    stage: str
    opponent: str
    minutes: int | None
    playing: bool
    called: str
    due: bool

    @property
    def when_text(self):
        """「あと12分」 (up to ``SOON_MINUTES`` ahead, else ""), 「開始時刻を3分過ぎています」, 「対戦中」
        in the active language."""
        if self.playing:
            return _("playing now")
        if self.minutes is None:
            return ""
        if self.minutes > SOON_MINUTES:
            return ""
        if self.minutes >= 0:
            return ngettext("in %(count)s minute", "in %(count)s minutes", self.minutes) % {"count": self.minutes}
        late = -self.minutes
        return ngettext("%(count)s minute past its start time", "%(count)s minutes past its start time", late) % {
            "count": late
        }


@dataclass
class TeamDay:
    """What the family page shows: ``next`` (``NextGame`` or None: no game left) and
    ``coming`` (the same game before the clock: ``ComingGame``), ``rank``
    (the ``StandingLine`` of the team's group or None), ``group`` (the group), ``rank_text``
    (its explanation in a sentence), ``path`` (stage path lines), ``place`` (the final place's
    words or ""), ``place_how`` (how it was decided), ``players`` (names only where the event
    publishes them), ``certificates`` (prize words) and ``share`` (its 「LINEで送る文面」), both
    filled by the view."""

    team: object
    next: NextGame | None = None
    coming: ComingGame | None = None
    rank: object = None
    group: object = None
    rank_text: str = ""
    path: list = field(default_factory=list)
    place: str = ""
    place_how: str = ""
    to_confirm: bool = False
    players: list = field(default_factory=list)
    certificates: list = field(default_factory=list)
    share: str = ""


@dataclass(frozen=True)
class ComingGame:
    """The team's next game as the data has it, before the clock: ``number``, ``start_at``
    (aware or None), ``start`` ("13:30" JST or ""), ``court``, ``stage``, ``opponent`` (as
    ``NextGame``), ``playing`` (開始 was pressed) and ``scheduled`` (no result sent yet). The
    team page keeps it with its cached fragment and makes the ``NextGame`` at each request
    (``at``): the minutes and the calls change with the clock, not with the data (issue 31,
    item 3: the minute in the fragment's key made every team page render once a minute)."""

    number: int
    start_at: object
    start: str
    court: str
    stage: str
    opponent: str
    playing: bool
    scheduled: bool

    def at(self, now, announcements, team_name) -> NextGame:
        """The ``NextGame`` at ``now`` (aware) with ``announcements`` (those shown now:
        ``hall.announcements_now``); the first that names ``team_name`` is its call."""
        minutes = None
        if self.start_at is not None:
            minutes = int((self.start_at - now).total_seconds() // 60)
        called = next((a.text for a in announcements if team_name in a.text), "")
        due = bool(called) or (not self.playing and minutes is not None and minutes <= DUE_MINUTES)
        return NextGame(
            number=self.number,
            start=self.start,
            court=self.court,
            stage=self.stage,
            opponent=self.opponent,
            minutes=minutes,
            playing=self.playing,
            called=called,
            due=due and self.scheduled,
        )


def coming_game(event, team, games=None):
    """The ``ComingGame`` of ``team``: its first game, by start (a game with a time before one
    without) then number, still waiting for a result; None when none is left. ``games``: the
    team's games from ``match_queryset`` when the caller has them already (the team page shows
    them too), else they are read."""
    if games is None:
        games = match_queryset(event).filter(Q(team_a=team) | Q(team_b=team)).open()
    waiting = [m for m in games if m.status in Match.Status.OPEN]
    match = min(waiting, key=lambda m: (m.start_at is None, m.start_at, m.match_number), default=None)
    if match is None:
        return None
    slots = division_game_slots(match.division) if not match.is_group_match else {}
    line = match_line(match, slots)
    if match.team_a_id == team.pk:
        opponent = side_text(match.team_b, line.slot_b)
    else:
        opponent = side_text(match.team_a, line.slot_a)
    return ComingGame(
        number=match.match_number,
        start_at=match.start_at,
        start=timezone.localtime(match.start_at).strftime("%H:%M") if match.start_at else "",
        court=str(match.court) if match.court_id else "",
        stage=f"{line.division}{pgettext('separator', ', ')}{line.stage_and_group}",
        opponent=opponent,
        playing=match.actual_start is not None,
        scheduled=match.status == Match.Status.SCHEDULED,
    )


def _kept(name, compute):
    """``compute()`` kept per data version under ``name`` and the active language (its texts are
    translated)."""
    return page_cache.kept_per_data_version(f"family:{name}:{get_language()}", compute)


def group_rank(team):
    """(``StandingLine`` or None, a sentence): the team's row in its group and what placed it
    ("Group A, place 2 of 4: won 2, lost 1, card difference +5. Placed by: card difference." with
    the provisional mark while games are left; "no game played yet" before its first result).
    The group's rows are made once per data version for all its teams."""
    if team.group_id is None:
        return None, ""
    return _kept(f"group:{team.group_id}", lambda: _group_ranks(team.group)).get(team.pk, (None, ""))


def _group_ranks(group):
    """Team id -> ``group_rank`` of every team of ``group``."""
    table = next(iter(division_standings(group.division, groups=[group])), None)
    if table is None:
        return {}
    return {line.team.pk: _rank_sentence(table, line) for line in standing_lines(table)}


def _rank_sentence(table, line):
    if line.played == 0:
        return line, _("%(group)s: no game played yet.") % {"group": table.group}
    text = _("%(group)s, place %(rank)s of %(count)s: won %(wins)s, lost %(losses)s, card difference %(diff)+d.") % {
        "group": table.group,
        "rank": line.rank_text,
        "count": len(table.rows),
        "wins": line.wins,
        "losses": line.losses,
        "diff": line.card_diff,
    }
    if line.decided_by_text and line.decided_by != "provisional":  # the note says it
        text += " " + _("Placed by: %(how)s.") % {"how": line.decided_by_text}
    if line.note:
        text += " " + _("(%(note)s)") % {"note": line.note}
    return line, text


def final_place(event, team):
    """(place words, how it was decided, to confirm) of ``team`` from the final ranking, or
    ("", "", False) while it has none. The division's places are made once per data version
    for all its teams."""
    places = _kept(f"places:{team.division_id}", lambda: _final_places(event, team.division))
    return places.get(team.pk, ("", "", False))


def _final_places(event, division):
    """Team id -> ``final_place`` of every team placed in ``division`` (a team listed twice:
    its first place)."""
    found = {}
    for ranking in division_rankings(event, division):
        for line in ranking.lines:
            found.setdefault(line.team.pk, (line.place, line.how_text, line.to_confirm))
    return found


def stage_path(event, team):
    """The stage path lines of ``team`` (``tournament.stage_path.stage_paths``), the division's
    made once per data version for all its teams."""
    paths = _kept(f"paths:{team.division_id}", lambda: stage_paths(event, team.division))
    return paths.get(team.pk, [])


def team_day(event, team, now=None, games=None) -> TeamDay:
    """The ``TeamDay`` of ``team`` (a ``Team`` of ``event``) at ``now`` (aware; default the
    present moment). Reads the team's division only; ``games``: the team's games from
    ``match_queryset`` when the caller has them (``coming_game``)."""
    now = now or timezone.now()
    day = TeamDay(team)
    day.coming = coming_game(event, team, games)
    day.next = day.coming.at(now, announcements_now(event, now), team.name) if day.coming is not None else None
    day.rank, day.rank_text = group_rank(team)
    day.group = team.group
    day.path = stage_path(event, team)
    day.place, day.place_how, day.to_confirm = final_place(event, team)
    if event.publish_names:
        day.players = [p.name for p in team.players.order_by("order", "pk")]
    return day
