"""Reading the uploaded file: the bytes, the workbook, the sheet with a header, the cell texts.

Limits guard against files that would take minutes and gigabytes to read: the zip is checked
by :mod:`tournament.imports.limits` before openpyxl opens it (sizes, cells per row and per
sheet, shared strings, a time budget; issue 18, item 2), the recorded sheet dimension is never
trusted, reading stops after a run of blank rows, and the file size and the number of rows are
capped (``docs/rules/entries.md``, section 13, "read_only mode trusts a wrong sheet
dimension"). The sheet read is the active visible one (else the first visible one with a
header); hidden sheets are never read, hidden and filtered-out rows are skipped and listed
(issue 18, item 6). Cells become text the way the organiser sees them: no ".0" after whole
numbers, strings trimmed with their spelling kept (``docs/rules/entries.md``, section 15,
"Numbers from Excel").
"""

from __future__ import annotations

import contextlib
import datetime
import io
import zipfile
from dataclasses import dataclass, field

from openpyxl import load_workbook

from common import limits, xlsx
from tournament.engine.names import clean_display, normalize_text
from tournament.imports.header import Header, detect_header
from tournament.imports.limits import Budget, LimitExceeded, SheetFacts, scan_workbook
from tournament.imports.messages import _
from tournament.imports.records import ImportProblem

#: Uploads larger than this are refused (a 300-team entry file is far below 1 MB).
MAX_FILE_BYTES = limits.ENTRY_FILE_BYTES
#: Non-blank rows read below the header before giving up with a problem.
MAX_DATA_ROWS = limits.ENTRY_DATA_ROWS
#: Reading stops after this many consecutive blank rows (the sheet's recorded
#: dimension is never trusted).
MAX_BLANK_RUN = 50
#: The header row must be within this many rows from the top of the sheet.
HEADER_SEARCH_ROWS = 20
#: Columns beyond this are ignored.
MAX_COLUMNS = limits.ENTRY_COLUMNS
#: Excel's own limit of characters in a cell; longer strings (not made by Excel) are cut.
MAX_CELL_CHARS = limits.ENTRY_CELL_CHARS

_OLE_MAGIC = b"\xd0\xcf\x11\xe0"
_ZIP_MAGIC = b"PK\x03\x04"


@dataclass
class EntrySheet:
    """The sheet that holds the entries.

    ``rows`` are the non-blank rows below the header as (1-based row number, cell texts, raw
    cell values); ``problems`` the faults of reading it (too many rows); ``skipped`` the
    non-blank hidden rows not read, ``filtered`` whether the sheet has an AutoFilter (its
    hidden rows are filtered out); ``merged`` the sheet's merged ranges ("A5:A7");
    ``other_sheets`` the titles of the other sheets that have a header row (hidden ones marked);
    ``budget`` the time budget of the whole upload, which the merged-cell fill goes on checking.
    """

    title: str
    header: Header
    rows: list[tuple[int, list[str], list]]
    problems: list[ImportProblem]
    skipped: list[int] = field(default_factory=list)
    filtered: bool = False
    merged: list[str] = field(default_factory=list)
    other_sheets: list[str] = field(default_factory=list)
    budget: Budget | None = None


def read_entry_sheet(source) -> EntrySheet | ImportProblem:
    """Read *source* (bytes or a binary file-like object, such as a Django ``UploadedFile``).

    Returns the active sheet when it is visible and has a header row within its first
    :data:`HEADER_SEARCH_ROWS` rows, else the first visible sheet that has one, or the one
    :class:`ImportProblem` that makes the whole file unusable: unreadable, over
    :data:`MAX_FILE_BYTES`, empty, ``.xls`` or password-protected, not an ``.xlsx``, damaged,
    beyond a limit of :mod:`tournament.imports.limits` (the message names it), or without a
    header row. Never raises for bad input.
    """
    try:
        data = _read_bytes(source)
    except Exception:  # whatever a broken upload raises, it is reported as unreadable
        data = None
    refusal = _refuse_file(data)
    if refusal is not None:
        return refusal
    try:
        sheet = _entry_sheet(data)
    except LimitExceeded as exc:
        return ImportProblem(None, None, str(exc))
    except Exception as exc:  # BadZipFile, KeyError, XML parse errors, ... from openpyxl
        return ImportProblem(
            None,
            None,
            _("The Excel file could not be read; it may be damaged or not a real .xlsx file (%(error)s).")
            % {"error": exc.__class__.__name__},
        )
    if sheet is None:
        return ImportProblem(
            None,
            None,
            _(
                "No header row was found. One of the first %(rows)d rows of the sheet must hold the "
                "column titles, including 「チーム名」 and 「氏名」 (as in the entry template)."
            )
            % {"rows": HEADER_SEARCH_ROWS},
        )
    return sheet


def cell_text(value) -> str:
    """Text of a cell: numbers without ".0", dates in ISO form, strings trimmed with spaces
    collapsed and their spelling kept (:func:`~tournament.engine.names.clean_display`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, datetime.datetime):
        if value.time() == datetime.time(0, 0):
            return value.date().isoformat()
        return value.isoformat(sep=" ")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return clean_display(value)


def _read_bytes(source) -> bytes | None:
    """Return at most MAX_FILE_BYTES + 1 bytes of *source* (bytes or a file-like object)."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source[: MAX_FILE_BYTES + 1])
    if hasattr(source, "seek"):
        with contextlib.suppress(Exception):  # a stream that cannot seek is read from where it is
            source.seek(0)
    if hasattr(source, "chunks"):  # Django UploadedFile
        buf = bytearray()
        for chunk in source.chunks():
            buf += chunk
            if len(buf) > MAX_FILE_BYTES:
                break
        return bytes(buf)
    data = source.read(MAX_FILE_BYTES + 1)
    if isinstance(data, str):
        return None
    return bytes(data)


def ods_message():
    """The refusal of an OpenDocument spreadsheet (.ods), with the way to save it as .xlsx."""
    return _(
        "This file is an OpenDocument spreadsheet (.ods, from LibreOffice or OpenOffice Calc), not an Excel "
        "workbook. In Calc choose File → Save As…, pick “Excel 2007-365 (.xlsx)” as the file type, keep that "
        "format, and upload the .xlsx file."
    )


def xls_message():
    """The refusal of an old Excel file (.xls) or a password-protected workbook."""
    return _(
        "This file is in the old Excel 97-2003 format (.xls) or is password-protected. "
        "Save it as an Excel Workbook (.xlsx) without a password and upload it again."
    )


def _refuse_file(data: bytes | None) -> ImportProblem | None:
    """The problem that stops reading *data* before it is opened as a workbook, if any."""
    if data is None:
        return ImportProblem(None, None, _("The upload could not be read as a file."))
    if len(data) > MAX_FILE_BYTES:
        return ImportProblem(
            None,
            None,
            _(
                "The file is larger than %(limit)d MB. Entry files are normally much smaller; "
                "remove pictures or extra sheets and try again."
            )
            % {"limit": MAX_FILE_BYTES // (1024 * 1024)},
        )
    if not data:
        return ImportProblem(None, None, _("The file is empty."))
    if data.startswith(_OLE_MAGIC):
        return ImportProblem(None, None, xls_message())
    if xlsx.upload_format(data) == "ods":
        return ImportProblem(None, None, ods_message())
    if not data.startswith(_ZIP_MAGIC):
        return ImportProblem(
            None,
            None,
            _("This file is not an Excel workbook (.xlsx). Save it from Excel as an Excel Workbook (.xlsx)."),
        )
    return None


def _entry_sheet(data: bytes) -> EntrySheet | None:
    """Check the zip, then read the active visible sheet (else the first visible one) that
    has a header; the other sheets with a header, hidden ones marked so, are listed, not read."""
    budget = Budget()
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        facts = scan_workbook(archive, budget)
    workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        visible = [ws for ws in workbook.worksheets if ws.sheet_state == "visible"]
        active = workbook.active
        if active in visible:
            visible.remove(active)
            visible.insert(0, active)
        chosen = None
        others = []
        for ws in visible:
            sheet_facts = facts.get(str(getattr(ws, "_worksheet_path", "")).lstrip("/"), SheetFacts())
            if chosen is not None:
                if _header_of(ws) is not None:
                    others.append(ws.title)
                continue
            chosen = _read_sheet(ws, sheet_facts, budget)
        if chosen is not None:
            # Hidden sheets are never read (last year's entries often hide there), but named.
            hidden = [ws for ws in workbook.worksheets if ws.sheet_state != "visible"]
            others += [_("%(sheet)s (hidden)") % {"sheet": ws.title} for ws in hidden if _header_of(ws) is not None]
            chosen.other_sheets = others
        return chosen
    finally:
        workbook.close()


def _header_of(ws) -> Header | None:
    """The header row of *ws* within its first :data:`HEADER_SEARCH_ROWS` rows, or None."""
    ws.reset_dimensions()  # never trust the recorded dimension
    rows = ws.iter_rows(min_row=1, max_row=HEADER_SEARCH_ROWS, max_col=MAX_COLUMNS, values_only=True)
    for rownum, values in enumerate(rows, start=1):
        header = detect_header(_cut(values), rownum)
        if header:
            return header
    return None


def _cut(values) -> list:
    """The row's values, strings cut at :data:`MAX_CELL_CHARS` (the work per row is bounded)."""
    return [v[:MAX_CELL_CHARS] if isinstance(v, str) else v for v in values]


def _is_blank(values) -> bool:
    return all(v is None or (isinstance(v, str) and not normalize_text(v)) for v in values)


def _read_sheet(ws, facts: SheetFacts, budget: Budget) -> EntrySheet | None:
    """Find the header row of *ws* and read the rows below it, skipping hidden ones; None
    when the sheet has no header."""
    ws.reset_dimensions()  # never trust the recorded dimension
    rows = ws.iter_rows(min_row=1, max_col=MAX_COLUMNS, values_only=True)
    header = None
    for rownum, values in enumerate(rows, start=1):
        header = detect_header(_cut(values), rownum)
        if header or rownum >= HEADER_SEARCH_ROWS:
            break
    if header is None:
        return None
    sheet = EntrySheet(ws.title, header, [], [], filtered=facts.autofilter, merged=list(facts.merged), budget=budget)
    blank_run = 0
    for rownum, raw in enumerate(rows, start=header.row + 1):
        budget.check()
        values = _cut(raw)
        if _is_blank(values):
            blank_run += 1
            if blank_run >= MAX_BLANK_RUN:
                break
            continue
        blank_run = 0
        if rownum in facts.hidden_rows:
            sheet.skipped.append(rownum)
            continue
        if len(sheet.rows) >= MAX_DATA_ROWS:
            sheet.problems.append(
                ImportProblem(
                    rownum,
                    None,
                    _(
                        "The sheet has more than %(limit)d rows of entries; only the first %(limit)d were read. "
                        "Split the entries into several files."
                    )
                    % {"limit": MAX_DATA_ROWS},
                )
            )
            break
        sheet.rows.append((rownum, [cell_text(v) for v in values], values))
    return sheet
