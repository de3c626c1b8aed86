"""openpyxl helpers shared by every Excel export (pure Python, no Django).

They guard against the export faults in docs/rules/field-faults.md, B:

* sheet titles: forbidden characters, the 31-character limit and case-insensitive
  collisions (``safe_sheet_title`` / ``add_sheet``; keep the returned worksheet in your
  own mapping instead of looking sheets up by title later);
* XML-illegal control characters (``\\x0b`` pasted from Excel) never crash an export;
* text that is a plain number ("3", "-2", "1.5": a court named 1, a grade) is stored as a
  number, so it sorts 1, 2, 10 and sums (issue 34 item 4); "007", "1,000", "1e3" stay text;
* text that looks like a formula (``=…``, ``+…``, ``-…``, ``@…``) is stored as text;
* aware datetimes are written as Asia/Tokyo wall-clock Excel datetimes;
* column widths count full-width characters as two.

Typical use::

    wb = new_workbook()
    ws = add_sheet(wb, division_name)
    write_table(ws, ["順位", "チーム", "勝"], rows)
    return workbook_bytes(wb)
"""

from __future__ import annotations

import datetime
import decimal
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from io import BytesIO
from typing import Any

from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from common.dates import TOKYO

__all__ = [
    "MAX_TITLE_LEN",
    "safe_sheet_title",
    "add_sheet",
    "new_workbook",
    "cell_value",
    "number_format_for",
    "set_cell",
    "write_cell",
    "display_width",
    "write_table",
    "workbook_bytes",
    "DATETIME_FORMAT",
    "DATE_FORMAT",
    "TIME_FORMAT",
]

MAX_TITLE_LEN = 31  # Excel's limit (UTF-16 code units)
MAX_CELL_LEN = 32767  # Excel's limit for a cell's text
MAX_COL_WIDTH = 50
MIN_COL_WIDTH = 6
DATETIME_FORMAT = "yyyy/mm/dd hh:mm"
DATE_FORMAT = "yyyy/mm/dd"
TIME_FORMAT = "hh:mm"

# Excel refuses these in a sheet title; Japanese Excel folds width, so the full-width forms
# (and the yen signs its fonts show for a backslash) are refused as well.
_FORBIDDEN_TITLE_RE = re.compile(r"[\[\]:*?/\\［］：＊？／＼￥¥]")
_APOSTROPHES = "'＇’‘"  # never at either end of a title; inside, written as '
# openpyxl's set plus what XML 1.0 also forbids (lone surrogates, U+FFFE/U+FFFF)
_EXTRA_ILLEGAL_RE = re.compile("[\ud800-\udfff\ufffe\uffff]")
_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
_RESERVED_TITLES = {"history"}  # Excel reserves "History" for change tracking

HEADER_FONT = Font(bold=True)
HEADER_FILL = PatternFill("solid", start_color="FFDDE4EE", end_color="FFDDE4EE")
_THIN = Side(style="thin", color="FF9AA5B1")
HEADER_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
HEADER_ALIGNMENT = Alignment(horizontal="center", vertical="center", wrap_text=True)
WRAP_ALIGNMENT = Alignment(vertical="top", wrap_text=True)


# --------------------------------------------------------------------------- text


def _strip_illegal(text: str) -> str:
    return _EXTRA_ILLEGAL_RE.sub("", ILLEGAL_CHARACTERS_RE.sub("", text))


def _truncate_utf16(text: str, limit: int) -> str:
    """Longest prefix of ``text`` that is at most ``limit`` UTF-16 code units."""
    out, used = [], 0
    for ch in text:
        n = 2 if ord(ch) > 0xFFFF else 1
        if used + n > limit:
            break
        out.append(ch)
        used += n
    return "".join(out)


# --------------------------------------------------------------------------- sheet titles


def _title_key(title: str) -> str:
    # Excel compares sheet names case-insensitively; folding width as well is the
    # conservative choice (never produces a name Excel rejects).
    return unicodedata.normalize("NFKC", title).casefold()


def _clean_title(title: object) -> str:
    text = _strip_illegal(str(title if title is not None else ""))
    text = _FORBIDDEN_TITLE_RE.sub("", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = text.strip(_APOSTROPHES + " ")  # a title may not begin or end with an apostrophe
    text = re.sub(f"[{_APOSTROPHES}]", "'", text)
    text = _truncate_utf16(text, MAX_TITLE_LEN).rstrip(_APOSTROPHES + " ")
    return text or "Sheet"


def safe_sheet_title(workbook: Workbook, title: object) -> str:
    """A valid, unused sheet title derived from ``title``.

    Removes ``[]:*?/\\`` and their full-width forms ``［］：＊？／＼￥`` (and ``¥``) and
    control characters, drops apostrophes (``'＇’‘``) at either end and writes the others
    as ``'``, trims to 31 UTF-16 units and, when the result collides case-insensitively
    (width folded) with an existing sheet (or Excel's reserved "History"), appends
    `` (2)``, `` (3)``, … while staying within 31 characters.  Deterministic: the same
    workbook state and title always give the same result.  Every workbook writer names its
    sheets through it (:func:`add_sheet`), so a name typed in the admin is safe too; a
    writer whose title may be shortened writes the full name in A1 (issue 18 item 10,
    ``docs/rules/field-faults.md`` B).
    """
    base = _clean_title(title)
    existing = {_title_key(name) for name in workbook.sheetnames}
    taken = existing | _RESERVED_TITLES
    if _title_key(base) not in taken:
        return base
    n = 2
    while True:
        suffix = f" ({n})"
        stem = _truncate_utf16(base, MAX_TITLE_LEN - len(suffix)).rstrip(_APOSTROPHES + " ")
        candidate = f"{stem}{suffix}"
        if _title_key(candidate) not in taken:
            return candidate
        n += 1


def add_sheet(workbook: Workbook, title: object) -> Worksheet:
    """Create and return a worksheet titled :func:`safe_sheet_title` (``ws.title``)."""
    return workbook.create_sheet(title=safe_sheet_title(workbook, title))


def new_workbook() -> Workbook:
    """An empty workbook without openpyxl's default "Sheet" (add sheets with add_sheet)."""
    wb = Workbook()
    wb.remove(wb.active)
    return wb


# --------------------------------------------------------------------------- cell values


def cell_value(v: Any) -> Any:
    """Value safe to store in a cell.

    * strings: XML-illegal control characters removed, capped at 32,767 characters;
    * aware datetimes: converted to Asia/Tokyo and made naive (naive ones are assumed to be
      Tokyo wall-clock time already); aware times lose their tzinfo;
    * ``None``, numbers, bools, dates pass through; NaN/inf become ``None``;
    * anything else (lazy translations, enums, UUIDs…) becomes ``str(v)``.

    Formula-looking text stays a string here; :func:`set_cell` / :func:`write_cell`
    also mark the cell as text so it is never written as a formula.
    """
    if v is None or isinstance(v, bool):
        return v
    if isinstance(v, str):
        text = _strip_illegal(v)
        return text[:MAX_CELL_LEN]
    if isinstance(v, datetime.datetime):
        if v.tzinfo is not None and v.utcoffset() is not None:
            v = v.astimezone(TOKYO)
        return v.replace(tzinfo=None)
    if isinstance(v, datetime.date):
        return v
    if isinstance(v, datetime.time):
        return v.replace(tzinfo=None)
    if isinstance(v, datetime.timedelta):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, decimal.Decimal):
        return v if v.is_finite() else None
    if isinstance(v, int):
        return v
    return cell_value(str(v))


def number_format_for(v: Any) -> str | None:
    """Excel number format for a (raw or sanitised) value, or None for the default."""
    if isinstance(v, datetime.datetime):
        return DATETIME_FORMAT
    if isinstance(v, datetime.date):
        return DATE_FORMAT
    if isinstance(v, datetime.time):
        return TIME_FORMAT
    return None


# A number written as text: no leading zero, no sign but "-", no trailing zero after the point,
# at most 15 digits (what Excel keeps exactly).
_PLAIN_NUMBER_RE = re.compile(r"-?(?:0|[1-9]\d{0,14})(?:\.\d{0,14}[1-9])?")


def number_of(text: str) -> int | float | None:
    """``text`` as the number it plainly is ("12" -> 12, "-1.5" -> -1.5), or None."""
    if not _PLAIN_NUMBER_RE.fullmatch(text) or len(text.replace("-", "").replace(".", "")) > 15:
        return None
    return float(text) if "." in text else int(text)


def set_cell(cell: Cell, v: Any) -> Cell:
    """Assign a sanitised value to ``cell``: text stays text, except text that is plainly a
    number (``number_of``), stored as that number; dates get a format."""
    value = cell_value(v)
    if isinstance(value, str) and (number := number_of(value)) is not None:
        value = number
    cell.value = value
    if isinstance(value, str):
        # openpyxl would write "=…" as a formula and "#N/A" as an error value
        cell.data_type = "s"
        if value.startswith(_FORMULA_PREFIXES):
            cell.quotePrefix = True  # Excel keeps it text when the cell is edited
    else:
        fmt = number_format_for(value)
        if fmt:
            cell.number_format = fmt
    return cell


def write_cell(ws: Worksheet, row: int, column: int, v: Any) -> Cell:
    """``set_cell`` on ``ws.cell(row, column)``."""
    return set_cell(ws.cell(row=row, column=column), v)


# --------------------------------------------------------------------------- widths


def display_width(text: str) -> int:
    """Width in Excel character units: East Asian wide/full-width (and ambiguous, which
    Japanese fonts draw full-width) count 2, combining marks 0, the rest 1."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F", "A") else 1
    return width


def _value_width(v: Any) -> int:
    if v is None:
        return 0
    if isinstance(v, datetime.datetime):
        return len("2025/05/03 08:30")
    if isinstance(v, datetime.date):
        return len("2025/05/03")
    if isinstance(v, datetime.time):
        return len("08:30")
    if isinstance(v, bool):
        return 5
    if isinstance(v, float):
        return len(f"{v:.6g}")
    return max((display_width(line) for line in str(v).splitlines()), default=0)


# --------------------------------------------------------------------------- tables


def _set_widths(
    ws: Worksheet,
    col_widths: list[float],
    widths: Sequence[float | None] | None,
    last_col: int,
    start_row: int,
    last_row: int,
) -> list[float]:
    """Set each column's width (explicit, or from its content, never narrower than an earlier
    table's on the sheet) and wrap the data cells of columns too narrow for their text."""
    final: list[float] = []
    for i in range(last_col):
        explicit = widths[i] if widths is not None and i < len(widths) else None
        letter = get_column_letter(i + 1)
        if explicit is not None:
            width = float(explicit)
        else:
            width = min(max(col_widths[i] + 2, MIN_COL_WIDTH), MAX_COL_WIDTH)
            if letter in ws.column_dimensions and ws.column_dimensions[letter].width:
                # a second table on the same sheet never narrows the first one's columns
                width = max(width, ws.column_dimensions[letter].width)
        final.append(width)
        ws.column_dimensions[letter].width = width
        too_narrow = col_widths[i] + 2 > MAX_COL_WIDTH if explicit is None else col_widths[i] > explicit
        if too_narrow:
            for row_cells in ws.iter_rows(min_row=start_row + 1, max_row=last_row, min_col=i + 1, max_col=i + 1):
                for cell in row_cells:
                    cell.alignment = WRAP_ALIGNMENT
    return final


def write_table(
    ws: Worksheet,
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    start_row: int = 1,
    widths: Sequence[float | None] | None = None,
    *,
    freeze: bool = True,
    autofilter: bool = True,
) -> int:
    """Write a header row and data rows from column A; return the last row written.

    Header: bold, filled, bordered, frozen (``freeze``) and with an autofilter over the
    table (``autofilter``; a sheet has one autofilter, so pass False for a second table).
    Column widths: ``widths[i]`` when given, otherwise computed from the content with
    East Asian width (full-width = 2) plus padding, capped at 50 with wrapped text.
    Print setup: A4, fit to one page wide, landscape when the table is wide, header row
    repeated on every printed page.  Calling it again lower on the same sheet (with
    ``freeze=False, autofilter=False``) only widens columns, never narrows them.
    """
    ncols = len(headers)
    if ncols == 0:
        return start_row - 1
    col_widths = [display_width(cell_value(str(h)) or "") + 3 for h in headers]  # + filter button

    for c, header in enumerate(headers, start=1):
        cell = write_cell(ws, start_row, c, header)
        cell.font = HEADER_FONT
        cell.fill = HEADER_FILL
        cell.border = HEADER_BORDER
        cell.alignment = HEADER_ALIGNMENT

    r = start_row
    for data in rows:
        r += 1
        for c, v in enumerate(data, start=1):
            cell = write_cell(ws, r, c, v)
            if c <= ncols:
                col_widths[c - 1] = max(col_widths[c - 1], _value_width(cell.value))
            else:  # tolerate rows longer than the header
                col_widths.append(_value_width(cell.value))
    last_row = r
    last_col = max(ncols, len(col_widths))

    final = _set_widths(ws, col_widths, widths, last_col, start_row, last_row)

    last_letter = get_column_letter(last_col)
    if freeze:
        ws.freeze_panes = f"A{start_row + 1}"
    if autofilter:
        ws.auto_filter.ref = f"A{start_row}:{last_letter}{last_row}"

    # print setup
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    if last_col > 6 or sum(final) > 100:
        ws.page_setup.orientation = "landscape"
    elif ws.page_setup.orientation != "landscape":
        ws.page_setup.orientation = "portrait"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    if ws.sheet_properties.pageSetUpPr is None:
        ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    else:
        ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.print_options.horizontalCentered = True
    ws.page_margins.left = ws.page_margins.right = 0.4
    ws.page_margins.top = ws.page_margins.bottom = 0.6
    if freeze:
        ws.print_title_rows = f"{start_row}:{start_row}"
    return last_row


def workbook_bytes(wb: Workbook) -> bytes:
    """Serialise the workbook to .xlsx bytes."""
    buf = BytesIO()
    wb.save(buf)
    return buf.getvalue()


# --------------------------------------------------------------------------- uploads

_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # .xls (Excel 97-2003) and password-protected files
_ZIP_MAGIC = b"PK\x03\x04"


def upload_format(data: bytes) -> str | None:
    """What a spreadsheet upload is, by its first bytes: "xls" (the old Excel format, or a
    password-protected workbook: both are OLE files), "ods" (LibreOffice / OpenOffice Calc:
    a zip whose first member is ``mimetype`` naming an OpenDocument spreadsheet), "xlsx" (any
    other zip: openpyxl decides), or None (not a spreadsheet file)."""
    if data.startswith(_OLE_MAGIC):
        return "xls"
    if not data.startswith(_ZIP_MAGIC):
        return None
    if data[30:38] == b"mimetype" and b"application/vnd.oasis.opendocument.spreadsheet" in data[38:120]:
        return "ods"
    return "xlsx"
