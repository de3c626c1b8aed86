"""Issue 18, item 6 (and the import parts of item 5): entry workbooks as clubs really fill them.

Every workbook is made here with openpyxl: a hidden sheet of last year, hidden and filtered
rows, a club merged down over its teams, "6-1" turned into a date, the 引率者 column, a
300-character team name, a player in two teams; and the template written as text.
"""

import datetime
import io
import itertools
import zipfile

import pytest
from django.utils import translation
from openpyxl import Workbook, load_workbook

from tournament.imports import TEMPLATE_LABELS, TEMPLATE_SHEET, entry_template_workbook, parse_entry_workbook
from tournament.imports.template import TEXT_FORMAT


@pytest.fixture(autouse=True)
def english_messages():
    with translation.override("en"):
        yield


LOW = "小学生低学年の部"
HEADER = list(TEMPLATE_LABELS)  # A 部門, B チーム名, C 所属, D-O players, P 引率者


_NUMBERS = itertools.count(1)


def team_row(name, affiliation="みなと子ども会", *, players=None, chaperone=None):
    """A team of three; by default three players no other row has."""
    if players is None:
        players = [f"選手{next(_NUMBERS)}" for _ in range(3)]
    cells = [LOW, name, affiliation]
    for player in players:
        cells += [player, None, "2年"]
    cells += [None, None, None]  # substitute
    cells.append(chaperone)
    return cells


def save(wb: Workbook) -> bytes:
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def sheet_with(rows, wb=None, title="申込書"):
    if wb is None:
        wb = Workbook()
        ws = wb.active
    else:
        ws = wb.create_sheet()
    ws.title = title
    for row in rows:
        ws.append(row)
    return wb, ws


def messages(items):
    return [(p.row, p.column, p.message) for p in items]


# -- the sheet read ---------------------------------------------------------------------------


def test_a_hidden_first_sheet_of_last_year_is_not_read_and_the_preview_names_the_sheet():
    wb, last_year = sheet_with([HEADER, team_row("去年のチーム")], title="2026")
    last_year.sheet_state = "hidden"
    sheet_with([HEADER, team_row("今年のチーム")], wb, title="2027")
    wb.active = 1
    result = parse_entry_workbook(save(wb))
    assert result.ok, messages(result.problems)
    assert result.sheet == "2027"
    assert [t.name for t in result.teams] == ["今年のチーム"]
    assert result.other_sheets == ["2026 (hidden)"]  # named, never read


def test_the_active_sheet_is_read_and_other_entry_sheets_are_listed():
    wb, _ = sheet_with([HEADER, team_row("一組")], title="A組")
    sheet_with([HEADER, team_row("二組")], wb, title="B組")
    sheet_with([["メモ"]], wb, title="メモ")
    wb.active = 1
    result = parse_entry_workbook(save(wb))
    assert result.sheet == "B組"
    assert [t.name for t in result.teams] == ["二組"]
    assert result.other_sheets == ["A組"]


# -- hidden and filtered-out rows -------------------------------------------------------------


def test_hidden_rows_are_skipped_and_listed_as_warnings():
    wb, ws = sheet_with([HEADER, team_row("見える組"), team_row("隠した組"), team_row("最後の組")])
    ws.row_dimensions[3].hidden = True
    result = parse_entry_workbook(save(wb))
    assert result.ok
    assert [t.name for t in result.teams] == ["見える組", "最後の組"]
    assert messages(result.warnings) == [(3, None, "This row is hidden and was not read.")]


def test_rows_filtered_out_by_an_autofilter_are_skipped_and_said_so():
    wb, ws = sheet_with([HEADER, team_row("A組"), team_row("B組"), team_row("C組")])
    ws.auto_filter.ref = "A1:P4"
    ws.row_dimensions[2].hidden = True
    ws.row_dimensions[4].hidden = True
    result = parse_entry_workbook(save(wb))
    assert [t.name for t in result.teams] == ["B組"]
    assert [(w.row, w.message) for w in result.warnings] == [
        (2, "This row is filtered out (AutoFilter) and was not read."),
        (4, "This row is filtered out (AutoFilter) and was not read."),
    ]


# -- merged cells -----------------------------------------------------------------------------


def test_a_club_merged_down_over_its_teams_is_filled_and_shown():
    wb, ws = sheet_with(
        [
            HEADER,
            team_row("ひたちA", "ひたち子ども会", players=("一 郎", "二 郎", "三 郎")),
            team_row("ひたちB", None, players=("四 郎", "五 郎", "六 郎")),
            team_row("ひたちC", None, players=("七 郎", "八 郎", "九 郎")),
            team_row("みなとA", "みなと子ども会", players=("十 郎", "十一 郎", "十二 郎")),
        ]
    )
    ws.merge_cells("C2:C4")
    result = parse_entry_workbook(save(wb))
    assert result.ok, messages(result.problems)
    assert [(t.name, t.affiliation) for t in result.teams] == [
        ("ひたちA", "ひたち子ども会"),
        ("ひたちB", "ひたち子ども会"),
        ("ひたちC", "ひたち子ども会"),
        ("みなとA", "みなと子ども会"),
    ]
    assert result.teams[1].filled == ["所属 C2:C4"]
    assert result.teams[3].filled == []


def test_a_division_merged_down_is_filled():
    wb, ws = sheet_with([HEADER, team_row("A組"), team_row("B組", players=("甲", "乙", "丙"))])
    ws["A3"] = None
    ws.merge_cells("A2:A3")
    result = parse_entry_workbook(save(wb))
    assert result.ok, messages(result.problems)
    assert [t.division for t in result.teams] == [LOW, LOW]


def test_a_team_name_merged_over_two_team_rows_is_refused_naming_the_range():
    wb, ws = sheet_with([HEADER, team_row("A組"), team_row(None, players=("甲", "乙", "丙"))])
    ws.merge_cells("B2:B3")
    result = parse_entry_workbook(save(wb))
    assert not result.ok
    assert any("B2:B3" in p.message and p.row == 2 for p in result.problems), messages(result.problems)


def test_a_merged_title_above_the_header_is_left_alone():
    wb, ws = sheet_with([["大会申込書"], HEADER, team_row("A組")])
    ws.merge_cells("A1:P1")
    result = parse_entry_workbook(save(wb))
    assert result.ok, messages(result.problems)


# -- dates where text was expected ------------------------------------------------------------


def test_a_class_name_excel_turned_into_a_date_is_a_problem_not_a_team_named_2027_06_01():
    wb, ws = sheet_with([HEADER, team_row("A組")])
    ws["B2"] = datetime.datetime(2027, 6, 1)
    ws["B2"].number_format = "m月d日"
    result = parse_entry_workbook(save(wb))
    assert not result.ok
    assert messages(result.problems) == [
        (
            2,
            "B (チーム名)",
            "Excel may have turned this into a date (6-1 → 6月1日). Format the column as text and type it again.",
        )
    ]


def test_the_date_message_in_japanese():
    wb, ws = sheet_with([HEADER, team_row("A組")])
    ws["C2"] = datetime.datetime(2027, 6, 1)
    with translation.override("ja"):
        result = parse_entry_workbook(save(wb))
    assert "Excelが日付に変えた可能性があります（6-1 → 6月1日）" in result.problems[0].message
    assert result.problems[0].column == "C (所属)"


# -- lengths, 引率者, players in two teams ---------------------------------------------------------


def test_a_300_character_team_name_is_a_problem_on_its_row():
    result = parse_entry_workbook(save(sheet_with([HEADER, team_row("あ" * 300)])[0]))
    assert messages(result.problems) == [(2, "B (チーム名)", "This is 300 characters long; at most 60 are allowed.")]


def test_a_41_character_player_name_is_a_problem():
    row = team_row("A組", players=("小" * 41, "井上 颯太", "木村 心春"))
    result = parse_entry_workbook(save(sheet_with([HEADER, row])[0]))
    assert [(p.row, p.column) for p in result.problems] == [(2, "D (選手1（リーダー）氏名)")]


def test_the_chaperone_column_is_kept():
    result = parse_entry_workbook(save(sheet_with([HEADER, team_row("A組", chaperone="菊池 陽翔")])[0]))
    assert result.ok
    assert result.teams[0].chaperone == "菊池 陽翔"


def test_the_chaperone_column_in_the_one_row_per_player_layout():
    header = ["部門", "チーム名", "所属", "氏名", "リーダー", "引率者", "引率者の連絡先"]
    rows = [
        header,
        [LOW, "A組", "みなと", "小川 光", "○", "菊池 陽翔", "090"],
        [LOW, "A組", None, "井上 颯太", None, None, None],
        [LOW, "A組", None, "木村 心春", None, None, None],
    ]
    result = parse_entry_workbook(save(sheet_with(rows)[0]))
    assert result.ok, messages(result.problems)
    assert result.teams[0].chaperone == "菊池 陽翔"


def test_a_player_entered_in_two_teams_is_a_warning():
    rows = [
        HEADER,
        team_row("A組", players=("小川 光", "井上 颯太", "木村 心春")),
        team_row("B組", players=("小川 光", "森 陽菜", "林 樹")),
    ]
    result = parse_entry_workbook(save(sheet_with(rows)[0]))
    assert result.ok
    assert messages(result.warnings) == [
        (3, "D (選手1（リーダー）氏名)", '小川 光 is also entered in team "A組" (row 2).')
    ]


# -- the template -----------------------------------------------------------------------------


def test_the_template_formats_its_text_columns_as_text():
    ws = load_workbook(io.BytesIO(entry_template_workbook([LOW])))[TEMPLATE_SHEET]
    for column, label in enumerate(TEMPLATE_LABELS, start=1):
        fmt = ws.cell(row=5, column=column).number_format
        assert fmt == ("General" if label == "学年" else TEXT_FORMAT), label
    assert ws.cell(row=304, column=2).number_format == TEXT_FORMAT


def test_a_division_named_like_a_formula_is_written_as_text_in_the_template():
    data = entry_template_workbook(['=HYPERLINK("http://evil.example","click")', LOW])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        xml = "".join(
            archive.read(name).decode("utf-8") for name in archive.namelist() if name.startswith("xl/worksheets/")
        )
    assert "<f>" not in xml and "<f " not in xml
    lists = load_workbook(io.BytesIO(data))["選択肢"]
    assert lists["A1"].value.startswith("=HYPERLINK") and lists["A1"].data_type == "s"


def test_the_template_keeps_the_division_spelling():
    lists = load_workbook(io.BytesIO(entry_template_workbook(["小学生の部～低学年（A）"])))["選択肢"]
    assert lists["A1"].value == "小学生の部～低学年（A）"
