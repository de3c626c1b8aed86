"""Records across editions (series.engine.records), as tables: club records, runs of titles,
appearances and the 記念大会 (docs/rules/records.md)."""

import datetime

import pytest

from series.engine.records import Anniversary, Placing, Streak, anniversary, appearances, club_records, streaks


def p(club, edition, place, year, division="小学生の部", tournament="hitachi"):
    return Placing(club, tournament, edition, datetime.date(year, 1, 17), year - 1987, division, division, place)


EDITIONS = [
    p("red", "e38", 1, 2025),
    p("blue", "e38", 2, 2025),
    p("red", "e39", 1, 2026),
    p("blue", "e39", 3, 2026),
    p("red", "e40", 1, 2027),
    p("blue", "e40", 2, 2027),
    p("blue", "e40", None, 2027, division="一般の部"),  # took part, no place yet
]


def test_a_club_record_counts_editions_titles_best_and_places_per_division():
    red, blue = club_records(EDITIONS, {"blue": (2, 1)})
    assert (red.club, red.editions, red.titles, red.best) == ("red", 3, 3, {"小学生の部": 1})
    assert (blue.club, blue.editions, blue.titles, blue.best) == ("blue", 3, 0, {"小学生の部": 2})
    assert blue.places == {"小学生の部": [("e38", 2), ("e39", 3), ("e40", 2)]}
    assert (blue.joker_wins, blue.rps_wins, red.joker_wins) == (2, 1, 0)


def test_a_club_with_only_deciders_is_listed_too():
    (only,) = club_records([], {"green": (1, 0)})
    assert (only.club, only.editions, only.joker_wins) == ("green", 0, 1)


@pytest.mark.parametrize(
    ("winners", "expected"),
    [
        # three in a row, still running
        (["red", "red", "red"], [Streak("hitachi", "小学生の部", "小学生の部", "red", 3, "e1", "e3", True)]),
        # broken by another club: the run of two ended at e2
        (["red", "red", "blue"], [Streak("hitachi", "小学生の部", "小学生の部", "red", 2, "e1", "e2", False)]),
        # alternating: no run
        (["red", "blue", "red"], []),
        # two runs, the longer first
        (
            ["blue", "blue", "red", "red", "red"],
            [
                Streak("hitachi", "小学生の部", "小学生の部", "red", 3, "e3", "e5", True),
                Streak("hitachi", "小学生の部", "小学生の部", "blue", 2, "e1", "e2", False),
            ],
        ),
    ],
)
def test_runs_of_titles(winners, expected):
    placings = [p(club, f"e{i}", 1, 2020 + i) for i, club in enumerate(winners, start=1)]
    assert streaks(placings) == expected


def test_joint_champions_keep_each_club_s_run_and_divisions_are_apart():
    placings = [
        p("red", "e1", 1, 2021),
        p("blue", "e1", 1, 2021),
        p("red", "e2", 1, 2022),
        p("blue", "e2", 1, 2022),
        p("red", "e1", 1, 2021, division="一般の部"),
        p("blue", "e2", 1, 2022, division="一般の部"),
    ]
    found = {(s.division, s.club, s.length) for s in streaks(placings)}
    assert found == {("小学生の部", "red", 2), ("小学生の部", "blue", 2)}


def test_most_appearances_counts_editions_once_per_club():
    assert appearances(EDITIONS) == [("blue", 3), ("red", 3)]
    assert appearances(EDITIONS + [p("green", "x1", 1, 2027, tournament="other")], "other") == [("green", 1)]


@pytest.mark.parametrize(
    ("number", "expected"),
    [
        (40, Anniversary(40, True, 4, 50)),
        (39, Anniversary(39, False, 3, 40)),
        (10, Anniversary(10, True, 1, 20)),
        (1, Anniversary(1, False, 0, 10)),
    ],
)
def test_the_anniversary_edition(number, expected):
    assert anniversary(number) == expected


def test_an_edition_below_one_is_refused():
    with pytest.raises(ValueError):
        anniversary(0)
