"""Issue 18 item 9: every PDF prints whatever the names, and its text layer holds them.

A name with 𠮷 (no installed font), Hangul, an emoji, 𩸽 (beyond U+FFFF, in IPAex) and an
ideographic variation sequence (葛󠄀) is printed on every kind of paper; pypdf reads the
true characters back.  Before issue 18 each of these PDFs raised ValueError (a 500) and
𩸽 read back wrong (reportlab's odd-length ToUnicode entry).
"""

from __future__ import annotations

import datetime
import os
import re
from io import BytesIO

import pytest
from pypdf import PdfReader

from common.pdf import fallback, fonts
from common.pdf.fallback import SUBSTITUTE_NAME, runs, text_width, to_unicode_cmap, unprintable_chars
from common.pdf.fonts import font_is_embedded, japanese_font
from judging.paper.recording_sheet import SheetMatch, recording_sheets_pdf
from tournament.paper import (
    BracketMatch,
    EventInfo,
    GroupSheet,
    IndividualRow,
    IndividualSheet,
    ReceptionPlayer,
    ReceptionTeam,
    ResultEntry,
    StandingLine,
    TimetableMatch,
    bracket_pdf,
    court_timetables_pdf,
    final_results_pdf,
    individual_pdf,
    reception_list_pdf,
    standings_pdf,
)

UTC = datetime.UTC
VS17 = "\U000e0100"
NAME = f"𠮷田한글😀𩸽葛{VS17}"  # the team / player name under test
OTHER = "ひたち海浜かるた会"
EVENT = EventInfo("ひたち郷土かるた大会", 12, datetime.date(2025, 5, 3), "多賀市民プラザ")
START = datetime.datetime(2025, 5, 3, 0, 30, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """No Django needed here (overrides tests/conftest.py's fixture)."""
    yield


@pytest.fixture(autouse=True)
def _fresh_fonts(monkeypatch):
    monkeypatch.delenv(fonts.ENV_VAR, raising=False)
    monkeypatch.delenv(fallback.ENV_VAR, raising=False)
    fallback.reset_fallback_cache()
    yield
    fallback.reset_fallback_cache()


def text_of(pdf: bytes) -> str:
    return re.sub(r"\s+", "", "".join(p.extract_text() for p in PdfReader(BytesIO(pdf)).pages))


def every_kind(name: str) -> dict[str, bytes]:
    sheet = SheetMatch(
        "ひたち郷土かるた大会", 12, datetime.date(2025, 5, 3), "小学生の部", "予選", "Aリーグ", "第1コート", 1, START,
        name, OTHER, None,
    )  # fmt: skip
    line = [
        StandingLine("1", name, "会瀬小", 1, 1, 0, 30, 26, 4, ""),
        StandingLine("2", OTHER, "", 1, 0, 1, 26, 30, -4, ""),
    ]
    return {
        "recording": recording_sheets_pdf([sheet]),
        "timetable": court_timetables_pdf(
            EVENT, [("第1コート", [TimetableMatch(1, START, "小学生の部", "予選", "A", name, OTHER, "")])]
        ),
        "reception": reception_list_pdf(
            EVENT, [ReceptionTeam(1, "小学生の部", name, "会瀬小", [ReceptionPlayer(name, "よしだ", "5年")])]
        ),
        "standings": standings_pdf(EVENT, [GroupSheet("小学生の部", "A", "第1コート", line, [["", "○"], ["●", ""]])]),
        "bracket": bracket_pdf(
            EVENT, [("小学生の部", [BracketMatch(0, 0, "決勝", 1, name, OTHER, "30", "26", "A")], [])]
        ),
        "results": final_results_pdf(EVENT, [("小学生の部", [ResultEntry("優勝", name, "会瀬小", [name])])]),
        "individual": individual_pdf(
            EVENT, [IndividualSheet("小学生の部", [IndividualRow("1", name, "5年", name, "", 30, 1)])]
        ),
    }


def test_every_kind_prints_the_name_and_reads_it_back():
    japanese_font()
    if not font_is_embedded():
        pytest.skip("the CID fallback font prints 〓 and keeps no true text")
    for kind, pdf in every_kind(NAME).items():
        assert NAME in text_of(pdf), kind


def test_without_fallback_fonts_the_marks_print_and_the_text_stays_true(monkeypatch):
    monkeypatch.setenv(fallback.ENV_VAR, "")
    fallback.reset_fallback_cache()
    japanese_font()
    if not font_is_embedded():
        pytest.skip("needs the TrueType font")
    assert unprintable_chars(NAME) == ["𠮷", "한", "글", "😀"]
    pdf = every_kind(NAME)["results"]
    assert NAME in text_of(pdf)
    fonts_used = {
        str(f.get_object()["/BaseFont"])
        for page in PdfReader(BytesIO(pdf)).pages
        for f in page["/Resources"]["/Font"].values()
    }
    assert any(SUBSTITUTE_NAME in f for f in fonts_used), fonts_used


def test_runs_split_by_font_and_selectors_are_zero_width(monkeypatch):
    monkeypatch.setenv(fallback.ENV_VAR, "")  # no fallback font: 𠮷 is the mark, whatever is installed
    fallback.reset_fallback_cache()
    main = japanese_font()
    if not font_is_embedded():
        pytest.skip("needs the TrueType font")
    split = runs(f"かるた𠮷葛{VS17}", main)
    assert "".join(piece for _, piece in split) == f"かるた𠮷葛{VS17}"
    assert [name for name, _ in split] == [main, SUBSTITUTE_NAME, main, fallback.INVISIBLE_NAME]
    assert text_width(f"葛{VS17}", main, 10) == text_width("葛", main, 10)
    assert text_width("𠮷", main, 10) == text_width("〓", main, 10)
    assert runs("abc", "Helvetica") == [("Helvetica", "abc")]


def test_cid_font_prints_the_mark_for_what_it_cannot_encode(monkeypatch):
    monkeypatch.setattr(fonts, "KNOWN_FONT_PATHS", ())
    monkeypatch.setattr(fonts, "_fc_match_candidates", lambda: [])
    monkeypatch.setattr(fonts, "_packaged_candidates", lambda: [])
    fallback.reset_fallback_cache()
    main = japanese_font()
    assert not font_is_embedded()
    assert runs(f"𠮷田葛{VS17}", main) == [(main, "〓田葛")]
    assert "〓田" in text_of(every_kind(NAME)["timetable"])


def test_to_unicode_cmap_writes_surrogate_pairs():
    cmap = to_unicode_cmap("AAAAAA+X", [0, 0x41, 0x20BB7, 0x1F600])
    assert "<02> <D842DFB7>" in cmap and "<03> <D83DDE00>" in cmap and "<01> <0041>" in cmap
    entries = cmap.split("beginbfchar")[1]
    for dst in re.findall(r"<[0-9A-F]{2}> <([0-9A-F]+)>", entries):
        assert len(dst) % 4 == 0, dst


def test_hokke_beyond_the_bmp_reads_back():
    """𩸽 is in IPAex: it always printed, but read back wrong before the CMap fix."""
    assert "𩸽の会" in text_of(final_results_pdf(EVENT, [("部", [ResultEntry("優勝", "𩸽の会", "", [])])]))


def test_a_colour_bitmap_font_is_never_used_as_a_fallback(monkeypatch):
    """Noto Color Emoji has no glyf table: reportlab would fail building the PDF."""
    japanese_font()
    dejavu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    if not font_is_embedded() or not os.path.isfile(dejavu):
        pytest.skip("needs IPAex and DejaVu Sans")
    monkeypatch.setenv(fallback.ENV_VAR, dejavu)
    fallback.reset_fallback_cache()
    assert fallback.describe_fallbacks() == [dejavu]
    monkeypatch.setattr(fallback, "has_outlines", lambda font: False)  # as for a CBDT font
    fallback.reset_fallback_cache()
    assert fallback.describe_fallbacks() == []
    assert "😀" in text_of(final_results_pdf(EVENT, [("部", [ResultEntry("優勝", "😀の会", "", [])])]))


IPAMJ = "/usr/share/fonts/truetype/ipamj/ipamjm.ttf"


@pytest.mark.skipif(not os.path.isfile(IPAMJ), reason="fonts-ipamj-mincho is not installed")
def test_ipamj_mincho_draws_the_rare_kanji_of_names():
    """Issue 19 fix: with Debian's fonts-ipamj-mincho installed, 𠮷 and 𡈽 are drawn from it
    (the first fallback font), not as 〓; the PDF's text layer keeps them."""
    main = japanese_font()
    if not font_is_embedded():
        pytest.skip("needs the TrueType font")
    assert fallback.describe_fallbacks()[0] == IPAMJ
    assert unprintable_chars("𠮷田𡈽") == []
    assert [name for name, _ in runs("𠮷田", main)] == ["KarutaFallback1", main]
    pdf = every_kind("𠮷田かるた会")["results"]
    assert "𠮷田かるた会" in text_of(pdf)
    assert b"KarutaSubstitute" not in pdf


def test_the_mark_without_ipamj_mincho(monkeypatch):
    """Without IPAmj Mincho (a machine that lacks it), 𠮷 is the mark: the same answer as before."""
    others = [p for p in fallback.KNOWN_FALLBACK_PATHS if "ipamj" not in p]
    monkeypatch.setattr(fallback, "KNOWN_FALLBACK_PATHS", tuple(others))
    fallback.reset_fallback_cache()
    japanese_font()
    if not font_is_embedded():
        pytest.skip("needs the TrueType font")
    if any(os.path.isfile(p) for p in others if "hanazono" in p.lower() or "Noto" in p):
        pytest.skip("another installed fallback font has 𠮷")
    assert unprintable_chars("𠮷田") == ["𠮷"]
