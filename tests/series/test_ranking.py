"""The series ranking over two local events and imported places (docs/rules/series.md): per
division and per club, ties and their tie-break, explanations, merged club spellings, the
Excel workbook, the PDF and the series_standings command."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from openpyxl import load_workbook

from series import services
from series.exports import series_workbook
from series.models import ImportedPlacing, Series
from series.paper import series_pdf
from series.ranking import rank_text, series_standings
from tests.workbook_numbers import numbers_as_text


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def series(two_events):
    north, final = two_events
    series = services.create_series(None, "hitachi-2027", "日立市かるたシリーズ", 2027, "10,7,5,3,2,1")
    services.add_event(series, north, "qualifier", "北部")
    services.add_event(series, final, "final")
    south = {"series": series, "source_key": "laptop-2:7", "source": "第3回 南部地区予選", "district": "南部"}
    south["event_date"] = datetime.date(2027, 1, 17)
    for place, team, club in [(1, "宮田A", "宮田子ども会"), (2, "会瀬A", "会瀬小"), (3, "中小路C", "中小路小")]:
        ImportedPlacing.objects.create(division="小学生の部", place=place, team=team, club=club, **south)
    return series


def table(rows):
    return [(rank_text(r), r.name, r.points) for r in rows]


def test_the_division_ranking_adds_local_and_imported_places_and_splits_ties_by_more_first_places(series, english):
    standings = series_standings(series)
    (division,) = standings.divisions
    assert division.name == "小学生の部"
    assert table(division.rows) == [
        ("1", "大みかA", 17),
        ("2", "中小路A", 15),
        ("3", "助川A", 12),
        ("4", "宮田A", 10),  # 10 points with a 1st place ahead of 中小路B's 10 from two 3rd places
        ("5", "中小路B", 10),
        ("6", "会瀬A", 7),
        ("7", "中小路C", 5),
    ]
    assert [label for label, _date in standings.events] == ["北部 qualifier", "南部 qualifier", "Final tournament"]
    rows = {r.name: r for r in division.rows}
    assert standings.explain(rows["大みかA"]) == "北部 qualifier Runner-up 7 + Final tournament Champion 10 = 17"
    # joint third at the final (no third-place game): both semifinal losers get 3rd place's 5 points
    assert standings.explain(rows["中小路B"]) == "北部 qualifier 3rd place 5 + Final tournament 3rd place 5 = 10"


def test_the_explanation_in_japanese(series):
    with translation.override("ja"):
        standings = series_standings(series)
        row = next(r for r in standings.divisions[0].rows if r.name == "中小路A")
        assert standings.explain(row) == "北部予選 優勝 10 + 決勝大会 第3位 5 = 15"


def test_merging_two_spellings_of_a_club_changes_the_club_ranking_and_splitting_undoes_it(series, english):
    before = table(series_standings(series).clubs)
    assert before[:3] == [("1", "大みか子ども会", 17), ("2", "日立市立中小路小学校", 15), ("3", "中小路小", 15)]
    services.merge_spellings("日立市立中小路小学校", "中小路小")
    standings = series_standings(series)
    assert table(standings.clubs)[:2] == [("1", "日立市立中小路小学校", 30), ("2", "大みか子ども会", 17)]
    merged = standings.clubs[0]
    assert standings.club_explain(merged) == (
        "北部 qualifier 小学生の部 Champion 10 + 北部 qualifier 小学生の部 3rd place 5 + "
        "南部 qualifier 小学生の部 3rd place 5 + Final tournament 小学生の部 3rd place 5 + "
        "Final tournament 小学生の部 3rd place 5 = 30"
    )
    # the teams' affiliations are never rewritten
    assert set(series.members.get(role="final").event.divisions.get().teams.values_list("affiliation", flat=True)) >= {
        "日立市立中小路小学校",
        "中小路小",
    }
    services.split_spelling("中小路小")
    assert table(series_standings(series).clubs)[:3] == before[:3]


def test_equal_clubs_on_points_and_places_share_the_rank(db, english):
    series = services.create_series(None, "tie", "同点", 2027, "10,7,5")
    for place, team, club in [(1, "A", "甲"), (1, "B", "乙"), (3, "C", "丙")]:
        ImportedPlacing.objects.create(
            series=series, source_key=f"k{team}", source="大会", division="一般の部", place=place, team=team, club=club
        )
    assert table(series_standings(series).clubs) == [("1=", "乙", 10), ("1=", "甲", 10), ("3", "丙", 5)]


def test_a_bad_points_table_is_refused_naming_the_entry(db, english):
    with pytest.raises(services.UserError, match="entry 3 「x」 is not a whole number"):
        services.create_series(None, "bad", "悪い表", 2027, "10,7,x")
    assert not Series.objects.exists()


def test_the_workbook_opens_with_openpyxl(series):
    with translation.override("ja"):
        data = series_workbook(series_standings(series))
    assert numbers_as_text(data) == []  # issue 34 item 4
    wb = load_workbook(io.BytesIO(data))
    assert wb.sheetnames[0] == "小学生の部"
    rows = list(wb["小学生の部"].iter_rows(values_only=True))
    assert rows[1][:4] == (1, "大みかA", "大みか子ども会", 17)  # a number where the rank is not shared
    assert rows[1][-1] == "北部予選 準優勝 7 + 決勝大会 優勝 10 = 17"
    clubs = list(wb[wb.sheetnames[1]].iter_rows(values_only=True))
    assert clubs[1][:3] == (1, "大みか子ども会", 17)
    points = [r for r in wb[wb.sheetnames[2]].iter_rows(values_only=True) if r[0] is not None]
    assert ("北部予選", datetime.datetime(2027, 1, 10)) in points or any(r[0] == "北部予選" for r in points)


def test_the_pdf_prints(series, tmp_path):
    with translation.override("ja"):
        data = series_pdf(series_standings(series))
    assert data.startswith(b"%PDF")
    (tmp_path / "ranking.pdf").write_bytes(data)


def test_the_command_prints_the_ranking_or_writes_the_workbook(series, tmp_path):
    out = io.StringIO()
    call_command("series_standings", "hitachi-2027", stdout=out)
    text = out.getvalue()
    assert "points per place 10,7,5,3,2,1" in text
    assert (
        "1 大みかA (大みか子ども会): 17 points — 北部 qualifier Runner-up 7 + Final tournament Champion 10 = 17" in text
    )
    assert "Clubs" in text
    target = tmp_path / "ranking.xlsx"
    out = io.StringIO()
    call_command("series_standings", "hitachi-2027", "-o", str(target), stdout=out)
    assert "written to" in out.getvalue()
    assert load_workbook(target).sheetnames[0] == "小学生の部"
    with pytest.raises(CommandError, match="No series"):
        call_command("series_standings", "nope")


def test_divisions_match_across_events_by_their_name_key(series, english):
    ImportedPlacing.objects.create(
        series=series,
        source_key="laptop-3:1",
        source="東部予選",
        division="小学生　の部",
        place=1,
        team="東A",
        club="東小",
    )
    ImportedPlacing.objects.create(
        series=series,
        source_key="laptop-3:1",
        source="東部予選",
        division="中学生の部",
        place=1,
        team="東B",
        club="東小",
    )
    standings = series_standings(series)
    assert [d.name for d in standings.divisions] == ["小学生の部", "中学生の部"]
    assert "東A" in [r.name for r in standings.divisions[0].rows]
    club = next(r for r in standings.clubs if r.name == "東小")
    assert club.points == 20 and "中学生の部" in standings.club_explain(club)
