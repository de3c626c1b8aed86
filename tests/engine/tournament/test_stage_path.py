"""The stage path of a group's places (tournament.engine.stage_path), as tables."""

import pytest

from tournament.engine.stage_path import Planned, SlotGame, Step, planned_steps, steps_for_group

GAMES = [
    SlotGame(20, 2, ("group:1:1", "group:2:2")),  # semifinal 1
    SlotGame(21, 3, ("group:2:1", "group:1:2")),  # semifinal 2
    SlotGame(22, 4, ("winner:20", "winner:21")),  # final: fed, no group place
    SlotGame(23, 1, ("group:1:3", "group:2:3")),  # placement game at place 3
]


@pytest.mark.parametrize(
    ("group", "size", "expected"),
    [
        (1, 3, [Step(1, 0, 20, "group:1:1"), Step(2, 0, 21, "group:1:2"), Step(3, 0, 23, "group:1:3")]),
        (2, 3, [Step(1, 0, 21, "group:2:1"), Step(2, 0, 20, "group:2:2"), Step(3, 0, 23, "group:2:3")]),
        (1, 2, [Step(1, 0, 20, "group:1:1"), Step(2, 0, 21, "group:1:2")]),  # no third place: no third step
        (9, 3, []),  # a group no game names
    ],
)
def test_each_place_of_a_group_leads_to_the_game_naming_it(group, size, expected):
    assert steps_for_group(group, size, GAMES) == expected


def test_a_best_of_place_is_a_step_for_every_group_and_a_bad_reference_is_skipped():
    games = [SlotGame(30, 1, ("group:1:1", "best:2:1")), SlotGame(31, 2, ("group:2:1", "nonsense"))]
    assert steps_for_group(2, 3, games) == [Step(1, 0, 31, "group:2:1"), Step(2, 1, 30, "best:2:1")]


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        # two groups of three, two through each: a bracket of four, semifinals first
        (
            {"after_groups": "knockout", "quota": 2, "best_runners_up": 0},
            [Planned(1, "knockout", first_round_games=2), Planned(2, "knockout", first_round_games=2)],
        ),
        # one through each and the best runner-up: three qualifiers, a bracket of four
        (
            {"after_groups": "knockout", "quota": 1, "best_runners_up": 1},
            [Planned(1, "knockout", first_round_games=2), Planned(2, "knockout", 1, first_round_games=2)],
        ),
        # placement only: every place plays the same place of the paired group
        (
            {"after_groups": "placement", "quota": 1, "best_runners_up": 0},
            [Planned(p, "placement", opponent_group=2) for p in (1, 2, 3)],
        ),
        # both: the winners to the knockout (a final), the rest placement games
        (
            {"after_groups": "both", "quota": 1, "best_runners_up": 0},
            [Planned(1, "knockout", first_round_games=1)] + [Planned(p, "placement", opponent_group=2) for p in (2, 3)],
        ),
        ({"after_groups": "none", "quota": 1, "best_runners_up": 0}, []),
    ],
)
def test_before_the_games_exist_the_settings_say_where_each_place_goes(settings, expected):
    assert planned_steps(1, sizes=[(1, 3), (2, 3)], pairs=[(0, 1)], **settings) == expected


def test_an_unknown_group_has_no_planned_step():
    assert planned_steps(7, after_groups="knockout", quota=1, best_runners_up=0, sizes=[(1, 3)], pairs=[]) == []
