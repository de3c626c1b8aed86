"""The MC's list PDF with a long team name (issue 19 fix, finding 4): a 33-character team
name was shrunk until unreadable; it now wraps onto two lines at a readable size, and the
names below it move down (nothing overlaps)."""

import datetime
from io import BytesIO

from pypdf import PdfReader

from awards.paper.mc_list import TEAM_MIN, CallDivision, CallLine, CallMember, mc_list_pdf
from tournament.paper import EventInfo

EVENT = EventInfo("ひたち郷土かるた大会", 21, datetime.date(2027, 1, 17), "多賀市民プラザ")
TEAM33 = "日立市立会瀬台小学校子ども会かるた部ひたち海浜ジュニアＡチーム大会"
MEMBERS = [CallMember("根本 和奏", "ねもと わかな"), CallMember("井上 颯太", "いのうえ そうた")]


def drawn(pdf: bytes) -> list[tuple[str, float, float]]:
    """(text, size, baseline y) of every piece of text on the first page."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            found.append((text.strip(), size * tm[3] if tm[3] else size, tm[5] * cm[3] + cm[5]))

    PdfReader(BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return found


def test_a_long_team_name_wraps_onto_two_lines_at_a_readable_size():
    assert len(TEAM33) == 33
    line = CallLine("第3位", "", TEAM33, "会瀬台子ども会", MEMBERS)
    pieces = drawn(mc_list_pdf(EVENT, [CallDivision("小学生の部", "", [line])]))
    team = [(t, size, y) for t, size, y in pieces if t and t in TEAM33 and len(t) > 3]
    assert "".join(t for t, _s, _y in team) == TEAM33
    assert len({round(y) for _t, _s, y in team}) == 2  # two lines
    assert min(size for _t, size, _y in team) >= TEAM_MIN
    lowest_team = min(y for _t, _s, y in team)
    affiliation = next(y for t, _s, y in pieces if t == "会瀬台子ども会")
    name = next(y for t, _s, y in pieces if t == "根本 和奏")
    assert name < affiliation < lowest_team  # the affiliation below the team, the names below both


def test_a_short_team_name_stays_on_one_line_with_its_affiliation_beside_it():
    line = CallLine("優勝", "", "ひたち海浜かるた会", "会瀬台子ども会", MEMBERS)
    pieces = drawn(mc_list_pdf(EVENT, [CallDivision("小学生の部", "", [line])]))
    team = next((size, y) for t, size, y in pieces if t == "ひたち海浜かるた会")
    affiliation = next(y for t, _s, y in pieces if t == "会瀬台子ども会")
    assert team[0] == 14 and abs(team[1] - affiliation) < 0.5
