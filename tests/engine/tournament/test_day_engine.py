"""Changes on the day in minutes (tournament.engine.scheduling.day and Clock.fit): delays that
keep order, changeover and lunch; refused early starts; games too close for a team.
Rules: docs/rules/scheduling-standings-seeding.md, §5."""

from __future__ import annotations

import pytest

from tournament.engine.scheduling import Clock
from tournament.engine.scheduling.day import CourtGame, TeamGame, TooEarly, free_at, shift_court, too_close

H = 60
# 9:00 start, 30-minute games, 5-minute changeover, lunch 12:00–13:00.
CLOCK = Clock(9 * H, 30, 5, lunch=(12 * H, 13 * H))


def games(*starts, fixed=()):
    return [CourtGame(i, s, s + 30, i in fixed) for i, s in enumerate(starts)]


@pytest.mark.parametrize(
    ("minute", "fitted"),
    [(9 * H, 9 * H), (11 * H + 30, 11 * H + 30), (11 * H + 31, 13 * H), (12 * H + 59, 13 * H), (13 * H, 13 * H)],
)
def test_fit_moves_a_start_that_would_overlap_lunch_to_its_end(minute, fitted):
    assert CLOCK.fit(minute) == fitted


def test_fit_without_lunch_keeps_the_minute_and_refuses_a_negative_one():
    assert Clock(540, 30, 5).fit(725) == 725
    with pytest.raises(ValueError):
        CLOCK.fit(-1)


def test_a_delay_moves_every_game_that_has_not_started_and_keeps_the_fixed_ones():
    court = games(540, 575, 610, fixed={0})
    assert shift_court(court, 15, CLOCK, 1) == {1: 590, 2: 625}


def test_a_delay_never_moves_a_game_into_lunch_and_the_games_after_keep_order_and_changeover():
    # 11:20 and 11:55 (lunch at 12:00), then 13:00 and 13:35 after lunch.
    court = games(680, 715, 780, 815)
    moved = shift_court(court, 10, CLOCK, 1)
    # 11:30 ends 12:00 (fine); 12:05 would be in lunch → 13:00; the next ones follow at +35.
    assert moved == {0: 690, 1: 780, 2: 815, 3: 850}
    assert all(not (s < 13 * H and s + 30 > 12 * H) for s in moved.values())


def test_a_negative_delay_is_refused_before_the_end_of_the_started_game_before_it():
    court = games(540, 575, 610, 645, fixed={0, 1})  # game 1 (9:35) ends 10:05
    with pytest.raises(TooEarly) as refused:
        shift_court(court, -10, CLOCK, 1)
    assert (refused.value.key, refused.value.limit, refused.value.before) == (2, 605, 1)


def test_a_negative_delay_is_refused_before_the_opening():
    with pytest.raises(TooEarly) as refused:
        shift_court(games(545, 580, 615), -90, CLOCK, 1)
    assert (refused.value.key, refused.value.limit, refused.value.before) == (0, 540, None)


def test_a_negative_delay_within_the_gap_moves_back():
    court = games(540, 600, 635, fixed={0})  # a 25-minute gap after game 0 (ends 9:30)
    assert shift_court(court, -20, CLOCK, 1) == {1: 580, 2: 615}


def test_a_court_that_opens_late_refuses_a_start_before_its_opening():
    clock = Clock(540, 30, 5, court_start={2: 600})
    with pytest.raises(TooEarly) as refused:
        shift_court(games(600, 635), -5, clock, 2)
    assert refused.value.limit == 600 and refused.value.before is None


def test_too_close_names_back_to_back_games_for_rest_teams_and_overlaps_for_all():
    played = [
        TeamGame(1, 10, 540, 570),
        TeamGame(1, 11, 575, 605),  # team 1 (rest rule): 5 minutes after its game → too close
        TeamGame(2, 12, 540, 570),
        TeamGame(2, 13, 575, 605),  # team 2 (no rest rule): fine
        TeamGame(3, 14, 540, 570),
        TeamGame(3, 15, 560, 590),  # team 3: two places at once
        TeamGame(4, 16, 540, 570),
        TeamGame(4, 17, 610, 640),  # team 4 (rest rule): 40 minutes of rest → fine
    ]
    assert too_close(played, {1: 30, 4: 30}) == {(1, 10, 11), (3, 14, 15)}


def test_free_at_keeps_a_gap_around_other_games():
    busy = [(540, 570), (610, 640)]
    assert free_at(575, 30, busy, 5) is True  # 9:35–10:05 fits between, 5 minutes each side
    assert free_at(576, 30, busy, 5) is False
    assert free_at(570, 30, busy, 30) is False
