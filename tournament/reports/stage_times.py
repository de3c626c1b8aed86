"""When each game after the groups may start, from the games that decide its slots (issue 29).

Nothing here writes. ``stage_inputs`` reads, from an event's games, what the clock after the
groups needs (``tournament.engine.scheduling.stage_clock``): per division its groups' games
and teams, per game after the groups the references of its sides and the teams it holds or
may hold. The schedule check (``stage_problems``) and the services that place or move games
(``tournament.services.timeline.Timeline``) read the same inputs, so they agree. Rule:
docs/rules/scheduling-standings-seeding.md, §5, "The stage after the groups".
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournament.clock import event_midnight
from tournament.engine.scheduling import stage_clock
from tournament.models import Match, Team
from tournament.reports.stages import _references


@dataclass
class StageInputs:
    """``groups``: division id -> ``stage_clock.Groups``; ``references``: game pk -> its sides'
    references (games after the groups only); ``division``: game pk -> division id (every
    game); ``holds``: game pk -> the teams it holds or may hold (every game)."""

    groups: dict
    references: dict
    division: dict
    holds: dict

    def order(self):
        """The games after the groups, each after the games whose winner or loser it takes."""
        return stage_clock.dependency_order(self.references)

    def add(self, key, division_id, references, teams):
        """A game being placed (``key``: its key on the caller's timeline): its references and
        the teams it holds (ids); returns the teams it holds or may hold."""
        self.references[key] = tuple(references)
        self.division[key] = division_id
        self.holds[key] = _holds(references, teams, self.groups[division_id], self.holds)
        return self.holds[key]

    def rekey(self, old, new):
        """A placed game saved under its pk ``new``: references to ``old`` follow."""
        for mapping in (self.references, self.division, self.holds):
            if old in mapping:
                mapping[new] = mapping.pop(old)


def _holds(references, teams, groups, holds):
    """A side with a team holds it; a side without one may hold every team of its reference."""
    found = set()
    for reference, team in zip(references, teams, strict=True):
        if team:
            found.add(team)
        elif reference:
            found |= stage_clock.may_hold(reference, groups, holds)
    return frozenset(found)


def stage_inputs(event, matches=None):
    """``StageInputs`` of ``event`` from its games that are not void (``matches``: those games
    already read, to save a query)."""
    if matches is None:
        matches = list(event.matches.not_void())
    games, teams = defaultdict(dict), defaultdict(dict)  # division id -> group id -> keys / team ids
    members = defaultdict(set)
    for team_id, group_id, division_id in Team.objects.filter(division__event=event, group__isnull=False).values_list(
        "pk", "group_id", "division_id"
    ):
        members[group_id].add(team_id)
        games[division_id].setdefault(group_id, [])
    for m in matches:
        if m.stage == Match.Stage.GROUP and m.group_id:
            games[m.division_id].setdefault(m.group_id, []).append(m.pk)
    for division_id, by_group in games.items():
        for group_id in by_group:
            teams[division_id][group_id] = frozenset(members[group_id])
    divisions = set(event.divisions.values_list("pk", flat=True)) | {m.division_id for m in matches}
    groups = {
        d: stage_clock.Groups({g: tuple(keys) for g, keys in games[d].items()}, dict(teams[d])) for d in divisions
    }
    inputs = StageInputs(groups, {}, {}, {})
    by_division = defaultdict(list)
    for m in matches:
        by_division[m.division_id].append(m)
    references = {}
    for division_matches in by_division.values():
        references.update(_references(division_matches))
    sides = {}
    for m in matches:
        inputs.division[m.pk] = m.division_id
        if m.stage == Match.Stage.GROUP:
            inputs.holds[m.pk] = frozenset(t for t in (m.team_a_id, m.team_b_id) if t)
        else:
            inputs.references[m.pk] = references[m.pk]
            sides[m.pk] = (m.team_a_id, m.team_b_id)
    for key in inputs.order():
        inputs.holds[key] = _holds(inputs.references[key], sides[key], groups[inputs.division[key]], inputs.holds)
    return inputs


def stage_problems(event, matches=None):
    """The schedule check of the games after the groups: a game timed before a game that
    decides one of its slots has ended (plus the rest of a team it may hold, in a division
    with the rest rule). One sentence each, in game order, naming both games and the time
    it needs. Rule: docs/rules/scheduling-standings-seeding.md, §5."""
    if matches is None:
        matches = list(event.matches.not_void().select_related("division"))
    inputs = stage_inputs(event, matches)
    if not inputs.references:
        return []
    day, length = event_midnight(event), event.game_minutes
    by_pk = {m.pk: m for m in matches}
    start = {m.pk: int((m.start_at - day).total_seconds() // 60) for m in matches if m.start_at}
    timed = {k: stage_clock.Timed(s, s + length, inputs.holds.get(k, frozenset())) for k, s in start.items()}
    rest_teams = set(Team.objects.filter(division__event=event, division__rest_rule=True).values_list("pk", flat=True))
    lines = []
    for key in sorted(inputs.references, key=lambda k: by_pk[k].match_number):
        if key not in start:
            continue
        others = {k: t for k, t in timed.items() if k != key}
        found = stage_clock.earliest_start(
            inputs.references[key],
            inputs.holds[key],
            inputs.groups[inputs.division[key]],
            others,
            lambda team: length if team in rest_teams else 0,
        )
        if start[key] < found.minute:
            values = {
                "game": by_pk[key].match_number,
                "at": _clock(start[key]),
                "source": by_pk[found.source].match_number,
                "end": _clock(timed[found.source].end),
                "need": _clock(found.minute),
            }
            lines.append(
                _(
                    "Game %(game)s starts at %(at)s, but game %(source)s, which decides one of its teams, ends at "
                    "%(end)s: it can start at %(need)s at the earliest"
                )
                % values
            )
    return lines


def _clock(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"
