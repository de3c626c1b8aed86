"""Tests for the shared PDF toolkit (common.pdf.text, common.pdf.layout) and the Japanese
dates of common.dates.  No database."""

import datetime
from io import BytesIO

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from common.dates import format_date, format_time, japanese_year
from common.pdf import pen as pen_module
from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    CONTENT_BOTTOM,
    PORTRAIT,
    Block,
    Document,
    Page,
    Section,
    paginate,
    sections_pdf,
)
from common.pdf.text import NO_LINE_END, NO_LINE_START, checked, clean, edition_title, wrap


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (datetime.date(2027, 1, 17), "令和9年"),
        (datetime.date(2019, 5, 1), "令和元年"),
        (datetime.date(2019, 4, 30), "平成31年"),
        (datetime.date(1989, 1, 8), "平成元年"),
        (datetime.date(1926, 12, 25), "昭和元年"),
        (datetime.date(1925, 6, 1), "1925年"),
    ],
)
def test_japanese_year_at_the_era_boundaries(day, expected):
    assert japanese_year(day) == expected


def test_format_date_and_time_read_aware_values_in_tokyo():
    late = datetime.datetime(2027, 1, 16, 15, 30, tzinfo=datetime.UTC)  # 00:30 on the 17th in Tokyo
    assert format_date(late) == "2027年1月17日(日)"
    assert format_date(late.date(), era=True) == "令和9年1月16日(土)"
    assert format_date(None) == ""
    assert format_time(late) == "00:30"
    assert format_time(datetime.datetime(2027, 1, 17, 9, 5)) == "09:05"  # naive = Tokyo wall clock
    assert format_time(None) == ""


def test_clean_checked_and_edition_title():
    assert clean(" かるた\x0b会\n Ａ組 ") == "かるた 会 Ａ組"
    assert clean(None) == ""
    assert edition_title("ひたち郷土かるた大会", 12) == "第12回 ひたち郷土かるた大会"
    assert edition_title("第12回ひたち郷土かるた大会", 12) == "第12回ひたち郷土かるた大会"
    assert edition_title("大会", None) == "大会"
    japanese_font()
    assert checked("かるた😀\x0b", "team") == "かるた😀"  # printed, never refused (issue 18)


def test_wrap_keeps_the_line_breaking_rules():
    """One character is carried to the next line; two in a row that may not start a line
    (「）、」) are not handled (a known limit of the greedy wrap, kept as it is)."""
    font = japanese_font()
    text = "試合前に審判がチーム名を確認。試合後、各主将が（預かり札を含む）取り札を数え、署名する。" * 3
    for width in (40, 55, 70, 90, 120):
        lines = wrap(text, font, 10, width)
        assert "".join(lines) == text
        for line in lines[1:]:
            assert line[0] not in NO_LINE_START, (width, line)
        for line in lines[:-1]:
            assert line[-1] not in NO_LINE_END, (width, line)


def _rows(n: int, height: float) -> list[Block]:
    return [Block(height, lambda pen, top: None) for _ in range(n)]


def _new_page(index: int, size=None) -> tuple[Page, float]:
    size = size or PORTRAIT
    return Page(size, lambda pen: None), size[1] - 30 * mm


def test_paginate_never_splits_a_row_and_repeats_heading_and_header():
    headings = []

    def heading(continued: bool) -> Block:
        headings.append(continued)
        return Block(10 * mm, lambda pen, top: None)

    header = Block(8 * mm, lambda pen, top: None)
    pages = paginate([Section(heading, header, _rows(40, 17 * mm))], _new_page)
    assert len(pages) > 1
    assert headings == [False] + [True] * (len(pages) - 1)
    placed = 0
    for page in pages:
        blocks = [block for block, _ in page.blocks]
        assert blocks[1] is header
        for block, top in page.blocks:
            assert top - block.height >= CONTENT_BOTTOM - 0.01
        placed += len(blocks) - 2
    assert placed == 40


def test_a_section_that_fits_a_fresh_page_moves_there_whole():
    first = Section(None, None, _rows(10, 20 * mm))
    second = Section(None, None, _rows(6, 20 * mm))
    pages = paginate([first, second], _new_page)
    assert [len(p.blocks) for p in pages] == [10, 6]


def test_sections_pdf_holds_the_render_lock_and_numbers_the_pages():
    seen = []

    def draw(pen, top):
        seen.append(pen_module.RENDER_LOCK.locked())

    section = Section(None, None, [Block(100 * mm, draw) for _ in range(5)])
    doc = Document(title="試験", subject="試験", keywords=["試験"], footer_left="第1回 大会", footer_mid="試験")
    pdf = sections_pdf([section], _new_page, doc, japanese_font())
    reader = PdfReader(BytesIO(pdf))
    assert seen == [True] * 5
    assert len(reader.pages) == 3
    assert "3 / 3" in reader.pages[2].extract_text()
    assert not pen_module.RENDER_LOCK.locked()
