"""The app's own downloadable entry form (``.xlsx``), which the reader reads back without problems.

Every cell is written as text through ``common.xlsx.write_cell`` (a division named
``=HYPERLINK(…)`` stays text, never a live formula), and the input cells of the text columns
are formatted as text (number format ``@``) so that Excel keeps "6-1" as typed instead of
making it 6月1日 (issue 18, items 5 and 6).
"""

from __future__ import annotations

import io
import unicodedata

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.worksheet import Worksheet

from common.xlsx import write_cell
from tournament.engine.names import clean_display
from tournament.imports.messages import _

TEMPLATE_SHEET = "申込書"
TEMPLATE_HEADER_ROW = 4
TEMPLATE_ROWS = 300
TEMPLATE_LABELS = (
    "部門",
    "チーム名",
    "所属",
    "選手1（リーダー）氏名",
    "ふりがな",
    "学年",
    "選手2 氏名",
    "ふりがな",
    "学年",
    "選手3 氏名",
    "ふりがな",
    "学年",
    "補欠 氏名",
    "ふりがな",
    "学年",
    "引率者",
)
TEMPLATE_GRADES = ("小1", "小2", "小3", "小4", "小5", "小6", "中1", "中2", "中3", "一般")
_TEMPLATE_LIST_SHEET = "選択肢"
#: The number format "text": Excel keeps what is typed ("6-1" stays "6-1").
TEXT_FORMAT = "@"
_FIRST_ROW = TEMPLATE_HEADER_ROW + 1
_LAST_ROW = TEMPLATE_HEADER_ROW + TEMPLATE_ROWS


def _display_width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 1 for ch in text)


def entry_template_workbook(division_names: list[str]) -> bytes:
    """Return the downloadable entry form as ``.xlsx`` bytes.

    Sheet ``申込書``: a title in row 1, an instruction note in row 2, the header
    :data:`TEMPLATE_LABELS` in row 4 (部門, チーム名, 所属, then name / ふりがな /
    学年 for 選手1（リーダー）, 選手2, 選手3 and 補欠, then 引率者), and
    :data:`TEMPLATE_ROWS` input rows below it, their text columns formatted as
    text, with drop-down lists for 部門 (*division_names* as typed, trimmed,
    duplicates dropped; no list when empty; written as text, never a formula) and 学年
    (:data:`TEMPLATE_GRADES`; other grades such as 高1 can still be typed after
    a warning).  The header is frozen and repeated on every printed page; the
    page is A4 landscape, one page wide.  The list values live on a hidden
    sheet ``選択肢``.  :func:`~tournament.imports.parse_entry_workbook` reads the
    filled-in form (the "team" layout of ``docs/entries.md``).  Raises nothing.
    """
    divisions = list(dict.fromkeys(d for d in (clean_display(n) for n in division_names) if d))
    wb = Workbook()
    ws = wb.active
    ws.title = TEMPLATE_SHEET
    _write_title_and_header(ws)
    _format_text_columns(ws)
    _set_widths(ws, divisions)
    _add_lists(wb, ws, divisions)
    _set_page(ws)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _write_title_and_header(ws: Worksheet) -> None:
    last_col = get_column_letter(len(TEMPLATE_LABELS))
    write_cell(ws, 1, 1, _("Hitachi Folk Karuta tournament: team entry form"))
    ws["A1"].font = Font(bold=True, size=14)
    ws.merge_cells(f"A1:{last_col}1")
    write_cell(
        ws,
        2,
        1,
        _(
            "One row per team. Player 1 is the team leader. Choose 「部門」 and 「学年」 from the lists. "
            "Do not change row 4 (the column titles)."
        ),
    )
    ws["A2"].alignment = Alignment(wrap_text=True, vertical="top")
    ws.merge_cells(f"A2:{last_col}2")
    ws.row_dimensions[2].height = 30

    thin = Side(style="thin", color="808080")
    fill = PatternFill("solid", fgColor="DDEBF7")
    for index, label in enumerate(TEMPLATE_LABELS, start=1):
        cell = write_cell(ws, TEMPLATE_HEADER_ROW, index, label)
        cell.font = Font(bold=True)
        cell.fill = fill
        cell.border = Border(left=thin, right=thin, top=thin, bottom=thin)
        cell.alignment = Alignment(horizontal="center", vertical="center", wrap_text=True)
    ws.row_dimensions[TEMPLATE_HEADER_ROW].height = 30


def _format_text_columns(ws: Worksheet) -> None:
    """The input cells of every column but 学年 are formatted as text (``@``)."""
    for index, label in enumerate(TEMPLATE_LABELS, start=1):
        if label == "学年":
            continue
        for row in range(_FIRST_ROW, _LAST_ROW + 1):
            ws.cell(row=row, column=index).number_format = TEXT_FORMAT


def _set_widths(ws: Worksheet, divisions: list[str]) -> None:
    """Column widths for typical entries, full-width characters counting two, at most 40."""
    typical = {
        "部門": max([_display_width(d) for d in divisions] + [16]),
        "チーム名": 24,
        "所属": 22,
        "ふりがな": 20,
        "学年": 7,
        "引率者": 16,
    }
    for index, label in enumerate(TEMPLATE_LABELS, start=1):
        width = typical.get(label, 16 if "氏名" in label else 12)
        width = max(width, _display_width(label)) + 2
        ws.column_dimensions[get_column_letter(index)].width = min(width, 40)


def _add_lists(wb: Workbook, ws: Worksheet, divisions: list[str]) -> None:
    """The drop-down lists of 部門 (refusing other values) and 学年 (warning only), their
    values on the hidden sheet 選択肢."""
    lists = wb.create_sheet(_TEMPLATE_LIST_SHEET)
    lists.sheet_state = "hidden"
    for index, grade in enumerate(TEMPLATE_GRADES, start=1):
        write_cell(lists, index, 2, grade)
    for index, division in enumerate(divisions, start=1):
        write_cell(lists, index, 1, division)  # "=HYPERLINK(…)" stays text

    if divisions:
        dv_division = DataValidation(
            type="list",
            formula1=f"'{_TEMPLATE_LIST_SHEET}'!$A$1:$A${len(divisions)}",
            allow_blank=True,
            showErrorMessage=True,
            errorStyle="stop",
            errorTitle=_("Division"),
            error=_("Choose a division from the list."),
        )
        dv_division.add(f"A{_FIRST_ROW}:A{_LAST_ROW}")
        ws.add_data_validation(dv_division)
    dv_grade = DataValidation(
        type="list",
        formula1=f"'{_TEMPLATE_LIST_SHEET}'!$B$1:$B${len(TEMPLATE_GRADES)}",
        allow_blank=True,
        showErrorMessage=True,
        errorStyle="warning",
        errorTitle=_("Grade"),
        error=_("Choose a grade from the list (「小1」 to 「中3」, or 「一般」)."),
    )
    for index, label in enumerate(TEMPLATE_LABELS, start=1):
        if label == "学年":
            letter = get_column_letter(index)
            dv_grade.add(f"{letter}{_FIRST_ROW}:{letter}{_LAST_ROW}")
    ws.add_data_validation(dv_grade)


def _set_page(ws: Worksheet) -> None:
    """Frozen header, repeated on every printed page; A4 landscape, one page wide."""
    ws.freeze_panes = f"A{_FIRST_ROW}"
    ws.print_title_rows = f"{TEMPLATE_HEADER_ROW}:{TEMPLATE_HEADER_ROW}"
    ws.page_setup.orientation = "landscape"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.5
    ws.print_options.horizontalCentered = True
