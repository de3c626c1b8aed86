"""``earliest_free``: the earliest start of a moved or new game, exact in minutes (issue 15
acceptance items 5 and 6; docs/rules/scheduling-standings-seeding.md, §5)."""

from tournament.engine.scheduling.clock import Clock
from tournament.engine.scheduling.day import earliest_free

CLOCK = Clock(570, 15, 5, lunch=(720, 765))  # 09:30, 15-minute games, lunch 12:00–12:45


def test_an_empty_court_and_free_teams_start_at_the_earliest_minute():
    assert earliest_free(600, 15, [], 5, [], CLOCK.fit) == 600


def test_a_game_fits_a_gap_of_the_court_with_its_changeovers():
    court = [(570, 585), (630, 645)]
    assert earliest_free(570, 15, court, 5, [], CLOCK.fit) == 590  # 09:50–10:05, 5 before 10:30
    assert earliest_free(570, 15, [(570, 585), (605, 620)], 5, [], CLOCK.fit) == 625  # the gap is too short


def test_each_team_keeps_its_gap():
    team = ([(570, 585)], 15)  # a rest-rule team: a game's length between its games
    assert earliest_free(570, 15, [], 5, [team], CLOCK.fit) == 600


def test_never_in_the_lunch_break():
    assert earliest_free(710, 15, [], 5, [], CLOCK.fit) == 765
    assert earliest_free(705, 15, [], 5, [], CLOCK.fit) == 705  # ends exactly when lunch starts
