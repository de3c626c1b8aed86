"""The event's games in minutes, for the changes on the day: where a moved or new game can
go, and which teams a change would make play twice in a row (docs/rules/
scheduling-standings-seeding.md, §5).

Nothing here writes: ``tournament.services.day_changes`` plans with a ``Timeline``, raises
``BackToBack`` before any write when a change breaks a division's rest rule (or puts a
team in two places at once), and writes only when the organiser confirmed it.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.clock import event_clock, event_midnight
from tournament.engine.scheduling.day import TeamGame, earliest_free, too_close
from tournament.models import Match, Team
from tournament.reports.checks import team_where

# How far (slots of time) a game may go to keep the rest rule before it is placed without it.
REST_HORIZON = 40


class BackToBack(UserError):
    """A change would make teams play twice in a row in a division with the rest rule, or
    in two places at once. ``lines`` name each team (division and group) and its two games;
    the page shows them and asks before saving (``allow_back_to_back``); a script is refused."""

    def __init__(self, lines):
        self.lines = lines
        super().__init__(
            _("This change makes teams play two games in a row (rest rule) or at once: %(list)s.")
            % {"list": " / ".join(lines)}
        )


@dataclass
class _Game:
    """A game on the timeline: its court and slot, start minute, teams; ``key`` its pk (new
    games: a negative key)."""

    key: int
    number: int
    court: int | None
    slot: int | None
    start: int
    teams: tuple[int, ...]


class Timeline:
    """The timed games of an event (void games left out), in minutes from its midnight."""

    def __init__(self, event):
        self.event = event
        self.clock = event_clock(event)
        self.day = event_midnight(event)
        self.games: dict[int, _Game] = {}
        for m in event.matches.exclude(status=Match.Status.VOID).filter(start_at__isnull=False):
            self.games[m.pk] = _Game(
                m.pk, m.match_number, m.court_id, m.slot, self.minute(m.start_at), _teams(m.team_a_id, m.team_b_id)
            )
        self.teams = {t.pk: t for t in Team.objects.filter(division__event=event).select_related("division", "group")}
        # A void game's time is free, but its (court, slot) stays taken in the database (one game
        # per court and slot): a new or moved game never gets that number.
        self.void_slots = set(
            event.matches.filter(status=Match.Status.VOID, court__isnull=False, slot__isnull=False).values_list(
                "court_id", "slot"
            )
        )
        self._new = 0

    def minute(self, at):
        """Minutes from the event's midnight of a datetime."""
        return int((at - self.day).total_seconds() // 60)

    def at(self, minute):
        """The datetime of a minute of the event's day."""
        return self.day + datetime.timedelta(minutes=minute)

    def rest_needed(self, team_id):
        """The least wait (minutes) a team needs between games: a game's length under its
        division's rest rule, else 0 (never two games at once)."""
        team = self.teams.get(team_id)
        return self.clock.game_minutes if team is not None and team.division.rest_rule else 0

    def too_close(self):
        """``{(team, earlier key, later key)}``: the pairs of games teams now play too close."""
        length = self.clock.game_minutes
        games = [TeamGame(t, g.key, g.start, g.start + length) for g in self.games.values() for t in g.teams]
        return too_close(games, {t: self.rest_needed(t) for t in self.teams})

    def set(self, key, *, court=None, slot=None, start=None):
        """Move game ``key`` on the timeline (nothing is written)."""
        game = self.games[key]
        game.court = court if court is not None else game.court
        game.slot = slot if slot is not None else game.slot
        game.start = start if start is not None else game.start

    def add(self, number, teams, court, slot, start, key=None):
        """A game on the timeline (``key``: a game taken off with ``remove``; None: a new
        game, given a negative key); returns its key."""
        if key is None:
            self._new -= 1
            key = self._new
        self.games[key] = _Game(key, number, court, slot, start, _teams(*teams))
        return key

    def remove(self, key):
        """Take a game off the timeline while it is being placed again."""
        return self.games.pop(key)

    def place(self, teams, courts, earliest=0):
        """The earliest ``(court, slot, start minute)`` for a game of ``teams`` (ids).

        ``courts`` in order of preference (the group's or division's first); from minute
        ``earliest`` on, and never before a court opens. On each court the game takes the
        earliest time, exact in minutes, where it leaves a changeover before and after the
        court's games, stays out of the lunch break (``Clock.fit``) and each team keeps the
        rest it needs (``rest_needed``) from its other games; the earliest of all courts
        wins, a tie going to the court first in ``courts`` (so another court is used only
        when it is free earlier). When keeping the rest would start the game more than
        ``REST_HORIZON`` slots later than without it, only a changeover is kept:
        ``BackToBack`` is then the caller's to raise. The slot is the court's first number
        after its games before that time not yet taken. Always finds a place.
        Rule: docs/rules/scheduling-standings-seeding.md, §5.
        """
        court, start = self._earliest(teams, courts, earliest, self.rest_needed)
        plain_court, plain = self._earliest(teams, courts, earliest, lambda _team: 0)
        if start - plain > REST_HORIZON * self.clock.slot_minutes:
            court, start = plain_court, plain
        return court, self._free_slot(court.pk, start), start

    def _earliest(self, teams, courts, earliest, gap_of):
        """``(court, start)``: the earliest start over ``courts`` (the first court on a tie)."""
        length, change = self.clock.game_minutes, self.clock.changeover_minutes
        team_busy = [
            ([(g.start, g.start + length) for g in self.games.values() if t in g.teams], max(gap_of(t), change))
            for t in teams
            if t
        ]
        best = None
        for court in courts:
            court_busy = [(g.start, g.start + length) for g in self.games.values() if g.court == court.pk]
            start = earliest_free(
                max(earliest, self.clock.opening(court.pk)), length, court_busy, change, team_busy, self.clock.fit
            )
            if best is None or start < best[1]:
                best = (court, start)
        return best

    def _free_slot(self, court_id, start):
        """A slot number of the court not yet taken: the first after its games starting before
        ``start``."""
        mine = [g for g in self.games.values() if g.court == court_id and g.slot is not None]
        taken = {g.slot for g in mine} | {slot for court, slot in self.void_slots if court == court_id}
        slot = max((g.slot for g in mine if g.start <= start), default=-1) + 1
        while slot in taken:
            slot += 1
        return slot

    def describe(self, problems):
        """``BackToBack`` lines, one per pair: the team with its division and group, and the
        two games by number and time, in the order of the day."""
        lines = []
        length = self.clock.game_minutes
        for team_id, first, second in sorted(problems, key=lambda p: (self.games[p[1]].start, p[0])):
            a, b = self.games[first], self.games[second]
            team = self.teams[team_id]
            values = {
                "team": team.name,
                "where": team_where(team),
                "a": a.number,
                "a_at": _hhmm(a.start),
                "b": b.number,
                "b_at": _hhmm(b.start),
            }
            if b.start < a.start + length:
                lines.append(
                    _("%(team)s (%(where)s) plays game %(a)s (%(a_at)s) and game %(b)s (%(b_at)s) at once") % values
                )
            else:
                lines.append(
                    _("%(team)s (%(where)s): game %(a)s (%(a_at)s), then game %(b)s (%(b_at)s) in a row") % values
                )
        return lines


def check_rest(timeline, before, allow_back_to_back):
    """Raise ``BackToBack`` for the pairs of games that are too close now but were not in
    ``before`` (``Timeline.too_close`` before the change), unless ``allow_back_to_back``
    (the organiser confirmed). Returns the new pairs' lines (empty when none)."""
    new = timeline.too_close() - before
    lines = timeline.describe(new)
    if lines and not allow_back_to_back:
        raise BackToBack(lines)
    return lines


def _teams(*ids):
    return tuple(t for t in ids if t)


def _hhmm(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"
