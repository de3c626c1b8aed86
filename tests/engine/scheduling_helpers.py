"""Helpers of the scheduling tests, built on the engine's public names.

They used to live in ``tournament.engine.scheduling`` although only the tests
called them: the one-group-per-court wrapper, slot times as datetimes, the
delay of a court's games, and the timed check as English sentences.  Pure:
no Django.
"""

from __future__ import annotations

import datetime

from tournament.engine.scheduling import Clock, Plan, PlannedMatch, TimedMatch, TimedProblem, plan, timed_problems
from tournament.engine.scheduling.clock import check_minutes


def plan_groups_on_courts(groups: list[list[int]], courts: list[int]) -> list[PlannedMatch]:
    """``plan(groups, courts, "one_group_per_court").games``: one group per court
    (the official Hitachi format), the games in start order."""
    return plan(groups, courts, "one_group_per_court").matches


def slot_start(
    event_start: datetime.datetime,
    slot: int,
    game_minutes: int,
    changeover_minutes: int,
) -> datetime.datetime:
    """Start time of ``slot``: ``event_start + slot * (game + changeover)`` minutes.

    Raises ``ValueError`` for a negative slot, game length or changeover.
    """
    for name, value in (
        ("slot", slot),
        ("game_minutes", game_minutes),
        ("changeover_minutes", changeover_minutes),
    ):
        if value < 0:
            raise ValueError(f"{name} must not be negative, got {value}")
    return event_start + datetime.timedelta(minutes=slot * (game_minutes + changeover_minutes))


def timed_matches(matches: list[PlannedMatch] | Plan, clock: Clock) -> list[TimedMatch]:
    """The games of a plan (or a list of PlannedMatchs) with start and end
    minutes from ``clock``, in the same order."""
    items = matches.matches if isinstance(matches, Plan) else matches
    out = []
    for g in items:
        start = clock.start_of(g.slot, g.court)
        out.append(
            TimedMatch(
                court=g.court,
                team_a=g.team_a,
                team_b=g.team_b,
                start_minute=start,
                end_minute=start + clock.game_minutes,
                group=g.group,
            )
        )
    return out


def shift(matches_starts: dict, from_minute: int, delay: int) -> dict:
    """Delay the remaining games of a court: every start at or after
    ``from_minute`` moves ``delay`` minutes later.  Raises ``ValueError`` for a
    negative delay or a non-int minute."""
    check_minutes("from_minute", from_minute)
    check_minutes("delay", delay, 0)
    return {gid: (start + delay if start >= from_minute else start) for gid, start in matches_starts.items()}


def sentence(problem: TimedProblem) -> str:
    """A timed problem as an English sentence (the service words them for the organiser)."""
    g = problem.matches
    if problem.kind == "bad_time":
        start, end = problem.minutes[0]
        return f"game {g[0]} ends at {end}, not after its start {start}"
    if problem.kind == "plays_itself":
        return f"team {problem.team} plays itself in game {g[0]}"
    if problem.kind in ("team_overlap", "court_overlap"):
        what, key = ("team", problem.team) if problem.kind == "team_overlap" else ("court", problem.court)
        (s1, e1), (s2, e2) = problem.minutes
        return f"{what} {key} is in games {g[0]} ({s1}-{e1}) and {g[1]} ({s2}-{e2}) at once"
    if problem.kind == "no_group":
        return f"team {problem.team} in game {g[0]} is not in any group"
    a, b = problem.teams
    if problem.kind == "wrong_group":
        return (
            f"game {g[0]} ({a} v {b}) is labelled group {problem.group} "
            f"but the teams are in groups {problem.groups[0]} and {problem.groups[1]}"
        )
    return f"teams {a} and {b} of group {problem.group} meet {problem.count} times instead of once"


def check_timed(matches: list[TimedMatch], groups: list[list[int]] | None = None) -> list[str]:
    """The problems of a timed schedule as English sentences; ``[]`` = fine."""
    return [sentence(p) for p in timed_problems(matches, groups)]
