"""順位決定戦 pages of the トーナメント表: one table per division listing its placement games
by place (the game, what it decides, both teams, the result), after the brackets.

Input: ``(division, [PlacementGame])`` pairs; output: ``Page``s for ``bracket_pdf``.  A
walkover prints 「不戦勝」 for its winner (never a bare 28–0), a withdrawn team carries 「（棄権）」
(the caller puts it in the name).  No Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm

from common.pdf.layout import (
    LANDSCAPE,
    MARGIN,
    Block,
    Page,
    Section,
    cols_x,
    draw_page_header,
    header_height,
    header_row,
    heading_block,
    paginate,
    scale_cols,
)
from common.pdf.pen import HINT, INK, LINE, MUTED, Pen, draw_fitted
from common.pdf.text import checked

RED = (0.78, 0.09, 0.11)
COLUMNS = (("試合", 12), ("順位決定戦", 34), ("チームA", 56), ("結果", 22), ("チームB", 56), ("決定する順位", 50))
ROW_HEIGHT = 9 * mm


@dataclass(frozen=True)
class PlacementGame:
    """One placement game: ``title`` (「1位決定戦（A-B）」), ``decides`` (「1位・2位」),
    ``team_a``/``team_b`` (names, or the slot's words while unknown: ``known_a``/``known_b``
    false), ``result`` (「30-26」, 「不戦勝」 beside the winner's side, ``""`` not played) and
    ``winner`` ("A", "B" or None); ``to_confirm``: the game is out of date (「要確認」)."""

    match_number: int
    title: str
    decides: str
    team_a: str
    team_b: str
    result: str = ""
    winner: str | None = None
    known_a: bool = True
    known_b: bool = True
    to_confirm: bool = False


def _row(x0: float, widths: list[float], g: PlacementGame, what: str) -> Block:
    xs = cols_x(x0, widths)
    number = f"第{g.match_number}試合" + (" 要確認" if g.to_confirm else "")
    cells = [
        (number, "center", False, RED if g.to_confirm else INK),
        (checked(g.title, f"{what}.title"), "left", False, INK),
        (checked(g.team_a, f"{what}.team_a"), "left", g.winner == "A", INK if g.known_a else HINT),
        (checked(g.result, f"{what}.result"), "center", False, INK),
        (checked(g.team_b, f"{what}.team_b"), "left", g.winner == "B", INK if g.known_b else HINT),
        (checked(g.decides, f"{what}.decides"), "left", False, MUTED),
    ]

    def draw(pen: Pen, top: float) -> None:
        y = top - ROW_HEIGHT
        for i, (text, align, bold, color) in enumerate(cells):
            draw_fitted(
                pen,
                xs[i],
                y,
                widths[i],
                ROW_HEIGHT,
                text,
                max_size=10,
                min_size=5.5,
                align=align,
                bold=bold,
                color=RED if bold else color,
                pad=1.4 * mm,
            )
        pen.hline(xs[0], xs[-1], y, width=0.4, color=LINE)

    return Block(ROW_HEIGHT, draw)


def placement_pages(ev, divisions: list[tuple[str, list[PlacementGame]]]) -> list[Page]:
    """Pages (A4 landscape) listing each division's placement games by place, headed
    「▽<division>・順位決定戦」; ``ev`` is the prepared event of ``bracket_pdf``. ``[]`` when
    no division has placement games."""
    pw, _ph = LANDSCAPE
    x0, w = MARGIN, pw - 2 * MARGIN
    widths = scale_cols([cw for _label, cw in COLUMNS], w)
    header = header_row(x0, list(zip([label for label, _cw in COLUMNS], widths, strict=True)), 8 * mm)
    sections = []
    for di, (division, games) in enumerate(divisions):
        if not games:
            continue
        name = checked(division, f"placements[{di}].name")
        sections.append(
            Section(
                heading=lambda continued, name=name: heading_block(
                    x0, w, f"▽{name}・順位決定戦", "（続き）" if continued else ""
                ),
                header=header,
                rows=[_row(x0, widths, g, f"placements[{di}].games[{i}]") for i, g in enumerate(games)],
                page_break_before=True,
            )
        )
    if not sections:
        return []

    def new_page(_index, _size=None):
        page = Page(LANDSCAPE, lambda pen: draw_page_header(pen, LANDSCAPE, "トーナメント表", ev))
        return page, LANDSCAPE[1] - header_height()

    return paginate(sections, new_page)
