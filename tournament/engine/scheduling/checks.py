"""What is wrong with a schedule: slot-based (``check_schedule``) or timed
(``timed_problems``).

Pure: standard library only.  Slot-based problems are English sentences
(developer and test output); timed problems are data (:class:`TimedProblem`)
that the service turns into the organiser's language.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from tournament.engine.scheduling.matches import PlannedMatch

# A pair of team ids, the smaller first -> number of meetings.
PairCount = Counter[tuple[int, int]]
# (group index, its member team ids sorted) for each group.
Members = list[tuple[int, list[int]]]


def pairs_not_meeting_once(pair_count: PairCount, groups_members: Members) -> list[tuple[int, int, int, int]]:
    """``(group, team a, team b, meetings)`` for each pair of a group that does not meet once."""
    return [
        (gi, a, b, pair_count.get((a, b), 0))
        for gi, members in groups_members
        for i, a in enumerate(members)
        for b in members[i + 1 :]
        if pair_count.get((a, b), 0) != 1
    ]


def partial_pair_problems(
    pair_count: PairCount, groups_members: Members, expected: dict[int, int]
) -> tuple[list[tuple[int, int, int, int]], list[tuple[int, int, int]]]:
    """The checks of a group whose teams play a fixed number of games (section 1.5).

    In: meetings per pair, the members of each group, ``expected`` games per
    team id.  A group is checked this way when every member has an expected
    count; its pairs may meet at most once and each member must play exactly
    its expected count.  Out: ``(pairs, counts)``: ``(group, team a, team b,
    meetings)`` for each such pair meeting more than once, then
    ``(group, team, games)`` for each member with another number of games.
    """
    pairs: list[tuple[int, int, int, int]] = []
    counts: list[tuple[int, int, int]] = []
    for gi, members in groups_members:
        if not members or any(t not in expected for t in members):
            continue
        played = dict.fromkeys(members, 0)
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                meetings = pair_count.get((a, b), 0)
                played[a] += meetings
                played[b] += meetings
                if meetings > 1:
                    pairs.append((gi, a, b, meetings))
        counts += [(gi, t, played[t]) for t in members if played[t] != expected[t]]
    return pairs, counts


def _split_partial(groups_members: Members, expected: dict[int, int] | None) -> tuple[Members, Members]:
    """The groups checked as full round robins, and those with a fixed number of games per team."""
    if not expected:
        return groups_members, []
    partial = [(gi, m) for gi, m in groups_members if m and all(t in expected for t in m)]
    full = [(gi, m) for gi, m in groups_members if not (m and all(t in expected for t in m))]
    return full, partial


# --------------------------------------------------------------------------
# Slot-based check
# --------------------------------------------------------------------------


def _group_index(groups: list[list[int]]) -> tuple[dict[int, int], list[str]]:
    """``{team: group index}`` (the first group listing a team) and the teams listed twice."""
    problems: list[str] = []
    group_of: dict[int, int] = {}
    for gi, group in enumerate(groups):
        for team in group:
            if team in group_of and group_of[team] != gi:
                problems.append(f"team {team} is listed in groups {group_of[team]} and {gi}")
            group_of.setdefault(team, gi)
    return group_of, problems


def _slot_problems(matches: list[PlannedMatch], rest: bool) -> list[str]:
    """A team or a court twice in one slot; with ``rest`` a team in consecutive slots."""
    problems: list[str] = []
    team_slots: Counter[tuple[int, int]] = Counter()
    court_slots: Counter[tuple[int, int]] = Counter()
    for g in matches:
        team_slots[(g.slot, g.team_a)] += 1
        if g.team_b != g.team_a:
            team_slots[(g.slot, g.team_b)] += 1
        court_slots[(g.slot, g.court)] += 1
    for (slot, team), count in sorted(k for k in team_slots.items() if k[1] > 1):
        problems.append(f"team {team} plays {count} games in slot {slot}")
    for (slot, court), count in sorted(k for k in court_slots.items() if k[1] > 1):
        problems.append(f"court {court} has {count} games in slot {slot}")
    if rest:
        for slot, team in sorted(k for k in team_slots if (k[0] + 1, k[1]) in team_slots):
            problems.append(f"team {team} plays in consecutive slots {slot} and {slot + 1}")
    return problems


def _match_problem(g: PlannedMatch, group_of: dict[int, int]) -> list[str]:
    """What is wrong with one game itself ([] for a game between two teams of one group)."""
    if g.team_a == g.team_b:
        return [f"team {g.team_a} plays itself in slot {g.slot}"]
    ga = group_of.get(g.team_a)
    gb = group_of.get(g.team_b)
    if ga is None or gb is None:
        return [f"team {t} in slot {g.slot} is not in any group" for t in (g.team_a, g.team_b) if t not in group_of]
    if ga != gb:
        return [f"game {g.team_a} v {g.team_b} in slot {g.slot} is between teams of different groups ({ga} and {gb})"]
    return []


def check_schedule(
    matches: list[PlannedMatch], groups: list[list[int]], *, rest: bool = False, games_per_team: int | None = None
) -> list[str]:
    """Return the problems of a slot-based schedule as English sentences; ``[]`` = fine.

    In: ``games`` (:class:`PlannedMatch`), ``groups`` (team ids per group, the
    group index being ``PlannedMatch.group``'s meaning) and ``rest`` (check
    the rest rule too).  Raises nothing: every problem is a sentence.

    Checks (the hard constraints of ``docs/rules/scheduling-standings-seeding.md``,
    section 2.1, and the invariants of section 2.6):

    * a team listed in two groups;
    * a team in two games in one slot;
    * a court with two games in one slot;
    * a team playing itself, or a team that is in no group;
    * a game between teams of different groups;
    * a pair of teams of one group that does not meet exactly once
      (missing or repeated; A/B order does not matter);
    * with ``rest=True``: a team playing in two consecutive slots.

    With ``games_per_team`` (section 1.5) a pair may not meet, but none meets
    twice, and every team plays exactly that many games.
    """
    group_of, problems = _group_index(groups)
    problems += _slot_problems(matches, rest)

    # Game problems are reported in (slot, court) order, then input order.
    match_problems: list[tuple[int, int, int, str]] = []
    pair_count: PairCount = Counter()
    for i, g in enumerate(matches):
        found = _match_problem(g, group_of)
        match_problems += [(g.slot, g.court, i, text) for text in found]
        if not found:
            pair_count[(min(g.team_a, g.team_b), max(g.team_a, g.team_b))] += 1
    match_problems.sort(key=lambda p: p[:3])
    problems += [p[3] for p in match_problems]

    members = [(gi, [t for t in sorted(set(group)) if group_of.get(t) == gi]) for gi, group in enumerate(groups)]
    expected = dict.fromkeys(group_of, games_per_team) if games_per_team is not None else None
    full, partial = _split_partial(members, expected)
    twice, counts = partial_pair_problems(pair_count, partial, expected or {})
    problems += [
        f"teams {a} and {b} of group {gi} meet {count} times instead of once"
        for gi, a, b, count in pairs_not_meeting_once(pair_count, full) + twice
    ]
    problems += [f"team {t} of group {gi} plays {n} games instead of {games_per_team}" for gi, t, n in counts]
    return problems


# --------------------------------------------------------------------------
# Timed schedules
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TimedMatch:
    """A game with a real time: ``[start_minute, end_minute)`` in minutes
    from midnight on ``court`` (a court id); ``team_a`` and ``team_b`` are
    team ids; ``group`` is a group index (into the ``groups`` given to
    :func:`timed_problems`, or just a label)."""

    court: int
    team_a: int
    team_b: int
    start_minute: int
    end_minute: int
    group: int


@dataclass(frozen=True)
class TimedProblem:
    """One problem of a timed schedule, as data (see :func:`timed_problems`).

    ``kind`` is one of ``KINDS``; ``games`` are indexes into the checked list; the other
    fields are filled as the kind needs: ``team`` (id), ``court`` (id), ``teams`` (a pair
    of ids), ``group`` (index), ``groups`` (the teams' group indexes), ``count`` (meetings;
    for ``game_count`` the team's games, ``expected`` the games it should play) and ``minutes`` ((start, end) per game in ``games``, minutes from midnight).
    """

    KINDS = (
        "bad_time",
        "plays_itself",
        "team_overlap",
        "court_overlap",
        "no_group",
        "wrong_group",
        "pair_count",
        "game_count",
    )

    kind: str
    matches: tuple[int, ...] = ()
    team: int | None = None
    court: int | None = None
    teams: tuple[int, int] | None = None
    group: int | None = None
    groups: tuple[int, int] | None = None
    count: int | None = None
    minutes: tuple[tuple[int, int], ...] = ()
    expected: int | None = None


def _overlaps(items: list[tuple[int, int, int]], kind: str, key: int) -> list[TimedProblem]:
    """Pairs of overlapping half-open intervals ``(start, end, index)``.

    Sweep in start order keeping every interval still open, so partial,
    nested and equal-start overlaps are all found, each pair once.
    Touching intervals (one ends when the next starts) do not overlap.
    """
    problems = []
    open_: list[tuple[int, int, int]] = []
    who = {"team": key} if kind == "team_overlap" else {"court": key}
    for s, e, i in sorted(items):
        open_ = [o for o in open_ if o[1] > s]
        problems.extend(
            TimedProblem(kind, matches=(oi, i), minutes=((os_, oe), (s, e)), **who) for os_, oe, oi in open_
        )
        open_.append((s, e, i))
    return problems


def _time_problems(matches: list[TimedMatch]) -> list[TimedProblem]:
    """Bad times and teams playing themselves (in game order), then the
    overlaps of teams, then of courts."""
    problems: list[TimedProblem] = []
    by_team: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    by_court: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for i, g in enumerate(matches):
        if g.end_minute <= g.start_minute:
            problems.append(TimedProblem("bad_time", matches=(i,), minutes=((g.start_minute, g.end_minute),)))
        if g.team_a == g.team_b:
            problems.append(TimedProblem("plays_itself", matches=(i,), team=g.team_a))
        for team in {g.team_a, g.team_b}:
            by_team[team].append((g.start_minute, g.end_minute, i))
        by_court[g.court].append((g.start_minute, g.end_minute, i))
    for team in sorted(by_team):
        problems += _overlaps(by_team[team], "team_overlap", team)
    for court in sorted(by_court):
        problems += _overlaps(by_court[court], "court_overlap", court)
    return problems


def clash_problems(matches: list[TimedMatch]) -> list[TimedProblem]:
    """The time problems of ``matches`` alone (no group checks): bad times, a team playing
    itself, a team in two games at once, a court holding two games at once. For games of
    any stage (knockout and placement games included, whose teams are in no group's
    pairs); indices as in :func:`timed_problems`. Raises nothing."""
    return _time_problems(matches)


def _group_problem(i: int, g: TimedMatch, group_of: dict[int, int]) -> list[TimedProblem]:
    """A team of game ``i`` in no group, or a game not between two teams of its group."""
    missing = [TimedProblem("no_group", matches=(i,), team=t) for t in (g.team_a, g.team_b) if t not in group_of]
    if missing:
        return missing
    if group_of[g.team_a] != group_of[g.team_b] or group_of[g.team_a] != g.group:
        return [
            TimedProblem(
                "wrong_group",
                matches=(i,),
                teams=(g.team_a, g.team_b),
                group=g.group,
                groups=(group_of[g.team_a], group_of[g.team_b]),
            )
        ]
    return []


def _pairs_by_given_groups(
    matches: list[TimedMatch], groups: list[list[int]]
) -> tuple[list[TimedProblem], PairCount, Members]:
    """Group problems, meetings and members when the groups are given."""
    group_of: dict[int, int] = {}
    for gi, group in enumerate(groups):
        for team in group:
            group_of.setdefault(team, gi)
    problems: list[TimedProblem] = []
    pair_count: PairCount = Counter()
    for i, g in enumerate(matches):
        if g.team_a == g.team_b:
            continue
        found = _group_problem(i, g, group_of)
        problems += found
        if not found:
            pair_count[(min(g.team_a, g.team_b), max(g.team_a, g.team_b))] += 1
    members = [(gi, [t for t in sorted(set(group)) if group_of.get(t) == gi]) for gi, group in enumerate(groups)]
    return problems, pair_count, members


def _pairs_by_labels(matches: list[TimedMatch]) -> tuple[PairCount, Members]:
    """Meetings and members when a group is the teams seen in its games."""
    pair_count: PairCount = Counter()
    seen: dict[int, set[int]] = defaultdict(set)
    for g in matches:
        if g.team_a == g.team_b:
            continue
        seen[g.group].update((g.team_a, g.team_b))
        pair_count[(min(g.team_a, g.team_b), max(g.team_a, g.team_b))] += 1
    return pair_count, [(gi, sorted(seen[gi])) for gi in sorted(seen)]


def timed_problems(
    matches: list[TimedMatch], groups: list[list[int]] | None = None, games_per_team: dict[int, int] | None = None
) -> list[TimedProblem]:
    """Return the problems of a timed schedule as :class:`TimedProblem` data; ``[]`` = fine.

    In: ``games`` (:class:`TimedMatch`, times in minutes; a game occupies
    ``[start_minute, end_minute)`` and is named by its index in ``games``)
    and optionally ``groups`` (team ids per group).  Raises nothing.  Checks:

    * a game that does not end after it starts, or a team playing itself;
    * a team in two games whose times overlap (partial, nested or equal;
      a game ending at 10:00 and one starting at 10:00 do not overlap);
    * a court with two games whose times overlap;
    * every pair of teams of a group meets exactly once.  With ``groups``
      (``TimedMatch.group`` an index into it) the members come from
      ``groups`` and a game between groups, or a team in no group, is
      reported; without it, a group's members are the teams seen in its
      games;
    * a group all of whose teams are in ``games_per_team`` (team id -> the
      games it should play, section 1.5) is checked differently: no pair
      meets twice (``pair_count``) and each team plays exactly its number
      (``game_count``); pairs that never meet are fine.

    This is the timed counterpart of :func:`check_schedule`
    (``docs/rules/scheduling-standings-seeding.md``, section 2.6): slot
    numbers cannot see games of unequal length or courts that start at
    different times.
    """
    problems = _time_problems(matches)
    if groups is not None:
        group_problems, pair_count, members = _pairs_by_given_groups(matches, groups)
        problems += group_problems
    else:
        pair_count, members = _pairs_by_labels(matches)
    full, partial = _split_partial(members, games_per_team)
    twice, counts = partial_pair_problems(pair_count, partial, games_per_team or {})
    problems += [
        TimedProblem("pair_count", teams=(a, b), group=gi, count=count)
        for gi, a, b, count in pairs_not_meeting_once(pair_count, full) + twice
    ]
    problems += [
        TimedProblem("game_count", team=t, group=gi, count=n, expected=(games_per_team or {})[t]) for gi, t, n in counts
    ]
    return problems
