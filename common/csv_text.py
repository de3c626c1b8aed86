"""CSV files beside the Excel workbooks (pure Python, no Django; issue 34 item 3).

UTF-8 with a byte-order mark, so Excel in Japan opens the file as UTF-8 instead of Shift_JIS;
CRLF line ends (RFC 4180). Cells are the same values the workbook writes, in the same order,
made safe the way ``common.xlsx`` makes workbook text safe:

* XML-illegal control characters are removed (``common.xlsx.cell_value``);
* text that starts like a formula (``=``, ``+``, ``-``, ``@``, a tab or a carriage return)
  gets a leading apostrophe, so a spreadsheet opening the file shows it as text and never
  evaluates it (the CSV form of the workbook's "store as text"; field-faults.md B);
* numbers stay numbers (``-3`` is a card difference, not a formula); datetimes are written
  as Japan wall-clock time ``2027/01/17 09:30``, the workbook's display format.
"""

from __future__ import annotations

import csv
import datetime
import io
from collections.abc import Iterable, Sequence
from typing import Any

from common import xlsx

BOM = "\ufeff"
_FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> str:
    """One cell's text: the workbook's value (``xlsx.cell_value``) written as CSV text, with a
    leading ``'`` on text that a spreadsheet would read as a formula. None is empty."""
    v = xlsx.cell_value(value)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, datetime.datetime):
        return v.strftime("%Y/%m/%d %H:%M")
    if isinstance(v, datetime.date):
        return v.strftime("%Y/%m/%d")
    if isinstance(v, datetime.time):
        return v.strftime("%H:%M")
    if isinstance(v, int | float) or not isinstance(v, str):
        return str(v)
    if v.startswith(_FORMULA_PREFIXES):
        return "'" + v
    return v


def csv_bytes(headers: Sequence[Any], rows: Iterable[Sequence[Any]]) -> bytes:
    """A header row and data rows as UTF-8 CSV bytes with a BOM and CRLF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([csv_cell(h) for h in headers])
    for row in rows:
        writer.writerow([csv_cell(v) for v in row])
    return (BOM + out.getvalue()).encode("utf-8")
