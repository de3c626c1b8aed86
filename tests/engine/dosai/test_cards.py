"""The Dôsai Karuta card table as data (dosai.engine.cards).

The expected values are copied from the sources (docs/rules/sanjo-dosai.md: the Andy's
Playing Cards page and s.3.2); the tests do not read that file. The "club set"
values used below to complete an edition are fictional stand-ins that fit the class counts:
they are test data, never part of the module.
"""

import ast
import sys

import pytest

from dosai.engine import calls, cards, facts, hand, options, settlement
from dosai.engine.cards import (
    MATSUI_CLASS_COUNTS,
    MATSUI_CLASS_COUNTS_FULL_DECK,
    MATSUI_TENGUDO,
    Edition,
    Subject,
    blank_edition,
    check_edition,
    points_in_play,
    ready_to_play,
)
from dosai.engine.facts import IN_PLAY
from dosai.engine.hand import house_in_dealt_order, new_hand

# Every value the sources give for the Matsui Tengudô set, and which one gives it.
KNOWN = {
    # sanjo-dosai.md l.21, l.25 (and TK2): the four generals
    10: 20, 38: 15, 2: 15, 19: 15,
    # sanjo-dosai.md l.29–30:
    # "no.20 (10 points), no.51 (4 points), no.32 (3 points), no.44 (2 points), no.42 (1 point)"
    20: 10, 51: 4, 32: 3, 44: 2, 42: 1,
    # sanjo-dosai.md l.16: "number 59, worth 2 points"; sanjo-dosai.md l.81: no. 41 pays "two points"
    59: 2, 41: 2,
    # TK2, named class members (sanjo-dosai.md s.3.2)
    5: 10, 21: 10, 26: 10, 28: 10, 36: 10, 37: 10, 12: 4, 3: 3, 1: 2, 11: 1,
}  # fmt: skip
FROM_SEED = {10, 38, 2, 19, 20, 51, 32, 44, 42, 59, 41}


def club_fill(edition=MATSUI_TENGUDO, counts=None):
    """Fictional club values for the unknown efuda in play, in number order: as many of
    each class as are still missing (5 × 4, 8 × 3, 13 × 2, 13 × 1 for Matsui)."""
    counts = counts or {4: 5, 3: 8, 2: 13, 1: 13}
    values = [p for p, c in counts.items() for _ in range(c)]
    return dict(zip(edition.unknown_in_play, values, strict=True))


def test_the_edition_has_62_subjects_and_60_in_play():
    assert [s.number for s in MATSUI_TENGUDO.subjects] == list(range(1, 63))
    assert {s.number for s in MATSUI_TENGUDO.subjects if not s.in_play} == {8, 23}
    assert sum(s.in_play for s in MATSUI_TENGUDO.subjects) == 60


def test_only_the_values_given_by_the_sources_are_filled_in():
    filled = {s.number: s.points for s in MATSUI_TENGUDO.subjects if s.points is not None}
    assert filled == KNOWN
    assert len(MATSUI_TENGUDO.unknown_in_play) == 39
    assert MATSUI_TENGUDO.points(8) is None and MATSUI_TENGUDO.points(23) is None


def test_every_value_says_where_it_comes_from():
    for s in MATSUI_TENGUDO.subjects:
        assert (s.points is None) == (s.points_source is None), s.number
        if s.number in FROM_SEED:
            assert "seed" in s.points_source and " l." in s.points_source, s.number
        elif s.points is not None:
            assert s.points_source.startswith("TK2"), s.number


def test_the_class_counts_follow_the_d1_reading():
    assert dict(MATSUI_CLASS_COUNTS) == {20: 1, 15: 3, 10: 7, 4: 7, 3: 10, 2: 17, 1: 15}
    assert sum(MATSUI_CLASS_COUNTS.values()) == 60
    assert sum(p * c for p, c in MATSUI_CLASS_COUNTS.items()) == 242
    # sanjo-dosai.md l.32–44: 19 two-point subjects and 246 points in the 62-card deck
    assert sum(MATSUI_CLASS_COUNTS_FULL_DECK.values()) == 62
    assert sum(p * c for p, c in MATSUI_CLASS_COUNTS_FULL_DECK.items()) == 246


def test_known_values_fit_their_classes():
    for points, count in MATSUI_CLASS_COUNTS.items():
        assert sum(1 for v in KNOWN.values() if v == points) <= count


def test_special_cards_and_titles():
    e = MATSUI_TENGUDO
    assert {s.number for s in e.subjects if s.bakefuda} == {30, 33, 54, 61}
    assert {s.number for s in e.subjects if s.end_free} == {46, 50}
    assert [s.number for s in e.subjects if s.never_eaten] == [2]
    titles = {s.title: s.number for s in e.subjects if s.title}
    assert titles == {"first general": 10, "second general": 38, "third general": 2, "fourth general": 19}


def test_proverbs_are_given_as_far_as_the_sources_give_them():
    e = MATSUI_TENGUDO
    assert e.subject(10).proverb == "是に懲りよ道才坊"
    assert e.subject(33).proverb == "猫に小判" and e.subject(33).gloss == "a gold coin to a cat"
    assert e.subject(2).proverb == "朝日に霜"
    assert e.subject(59).proverb is None and "three men" in e.subject(59).gloss
    assert {s.number for s in e.subjects if s.proverb is None} == {43, 44, 45, 48, 49, 51, 52, 56, 59}
    assert "not confirmed" in e.subject(50).text_source


def test_the_matsui_table_is_not_ready_and_says_what_is_missing():
    problems = check_edition(MATSUI_TENGUDO)
    assert len(problems) == 1
    assert problems[0].startswith("39 of the 60 efuda in play have no value yet: nos. 4, 6, 7, 9,")
    listed = [int(n) for n in problems[0].split("nos. ")[1].split(". Enter")[0].split(", ")]
    assert listed == list(MATSUI_TENGUDO.unknown_in_play) and not {8, 23} & set(listed)
    assert "5 of 4 points, 8 of 3 points, 13 of 2 points, 13 of 1 point" in problems[0]
    assert not ready_to_play(MATSUI_TENGUDO)
    with pytest.raises(ValueError, match="Matsui Tengudô is not ready to play: 39 of the 60"):
        points_in_play(MATSUI_TENGUDO)


def test_a_hand_can_start_once_the_club_has_entered_every_value():
    complete = MATSUI_TENGUDO.with_points(club_fill(), source="club set (test)")
    assert check_edition(complete) == []
    assert ready_to_play(complete)
    table = points_in_play(complete)
    assert set(table) == IN_PLAY and sum(table.values()) == 242
    assert complete.subject(4).points_source == "club set (test)"
    assert complete.subject(10).points_source == MATSUI_TENGUDO.subject(10).points_source
    houses = [house_in_dealt_order(str(i + 1), sorted(IN_PLAY)[10 * i : 10 * i + 10]) for i in range(6)]
    state = new_hand(houses, table)
    assert state.points[4] == complete.points(4)
    # the original edition is unchanged
    assert MATSUI_TENGUDO.points(4) is None


def test_a_class_that_does_not_match_is_reported_clearly():
    fill = club_fill(counts={4: 6, 3: 7, 2: 13, 1: 13})
    problems = check_edition(MATSUI_TENGUDO.with_points(fill, source="club set (test)"))
    assert any(p.startswith("the 4-point class should have 7 efuda in play, but 8 have that value") for p in problems)
    assert any(p.startswith("the 3-point class should have 10 efuda in play, but 9 have that value") for p in problems)


def test_a_class_that_is_already_too_full_is_reported_while_values_are_missing():
    partial = MATSUI_TENGUDO.with_points({4: 10}, source="club set (test)")
    problems = check_edition(partial)
    assert any("the 10-point class should have 7 efuda in play, but 8" in p for p in problems)
    assert any("38 of the 60 efuda in play have no value yet" in p for p in problems)


def test_a_value_outside_the_classes_is_reported():
    fill = club_fill()
    fill[4] = 5
    problems = check_edition(MATSUI_TENGUDO.with_points(fill, source="club set (test)"))
    assert any("no. 4 has 5 points, which is not a class of Matsui Tengudô" in p for p in problems)


def test_the_values_of_8_and_23_do_not_count_in_the_check():
    complete = MATSUI_TENGUDO.with_points({**club_fill(), 8: 2, 23: 2}, source="club set (test)")
    assert ready_to_play(complete) and 8 not in points_in_play(complete)


@pytest.mark.parametrize(
    "values, source, message",
    [
        ({10: 15}, "club set", "no. 10 is 20 points per seed .*refusing to change it to 15"),
        ({4: 0}, "club set", "at least 1"),
        ({4: 2.5}, "club set", "whole number"),
        ({4: True}, "club set", "whole number"),
        ({63: 1}, "club set", "not a subject number"),
        ({4: 2}, " ", "say where the values come from"),
    ],
)
def test_with_points_refuses_bad_or_contradicting_values(values, source, message):
    with pytest.raises(ValueError, match=message):
        MATSUI_TENGUDO.with_points(values, source=source)


def test_with_points_accepts_a_value_equal_to_the_known_one():
    assert MATSUI_TENGUDO.with_points({10: 20}, source="club set").subject(10) == MATSUI_TENGUDO.subject(10)


def test_another_manufacturers_edition_starts_blank():
    other = blank_edition("Yamashiroya (club copy)")
    assert all(s.points is None for s in other.subjects)
    assert other.subject(33).proverb == "猫に小判"
    assert len(check_edition(other)) == 1 and "60 of the 60 efuda in play" in check_edition(other)[0]


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: Subject(4, points=3), "with its source"),
        (lambda: Subject(4, points_source="club"), "with its source"),
        (lambda: Subject(0), "not a subject number"),
        (lambda: Subject(4, points=-1, points_source="club"), "at least 1"),
        (lambda: Edition("x", MATSUI_TENGUDO.subjects[:61]), "nos. 1..62"),
        (lambda: Edition("x", MATSUI_TENGUDO.subjects, class_counts={20: 1, 1: 58}), "add up to 59"),
        (lambda: Edition("", MATSUI_TENGUDO.subjects), "needs a name"),
        (lambda: MATSUI_TENGUDO.subject(0), "not a subject number"),
        (lambda: check_edition({}), "expected an Edition"),
    ],
)
def test_invalid_data_raises_value_error_naming_the_problem(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def test_the_dosai_modules_import_nothing_but_the_standard_library_and_each_other():
    for module in (cards, facts, options, hand, calls, settlement):
        with open(module.__file__, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert name.startswith("dosai.engine") or top in sys.stdlib_module_names or top == "__future__", name
