"""The 賞状 PDF (issue 19 items 1–2): read back, its vertical lines are in order, nothing
leaves the text area, the calibration frame lies where the settings say.

The PDF is read with pypdf: every glyph is drawn with its own text matrix, so each one is
found with its place (e, f), its size and its direction (a turned glyph has the matrix
(0, -1, 1, 0)). Lengths in points; 1 mm = 72 / 25.4 pt. The tests pass with IPAex Mincho
and with the Gothic (``face`` fixture)."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import unicodedata
from collections import Counter
from dataclasses import dataclass, replace
from io import BytesIO

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from awards.paper import typeset
from awards.paper.certificates import (
    CertificateText,
    PaperLayout,
    render_calibration,
    render_certificates,
    room_problem,
)
from awards.paper.sheet import text_area
from awards.paper.typeset import READING_SIZE
from common.errors import UserError

MM = 72 / 25.4
BODY = "あなたは第21回ひたち郷土かるた大会 小学生高学年の部において頭書の成績を収められました\nよってこれを賞します"
CERT = CertificateText(
    title="賞状",
    place="優勝",
    division="小学生高学年の部",
    recipient="ひたち海浜かるた会",
    honorific="殿",
    body=BODY,
    date_text="令和9年1月17日",
    issuers=(("ひたち郷土かるた大会実行委員会 会長", "日立 太郎"),),
)
LONG_NAME = "ひたち海浜かるた会ジュニアＡチーム二十字𠮷😀"  # 20 characters + 𠮷 and an emoji


@pytest.fixture(params=["mincho", "gothic"])
def face(request, monkeypatch):
    """Each test twice: with IPAex Mincho (when installed) and with the Gothic."""
    monkeypatch.delenv(typeset.MINCHO_ENV_VAR, raising=False)
    if request.param == "gothic":
        monkeypatch.setattr(typeset, "MINCHO_PATHS", ())
    elif typeset._mincho_path() is None:
        pytest.skip("fonts-ipaexfont-mincho is not installed")
    typeset.reset_face()
    yield request.param
    typeset.reset_face()


@dataclass(frozen=True)
class Drawn:
    text: str
    a: float
    b: float
    c: float
    d: float
    e: float
    f: float
    size: float

    @property
    def turned(self) -> bool:
        return abs(self.a) < 1e-6 and self.b == pytest.approx(-1) and self.c == pytest.approx(1)

    @property
    def width(self) -> float:
        return typeset.certificate_face().measure(self.text) * self.size

    @property
    def centre_x(self) -> float:
        return self.e + (0.38 * self.size if self.turned else self.a * self.width / 2)

    @property
    def top(self) -> float:
        return self.f if self.turned else self.f + 0.88 * self.size

    def box(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the glyph's em box."""
        if self.turned:
            return (self.e - 0.12 * self.size, self.f - self.width, self.e + 0.88 * self.size, self.f)
        return (self.e, self.f - 0.12 * self.size, self.e + self.a * self.width, self.f + 0.88 * self.size)


def glyphs_of(pdf: bytes, page: int = 0) -> list[Drawn]:
    out: list[Drawn] = []

    def visit(text, cm, tm, font, size):
        text = text.replace("\n", "")
        if text.strip() and size != READING_SIZE:  # the invisible reading layer is read apart
            out.append(Drawn(text, *tm, size))

    PdfReader(BytesIO(pdf)).pages[page].extract_text(visitor_text=visit)
    return out


def columns(glyphs: list[Drawn]) -> list[list[Drawn]]:
    """Glyphs grouped by their column's centre, right to left, each top to bottom."""
    groups: list[list[Drawn]] = []
    for g in sorted(glyphs, key=lambda g: -g.centre_x):
        if groups and abs(groups[-1][0].centre_x - g.centre_x) < 0.25 * min(g.size, groups[-1][0].size):
            groups[-1].append(g)
        else:
            groups.append([g])
    return [sorted(col, key=lambda g: -g.top) for col in groups]


def read(col: list[Drawn]) -> str:
    return unicodedata.normalize("NFKC", "".join(g.text for g in col))


def plain(text: str) -> str:
    return unicodedata.normalize("NFKC", re.sub(r"\s+", "", text))


def reading(pdf: bytes, page: int = 0) -> list[str]:
    return [read(col) for col in columns(glyphs_of(pdf, page))]


PAPERS = [
    PaperLayout(),
    PaperLayout(size="B5", orientation="landscape", margin_top_mm=22, margin_bottom_mm=22),
    PaperLayout(size="A4", orientation="landscape", offset_x_mm=-3, offset_y_mm=2.5),
    PaperLayout(size="B5", margin_left_mm=18, margin_right_mm=18, draw_frame=True),
]


@pytest.mark.parametrize("paper", PAPERS, ids=["A4", "B5-landscape", "A4-landscape-offset", "B5-frame"])
def test_vertical_lines_read_right_to_left_top_to_bottom(face, paper):
    lines = reading(render_certificates([CERT], paper))
    issuer = "".join(CERT.issuers[0])
    expected = (
        CERT.title + CERT.place + CERT.division + CERT.recipient + CERT.honorific + BODY + CERT.date_text + issuer
    )
    assert "".join(lines) == plain(expected)
    assert lines[0] == "賞状"  # the title is the rightmost column
    assert lines[1].startswith("優勝")
    assert [line for line in lines if line.startswith("ひたち海浜")] == ["ひたち海浜かるた会殿"]
    recipient = lines.index("ひたち海浜かるた会殿")
    date = lines.index("令和9年1月17日")
    assert "".join(lines[recipient + 1 : date]) == plain(BODY)
    assert lines[date - 1] == "よってこれを賞します"  # the newline starts a column
    assert lines[-1].endswith("日立太郎")


def test_the_body_takes_more_and_shorter_columns_on_landscape_paper(face):
    def body_columns(paper):
        cols = columns(glyphs_of(render_certificates([CERT], paper)))
        sizes = [col[0].size for col in cols]
        body = min(sizes[2:-2])  # the body's size: the smallest between title and issuers but the date
        return [col for col in cols if col[0].size == pytest.approx(sizes[3]) and len(col) > 5], body

    portrait, _ = body_columns(PaperLayout())
    landscape, _ = body_columns(PaperLayout(orientation="landscape"))
    assert len(landscape) > len(portrait) >= 2
    assert max(len(c) for c in landscape) < max(len(c) for c in portrait)


@pytest.mark.parametrize("paper", PAPERS[:2])
def test_nothing_leaves_the_text_area(face, paper):
    certs = [
        CERT,
        replace(CERT, recipient=LONG_NAME),
        replace(CERT, recipient="日立 花子", team=LONG_NAME, honorific="様"),
        replace(CERT, recipient="Hitachi Karuta Club ー Juniors", honorific=""),
    ]
    pdf = render_certificates(certs, paper)
    area = text_area(paper)
    for page, cert in enumerate(certs):
        glyphs = glyphs_of(pdf, page)
        for g in glyphs:
            left, bottom, right, top = g.box()
            assert area.x - 0.5 <= left and right <= area.right + 0.5, g
            assert area.y - 0.5 <= bottom and top <= area.top + 0.5, g
        assert plain(cert.recipient) in "".join(reading(pdf, page))  # in order, across its columns


TEAM33 = "日立市立会瀬台小学校子ども会かるた部ひたち海浜ジュニアＡチーム大会"  # 33 characters


@pytest.mark.parametrize(
    ("paper", "name"),
    [
        (PaperLayout(size="B5"), LONG_NAME),
        (PaperLayout(size="B5", orientation="landscape"), LONG_NAME),
        (PaperLayout(), TEAM33),
        (PaperLayout(orientation="landscape"), TEAM33),
        (PaperLayout(size="B5"), TEAM33),
        (PaperLayout(size="B5", orientation="landscape"), TEAM33),
    ],
)
def test_a_long_name_takes_more_columns_never_smaller_than_the_body(face, paper, name):
    """Issue 19 fix, finding 4: a 33-character team name was set as small as the affiliation
    line. It now takes two or three columns at a large size, never under the body's size,
    and loses no character (𠮷 and 😀 are in the text layer too)."""
    assert len(TEAM33) == 33
    pdf = render_certificates([replace(CERT, recipient=name)], paper)
    assert plain(name) + "殿" in "".join(reading(pdf))
    glyphs = glyphs_of(pdf)
    body_size = max(g.size for g in glyphs if g.text == "頭")
    name_size = max(g.size for g in glyphs if g.text == "浜")
    assert name_size >= body_size - 0.01
    found = [read(col) for col in columns(glyphs) if col[0].size == name_size and read(col) in plain(name) + "殿"]
    assert plain(name) + "殿" == "".join(found)
    if paper.orientation == "landscape":  # short columns: as many as it takes at the body's size or larger
        assert 1 <= len(found) <= 4
    elif name == TEAM33:  # in two or three columns, larger than the body
        assert 2 <= len(found) <= 3 and name_size >= 1.2 * body_size - 0.01


def test_a_short_name_stays_in_one_column():
    pdf = render_certificates([CERT], PaperLayout(orientation="landscape"))
    assert "ひたち海浜かるた会殿" in reading(pdf)


def test_the_long_vowel_mark_and_long_latin_runs_are_turned(face):
    cert = replace(CERT, recipient="カード・ゲーム部", body="Karuta Club 2026年の大会です ー「かるた」〜")
    glyphs = glyphs_of(render_certificates([cert], PaperLayout()))
    marks = [g for g in glyphs if g.text == "ー"]
    assert marks and all(g.turned for g in marks)
    assert [g.text for g in glyphs if g.turned and g.text.isascii()] == ["Karuta", "Club", "2026"]
    assert next(g for g in glyphs if g.text == "〜").turned
    assert not next(g for g in glyphs if g.text == "カ").turned


def test_digits_upright_full_width_or_side_by_side(face):
    glyphs = glyphs_of(render_certificates([CERT], PaperLayout()))
    pair = next(g for g in glyphs if g.text == "21")  # 第21回: 縦中横, squeezed into one cell
    assert not pair.turned and pair.width * pair.a <= pair.size * 0.95
    assert any(g.text == "９" and not g.turned for g in glyphs)  # 令和9年 → 令和９年
    assert any(g.text == "17" for g in glyphs)


def test_punctuation_and_brackets_in_vertical_form_or_turned(face):
    cert = replace(CERT, body="「かるた」を、よく取りました。ちょっと（すごい）")
    glyphs = glyphs_of(render_certificates([cert], PaperLayout()))
    opening = next(g for g in glyphs if unicodedata.normalize("NFKC", g.text) == "「")
    assert opening.text == "\ufe41" or opening.turned
    comma = next(g for g in glyphs if unicodedata.normalize("NFKC", g.text) == "、")
    char_before = next(g for g in glyphs if g.text == "を")
    assert comma.text == "\ufe11" or comma.e > char_before.e + 0.4 * comma.size  # upper right of the cell
    at = next(i for i, g in enumerate(glyphs) if g.text == "ょ")
    small, big = glyphs[at], glyphs[at - 1]  # ち then ょ in one column
    assert big.text == "ち" and small.e > big.e  # moved to the right


def rectangles(pdf: bytes) -> list[tuple[float, float, float, float]]:
    page = PdfReader(BytesIO(pdf)).pages[0]
    ops = ContentStream(page.get_contents(), page.pdf).operations
    return [tuple(float(v) for v in operands) for operands, op in ops if op == b"re"]


@pytest.mark.parametrize(
    "paper",
    [
        PaperLayout(),
        PaperLayout(offset_x_mm=2.5, offset_y_mm=-1.5),
        PaperLayout(size="B5", orientation="landscape", margin_top_mm=20, margin_left_mm=15, offset_x_mm=-4),
        PaperLayout(
            size="B5", margin_top_mm=12.3, margin_right_mm=14, margin_bottom_mm=16, margin_left_mm=11, offset_y_mm=3
        ),
    ],
)
def test_calibration_frame_lies_where_the_settings_say(paper):
    pdf = render_calibration(paper)
    width, height = {"A4": (210, 297), "B5": (182, 257)}[paper.size]
    if paper.orientation == "landscape":
        width, height = height, width
    box = PdfReader(BytesIO(pdf)).pages[0].mediabox
    assert (float(box.width), float(box.height)) == (
        pytest.approx(width * MM, abs=0.01),
        pytest.approx(height * MM, abs=0.01),
    )
    left = (paper.margin_left_mm + paper.offset_x_mm) * MM
    bottom = (paper.margin_bottom_mm - paper.offset_y_mm) * MM  # offset y moves down
    w = (width - paper.margin_left_mm - paper.margin_right_mm) * MM
    h = (height - paper.margin_top_mm - paper.margin_bottom_mm) * MM
    frames = [r for r in rectangles(pdf) if abs(r[2] - w) < 0.5 and abs(r[3] - h) < 0.5]
    assert len(frames) == 1
    x, y, fw, fh = frames[0]
    assert abs(x - left) < 0.5 and abs(y - bottom) < 0.5
    text = "".join(PdfReader(BytesIO(pdf)).pages[0].extract_text().split())
    assert paper.size in text and "mm" in text


def test_offset_moves_everything_by_the_same_amount(face):
    plain_pdf = glyphs_of(render_certificates([CERT], PaperLayout()))
    moved = glyphs_of(render_certificates([CERT], PaperLayout(offset_x_mm=3, offset_y_mm=-2)))
    assert len(plain_pdf) == len(moved)
    for a, b in zip(plain_pdf, moved, strict=True):
        assert b.e - a.e == pytest.approx(3 * MM, abs=0.01)
        assert b.f - a.f == pytest.approx(2 * MM, abs=0.01)


def test_the_frame_is_drawn_only_when_asked():
    assert rectangles(render_certificates([CERT], PaperLayout())) == []
    framed = rectangles(render_certificates([CERT], PaperLayout(draw_frame=True)))
    area = text_area(PaperLayout())
    assert (pytest.approx(area.x), pytest.approx(area.y)) in [(r[0], r[1]) for r in framed]
    assert len(framed) == 2  # a double frame


def test_one_page_per_certificate_member_certificates_carry_the_team():
    certs = [
        replace(CERT, recipient=name, team="ひたち海浜かるた会", honorific="様")
        for name in ("日立 一郎", "常陸 二葉", "大甕 三太")
    ]
    pdf = render_certificates(certs, PaperLayout())
    assert len(PdfReader(BytesIO(pdf)).pages) == 3
    text = "".join(reading(pdf, 1))
    assert "ひたち海浜かるた会常陸二葉様" in text


@pytest.mark.parametrize(
    ("paper", "certs", "words"),
    [
        (PaperLayout(size="A3"), [CERT], "A3"),
        (PaperLayout(orientation="sideways"), [CERT], "sideways"),
        (PaperLayout(margin_left_mm=100, margin_right_mm=80), [CERT], "mm"),
        (PaperLayout(margin_top_mm=-1), [CERT], ""),
        # Issue 19 re-check, finding 1: a saved setting printing past the paper is refused too.
        (PaperLayout(margin_right_mm=0, margin_bottom_mm=0, offset_x_mm=30, offset_y_mm=30), [CERT], "-30"),
        (PaperLayout(margin_left_mm=7, draw_frame=True), [CERT], "3.5"),
        (PaperLayout(), [replace(CERT, body="あ" * 3000)], "ひたち海浜かるた会"),
    ],
)
def test_bad_settings_and_texts_are_refused_with_a_reason(paper, certs, words):
    with pytest.raises(UserError) as refused:
        render_certificates(certs, paper)
    assert words in refused.value.message


def test_an_empty_list_is_one_page_saying_so():
    pdf = render_certificates([], PaperLayout())
    assert len(PdfReader(BytesIO(pdf)).pages) == 1


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed")
def test_a_certificate_renders_to_a_picture(tmp_path):
    (tmp_path / "c.pdf").write_bytes(render_certificates([CERT], PaperLayout(draw_frame=True)))
    subprocess.run(["pdftoppm", "-r", "30", "-png", "-singlefile", "c.pdf", "c"], cwd=tmp_path, check=True)
    assert (tmp_path / "c.png").read_bytes()[:4] == b"\x89PNG"


ALPHABET = "あいうかきーっゃ、。「」（）【】〜…ABCxyz0123456789 \u3000𠮷😀葛\U000e0100한・"


@pytest.mark.parametrize("seed", range(3))
def test_any_text_prints_inside_the_area_and_keeps_every_character(seed):
    """Random texts (seeded): no error, nothing outside the text area, every character
    (but spaces and variation selectors) in the text layer."""
    rnd = random.Random(seed)
    fields = ["title", "place", "division", "recipient", "honorific", "body", "date_text", "team"]
    for _ in range(8):
        texts = {f: "".join(rnd.choice(ALPHABET) for _ in range(rnd.choice([0, 1, 2, 5, 20, 60]))) for f in fields}
        cert = replace(CERT, **texts)
        paper = PaperLayout(size=rnd.choice(["A4", "B5"]), orientation=rnd.choice(["portrait", "landscape"]))
        glyphs = glyphs_of(render_certificates([cert], paper))
        area = text_area(paper)
        for g in glyphs:
            left, bottom, right, top = g.box()
            assert (
                area.x - 0.5 <= left and right <= area.right + 0.5 and area.y - 0.5 <= bottom and top <= area.top + 0.5
            )
        wanted = plain("".join(texts.values()) + "".join(a + b for a, b in cert.issuers))
        assert Counter(plain("".join(g.text for g in glyphs)).replace("\U000e0100", "")) == Counter(
            wanted.replace("\U000e0100", "")
        )


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler-utils not installed")
@pytest.mark.parametrize(
    "render", [lambda: render_certificates([CERT], PaperLayout()), lambda: render_calibration(PaperLayout())]
)
def test_every_font_is_embedded(face, tmp_path, render):
    (tmp_path / "c.pdf").write_bytes(render())
    listing = subprocess.run(["pdffonts", "c.pdf"], cwd=tmp_path, check=True, capture_output=True, text=True).stdout
    rows = listing.splitlines()[2:]
    assert rows and all(row.split()[-5] == "yes" for row in rows), listing


def segments(pdf: bytes) -> list[tuple[float, float, float, float]]:
    """The straight lines of the first page (``x1 y1 m x2 y2 l``), in points."""
    page = PdfReader(BytesIO(pdf)).pages[0]
    found, start = [], None
    for operands, op in ContentStream(page.get_contents(), page.pdf).operations:
        if op == b"m":
            start = tuple(float(v) for v in operands)
        elif op == b"l" and start is not None:
            found.append((*start, *(float(v) for v in operands)))
    return found


def labels(pdf: bytes) -> list[tuple[str, float, float]]:
    """The rulers' numbers with their place (text matrix e, f)."""
    found = []

    def visit(text, cm, tm, font, size):
        if text.strip().isdigit():
            found.append((text.strip(), tm[4], tm[5]))

    PdfReader(BytesIO(pdf)).pages[0].extract_text(visitor_text=visit)
    return found


def _meets(a, b) -> bool:
    """True when segments ``a`` and ``b`` (x1, y1, x2, y2; each horizontal or vertical) touch."""
    return not (
        max(a[0], a[2]) < min(b[0], b[2]) - 0.01
        or max(b[0], b[2]) < min(a[0], a[2]) - 0.01
        or max(a[1], a[3]) < min(b[1], b[3]) - 0.01
        or max(b[1], b[3]) < min(a[1], a[3]) - 0.01
    )


@pytest.mark.parametrize("paper", [PaperLayout(), PaperLayout(size="B5", orientation="landscape", offset_x_mm=-4)])
def test_calibration_rulers_do_not_overlap_in_the_corner(paper):
    """Issue 19 fix: the top and left rulers crossed at the top-left corner, ticks and numbers
    on top of each other. Now no line or tick of the top ruler meets one of the left ruler,
    and the left ruler's numbers lie below the top ruler's."""
    pdf = render_calibration(paper)
    lines = segments(pdf)
    top_line = max((s for s in lines if abs(s[1] - s[3]) < 0.01), key=lambda s: abs(s[2] - s[0]))
    left_line = max((s for s in lines if abs(s[0] - s[2]) < 0.01), key=lambda s: abs(s[3] - s[1]))
    top_y, left_x = top_line[1], left_line[0]
    top_ruler = [top_line] + [s for s in lines if abs(s[0] - s[2]) < 0.01 and max(s[1], s[3]) == pytest.approx(top_y)]
    left_ruler = [left_line] + [
        s for s in lines if abs(s[1] - s[3]) < 0.01 and min(s[0], s[2]) == pytest.approx(left_x)
    ]
    assert len(top_ruler) > 100 and len(left_ruler) > 100
    for a in top_ruler:
        for b in left_ruler:
            assert not _meets(a, b), (a, b)
    top_numbers = [(t, x, y) for t, x, y in labels(pdf) if y > top_y - 8 * MM]
    left_numbers = [(t, x, y) for t, x, y in labels(pdf) if y <= top_y - 8 * MM]
    assert {"10", "20"} <= {t for t, _x, _y in top_numbers}  # the top ruler from the sheet's edge
    assert min(int(t) for t, _x, _y in left_numbers) == 20  # the left ruler from 20 mm down
    assert max(y for _t, _x, y in left_numbers) < min(y for _t, _x, y in top_numbers) - 2 * MM


SMALL = PaperLayout(margin_left_mm=75, margin_right_mm=75, margin_top_mm=98, margin_bottom_mm=99)  # 60 × 100 mm


@pytest.mark.parametrize(
    ("paper", "cause", "not_said"),
    [
        (PaperLayout(), "余白は十分あり、文字が多すぎるのが原因です", "余白（上"),
        (SMALL, "余白（上 98、右 75、下 99、左 75 mm）", "余白は十分あり"),
    ],
)
def test_a_certificate_that_does_not_fit_says_whether_margins_or_text_are_the_cause(paper, cause, not_said):
    """Issue 19 fix, finding 3: the refusal blamed the names when the margins were the cause."""
    with pytest.raises(UserError) as refused:
        render_certificates([replace(CERT, body="あ" * 3000)], paper)
    assert "ひたち海浜かるた会" in refused.value.message
    assert cause in refused.value.message and not_said not in refused.value.message


def test_the_margins_the_settings_accept_hold_the_reference_certificate_at_a_readable_size():
    assert room_problem(PaperLayout()) == ""
    assert room_problem(PaperLayout(size="B5", orientation="landscape")) == ""
    assert "約" in room_problem(SMALL)
