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
from tournament.engine.scheduling import stage_clock
from tournament.engine.scheduling.day import TeamGame, free_at, too_close
from tournament.models import Team
from tournament.reports.checks import team_where
from tournament.reports.stage_times import stage_inputs
from tournament.reports.stages import is_frozen

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
    frozen: bool = False  # started or played: it never moves


def division_courts(d):
    """The open courts of division ``d`` for its games after the groups: its own, else its
    groups'; a closed court is left out, and when every one of them is closed the event's
    open courts are used. ``UserError`` naming the division when it has no court, or when
    its courts are closed and no court of the event is open (docs/rules/
    scheduling-standings-seeding.md, §5: no game is placed on a closed court)."""
    courts = list(d.courts.all()) or [g.court for g in d.groups.select_related("court") if g.court]
    if not courts:
        raise UserError(_("%(division)s has no court.") % {"division": d.name})
    courts = list(dict.fromkeys(c for c in courts if not c.closed)) or list(
        d.event.courts.filter(closed=False).order_by("order", "pk")
    )
    if not courts:
        raise UserError(_("%(division)s: every court is closed.") % {"division": d.name})
    return courts


class Timeline:
    """The timed games of an event (void games left out), in minutes from its midnight."""

    def __init__(self, event):
        self.event = event
        self.clock = event_clock(event)
        self.day = event_midnight(event)
        self.games: dict[int, _Game] = {}
        matches = list(event.matches.not_void())
        for m in matches:
            if m.start_at is not None:
                teams = _teams(m.team_a_id, m.team_b_id)
                start = self.minute(m.start_at)
                self.games[m.pk] = _Game(m.pk, m.match_number, m.court_id, m.slot, start, teams, is_frozen(m))
        # What decides each game after the groups (issue 29): the read side's inputs.
        self.stage = stage_inputs(event, matches)
        self.closed = set(event.courts.filter(closed=True).values_list("pk", flat=True))
        self.teams = {t.pk: t for t in Team.objects.filter(division__event=event).select_related("division", "group")}
        # A void game's time is free, but its (court, slot) stays taken in the database (one game
        # per court and slot): a new or moved game never gets that number.
        self.void_slots = set(
            event.matches.void().filter(court__isnull=False, slot__isnull=False).values_list("court_id", "slot")
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

    def place(self, teams, courts, earliest=0, floors=None):
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
        after its games before that time not yet taken. ``floors``: per court id the first
        minute a new game may take there (after its games under way). Always finds a place.
        Rule: docs/rules/scheduling-standings-seeding.md, §5.
        """
        floors = floors or {}
        court, start = self._earliest(teams, courts, earliest, self.rest_needed, floors)
        plain_court, plain = self._earliest(teams, courts, earliest, lambda _team: 0, floors)
        if start - plain > REST_HORIZON * self.clock.slot_minutes:
            court, start = plain_court, plain
        return court, self._free_slot(court.pk, start), start

    def _earliest(self, teams, courts, earliest, gap_of, floors=None):
        """``(court, start)``: the earliest start over ``courts`` (the first court on a tie;
        ``stage_clock.earliest_court``)."""
        length, change = self.clock.game_minutes, self.clock.changeover_minutes
        team_busy = [
            ([(g.start, g.start + length) for g in self.games.values() if t in g.teams], max(gap_of(t), change))
            for t in teams
            if t
        ]
        candidates = [
            stage_clock.Court(
                c.pk,
                max(self.clock.opening(c.pk), (floors or {}).get(c.pk, 0)),
                [(g.start, g.start + length) for g in self.games.values() if g.court == c.pk],
            )
            for c in courts
        ]
        key, start = stage_clock.earliest_court(candidates, earliest, length, change, team_busy, self.clock.fit)
        return next(c for c in courts if c.pk == key), start

    # --- the stage after the groups (issue 29) ---------------------------------------------

    def team_gap(self, team_id):
        """The least wait (minutes) of a team between two games: its rest, at least a changeover."""
        return max(self.rest_needed(team_id), self.clock.changeover_minutes)

    def earliest(self, key, floor=0):
        """``stage_clock.Earliest`` of game ``key`` (a game after the groups on the timeline, or
        a game being placed, ``add_stage``): after every game that decides its slots, with the
        rest of each team it may hold (docs/rules/scheduling-standings-seeding.md, §5)."""
        length = self.clock.game_minutes
        timed = {
            k: stage_clock.Timed(g.start, g.start + length, self.stage.holds.get(k, frozenset(g.teams)))
            for k, g in self.games.items()
            if k != key
        }
        division = self.stage.division[key]
        return stage_clock.earliest_start(
            self.stage.references[key],
            self.stage.holds[key],
            self.stage.groups[division],
            timed,
            self.team_gap,
            floor,
            self.clock.changeover_minutes,
        )

    def add_stage(self, number, division_id, references, teams, courts, floor=0):
        """Place a new game after the groups (``references`` and ``teams`` of its two sides) on
        the earliest free ``courts`` after its sources (``earliest``); returns ``(key, court,
        slot, start)``, ``key`` a new negative key (``rekey`` it once saved)."""
        self._new -= 1
        key = self._new
        self.stage.add(key, division_id, references, teams)
        court, slot, start = self.place(_teams(*teams), courts, max(self.earliest(key).minute, floor))
        self.games[key] = _Game(key, number, court.pk, slot, start, _teams(*teams))
        return key, court, slot, start

    def rekey(self, old, new):
        """Game ``old`` (a new game's key) saved as pk ``new``."""
        game = self.games.pop(old)
        game.key = new
        self.games[new] = game
        self.stage.rekey(old, new)

    def keeps(self, key):
        """Whether game ``key`` may stay where it is: on an open court, after its sources
        (``earliest``), out of the lunch break, its court and its teams free around it."""
        game = self.games[key]
        length, change = self.clock.game_minutes, self.clock.changeover_minutes
        if game.court in self.closed or game.start < self.earliest(key).minute:
            return False
        if self.clock.fit(max(game.start, 0)) != game.start or game.start < self.clock.opening(game.court):
            return False
        others = [g for g in self.games.values() if g.key != key]
        court_busy = [(g.start, g.start + length) for g in others if g.court == game.court]
        if not free_at(game.start, length, court_busy, change):
            return False
        return all(
            free_at(game.start, length, [(g.start, g.start + length) for g in others if t in g.teams], self.team_gap(t))
            for t in game.teams
        )

    def restage(self, courts_of):
        """Move every game after the groups that has not started and can no longer keep its
        time (``keeps``: a source now ends later, its court closed, lunch, a clash) to the
        earliest free court of its division (``courts_of(division id)``: its open courts,
        its own court first) after its sources, in the order of the bracket (a final after
        its semifinals). Nothing is written; returns the keys moved."""
        moved = []
        for key in self.stage.order():
            game = self.games.get(key)
            if game is None or game.frozen or self.keeps(key):
                continue
            courts = courts_of(self.stage.division[key])
            ordered = [c for c in courts if c.pk == game.court] + [c for c in courts if c.pk != game.court]
            at_least = self.earliest(key).minute
            self.remove(key)
            court, slot, start = self.place(game.teams, ordered, at_least)
            game.court, game.slot, game.start = court.pk, slot, start
            self.games[key] = game
            moved.append(key)
        return moved

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
