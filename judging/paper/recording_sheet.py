"""Printable recording sheets (記録用紙) for Hitachi Folk Karuta matches.

Pure Python + reportlab (of Django only translation: every label is printed in the active
language, README "Languages"): callers build :class:`SheetMatch` values (see
:mod:`judging.paper.match_sheets`) and call :func:`recording_sheets_pdf`, which returns
the PDF bytes.

* A4 portrait; one sheet per page, or two per page with a cut line (``per_page=2``).
* Japanese text uses :func:`common.pdf.fonts.japanese_font` (an embedded TrueType subset when
  a font such as IPAex Gothic is installed).  A character the font lacks never stops the
  sheet: it is drawn from a fallback font or as the substitute mark 〓, and
  :func:`common.pdf.fonts.check_glyphs` logs it (``docs/rules/paper.md`` "Paper always prints").
* The QR code holds the match's entry URL, which must be ASCII (``docs/rules/paper.md``);
  the same URL is printed under it as the fallback.
* Drawn with canvas primitives (no platypus) so a batch of 200 sheets takes well under 5 s:
  the form itself (frames, labels, hints) is drawn once per layout into a PDF form XObject
  and each match's own fields on top of it.
"""

from __future__ import annotations

import datetime
import math
from dataclasses import dataclass
from io import BytesIO

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm

from common.dates import format_date, format_time
from common.pdf.fonts import check_glyphs, japanese_font
from common.pdf.layout import open_canvas
from common.pdf.pen import BAND, HINT, INK, LINE, MUTED, RENDER_LOCK, SHADE, WHITE, Pen, shrink
from common.pdf.qr import draw_qr, qr_modules
from common.pdf.text import CONTROL_RE, MIN_PT, clean, edition_title, fit
from judging.engine.rules import CARD_TOTAL

__all__ = ["SheetMatch", "recording_sheets_pdf"]


@dataclass(frozen=True)
class SheetMatch:
    """Everything printed on one recording sheet (already translated / formatted text)."""

    event_name: str
    edition: int | None
    event_date: datetime.date | None
    division: str
    stage: str  # e.g. "予選リーグ" / "準決勝" / "決勝"
    group: str  # e.g. "予選Aリーグ" or ""
    court: str
    match_number: int
    start: datetime.datetime | None  # aware; printed as HH:MM in Asia/Tokyo
    team_a: str | None  # None = not yet known: blank box to write in
    team_b: str | None
    entry_url: str | None  # ASCII URL for the QR code; None = no QR
    card_total: int = CARD_TOTAL
    japanese_era: bool = False  # print the date as 令和…年 (the event's setting)
    slot_a: str = ""  # where side A's team comes from (「Aリーグ 1位」): printed small in its box while unknown
    slot_b: str = ""
    referee: str = ""  # the referee assigned (issue 32, the people app): printed in the signature box


@dataclass(frozen=True)
class _Prepared:
    match: SheetMatch
    title: str
    date: str
    division: str
    stage: str
    court: str
    start: str
    team_a: str
    team_b: str
    url: str
    qr: list[list[bool]] | None
    slot_a: str = ""
    slot_b: str = ""
    referee: str = ""


def _japanese() -> bool:
    """Whether the sheet is printed in Japanese (the active language, README "Languages")."""
    return (get_language() or "ja").startswith("ja")


def _edition_prefix(edition: int | None) -> str | None:
    """「第12回」 in Japanese (``None``: the default), "No. 12" in another language."""
    return None if _japanese() else _("No. %(edition)s") % {"edition": edition}


def _prepare(match: SheetMatch, *, qr_cache: dict) -> _Prepared:
    """Validate and format every data field (raises ValueError on unprintable input)."""
    # a group game: its group alone (「予選Aリーグ」 already says 予選; docs/glossary.md)
    stage = clean(match.group) or clean(match.stage)
    fields = {
        "event_name": edition_title(match.event_name, match.edition, _edition_prefix(match.edition)),
        "division": clean(match.division),
        "stage/group": stage,
        "court": clean(match.court),
        "team_a": clean(match.team_a),
        "team_b": clean(match.team_b),
        "slot_a": "" if match.team_a else clean(match.slot_a),
        "slot_b": "" if match.team_b else clean(match.slot_b),
        "referee": clean(match.referee),
    }
    for what, value in fields.items():
        check_glyphs(value, what)
    url = match.entry_url or ""
    qr = None
    if url:
        if not url.isascii():
            bad = next(ch for ch in url if not ch.isascii())
            raise ValueError(
                f"entry_url must be ASCII (QR readers disagree on non-ASCII payloads); "
                f"found {bad!r} (U+{ord(bad):04X}) in {url!r}: percent-encode it or use an ID"
            )
        if CONTROL_RE.search(url) or " " in url:
            raise ValueError(f"entry_url contains whitespace or control characters: {url!r}")
        check_glyphs(url, "entry_url")
        qr = qr_cache.get(url)
        if qr is None:
            qr = qr_cache[url] = qr_modules(url)
    return _Prepared(
        match=match,
        title=fields["event_name"],
        date=format_date(match.start or match.event_date, match.japanese_era, english=not _japanese()),  # JST day
        division=fields["division"],
        stage=stage,
        court=fields["court"],
        start=format_time(match.start),
        team_a=fields["team_a"],
        team_b=fields["team_b"],
        url=url,
        qr=qr,
        slot_a=fields["slot_a"],
        slot_b=fields["slot_b"],
        referee=fields["referee"],
    )


def _label_cell(pen: Pen, x, y, w, h, main: str, sub: str = "", *, fill=SHADE, size=9.0, bold=True):
    pen.rect(x, y, w, h, fill=fill, stroke=None)
    size = min(size, shrink(pen, main, w - 1.5 * mm, size))  # a longer label in another language
    cx = x + w / 2
    if sub:
        sub_size = max(MIN_PT, min(size * 0.68, shrink(pen, sub, w - 1.5 * mm, size * 0.68)))
        pen.text_mid(cx, y + h / 2 + size * 0.45, main, size, align="center", bold=bold)
        pen.text_mid(cx, y + h / 2 - size * 0.62, sub, sub_size, align="center", color=MUTED)
    else:
        pen.text_mid(cx, y + h / 2, main, size, align="center", bold=bold)


def _checkbox(pen: Pen, x, y, s, *, width=0.7):
    pen.rect(x, y, s, s, fill=WHITE, stroke=LINE, width=width)


_GAP = 2.5 * mm  # between the header boxes, and between the two footer boxes


@dataclass(frozen=True)
class _Sheet:
    """One sheet being drawn: its match, its box (points, origin bottom-left) and its part."""

    pen: Pen
    p: _Prepared
    x0: float
    y0: float
    w: float
    h: float
    compact: bool  # half an A4 page (two sheets per page)
    title: str  # the badge, e.g. 「記録用紙」
    static: bool  # True: the form itself; False: the match's own fields

    @property
    def top(self) -> float:
        return self.y0 + self.h


@dataclass(frozen=True)
class _Rows:
    """The vertical budget of the sheet under its header (points)."""

    body_top: float
    heights: dict[str, float]  # team-table rows by key
    remarks_h: float  # 0 on a compact sheet
    gap_footer: float
    footer_h: float
    note_h: float


def _draw_sheet(
    pen: Pen, p: _Prepared, x0: float, y0: float, w: float, h: float, *, compact: bool, sheet_title: str, part: str
) -> None:
    """Draw one recording sheet inside the box (x0, y0, w, h) — points, origin bottom-left.

    ``part="static"`` draws the form itself (frames, labels, hints: identical for every
    match with the same box / QR presence / card total, so it is drawn once into a PDF form
    XObject); ``part="data"`` draws the match's own fields on top of it.
    """
    sheet = _Sheet(pen, p, x0, y0, w, h, compact, sheet_title, part == "static")
    rows = _row_heights(sheet, _draw_header(sheet))
    y = _draw_team_table(sheet, rows)
    y = _draw_remarks(sheet, rows, y)
    _draw_signatures(sheet, rows, y)


# --------------------------------------------------------------------------- header


def _draw_header(sheet: _Sheet) -> float:
    """Title badge, event name, info grid, match number and QR code; returns the y of the
    header's bottom."""
    compact = sheet.compact
    head_h = (30 if compact else 36) * mm
    qr_w = (27 if compact else 31) * mm if sheet.p.qr else 0
    num_w = (31 if compact else 36) * mm
    info_w = sheet.w - num_w - (qr_w + _GAP if qr_w else 0) - _GAP
    head_y = sheet.top - head_h
    line1_h = (11 if compact else 13) * mm
    _draw_title_line(sheet, info_w, line1_h)
    _draw_info_grid(sheet, info_w, sheet.top - line1_h - 1.5 * mm, head_y)
    nx = sheet.x0 + info_w + _GAP
    _draw_number_box(sheet, nx, num_w, head_h)
    if sheet.p.qr and not sheet.static:
        _draw_entry_qr(sheet, nx + num_w + _GAP, qr_w, head_h)
    return head_y


def _draw_title_line(sheet: _Sheet, info_w: float, line1_h: float) -> None:
    """The black title badge (form) and the event title next to it (data)."""
    pen, x0, top, title = sheet.pen, sheet.x0, sheet.top, sheet.title
    badge_size = 10.5 if sheet.compact else 12
    badge_size = min(badge_size, (info_w * 0.4 - 5 * mm) / (pen.width(title, 1.0) or 1))
    badge_w = pen.width(title, badge_size) + 5 * mm
    badge_h = badge_size * 1.75
    by = top - line1_h / 2 - badge_h / 2
    ev_x = x0 + badge_w + 2.5 * mm
    if sheet.static:
        pen.rect(x0, by, badge_w, badge_h, fill=INK, stroke=None, radius=1.2 * mm)
        pen.text_mid(x0 + badge_w / 2, by + badge_h / 2, title, badge_size, align="center", bold=True, color=WHITE)
    else:
        pen.fitted(
            ev_x,
            top - line1_h,
            info_w - (ev_x - x0),
            line1_h,
            sheet.p.title,
            max_size=15 if sheet.compact else 17,
            min_size=9,
            align="left",
            bold=True,
            pad=0.5 * mm,
        )


def _draw_info_grid(sheet: _Sheet, info_w: float, grid_top: float, head_y: float) -> None:
    """期日 / 開始 / コート and 部門 / 区分: labelled cells in two rows."""
    pen, p, x0 = sheet.pen, sheet.p, sheet.x0
    row_h = (grid_top - head_y) / 2
    lab_w = 13 * mm
    rows = [
        [(_("Date"), p.date, 0.42), (_("Start"), p.start, 0.24), (_("Court"), p.court, 0.34)],
        [(_("Division"), p.division, 0.42), (_("Stage"), p.stage, 0.58)],
    ]
    for r, cells in enumerate(rows):
        ry = grid_top - (r + 1) * row_h
        cx = x0
        for label, value, frac in cells:
            cw = info_w * frac
            if sheet.static:
                _label_cell(pen, cx, ry, lab_w, row_h, label, size=8.5)
                pen.vline(cx + lab_w, ry, ry + row_h, width=0.4)
                if cx > x0:
                    pen.vline(cx, ry, ry + row_h, width=0.6)
            else:
                max_size = 11 if sheet.compact else 12
                pen.fitted(
                    cx + lab_w,
                    ry,
                    cw - lab_w,
                    row_h,
                    value,
                    max_size=max_size,
                    min_size=6.5,
                    align="left",
                    pad=1.6 * mm,
                )
            cx += cw
    if sheet.static:
        pen.hline(x0, x0 + info_w, grid_top - row_h, width=0.4)
        pen.rect(x0, head_y, info_w, 2 * row_h, stroke=LINE, width=0.9)


def _draw_number_box(sheet: _Sheet, nx: float, num_w: float, head_h: float) -> None:
    """The 試合番号 box (form) and the match number in it, as large as fits (data)."""
    pen, top = sheet.pen, sheet.top
    head_y = top - head_h
    lab_h = 6.5 * mm
    if sheet.static:
        pen.rect(nx, head_y, num_w, head_h, fill=WHITE, stroke=LINE, width=1.4)
        pen.rect(nx, top - lab_h, num_w, lab_h, fill=INK, stroke=None)
        pen.text_mid(nx + num_w / 2, top - lab_h / 2, _("Game no."), 10, align="center", bold=True, color=WHITE)
    else:
        num = str(sheet.p.match.match_number)
        num_size = min((38 if sheet.compact else 46), (num_w - 4 * mm) / (pen.width(num, 1.0) or 1))
        pen.text_mid(nx + num_w / 2, head_y + (head_h - lab_h) / 2, num, num_size, align="center", bold=True)


def _draw_entry_qr(sheet: _Sheet, qx: float, qr_w: float, head_h: float) -> None:
    """The QR code of the entry URL, with the URL printed under it as the fallback."""
    pen, p, top = sheet.pen, sheet.p, sheet.top
    url_h = 5 * mm
    side = min(qr_w, head_h - url_h)
    draw_qr(pen, p.qr, qx + (qr_w - side) / 2, top - side, side)
    url_size, url_lines = fit(p.url, pen.font, qr_w + 1 * mm, url_h, 6.0, 5.2)
    ly = top - side - url_size * 0.9
    for line in url_lines:
        pen.text(qx + qr_w / 2, ly, line, url_size, align="center", color=MUTED)
        ly -= url_size * 1.12


# --------------------------------------------------------------------------- body


def _row_heights(sheet: _Sheet, head_y: float) -> _Rows:
    """Share the height under the header between the table rows, the 備考 box (full page
    only) and the signatures."""
    compact = sheet.compact
    body_top = head_y - (3.5 if compact else 5) * mm
    footer_h = (12 if compact else 15) * mm
    note_h = 4.2 * mm
    gap_footer = (2.5 if compact else 4) * mm
    base = {
        "band": 7,
        "name": 16,
        "cards": 11,
        "ri": 10,
        "win": 10,
        "sign": 11,
        "keep": 11,
        "janken": 11,
        "tiebreak": 11,
    }
    avail = body_top - (sheet.y0 + note_h + footer_h + gap_footer)
    if compact:
        scale = avail / (sum(base.values()) * mm)
        heights = {k: v * mm * scale for k, v in base.items()}
        remarks_h = 0.0
    else:
        # full page: roomier rows; what is left becomes a 備考 (remarks) box
        grow = {
            "band": 1.1,
            "name": 2.0,
            "cards": 1.9,
            "ri": 1.6,
            "win": 1.6,
            "sign": 1.9,
            "keep": 1.7,
            "janken": 1.6,
            "tiebreak": 1.6,
        }
        heights = {k: v * mm * grow[k] for k, v in base.items()}
        remarks_h = avail - sum(heights.values()) - gap_footer
        if remarks_h < 18 * mm:
            scale = (avail - gap_footer - 18 * mm) / sum(heights.values())
            heights = {k: v * scale for k, v in heights.items()}
            remarks_h = 18 * mm
    return _Rows(body_top, heights, remarks_h, gap_footer, footer_h, note_h)


class _Table:
    """The team table being drawn top to bottom: a label column and the A and B columns."""

    def __init__(self, sheet: _Sheet, heights: dict[str, float], top: float):
        self.sheet = sheet
        self.heights = heights
        self.label_w = 31 * mm
        self.col_w = (sheet.w - self.label_w) / 2
        self.xa = sheet.x0 + self.label_w
        self.xb = self.xa + self.col_w
        self.y = top

    def row(self, key: str, main: str, sub: str = "") -> float:
        """Move down one row of ``heights[key]``, labelling it on the form; its height."""
        sheet = self.sheet
        rh = self.heights[key]
        self.y -= rh
        if sheet.static:
            _label_cell(sheet.pen, sheet.x0, self.y, self.label_w, rh, main, sub)
            sheet.pen.hline(sheet.x0, sheet.x0 + sheet.w, self.y + rh, width=0.5)
        return rh


def _draw_team_table(sheet: _Sheet, rows: _Rows) -> float:
    """The A / B table from チーム名 to the leaders' tie-break じゃんけん; returns the y of its bottom."""
    pen, x0, w = sheet.pen, sheet.x0, sheet.w
    table = _Table(sheet, rows.heights, rows.body_top)
    bh = rows.heights["band"]
    table.y -= bh
    if sheet.static:
        pen.rect(x0, table.y, w, bh, fill=BAND, stroke=None)
        for label, cx in ((_("Team A"), table.xa), (_("Team B"), table.xb)):
            pen.text_mid(cx + table.col_w / 2, table.y + bh / 2, label, 11, align="center", bold=True)
    _draw_team_rows(table)
    team_bottom = table.y
    _draw_keep_row(table)
    _draw_janken_row(table)
    _draw_tiebreak_row(table)
    if sheet.static:
        # grid lines and frame
        y, body_top = table.y, rows.body_top
        pen.vline(table.xa, y, body_top, width=0.6)
        pen.vline(table.xb, team_bottom, body_top, width=0.6)
        pen.hline(x0, x0 + w, body_top - bh, width=0.8)
        pen.rect(x0, y, w, body_top - y, stroke=LINE, width=1.3)
    return table.y


def _draw_team_rows(table: _Table) -> None:
    """チーム名 (``None`` = a blank box to write in, its slot's words small at its top), 取り札
    枚数, 「り」, 勝敗, リーダーの署名."""
    sheet = table.sheet
    pen, p, col_w = sheet.pen, sheet.p, table.col_w
    rh = table.row("name", _("Team name"))
    if not sheet.static:
        for team, slot, cx in ((p.team_a, p.slot_a, table.xa), (p.team_b, p.slot_b, table.xb)):
            max_size = 17 if sheet.compact else 22
            pen.fitted(cx, table.y, col_w, rh, team, max_size=max_size, min_size=10, bold=True, pad=2.5 * mm)
            if slot:
                sh = min(rh * 0.34, 6 * mm)
                pen.fitted(cx, table.y + rh - sh, col_w, sh, slot, max_size=9, min_size=5.5, color=MUTED, pad=1.5 * mm)
    rh = table.row("cards", _("Cards taken"), _("counted by the leader"))
    if sheet.static:
        for cx in (table.xa, table.xb):
            bw = 26 * mm
            bx = cx + col_w / 2 - bw / 2
            pen.hline(bx, bx + bw, table.y + rh * 0.24, width=0.4, color=HINT)
            pen.text(bx + bw + 1.5 * mm, table.y + rh * 0.24 + 1.0, pgettext("unit", "cards"), 11)
    # 「り」 ○/× and 勝敗 ○/×
    for key, main, sub, hint in (
        ("ri", _("Card 「り」"), _("held ○ not held ×"), "○ / ×"),
        ("win", _("Won / lost"), _("won ○ / lost ×"), _("won ○ / lost ×")),
    ):
        rh = table.row(key, main, sub)
        if sheet.static:
            for cx in (table.xa, table.xb):
                s = min(rh - 3 * mm, 9 * mm)
                bx = cx + col_w / 2 - s / 2
                _checkbox(pen, bx, table.y + (rh - s) / 2, s)
                pen.text_mid(bx + s + 3 * mm, table.y + rh / 2, hint, 7.5, color=HINT)
    # リーダー 確認
    rh = table.row("sign", _("Leader"), _("check and sign"))
    if sheet.static:
        for cx in (table.xa, table.xb):
            pen.text(cx + 2 * mm, table.y + rh - 3.2 * mm, _("signature"), 6.5, color=HINT)


def _draw_keep_row(table: _Table) -> None:
    """審判預かり札 and the checksum A + B + 預かり = card total (spans both team columns)."""
    sheet = table.sheet
    pen, x0, w = sheet.pen, sheet.x0, sheet.w
    rh = table.row("keep", _("Held by the referee"), _("cards of neither team"))
    if not sheet.static:
        return
    y = table.y
    cy = y + rh / 2
    bw = 22 * mm
    bx = table.xa + 8 * mm
    pen.hline(bx, bx + bw, y + rh * 0.24, width=0.4, color=HINT)
    pen.text(bx + bw + 1.5 * mm, y + rh * 0.24 + 1.0, pgettext("unit", "cards"), 11)
    sx = table.xb - 12 * mm
    pen.vline(sx, y + 1.6 * mm, y + rh - 1.6 * mm, width=0.4, color=HINT, dash=(1.5, 1.5))
    lab = _("Total  A ＋ B ＋ referee ＝")
    pen.text_mid(sx + 3 * mm, cy, lab, 8.5, color=MUTED)
    tx = sx + 3 * mm + pen.width(lab, 8.5) + 2.5 * mm
    tw = 21 * mm
    th = min(rh - 3 * mm, 8.5 * mm)
    pen.rect(tx, cy - th / 2, tw, th, fill=SHADE, stroke=LINE, width=0.8)
    unit = pgettext("unit", "cards")
    unit_size = min(9, shrink(pen, unit, 9 * mm, 9))
    unit_w = pen.width(unit, unit_size)
    pen.text_mid(tx + (tw - unit_w) / 2 - 0.6 * mm, cy, str(sheet.p.match.card_total), 14, align="center", bold=True)
    pen.text_mid(tx + tw - 1.0 * mm - unit_w, cy, unit, unit_size)
    ck = 4.2 * mm
    ckx = x0 + w - 14.5 * mm
    _checkbox(pen, ckx, cy - ck / 2, ck)
    agrees = _("agrees")
    pen.text_mid(
        ckx + ck + 1.2 * mm, cy, agrees, min(8, shrink(pen, agrees, x0 + w - ckx - ck - 1.6 * mm, 8)), color=MUTED
    )
    pen.hline(x0, x0 + w, y + rh, width=0.9)


def _draw_janken_row(table: _Table) -> None:
    """じゃんけん tally: three boxes (at most 3 per match, docs/rules/hitachi-karuta.md)."""
    sheet = table.sheet
    pen = sheet.pen
    rh = table.row("janken", _("Rock-paper-scissors"), _("at most 3 a game"))
    if not sheet.static:
        return
    y = table.y
    s = min(rh - 3 * mm, 8.5 * mm)
    jx = table.xa + 6 * mm
    for i in range(3):
        pen.text_mid(jx, y + rh / 2, pgettext("rock-paper-scissors", "No. %(n)s") % {"n": i + 1}, 8.5, color=MUTED)
        bx = jx + pen.width(pgettext("rock-paper-scissors", "No. %(n)s") % {"n": 0}, 8.5) + 1.5 * mm
        _checkbox(pen, bx, y + (rh - s) / 2, s)
        jx = bx + s + 7 * mm
    pen.text_mid(
        sheet.x0 + sheet.w - 3 * mm, y + rh / 2, _("write the winning team (A/B)"), 7.5, align="right", color=HINT
    )


def _draw_tiebreak_row(table: _Table) -> None:
    """The leaders' tie-break じゃんけん: level cards with 「り」 held by the referee, one
    round between the two leaders; a box per team for the winner
    (docs/rules/hitachi-karuta.md, "Result and winner")."""
    sheet = table.sheet
    pen = sheet.pen
    rh = table.row("tiebreak", _("Leaders' rock-paper-scissors"), _("level, 「り」 with the referee"))
    if not sheet.static:
        return
    y = table.y
    pen.hline(sheet.x0, sheet.x0 + sheet.w, y + rh, width=0.9)
    pen.vline(table.xb, y, y + rh, width=0.6)
    s = min(rh - 3 * mm, 8.5 * mm)
    for cx in (table.xa, table.xb):
        bx = cx + table.col_w / 2 - s / 2
        _checkbox(pen, bx, y + (rh - s) / 2, s)
        pen.text_mid(bx + s + 3 * mm, y + rh / 2, _("won ○"), 7.5, color=HINT)
        pen.text_mid(cx + 2 * mm, y + rh / 2, _("once only"), 7, color=HINT)


def _draw_remarks(sheet: _Sheet, rows: _Rows, y: float) -> float:
    """The 備考 box (full page only) under the table at ``y``; returns the y under it."""
    pen, x0, w = sheet.pen, sheet.x0, sheet.w
    remarks_h = rows.remarks_h
    y -= rows.gap_footer
    if remarks_h:
        y -= remarks_h
        if sheet.static:
            tab_w, tab_h = 22 * mm, 6.5 * mm
            _label_cell(pen, x0, y + remarks_h - tab_h, tab_w, tab_h, _("Notes"), size=8.5)
            pen.rect(x0, y + remarks_h - tab_h, tab_w, tab_h, stroke=LINE, width=0.5)
            hint = _("faults, recounts, trouble …")
            pen.text_mid(x0 + tab_w + 2.5 * mm, y + remarks_h - tab_h / 2, hint, 7.5, color=HINT)
            pen.rect(x0, y, w, remarks_h, stroke=LINE, width=0.8)
        y -= rows.gap_footer
    return y


def _draw_signatures(sheet: _Sheet, rows: _Rows, y: float) -> None:
    """The referee's signature, the recorder's check and the instructions line (form only); on
    the data part the assigned referee's name (「審判：○○」) in the signature box."""
    if not sheet.static:
        if sheet.p.referee:
            ry = y - rows.footer_h
            text = _("Referee: %(name)s") % {"name": sheet.p.referee}
            sheet.pen.text(sheet.x0 + 24 * mm, ry + rows.footer_h - 3.8 * mm, text, 8, color=MUTED)
        return
    pen, x0, w = sheet.pen, sheet.x0, sheet.w
    footer_h = rows.footer_h
    y -= footer_h
    ref_w = w * 0.62
    _label_cell(pen, x0, y, 22 * mm, footer_h, _("Referee"), _("signature"))
    pen.rect(x0, y, ref_w, footer_h, stroke=LINE, width=1.0)
    pen.vline(x0 + 22 * mm, y, y + footer_h, width=0.5)
    rx = x0 + ref_w + _GAP
    rw = x0 + w - rx
    _label_cell(pen, rx, y, 22 * mm, footer_h, _("Recorder"), _("checked"))
    pen.rect(rx, y, rw, footer_h, stroke=LINE, width=1.0)
    pen.vline(rx + 22 * mm, y, y + footer_h, width=0.5)
    ck = 5.5 * mm
    ckx = rx + 22 * mm + 4 * mm
    _checkbox(pen, ckx, y + (footer_h - ck) / 2, ck, width=0.9)
    pen.text_mid(ckx + ck + 2 * mm, y + footer_h / 2, _("received and entered"), 8.5, color=MUTED)

    note = _(
        "After the game each leader counts the cards taken, checks A＋B＋referee＝%(total)s and signs. "
        "Level: 「り」 wins (with the referee: leaders' rock-paper-scissors). Sheet to the recorder."
    ) % {"total": sheet.p.match.card_total}
    size, _lines = fit(note, pen.font, w, rows.note_h, 7.0, 4.5, max_lines=1)
    pen.text(x0, sheet.y0 + 0.6 * mm, note, size, color=MUTED)


# --------------------------------------------------------------------------- document


def _page_boxes(per_page: int) -> list[tuple[float, float, float, float, bool]]:
    pw, ph = A4
    if per_page == 1:
        mx, my = 12 * mm, 12 * mm
        return [(mx, my, pw - 2 * mx, ph - 2 * my, False)]
    mx, outer, inner = 10 * mm, 9 * mm, 7.5 * mm
    half = ph / 2
    hh = half - outer - inner
    return [
        (mx, half + inner, pw - 2 * mx, hh, True),
        (mx, outer, pw - 2 * mx, hh, True),
    ]


def _cut_line(pen: Pen) -> None:
    pw, ph = A4
    y = ph / 2
    label = _("cut here")
    lw = pen.width(label, 7) + 4 * mm
    pen.hline(6 * mm, pw / 2 - lw / 2, y, width=0.4, color=HINT, dash=(3, 2))
    pen.hline(pw / 2 + lw / 2, pw - 6 * mm, y, width=0.4, color=HINT, dash=(3, 2))
    pen.text_mid(pw / 2, y, label, 7, align="center", color=HINT)


def recording_sheets_pdf(matches: list[SheetMatch], per_page: int = 1, title: str = "") -> bytes:
    """Render recording sheets for ``games`` and return the PDF bytes.

    ``per_page`` is 1 (one sheet per A4 page) or 2 (two sheets per page with a cut line);
    ``title`` (the badge) defaults to 「記録用紙」 in the active language.
    Raises ``ValueError`` for a non-ASCII ``entry_url`` or any character the font lacks.
    """
    if per_page not in (1, 2):
        raise ValueError(f"per_page must be 1 or 2, not {per_page!r}")
    font = japanese_font()
    title = clean(title) or _("Recording sheet")
    check_glyphs(title, "title")

    qr_cache: dict[str, list[list[bool]]] = {}
    prepared = [_prepare(g, qr_cache=qr_cache) for g in matches]  # validate before drawing

    with RENDER_LOCK:
        return _render(prepared, per_page, title, font)


def _render(prepared: list[_Prepared], per_page: int, title: str, font: str) -> bytes:
    buf = BytesIO()
    events = sorted({p.title for p in prepared if p.title})
    c = open_canvas(
        buf,
        A4,
        font,
        title=f"{title} {events[0]}" if len(events) == 1 else title,
        subject=" / ".join(events) if events else title,
        keywords=[title, "karuta"],
    )
    pen = Pen(c, font)

    if not prepared:
        pw, ph = A4
        pen.text(pw / 2, ph - 40 * mm, title, 20, align="center", bold=True)
        pen.text(pw / 2, ph - 55 * mm, _("No games to print."), 12, align="center", color=MUTED)
        c.showPage()
        c.save()
        return buf.getvalue()

    boxes = _page_boxes(per_page)
    forms: dict[tuple, str] = {}  # static part of each layout, drawn once as a form XObject
    pages = math.ceil(len(prepared) / per_page)
    for page in range(pages):
        chunk = prepared[page * per_page : (page + 1) * per_page]
        if per_page == 2:
            _cut_line(pen)
        for p, (x, y, w, h, compact) in zip(chunk, boxes, strict=False):  # the last page may hold one sheet
            key = (x, y, w, h, compact, p.qr is not None, p.match.card_total)
            form = forms.get(key)
            if form is None:
                form = forms[key] = f"sheet{len(forms)}"
                c.beginForm(form)
                _draw_sheet(pen, p, x, y, w, h, compact=compact, sheet_title=title, part="static")
                c.endForm()
            c.doForm(form)
            _draw_sheet(pen, p, x, y, w, h, compact=compact, sheet_title=title, part="data")
        c.showPage()
    c.save()
    return buf.getvalue()
