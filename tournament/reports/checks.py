"""The organiser's schedule checks and the layout summary of the schedule page.

Nothing here writes. The checks themselves (nobody in two places at once, a court holds
one game at a time, each pair of a group meets once, or, in a division with a fixed number
of games per team, no pair twice and each team its number of games) are the scheduling engine's
(``tournament.engine.scheduling.timed_problems``); here they are read from the database
and put into the organiser's words."""

from __future__ import annotations

from collections import defaultdict
from itertools import pairwise

from django.db.models import Count, Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.clock import event_midnight
from tournament.engine import scheduling
from tournament.engine.scheduling.day import TeamGame, too_close
from tournament.models import Group, Match, Team
from tournament.reports.stage_times import stage_problems
from tournament.reports.stages import is_frozen


def _clock(minute):
    return f"{minute // 60:02d}:{minute % 60:02d}"


def team_where(team):
    """「小学生低学年の部・Aリーグ」: a team's division and group (its division alone without a group)."""
    if team.group_id is None:
        return team.division.name
    return _("%(division)s・%(group)s") % {"division": team.division.name, "group": team.group}


def team_label(team):
    """A team as the checks name it: 「チーム1（小学生低学年の部・Aリーグ）」."""
    return _("%(team)s (%(where)s)") % {"team": team.name, "where": team_where(team)}


def _back_to_back(timed, context, rest_teams, length):
    """The rest rule as problems: a team of a division with the rest rule whose next game
    starts less than a game's length after its game ends (docs/rules/
    scheduling-standings-seeding.md, §5). Overlaps are ``team_overlap`` problems already."""
    games = [TeamGame(t, i, g.start_minute, g.end_minute) for i, g in enumerate(timed) for t in (g.team_a, g.team_b)]
    pairs = too_close(games, {t: length for t in rest_teams})
    lines = []
    for team, first, second in sorted(pairs, key=lambda p: (timed[p[1]].start_minute, p[0])):
        a, b = timed[first], timed[second]
        if b.start_minute < a.end_minute:
            continue
        values = {
            "team": context["teams"].get(team, team),
            "a": context["matches"][first].match_number,
            "a_from": _clock(a.start_minute),
            "a_to": _clock(a.end_minute),
            "b": context["matches"][second].match_number,
            "b_from": _clock(b.start_minute),
            "b_to": _clock(b.end_minute),
        }
        lines.append(
            _(
                "%(team)s plays game %(a)s (%(a_from)s–%(a_to)s) and game %(b)s (%(b_from)s–%(b_to)s) "
                "in a row, but its division has the rest rule"
            )
            % values
        )
    return lines


def _timed_problem_text(problem, context):
    """One ``scheduling.TimedProblem`` as a sentence for the organiser (active language)."""
    matches = [context["matches"][i] for i in problem.matches]
    match = [m.match_number for m in matches]
    team = context["teams"].get(problem.team, problem.team)
    if problem.kind in ("team_overlap", "court_overlap"):
        (s1, e1), (s2, e2) = problem.minutes
        values = {
            "who": team if problem.kind == "team_overlap" else context["courts"].get(problem.court, problem.court),
            "a": match[0],
            "a_from": _clock(s1),
            "a_to": _clock(e1),
            "b": match[1],
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
            "game": match[0],
            "end": _clock(end),
            "start": _clock(start),
        }
    if problem.kind == "plays_itself":
        return _("%(team)s plays itself in game %(game)s") % {"team": team, "game": match[0]}
    if problem.kind == "no_group":
        return _("%(team)s plays game %(game)s but is in no group") % {"team": team, "game": match[0]}
    if problem.kind == "game_count":
        return ngettext(
            "%(team)s of %(group)s plays %(count)d game instead of %(expected)d",
            "%(team)s of %(group)s plays %(count)d games instead of %(expected)d",
            problem.count,
        ) % {
            "team": context["names"].get(problem.team, problem.team),  # the sentence names the group
            "group": context["groups"].get(problem.group, problem.group),
            "count": problem.count,
            "expected": problem.expected,
        }
    a, b = (context["names"].get(t, t) for t in problem.teams)  # these sentences name the groups
    if problem.kind == "wrong_group":
        return _(
            "Game %(game)s (%(a)s v %(b)s) is a game of %(group)s, but the teams are in %(group_a)s and %(group_b)s"
        ) % {
            "game": match[0],
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


def _expected_games(event, groups, withdrawn):
    """``{team id: games}`` for the teams of groups whose division sets its games per team.

    A team should play the division's number less its group games against withdrawn
    teams (those games are annulled or walkovers, and left out of the checks). Groups of
    a full round robin are left out: there every pair meets once
    (``docs/rules/scheduling-standings-seeding.md``, section 1.5).
    """
    per_group = dict(
        Group.objects.filter(pk__in=list(groups), division__games_per_team__isnull=False).values_list(
            "pk", "division__games_per_team"
        )
    )
    expected = {
        team: per_group[group_id] for group_id, members in groups.items() if group_id in per_group for team in members
    }
    if not expected or not withdrawn:
        return expected
    against = event.matches.group_stage().filter(group_id__in=list(per_group))
    for a, b in against.values_list("team_a_id", "team_b_id"):
        for team, other in ((a, b), (b, a)):
            if team in expected and other in withdrawn:
                expected[team] -= 1
    return expected


def _timed_games(event, groups, withdrawn):
    """``(timed, matches, group count)``: every timed game of the event that is not void and
    whose two teams are known and have not withdrawn, as ``scheduling.TimedMatch`` (minutes
    from the event's midnight) with its ``Match``; the group games first (their count is the
    third value), then the knockout and placement games."""
    games = sorted(
        event.matches.not_void().select_related("team_a", "team_b"),
        key=lambda g: (g.stage != Match.Stage.GROUP, g.match_number),
    )
    length = event.game_minutes
    day = event_midnight(event)
    group_index = {group_id: i for i, group_id in enumerate(groups)}
    timed, timed_matches = [], []
    for g in games:
        if g.start_at is None or g.team_a_id is None or g.team_b_id is None or {g.team_a_id, g.team_b_id} & withdrawn:
            continue
        start = int((g.start_at - day).total_seconds() // 60)
        timed.append(
            scheduling.TimedMatch(
                g.court_id or 0, g.team_a_id, g.team_b_id, start, start + length, group_index.get(g.group_id, -1)
            )
        )
        timed_matches.append(g)
    return timed, timed_matches, sum(1 for g in timed_matches if g.stage == Match.Stage.GROUP)


def _closed_court_problems(event):
    """A game that has not started on a closed court (it should have moved): one sentence
    each, in game order (docs/rules/scheduling-standings-seeding.md, §5)."""
    games = event.matches.filter(court__closed=True).not_void().select_related("court").order_by("match_number")
    return [
        _("Game %(game)s is on %(court)s, which is closed") % {"game": g.match_number, "court": g.court}
        for g in games
        if not is_frozen(g)
    ]


def _delayed_court_problems(event):
    """A game not started that is timed inside its court's delay (``Court.delayed_until``:
    the court takes no game before it): one sentence each, in game order
    (docs/rules/scheduling-standings-seeding.md, §5)."""
    midnight = event_midnight(event)
    games = (
        event.matches.filter(court__delayed_until__isnull=False, start_at__isnull=False)
        .not_void()
        .select_related("court")
        .order_by("match_number")
    )
    problems = []
    for g in games:
        until = g.court.delayed_until.hour * 60 + g.court.delayed_until.minute
        start = int((g.start_at - midnight).total_seconds() // 60)
        if start < until and not is_frozen(g):
            problems.append(
                _("Game %(game)s starts at %(at)s on %(court)s, inside its delay (the court is free from %(until)s)")
                % {"game": g.match_number, "at": _clock(start), "court": g.court, "until": _clock(until)}
            )
    return problems


def schedule_checks(event):
    """The organiser's checks: overlaps of teams and courts in time, pairs meeting once, streaks.

    Returns ``(problems, rows)``: problems as sentences in the active language, naming
    games by their match number, times as HH:MM and teams with their division and group
    (``team_label``). Group games are checked for pairs and games per team; every game
    whose teams are known, knockout and placement games included, for a team in two places
    at once, a court holding two games at once and a team playing itself; two games in a
    row of a team whose division has the rest rule, a game that has not started on a
    closed court or inside its court's delay, are problems. Per team: its games in a row at most and its longest wait
    in minutes (``_team_rows``). Rule: docs/rules/scheduling-standings-seeding.md, §5.
    """
    length = event.game_minutes
    groups = defaultdict(list)
    for team in Team.objects.filter(division__event=event, group__isnull=False, withdrawn=False):
        groups[team.group_id].append(team.pk)
    withdrawn = set(Team.objects.filter(division__event=event, withdrawn=True).values_list("pk", flat=True))
    timed, timed_matches, in_groups = _timed_games(event, groups, withdrawn)
    teams = Team.objects.filter(division__event=event).select_related("division", "group")
    names_by_id = {t.pk: team_label(t) for t in teams}
    context = {
        "teams": names_by_id,
        "names": {t.pk: t.name for t in teams},
        "courts": {c.pk: str(c) for c in event.courts.all()},
        "groups": dict(enumerate(map(Group.objects.in_bulk(list(groups)).get, groups))),
        "matches": timed_matches,
    }
    expected = _expected_games(event, groups, withdrawn)
    found = scheduling.timed_problems(timed[:in_groups], list(groups.values()), expected)
    found += [p for p in scheduling.clash_problems(timed) if any(i >= in_groups for i in p.matches)]
    problems = [_timed_problem_text(p, context) for p in found]
    rest_teams = {t.pk for t in teams if t.division.rest_rule}
    problems += _back_to_back(timed, context, rest_teams, length)
    problems += _closed_court_problems(event)
    problems += _delayed_court_problems(event)
    problems += stage_problems(event)
    return problems, _team_rows(timed, names_by_id, rest_teams, length)


def _team_rows(timed, names_by_id, rest_teams, length):
    """Per team: its games, most games in a row (a wait shorter than a game's length between
    two games counts as in a row), its longest wait (minutes), and ``problem`` when a team of
    a rest-rule division plays two in a row."""
    per_team = defaultdict(list)
    for g in timed:
        per_team[g.team_a].append(g)
        per_team[g.team_b].append(g)
    rows = []
    for team_id, team_matches in per_team.items():
        team_matches.sort(key=lambda g: g.start_minute)
        streak = best = 1
        longest_wait = 0
        for before, after in pairwise(team_matches):
            wait = after.start_minute - before.end_minute
            streak = streak + 1 if wait < length else 1
            best = max(best, streak)
            longest_wait = max(longest_wait, wait)
        rows.append(
            {
                "team": names_by_id.get(team_id, team_id),
                "games": len(team_matches),
                "in_a_row": best,
                "longest_wait": longest_wait,
                "rest_rule": team_id in rest_teams,
                "problem": team_id in rest_teams and best > 1,
            }
        )
    rows.sort(key=lambda r: (not r["problem"], -r["in_a_row"], -r["longest_wait"], str(r["team"])))
    return rows


def partial_divisions(event):
    """The divisions where a team does not play every team of its group: a set number of
    games per team ``k`` below a group's size − 1 (teams that have not withdrawn) for at
    least one group (``docs/rules/scheduling-standings-seeding.md``, section 1.5). With
    ``k`` at least size − 1 everywhere every team plays everyone, and no note is needed.
    Returns the divisions (a list, in the event's order)."""
    found = []
    for division in event.divisions.filter(games_per_team__isnull=False).prefetch_related("groups__teams"):
        sizes = [len([t for t in g.teams.all() if not t.withdrawn]) for g in division.groups.all()]
        if any(division.games_per_team < size - 1 for size in sizes):
            found.append(division)
    return found


def layout_summary(event):
    """Per division: its layout, the slots it uses and the lower bound (the best possible).

    Returns ``[{"division": Division, "slots": int | None, "bound": int}]`` for every
    division with groups of two teams or more on at least one court; slots are counted
    from the division's first slot to its last.
    """
    rows = []
    for division in event.divisions.all():
        # counted by the database: loading 250 teams cost the schedule page ~8 ms (issue 31 item 1)
        active = Count("teams", filter=Q(teams__withdrawn=False))
        sizes = list(division.groups.annotate(active=active).values_list("active", flat=True))
        matches = event.matches.filter(division=division).group_stage()
        courts = matches.values("court").distinct().count()
        if not sizes or not courts or min(sizes) < 2:
            continue
        slots = matches.aggregate(m=Max("slot"))["m"]
        first = matches.order_by("slot").values_list("slot", flat=True).first()
        used = (slots - first + 1) if slots is not None else None
        if division.games_per_team:
            bound = scheduling.partial_lower_bound(sizes, division.games_per_team, courts, rest=division.rest_rule)
        else:
            bound = scheduling.lower_bound(sizes, courts, rest=division.rest_rule)
        rows.append({"division": division, "slots": used, "bound": bound})
    return rows
