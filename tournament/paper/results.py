"""成績一覧: the placed teams of every division, for the closing ceremony (A4 portrait).

Input: :class:`tournament.paper.data.EventInfo` and ``(division, [ResultEntry])`` pairs;
output: PDF bytes.  No Django.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    MARGIN,
    PORTRAIT,
    Block,
    Page,
    Section,
    draw_page_header,
    header_height,
    heading_block,
    message_row,
    sections_pdf,
)
from common.pdf.pen import (
    HINT,
    INK,
    MUTED,
    WHITE,
    Pen,
    draw_fitted,
    shrink,
)
from common.pdf.text import checked, wrap_items
from tournament.paper.data import TO_CONFIRM, UNDECIDED, EventInfo, event_document, prepare_event

__all__ = ["ResultEntry", "final_results_pdf"]

RED = (0.78, 0.09, 0.11)  # 「要確認」


@dataclass(frozen=True)
class ResultEntry:
    """A placed team on the 成績一覧: ``place`` e.g. 「優勝」, 「準優勝」, 「第3位」;
    ``players`` may be empty when names are not published; ``to_confirm`` prints 「要確認」
    beside the team: its place comes from a game a later change left out of date."""

    place: str
    team: str
    affiliation: str
    players: list[str] = field(default_factory=list)
    to_confirm: bool = False


def _place_number(place: str) -> int | None:
    """「優勝」 (or 「優勝（Aリーグ1位）」) -> 1, 「準優勝」 -> 2, 「第3位」/「３位」/「三位」 -> 3, else ``None``."""
    p = unicodedata.normalize("NFKC", place).replace(" ", "")
    p = re.sub(r"\(.*\)$", "", p)  # 「優勝（Aリーグ1位）」: a place decided by its group
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
    the team name (with 「要確認」 in red when ``to_confirm``), 「（所属）」 and the players'
    names (wrapped between names) when given.
    A division is kept on one page when it fits; an entry is never split.  Returns the
    PDF bytes.
    """
    font = japanese_font()
    ev = prepare_event(event)
    prepared = []
    for di, (division, entries) in enumerate(divisions):
        w = f"divisions[{di}]"
        items = []
        for ei, e in enumerate(entries):
            ew = f"{w}.entries[{ei}]"
            place = checked(e.place, f"{ew}.place")
            items.append(
                dict(
                    place=place,
                    number=_place_number(place),
                    team=checked(e.team, f"{ew}.team") or UNDECIDED,
                    affiliation=checked(e.affiliation, f"{ew}.affiliation"),
                    players=[s for s in (checked(p, f"{ew}.players[{pi}]") for pi, p in enumerate(e.players)) if s],
                    to_confirm=bool(e.to_confirm),
                )
            )
        prepared.append((checked(division, f"{w}.name"), items))

    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    first_h = 54 * mm
    font_name = font

    def first_header(pen: Pen) -> None:
        top = ph - MARGIN
        pen.text(pw / 2, top - 14 * mm, "成績一覧", 28, align="center", bold=True)
        pen.hline(pw / 2 - 38 * mm, pw / 2 + 38 * mm, top - 17.5 * mm, width=1.6, color=INK)
        pen.hline(pw / 2 - 38 * mm, pw / 2 + 38 * mm, top - 18.6 * mm, width=0.5, color=INK)
        pen.text(pw / 2, top - 28 * mm, ev.title, shrink(pen, ev.title, w, 17), align="center", bold=True)
        info = "　".join(s for s in (ev.date, f"会場 {ev.venue}" if ev.venue else "") if s)
        if info:
            pen.text(pw / 2, top - 35.5 * mm, info, shrink(pen, info, w, 11), align="center", color=MUTED)
        pen.text(x0 + w, top - first_h + 10 * mm, "（敬称略）", 10.5, align="right")

    def later_header(pen: Pen) -> None:
        draw_page_header(pen, size, "成績一覧", ev)
        pen.text(x0 + w, ph - header_height() - 1 * mm, "（敬称略）", 10.5, align="right")

    def page_factory(index: int, _size=None) -> tuple[Page, float]:
        if index == 0:
            return Page(size, first_header), ph - MARGIN - first_h + 6 * mm
        return Page(size, later_header), ph - header_height() - 5 * mm

    sections = []
    for dname, items in prepared:
        label = f"▽{dname}" if dname else "▽"

        def heading(continued: bool, label=label) -> Block:
            return heading_block(x0, w, label + ("（続き）" if continued else ""), size=15, height=12 * mm)

        blocks = [_result_block(x0, w, it, font_name) for it in items]
        if not blocks:
            blocks = [message_row(x0, w, "該当なし", 12 * mm)]
        sections.append(Section(heading, None, blocks, keep_together=True, gap_after=7 * mm))
    if not sections:
        sections.append(Section(None, None, [message_row(x0, w, "成績はまだありません。", 14 * mm)]))
    doc = event_document(ev, "成績一覧")
    return sections_pdf(sections, page_factory, doc, font)


def _result_block(x0: float, w: float, it: dict, font: str) -> Block:
    rank_w = 16 * mm
    place_w = 26 * mm
    tx = x0 + rank_w + place_w + 3 * mm
    tw = x0 + w - tx
    psize = 11.0
    players = wrap_items(it["players"], "　", font, psize, tw - 2 * mm) if it["players"] else []
    name_h = 9.5 * mm
    aff_h = 5.5 * mm if it["affiliation"] else 0
    pl_h = len(players) * psize * 1.5
    height = 2.2 * mm + name_h + aff_h + (pl_h + 1.2 * mm if players else 0) + 2.6 * mm

    def draw(pen: Pen, top: float) -> None:
        y = top - 2.2 * mm - name_h
        cy = y + name_h / 2
        if it["number"] is not None:
            rank = f"({it['number']})"
            pen.text_mid(x0 + 1 * mm, cy, rank, 16, bold=True)
        place = it["place"]
        if place:
            ps = min(11.5, shrink(pen, place, place_w - 4 * mm, 11.5))
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
        name_w = tw
        if it["to_confirm"]:
            name_w = tw - 22 * mm
            pen.text_mid(x0 + w - 1 * mm, cy, TO_CONFIRM, 12, align="right", bold=True, color=RED)
        draw_fitted(
            pen, tx, y, name_w, name_h, it["team"], max_size=16, min_size=8, align="left", bold=True, pad=1 * mm
        )
        yy = y
        if it["affiliation"]:
            yy -= aff_h
            aff = f"（{it['affiliation']}）"
            pen.text_mid(tx + 1 * mm, yy + aff_h / 2, aff, shrink(pen, aff, tw - 2 * mm, 10.5), color=MUTED)
        if players:
            yy -= 1.2 * mm
            for line in players:
                yy -= psize * 1.5
                s = shrink(pen, line, tw - 2 * mm, psize)
                pen.text(tx + 1 * mm, yy + psize * 0.35, line, s)
        pen.hline(x0, x0 + w, top - height, width=0.4, color=HINT, dash=(1.2, 1.6))

    return Block(height, draw)
