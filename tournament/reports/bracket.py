"""The knockout of each division as every medium shows it: rounds, third-place games,
joint third, where each side's team comes from, and the final places.

Nothing here writes. The places follow ``docs/rules/podium.md``."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.functional import lazy
from django.utils.translation import gettext, gettext_lazy

from tournament.engine import podium
from tournament.models import Match
from tournament.reports import stage_notes
from tournament.reports.placement import nth_place, placement_places
from tournament.reports.timetable import division_game_slots, match_queryset

# The names of the final places on paper and on the final results page ("優勝", "準優勝",
# "第3位" in Japanese), in the active language when read.
PLACES = {
    podium.FIRST: gettext_lazy("Champion"),
    podium.SECOND: gettext_lazy("Runner-up"),
    podium.THIRD: lazy(lambda: nth_place(3), str)(),
}


@dataclass
class DivisionBracket:
    """One division's knockout: ``rounds`` (lists of games, first round first; the last
    holds the final), ``third`` (third-place games), ``joint_third`` (Teams sharing third
    place when there is no third-place game) and ``slots`` (match pk -> ``GameSlots``: each
    side's slot label and short source, and whether the game is out of date)."""

    division: object
    rounds: list
    third: list
    joint_third: list
    slots: dict = field(default_factory=dict)

    @property
    def sources(self):
        """Match pk -> (short source of side A, of side B): "A1" (group A's first place),
        "2-1" (the best of the runners-up), "W12"/"L12" (game 12's winner/loser), None for a
        team fixed by hand."""
        return {pk: (s.a.short or None, s.b.short or None) for pk, s in self.slots.items()}

    @property
    def out_of_date(self):
        """The games of the bracket a later change left out of date."""
        return [g for g in self.matches if g.pk in self.slots and self.slots[g.pk].out_of_date]

    @property
    def matches(self):
        """Every game of the bracket: the rounds in order, then the third-place games."""
        return [g for matches in self.rounds for g in matches] + self.third

    @property
    def final(self):
        return self.rounds[-1][0] if self.rounds and self.rounds[-1] else None

    @property
    def semifinal_count(self):
        """How many semifinals the bracket has: 2, 1 when a bye skips one (three qualifiers), 0
        when the knockout is only a final."""
        return sum(1 for g in self.matches if g.stage == Match.Stage.SEMIFINAL)

    @property
    def third_shared(self):
        """True when, without a third-place game, two semifinal losers share third place (even
        before both are decided); one semifinal's loser is third alone (docs/rules/podium.md)."""
        return not self.third and self.semifinal_count > 1

    def places(self):
        """The final places decided so far, best first: ``[(1 | 2 | 3, Team)]``."""
        teams = {t.pk: t for g in self.matches for t in (g.team_a, g.team_b) if t is not None}
        semifinals = [_outcome(g) for g in self.matches if g.stage == Match.Stage.SEMIFINAL]
        final = self.final
        places = podium.final_places(
            _outcome(final) if final is not None else None, [_outcome(g) for g in self.third], semifinals
        )
        return [(p.place, teams[p.team]) for p in places]

    def checked_places(self):
        """``places()`` with a third item: whether the place is to be confirmed, because its
        team played a game that is out of date or is fed by one (``final_places``)."""
        tainted = _tainted(self.matches, self.slots)
        doubtful = {t for g in self.matches if g.pk in tainted for t in (g.team_a_id, g.team_b_id) if t is not None}
        places = self.places()
        seen = [team.pk for _place, team in places]
        doubtful |= {pk for pk in seen if seen.count(pk) > 1}  # an inconsistent bracket: never a team twice unmarked
        return [(place, team, team.pk in doubtful) for place, team in places]


def _outcome(match):
    """The ``podium.Outcome`` of a knockout game with a result, else None."""
    if not match.has_result or match.winner_id is None:
        return None
    return podium.Outcome(winner=match.winner_id, loser=match.loser_id)


def _tainted(matches, slots):
    """Pks of the games whose teams a later change may have made wrong: the out-of-date games
    and every game fed (winner or loser) by one of them, however far down."""
    tainted = {g.pk for g in matches if g.pk in slots and slots[g.pk].out_of_date}
    feeds = [(g.pk, g.feeds_id) for g in matches if g.feeds_id] + [
        (g.pk, g.loser_feeds_id) for g in matches if g.loser_feeds_id
    ]
    grown = True
    while grown:
        grown = False
        for source, target in feeds:
            if source in tainted and target not in tainted:
                tainted.add(target)
                grown = True
    return tainted


def division_brackets(event, division=None):
    """``[DivisionBracket]`` for every division of ``event`` with knockout games (or only
    ``division``), games loaded by ``match_queryset``, each with its ``slots`` (where each side
    comes from, from ``tournament.reports.stages.division_slots``: the standings of the
    division are read for it). Each game also carries its ``GameSlots`` as ``game.slots``
    for the templates."""
    knockout = list(match_queryset(event).bracket().order_by("round", "bracket_position", "match_number"))
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
        bracket.slots = division_game_slots(d)
        for g in matches:
            g.slots = bracket.slots.get(g.pk)
        brackets.append(bracket)
    return brackets


@dataclass(frozen=True)
class GroupChampion:
    """A division whose only qualifier is its champion (docs/rules/stages.md, "Per division"):
    its ``team`` won ``group``, and no game follows. ``place`` is its name on the final results
    ("優勝（Aリーグ1位）": decided by the group)."""

    division: object
    team: object
    group: object

    @property
    def place(self):
        return gettext("%(place)s (group %(group)s, place 1)") % {
            "place": PLACES[podium.FIRST],
            "group": self.group.name,
        }


def single_champions(event):
    """``[GroupChampion]`` of the divisions of ``event`` whose knockout has a single qualifier
    and whose groups are complete (``stage_notes.division_stage``: state "single"); the other
    divisions cost one query each, no standings."""
    found = []
    for d in event.divisions.all():
        if d.after_groups not in ("knockout", "both"):
            continue
        if d.groups.count() * d.qualifiers_per_group + (d.best_runners_up or 0) >= 2:
            continue
        stage = stage_notes.division_stage(d)
        if stage.state == stage_notes.SINGLE and stage.champion is not None:
            found.append(GroupChampion(d, stage.champion, stage.champion_group))
    return found


def final_places(event):
    """Per division with a place decided: ``(Division, [(place name, Team, to confirm)])``,
    best first ("優勝", "準優勝", "第3位"), as decided so far: the knockout's places, then those
    of the placement games (``tournament.reports.placement``; the only ones without a
    knockout). ``to confirm`` is true when the place comes from a game a later change left out
    of date (or from a game fed by one), or when its team is listed at two places (a bracket
    left inconsistent): the pages and the PDF print "要確認" beside it until the organiser keeps
    or replays that game (docs/rules/stages.md, "Out of date", "One game per round"). A division
    whose only qualifier is its champion has that champion, named "優勝（Aリーグ1位）" (decided
    by its group: ``single_champions``)."""
    knockout = {
        b.division.pk: [(str(PLACES[place]), team, check) for place, team, check in b.checked_places()]
        for b in division_brackets(event)
    }
    for champion in single_champions(event):
        knockout.setdefault(champion.division.pk, [(champion.place, champion.team, False)])
    below = placement_places(event)
    result = []
    for division in event.divisions.all():
        places = knockout.get(division.pk, []) + below.get(division.pk, [])
        listed = [team.pk for _name, team, _check in places]
        places = [(name, team, check or listed.count(team.pk) > 1) for name, team, check in places]
        if places:
            result.append((division, places))
    return result
