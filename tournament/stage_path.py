"""Each team's stage path: where each place of its group leads after the groups, in words.

``stage_paths(event)`` answers, for every team of ``event`` in a group, the lines a family reads
on the team page and the team cards: "Aリーグ1位なら準決勝 13:30 第1コート" (in the active
language). Where the games after the groups exist (``tournament.reports.stages.division_slots``)
the lines name their stage, start and court; once a team fills a slot for good, only that slot's
line is left ("Aリーグ1位として準決勝 …"). Before those games are written (they are made when the
groups are complete) the lines come from the division's settings: the knockout places
(qualifiers per group, best runners-up) and the placement games of paired groups
(``tournament.engine.stage_path``; docs/rules/stages.md, "Slots" and "Placement games").

No players' names: the lines name groups, places, stages, times and courts only, so public pages,
share texts and the API may show them.
"""

from __future__ import annotations

from collections import Counter

from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.engine import placement
from tournament.engine import stage_path as engine
from tournament.models import Match, Team
from tournament.reports.stages import division_slots, takes_place

__all__ = ["stage_paths"]

FIRST_ROUND = {1: Match.Stage.FINAL, 2: Match.Stage.SEMIFINAL, 4: Match.Stage.QUARTERFINAL}


def stage_paths(event, division=None) -> dict[int, list[str]]:
    """Team id -> its stage path lines (``str``, active language), for every team of ``event``
    that has a group (only those of ``division``, a ``Division`` of the event, when given: the
    team page reads one division, kept per data version by ``tournament.family``); ``[]`` for a
    team whose division plays nothing after its groups (or whose places lead nowhere). Reads the
    event's divisions, groups, teams, games after the groups and the standings those games need;
    writes nothing, raises nothing for a half-set-up event."""
    paths: dict[int, list[str]] = {}
    divisions = event.divisions.prefetch_related("groups")
    # Only what is read here (group sizes, each team's group): a whole team and its group were
    # half of the instances this function built (cProfile; issue 31 item 1).
    teams = Team.objects.filter(division__event=event, group__isnull=False).only(*TEAM_FIELDS)
    if division is not None:
        divisions, teams = divisions.filter(pk=division.pk), teams.filter(division=division)
    teams = list(teams)
    for division in divisions:
        members = [t for t in teams if t.division_id == division.pk]
        if not members:
            continue
        groups = list(division.groups.all())
        # Counted in one pass: a count per group over every team cost 50 groups of a 250-team
        # division 12,500 reads a call (cProfile; issue 31 item 1).
        placed = Counter(t.group_id for t in members if takes_place(t))
        sizes = [(g.pk, placed[g.pk]) for g in groups]
        matches = list(
            Match.objects.filter(division=division)
            .after_groups()
            .select_related("court")
            .order_by("round", "bracket_position", "match_number")
        )
        states = division_slots(division, matches=matches) if matches else []
        if states:
            by_group = _exact(states, groups, sizes)
            for team in members:
                open_lines = [line for line, final in by_group.get(team.group_id, []) if not final]
                paths[team.pk] = _settled(team, states) + open_lines
        else:
            by_group = _planned(division, groups, sizes)
            for team in members:
                paths[team.pk] = list(by_group.get(team.group_id, []))
    return paths


TEAM_FIELDS = ("pk", "division_id", "group_id", "withdrawn", "withdrawn_keeps_slots")  # what stage_paths reads


def _when(match):
    """「13:30 第1コート」: the game's start (JST) and court, or "time to be announced"."""
    parts = []
    if match.start_at is not None:
        parts.append(timezone.localtime(match.start_at).strftime("%H:%M"))
    if match.court_id is not None:
        parts.append(str(match.court))
    return " ".join(parts) if parts else _("time to be announced")


def _group_place(group, place):
    return _("%(group)s place %(place)s") % {"group": group, "place": place}


def _step_slot(group, step):
    slot = _group_place(group, step.place)
    if step.rank:
        best = _("best %(rank)s of the teams placed %(place)s") % {"rank": step.rank, "place": step.place}
        slot = _("%(slot)s and %(best)s") % {"slot": slot, "best": best}
    return slot


def _exact(states, groups, sizes):
    """Group pk -> [(line, whether its slot is final)], from the games after the groups
    (``SlotState``s): a final slot's line is kept only for the team that fills it (``_settled``)."""
    matches = {s.match.pk: s.match for s in states}
    final = {(s.match.pk, side.reference): side.final for s in states for side in s.sides}
    games = [engine.SlotGame(s.match.pk, s.match.match_number, (s.a.reference, s.b.reference)) for s in states]
    size_of = dict(sizes)
    lines = {}
    for group in groups:
        steps = engine.steps_for_group(group.pk, size_of.get(group.pk, 0), games)
        lines[group.pk] = [
            (
                _("If %(slot)s: %(stage)s %(when)s")
                % {
                    "slot": _step_slot(group, step),
                    "stage": matches[step.game].get_stage_display(),
                    "when": _when(matches[step.game]),
                },
                final.get((step.game, step.reference), False),
            )
            for step in steps
        ]
    return lines


def _settled(team, states):
    """The lines of the slots ``team`` fills for good (a group place or a best-of place), or []."""
    return [
        _("As %(slot)s: %(stage)s %(when)s")
        % {"slot": side.label, "stage": state.match.get_stage_display(), "when": _when(state.match)}
        for state in states
        for side in state.sides
        if side.reference.startswith(("group:", "best:")) and side.final and side.now == team.pk
    ]


def _planned(division, groups, sizes):
    """Group pk -> lines from the division's settings, before the games after the groups exist."""
    names = [g.name for g in groups]
    try:
        pairs = placement.parse_pairs(division.placement_pairs, names) if len(groups) > 1 else []
    except placement.PairsError:
        pairs = []
    by_pk = {g.pk: g for g in groups}
    lines = {}
    for group in groups:
        steps = engine.planned_steps(
            group.pk,
            after_groups=division.after_groups,
            quota=division.qualifiers_per_group,
            best_runners_up=division.best_runners_up,
            sizes=sizes,
            pairs=pairs,
        )
        lines[group.pk] = [_planned_line(group, step, by_pk) for step in steps]
    return lines


def _planned_line(group, step, by_pk):
    slot = _group_place(group, step.place)
    if step.kind == "placement":
        other = by_pk.get(step.opponent_group)
        return _("If %(slot)s: placement game against %(other)s (time once the groups are complete)") % {
            "slot": slot,
            "other": _group_place(other, step.place) if other else "?",
        }
    if step.best_of:
        slot = _("%(slot)s and among the best %(count)s of the teams placed %(place)s") % {
            "slot": slot,
            "count": step.best_of,
            "place": step.place,
        }
    stage = FIRST_ROUND.get(step.first_round_games)
    first = Match.Stage(stage).label if stage else _("Round %(number)s") % {"number": 1}
    return _("If %(slot)s: the knockout, from the %(stage)s (time once the groups are complete)") % {
        "slot": slot,
        "stage": first,
    }
