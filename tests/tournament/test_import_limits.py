"""Issue 18, item 2: a small workbook that would eat the laptop is refused before openpyxl
parses it, fast, with a message naming the limit. The "bombs" are made here, small on disk."""

import io
import re
import time
import tracemalloc
import zipfile

import pytest
from django.utils import translation
from openpyxl import Workbook

from tournament.imports import MAX_FILE_BYTES, TEMPLATE_LABELS, limits, parse_entry_workbook


@pytest.fixture(autouse=True)
def english_messages():
    with translation.override("en"):
        yield


def small_workbook() -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "申込書"
    ws.append(list(TEMPLATE_LABELS))
    ws.append(["小学生の部", "みなと子ども会A", "みなと子ども会", "小川 光", "", "2年", "井上 颯太", "", "3年"])
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def rewrite(data: bytes, replace: dict[str, bytes], add: dict[str, bytes] | None = None) -> bytes:
    """*data* with some members replaced (or added), compressed as usual."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            content = replace.get(item.filename, src.read(item.filename))
            dst.writestr(item.filename, content, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
        for name, content in (add or {}).items():
            dst.writestr(name, content, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return out.getvalue()


def sheet_xml(rows_xml: bytes) -> bytes:
    return (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        b"<sheetData>" + rows_xml + b"</sheetData></worksheet>"
    )


def refused(data: bytes) -> tuple[str, float]:
    started = time.perf_counter()
    result = parse_entry_workbook(data)
    elapsed = time.perf_counter() - started
    assert not result.teams
    assert len(result.problems) == 1
    return result.problems[0].message, elapsed


def test_a_row_of_three_million_cells_is_refused_at_once():
    row = b'<row r="1">' + b"<c><v>1</v></c>" * 3_000_000 + b"</row>"
    data = rewrite(small_workbook(), {"xl/worksheets/sheet1.xml": sheet_xml(row)})
    assert len(data) < 400_000  # small on disk, 48 MB of XML inside
    message, elapsed = refused(data)
    assert "cells in row 1" in message and "16,384" in message
    assert elapsed < 3


def test_two_million_shared_strings_are_refused_at_once():
    strings = (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="2000000" '
        b'uniqueCount="2000000">' + b"<si><t>a</t></si>" * 2_000_000 + b"</sst>"
    )
    data = rewrite(small_workbook(), {}, add={"xl/sharedStrings.xml": strings})
    assert len(data) < 200_000
    message, elapsed = refused(data)
    assert message == "The workbook is too large (shared strings 2,000,000 strings, limit 50,000 strings)."
    assert elapsed < 3


def test_shared_strings_that_hide_their_count_are_counted():
    strings = (
        b'<?xml version="1.0" encoding="UTF-8"?>'
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        + b"<si><t>a</t></si>" * 60_000
        + b"</sst>"
    )
    message, elapsed = refused(rewrite(small_workbook(), {}, add={"xl/sharedStrings.xml": strings}))
    assert message == "The workbook is too large (shared strings: more than 50,000 strings)."


def test_the_shared_strings_limit_is_said_in_japanese():
    strings = b'<sst uniqueCount="2000000">' + b"<si><t>a</t></si>" * 10 + b"</sst>"
    with translation.override("ja"):
        result = parse_entry_workbook(rewrite(small_workbook(), {}, add={"xl/sharedStrings.xml": strings}))
    assert "共有文字列 2,000,000 件、上限 50,000 件" in result.problems[0].message


def test_too_many_cells_in_one_sheet_are_refused():
    rows = b"".join(b'<row r="%d">' % n + b"<c><v>1</v></c>" * 100 + b"</row>" for n in range(1, 5_002))
    message, _ = refused(rewrite(small_workbook(), {"xl/worksheets/sheet1.xml": sheet_xml(rows)}))
    assert "cells in one sheet" in message and "500,000" in message


def test_a_row_number_beyond_excel_is_refused():
    rows = b'<row r="2000000"><c><v>1</v></c></row>'
    message, _ = refused(rewrite(small_workbook(), {"xl/worksheets/sheet1.xml": sheet_xml(rows)}))
    assert "row number 2,000,000" in message


def test_a_huge_uncompressed_member_is_refused_from_the_zip_directory():
    data = rewrite(small_workbook(), {}, add={"xl/media/padding.bin": b"\0" * (limits.MAX_UNCOMPRESSED_BYTES + 1)})
    assert len(data) < MAX_FILE_BYTES
    message, elapsed = refused(data)
    assert "size uncompressed" in message and f"{limits.MAX_UNCOMPRESSED_BYTES:,}" in message
    assert elapsed < 3


def test_too_many_zip_members_are_refused():
    extra = {f"xl/media/{n}.bin": b"" for n in range(limits.MAX_MEMBERS)}
    message, _ = refused(rewrite(small_workbook(), {}, add=extra))
    assert "files inside the workbook" in message


def test_the_time_budget_stops_reading(monkeypatch):
    monkeypatch.setattr(limits, "TIME_BUDGET_SECONDS", -1.0)
    message, _ = refused(small_workbook())
    assert "takes too long to read" in message


def test_a_tag_cut_between_two_chunks_is_still_counted(monkeypatch):
    monkeypatch.setattr(limits, "_CHUNK", 7)  # every tag crosses a chunk boundary
    monkeypatch.setattr(limits, "MAX_CELLS_PER_ROW", 3)
    row = b'<row r="1">' + b"<c><v>1</v></c>" * 4 + b"</row>"
    message, _ = refused(rewrite(small_workbook(), {"xl/worksheets/sheet1.xml": sheet_xml(row)}))
    assert "cells in row 1" in message


def test_a_normal_workbook_passes_the_limits():
    result = parse_entry_workbook(small_workbook())
    assert [t.name for t in result.teams] == ["みなと子ども会A"]
    assert not any(re.search("too large|too long", str(p)) for p in result.problems)


def test_a_huge_styles_part_is_refused_before_openpyxl_parses_it():
    styles = b"<styleSheet>" + b" " * limits.MAX_PART_BYTES + b"</styleSheet>"
    message, elapsed = refused(rewrite(small_workbook(), {"xl/styles.xml": styles}))
    assert "xl/styles.xml" in message and f"{limits.MAX_PART_BYTES:,}" in message
    assert elapsed < 3


def test_a_cell_of_twenty_million_characters_is_read_within_the_budget():
    cell = b'<c r="B2" t="inlineStr"><is><t>' + b"a" * 20_000_000 + b"</t></is></c>"
    header = b"".join(
        b'<c r="%s1" t="inlineStr"><is><t>%s</t></is></c>' % (col.encode(), label.encode())
        for col, label in zip("ABCD", ["部門", "チーム名", "所属", "氏名"], strict=True)
    )
    rows = (
        b'<row r="1">' + header + b'</row><row r="2"><c r="A2" t="inlineStr"><is><t>x</t></is></c>' + cell + b"</row>"
    )
    started = time.perf_counter()
    result = parse_entry_workbook(rewrite(small_workbook(), {"xl/worksheets/sheet1.xml": sheet_xml(rows)}))
    assert time.perf_counter() - started < 10
    assert any("at most 60" in p.message for p in result.problems)


def test_refusing_a_bomb_takes_little_memory():
    row = b'<row r="1">' + b"<c><v>1</v></c>" * 3_000_000 + b"</row>"
    data = rewrite(small_workbook(), {"xl/worksheets/sheet1.xml": sheet_xml(row)})
    del row
    tracemalloc.start()
    try:
        parse_entry_workbook(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 * 1024 * 1024  # the file is streamed in 1 MB pieces, never inflated whole
