"""Issue 18 item 9: line breaking follows 禁則 and keeps Latin words whole; no text under
6 pt on any paper; a game after midnight prints its own date.

Before: 「常陸Karut|aClub」 in the 星取表 heads, lines starting with small kana or a second
closing mark, a 40-character club at 2.9 pt, the standings' ranking line at 3–4 pt with
five divisions, the timetable's long names at 5 pt, the event's date on a game played
after midnight."""

from __future__ import annotations

import datetime
import re
from io import BytesIO

import pytest
from pypdf import PdfReader
from reportlab.pdfgen.textobject import PDFTextObject

from common.pdf.fonts import japanese_font
from common.pdf.text import MIN_PT, NO_LINE_END, NO_LINE_START, break_units, fit_lines, split_name, split_two, wrap
from common.pdf.text import text_width as width
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
EVENT = EventInfo("ひたち郷土かるた大会", 12, datetime.date(2025, 5, 3), "多賀市民プラザ")
CLUB40 = ("ひたちなか市立那珂湊第一小学校子ども会かるたクラブ高学年チームＢ組" * 2)[:40]
LATIN = "常陸KarutaClub"


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """No Django needed here (overrides tests/conftest.py's fixture)."""
    yield


# --------------------------------------------------------------------------- 禁則


@pytest.mark.parametrize("width_pt", [40, 55, 70, 90, 120])
def test_no_line_starts_with_a_closing_mark_even_two_in_a_row(width_pt):
    font = japanese_font()
    text = "試合前に審判がチーム名を確認（預かり札を含む）」、各主将がちょっと数え、ーっ署名する。" * 2
    lines = wrap(text, font, 10, width_pt)
    assert "".join(lines) == text
    for line in lines[1:]:
        assert line[0] not in NO_LINE_START, (width_pt, line)
    for line in lines[:-1]:
        assert line[-1] not in NO_LINE_END, (width_pt, line)
        assert width(line, font, 10) <= width_pt + 0.01


@pytest.mark.parametrize("width_pt", [60, 75, 90])
def test_a_latin_word_that_fits_is_never_split(width_pt):
    font = japanese_font()
    lines = wrap(f"{LATIN} かるた会", font, 10, width_pt)
    assert any("KarutaClub" in line for line in lines), lines


def test_two_line_splits_keep_words_and_kinsoku():
    font = japanese_font()
    for split in (split_name, split_two):
        for text in (LATIN, "常陸Karuta Club", "ちょっとかるたっ子会", "かるた（ひたち）会"):
            a, b = split(text, font)
            assert "Karut" not in a or "Karuta" in a, (split, a, b)
            assert b[0] not in NO_LINE_START and a[-1] not in NO_LINE_END, (split, a, b)
    assert break_units("常陸KarutaClub（み）、") == ["常", "陸", "KarutaClub", "（み）、"]


def test_fit_lines_never_goes_under_6_pt():
    font = japanese_font()
    size, lines = fit_lines(CLUB40, font, 40, 30, 9)
    assert size >= MIN_PT and len(lines) > 2
    size, lines = fit_lines(CLUB40 * 5, font, 40, 20, 9)
    assert size == MIN_PT and lines[-1].endswith("…")


# --------------------------------------------------------------------------- sizes


@pytest.fixture
def sizes(monkeypatch):
    seen: list[float] = []
    original = PDFTextObject.setFont

    def record(self, name, size, leading=None):
        seen.append(size)
        return original(self, name, size, leading)

    monkeypatch.setattr(PDFTextObject, "setFont", record)
    return seen


def papers(name: str) -> dict[str, bytes]:
    start = datetime.datetime(2025, 5, 3, 0, 30, tzinfo=UTC)
    divisions = [f"{k}年生の部（{LATIN}杯）" for k in "一二三四五"]
    n = 8
    names = [name if i == 0 else f"{LATIN}{i}" for i in range(n)]
    lines = [StandingLine(str(i + 1), names[i], name, n - 1, 1, 1, 30, 26, 4, "得失札差") for i in range(n)]
    cross = [["" if i == j else "○ 30-26" for j in range(n)] for i in range(n)]
    note = " / ".join(f"{d}: 勝数 → 得失札差 → 取り札数 → 直接対決 → 抽選" for d in divisions)
    sheet = SheetMatch(
        EVENT.name, 12, EVENT.date, divisions[0], "予選", "Aリーグ", "第1コート", 1, start, name, name, None
    )
    return {
        "recording": recording_sheets_pdf([sheet]) + recording_sheets_pdf([sheet], per_page=2),
        "timetable": court_timetables_pdf(
            EVENT, [("第1コート", [TimetableMatch(1, start, divisions[0], "予選", "A", name, name, "")])]
        ),
        "reception": reception_list_pdf(
            EVENT, [ReceptionTeam(1, divisions[0], name, name, [ReceptionPlayer(name, name, "5年")])]
        ),
        "standings": standings_pdf(EVENT, [GroupSheet(divisions[0], "A", "第1コート", lines, cross)], note),
        "bracket": bracket_pdf(
            EVENT, [(divisions[0], [BracketMatch(0, 0, "決勝", 1, name, name, "30", "26", "A")], [])]
        ),
        "results": final_results_pdf(EVENT, [(divisions[0], [ResultEntry("優勝", name, name, [name, name])])]),
        "individual": individual_pdf(
            EVENT, [IndividualSheet(divisions[0], [IndividualRow("1", name, "5年", name, name, 30, 1)])]
        ),
    }


def test_no_text_under_6_pt_on_any_paper(sizes):
    assert len(papers(CLUB40)) == 7
    assert sizes and min(sizes) >= MIN_PT


def test_a_40_character_club_prints_whole_in_the_standings_and_the_timetable():
    squash = lambda s: re.sub(r"\s+", "", s)  # noqa: E731
    made = papers(CLUB40)
    for kind in ("standings", "timetable", "results"):
        text = squash("".join(p.extract_text() for p in PdfReader(BytesIO(made[kind])).pages))
        assert CLUB40 in text, kind


def test_a_game_after_midnight_prints_its_own_date():
    after_midnight = datetime.datetime(2025, 5, 3, 15, 30, tzinfo=UTC)  # 00:30 on 4 May in Tokyo
    sheet = SheetMatch(
        EVENT.name, 12, EVENT.date, "部", "予選", "", "第1コート", 1, after_midnight, "ひたち", "みと", None
    )
    text = PdfReader(BytesIO(recording_sheets_pdf([sheet]))).pages[0].extract_text()
    assert "2025年5月4日(日)" in text and "5月3日" not in text
