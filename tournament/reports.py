"""The read side: what pages, Excel, PDF and the API show, shaped once from the database.

Nothing here writes. Standings are computed from confirmed group-stage recording sheets
every time (they are never stored)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from common.errors import UserError
from judging.models import RecordingSheet
from tournament.clock import event_midnight
from tournament.engine import scheduling, seeding, standings
from tournament.models import (
    Group,
    Match,
    RunnerUpLot,
    Team,
    TieBreak,
)


@dataclass
class StandingsTable:
    group: Group
    rows: list  # standings.StandingRow with .team_obj attached
    teams: dict  # id -> Team
    cells: dict  # (row team id, column team id) -> (won: bool, cards_for, cards_against, mark)
    complete: bool


def _group_results(matches, sheets_by_match, excluded):
    results = []
    for m in matches:
        sheet = sheets_by_match.get(m.pk)
        if sheet is None or m.team_a_id in excluded or m.team_b_id in excluded:
            continue
        winner = m.team_a_id if sheet.winner_side == "A" else m.team_b_id
        results.append(
            standings.GameResult(
                team_a=m.team_a_id,
                team_b=m.team_b_id,
                cards_a=sheet.cards_a,
                cards_b=sheet.cards_b,
                winner=winner,
                walkover=sheet.is_walkover,
                decided_by=sheet.decided_by,
            )
        )
    return results


def division_standings(division):
    """The standings of every group of a division, from confirmed group-stage sheets only.

    Knockout games never count. A withdrawn team's games follow the division's
    setting: annulled (the team leaves the table), or kept with its unplayed games
    scored as walkovers (it stays in the table but never qualifies). Lots and play-offs
    recorded by the organiser settle ties through the LOT criterion. Returns a list of
    ``StandingsTable`` in group order, in a fixed number of queries whatever the size of
    the division.
    """
    groups = list(division.groups.select_related("court"))
    teams = list(Team.objects.filter(division=division, group__isnull=False))
    matches = list(Match.objects.filter(division=division, stage=Match.Stage.GROUP).exclude(status=Match.Status.VOID))
    sheets = {
        s.match_id: s
        for s in RecordingSheet.objects.filter(
            match__division=division, match__stage=Match.Stage.GROUP, is_confirmed=True
        ).exclude(match__status=Match.Status.VOID)
    }
    lots = defaultdict(dict)
    methods = {}
    for tie_break in TieBreak.objects.filter(group__division=division):
        lots[tie_break.group_id][tie_break.team_id] = tie_break.position
        methods[tie_break.team_id] = tie_break.method
    annul = division.withdrawal == "annul"
    excluded = {t.pk for t in teams if t.withdrawn and annul}
    tables = []
    for group in groups:
        members = {t.pk: t for t in teams if t.group_id == group.pk and t.pk not in excluded}
        group_matches = [m for m in matches if m.group_id == group.pk]
        results = _group_results(group_matches, sheets, excluded)
        rows = standings.rank_group(
            list(members),
            results,
            criteria=division.criteria,
            lots=lots[group.pk] or None,
            walkover_cards=division.walkover_cards,
        )
        for row in rows:
            row.lot_method = methods.get(row.team, "") if row.settled_by_lot else ""
        cells = {}
        for r in results:
            mark = (
                "" if r.decided_by == "cards" else {"joker": "り", "rps": "じ", "walkover": "不"}.get(r.decided_by, "")
            )
            cells[(r.team_a, r.team_b)] = (r.winner == r.team_a, r.cards_a, r.cards_b, mark)
            cells[(r.team_b, r.team_a)] = (r.winner == r.team_b, r.cards_b, r.cards_a, mark)
        playable = [m for m in group_matches if m.team_a_id not in excluded and m.team_b_id not in excluded]
        complete = bool(playable) and all(m.pk in sheets for m in playable)
        tables.append(StandingsTable(group, rows, members, cells, complete))
    return tables


class RunnerUpTie(UserError):
    """The best runners-up places end inside a block of runners-up of different groups who
    are equal on every criterion; ``teams`` (ids) are that block, to be settled by a lot."""

    def __init__(self, message, teams):
        super().__init__(message)
        self.teams = list(teams)


def qualifiers(division, tables):
    """The teams going through, in seed order: each group's top places, then the best runners-up.

    A withdrawn team never qualifies: the next team of its group takes its place. A tie
    at a qualifying place must be settled by a lot or play-off first.
    """
    quota = division.qualifiers_per_group
    by_place = defaultdict(list)
    runners_up = []
    for index, table in enumerate(tables):
        if not table.complete:
            raise UserError(
                _("%(group)s of %(division)s has games without a result.")
                % {"group": table.group, "division": division}
            )
        eligible = [row for row in table.rows if not table.teams[row.team].withdrawn]
        wanted = quota + (1 if division.best_runners_up else 0)
        for place, row in enumerate(eligible[:wanted], start=1):
            if row.tied:
                raise UserError(
                    _("Place %(rank)s of %(group)s is tied; record a lot or play-off before seeding.")
                    % {"rank": row.rank, "group": table.group}
                )
            if place <= quota:
                by_place[place].append((index, row))
            else:
                runners_up.append((index, row))
    qualifiers = []
    for place in sorted(by_place):
        ordered = standings.compare_across_groups([row for _, row in by_place[place]])
        group_of = {row.team: index for index, row in by_place[place]}
        qualifiers += [seeding.Qualifier(team=row.team, group=group_of[row.team], place=place) for row in ordered]
    if division.best_runners_up:
        lots = dict(RunnerUpLot.objects.filter(division=division).values_list("team_id", "position"))
        ordered = standings.apply_lots_across_groups(
            standings.compare_across_groups([row for _, row in runners_up]), lots
        )
        cut = ordered[: division.best_runners_up]
        if (
            len(ordered) > len(cut)
            and cut
            and ordered[len(cut)].tied
            and cut[-1].tied
            and ordered[len(cut)].rank == cut[-1].rank
        ):
            raise RunnerUpTie(
                _(
                    "The best runners-up are tied across groups on every criterion where the qualifying places end: "
                    "record a lot or play-off between them on the knockout page."
                ),
                teams=[row.team for row in ordered if row.rank == cut[-1].rank],
            )
        group_of = {row.team: index for index, row in runners_up}
        qualifiers += [seeding.Qualifier(team=row.team, group=group_of[row.team], place=quota + 1) for row in cut]
    return qualifiers


def runner_up_tie(division):
    """The runners-up (Team list, in table order) tied where the division's best runners-up
    places end, who need a lot before seeding; ``[]`` when there is no such tie or the
    groups are not finished yet (seeding then says what is missing)."""
    if not division.best_runners_up:
        return []
    try:
        qualifiers(division, division_standings(division))
    except RunnerUpTie as tie:
        teams = Team.objects.in_bulk(tie.teams)
        return [teams[pk] for pk in tie.teams]
    except UserError:
        return []
    return []


def _clock(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"


def _timed_problem_text(problem, context):
    """One ``scheduling.TimedProblem`` as a sentence for the organiser (active language)."""
    matches = [context["matches"][i] for i in problem.games]
    game = [m.match_number for m in matches]
    team = context["teams"].get(problem.team, problem.team)
    if problem.kind in ("team_overlap", "court_overlap"):
        (s1, e1), (s2, e2) = problem.minutes
        values = {
            "who": team if problem.kind == "team_overlap" else context["courts"].get(problem.court, problem.court),
            "a": game[0],
            "a_from": _clock(s1),
            "a_to": _clock(e1),
            "b": game[1],
            "b_from": _clock(s2),
            "b_to": _clock(e2),
        }
        if problem.kind == "team_overlap":
            return (
                _("%(who)s plays game %(a)s (%(a_from)s–%(a_to)s) and game %(b)s (%(b_from)s–%(b_to)s) at once")
                % values
            )
        return _("%(who)s holds game %(a)s (%(a_from)s–%(a_to)s) and game %(b)s (%(b_from)s–%(b_to)s) at once") % values
    if problem.kind == "bad_time":
        start, end = problem.minutes[0]
        return _("Game %(game)s ends at %(end)s, not after its start %(start)s") % {
            "game": game[0],
            "end": _clock(end),
            "start": _clock(start),
        }
    if problem.kind == "plays_itself":
        return _("%(team)s plays itself in game %(game)s") % {"team": team, "game": game[0]}
    if problem.kind == "no_group":
        return _("%(team)s plays game %(game)s but is in no group") % {"team": team, "game": game[0]}
    a, b = (context["teams"].get(t, t) for t in problem.teams)
    if problem.kind == "wrong_group":
        return _(
            "Game %(game)s (%(a)s v %(b)s) is a game of %(group)s, but the teams are in %(group_a)s and %(group_b)s"
        ) % {
            "game": game[0],
            "a": a,
            "b": b,
            "group": context["groups"].get(problem.group, problem.group),
            "group_a": context["groups"].get(problem.groups[0]),
            "group_b": context["groups"].get(problem.groups[1]),
        }
    return ngettext(
        "%(a)s and %(b)s of %(group)s meet %(count)d time instead of once",
        "%(a)s and %(b)s of %(group)s meet %(count)d times instead of once",
        problem.count,
    ) % {"a": a, "b": b, "group": context["groups"].get(problem.group, problem.group), "count": problem.count}


def schedule_checks(event):
    """The organiser's checks: overlaps of teams and courts in time, pairs meeting once, streaks.

    Returns ``(problems, rows)``: problems as sentences in the active language, naming
    games by their match number and times as HH:MM, and per team its games in a row at
    most and its longest wait in minutes.
    """
    games = list(
        event.matches.filter(stage=Match.Stage.GROUP)
        .exclude(status=Match.Status.VOID)
        .select_related("team_a", "team_b")
    )
    length = event.game_minutes
    timed = []
    day = event_midnight(event)
    groups = defaultdict(list)
    for team in Team.objects.filter(division__event=event, group__isnull=False, withdrawn=False):
        groups[team.group_id].append(team.pk)
    group_index = {group_id: i for i, group_id in enumerate(groups)}
    withdrawn = set(Team.objects.filter(division__event=event, withdrawn=True).values_list("pk", flat=True))
    timed_matches = []
    for g in games:
        if g.start_at is None or g.team_a_id is None or g.team_b_id is None or {g.team_a_id, g.team_b_id} & withdrawn:
            continue
        start = int((g.start_at - day).total_seconds() // 60)
        timed.append(
            scheduling.TimedGame(
                g.court_id or 0, g.team_a_id, g.team_b_id, start, start + length, group_index.get(g.group_id, -1)
            )
        )
        timed_matches.append(g)
    names_by_id = dict(Team.objects.filter(division__event=event).values_list("pk", "name"))
    context = {
        "teams": names_by_id,
        "courts": {c.pk: str(c) for c in event.courts.all()},
        "groups": dict(enumerate(map(Group.objects.in_bulk(list(groups)).get, groups))),
        "matches": timed_matches,
    }
    problems = [_timed_problem_text(p, context) for p in scheduling.timed_problems(timed, list(groups.values()))]
    per_team = defaultdict(list)
    for g in timed:
        per_team[g.team_a].append(g)
        per_team[g.team_b].append(g)
    rows = []
    gap_limit = event.changeover_minutes + 1
    for team_id, team_games in per_team.items():
        team_games.sort(key=lambda g: g.start_minute)
        streak = best = 1
        longest_wait = 0
        for before, after in itertools.pairwise(team_games):
            wait = after.start_minute - before.end_minute
            streak = streak + 1 if wait < gap_limit else 1
            best = max(best, streak)
            longest_wait = max(longest_wait, wait)
        rows.append(
            {
                "team": names_by_id.get(team_id, team_id),
                "games": len(team_games),
                "in_a_row": best,
                "longest_wait": longest_wait,
            }
        )
    rows.sort(key=lambda r: (-r["in_a_row"], -r["longest_wait"], str(r["team"])))
    return problems, rows
