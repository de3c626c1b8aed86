"""A deck from Excel: the reader of the club's card list and its template (issue 21, item 1).

In the style of the entry sheets (``tournament/imports``): the zip is checked against the
same limits before openpyxl parses it (``tournament.imports.limits.scan_workbook``), the
header row is found by its labels (頭字, 読み札, 読み, 役札) in the first rows of the active
sheet, and every fault is an :class:`~tournament.imports.records.ImportProblem` naming its
row and column. A file with any problem imports nothing.
"""

from __future__ import annotations

import io
import itertools
import unicodedata
import zipfile
from dataclasses import dataclass

from django.utils.translation import gettext as _
from openpyxl import Workbook, load_workbook
from openpyxl.utils import get_column_letter

from common import limits, xlsx
from common.xlsx import workbook_bytes, write_cell
from reader.engine import cards as rules
from tournament.imports import workbook as entry_workbook
from tournament.imports.limits import Budget, LimitExceeded, scan_workbook
from tournament.imports.records import ImportProblem
from tournament.imports.workbook import cell_text


@dataclass(frozen=True)
class CardRow:
    """One checked card of an import (``row``: the Excel row number, for messages)."""

    row: int
    head_kana: str
    text: str
    furigana: str
    is_joker: bool


MAX_FILE_BYTES = limits.DECK_FILE_BYTES  # the one table of input limits (common.limits)
HEADER_SEARCH_ROWS = 10
#: Column → the labels that name it (after NFKC, spaces removed).
LABELS = {
    "head": ("頭字", "頭文字", "かしら字"),
    "text": ("読み札", "読札", "本文", "文"),
    "reading": ("読み", "よみ", "ふりがな", "読み（かな）", "読み(かな)", "かな"),
    "joker": ("役札", "役札(り)", "役札（り）"),
}
TEMPLATE_LABELS = ("頭字", "読み札", "読み（かな）", "役札")


def _label(value) -> str:
    return unicodedata.normalize("NFKC", cell_text(value)).replace(" ", "")


def _columns(values) -> dict[str, int] | None:
    found = {}
    for index, value in enumerate(values):
        label = _label(value)
        for column, labels in LABELS.items():
            if column not in found and label in {unicodedata.normalize("NFKC", x) for x in labels}:
                found[column] = index
    return found if "head" in found else None


def _where(columns: dict[str, int], column: str, header: list) -> str:
    index = columns[column]
    return f"{get_column_letter(index + 1)} ({cell_text(header[index])})"


_MESSAGES = {
    "required": lambda: _("the head kana (「頭字」) is missing"),
    "too_long": lambda: _("too long"),
    "not_kana": lambda: _("write it in kana (hiragana)"),
    "not_flag": lambda: _("write ○ for the special card, or leave it blank"),
}


class Formula(str):
    """A formula cell without a value saved in the file (``=A1&"x"`` written by a program, or
    a workbook never recalculated): openpyxl reads it as empty, so it is refused, never
    imported as an empty text."""


def _row(rownum, values, columns, header) -> tuple[CardRow | None, list[ImportProblem]]:
    problems, clean = [], {}
    checks = {"head": rules.head_kana, "text": rules.card_text, "reading": rules.kana_reading, "joker": rules.flag}
    for column, check in checks.items():
        if column not in columns:
            clean[column] = False if column == "joker" else ""
            continue
        raw = values[columns[column]] if columns[column] < len(values) else None
        if isinstance(raw, Formula):
            message = _("a formula without a saved value (%(formula)s): type the text itself") % {"formula": raw[:40]}
            problems.append(ImportProblem(rownum, _where(columns, column, header), message))
            continue
        try:
            clean[column] = check(raw if column == "joker" else cell_text(raw))
        except rules.CardValueError as error:
            problems.append(ImportProblem(rownum, _where(columns, column, header), _MESSAGES[error.code]()))
    if problems:
        return None, problems
    return CardRow(rownum, clean["head"], clean["text"], clean["reading"], clean["joker"]), []


def _jokers(rows, columns, header, existing_joker) -> list[ImportProblem]:
    """One 役札 per deck: a second one in the file, or one besides the deck's own 役札 card
    (``existing_joker``, kept when the file does not list it), is refused naming its row and
    the 役札 column."""
    problems, first = [], None
    listed = {row.head_kana for row in rows}
    if existing_joker and existing_joker not in listed:
        first = existing_joker
    column = _where(columns, "joker", header) if "joker" in columns else None
    for row in rows:
        if not row.is_joker:
            continue
        if first is None:
            first = row
            continue
        if isinstance(first, str):
            message = _("only one card is the special card, and the deck's special card is already card %(kana)s") % {
                "kana": first
            }
        else:
            message = _("only one card is the special card, and row %(other)d is one already") % {"other": first.row}
        problems.append(ImportProblem(row.row, column, message))
    return problems


def _whole_file(rows: list[CardRow], columns, header, existing_joker="") -> list[ImportProblem]:
    problems, seen = [], {}
    for row in rows:
        if row.head_kana in seen:
            problems.append(
                ImportProblem(
                    row.row,
                    None,
                    _("the head kana %(kana)s is also on row %(other)d")
                    % {"kana": row.head_kana, "other": seen[row.head_kana]},
                )
            )
        seen.setdefault(row.head_kana, row.row)
    problems += _jokers(rows, columns, header, existing_joker)
    if len(rows) > rules.MAX_CARDS:
        problems.append(ImportProblem(None, None, _("A deck has at most %(n)d cards.") % {"n": rules.MAX_CARDS}))
    return problems


def _sheet_rows(data: bytes) -> list[tuple]:
    """The values of the active sheet's first rows (enough for :data:`~reader.engine.cards.MAX_CARDS`
    cards under a header), after the zip passed the entry sheets' limits."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        scan_workbook(archive, Budget())
    rows = _active_rows(data, data_only=True)
    formulas = _active_rows(data, data_only=False)
    return [
        tuple(
            Formula(formula) if value is None and isinstance(formula, str) and formula.startswith("=") else value
            for value, formula in itertools.zip_longest(values, formula_row)
        )
        for values, formula_row in itertools.zip_longest(rows, formulas, fillvalue=())
    ]


def _active_rows(data: bytes, data_only: bool) -> list[tuple]:
    """The active sheet's first rows: the saved values (``data_only``) or the formulas."""
    workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=data_only)
    try:
        sheet = workbook.active
        sheet.reset_dimensions()
        return list(sheet.iter_rows(max_col=20, max_row=rules.MAX_CARDS + HEADER_SEARCH_ROWS + 50, values_only=True))
    finally:
        workbook.close()


def _read_limited(upload) -> bytes:
    buf = bytearray()
    for chunk in upload.chunks():
        buf += chunk
        if len(buf) > MAX_FILE_BYTES:
            break
    return bytes(buf)


def read_deck(upload, existing_joker: str = "") -> tuple[list[CardRow], list[ImportProblem]]:
    """The cards of an uploaded ``.xlsx`` (bytes or a Django upload), checked.

    ``existing_joker``: the head kana of the deck's 役札 card ("" when none): a file making a
    second 役札 beside it is refused. Out: (rows, problems sorted by row then column); when
    problems is not empty nothing may be saved. Each problem names its row and column
    ("B (読み札)"); a formula cell without a saved value is one. Never raises for a bad file:
    a damaged one (a broken zip, sheet XML cut short, an entity bomb in a DTD) is "the
    workbook is damaged".
    """
    data = upload if isinstance(upload, bytes) else _read_limited(upload)
    if len(data) > MAX_FILE_BYTES:
        return [], [ImportProblem(None, None, _("The file is larger than 5 MB."))]
    kind = xlsx.upload_format(data)
    if kind == "ods":
        return [], [ImportProblem(None, None, entry_workbook.ods_message())]
    if kind == "xls":
        return [], [ImportProblem(None, None, entry_workbook.xls_message())]
    if kind is None:
        return [], [ImportProblem(None, None, _("This file is not an Excel workbook (.xlsx)."))]
    try:
        rows = _sheet_rows(data)
    except LimitExceeded as error:
        return [], [ImportProblem(None, None, str(error))]
    except Exception:  # as tournament.imports.workbook: whatever a damaged file makes openpyxl raise
        # BadZipFile, KeyError, XML cut short (ParseError), an entity bomb (expat's amplification limit), …
        return [], [ImportProblem(None, None, _("The workbook is damaged and cannot be read."))]
    for index, values in enumerate(rows[:HEADER_SEARCH_ROWS]):
        columns = _columns(values)
        if columns:
            return _read_rows(rows, index, columns, existing_joker)
    return [], [
        ImportProblem(
            None, None, _("No header row with 「頭字」 was found in the first %(n)d rows.") % {"n": HEADER_SEARCH_ROWS}
        )
    ]


def _read_rows(rows, index, columns, existing_joker=""):
    header, cards, problems = list(rows[index]), [], []
    for rownum, values in enumerate(rows[index + 1 :], start=index + 2):
        if all(v is None or not cell_text(v) for v in values):
            continue
        card, row_problems = _row(rownum, list(values), columns, header)
        problems += row_problems
        if card:
            cards.append(card)
    problems += _whole_file(cards, columns, header, existing_joker)
    if not cards and not problems:
        problems.append(ImportProblem(None, None, _("The sheet has no cards below its header.")))
    problems.sort(key=lambda p: (p.row is not None, p.row or 0, p.column or ""))
    return cards, problems


def template_workbook(cards=()) -> bytes:
    """The deck template (``.xlsx``): a header row 頭字 / 読み札 / 読み（かな） / 役札 and the
    edition's cards below it (text cells, never formulas; ``common.xlsx.write_cell``)."""
    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "読み札"
    for column, label in enumerate(TEMPLATE_LABELS, start=1):
        write_cell(sheet, 1, column, label)
    for rownum, card in enumerate(cards, start=2):
        values = (card.head_kana, card.text, card.furigana, "○" if card.is_joker else "")
        for column, value in enumerate(values, start=1):
            write_cell(sheet, rownum, column, value).number_format = "@"
    for letter, width in zip("ABCD", (8, 40, 40, 8), strict=True):
        sheet.column_dimensions[letter].width = width
    return workbook_bytes(workbook)
