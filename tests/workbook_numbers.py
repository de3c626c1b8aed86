"""The workbook check of issue 34 item 4, shared by the tests of every workbook kind: the cells
that hold a number as text (the crawl's rule, tests/surface/files.py)."""

import re
from io import BytesIO

from openpyxl import load_workbook

NUMBER = re.compile(r"^-?(0|[1-9]\d{0,8})(\.\d+)?$")


def numbers_as_text(data):
    """``["Sheet!B3='12'", …]``: the text cells of the .xlsx ``data`` (bytes) that are numbers."""
    book = load_workbook(BytesIO(data))
    return [
        f"{ws.title}!{c.coordinate}={c.value!r}"
        for ws in book.worksheets
        for row in ws.iter_rows()
        for c in row
        if isinstance(c.value, str) and NUMBER.match(c.value.strip())
    ]
