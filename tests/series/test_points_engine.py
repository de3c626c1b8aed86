"""The points engine (series/engine/points.py), table by table (docs/rules/series.md)."""

import pytest

from series.engine.points import Entry, PointsTableError, explain, parse_table, points_for, rank_entries

TABLE = (10, 7, 5, 3, 2, 1)


@pytest.mark.parametrize(
    ("text", "table"),
    [
        ("10,7,5,3,2,1", (10, 7, 5, 3, 2, 1)),
        (" 10 , 7 ,5 ", (10, 7, 5)),
        ("１０、７、５", (10, 7, 5)),
        ("10，7", (10, 7)),
        ("5", (5,)),
        ("3,3,0", (3, 3, 0)),
    ],
)
def test_a_table_is_read(text, table):
    assert parse_table(text) == table


@pytest.mark.parametrize(
    ("text", "code", "position", "item"),
    [
        ("", "empty", 0, ""),
        ("   ", "empty", 0, ""),
        ("10,7,x", "not_a_number", 3, "x"),
        ("10,,5", "not_a_number", 2, ""),
        ("10,-1", "not_a_number", 2, "-1"),
        ("10,7.5", "not_a_number", 2, "7.5"),
        ("5,7", "increasing", 2, "7"),
        ("1001", "too_large", 1, "1001"),
        (",".join(["1"] * 33), "too_long", 33, "1"),
    ],
)
def test_a_bad_table_names_the_bad_item(text, code, position, item):
    with pytest.raises(PointsTableError) as caught:
        parse_table(text)
    assert (caught.value.code, caught.value.position, caught.value.item) == (code, position, item)


@pytest.mark.parametrize(("place", "points"), [(1, 10), (2, 7), (3, 5), (6, 1), (7, 0), (99, 0), (0, 0)])
def test_points_by_place_and_zero_beyond_the_table(place, points):
    assert points_for(place, TABLE) == points


def entry(team, event, place, order=0, club="", division=""):
    return Entry(entrant=team, name=team, event=event, place=place, order=order, club=club, division=division)


def test_joint_third_places_both_score_the_third_place_points():
    rows = rank_entries(
        [entry("A", "予選", 1), entry("B", "予選", 2), entry("C", "予選", 3), entry("D", "予選", 3)], TABLE
    )
    assert [(r.name, r.points, r.rank, r.tied) for r in rows] == [
        ("A", 10, 1, False),
        ("B", 7, 2, False),
        ("C", 5, 3, True),
        ("D", 5, 3, True),
    ]


def test_points_add_up_over_events_and_the_explanation_follows_the_series_order():
    rows = rank_entries([entry("A", "決勝大会", 3, order=2), entry("A", "北部予選", 1, order=1)], TABLE)
    (row,) = rows
    assert row.points == 15
    names = {1: "優勝", 2: "準優勝"}
    assert explain(row, lambda p: names.get(p, f"第{p}位")) == "北部予選 優勝 10 + 決勝大会 第3位 5 = 15"


def test_equal_points_are_split_by_more_first_places_then_more_second_places():
    # A: 1st + 6th = 11; B: 2nd + 4th... = 7 + 3 + 1 = 11 with no 1st: A ahead.
    entries = [entry("A", "e1", 1), entry("A", "e2", 6), entry("B", "e1", 2), entry("B", "e2", 4), entry("B", "e3", 6)]
    rows = rank_entries(entries, TABLE)
    assert [(r.name, r.points, r.rank, r.tied) for r in rows] == [("A", 11, 1, False), ("B", 11, 2, False)]
    # C and D: 7 + 5 = 12 each, one 2nd and one 3rd each: a tie, listed by name, next rank skipped.
    entries = [entry(n, e, p) for n in ("D", "C") for e, p in (("e1", 2), ("e2", 3))] + [entry("E", "e1", 4)]
    rows = rank_entries(entries, TABLE)
    assert [(r.name, r.rank, r.tied) for r in rows] == [("C", 1, True), ("D", 1, True), ("E", 3, False)]


def test_a_place_beyond_the_table_scores_zero_but_is_listed_and_counts_for_the_countback():
    rows = rank_entries([entry("A", "e1", 8), entry("B", "e1", 9)], TABLE)
    assert [(r.name, r.points, r.rank) for r in rows] == [("A", 0, 1), ("B", 0, 2)]
    assert explain(rows[0], str) == "e1 8 0 = 0"


def test_a_clubs_explanation_names_the_division():
    rows = rank_entries(
        [entry("中小路", "北部予選", 1, division="小学生の部"), entry("中小路", "北部予選", 2, division="中学生の部")],
        TABLE,
    )
    assert (
        explain(rows[0], lambda p: f"{p}位", with_division=True)
        == "北部予選 小学生の部 1位 10 + 北部予選 中学生の部 2位 7 = 17"
    )


def test_no_entries_no_rows():
    assert rank_entries([], TABLE) == []
