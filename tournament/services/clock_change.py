"""A change of the day's clock after the schedule exists: the event's start time, game or
changeover minutes, or lunch break (issue 27; docs/rules/scheduling-standings-seeding.md, §5,
"A change of the clock").

``plan_clock_change`` says, writing nothing, which games the new clock touches and where they
go, as a delay does (``tournament.engine.scheduling.day.reflow``): the games that have not
started keep their order, each starts no earlier than it did, than its court opens, than the
game before it on the court ends plus the changeover and than its teams have rested, and out
of the lunch break; then every game after the groups keeps after the games
that decide its slots (``Timeline.restage``). The settings page shows the sentences and saves
only once the organiser confirms them; ``apply_clock_change`` writes the same moves in the
settings' transaction. Started and played games never move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.engine.scheduling.day import DayGame, reflow
from tournament.models import Match
from tournament.services.day_changes import _courts_of, write_restaged
from tournament.services.timeline import Timeline

CLOCK_SETTINGS = ("start_time", "game_minutes", "changeover_minutes", "lunch_start", "lunch_end")


@dataclass
class ClockChange:
    """What a new clock does to the schedule: ``moves`` ``(game pk, old start, new start, old
    court, new court)`` in minutes and court ids, ``lines`` the same in sentences (active
    language), ``rest`` the teams it makes play twice in a row or at once (sentences), and
    ``timeline`` the planned day (to write)."""

    moves: list = field(default_factory=list)
    lines: list = field(default_factory=list)
    rest: list = field(default_factory=list)
    timeline: Timeline | None = None


def clock_changed(old, new):
    """The names of the clock settings that differ between two versions of an event."""
    return [name for name in CLOCK_SETTINGS if getattr(old, name) != getattr(new, name)]


def plan_clock_change(old, new):
    """``ClockChange`` of saving ``new`` (the event with the typed values, not saved) over
    ``old`` (as saved), writing nothing; empty when no clock setting changes or no game is
    scheduled. In: two ``Event`` instances of one event. Rule: docs/rules/
    scheduling-standings-seeding.md, §5."""
    if not clock_changed(old, new) or not Match.objects.filter(event=old, start_at__isnull=False).exists():
        return ClockChange()
    timeline = Timeline(new)  # the games at their saved times, on the new clock
    before = Timeline(old).too_close()
    clock = timeline.clock
    old_start = {key: game.start for key, game in timeline.games.items()}
    old_court = {key: game.court for key, game in timeline.games.items()}
    games = [DayGame(g.key, g.court or 0, g.start, g.teams, g.frozen) for g in timeline.games.values()]
    for key, start in reflow(games, clock, timeline.team_gap, old.game_minutes).items():
        timeline.set(key, start=start)
    timeline.restage(_courts_of(new, timeline))
    change = ClockChange(timeline=timeline)
    names = {m.pk: m for m in Match.objects.filter(event=old).select_related("court")}
    courts = {c.pk: c for c in old.courts.all()}
    for key in sorted(timeline.games, key=lambda k: (old_start[k], timeline.games[k].number)):
        game = timeline.games[key]
        if game.start == old_start[key] and game.court == old_court[key]:
            continue
        change.moves.append((key, old_start[key], game.start, old_court[key], game.court))
        change.lines.append(_move_line(names[key], old_start[key], game, courts, clock, old))
    change.rest = timeline.describe(timeline.too_close() - before)
    return change


def _move_line(match, old, game, courts, clock, event):
    """「第12試合（第1コート 11:50）は昼休み（12:00–12:45）に入るため、12:45に移ります」 and the like."""
    values = {
        "game": match.match_number,
        "court": courts.get(match.court_id, "—"),
        "at": _hhmm(old),
        "new": _hhmm(game.start),
        "new_court": courts.get(game.court, "—"),
    }
    if clock.lunch is not None and clock.fit(max(old, 0)) != old:
        values["from"], values["to"] = _hhmm(clock.lunch[0]), _hhmm(clock.lunch[1])
        return (
            _("Game %(game)s (%(court)s, %(at)s) would be in the lunch break (%(from)s–%(to)s): it moves to %(new)s.")
            % values
        )
    if old < clock.opening(match.court_id or 0):
        return _("Game %(game)s (%(court)s, %(at)s) would start before the court opens: it moves to %(new)s.") % values
    if match.stage != Match.Stage.GROUP:
        return (
            _(
                "Game %(game)s (%(court)s, %(at)s) would start before the games that decide its teams end: it moves "
                "to %(new_court)s, %(new)s."
            )
            % values
        )
    return _("Game %(game)s (%(court)s, %(at)s) follows the game before it on the court: it moves to %(new)s.") % values


def apply_clock_change(old, event):
    """Write the moves of ``plan_clock_change(old, event)`` (call inside the settings' save
    transaction, with ``event`` saved): each moved game's court, slot and start, its
    ``changed_at`` now (its sheet is listed as moved since printed). Returns the moved games
    (``Match``), in game order."""
    change = plan_clock_change(old, event)
    if not change.moves:
        return []
    timeline, now = change.timeline, timezone.now()
    return write_restaged(timeline, [key for key, *_rest in change.moves], now)


def _hhmm(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"
