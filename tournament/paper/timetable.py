"""対戦表: one wall page per court with its matches in order (A4 portrait).

Input: :class:`tournament.paper.data.EventInfo` and ``(court name, [TimetableMatch])``
pairs; output: PDF bytes.  Layout rules shared by every paper are in
``docs/rules/paper.md``.  Of Django only translation: every label is in the active
language (README "Languages").
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.dates import format_time
from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    CONTENT_BOTTOM,
    MARGIN,
    PORTRAIT,
    Block,
    Masthead,
    Page,
    Section,
    cols_x,
    draw_page_header,
    header_height,
    header_row,
    message_row,
    pages_pdf,
    paginate,
    scale_cols,
)
from common.pdf.pen import (
    HINT,
    INK,
    MUTED,
    WHITE,
    ZEBRA,
    Pen,
    draw_fitted,
    shrink,
)
from common.pdf.text import checked
from tournament.paper.data import EventInfo, event_document, prepare_event, side_text, to_confirm

__all__ = ["TimetableMatch", "court_timetable_pages", "court_timetables_pdf"]


@dataclass(frozen=True)
class TimetableMatch:
    """One match on a court's 対戦表.

    ``start`` is an aware datetime printed as HH:MM in Asia/Tokyo (a naive value is taken
    as Tokyo wall-clock time; ``None`` leaves the time blank).  ``team_a``/``team_b`` of
    ``None`` print their slot's words ``slot_a``/``slot_b`` (「Aリーグ 1位」) in grey, or
    「未定」.  ``result`` e.g. ``"30-26"`` is printed in the result column; ``""`` leaves it
    blank for the referee to write in.  ``out_of_date`` adds 「要確認」 to the stage.
    """

    match_number: int
    start: datetime.datetime | None
    division: str
    stage: str
    group: str
    team_a: str | None
    team_b: str | None
    result: str = ""
    slot_a: str = ""
    slot_b: str = ""
    out_of_date: bool = False


def court_timetables_pdf(event: EventInfo, courts: list[tuple[str, list[TimetableMatch]]]) -> bytes:
    """対戦表 for the wall: one A4 portrait page per court.

    Input: the event, and ``(court name, matches)`` pairs in print order.  Matches are
    sorted by start time (unknown times last), then match number.  Each page shows the
    court name very large, then one row per match: match number, start time (HH:MM,
    Asia/Tokyo), division / stage / group, team A 「対」 team B (``None`` -> 「未定」) and a
    result box (``result`` printed, or blank to write in).  A court with more matches than
    fit continues on a second page with the table header repeated.  Returns the PDF bytes;
    a character the font lacks prints from a fallback font or as 〓.
    """
    font = japanese_font()
    ev = prepare_event(event)
    doc = event_document(ev, _("Court timetable"))
    return pages_pdf(court_timetable_pages(ev, courts), doc, font)


def court_timetable_pages(
    ev: Masthead, courts: list[tuple[str, list[TimetableMatch]]], *, compact: bool = False
) -> list[Page]:
    """The pages of :func:`court_timetables_pdf` laid out, not yet rendered (the 大会プログラム
    puts them between its own pages): one A4 portrait page or more per court, each with the
    page header of ``ev`` (the event's masthead); ``compact`` (the booklet): smaller court
    headings and rows, courts following each other on a page (a court is kept whole on one
    page when it fits).  Raises what :func:`court_timetables_pdf` raises."""
    prepared = _prepare_courts(courts)
    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    widths = scale_cols([15, 16, 30, 48, 7, 48, 22], w)
    xs = cols_x(x0, widths)
    header_h = 9 * mm
    heading_h = 21 * mm if compact else 36 * mm
    top0 = ph - header_height()
    title = _("Court timetable")

    def page_factory(index: int, _size=None) -> tuple[Page, float]:
        return Page(size, lambda pen: draw_page_header(pen, size, title, ev)), top0

    labels = [_("Game no."), _("Start"), _("Division / stage"), _("Team A"), "", _("Team B"), _("Result")]
    sections = []
    for cname, rows in prepared:
        divisions = list(dict.fromkeys(r["division"] for r in rows if r["division"]))
        summary = _("%(count)s games") % {"count": len(rows)}
        if divisions:
            summary = "・".join(divisions) + "　" + _("%(count)s games in all") % {"count": len(rows)}
        avail = top0 - CONTENT_BOTTOM - heading_h - header_h
        rh = 11 * mm if compact else max(12.5 * mm, min(21 * mm, avail / max(len(rows), 1)))
        header = header_row(x0, list(zip(labels, widths, strict=True)), header_h, size=10)
        blocks = [_timetable_row(xs, r, rh, i) for i, r in enumerate(rows)]
        if not blocks:
            blocks = [message_row(x0, w, _("No games on this court yet."), 14 * mm)]
        heading = _court_heading(x0, w, heading_h, cname, summary, max_size=30 if compact else 60)
        sections.append(
            Section(
                heading,
                header,
                blocks,
                keep_together=compact,
                page_break_before=not compact or not sections,
                gap_after=5 * mm if compact else 0,
            )
        )
    if not sections:
        sections.append(Section(None, None, [message_row(x0, w, _("No courts."), 14 * mm)]))

    return paginate(sections, page_factory)


def _prepare_courts(courts: list[tuple[str, list[TimetableMatch]]]) -> list[tuple[str, list[dict]]]:
    """Each court's name and its rows of printed text, in time order (checked for the font)."""
    prepared = []
    for ci, (court, matches) in enumerate(courts):
        cname = checked(court, f"courts[{ci}].name")
        rows = []
        order = sorted(
            range(len(matches)),
            key=lambda i: (
                matches[i].start is None,
                matches[i].start.timestamp() if matches[i].start is not None else 0,
                matches[i].match_number,
            ),
        )
        for gi in order:
            g = matches[gi]
            w = f"courts[{ci}].games[{gi}]"
            parts = (
                checked(g.stage, f"{w}.stage"),
                checked(g.group, f"{w}.group"),
                to_confirm() if g.out_of_date else "",
            )
            stage = " ".join(p for p in parts if p)
            rows.append(
                dict(
                    number=str(g.match_number),
                    time=format_time(g.start),
                    division=checked(g.division, f"{w}.division"),
                    stage=stage,
                    a=side_text(g.team_a, g.slot_a, f"{w}.team_a"),
                    b=side_text(g.team_b, g.slot_b, f"{w}.team_b"),
                    result=checked(g.result, f"{w}.result"),
                )
            )
        prepared.append((cname, rows))
    return prepared


def _court_heading(
    x0: float, w: float, heading_h: float, cname: str, summary: str, max_size: float = 60
) -> Callable[[bool], Block]:
    """The court name in a large frame with the summary under it (「（続き）」 when continued)."""

    def heading(continued: bool) -> Block:
        def draw(pen: Pen, top: float) -> None:
            label = cname + (_(" (continued)") if continued else "")
            bh = heading_h - 6 * mm
            pen.rect(x0, top - bh, w, bh, stroke=INK, width=2.4, radius=2 * mm)
            draw_fitted(
                pen,
                x0,
                top - bh + 4.5 * mm,
                w,
                bh - 4.5 * mm,
                label,
                max_size=max_size,
                min_size=20,
                bold=True,
                pad=4 * mm,
                max_lines=1,
            )
            s = shrink(pen, summary, w - 10 * mm, 10)
            pen.text(x0 + w / 2, top - bh + 2.6 * mm, summary, s, align="center", color=MUTED)

        return Block(heading_h, draw)

    return heading


def _timetable_row(xs: list[float], r: dict, rh: float, index: int) -> Block:
    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        x0, x1 = xs[0], xs[-1]
        if index % 2:
            pen.rect(x0, y, x1 - x0, rh, fill=ZEBRA, stroke=None)
        big = min(1.0, rh / (17 * mm))
        # match number
        draw_fitted(
            pen, xs[0], y, xs[1] - xs[0], rh, r["number"], max_size=22 * big, min_size=8, bold=True, max_lines=1
        )
        draw_fitted(pen, xs[1], y, xs[2] - xs[1], rh, r["time"], max_size=15 * big, min_size=7, max_lines=1)
        # division (small) over stage + group
        cw = xs[3] - xs[2]
        if r["division"] and r["stage"]:
            draw_fitted(pen, xs[2], y + rh * 0.5, cw, rh * 0.42, r["division"], max_size=8.5, min_size=5.5, color=MUTED)
            draw_fitted(pen, xs[2], y + rh * 0.08, cw, rh * 0.46, r["stage"], max_size=11, min_size=6)
        else:
            draw_fitted(pen, xs[2], y, cw, rh, r["division"] or r["stage"], max_size=11, min_size=6)
        for (name, undecided), i in ((r["a"], 3), (r["b"], 5)):
            draw_fitted(
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
        pen.text_mid((xs[4] + xs[5]) / 2, y + rh / 2, _("vs"), 10 * max(big, 0.8), align="center", color=MUTED)
        # result: printed, or a box to write in
        rx, rw = xs[6], xs[7] - xs[6]
        if r["result"]:
            draw_fitted(pen, rx, y, rw, rh, r["result"], max_size=16 * big, min_size=7, bold=True, max_lines=1)
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

    return Block(rh, draw)
