"""個人成績: each player's cards over the group stage, per division and grade (A4 portrait).

Input: :class:`tournament.paper.data.EventInfo` and :class:`IndividualSheet` blocks;
output: PDF bytes.  Players' names are personal data: the caller prints this for the
organisers only.  Of Django only translation: every label is in the active language (README "Languages").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    MARGIN,
    PORTRAIT,
    Block,
    Page,
    Section,
    cols_x,
    draw_page_header,
    header_height,
    header_row,
    heading_block,
    message_row,
    scale_cols,
    sections_pdf,
)
from common.pdf.pen import LINE, MUTED, Pen, draw_fitted
from common.pdf.text import checked
from tournament.paper.data import EventInfo, event_document, prepare_event

__all__ = ["IndividualRow", "IndividualSheet", "individual_pdf"]


@dataclass(frozen=True)
class IndividualRow:
    """One player's line: ``rank`` as printed (「1」, 「2=」), cards and games played."""

    rank: str
    name: str
    grade: str
    team: str
    affiliation: str
    cards: int
    games: int


@dataclass(frozen=True)
class IndividualSheet:
    """A block of the table: a division, or one grade of it (``title`` already joined)."""

    title: str
    rows: list[IndividualRow] = field(default_factory=list)


def _labels() -> list[str]:
    """The column heads, in the active language."""
    return [_("rank"), _("name"), _("grade"), _("team name"), _("affiliation"), _("cards"), _("played")]


WIDTHS = [12, 40, 12, 38, 38, 14, 14]


def individual_pdf(event: EventInfo, sheets: list[IndividualSheet]) -> bytes:
    """個人成績, A4 portrait.

    Input: the event and the blocks in print order.  Each block has a 「▽」 heading with the
    number of players, a header row repeated after a page break, and one row per player:
    rank (「=」 for a shared rank), name, grade, team, affiliation, cards and games played.
    With no block, one line says that there are no individual counts yet.  Returns the
    PDF bytes.
    """
    font = japanese_font()
    ev = prepare_event(event)
    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    widths = scale_cols(WIDTHS, w)
    xs = cols_x(x0, widths)
    notes = [
        _(
            "Players' cards summed over the confirmed recording sheets of the group stage. Equal cards share a rank (「=」)."
        )
    ]
    title = _("Individual table")
    top0 = ph - header_height(1)
    header = header_row(x0, list(zip(_labels(), widths, strict=True)), 8 * mm)

    def page_factory(index: int, _size=None) -> tuple[Page, float]:
        return Page(size, lambda pen: draw_page_header(pen, size, title, ev, notes)), top0

    sections = []
    for si, sheet in enumerate(sheets):
        label = "▽" + checked(sheet.title, f"sheets[{si}].title")
        right = _("%(count)s players") % {"count": len(sheet.rows)}

        def heading(continued: bool, label=label, right=right) -> Block:
            return heading_block(x0, w, label + (_(" (continued)") if continued else ""), right)

        rows = [_row(xs, _checked_row(r, f"sheets[{si}].rows[{ri}]")) for ri, r in enumerate(sheet.rows)]
        sections.append(Section(heading, header, rows, keep_together=False, gap_after=6 * mm))
    if not sections:
        sections.append(Section(None, None, [message_row(x0, w, _("No individual counts recorded yet."), 14 * mm)]))
    doc = event_document(ev, title)
    return sections_pdf(sections, page_factory, doc, font)


def _checked_row(r: IndividualRow, where: str) -> list[str]:
    return [
        r.rank,
        checked(r.name, f"{where}.name"),
        checked(r.grade, f"{where}.grade"),
        checked(r.team, f"{where}.team"),
        checked(r.affiliation, f"{where}.affiliation"),
        str(r.cards),
        str(r.games),
    ]


def _row(xs: list[float], cells: list[str]) -> Block:
    """One player's row, every cell fitted to its box."""
    rh = 8 * mm

    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        for i, text in enumerate(cells):
            draw_fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                rh,
                text,
                max_size=10,
                min_size=5,
                bold=i == 5,
                max_lines=2 if i in (1, 3, 4) else 1,
                pad=1 * mm,
            )
        for x in xs[1:-1]:
            pen.vline(x, y, top, width=0.4, color=MUTED)
        pen.rect(xs[0], y, xs[-1] - xs[0], rh, stroke=LINE, width=0.6)

    return Block(rh, draw)
