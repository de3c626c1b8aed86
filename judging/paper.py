"""Printed tournament paper for Hitachi Folk Karuta (ひたち郷土かるた) events.

Pure Python + reportlab (no Django), in the style of :mod:`judging.pdf` (記録用紙).  Views
turn their models into the plain frozen dataclasses below, with every text already
translated, and get PDF bytes back:

==========================  ============================================================
:func:`court_timetables_pdf`  対戦表: one wall page per court (A4 portrait)
:func:`reception_list_pdf`    受付名簿: teams by division with check-in boxes (A4 portrait)
:func:`standings_pdf`         順位表・星取表 per group (A4, landscape when a group is wide)
:func:`bracket_pdf`           トーナメント表 per division (A4 landscape)
:func:`final_results_pdf`     成績一覧 for the closing ceremony (A4 portrait)
:func:`touch_matrix_pdf`      判定表: the touch-judgment matrix on one A4 landscape page
==========================  ============================================================

Common behaviour:

* A4; Japanese text in :func:`common.pdf.fonts.japanese_font` (an embedded TrueType subset
  when a font such as IPAex Gothic is installed).
* Every data string is cleaned (control characters -> space, whitespace collapsed) and
  passed through :func:`common.pdf.fonts.check_glyphs`, so a character the font lacks raises
  ``ValueError`` naming the field (e.g. ``teams[3].players[1].name``) instead of printing
  as a blank box.  The fixed headings are Japanese and written here.
* Names are fitted to their boxes: shrunk first, then wrapped to two lines at a natural
  break (after 「・」 or a space, or where 漢字 / かな / カナ change; 禁則 respected), never
  drawn outside the box.  A wrapped name extracts from the PDF as two lines.
* Long documents run over several pages; a table row (a team block in the reception list,
  a group in the standings when it fits on one page) is never split across pages, table
  headers are repeated on every page, and each page has a footer with the event title and
  「1 / 3」 style page numbers.
* Rendering is serialised with the recording sheets' lock (reportlab keeps per-document
  font-subset state on the shared font object).
"""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import BytesIO

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from common.pdf.fonts import check_glyphs, japanese_font
from judging.engine.rules import MAX_RPS_DECISIONS, TOUCH_MATRIX, TouchState, Verdict
from judging.pdf import (
    _NO_LINE_END,
    _NO_LINE_START,
    _RENDER_LOCK,
    BAND,
    HINT,
    INK,
    LINE,
    MUTED,
    SHADE,
    WHITE,
    _clean,
    _format_time,
    _Pen,
    format_date,
)

__all__ = [
    "EventInfo",
    "TimetableGame",
    "ReceptionPlayer",
    "ReceptionTeam",
    "StandingLine",
    "GroupSheet",
    "BracketGame",
    "ResultEntry",
    "court_timetables_pdf",
    "reception_list_pdf",
    "standings_pdf",
    "bracket_pdf",
    "final_results_pdf",
    "touch_matrix_pdf",
    "UNDECIDED",
]

#: Printed for a team that is not known yet (a knockout slot, a game still to be drawn).
UNDECIDED = "未定"

PORTRAIT = A4
LANDSCAPE = landscape(A4)

MARGIN = 12 * mm
CONTENT_BOTTOM = 15 * mm  # content never goes below this line (footer underneath)
FOOTER_RULE = 10.5 * mm

RED = (0.78, 0.09, 0.11)  # winners' path in the bracket (赤線)
ZEBRA = (0.968, 0.968, 0.968)
TINT_A = (0.84, 0.90, 0.98)
TINT_B = (0.99, 0.87, 0.78)
TINT_RPS = (0.92, 0.95, 0.84)
TINT_FIRST = (0.93, 0.90, 0.97)


# =========================================================================== data types


@dataclass(frozen=True)
class EventInfo:
    """The event printed in every header and footer.

    ``name`` e.g. 「ひたち郷土かるた大会」; ``edition`` 12 prints 「第12回 ひたち郷土かるた大会」
    (not doubled when the name already starts with it); ``date`` prints
    「2025年5月3日(土)」; ``venue`` e.g. 「多賀市民プラザ」 ("" = not printed).
    """

    name: str
    edition: int | None
    date: datetime.date | None
    venue: str
    japanese_era: bool = False  # the date as 「令和9年…」 (the event's 和暦 setting)


@dataclass(frozen=True)
class TimetableGame:
    """One game on a court's 対戦表.

    ``start`` is an aware datetime printed as HH:MM in Asia/Tokyo (a naive value is taken
    as Tokyo wall-clock time; ``None`` leaves the time blank).  ``team_a``/``team_b`` of
    ``None`` print 「未定」.  ``result`` e.g. ``"30-26"`` is printed in the result column;
    ``""`` leaves it blank for the referee to write in.
    """

    match_number: int
    start: datetime.datetime | None
    division: str
    stage: str
    group: str
    team_a: str | None
    team_b: str | None
    result: str = ""


@dataclass(frozen=True)
class ReceptionPlayer:
    """A registered player: ``furigana`` in hiragana ("" = none), ``grade`` e.g. 「5年」."""

    name: str
    furigana: str
    grade: str
    is_leader: bool = False
    is_substitute: bool = False


@dataclass(frozen=True)
class ReceptionTeam:
    """A team on the 受付名簿: entry number, division, name, affiliation and players."""

    entry_number: int
    division: str
    name: str
    affiliation: str
    players: list[ReceptionPlayer] = field(default_factory=list)


@dataclass(frozen=True)
class StandingLine:
    """One row of a group's standings, already ranked by the caller.

    ``rank`` is text (``"1"``, ``"2="`` for a shared rank), ``decided_by`` the criterion
    that separated this row from the row above (e.g. 「勝数」, 「得失札差」, 「抽選」; "" = none).
    """

    rank: str
    team: str
    affiliation: str
    played: int
    wins: int
    losses: int
    cards_taken: int
    cards_conceded: int
    card_diff: int
    decided_by: str = ""


@dataclass(frozen=True)
class GroupSheet:
    """A group (リーグ) on the standings sheet.

    ``cross[i][j]`` is the 星取表 cell of row team ``lines[i]`` against column team
    ``lines[j]`` (same order as ``lines``), e.g. 「○ 30-26」, 「● 26-30」, ``""`` for the
    diagonal or a game not played yet.  A leading mark (○ ● △ × …) followed by a space is
    printed large with the score under it.
    """

    division: str
    group: str
    court: str
    lines: list[StandingLine]
    cross: list[list[str]]


@dataclass(frozen=True)
class BracketGame:
    """A knockout game.

    ``round``: rounds are consecutive integers (0- or 1-based), the final being the highest.
    ``position``: the game's index within its round (0- or 1-based, the same base for all
    games of a division); game ``(r, p)`` is fed by games ``(r-1, 2p)`` (side A) and
    ``(r-1, 2p+1)`` (side B) in 0-based terms.  A side with no feeding game is a team
    entering in that round (a bye) and is drawn on its own line.
    ``stage`` names the round (「準決勝」, 「決勝」, 「3位決定戦」…).  ``team_a``/``team_b`` of
    ``None`` print 「未定」; ``score_a``/``score_b`` are text (``""`` = not played);
    ``winner`` is ``"A"``, ``"B"`` or ``None``.
    """

    round: int
    position: int
    stage: str
    match_number: int
    team_a: str | None
    team_b: str | None
    score_a: str = ""
    score_b: str = ""
    winner: str | None = None


@dataclass(frozen=True)
class ResultEntry:
    """A placed team on the 成績一覧: ``place`` e.g. 「優勝」, 「準優勝」, 「第3位」;
    ``players`` may be empty when names are not published."""

    place: str
    team: str
    affiliation: str
    players: list[str] = field(default_factory=list)


# =========================================================================== text helpers


def _text(value: object, what: str) -> str:
    """Clean a data string and make sure the font can draw it (``ValueError`` if not)."""
    text = _clean(value)
    check_glyphs(text, what)
    return text


def _team(value: str | None, what: str) -> tuple[str, bool]:
    """A team name, or 「未定」 for ``None`` / blank.  Returns ``(text, is_undecided)``."""
    text = _text(value, what)
    return (text, False) if text else (UNDECIDED, True)


def _event_title(event: EventInfo) -> str:
    name = _clean(event.name)
    if event.edition:
        prefix = f"第{event.edition}回"
        if not name.startswith(prefix):
            return f"{prefix} {name}".strip()
    return name


@dataclass(frozen=True)
class _Event:
    title: str
    date: str
    venue: str


def _prepare_event(event: EventInfo) -> _Event:
    title = _text(_event_title(event), "event.name")
    venue = _text(event.venue, "event.venue")
    return _Event(title=title, date=format_date(event.date, event.japanese_era), venue=venue)


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking of ``text`` at ``size`` within ``width`` (禁則 respected)."""
    lines: list[str] = []
    line = ""
    for ch in text:
        if line and stringWidth(line + ch, font, size) > width:
            carry = ""
            if ch in _NO_LINE_START and len(line) > 1:
                carry, line = line[-1], line[:-1]
            while len(line) > 1 and line[-1] in _NO_LINE_END:
                carry, line = line[-1] + carry, line[:-1]
            lines.append(line.rstrip())
            line = (carry + ch).lstrip()
        else:
            line += ch
    if line:
        lines.append(line)
    return lines


def _fit_paragraph(
    text: str, font: str, width: float, height: float, max_size: float, min_size: float, leading: float = 1.38
) -> tuple[float, list[str]]:
    """Largest size (≤ ``max_size``) at which ``text`` wrapped to ``width`` fits ``height``."""
    size = max_size
    while True:
        lines = _wrap(text, font, size, width)
        if len(lines) * size * leading <= height or size <= min_size:
            return size, lines
        size = max(min_size, size - 0.25)


def _wrap_items(items: Sequence[str], sep: str, font: str, size: float, width: float) -> list[str]:
    """Join ``items`` with ``sep`` into lines no wider than ``width``; never split an item
    unless it is wider than a whole line by itself."""
    lines: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line}{sep}{item}" if line else item
        if line and stringWidth(candidate, font, size) > width:
            lines.append(line)
            line = item
        else:
            line = candidate
        while stringWidth(line, font, size) > width and len(line) > 1:
            # one item wider than the line: break it by characters
            parts = _wrap(line, font, size, width)
            lines.extend(parts[:-1])
            line = parts[-1]
            if len(parts) == 1:
                break
    if line:
        lines.append(line)
    return lines


def _char_class(ch: str) -> str:
    """Script of a character: kanji, hiragana, katakana, alphanumeric or punctuation."""
    o = ord(ch)
    if ch in "々〆ヵヶ" or 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or o >= 0x20000 or 0xF900 <= o <= 0xFAFF:
        return "kanji"
    if 0x3041 <= o <= 0x309F:
        return "hira"
    if 0x30A0 <= o <= 0x30FF or 0xFF66 <= o <= 0xFF9F:
        return "kata"
    if ch.isalnum():
        return "alnum"
    return "punct"


def _split_name(text: str, font: str) -> list[str]:
    """Split a name into two lines at its most natural point.

    Unlike a purely balanced split, a break after 「・」 or a space, or where the script
    changes (漢字 / ひらがな / カタカナ), is preferred to one inside a run of the same
    script: 「ひたち海浜かるた会・Ａ組」 -> 「ひたち海浜」「かるた会・Ａ組」.  Never splits an
    ASCII word when another break exists, and respects 禁則.
    """
    best: tuple[float, str, str] | None = None
    for i in range(1, len(text)):
        a, b = text[i - 1], text[i]
        left, right = text[:i].rstrip(), text[i:].lstrip()
        if not left or not right:
            continue
        ca, cb = _char_class(a), _char_class(b)
        if b in _NO_LINE_START or a in _NO_LINE_END:
            factor = 2.2
        elif a in " 　・/／" or b in " 　（(「『【〔":
            factor = 1.0
        elif ca == cb == "alnum" or (a.isascii() and b.isascii() and a.isalnum() and b.isalnum()):
            factor = 2.5
        elif ca != cb:
            factor = 1.12
        else:
            factor = 1.5
        score = max(stringWidth(left, font, 1.0), stringWidth(right, font, 1.0)) * factor
        if best is None or score < best[0]:
            best = (score, left, right)
    return [text] if best is None else [best[1], best[2]]


def _fit_name(
    text: str,
    font: str,
    box_w: float,
    box_h: float,
    max_size: float,
    min_size: float,
    max_lines: int = 2,
    leading: float = 1.16,
) -> tuple[float, list[str]]:
    """Font size and lines for a name in ``box_w`` × ``box_h``: one line shrunk down to
    ``min_size``, then two lines split by :func:`_split_name`; below ``min_size`` only as
    a last resort.  The result never exceeds the box."""
    unit = stringWidth(text, font, 1.0) or 1.0
    size = min(max_size, box_w / unit, box_h / 1.05)
    if size >= min_size or max_lines < 2 or len(text) < 2:
        return size, [text]
    lines = _split_name(text, font)
    if len(lines) < 2:
        return size, [text]
    widest = max(stringWidth(line, font, 1.0) for line in lines) or 1.0
    size2 = min(max_size, box_w / widest, box_h / (len(lines) * leading))
    if size2 <= size:
        return size, [text]
    return size2, lines


def _fitted(
    pen: _Pen,
    x: float,
    y: float,
    w: float,
    h: float,
    text: str,
    *,
    max_size: float,
    min_size: float,
    align: str = "center",
    bold: bool = False,
    color=INK,
    pad: float = 1.2 * mm,
    max_lines: int = 2,
    vpad: float | None = None,
) -> None:
    """Fit ``text`` into the box (shrink, then wrap to two lines at a natural break) and
    draw it vertically centred.  ``pad`` is the horizontal padding, ``vpad`` the vertical
    one (default ``0.6 * pad``)."""
    if not text:
        return
    inner_w, inner_h = w - 2 * pad, h - 2 * (pad * 0.6 if vpad is None else vpad)
    size, lines = _fit_name(text, pen.font, inner_w, inner_h, max_size, min_size, max_lines)
    leading = size * 1.16
    cy = y + h / 2 + leading * (len(lines) - 1) / 2
    tx = x + w / 2 if align == "center" else (x + w - pad if align == "right" else x + pad)
    for i, line in enumerate(lines):
        pen.text_mid(tx, cy - i * leading, line, size, align=align, bold=bold, color=color)


def _shrink(pen: _Pen, text: str, width: float, max_size: float) -> float:
    """Font size ≤ ``max_size`` at which ``text`` fits on one line of ``width``."""
    return min(max_size, width / (pen.width(text, 1.0) or 1.0))


def _boxed(
    pen: _Pen,
    x: float,
    y: float,
    w: float,
    h: float,
    text: str,
    *,
    max_size: float,
    min_size: float,
    bold: bool = False,
    color=INK,
    pad: float = 0.8 * mm,
    leading: float = 1.14,
) -> None:
    """Draw ``text`` centred in the box on as many lines as needed (shrink, then wrap;
    below ``min_size`` only as a last resort, never outside the box)."""
    if not text:
        return
    iw, ih = w - 2 * pad, h - 2 * pad
    size = max_size
    while True:
        lines = _wrap(text, pen.font, size, iw)
        fits = len(lines) * size * leading <= ih and all(pen.width(line, size) <= iw for line in lines)
        if fits or size <= 2.5:
            break
        size -= 0.25 if size > min_size else 0.1
    block = size * leading * (len(lines) - 1)
    cy = y + h / 2 + block / 2
    for i, line in enumerate(lines):
        pen.text_mid(x + w / 2, cy - i * size * leading, line, size, align="center", bold=bold, color=color)


# =========================================================================== page frame


@dataclass
class _Block:
    """A piece of a page that is never split: ``draw(pen, y_top)``; x and width are known
    to the block."""

    height: float
    draw: Callable[[_Pen, float], None]


@dataclass
class _Section:
    """A heading, an optional table header (repeated after a page break) and rows."""

    heading: Callable[[bool], _Block] | None  # continued? -> block
    header: _Block | None
    rows: list[_Block]
    keep_together: bool = True  # move the whole section to a new page if it fits there
    page_break_before: bool = False
    gap_after: float = 5 * mm
    size: tuple[float, float] | None = None  # paper for this section (None = default)


@dataclass
class _Page:
    size: tuple[float, float]
    header: Callable[[_Pen], None]
    blocks: list[tuple[_Block, float]] = field(default_factory=list)
    extra: list[Callable[[_Pen], None]] = field(default_factory=list)


def _paginate(
    sections: list[_Section], new_page: Callable[[int, tuple[float, float] | None], tuple[_Page, float]]
) -> list[_Page]:
    """Lay the sections out top to bottom; ``new_page(index, size)`` returns a fresh page
    (``size`` None = the document's default paper) and the y of its content top.  Rows
    are atomic; the heading and header are repeated on a continuation page.  A section
    with its own ``size`` starts a new page when the current one has another size."""
    pages: list[_Page] = []
    y = 0.0
    size: tuple[float, float] | None = sections[0].size if sections else None

    def start_page() -> None:
        nonlocal y
        page, y = new_page(len(pages), size)
        pages.append(page)

    def place(block: _Block) -> None:
        nonlocal y
        pages[-1].blocks.append((block, y))
        y -= block.height

    def fresh_room() -> float:
        _, top = new_page(len(pages), size)
        return top - CONTENT_BOTTOM

    start_page()
    for sec in sections:
        if sec.size is not None and sec.size != pages[-1].size:
            size = sec.size
            if not pages[-1].blocks:
                pages.pop()
            start_page()
        head = ([sec.heading(False)] if sec.heading else []) + ([sec.header] if sec.header else [])
        head_h = sum(b.height for b in head)
        first = sec.rows[0].height if sec.rows else 0.0
        total = head_h + sum(r.height for r in sec.rows)
        room = y - CONTENT_BOTTOM
        if pages[-1].blocks:
            fits = head_h + first <= room + 0.01
            if fits and sec.keep_together and total > room + 0.01 and total <= fresh_room():
                fits = False
            if sec.page_break_before or not fits:
                start_page()
        for b in head:
            place(b)
        rows_here = 0
        for row in sec.rows:
            if row.height > y - CONTENT_BOTTOM + 0.01 and rows_here:
                start_page()
                if sec.heading:
                    place(sec.heading(True))
                if sec.header:
                    place(sec.header)
                rows_here = 0
            place(row)
            rows_here += 1
        y -= sec.gap_after
    return pages


def _render(
    pages: list[_Page], *, title: str, subject: str, keywords: list[str], footer_left: str, footer_mid: str, font: str
) -> bytes:
    buf = BytesIO()
    c = Canvas(buf, pagesize=pages[0].size, pageCompression=1, initialFontName=font, lang="ja")
    c.setTitle(title)
    c.setSubject(subject)
    c.setCreator("ひたち郷土かるた大会 運営システム")
    c.setKeywords(["ひたち郷土かるた", *keywords])
    pen = _Pen(c, font)
    total = len(pages)
    for number, page in enumerate(pages, 1):
        c.setPageSize(page.size)
        page.header(pen)
        for block, y in page.blocks:
            block.draw(pen, y)
        for extra in page.extra:
            extra(pen)
        _footer(pen, page.size, footer_left, footer_mid, f"{number} / {total}")
        c.showPage()
    c.save()
    return buf.getvalue()


def _footer(pen: _Pen, size: tuple[float, float], left: str, mid: str, right: str) -> None:
    pw, _ = size
    x0, x1 = MARGIN, pw - MARGIN
    pen.hline(x0, x1, FOOTER_RULE, width=0.4, color=HINT)
    y = FOOTER_RULE - 4.2 * mm
    rw = pen.width(right, 9) + 2 * mm
    mw = min(pen.width(mid, 7.5), (x1 - x0) * 0.3) if mid else 0
    lw = (x1 - x0) / 2 - mw / 2 - 4 * mm
    if left:
        pen.text(x0, y, left, _shrink(pen, left, lw, 7.5), color=MUTED)
    if mid:
        pen.text((x0 + x1) / 2, y, mid, _shrink(pen, mid, mw, 7.5), align="center", color=MUTED)
    pen.text(x1, y, right, min(9, _shrink(pen, right, rw, 9)), align="right", bold=True, color=INK)


def _page_header(pen: _Pen, size: tuple[float, float], badge: str, ev: _Event, note_lines: Sequence[str] = ()) -> None:
    """Badge with the document title, the event title, date / venue on the right and an
    optional small note under the rule (drawn on every page)."""
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    top = ph - MARGIN
    h = 11 * mm
    bsize = 12.5
    bw = pen.width(badge, bsize) + 6 * mm
    bh = 8 * mm
    by = top - h / 2 - bh / 2
    pen.rect(x0, by, bw, bh, fill=INK, stroke=None, radius=1.2 * mm)
    pen.text_mid(x0 + bw / 2, by + bh / 2, badge, bsize, align="center", bold=True, color=WHITE)
    info = [s for s in (ev.date, f"会場 {ev.venue}" if ev.venue else "") if s]
    info_w = min(w * 0.34, max((pen.width(s, 9) for s in info), default=0))
    tx = x0 + bw + 3.5 * mm
    tw = w - (tx - x0) - info_w - (4 * mm if info else 0)
    _fitted(pen, tx, top - h, tw, h, ev.title, max_size=16, min_size=8, align="left", bold=True, pad=0.4 * mm)
    if len(info) == 1:
        pen.text_mid(x0 + w, top - h / 2, info[0], _shrink(pen, info[0], info_w, 9), align="right", color=MUTED)
    elif info:
        for i, s in enumerate(info):
            pen.text_mid(
                x0 + w, top - h / 2 + (2.2 - 4.4 * i) * mm, s, _shrink(pen, s, info_w, 9), align="right", color=MUTED
            )
    rule = top - h - 1.2 * mm
    pen.hline(x0, x0 + w, rule, width=1.3, color=INK)
    y = rule - 4.2 * mm
    for line in note_lines:
        pen.text(x0, y, line, _shrink(pen, line, w, 8.2), color=MUTED)
        y -= 4.2 * mm


def _header_height(note_lines: int = 0) -> float:
    """Distance from the page top to the content top for :func:`_page_header`."""
    return MARGIN + 12.2 * mm + (3 * mm if not note_lines else 1.8 * mm + 4.2 * mm * note_lines)


def _heading_block(
    x0: float, w: float, text: str, right: str = "", *, size: float = 13, height: float = 10 * mm
) -> _Block:
    """▽ heading with a rule under it; ``right`` is a muted note at the right end."""

    def draw(pen: _Pen, top: float) -> None:
        base = top - height + 2.6 * mm
        rw = min(pen.width(right, 9), w * 0.4) if right else 0
        avail = w - rw - (4 * mm if right else 0)
        pen.text(x0, base, text, _shrink(pen, text, avail, size), bold=True)
        if right:
            pen.text(x0 + w, base, right, _shrink(pen, right, rw, 9), align="right", color=MUTED)
        pen.hline(x0, x0 + w, base - 1.6 * mm, width=0.9, color=INK)

    return _Block(height, draw)


def _checkbox(pen: _Pen, x: float, y: float, s: float, width: float = 0.8) -> None:
    pen.rect(x, y, s, s, fill=WHITE, stroke=LINE, width=width)


def _header_row(x0: float, cols: Sequence[tuple[str, float]], height: float, *, size: float = 8.5) -> _Block:
    """Grey table header row; a label may hold a line break ("チーム\\n受付")."""

    def draw(pen: _Pen, top: float) -> None:
        y = top - height
        total = sum(w for _, w in cols)
        pen.rect(x0, y, total, height, fill=BAND, stroke=None)
        x = x0
        prev = None
        for label, w in cols:
            parts = label.split("\n")
            lead = size * 1.12
            cy = y + height / 2 + lead * (len(parts) - 1) / 2
            for i, part in enumerate(parts):
                s = min(size, _shrink(pen, part, w - 1.2 * mm, size))
                pen.text_mid(x + w / 2, cy - i * lead, part, s, align="center", bold=True)
            if x > x0 and label and prev:  # an empty label merges with its neighbours
                pen.vline(x, y, top, width=0.4, color=MUTED)
            prev = label
            x += w
        pen.rect(x0, y, total, height, stroke=LINE, width=0.9)

    return _Block(height, draw)


def _cols_x(x0: float, widths: Sequence[float]) -> list[float]:
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    return xs


def _scale_cols(widths: Sequence[float], total: float) -> list[float]:
    k = total / sum(widths)
    return [w * k for w in widths]


# =========================================================================== 対戦表


def court_timetables_pdf(event: EventInfo, courts: list[tuple[str, list[TimetableGame]]]) -> bytes:
    """対戦表 for the wall: one A4 portrait page per court.

    Input: the event, and ``(court name, games)`` pairs in print order.  Games are sorted
    by start time (unknown times last), then match number.  Each page shows the court
    name very large, then one row per game: match number, start time (HH:MM, Asia/Tokyo),
    division / stage / group, team A 「対」 team B (``None`` -> 「未定」) and a result box
    (``result`` printed, or blank to write in).  A court with more games than fit
    continues on a second page with the table header repeated.  Returns the PDF bytes.
    """
    font = japanese_font()
    ev = _prepare_event(event)
    prepared = []
    for ci, (court, games) in enumerate(courts):
        cname = _text(court, f"courts[{ci}].name")
        rows = []
        order = sorted(
            range(len(games)),
            key=lambda i: (
                games[i].start is None,
                games[i].start.timestamp() if games[i].start is not None else 0,
                games[i].match_number,
            ),
        )
        for gi in order:
            g = games[gi]
            w = f"courts[{ci}].games[{gi}]"
            stage = " ".join(p for p in (_text(g.stage, f"{w}.stage"), _text(g.group, f"{w}.group")) if p)
            rows.append(
                dict(
                    number=str(g.match_number),
                    time=_format_time(g.start),
                    division=_text(g.division, f"{w}.division"),
                    stage=stage,
                    a=_team(g.team_a, f"{w}.team_a"),
                    b=_team(g.team_b, f"{w}.team_b"),
                    result=_text(g.result, f"{w}.result"),
                )
            )
        prepared.append((cname, rows))

    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    widths = _scale_cols([15, 16, 30, 48, 7, 48, 22], w)
    xs = _cols_x(x0, widths)
    header_h = 9 * mm
    heading_h = 36 * mm
    top0 = ph - _header_height()

    def page_factory(index: int, _size=None) -> tuple[_Page, float]:
        return _Page(size, lambda pen: _page_header(pen, size, "対戦表", ev)), top0

    sections = []
    for cname, rows in prepared:
        divisions = list(dict.fromkeys(r["division"] for r in rows if r["division"]))
        summary = f"{len(rows)}試合"
        if divisions:
            summary = "・".join(divisions) + f"　全{len(rows)}試合"
        avail = top0 - CONTENT_BOTTOM - heading_h - header_h
        rh = max(12.5 * mm, min(21 * mm, avail / max(len(rows), 1)))

        def heading(continued: bool, cname=cname, summary=summary) -> _Block:
            def draw(pen: _Pen, top: float) -> None:
                label = cname + ("（続き）" if continued else "")
                bh = heading_h - 6 * mm
                pen.rect(x0, top - bh, w, bh, stroke=INK, width=2.4, radius=2 * mm)
                _fitted(
                    pen,
                    x0,
                    top - bh + 4.5 * mm,
                    w,
                    bh - 4.5 * mm,
                    label,
                    max_size=60,
                    min_size=20,
                    bold=True,
                    pad=4 * mm,
                    max_lines=1,
                )
                s = _shrink(pen, summary, w - 10 * mm, 10)
                pen.text(x0 + w / 2, top - bh + 2.6 * mm, summary, s, align="center", color=MUTED)

            return _Block(heading_h, draw)

        header = _header_row(
            x0,
            list(zip(["試合番号", "開始", "部門・区分", "Aチーム", "", "Bチーム", "結果"], widths)),
            header_h,
            size=10,
        )
        blocks = [_timetable_row(xs, r, rh, i) for i, r in enumerate(rows)]
        if not blocks:
            blocks = [_message_row(x0, w, "この コートの試合はまだありません。", 14 * mm)]
        sections.append(_Section(heading, header, blocks, keep_together=False, page_break_before=True, gap_after=0))
    if not sections:
        sections.append(_Section(None, None, [_message_row(x0, w, "コートがありません。", 14 * mm)]))

    with _RENDER_LOCK:
        pages = _paginate(sections, page_factory)
        return _render(
            pages,
            title=f"対戦表 {ev.title}",
            subject=ev.title,
            keywords=["対戦表"],
            footer_left=ev.title,
            footer_mid="対戦表",
            font=font,
        )


def _message_row(x0: float, w: float, text: str, h: float) -> _Block:
    def draw(pen: _Pen, top: float) -> None:
        pen.text_mid(x0 + w / 2, top - h / 2, text, 11, align="center", color=MUTED)

    return _Block(h, draw)


def _timetable_row(xs: list[float], r: dict, rh: float, index: int) -> _Block:
    def draw(pen: _Pen, top: float) -> None:
        y = top - rh
        x0, x1 = xs[0], xs[-1]
        if index % 2:
            pen.rect(x0, y, x1 - x0, rh, fill=ZEBRA, stroke=None)
        big = min(1.0, rh / (17 * mm))
        # match number
        _fitted(pen, xs[0], y, xs[1] - xs[0], rh, r["number"], max_size=22 * big, min_size=8, bold=True, max_lines=1)
        _fitted(pen, xs[1], y, xs[2] - xs[1], rh, r["time"], max_size=15 * big, min_size=7, max_lines=1)
        # division (small) over stage + group
        cw = xs[3] - xs[2]
        if r["division"] and r["stage"]:
            _fitted(pen, xs[2], y + rh * 0.5, cw, rh * 0.42, r["division"], max_size=8.5, min_size=5.5, color=MUTED)
            _fitted(pen, xs[2], y + rh * 0.08, cw, rh * 0.46, r["stage"], max_size=11, min_size=6)
        else:
            _fitted(pen, xs[2], y, cw, rh, r["division"] or r["stage"], max_size=11, min_size=6)
        for (name, undecided), i in ((r["a"], 3), (r["b"], 5)):
            _fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                rh,
                name,
                max_size=16 * big,
                min_size=12 * big,
                bold=not undecided,
                color=HINT if undecided else INK,
                pad=2 * mm,
            )
        pen.text_mid((xs[4] + xs[5]) / 2, y + rh / 2, "対", 10 * max(big, 0.8), align="center", color=MUTED)
        # result: printed, or a box to write in
        rx, rw = xs[6], xs[7] - xs[6]
        if r["result"]:
            _fitted(pen, rx, y, rw, rh, r["result"], max_size=16 * big, min_size=7, bold=True, max_lines=1)
        else:
            bw, bh = rw - 3.5 * mm, min(rh - 4 * mm, 11 * mm)
            pen.rect(rx + (rw - bw) / 2, y + (rh - bh) / 2, bw, bh, fill=WHITE, stroke=HINT, width=0.5, radius=1 * mm)
            pen.text_mid(rx + rw / 2, y + rh / 2, "－", 10, align="center", color=HINT)
        for x in xs[1:-1]:
            if x in (xs[4], xs[5]):
                continue
            pen.vline(x, y, top, width=0.4, color=MUTED)
        pen.vline(x0, y, top, width=0.9)
        pen.vline(x1, y, top, width=0.9)
        pen.hline(x0, x1, y, width=0.6)

    return _Block(rh, draw)


# =========================================================================== 受付名簿


def reception_list_pdf(event: EventInfo, teams: list[ReceptionTeam]) -> bytes:
    """受付名簿 (check-in list), A4 portrait.

    Input: the event and the teams.  Teams are grouped by division (divisions in order of
    first appearance, teams in the order given) under 「▽部門」 headings with team and
    player counts.  Each team is one block that is never split across pages: entry
    number, team name, affiliation and a team check-in box spanning the team's rows; one
    row per player with 主将 / 補欠 marks, the name with its furigana above it, the grade,
    a check-in box and a blank 備考 cell.  A team without registered players gets one
    blank row.  The column header is repeated on every page, the division heading with
    「（続き）」.  Returns the PDF bytes.
    """
    font = japanese_font()
    ev = _prepare_event(event)
    by_division: dict[str, list[dict]] = {}
    for ti, t in enumerate(teams):
        w = f"teams[{ti}]"
        players = []
        for pi, p in enumerate(t.players):
            pw_ = f"{w}.players[{pi}]"
            players.append(
                dict(
                    name=_text(p.name, f"{pw_}.name"),
                    furigana=_text(p.furigana, f"{pw_}.furigana"),
                    grade=_text(p.grade, f"{pw_}.grade"),
                    marks=[m for m, on in (("主将", p.is_leader), ("補欠", p.is_substitute)) if on],
                )
            )
        division = _text(t.division, f"{w}.division")
        by_division.setdefault(division, []).append(
            dict(
                number=str(t.entry_number),
                name=_text(t.name, f"{w}.name"),
                affiliation=_text(t.affiliation, f"{w}.affiliation"),
                players=players,
            )
        )

    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    labels = ["No.", "チーム名・所属", "チーム\n受付", "区分", "氏名（ふりがな）", "学年", "本人\n受付", "備考"]
    widths = _scale_cols([11, 58, 13, 13, 50, 13, 13, 15], w)
    xs = _cols_x(x0, widths)
    notes = [
        "受付したら□に✓を記入。主将＝主将（リーダー）、補欠＝補欠選手。"
        "欠席・選手の変更は備考欄に記入し、本部へ連絡してください。"
    ]
    check_glyphs(notes[0], "note")
    top0 = ph - _header_height(1)
    header = _header_row(x0, list(zip(labels, widths)), 9 * mm, size=8.5)

    def page_factory(index: int, _size=None) -> tuple[_Page, float]:
        return _Page(size, lambda pen: _page_header(pen, size, "受付名簿", ev, notes)), top0

    sections = []
    for division, dteams in by_division.items():
        n_players = sum(len(t["players"]) for t in dteams)
        right = f"{len(dteams)}チーム・{n_players}名"
        label = f"▽{division}" if division else "▽（部門なし）"

        def heading(continued: bool, label=label, right=right) -> _Block:
            return _heading_block(x0, w, label + ("（続き）" if continued else ""), right)

        blocks = [_reception_block(xs, t) for t in dteams]
        sections.append(_Section(heading, header, blocks, keep_together=False, gap_after=6 * mm))
    if not sections:
        sections.append(_Section(None, None, [_message_row(x0, w, "登録チームがありません。", 14 * mm)]))
    with _RENDER_LOCK:
        pages = _paginate(sections, page_factory)
        return _render(
            pages,
            title=f"受付名簿 {ev.title}",
            subject=ev.title,
            keywords=["受付名簿"],
            footer_left=ev.title,
            footer_mid="受付名簿",
            font=font,
        )


def _badge(pen: _Pen, cx: float, cy: float, label: str, size: float, *, filled: bool) -> None:
    bw = pen.width(label, size) + 2.4 * mm
    bh = size * 1.55
    if filled:
        pen.rect(cx - bw / 2, cy - bh / 2, bw, bh, fill=INK, stroke=None, radius=0.8 * mm)
        pen.text_mid(cx, cy, label, size, align="center", bold=True, color=WHITE)
    else:
        pen.rect(cx - bw / 2, cy - bh / 2, bw, bh, fill=WHITE, stroke=MUTED, width=0.6, radius=0.8 * mm)
        pen.text_mid(cx, cy, label, size, align="center", color=MUTED)


def _reception_block(xs: list[float], team: dict) -> _Block:
    rh = 9 * mm
    n = max(len(team["players"]), 1)
    height = max(n * rh, 16 * mm)
    rh = height / n

    def draw(pen: _Pen, top: float) -> None:
        y = top - height
        x0, x1 = xs[0], xs[-1]
        # entry number and team cell (spanning the player rows)
        pen.rect(xs[0], y, xs[1] - xs[0], height, fill=SHADE, stroke=None)
        _fitted(
            pen,
            xs[0],
            y,
            xs[1] - xs[0],
            height,
            team["number"],
            max_size=13,
            min_size=6,
            bold=True,
            max_lines=1,
            pad=0.8 * mm,
        )
        tw = xs[2] - xs[1]
        if team["affiliation"]:
            name_h = min(height - 7 * mm, 12 * mm)
            block = name_h + 5.5 * mm
            by = y + (height - block) / 2
            _fitted(
                pen,
                xs[1],
                by + 5.5 * mm,
                tw,
                name_h,
                team["name"],
                max_size=12.5,
                min_size=9,
                align="left",
                bold=True,
                pad=2 * mm,
            )
            _fitted(
                pen,
                xs[1],
                by,
                tw,
                5.5 * mm,
                team["affiliation"],
                max_size=8.5,
                min_size=5.5,
                align="left",
                color=MUTED,
                pad=2 * mm,
                max_lines=1,
            )
        else:
            _fitted(
                pen, xs[1], y, tw, height, team["name"], max_size=12.5, min_size=7, align="left", bold=True, pad=2 * mm
            )
        s = 7 * mm
        _checkbox(pen, (xs[2] + xs[3]) / 2 - s / 2, y + height / 2 - s / 2, s, width=1.1)
        # player rows
        for i in range(n):
            ry = top - (i + 1) * rh
            p = team["players"][i] if i < len(team["players"]) else None
            if i:
                pen.hline(xs[3], x1, ry + rh, width=0.35, color=MUTED)
            if p is None:
                continue
            marks = p["marks"]
            for k, m in enumerate(marks):
                cy = ry + rh / 2 + (len(marks) - 1 - 2 * k) * 2.4 * mm
                _badge(pen, (xs[3] + xs[4]) / 2, cy, m, 7.5 if len(marks) == 1 else 6.5, filled=m == "主将")
            nx, nw = xs[4], xs[5] - xs[4]
            if p["furigana"]:
                fs = min(6.5, _shrink(pen, p["furigana"], nw - 4 * mm, 6.5))
                pen.text(nx + 2 * mm, ry + rh - 1.3 * mm - fs * 0.9, p["furigana"], fs, color=MUTED)
                _fitted(pen, nx, ry, nw, rh - 3.2 * mm, p["name"], max_size=12.5, min_size=7, align="left", pad=2 * mm)
            else:
                _fitted(pen, nx, ry, nw, rh, p["name"], max_size=12.5, min_size=7, align="left", pad=2 * mm)
            _fitted(pen, xs[5], ry, xs[6] - xs[5], rh, p["grade"], max_size=10, min_size=5.5, max_lines=1, pad=0.8 * mm)
            s2 = 5.2 * mm
            _checkbox(pen, (xs[6] + xs[7]) / 2 - s2 / 2, ry + rh / 2 - s2 / 2, s2)
        for x in xs[1:-1]:
            pen.vline(x, y, top, width=0.4, color=MUTED)
        pen.rect(x0, y, x1 - x0, height, stroke=LINE, width=1.0)

    return _Block(height, draw)


# =========================================================================== 順位表・星取表

_MARKS = set("○●◯△×✕□■▲◎")


def standings_pdf(event: EventInfo, groups: list[GroupSheet], precedence_note: str = "") -> bytes:
    """順位表 with the 星取表 of each group.

    Input: the event, the groups (in print order) and an optional precedence note (e.g.
    「順位の決め方：勝数 → 得失札差 → 取り札数 → 直接対決 → 抽選」), printed under the title on
    every page together with a legend of the columns.  Per group: a 「▽部門　リーグ」 heading
    with the court, then one row per team in the order of ``lines``: rank (「2=」 kept as
    given), team and affiliation, the cross table (○ / ● and scores; the diagonal shaded
    and struck through), 試合 / 勝 / 敗 / 取札 / 失札 / 差 and the 「決定」 (decided by)
    column.  A group is kept on one page when it fits.  Groups of up to 5 teams are packed
    onto A4 portrait pages; a wider group gets A4 landscape page(s) of its own, so one
    document may mix both orientations (in the order of ``groups``).  Raises
    ``ValueError`` if ``cross`` does not match ``lines``.  Returns the PDF bytes.
    """
    font = japanese_font()
    ev = _prepare_event(event)
    note = _text(precedence_note, "precedence_note")
    prepared = []
    for gi, g in enumerate(groups):
        w = f"groups[{gi}]"
        n = len(g.lines)
        if len(g.cross) != n or any(len(row) != n for row in g.cross):
            raise ValueError(f"{w}.cross must be a {n}×{n} table in the order of lines")
        lines = []
        for li, ln in enumerate(g.lines):
            lw = f"{w}.lines[{li}]"
            lines.append(
                dict(
                    rank=_text(ln.rank, f"{lw}.rank"),
                    team=_text(ln.team, f"{lw}.team") or UNDECIDED,
                    affiliation=_text(ln.affiliation, f"{lw}.affiliation"),
                    stats=[
                        str(ln.played),
                        str(ln.wins),
                        str(ln.losses),
                        str(ln.cards_taken),
                        str(ln.cards_conceded),
                        _signed(ln.card_diff),
                    ],
                    decided_by=_text(ln.decided_by, f"{lw}.decided_by"),
                )
            )
        cross = [[_text(cell, f"{w}.cross[{i}][{j}]") for j, cell in enumerate(row)] for i, row in enumerate(g.cross)]
        prepared.append(
            dict(
                division=_text(g.division, f"{w}.division"),
                group=_text(g.group, f"{w}.group"),
                court=_text(g.court, f"{w}.court"),
                lines=lines,
                cross=cross,
            )
        )

    fixed = [10, 44]  # 順位, チーム名
    stats = [8, 8, 8, 10, 10, 10, 16]  # 試合 勝 敗 取札 失札 差 決定
    portrait_room = (PORTRAIT[0] - 2 * MARGIN) / mm - sum(fixed) - sum(stats)
    legend = (
        "○＝勝ち　●＝負け　取札＝取った札の合計　失札＝取られた札の合計　"
        "差＝取札－失札　決定＝上の順位との差がついた基準　「=」は同順位"
    )
    note_lines = (
        [f"順位の決め方：{note}" if note and not note.startswith("順位") else note, legend] if note else [legend]
    )
    note_lines = [s for s in note_lines if s]

    def page_factory(index: int, size=None) -> tuple[_Page, float]:
        size = size or PORTRAIT
        page = _Page(size, lambda pen: _page_header(pen, size, "順位表", ev, note_lines))
        return page, size[1] - _header_height(len(note_lines))

    sections = []
    for g in prepared:
        n = len(g["lines"])
        size = PORTRAIT if n * 12 <= portrait_room else LANDSCAPE
        x0, w = MARGIN, size[0] - 2 * MARGIN
        room = w / mm - sum(fixed) - sum(stats)
        cross_w = min(20.0, room / n) if n else 0.0
        name_w = min(80.0, fixed[1] + (room - cross_w * n))  # leftover goes to the names
        widths_mm = [fixed[0], name_w] + [cross_w] * n + stats
        widths = _scale_cols(widths_mm, w) if sum(widths_mm) > w / mm else [v * mm for v in widths_mm]
        xs = _cols_x(x0, widths)
        title = "　".join(p for p in (g["division"], g["group"]) if p) or "リーグ"
        court = g["court"]
        right = (court if "コート" in court else f"コート {court}") if court else ""

        def heading(continued: bool, title=title, right=right, tw=sum(widths)) -> _Block:
            return _heading_block(
                MARGIN, tw, f"▽{title}" + ("（続き）" if continued else ""), right, size=12.5, height=9.5 * mm
            )

        header = _standings_header(xs, g["lines"], n)
        rh = 11.5 * mm
        blocks = [_standing_row(xs, g, i, rh) for i in range(n)]
        if not blocks:
            blocks = [_message_row(x0, w, "チームがありません。", 10 * mm)]
        sections.append(_Section(heading, header, blocks, keep_together=True, gap_after=7 * mm, size=size))
    if not sections:
        sections.append(
            _Section(None, None, [_message_row(MARGIN, PORTRAIT[0] - 2 * MARGIN, "リーグがありません。", 14 * mm)])
        )
    with _RENDER_LOCK:
        pages = _paginate(sections, page_factory)
        return _render(
            pages,
            title=f"順位表 {ev.title}",
            subject=ev.title,
            keywords=["順位表", "星取表"],
            footer_left=ev.title,
            footer_mid="順位表・星取表",
            font=font,
        )


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _standings_header(xs: list[float], lines: list[dict], n: int) -> _Block:
    height = 17 * mm

    def draw(pen: _Pen, top: float) -> None:
        y = top - height
        x0, x1 = xs[0], xs[-1]
        pen.rect(x0, y, x1 - x0, height, fill=BAND, stroke=None)
        labels = ["順位", "チーム名・所属"]
        for i, lab in enumerate(labels):
            _fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                height,
                lab,
                max_size=9,
                min_size=5,
                bold=True,
                max_lines=1,
                pad=0.6 * mm,
            )
        for j in range(n):
            cx0, cw = xs[2 + j], xs[3 + j] - xs[2 + j]
            pen.text_mid(cx0 + cw / 2, top - 2.6 * mm, str(j + 1), 7, align="center", color=MUTED)
            _boxed(
                pen, cx0, y, cw, height - 3.6 * mm, lines[j]["team"], max_size=8.5, min_size=5, bold=True, pad=0.7 * mm
            )
        stats = ["試合", "勝", "敗", "取札", "失札", "差", "決定"]
        for k, lab in enumerate(stats):
            i = 2 + n + k
            _fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                height,
                lab,
                max_size=9,
                min_size=5,
                bold=True,
                max_lines=1,
                pad=0.5 * mm,
            )
        for x in xs[1:-1]:
            strong = x in (xs[2], xs[2 + n])
            pen.vline(x, y, top, width=0.9 if strong else 0.4, color=LINE if strong else MUTED)
        pen.rect(x0, y, x1 - x0, height, stroke=LINE, width=1.1)

    return _Block(height, draw)


def _standing_row(xs: list[float], g: dict, i: int, rh: float) -> _Block:
    line = g["lines"][i]
    n = len(g["lines"])

    def draw(pen: _Pen, top: float) -> None:
        y = top - rh
        x0, x1 = xs[0], xs[-1]
        if i % 2:
            pen.rect(x0, y, x1 - x0, rh, fill=ZEBRA, stroke=None)
        _fitted(
            pen,
            xs[0],
            y,
            xs[1] - xs[0],
            rh,
            line["rank"],
            max_size=15,
            min_size=6,
            bold=True,
            max_lines=1,
            pad=0.6 * mm,
        )
        nw = xs[2] - xs[1]
        pen.text(xs[1] + 1.3 * mm, top - 2.9 * mm, str(i + 1), 6.5, color=MUTED)
        if line["affiliation"]:
            _fitted(
                pen,
                xs[1] + 2.4 * mm,
                y + rh * 0.36,
                nw - 2.4 * mm,
                rh * 0.64,
                line["team"],
                max_size=11,
                min_size=8.5,
                align="left",
                bold=True,
                pad=1.2 * mm,
            )
            _fitted(
                pen,
                xs[1] + 2.4 * mm,
                y + 0.3 * mm,
                nw - 2.4 * mm,
                rh * 0.38,
                line["affiliation"],
                max_size=7.5,
                min_size=5,
                align="left",
                color=MUTED,
                pad=1.2 * mm,
                max_lines=1,
            )
        else:
            _fitted(
                pen,
                xs[1] + 2.4 * mm,
                y,
                nw - 2.4 * mm,
                rh,
                line["team"],
                max_size=11,
                min_size=6,
                align="left",
                bold=True,
                pad=1.2 * mm,
            )
        for j in range(n):
            cx, cw = xs[2 + j], xs[3 + j] - xs[2 + j]
            if i == j:
                pen.rect(cx, y, cw, rh, fill=BAND, stroke=None)
                pen.c.setStrokeColorRGB(*MUTED)
                pen.c.setLineWidth(0.5)
                pen.c.line(cx, y, cx + cw, top)
                continue
            _cross_cell(pen, cx, y, cw, rh, g["cross"][i][j])
        for k, value in enumerate(line["stats"]):
            c = 2 + n + k
            _fitted(
                pen,
                xs[c],
                y,
                xs[c + 1] - xs[c],
                rh,
                value,
                max_size=11,
                min_size=5,
                bold=k == 1,
                max_lines=1,
                pad=0.5 * mm,
            )
        c = 2 + n + 6
        _fitted(pen, xs[c], y, xs[c + 1] - xs[c], rh, line["decided_by"], max_size=8.5, min_size=4.5, pad=0.6 * mm)
        for x in xs[1:-1]:
            strong = x in (xs[2], xs[2 + n])
            pen.vline(x, y, top, width=0.9 if strong else 0.4, color=LINE if strong else MUTED)
        pen.vline(x0, y, top, width=1.1)
        pen.vline(x1, y, top, width=1.1)
        pen.hline(x0, x1, y, width=1.1 if i == n - 1 else 0.4, color=LINE if i == n - 1 else MUTED)

    return _Block(rh, draw)


def _cross_cell(pen: _Pen, x: float, y: float, w: float, h: float, text: str) -> None:
    if not text:
        return
    mark, _, rest = text.partition(" ")
    if mark and all(ch in _MARKS for ch in mark) and rest:
        ms = min(13.0, h * 0.45, _shrink(pen, mark, w - 1 * mm, 13))
        pen.text_mid(x + w / 2, y + h * 0.66, mark, ms, align="center", bold=mark[0] in "○◯", color=INK)
        _fitted(pen, x, y + 0.4 * mm, w, h * 0.42, rest.strip(), max_size=8, min_size=4.5, pad=0.5 * mm, max_lines=1)
    elif len(text) == 1 and text in _MARKS:
        pen.text_mid(x + w / 2, y + h / 2, text, min(14.0, h * 0.55), align="center")
    else:
        _fitted(pen, x, y, w, h, text, max_size=8.5, min_size=4.5, pad=0.5 * mm)


# =========================================================================== トーナメント表


@dataclass
class _Node:
    """Bracket node: a game, or a leaf (a team line)."""

    game: dict | None
    team: tuple[str, bool] | None = None  # leaf: (name, undecided)
    children: list[_Node] = field(default_factory=list)
    col: int = 0  # junction column (games); leaves: -1
    y: float = 0.0


def bracket_pdf(event: EventInfo, divisions: list[tuple[str, list[BracketGame], list[BracketGame]]]) -> bytes:
    """トーナメント表, one A4 landscape page per division.

    Input: the event and ``(division, games, third_place_games)`` triples.  The games form
    a knockout tree (see :class:`BracketGame` for ``round`` / ``position``); the bracket is
    drawn left to right with the team lines on the left, a column per round headed by its
    stage name, the match number and the scores at each junction, the winners' path in
    thick red and a 「優勝」 box for the final's winner.  A team entering in a later round
    (bye) has its own line running to that round.  Unknown teams print 「未定」.  Each
    third-place game is drawn as its own small bracket (with a 「第3位」 box) in the
    bottom right corner.  Raises ``ValueError`` for two games at the same round/position
    or an unknown ``winner`` value.  Returns the PDF bytes.
    """
    font = japanese_font()
    ev = _prepare_event(event)
    prepared = []
    for di, (division, games, thirds) in enumerate(divisions):
        w = f"divisions[{di}]"
        dname = _text(division, f"{w}.name")
        main = [_prep_game(g, f"{w}.games[{i}]") for i, g in enumerate(games)]
        third = [_prep_game(g, f"{w}.third_place[{i}]") for i, g in enumerate(thirds)]
        prepared.append((dname, _build_tree(main, w), third))

    size = LANDSCAPE
    pw, ph = size
    top0 = ph - _header_height()
    pages = []
    for dname, roots, third in prepared:
        page = _Page(size, lambda pen: _page_header(pen, size, "トーナメント表", ev))
        page.extra.append(_bracket_drawer(dname, roots, third, size, top0))
        pages.append(page)
    if not pages:
        page = _Page(size, lambda pen: _page_header(pen, size, "トーナメント表", ev))
        page.extra.append(
            lambda pen: pen.text_mid(pw / 2, ph / 2, "トーナメントはまだありません。", 12, align="center", color=MUTED)
        )
        pages.append(page)
    with _RENDER_LOCK:
        return _render(
            pages,
            title=f"トーナメント表 {ev.title}",
            subject=ev.title,
            keywords=["トーナメント表"],
            footer_left=ev.title,
            footer_mid="トーナメント表",
            font=font,
        )


def _prep_game(g: BracketGame, what: str) -> dict:
    winner = (g.winner or "").strip().upper() or None
    if winner not in (None, "A", "B"):
        raise ValueError(f"{what}.winner must be 'A', 'B' or None, not {g.winner!r}")
    return dict(
        round=int(g.round),
        position=int(g.position),
        stage=_text(g.stage, f"{what}.stage"),
        number=str(g.match_number),
        a=_team(g.team_a, f"{what}.team_a"),
        b=_team(g.team_b, f"{what}.team_b"),
        score_a=_text(g.score_a, f"{what}.score_a"),
        score_b=_text(g.score_b, f"{what}.score_b"),
        winner=winner,
    )


def _build_tree(games: list[dict], what: str) -> list[_Node]:
    """Roots of the knockout forest (normally one: the final)."""
    if not games:
        return []
    base = min(g["position"] for g in games)
    base = 0 if base <= 0 else 1
    low = min(g["round"] for g in games)
    index: dict[tuple[int, int], dict] = {}
    for g in games:
        key = (g["round"], g["position"] - base)
        if key in index:
            raise ValueError(f"{what}: two games at round {g['round']}, position {g['position']}")
        index[key] = g

    def build(g: dict) -> _Node:
        r, p = g["round"], g["position"] - base
        node = _Node(game=g, col=r - low)
        for side, team in ((0, g["a"]), (1, g["b"])):
            child = index.get((r - 1, 2 * p + side))
            node.children.append(build(child) if child else _Node(game=None, team=team, col=-1))
        return node

    roots = [g for g in games if (g["round"] + 1, (g["position"] - base) // 2) not in index]
    roots.sort(key=lambda g: (-g["round"], g["position"]))
    return [build(g) for g in roots]


def _leaves(node: _Node) -> list[_Node]:
    if node.game is None:
        return [node]
    return [leaf for c in node.children for leaf in _leaves(c)]


def _games(node: _Node) -> list[_Node]:
    if node.game is None:
        return []
    return [node] + [g for c in node.children for g in _games(c)]


def _bracket_drawer(
    dname: str, roots: list[_Node], third: list[dict], size: tuple[float, float], top0: float
) -> Callable[[_Pen], None]:
    pw, ph = size
    x0, x1 = MARGIN, pw - MARGIN
    w = x1 - x0
    head_h = 10 * mm
    label_h = 7 * mm
    area_top = top0 - head_h - label_h
    area_bottom = CONTENT_BOTTOM + 2 * mm
    n_cols = max((r.col + 1 for r in roots), default=0)
    all_leaves = [leaf for r in roots for leaf in _leaves(r)]
    L = len(all_leaves) + max(len(roots) - 1, 0)  # a blank slot between separate trees

    name_w = min(66 * mm, w * 0.25)
    champ_w = 50 * mm
    third_w = min(name_w, 56 * mm) + 24 * mm + 14 * mm + 44 * mm
    third_h = 30 * mm
    thirds_h = third_h * len(third) + 3 * mm * max(len(third) - 1, 0)

    geo = {"left": x0}

    def layout(bottom: float):
        slot = min(16 * mm, (area_top - bottom) / max(L, 1))
        span = slot * L
        centre = L <= 8 and not third
        top = area_top - max(0.0, (area_top - bottom - span) / 2) if centre else area_top
        step = min(48 * mm, (w - name_w - champ_w - 6 * mm) / (n_cols + 0.55)) if n_cols else 0
        used = name_w + step * (n_cols + 0.55) + 2 * mm + champ_w
        geo["left"] = left = x0 + max(0.0, (w - used) / 2)  # small brackets centred
        xj = [left + name_w + step * (k + 1) for k in range(n_cols)]
        i = 0
        for root in roots:
            for leaf in _leaves(root):
                leaf.y = top - slot * (i + 0.5)
                i += 1
            i += 1
        for root in roots:
            _assign_y(root)
        return slot, xj, step

    def bbox_hits(slot, xj, rect) -> bool:
        rx0, ry0, rx1, ry1 = rect
        for root in roots:
            for g in _games(root):
                gx = xj[g.col]
                for c in g.children:
                    cx = geo["left"] if c.game is None else xj[c.col]
                    seg = (min(cx, gx), min(c.y, g.y) - 4 * mm, gx + 26 * mm, max(c.y, g.y) + 4 * mm)
                    if seg[0] < rx1 and rx0 < seg[2] and seg[1] < ry1 and ry0 < seg[3]:
                        return True
            if root.col == n_cols - 1:  # champion box
                seg = (xj[-1], root.y - 12 * mm, x1, root.y + 12 * mm)
                if seg[0] < rx1 and rx0 < seg[2] and seg[1] < ry1 and ry0 < seg[3]:
                    return True
        return False

    bottom = area_bottom
    slot, xj, step = layout(bottom)
    if third:
        rect = (x1 - third_w, area_bottom, x1, area_bottom + thirds_h)
        if bbox_hits(slot, xj, rect):
            bottom = area_bottom + thirds_h + 6 * mm
            slot, xj, step = layout(bottom)

    def draw(pen: _Pen) -> None:
        top = top0
        _heading_block(
            x0, w, f"▽{dname}", f"{len(all_leaves)}チーム" if all_leaves else "", size=13.5, height=head_h
        ).draw(pen, top)
        if not roots and not third:
            pen.text_mid(
                pw / 2, (area_top + area_bottom) / 2, "組み合わせは未定です。", 12, align="center", color=MUTED
            )
            return
        # round labels
        stages: dict[int, Counter] = {}
        for root in roots:
            for g in _games(root):
                stages.setdefault(g.col, Counter())[g.game["stage"]] += 1
        ly = top0 - head_h - label_h / 2
        for col, counter in stages.items():
            label = counter.most_common(1)[0][0]
            if label:
                cx = xj[col] - step / 2
                s = _shrink(pen, label, step - 3 * mm, 10)
                pen.rect(
                    cx - step / 2 + 1.5 * mm,
                    ly - 2.6 * mm,
                    step - 3 * mm,
                    5.2 * mm,
                    fill=SHADE,
                    stroke=None,
                    radius=1 * mm,
                )
                pen.text_mid(cx, ly, label, s, align="center", bold=True, color=MUTED)
        if roots and roots[0].col == n_cols - 1 and len(roots) == 1:
            cx = xj[-1] + step * 0.55 + 2 * mm + (champ_w - 2 * mm) / 2
            pen.text_mid(cx, ly, "優勝", 10, align="center", bold=True, color=INK)
        # team lines
        nh = min(slot * 0.78, 9.5 * mm)
        left = geo["left"]
        for leaf in all_leaves:
            name, undecided = leaf.team
            pen.rect(left, leaf.y - nh / 2, name_w, nh, fill=WHITE, stroke=MUTED, width=0.5, radius=0.8 * mm)
            _fitted(
                pen,
                left,
                leaf.y - nh / 2,
                name_w,
                nh,
                name,
                max_size=11.5,
                min_size=6,
                align="left",
                bold=not undecided,
                color=HINT if undecided else INK,
                pad=1.6 * mm,
                vpad=min(0.8 * mm, nh * 0.08),
            )
        games = [g for root in roots for g in _games(root)]
        # plain lines first, the winners' path on top
        for emphasised in (False, True):
            for g in games:
                gx = xj[g.col]
                for side, c in zip("AB", g.children):
                    win = g.game["winner"] == side
                    if win != emphasised:
                        continue
                    cx = left + name_w if c.game is None else xj[c.col]
                    color, width = (RED, 2.2) if win else (LINE, 0.7)
                    pen.hline(cx, gx, c.y, width=width, color=color)
                    pen.vline(gx, c.y, g.y, width=width, color=color)
        # scores and match numbers
        for g in games:
            gx = xj[g.col]
            (ca, cb) = g.children
            mouth = abs(ca.y - cb.y)
            ss = min(9.0, mouth / 2.6)
            if ss >= 5.5:
                # each score inside the mouth, next to its own line
                for side, c, key in (("A", ca, "score_a"), ("B", cb, "score_b")):
                    score = g.game[key]
                    if not score:
                        continue
                    win = g.game["winner"] == side
                    by = c.y - ss * 1.05 if side == "A" else c.y + ss * 0.3
                    pen.text(gx - 1.3 * mm, by, score, ss, align="right", bold=win, color=RED if win else MUTED)
            elif g.game["score_a"] or g.game["score_b"]:
                # a narrow mouth: one 「30-24」 line in the middle, winner's score in red
                cs = max(4.5, min(7.0, mouth * 0.62))
                parts = [
                    (g.game["score_a"], g.game["winner"] == "A"),
                    ("-", False),
                    (g.game["score_b"], g.game["winner"] == "B"),
                ]
                x = gx - 1.1 * mm - sum(pen.width(t, cs) for t, _ in parts)
                for t, win in parts:
                    pen.text_mid(x, g.y, t, cs, bold=win, color=RED if win else MUTED)
                    x += pen.width(t, cs)
            label = f"第{g.game['number']}試合"
            ms = max(5.0, min(7.0, slot * 0.45))
            out_end = xj[g.col + 1] if g.col + 1 < len(xj) else gx + step * 0.55
            ms = min(ms, _shrink(pen, label, (out_end - gx) - 3 * mm, ms))
            pen.text(gx + 1.3 * mm, g.y + 1.1 * mm, label, ms, color=MUTED)
        # the winner of each tree
        for root in roots:
            gx = xj[root.col]
            decided = root.game["winner"] in ("A", "B")
            end = gx + step * 0.55
            pen.hline(gx, end + 2 * mm, root.y, width=2.2 if decided else 0.7, color=RED if decided else LINE)
            if root is roots[0] and root.col == n_cols - 1 and len(roots) == 1:
                bw, bh = champ_w - 2 * mm, min(max(slot * 0.9, 10 * mm), 14 * mm)
                bx = end + 2 * mm
                name, undecided = _winner_name(root.game)
                pen.rect(
                    bx,
                    root.y - bh / 2,
                    bw,
                    bh,
                    fill=WHITE,
                    stroke=RED if decided else LINE,
                    width=1.8 if decided else 0.8,
                    radius=1.2 * mm,
                )
                _fitted(
                    pen,
                    bx,
                    root.y - bh / 2,
                    bw,
                    bh,
                    name,
                    max_size=13,
                    min_size=6,
                    bold=not undecided,
                    color=HINT if undecided else INK,
                    pad=2 * mm,
                )
        # third-place games, bottom right
        y = area_bottom + thirds_h
        for t in third:
            _draw_third(pen, t, x1 - third_w, y - third_h, third_w, third_h, min(name_w, 56 * mm))
            y -= third_h + 3 * mm

    return draw


def _assign_y(node: _Node) -> None:
    if node.game is None:
        return
    for c in node.children:
        _assign_y(c)
    node.y = (node.children[0].y + node.children[1].y) / 2


def _winner_name(game: dict) -> tuple[str, bool]:
    if game["winner"] == "A":
        return game["a"]
    if game["winner"] == "B":
        return game["b"]
    return UNDECIDED, True


def _draw_third(pen: _Pen, g: dict, x: float, y: float, w: float, h: float, name_w: float) -> None:
    """A single game drawn as a small bracket: label, two team lines, result box."""
    label_h = 6 * mm
    pen.rect(x, y, w, h, fill=None, stroke=HINT, width=0.4, radius=1.5 * mm, dash=(2, 1.5))
    lab = g["stage"] or "3位決定戦"
    pen.text(x + 2 * mm, y + h - label_h + 1.6 * mm, lab, 9.5, bold=True, color=MUTED)
    inner_top = y + h - label_h
    slot = (inner_top - y - 1.5 * mm) / 2
    ya, yb = inner_top - slot * 0.5, inner_top - slot * 1.5
    nh = min(slot * 0.8, 8.5 * mm)
    nx = x + 2 * mm
    nw = name_w - 2 * mm
    for (name, undecided), ty in ((g["a"], ya), (g["b"], yb)):
        pen.rect(nx, ty - nh / 2, nw, nh, fill=WHITE, stroke=MUTED, width=0.5, radius=0.8 * mm)
        _fitted(
            pen,
            nx,
            ty - nh / 2,
            nw,
            nh,
            name,
            max_size=10.5,
            min_size=5.5,
            align="left",
            bold=not undecided,
            color=HINT if undecided else INK,
            pad=1.4 * mm,
        )
    gx = nx + nw + 24 * mm
    gy = (ya + yb) / 2
    for emphasised in (False, True):
        for side, ty in (("A", ya), ("B", yb)):
            win = g["winner"] == side
            if win != emphasised:
                continue
            color, width = (RED, 2.2) if win else (LINE, 0.7)
            pen.hline(nx + nw, gx, ty, width=width, color=color)
            pen.vline(gx, ty, gy, width=width, color=color)
    ss = 8.5
    for side, ty, key in (("A", ya, "score_a"), ("B", yb, "score_b")):
        if g[key]:
            win = g["winner"] == side
            by = ty - ss * 1.05 if side == "A" else ty + ss * 0.3
            pen.text(gx - 1.3 * mm, by, g[key], ss, align="right", bold=win, color=RED if win else MUTED)
    decided = g["winner"] in ("A", "B")
    bx = gx + 14 * mm
    pen.hline(gx, bx, gy, width=2.2 if decided else 0.7, color=RED if decided else LINE)
    label = f"第{g['number']}試合"
    pen.text(gx + 1.3 * mm, gy + 1.1 * mm, label, _shrink(pen, label, 11.5 * mm, 6.5), color=MUTED)
    bw = x + w - 2 * mm - bx
    bh = min(nh * 1.2, 10 * mm)
    pen.text_mid(bx + bw / 2, gy + bh / 2 + 2.6 * mm, "第3位", 8.5, align="center", bold=True)
    name, undecided = _winner_name(g)
    pen.rect(
        bx,
        gy - bh / 2,
        bw,
        bh,
        fill=WHITE,
        stroke=RED if decided else LINE,
        width=1.6 if decided else 0.8,
        radius=1 * mm,
    )
    _fitted(
        pen,
        bx,
        gy - bh / 2,
        bw,
        bh,
        name,
        max_size=11,
        min_size=5.5,
        bold=not undecided,
        color=HINT if undecided else INK,
        pad=1.6 * mm,
    )


# =========================================================================== 成績一覧


def _place_number(place: str) -> int | None:
    """「優勝」 -> 1, 「準優勝」 -> 2, 「第3位」/「３位」/「三位」 -> 3, else ``None``."""
    p = unicodedata.normalize("NFKC", place).replace(" ", "")
    if p in ("優勝", "第1位", "1位", "一位"):
        return 1
    if p in ("準優勝", "第2位", "2位", "二位"):
        return 2
    kanji = {"三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8}
    m = re.fullmatch(r"第?(\d+|[三四五六七八])位", p)
    if m:
        v = m.group(1)
        return int(v) if v.isdigit() else kanji[v]
    return None


def final_results_pdf(event: EventInfo, divisions: list[tuple[str, list[ResultEntry]]]) -> bytes:
    """成績一覧 for the closing ceremony, A4 portrait.

    Input: the event and ``(division, entries)`` pairs in print order.  Page 1 carries the
    title 「成績一覧」, the event title, date and venue; every page carries 「（敬称略）」.
    Each division has a 「▽部門」 heading, then one block per entry: the rank 「(1)」
    (derived from ``place``: 優勝 1, 準優勝 2, 第N位 N; none for other awards), the place,
    the team name, 「（所属）」 and the players' names (wrapped between names) when given.
    A division is kept on one page when it fits; an entry is never split.  Returns the
    PDF bytes.
    """
    font = japanese_font()
    ev = _prepare_event(event)
    prepared = []
    for di, (division, entries) in enumerate(divisions):
        w = f"divisions[{di}]"
        items = []
        for ei, e in enumerate(entries):
            ew = f"{w}.entries[{ei}]"
            place = _text(e.place, f"{ew}.place")
            items.append(
                dict(
                    place=place,
                    number=_place_number(place),
                    team=_text(e.team, f"{ew}.team") or UNDECIDED,
                    affiliation=_text(e.affiliation, f"{ew}.affiliation"),
                    players=[s for s in (_text(p, f"{ew}.players[{pi}]") for pi, p in enumerate(e.players)) if s],
                )
            )
        prepared.append((_text(division, f"{w}.name"), items))

    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    first_h = 54 * mm
    font_name = font

    def first_header(pen: _Pen) -> None:
        top = ph - MARGIN
        pen.text(pw / 2, top - 14 * mm, "成績一覧", 28, align="center", bold=True)
        pen.hline(pw / 2 - 38 * mm, pw / 2 + 38 * mm, top - 17.5 * mm, width=1.6, color=INK)
        pen.hline(pw / 2 - 38 * mm, pw / 2 + 38 * mm, top - 18.6 * mm, width=0.5, color=INK)
        pen.text(pw / 2, top - 28 * mm, ev.title, _shrink(pen, ev.title, w, 17), align="center", bold=True)
        info = "　".join(s for s in (ev.date, f"会場 {ev.venue}" if ev.venue else "") if s)
        if info:
            pen.text(pw / 2, top - 35.5 * mm, info, _shrink(pen, info, w, 11), align="center", color=MUTED)
        pen.text(x0 + w, top - first_h + 10 * mm, "（敬称略）", 10.5, align="right")

    def later_header(pen: _Pen) -> None:
        _page_header(pen, size, "成績一覧", ev)
        pen.text(x0 + w, ph - _header_height() - 1 * mm, "（敬称略）", 10.5, align="right")

    def page_factory(index: int, _size=None) -> tuple[_Page, float]:
        if index == 0:
            return _Page(size, first_header), ph - MARGIN - first_h + 6 * mm
        return _Page(size, later_header), ph - _header_height() - 5 * mm

    sections = []
    for dname, items in prepared:
        label = f"▽{dname}" if dname else "▽"

        def heading(continued: bool, label=label) -> _Block:
            return _heading_block(x0, w, label + ("（続き）" if continued else ""), size=15, height=12 * mm)

        blocks = [_result_block(x0, w, it, font_name) for it in items]
        if not blocks:
            blocks = [_message_row(x0, w, "該当なし", 12 * mm)]
        sections.append(_Section(heading, None, blocks, keep_together=True, gap_after=7 * mm))
    if not sections:
        sections.append(_Section(None, None, [_message_row(x0, w, "成績はまだありません。", 14 * mm)]))
    with _RENDER_LOCK:
        pages = _paginate(sections, page_factory)
        return _render(
            pages,
            title=f"成績一覧 {ev.title}",
            subject=ev.title,
            keywords=["成績一覧"],
            footer_left=ev.title,
            footer_mid="成績一覧",
            font=font,
        )


def _result_block(x0: float, w: float, it: dict, font: str) -> _Block:
    rank_w = 16 * mm
    place_w = 26 * mm
    tx = x0 + rank_w + place_w + 3 * mm
    tw = x0 + w - tx
    psize = 11.0
    players = _wrap_items(it["players"], "　", font, psize, tw - 2 * mm) if it["players"] else []
    name_h = 9.5 * mm
    aff_h = 5.5 * mm if it["affiliation"] else 0
    pl_h = len(players) * psize * 1.5
    height = 2.2 * mm + name_h + aff_h + (pl_h + 1.2 * mm if players else 0) + 2.6 * mm

    def draw(pen: _Pen, top: float) -> None:
        y = top - 2.2 * mm - name_h
        cy = y + name_h / 2
        if it["number"] is not None:
            rank = f"({it['number']})"
            pen.text_mid(x0 + 1 * mm, cy, rank, 16, bold=True)
        place = it["place"]
        if place:
            ps = min(11.5, _shrink(pen, place, place_w - 4 * mm, 11.5))
            bw, bh = place_w - 2 * mm, 7.5 * mm
            bx = x0 + rank_w
            first = it["number"] == 1
            pen.rect(
                bx,
                cy - bh / 2,
                bw,
                bh,
                fill=INK if first else WHITE,
                stroke=None if first else INK,
                width=1.0,
                radius=1.2 * mm,
            )
            pen.text_mid(bx + bw / 2, cy, place, ps, align="center", bold=True, color=WHITE if first else INK)
        _fitted(pen, tx, y, tw, name_h, it["team"], max_size=16, min_size=8, align="left", bold=True, pad=1 * mm)
        yy = y
        if it["affiliation"]:
            yy -= aff_h
            aff = f"（{it['affiliation']}）"
            pen.text_mid(tx + 1 * mm, yy + aff_h / 2, aff, _shrink(pen, aff, tw - 2 * mm, 10.5), color=MUTED)
        if players:
            yy -= 1.2 * mm
            for line in players:
                yy -= psize * 1.5
                s = _shrink(pen, line, tw - 2 * mm, psize)
                pen.text(tx + 1 * mm, yy + psize * 0.35, line, s)
        pen.hline(x0, x0 + w, top - height, width=0.4, color=HINT, dash=(1.2, 1.6))

    return _Block(height, draw)


# =========================================================================== 判定表

#: Row / column labels of the touch-judgment matrix, in the rules page's order.
TOUCH_LABELS: list[tuple[TouchState, str, str]] = [
    (TouchState.BOTH, "両方触った", "正しい札と間違った札の両方に触れた"),
    (TouchState.CORRECT_ONLY, "正しい札だけ", "読まれた札だけに触れた"),
    (TouchState.WRONG_ONLY, "間違った札だけ", "読まれていない札だけに触れた"),
    (TouchState.NEITHER, "どちらも触らない", "どちらの札にも触れていない"),
]

#: Printed verdicts: label, short explanation, cell tint.
VERDICT_LABELS: dict[Verdict, tuple[str, str, tuple[float, float, float]]] = {
    Verdict.A: ("A", "Aチームが取る", TINT_A),
    Verdict.B: ("B", "Bチームが取る", TINT_B),
    Verdict.RPS: ("じゃんけん", f"1試合 最大{MAX_RPS_DECISIONS}回", TINT_RPS),
    Verdict.FIRST_TO_TOUCH: ("先に正しい札に触れたチーム", "", TINT_FIRST),
}


def touch_matrix_cells() -> list[list[str]]:
    """The printed verdict labels, rows = team A's state, columns = team B's state, in the
    order of :data:`TOUCH_LABELS` (taken from :data:`judging.engine.rules.TOUCH_MATRIX`)."""
    return [[VERDICT_LABELS[TOUCH_MATRIX[(ra, cb)]][0] for cb, _, _ in TOUCH_LABELS] for ra, _, _ in TOUCH_LABELS]


def touch_matrix_pdf(title: str = "判定表") -> bytes:
    """The touch-judgment matrix (判定表) on ONE A4 landscape page, for the referees.

    Input: the page title (default 「判定表」).  Rows are team A's state (両方触った /
    正しい札だけ / 間違った札だけ / どちらも触らない), columns team B's; cells read A / B /
    じゃんけん / 先に正しい札に触れたチーム, from :data:`judging.engine.rules.TOUCH_MATRIX` (the rules
    page).  Under the matrix: notes on お手つき (the correct card goes to the opponent, one
    card only however many wrong touches), the last two cards (leaders only; whoever takes
    the first takes both) and じゃんけん (at most 3 per game).  Returns the PDF bytes.
    """
    font = japanese_font()
    title = _clean(title) or "判定表"
    check_glyphs(title, "title")
    size = LANDSCAPE
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    cells = touch_matrix_cells()

    notes = [
        (
            "お手つき",
            "読まれていない札（間違った札）に触れたら、正しい札は相手チームのものになる。"
            "同じチームの何人が何枚まちがえて触っても、相手に渡すのは1枚だけ。",
        ),
        (
            "最後の2枚",
            "残り2枚になったら読み手が2枚とも読んで確認し、30cm離して中央に置く。"
            "取り合うのは両チームの主将（リーダー）だけ。先に1枚取ったチームが2枚とも取る。",
        ),
        (
            "じゃんけん",
            f"同時に触れたときのじゃんけんは、1試合で最大{MAX_RPS_DECISIONS}回まで。"
            "同じチームの何人かが同じ札を押さえたときは、いちばん下にある手の人が取る。"
            "同じ札・同じ時・同じ場所ならじゃんけん。",
        ),
    ]
    for head, body in notes:
        check_glyphs(head + body, "note")

    def draw(pen: _Pen) -> None:
        top = ph - MARGIN
        # title
        ts = 26
        pen.text(x0, top - 10 * mm, title, _shrink(pen, title, w * 0.4, ts), bold=True)
        sub = "同じ札に両チームが触れたときの判定（行＝Aチーム、列＝Bチーム）"
        tw = pen.width(title, _shrink(pen, title, w * 0.4, ts))
        pen.text(x0 + tw + 6 * mm, top - 10 * mm, sub, _shrink(pen, sub, w - tw - 6 * mm, 12), color=MUTED)
        pen.hline(x0, x0 + w, top - 14 * mm, width=1.4, color=INK)

        head_w = 64 * mm
        col_w = (w - head_w) / 4
        head_h = 21 * mm
        row_h = 25 * mm
        mt = top - 18 * mm
        # corner with the diagonal
        cy0 = mt - head_h
        pen.rect(x0, cy0, head_w, head_h, fill=BAND, stroke=None)
        pen.c.setStrokeColorRGB(*LINE)
        pen.c.setLineWidth(0.7)
        pen.c.line(x0, mt, x0 + head_w, cy0)
        pen.text(x0 + head_w - 3 * mm, mt - 7 * mm, "Bチーム →", 12, align="right", bold=True)
        pen.text(x0 + 3 * mm, cy0 + 3.5 * mm, "Aチーム ↓", 12, bold=True)
        for j, (_, label, desc) in enumerate(TOUCH_LABELS):
            cx = x0 + head_w + j * col_w
            pen.rect(cx, cy0, col_w, head_h, fill=BAND, stroke=None)
            pen.text_mid(
                cx + col_w / 2,
                cy0 + head_h * 0.62,
                label,
                _shrink(pen, label, col_w - 4 * mm, 15),
                align="center",
                bold=True,
            )
            pen.text_mid(
                cx + col_w / 2,
                cy0 + head_h * 0.27,
                desc,
                _shrink(pen, desc, col_w - 4 * mm, 8.5),
                align="center",
                color=MUTED,
            )
        for i, (_, label, desc) in enumerate(TOUCH_LABELS):
            ry = cy0 - (i + 1) * row_h
            pen.rect(x0, ry, head_w, row_h, fill=SHADE, stroke=None)
            pen.text_mid(
                x0 + head_w / 2,
                ry + row_h * 0.6,
                label,
                _shrink(pen, label, head_w - 6 * mm, 16),
                align="center",
                bold=True,
            )
            pen.text_mid(
                x0 + head_w / 2,
                ry + row_h * 0.27,
                desc,
                _shrink(pen, desc, head_w - 6 * mm, 8.5),
                align="center",
                color=MUTED,
            )
            for j, text in enumerate(cells[i]):
                verdict = next(v for v, lab in VERDICT_LABELS.items() if lab[0] == text)
                _, expl, tint = VERDICT_LABELS[verdict]
                cx = x0 + head_w + j * col_w
                pen.rect(cx, ry, col_w, row_h, fill=tint, stroke=None)
                if verdict in (Verdict.A, Verdict.B):
                    pen.text_mid(cx + col_w / 2, ry + row_h * 0.58, text, 34, align="center", bold=True)
                    pen.text_mid(cx + col_w / 2, ry + row_h * 0.18, expl, 9, align="center", color=MUTED)
                elif verdict is Verdict.RPS:
                    pen.text_mid(
                        cx + col_w / 2,
                        ry + row_h * 0.56,
                        text,
                        _shrink(pen, text, col_w - 6 * mm, 21),
                        align="center",
                        bold=True,
                    )
                    pen.text_mid(cx + col_w / 2, ry + row_h * 0.18, expl, 9, align="center", color=MUTED)
                else:
                    _fitted(pen, cx, ry, col_w, row_h, text, max_size=17, min_size=15, bold=True, pad=3 * mm)
        # grid
        mb = cy0 - 4 * row_h
        for j in range(5):
            x = x0 + head_w + j * col_w
            pen.vline(x, mb, mt, width=1.2 if j == 0 else 0.6)
        for i in range(5):
            y = cy0 - i * row_h
            pen.hline(x0, x0 + w, y, width=1.2 if i == 0 else 0.6)
        pen.rect(x0, mb, w, mt - mb, stroke=INK, width=1.6)

        # notes
        gap = 4 * mm
        nt = mb - 5.5 * mm
        nb = CONTENT_BOTTOM + 6 * mm
        nw = (w - 2 * gap) / 3
        for k, (head, body) in enumerate(notes):
            nx = x0 + k * (nw + gap)
            pen.rect(nx, nb, nw, nt - nb, fill=WHITE, stroke=LINE, width=0.9, radius=1.5 * mm)
            tab_w = pen.width(head, 11) + 6 * mm
            pen.rect(nx, nt - 7.5 * mm, tab_w, 7.5 * mm, fill=INK, stroke=None, radius=1.5 * mm)
            pen.text_mid(nx + tab_w / 2, nt - 3.75 * mm, head, 11, align="center", bold=True, color=WHITE)
            s, lines = _fit_paragraph(body, pen.font, nw - 6 * mm, nt - nb - 11 * mm, 10.5, 6)
            yy = nt - 9.5 * mm - s
            for line in lines:
                pen.text(nx + 3 * mm, yy, line, s)
                yy -= s * 1.38
        foot = (
            "複数の人が同時に札に触れたとき、読まれた札を2回読んでも誰も触れないとき、"
            "トラブルのときは、審判が手を挙げ、解決するまで下ろさない。"
            "AとBを入れ替えると判定も入れ替わる（表は対称）。"
        )
        pen.text(x0, CONTENT_BOTTOM + 1.2 * mm, foot, _shrink(pen, foot, w, 8.5), color=MUTED)

    page = _Page(size, draw)
    with _RENDER_LOCK:
        return _render(
            [page],
            title=title,
            subject="ひたち郷土かるた 判定表",
            keywords=[title],
            footer_left="ひたち郷土かるた　競技規則より",
            footer_mid="",
            font=font,
        )
