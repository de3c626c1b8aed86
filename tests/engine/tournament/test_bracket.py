"""The knockout bracket plan as a pure engine: games per round, byes, the third-place game."""

import pytest

from tournament.engine.bracket import BracketMatch, Feeder, plan_bracket


def test_four_qualifiers_make_two_semifinals_a_final_and_a_third_place_match():
    rounds = plan_bracket([1, 4, 2, 3], third_place_game=True)
    assert [r.size for r in rounds] == [2, 1]
    assert rounds[0].matches == (BracketMatch(0, 1, 4), BracketMatch(1, 2, 3))
    assert rounds[1].matches == (BracketMatch(0, Feeder(0), Feeder(1)),)
    assert rounds[1].third_place == BracketMatch(0, Feeder(0), Feeder(1))


def test_without_the_setting_there_is_no_third_place_match():
    rounds = plan_bracket([1, 4, 2, 3], third_place_game=False)
    assert rounds[-1].third_place is None


def test_a_bye_sends_the_top_seed_straight_to_the_next_round_and_no_third_place_match_is_possible():
    rounds = plan_bracket([1, None, 2, 3], third_place_game=True)
    assert rounds[0].matches == (BracketMatch(1, 2, 3),)
    assert rounds[1].matches == (BracketMatch(0, 1, Feeder(0)),)
    assert rounds[1].third_place is None  # a semifinal against a bye has no loser


@pytest.mark.parametrize(
    ("lineup", "matches_per_round"),
    [
        ([1, 2], [1]),
        ([1, 8, 4, 5, 2, 7, 3, 6], [4, 2, 1]),
        ([1, None, 4, 5, 2, None, 3, 6], [2, 2, 1]),
        ([1, None, 8, 9, 4, None, 5, None, 2, None, 7, None, 3, None, 6, None], [1, 4, 2, 1]),
    ],
)
def test_each_round_has_one_match_per_pair_that_is_not_a_bye(lineup, matches_per_round):
    rounds = plan_bracket(lineup, third_place_game=False)
    assert [len(r.matches) for r in rounds] == matches_per_round
    assert rounds[-1].size == 1


@pytest.mark.parametrize("lineup", [[], [1], [1, 2, 3], [None, None, 1, 2]])
def test_a_line_up_that_is_not_a_bracket_is_refused(lineup):
    with pytest.raises(ValueError, match="power-of-two|two byes"):
        plan_bracket(lineup, third_place_game=False)
