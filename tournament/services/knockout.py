"""Seeding the knockout of each division from its confirmed standings, and creating its games."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.services import refresh_slots
from ops import backups
from tournament.engine import bracket, seeding, slots
from tournament.models import Match
from tournament.reports import RunnerUpTie, division_standings, qualifiers
from tournament.reports.stages import is_frozen
from tournament.services.placement_games import plan_placement, require_complete, write_placement_games
from tournament.services.timeline import Timeline, division_courts

KNOCKOUT_STAGES = {
    1: Match.Stage.FINAL,
    2: Match.Stage.SEMIFINAL,
    4: Match.Stage.QUARTERFINAL,
    8: Match.Stage.ROUND_OF_16,
}


@dataclass
class SeedReport:
    """What seeding did: ``seeded`` [(Division, games created)] and ``not_seeded``
    [(Division, reason in the active language)]."""

    seeded: list = field(default_factory=list)
    not_seeded: list = field(default_factory=list)

    @property
    def created(self):
        return sum(count for _division, count in self.seeded)


def seed_divisions(event, *, division=None, reset=False):
    """Create the stage after the groups of each division that is ready, each at its own time.

    A division is ready when something follows its groups (``after_groups`` "knockout",
    "placement" or "both"), it has groups, no games after the groups yet (with ``reset``: none
    started or played, and those are deleted first), every group game confirmed, a court, and,
    for a knockout, no tie at a qualifying place and at least two qualifiers. Its qualifiers
    become slot references ("Aリーグ1位", the best runners-up), so later corrections reach the
    bracket (docs/rules/stages.md). Placement games ("placement", or below the knockout's
    places for "both": ``tournament.services.placement_games``) and the bracket's games are
    placed by one ``_Placer`` per division: each at the earliest free time on the division's
    open courts after the games that decide its slots, with the rest of the teams it may
    hold (docs/rules/scheduling-standings-seeding.md, §5, "The stage after the groups"). With ``division`` only that one is tried. Returns a
    ``SeedReport``; writes nothing (not even the automatic backup) when no division is ready.
    """
    divisions = [division] if division is not None else list(event.divisions.all())
    report, plans = SeedReport(), []
    for d in divisions:
        try:
            plans.append(_plan_division(d, reset))
        except UserError as refusal:
            report.not_seeded.append((d, refusal))
    if not plans:
        return report
    backups.auto_backup("seed-knockout")
    with transaction.atomic():
        for d, courts, rounds, references, placement in plans:
            Match.objects.filter(division=d).after_groups().delete()
            placer = _Placer(event, courts, d)  # the bracket and the placement games share it
            count = _create_bracket(event, d, placer, rounds, references)
            if placement:
                count += len(write_placement_games(event, d, placement, placer))
            report.seeded.append((d, count))
            refresh_slots(d)
    return report


def seed_knockout(event, *, division=None, reset=False):
    """Seed every ready division (or only ``division``): ``seed_divisions``. Returns the number of
    games created; raises ``UserError`` with each division's reason when none was seeded."""
    report = seed_divisions(event, division=division, reset=reset)
    if not report.seeded:
        if len(report.not_seeded) == 1:
            raise report.not_seeded[0][1]
        raise UserError(" ".join(str(reason) for _d, reason in report.not_seeded) or _("No division to seed."))
    return report.created


def _check_existing(d, reset):
    """``UserError`` when division ``d`` has games after its groups, unless ``reset`` and none
    has started or has a result."""
    existing = Match.objects.filter(division=d).after_groups()
    if existing.exists():
        if not reset:
            if d.after_groups == "placement":
                raise UserError(_("%(division)s already has its placement games.") % {"division": d.name})
            raise UserError(_("%(division)s already has a bracket.") % {"division": d.name})
        if any(is_frozen(m) for m in existing) and d.after_groups == "placement":
            raise UserError(
                _("%(division)s has placement game results; its placement games cannot be reset.")
                % {"division": d.name}
            )
        if any(is_frozen(m) for m in existing):
            raise UserError(_("%(division)s has knockout results; the bracket cannot be reset.") % {"division": d.name})


def _plan_division(d, reset):
    """(division, courts, rounds, team id -> reference, placement games) of a division ready to
    seed, else ``UserError`` naming the division and why."""
    if d.after_groups not in ("knockout", "both", "placement"):
        raise UserError(
            _("%(division)s plays nothing after its groups: its group standings are the result.") % {"division": d.name}
        )
    if not d.groups.exists():
        raise UserError(_("%(division)s has no groups yet.") % {"division": d.name})
    _check_existing(d, reset)
    tables = division_standings(d)
    if d.after_groups == "placement":
        require_complete(d, tables)
        games = plan_placement(d, tables, first_place=1)
        return d, division_courts(d), [], {}, games
    games = plan_placement(d, tables, d.qualifiers_per_group + 1, required=False) if d.after_groups == "both" else []
    try:
        going_through = qualifiers(d, tables)
    except RunnerUpTie as tie:
        raise RunnerUpTie(_("%(division)s: %(reason)s") % {"division": d.name, "reason": tie}, tie.teams) from None
    except UserError as refusal:
        raise UserError(_("%(division)s: %(reason)s") % {"division": d.name, "reason": refusal}) from None
    if len(going_through) < 2:
        raise UserError(
            _("%(division)s has a single qualifier: its group winner is the champion.") % {"division": d.name}
        )
    courts = division_courts(d)
    references, best_rank = {}, 0
    for q in going_through:
        if q.place <= d.qualifiers_per_group:
            references[q.team] = slots.group_place(tables[q.group].group.pk, q.place)
        else:
            best_rank += 1
            references[q.team] = slots.best(q.place, best_rank)
    lineup = seeding.seed_bracket(going_through)
    return d, courts, bracket.plan_bracket(lineup, third_place_game=d.third_place_game), references, games


class _Placer:
    """Gives each new game after the groups its court, slot and start on the event's timeline
    (``Timeline.add_stage``): the earliest time, exact in minutes, on one of ``courts`` (the
    division's open courts, first on a tie) that is after the end of every game that decides
    its slots (a group's games for a group place, every group's for a best-of place, the
    earlier game for a winner or loser), with the rest of each team it may hold (the
    division's rest rule: one game's length; else the changeover), with the court free
    around it and out of the lunch break (docs/rules/scheduling-standings-seeding.md, §5).
    One placer serves a division's bracket and its placement games, so they share the
    courts without clashing."""

    def __init__(self, event, courts, division):
        self.timeline = Timeline(event)
        self.courts = courts
        self.division = division
        self._keys = {}

    def place(self, match, references=None):
        """Place ``match`` (unsaved); ``references`` of its sides, default its sources."""
        references = references or (match.source_a, match.source_b)
        key, court, slot, start = self.timeline.add_stage(
            match.match_number, self.division.pk, references, (match.team_a_id, match.team_b_id), self.courts
        )
        match.court, match.slot, match.start_at = court, slot, self.timeline.at(start)
        self._keys[id(match)] = key

    def saved(self, match):
        """``match`` was saved: later games that take its winner or loser find it by its pk."""
        self.timeline.rekey(self._keys.pop(id(match)), match.pk)


def _create_bracket(event, division, placer, rounds, references):
    """Write the games of ``rounds`` (``bracket.plan_bracket``), placed by ``placer``
    (``_Placer``: each after the games that decide its slots): numbered after the event's
    last game, the third-place game numbered just before the final; each game linked to the
    game its winner (and, before a third-place game, its loser) goes on to. Returns the count."""
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
            sides = []
            for side, entrant in (("a", planned_match.a), ("b", planned_match.b)):
                if isinstance(entrant, int):
                    setattr(match, f"team_{side}_id", entrant)
                    setattr(match, f"source_{side}", references[entrant])
                    sides.append(references[entrant])
                else:
                    sides.append(slots.winner(previous[entrant.index].pk))
            placer.place(match, sides)
            matches.append(match)
        third = None
        if planned.third_place is not None:
            third = Match(event=event, division=division, stage=Match.Stage.THIRD_PLACE, round=r, match_number=0)
            placer.place(
                third, [slots.loser(previous[e.index].pk) for e in (planned.third_place.a, planned.third_place.b)]
            )
            # The third-place game is numbered before the final, as announced on the day.
            third.match_number, matches[0].match_number = matches[0].match_number, number
            number += 1
        for match in [*matches, third] if third is not None else matches:
            match.save()
            placer.saved(match)
            created += 1
        _link_feeders(planned, matches, previous, third)
        previous = matches
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
