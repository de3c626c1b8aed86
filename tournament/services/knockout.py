"""Seeding the knockout of each division from its confirmed standings, and creating its games."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from common.errors import UserError
from ops import backups
from tournament.clock import event_clock, event_midnight
from tournament.engine import bracket, seeding
from tournament.models import Match
from tournament.reports import division_standings, qualifiers

KNOCKOUT_STAGES = {
    1: Match.Stage.FINAL,
    2: Match.Stage.SEMIFINAL,
    4: Match.Stage.QUARTERFINAL,
    8: Match.Stage.ROUND_OF_16,
}


def seed_knockout(event, *, division=None, reset=False):
    """Seed each division's qualifiers into a bracket and create the knockout games.

    Needs every group game of the division to have a result and no unresolved tie at
    a qualifying place. Byes go to the top seeds (no game is created for a bye; the team
    goes straight to the next round). A third-place game is added when the division asks
    for it. With ``reset``, knockout games without results are deleted first; games with
    results are never deleted. Returns the number of games created.

    Raises ``UserError`` (naming the division) before anything is written, the automatic
    backup included, when a division cannot be seeded.
    """
    divisions = [division] if division else list(event.divisions.all())
    plans = []
    for d in divisions:
        if not d.groups.exists():
            continue
        existing = Match.objects.filter(division=d).exclude(stage=Match.Stage.GROUP)
        if existing.exists():
            if not reset:
                raise UserError(_("%(division)s already has a bracket.") % {"division": d.name})
            if existing.exclude(status=Match.Status.SCHEDULED).exists():
                raise UserError(
                    _("%(division)s has knockout results; the bracket cannot be reset.") % {"division": d.name}
                )
        going_through = qualifiers(d, division_standings(d))
        if len(going_through) < 2:
            raise UserError(
                _("%(division)s has a single qualifier: its group winner is the champion.") % {"division": d.name}
            )
        courts = list(d.courts.all()) or [g.court for g in d.groups.select_related("court") if g.court]
        if not courts:
            raise UserError(_("%(division)s has no court.") % {"division": d.name})
        lineup = seeding.seed_bracket(going_through)
        plans.append((d, courts, bracket.plan_bracket(lineup, third_place_game=d.third_place_game)))
    backups.auto_backup("seed-knockout")
    created = 0
    with transaction.atomic():
        for d, courts, rounds in plans:
            Match.objects.filter(division=d).exclude(stage=Match.Stage.GROUP).delete()
            created += _create_bracket(event, d, courts, rounds)
    return created


class _Placer:
    """Gives each new knockout game the first free (court, slot) from the slot after the
    courts' last game on, trying the division's courts in order, and its start time.

    The start is the slot's time on the clock, or later: after the court's last game ends
    (its start may have moved with a delay) and after the previous round's games end, plus
    the changeover; a game that would fall into the lunch break starts when lunch ends
    (``Clock.fit``; docs/rules/scheduling-standings-seeding.md, §5)."""

    def __init__(self, event, courts):
        self.courts = courts
        last_slot = Match.objects.filter(court__in=courts).aggregate(m=Max("slot"))["m"]
        self.slot = 0 if last_slot is None else last_slot + 1
        self.taken = set(Match.objects.filter(court__in=courts).values_list("court_id", "slot"))
        self.clock = event_clock(event)
        self.day = event_midnight(event)
        self.free_from = {}  # court id -> the first minute after its last game and changeover
        for court_id, start in Match.objects.filter(court__in=courts, start_at__isnull=False).values_list(
            "court_id", "start_at"
        ):
            end = self._minute(start) + self.clock.slot_minutes
            self.free_from[court_id] = max(self.free_from.get(court_id, 0), end)
        self.round_floor = 0  # the first minute after the previous round's games
        self.round_end = 0

    def _minute(self, at):
        return int((at - self.day).total_seconds() // 60)

    def place(self, match):
        while True:
            for court in self.courts:
                if (court.pk, self.slot) not in self.taken:
                    self.taken.add((court.pk, self.slot))
                    match.court, match.slot = court, self.slot
                    start = max(
                        self.clock.start_of(self.slot, court.pk), self.free_from.get(court.pk, 0), self.round_floor
                    )
                    start = self.clock.fit(start)
                    self.free_from[court.pk] = start + self.clock.slot_minutes
                    self.round_end = max(self.round_end, start + self.clock.slot_minutes)
                    match.start_at = self.day + datetime.timedelta(minutes=start)
                    return
            self.slot += 1

    def next_round(self):
        self.slot += 1
        self.round_floor = max(self.round_floor, self.round_end)


def _create_bracket(event, division, courts, rounds):
    """Write the games of ``rounds`` (``bracket.plan_bracket``): numbered after the event's
    last game, the third-place game numbered just before the final; each game linked to the
    game its winner (and, before a third-place game, its loser) goes on to. Returns the count."""
    placer = _Placer(event, courts)
    number = (event.matches.aggregate(m=Max("match_number"))["m"] or 0) + 1
    created = 0
    previous = []
    for r, planned in enumerate(rounds):
        stage = KNOCKOUT_STAGES.get(planned.size, Match.Stage.KNOCKOUT)
        matches = []
        for planned_match in planned.matches:
            match = Match(
                event=event, division=division, stage=stage, round=r, bracket_position=planned_match.position,
                match_number=number,
            )  # fmt: skip
            number += 1
            for side, entrant in (("a", planned_match.a), ("b", planned_match.b)):
                if isinstance(entrant, int):
                    setattr(match, f"team_{side}_id", entrant)
            placer.place(match)
            matches.append(match)
        third = None
        if planned.third_place is not None:
            third = Match(event=event, division=division, stage=Match.Stage.THIRD_PLACE, round=r, match_number=0)
            placer.place(third)
            # The third-place game is numbered before the final, as announced on the day.
            third.match_number, matches[0].match_number = matches[0].match_number, number
            number += 1
        for match in [*matches, third] if third is not None else matches:
            match.save()
            created += 1
        _link_feeders(planned, matches, previous, third)
        previous = matches
        placer.next_round()
    return created


def _link_feeders(planned, matches, previous, third):
    """Point each game of the previous round at the game of this round its winner plays in
    (and its loser, when there is a third-place game)."""
    for planned_match, match in zip(planned.matches, matches, strict=True):
        for side, entrant in (("A", planned_match.a), ("B", planned_match.b)):
            if isinstance(entrant, bracket.Feeder):
                feeder = previous[entrant.index]
                feeder.feeds, feeder.feeds_side = match, side
                feeder.save(update_fields=["feeds", "feeds_side"])
                if third is not None:
                    feeder.loser_feeds, feeder.loser_feeds_side = third, side
                    feeder.save(update_fields=["loser_feeds", "loser_feeds_side"])
