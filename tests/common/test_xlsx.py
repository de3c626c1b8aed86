"""Tests for common.xlsx (docs/rules/field-faults.md, B: sheet names, control characters,
formula-looking text, aware datetimes, East Asian column widths)."""

import datetime
from io import BytesIO

import openpyxl
import pytest

from common.xlsx import (
    MAX_TITLE_LEN,
    add_sheet,
    cell_value,
    display_width,
    new_workbook,
    safe_sheet_title,
    workbook_bytes,
    write_cell,
    write_table,
)

UTC = datetime.UTC


def _reload(wb):
    return openpyxl.load_workbook(BytesIO(workbook_bytes(wb)), data_only=False)


# --------------------------------------------------------------------------- sheet titles


def test_titles_identical_after_truncation_get_distinct_suffix():
    wb = new_workbook()
    morning = "ひたちオープン一般の部予選リーグＡブロック第一日目試合結果一覧表（午前）"
    afternoon = "ひたちオープン一般の部予選リーグＡブロック第一日目試合結果一覧表（午後）"
    assert morning[:31] == afternoon[:31] and len(morning) > 31
    ws1 = add_sheet(wb, morning)
    ws2 = add_sheet(wb, afternoon)
    assert ws1.title == morning[:31]
    assert ws2.title != ws1.title
    assert ws2.title.endswith(" (2)")
    assert len(ws1.title) <= MAX_TITLE_LEN and len(ws2.title) <= MAX_TITLE_LEN
    ws3 = add_sheet(wb, morning)
    assert ws3.title.endswith(" (3)") and len(ws3.title) <= MAX_TITLE_LEN
    # the workbook opens again with exactly these titles
    assert _reload(wb).sheetnames == [ws1.title, ws2.title, ws3.title]


def test_titles_differing_only_in_case_are_made_unique():
    wb = new_workbook()
    lower = add_sheet(wb, "aブロック")
    upper = add_sheet(wb, "Aブロック")
    assert lower.title == "aブロック"
    assert upper.title == "Aブロック (2)"
    keys = [t.casefold() for t in wb.sheetnames]
    assert len(keys) == len(set(keys))


def test_safe_title_is_deterministic_and_strips_forbidden_characters():
    wb = new_workbook()
    title = "決勝[A]:*?/\\リーグ"
    assert safe_sheet_title(wb, title) == "決勝Aリーグ"
    assert safe_sheet_title(wb, title) == safe_sheet_title(wb, title)
    assert safe_sheet_title(wb, "") == "Sheet"
    assert safe_sheet_title(wb, "'引用'") == "引用"
    assert safe_sheet_title(wb, "History") == "History (2)"
    # the title is only returned, not created
    assert wb.sheetnames == []
    ws = wb.create_sheet(safe_sheet_title(wb, "チーム\x0b一覧"))
    assert ws.title == "チーム一覧"


def test_suffix_never_exceeds_31_even_for_many_collisions():
    wb = new_workbook()
    long = "あ" * 40
    titles = [add_sheet(wb, long).title for _ in range(12)]
    assert len(set(t.casefold() for t in titles)) == 12
    assert all(len(t) <= MAX_TITLE_LEN for t in titles)
    assert titles[-1].endswith(" (12)")


# --------------------------------------------------------------------------- cell values


def test_formula_looking_text_reads_back_as_text():
    wb = new_workbook()
    ws = add_sheet(wb, "結果")
    write_cell(ws, 1, 1, "=SUM(A1)")
    write_cell(ws, 2, 1, "+81-29-000")
    write_cell(ws, 3, 1, "-3チーム")
    write_cell(ws, 4, 1, "@チーム")
    write_cell(ws, 5, 1, "#N/A")
    back = _reload(wb)["結果"]
    cell = back["A1"]
    assert cell.value == "=SUM(A1)"
    assert cell.data_type == "s"
    assert [back.cell(r, 1).value for r in range(2, 6)] == ["+81-29-000", "-3チーム", "@チーム", "#N/A"]
    assert all(back.cell(r, 1).data_type == "s" for r in range(1, 6))
    assert back["A1"].quotePrefix


def test_control_characters_do_not_crash_export():
    wb = new_workbook()
    ws = add_sheet(wb, "順位")
    write_table(ws, ["チーム", "備考"], [["チーム\x0bひたち", "メモ\x1fです\n二行目"]])
    back = _reload(wb)["順位"]
    assert back["A2"].value == "チームひたち"
    assert back["B2"].value == "メモです\n二行目"
    assert cell_value("チーム\x0bひたち") == "チームひたち"


def test_aware_datetime_is_written_as_tokyo_wall_clock():
    wb = new_workbook()
    ws = add_sheet(wb, "日程")
    start = datetime.datetime(2025, 5, 2, 23, 30, tzinfo=UTC)
    write_table(ws, ["開始", "日付"], [[start, datetime.date(2025, 5, 3)]])
    back = _reload(wb)["日程"]
    assert back["A2"].value == datetime.datetime(2025, 5, 3, 8, 30)
    assert back["A2"].is_date
    assert back["A2"].number_format == "yyyy/mm/dd hh:mm"
    assert back["B2"].number_format == "yyyy/mm/dd"
    assert cell_value(start) == datetime.datetime(2025, 5, 3, 8, 30)
    naive = datetime.datetime(2025, 5, 3, 9, 0)
    assert cell_value(naive) == naive


def test_other_values():
    assert cell_value(None) is None
    assert cell_value(3) == 3
    assert cell_value(float("nan")) is None
    assert cell_value(True) is True

    class Lazy:
        def __str__(self):
            return "予選リーグ"

    assert cell_value(Lazy()) == "予選リーグ"


# --------------------------------------------------------------------------- tables


def test_widths_count_full_width_characters_twice():
    assert display_width("ひたち海浜カルタ愛好会Ａ") == 24
    assert display_width("Team Mito") == 9
    wb = new_workbook()
    ws = add_sheet(wb, "チーム")
    last = write_table(ws, ["チーム", "Team"], [["ひたち海浜カルタ愛好会Ａ", "Team Mito"]])
    assert last == 2
    assert ws.column_dimensions["A"].width >= 24
    assert 9 <= ws.column_dimensions["B"].width < 24


def test_write_table_layout_and_print_setup():
    wb = new_workbook()
    ws = add_sheet(wb, "星取表")
    headers = ["順位", "チーム", "勝", "敗", "取り札", "差", "備考", "決定"]
    long_remark = "長い備考" * 30
    rows = [
        [1, "ひたち海浜かるた会・Ａ組", 3, 0, 98, 28, long_remark, "勝数"],
        [2, "常陸太田カルタ部々員会①", 2, 1, 80, 5, "", "取り札差"],
    ]
    last = write_table(ws, headers, rows, start_row=3)
    assert last == 5
    assert ws["A3"].font.b and ws["A3"].fill.fgColor.rgb.endswith("DDE4EE")
    assert ws.freeze_panes == "A4"
    assert ws.auto_filter.ref == "A3:H5"
    assert ws.column_dimensions["G"].width == 50
    assert ws["G4"].alignment.wrap_text
    assert int(ws.page_setup.paperSize) == int(ws.PAPERSIZE_A4)
    assert ws.page_setup.orientation == "landscape"
    assert ws.page_setup.fitToWidth == 1
    assert ws.sheet_properties.pageSetUpPr.fitToPage
    back = _reload(wb)["星取表"]
    assert back["B4"].value == "ひたち海浜かるた会・Ａ組"


def test_write_table_explicit_widths_and_portrait():
    wb = new_workbook()
    ws = add_sheet(wb, "短い表")
    write_table(ws, ["番号", "チーム"], [[1, "水戸"]], widths=[8, None])
    assert ws.column_dimensions["A"].width == 8
    assert ws.page_setup.orientation == "portrait"


def test_second_table_on_a_sheet_keeps_first_widths():
    wb = new_workbook()
    ws = add_sheet(wb, "Aリーグ")
    last = write_table(ws, ["チーム", "勝"], [["ひたち海浜カルタ愛好会Ａ", 3]])
    first_width = ws.column_dimensions["A"].width
    last2 = write_table(ws, ["番号", "結果"], [[1, "○"]], start_row=last + 2, freeze=False, autofilter=False)
    assert last2 == last + 3
    assert ws.column_dimensions["A"].width == first_width
    assert ws.freeze_panes == "A2"
    assert ws.auto_filter.ref == "A1:B2"
    assert ws.print_title_rows == "$1:$1"


def test_workbook_bytes_is_xlsx():
    wb = new_workbook()
    add_sheet(wb, "x")
    data = workbook_bytes(wb)
    assert data[:2] == b"PK"


@pytest.mark.parametrize("title", ["a" * 31, "ｂ" * 40, "x/y", "[ ]", "𠮟" * 20])
def test_safe_title_always_valid(title):
    wb = new_workbook()
    for _ in range(3):
        ws = add_sheet(wb, title)
        assert ws.title
        assert sum(2 if ord(ch) > 0xFFFF else 1 for ch in ws.title) <= MAX_TITLE_LEN
    _reload(wb)


# --------------------------------------------------------------------------- issue 18 item 10


@pytest.mark.parametrize(
    "name, title",
    [
        ("決勝[A]:*?/\\リーグ", "決勝Aリーグ"),  # ASCII forbidden characters
        ("決勝［Ａ］：＊？／＼リーグ", "決勝Ａリーグ"),  # their full-width forms (typed in the admin)
        ("￥100円の部¥", "100円の部"),  # yen signs: a backslash in Japanese Excel
        ("'引用'", "引用"),
        ("＇全角＇", "全角"),
        ("’中学生の部‘", "中学生の部"),
        ("O’Neil組", "O'Neil組"),  # an apostrophe inside is fine, written as '
        ("  ＇ ", "Sheet"),
        ("あ" * 40, "あ" * 31),
        ("𠮷" * 20, "𠮷" * 15),  # 31 UTF-16 units: 15 surrogate pairs
        ("あ" * 30 + "'", "あ" * 30),  # no apostrophe left at the end after trimming
        ("History", "History (2)"),
    ],
)
def test_sheet_title_table(name, title):
    wb = new_workbook()
    assert safe_sheet_title(wb, name) == title
    ws = add_sheet(wb, name)
    assert _reload(wb).sheetnames == [ws.title]


def test_titles_equal_once_width_and_case_are_folded_are_made_unique():
    wb = new_workbook()
    titles = [add_sheet(wb, n).title for n in ("Ａリーグ", "aリーグ", "A リーグ", "Aリーグ")]
    assert titles == ["Ａリーグ", "aリーグ (2)", "A リーグ", "Aリーグ (3)"]
    assert _reload(wb).sheetnames == titles


@pytest.mark.django_db
def test_a_division_named_in_the_admin_gets_a_legal_sheet_with_the_full_name_in_a1():
    from tests import factories
    from tournament import exports
    from tournament.services.draw import draw_groups

    event = factories.make_event(courts=1, slug="titles")
    name = "＇小学生［高学年］の部：Ａ／Ｂ？＊＼ とても長い名前の部門です＇"
    division = factories.make_division(event, name=name, courts=[1])  # as the admin stores it
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    wb = openpyxl.load_workbook(BytesIO(exports.event_workbook(event, ["standings"])))
    ws = wb.worksheets[0]
    assert not set(ws.title) & set("[]:*?/\\［］：＊？／＼￥＇’")
    assert ws.title[0] != "'" and ws.title[-1] != "'"
    assert len(ws.title) <= MAX_TITLE_LEN
    assert name in ws["A1"].value
