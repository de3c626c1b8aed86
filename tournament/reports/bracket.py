"""The knockout of each division as every medium shows it: rounds, third-place games,
joint third, where each side's team comes from, and the final places.

Nothing here writes. The places follow ``docs/rules/podium.md``."""

from __future__ import annotations

from dataclasses import dataclass, field

from common.errors import UserError
from tournament.engine import podium
from tournament.models import Match
from tournament.reports.standings import division_standings, qualifiers
from tournament.reports.timetable import match_queryset

# The names of the final places on paper and on the final results page.
PLACES = {podium.FIRST: "優勝", podium.SECOND: "準優勝", podium.THIRD: "第3位"}


@dataclass
class DivisionBracket:
    """One division's knockout: ``rounds`` (lists of games, first round first; the last
    holds the final), ``third`` (third-place games), ``joint_third`` (Teams sharing third
    place when there is no third-place game) and ``sources`` (match pk -> (side A, side B)
    source labels, filled by ``division_brackets(..., with_sources=True)``)."""

    division: object
    rounds: list
    third: list
    joint_third: list
    sources: dict = field(default_factory=dict)

    @property
    def matches(self):
        """Every game of the bracket: the rounds in order, then the third-place games."""
        return [g for matches in self.rounds for g in matches] + self.third

    @property
    def final(self):
        return self.rounds[-1][0] if self.rounds and self.rounds[-1] else None

    def places(self):
        """The final places decided so far, best first: ``[(1 | 2 | 3, Team)]``."""
        teams = {t.pk: t for g in self.matches for t in (g.team_a, g.team_b) if t is not None}
        semifinals = [_outcome(g) for g in self.matches if g.stage == Match.Stage.SEMIFINAL]
        final = self.final
        places = podium.final_places(
            _outcome(final) if final is not None else None, [_outcome(g) for g in self.third], semifinals
        )
        return [(p.place, teams[p.team]) for p in places]


def _outcome(match):
    """The ``podium.Outcome`` of a knockout game with a result, else None."""
    if not match.has_result or match.winner_id is None:
        return None
    return podium.Outcome(winner=match.winner_id, loser=match.loser_id)


def seed_labels(division):
    """Team id -> "A1" (group name and place) for the division's qualifiers; ``{}`` when the
    groups cannot be seeded (unfinished or tied)."""
    tables = division_standings(division)
    try:
        going_through = qualifiers(division, tables)
    except UserError:
        return {}
    return {q.team: f"{tables[q.group].group.name}{q.place}" for q in going_through}


def _sources(matches, seeds):
    """Match pk -> (source of side A, source of side B): "W12" for the winner of game 12,
    "L12" for its loser, "A1" for a seeded team, None when unknown."""
    fed = {}
    for g in matches:
        if g.feeds_id:
            fed[(g.feeds_id, g.feeds_side)] = f"W{g.match_number}"
        if g.loser_feeds_id:
            fed[(g.loser_feeds_id, g.loser_feeds_side)] = f"L{g.match_number}"
    sources = {}
    for g in matches:
        sides = []
        for side, team_id in (("A", g.team_a_id), ("B", g.team_b_id)):
            sides.append(fed.get((g.pk, side)) or seeds.get(team_id))
        sources[g.pk] = tuple(sides)
    return sources


def division_brackets(event, division=None, with_sources=False):
    """``[DivisionBracket]`` for every division of ``event`` with knockout games (or only
    ``division``), games loaded by ``match_queryset``. With ``with_sources`` each side's
    source label is worked out too (the standings of the division are read for it)."""
    knockout = list(
        match_queryset(event).exclude(stage=Match.Stage.GROUP).order_by("round", "bracket_position", "match_number")
    )
    divisions = [division] if division is not None else list(event.divisions.all())
    brackets = []
    for d in divisions:
        matches = [g for g in knockout if g.division_id == d.pk]
        if not matches:
            continue
        third = [g for g in matches if g.stage == Match.Stage.THIRD_PLACE]
        rounds = {}
        for g in matches:
            if g.stage != Match.Stage.THIRD_PLACE:
                rounds.setdefault(g.round, []).append(g)
        semifinals = [_outcome(g) for g in matches if g.stage == Match.Stage.SEMIFINAL]
        teams = {t.pk: t for g in matches for t in (g.team_a, g.team_b) if t is not None}
        joint = [teams[pk] for pk in podium.joint_third([_outcome(g) for g in third], semifinals)]
        bracket = DivisionBracket(d, [rounds[r] for r in sorted(rounds)], third, joint)
        if with_sources:
            bracket.sources = _sources(matches, seed_labels(d))
        brackets.append(bracket)
    return brackets


def final_places(event):
    """Per division with a place decided: ``(Division, [(place name, Team)])``, best first
    ("優勝", "準優勝", "第3位"), as decided so far."""
    result = []
    for bracket in division_brackets(event):
        places = bracket.places()
        if places:
            result.append((bracket.division, [(PLACES[place], team) for place, team in places]))
    return result
