"""The clock after the groups (issue 29): the earliest start of a knockout or placement game
from the games that decide its slots, the rest of the teams it may hold, the lunch break and
the open courts (docs/rules/scheduling-standings-seeding.md, §5, "The stage after the groups")."""

import pytest

from tournament.engine.scheduling.clock import Clock
from tournament.engine.scheduling.day import DayGame, reflow
from tournament.engine.scheduling.stage_clock import (
    Court,
    Earliest,
    Groups,
    Timed,
    dependency_order,
    earliest_court,
    earliest_start,
    may_hold,
)

LENGTH, CHANGE = 15, 5
CLOCK = Clock(570, LENGTH, CHANGE, lunch=(720, 765))  # 09:30, lunch 12:00–12:45

# Two groups of a division: A (teams 1–3) on court 1, B (teams 4–6) on court 2; group C (7–9)
# belongs to it too. Game keys: 11–13 group A, 21–23 group B, 31–33 group C.
GROUPS = Groups(
    {1: (11, 12, 13), 2: (21, 22, 23), 3: (31, 32, 33)},
    {1: frozenset({1, 2, 3}), 2: frozenset({4, 5, 6}), 3: frozenset({7, 8, 9})},
)


def games(delays=None, late=None):
    """The group games, each ``(start, teams)``; ``delays``: key -> minutes later (a court
    running late); ``late``: extra games ``{key: (start, teams)}`` (a late team's)."""
    plan = {
        11: (570, {1, 2}),
        12: (590, {1, 3}),
        13: (610, {2, 3}),
        21: (570, {4, 5}),
        22: (590, {4, 6}),
        23: (610, {5, 6}),
        31: (570, {7, 8}),
        32: (590, {7, 9}),
        33: (650, {8, 9}),
    }
    plan.update(late or {})
    found = {}
    for key, (start, teams) in plan.items():
        start += (delays or {}).get(key, 0)
        found[key] = Timed(start, start + LENGTH, frozenset(teams))
    return found


def rest_rule(team):
    return LENGTH  # a rest-rule division: one game's length between a team's games


def changeover(team):
    return CHANGE


def start_of(references, teams=None, known=None, rest=changeover, groups=GROUPS, holds=None):
    holds = holds or {}
    teams = teams if teams is not None else frozenset().union(*(may_hold(r, groups, holds) for r in references if r))
    return earliest_start(references, teams, groups, known or games(), rest, change=CHANGE)


@pytest.mark.parametrize(
    ("case", "references", "rest", "delays", "expected"),
    [
        # knockout: a group winner waits for the whole group, not only its own games
        ("semifinal A1 v B2", ("group:1:1", "group:2:2"), changeover, None, Earliest(630, 13, 2)),
        ("semifinal, rest rule", ("group:1:1", "group:2:2"), rest_rule, None, Earliest(640, 13, 2)),
        # court 1 runs 40 minutes late: the semifinal on court 2 waits for it (the reported day)
        ("court 1 runs late", ("group:1:1", "group:2:2"), changeover, {11: 40, 12: 40, 13: 40}, Earliest(670, 13, 2)),
        # "best 2nd" waits for every group it compares (group C ends at 11:05)
        ("best runner-up", ("group:1:1", "best:2:1"), changeover, None, Earliest(670, 33, 8)),
        ("best runner-up, C late", ("group:1:1", "best:2:1"), rest_rule, {33: 20}, Earliest(700, 33, 8)),
        # placement: 3位決定戦 A-B waits for groups A and B only, not C
        ("placement A3 v B3", ("group:1:3", "group:2:3"), changeover, None, Earliest(630, 13, 2)),
        ("placement, B late", ("group:1:3", "group:2:3"), rest_rule, {23: 30}, Earliest(670, 23, 5)),
        # both: the knockout of the winners and the placement games of the others each wait
        # for their own groups
        ("both: knockout C1 v A1", ("group:3:1", "group:1:1"), changeover, None, Earliest(670, 33, 8)),
        ("both: placement A2 v B2", ("group:1:2", "group:2:2"), changeover, None, Earliest(630, 13, 2)),
        ("a side fixed by hand", ("", "group:2:1"), changeover, None, Earliest(630, 23, 5)),
    ],
)
def test_the_earliest_start_from_what_decides_the_slots(case, references, rest, delays, expected):
    assert start_of(references, rest=rest, known=games(delays)) == expected, case


def test_a_late_teams_games_are_waited_for_too():
    late = {14: (700, {1, 10}), 15: (720, {2, 10})}  # a late team 10 joined group A
    groups = Groups({**GROUPS.games, 1: (11, 12, 13, 14, 15)}, {**GROUPS.teams, 1: frozenset({1, 2, 3, 10})})
    found = start_of(("group:1:1", "group:2:2"), rest=rest_rule, known=games(late=late), groups=groups)
    assert found == Earliest(750, 15, 2)


def test_a_known_team_rests_after_its_own_games_only():
    # Groups A and B are complete: their winners are teams 1 and 4 (last games end 10:05).
    # The groups' last games (2 v 3, 5 v 6) end at 10:25: the semifinal waits for them with a
    # changeover, not with the rest of teams that are not in it.
    found = start_of(("group:1:1", "group:2:1"), teams=frozenset({1, 4}), rest=rest_rule)
    assert found == Earliest(630, 13, None)
    # Team 1's own game 1 v 3 moved last (10:30–10:45): now its rest counts.
    found = start_of(("group:1:1", "group:2:1"), teams=frozenset({1, 4}), rest=rest_rule, known=games({12: 40}))
    assert found == Earliest(660, 12, 1)


def test_a_final_waits_for_its_semifinals_and_the_rest_of_their_teams():
    known = games()
    known[41] = Timed(640, 655, frozenset({1, 2, 3, 4, 5, 6}))
    known[42] = Timed(700, 715, frozenset({1, 2, 3, 4, 5, 6}))  # the other semifinal, on a late court
    holds = {41: known[41].teams, 42: known[42].teams}
    final = ("winner:41", "winner:42")
    assert start_of(final, known=known, holds=holds, rest=rest_rule) == Earliest(730, 42, 1)
    assert start_of(final, known=known, holds=holds) == Earliest(720, 42, 1)
    third = ("loser:41", "loser:42")
    assert start_of(third, known=known, holds=holds) == Earliest(720, 42, 1)


def test_the_bracket_is_placed_in_order():
    references = {
        50: ("winner:41", "winner:42"),
        49: ("loser:41", "loser:42"),
        42: ("group:2:1", "group:1:2"),
        41: ("group:1:1", "group:2:2"),
    }
    assert dependency_order(references) == [41, 42, 49, 50]
    with pytest.raises(ValueError, match="waits for itself"):
        dependency_order({1: ("winner:2", ""), 2: ("winner:1", "")})


@pytest.mark.parametrize(
    ("case", "earliest", "courts", "expected"),
    [
        ("the earliest free court", 630, [Court(1, 570, [(630, 645)]), Court(2, 570, [])], (2, 630)),
        ("a tie goes to the first court", 630, [Court(1, 570, []), Court(2, 570, [])], (1, 630)),
        # court 2 closed: only court 1 is given; its next gap after the changeover
        ("a closed court is not given", 630, [Court(1, 570, [(630, 645)])], (1, 650)),
        # a court opening late
        ("a court opening at 11:00", 630, [Court(3, 660, [])], (3, 660)),
        # the lunch break: a start at 11:50 would run into it, so 12:45
        ("after lunch when it would fall into it", 710, [Court(1, 570, [])], (1, 765)),
        ("no court open", 630, [], None),
    ],
)
def test_the_earliest_open_court(case, earliest, courts, expected):
    assert earliest_court(courts, earliest, LENGTH, CHANGE, [], CLOCK.fit) == expected, case


def test_a_team_it_holds_keeps_its_rest_on_the_court_chosen():
    busy = [([(630, 645)], LENGTH)]  # the team plays 10:30–10:45 elsewhere
    courts = [Court(1, 570, []), Court(2, 570, [])]
    assert earliest_court(courts, 620, LENGTH, CHANGE, busy, CLOCK.fit) == (1, 660)


def test_a_new_lunch_moves_the_games_in_it_and_those_after_them_on_the_court():
    games_ = [DayGame(1, 1, 690, (1, 2), False), DayGame(2, 1, 710, (3, 4), False), DayGame(3, 1, 730, (1, 3), False)]
    moved = reflow(games_, CLOCK, lambda team: CHANGE, LENGTH)
    assert moved == {1: 690, 2: 765, 3: 785}  # 11:50 would run into lunch: 12:45, then 13:05


def test_longer_games_keep_each_court_in_order_and_the_teams_apart_across_courts():
    clock = Clock(570, 25, CHANGE)
    games_ = [
        DayGame(1, 1, 570, (1, 2), False),
        DayGame(2, 2, 570, (3, 4), False),
        DayGame(3, 1, 590, (1, 3), False),
        DayGame(4, 2, 590, (2, 4), False),
    ]
    moved = reflow(games_, clock, lambda team: CHANGE, LENGTH)
    assert moved == {1: 570, 2: 570, 3: 600, 4: 600}


def test_a_started_game_stays_and_the_rest_rule_is_kept_as_it_was():
    clock = Clock(570, 20, CHANGE)
    games_ = [
        DayGame(1, 1, 570, (1, 2), True),  # started
        DayGame(2, 1, 590, (3, 4), False),
        DayGame(3, 2, 610, (1, 5), False),  # team 1 rested one game before: it still does
    ]
    moved = reflow(games_, clock, lambda team: 20, LENGTH)
    assert moved == {2: 595, 3: 610}
