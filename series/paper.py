"""The series ranking on paper (A4 landscape): one table per division, then the clubs', each
row with its explanation; the points table and the events in the header note.

Input: ``series.ranking.SeriesStandings``; output: PDF bytes (``common.pdf``: the Japanese
font, 〓 for a character no font has, rows never split, the header repeated after a break).
"""

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    LANDSCAPE,
    MARGIN,
    Block,
    Document,
    Masthead,
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
from series.exports import ranking_rows

WIDTHS = [10, 38, 34, 12, 150]
CLUB_WIDTHS = [10, 56, 12, 166]


def _row(xs, cells, bold_column):
    """One ranking row, every cell fitted to its box (the explanation on up to 2 lines)."""
    rh = 9 * mm

    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        for i, text in enumerate(cells):
            last = i == len(cells) - 1
            draw_fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                rh,
                text,
                max_size=10,
                min_size=5,
                bold=i == bold_column,
                max_lines=2 if last or i in (1, 2) else 1,
                pad=1 * mm,
                align="left" if last else "center",
            )
        for x in xs[1:-1]:
            pen.vline(x, y, top, width=0.4, color=MUTED)
        pen.rect(xs[0], y, xs[-1] - xs[0], rh, stroke=LINE, width=0.6)

    return Block(rh, draw)


def _section(x0, w, title, rows, explain, club_column, where):
    widths = scale_cols(WIDTHS if club_column else CLUB_WIDTHS, w)
    xs = cols_x(x0, widths)
    heads = [_("rank"), _("team name") if club_column else _("club")]
    heads += [_("affiliation")] if club_column else []
    heads += [_("points"), _("explanation")]
    header = header_row(x0, list(zip(heads, widths, strict=True)), 8 * mm)
    blocks = []
    for ri, line in enumerate(ranking_rows(rows, explain, club_column)):
        cells = [line[0], *line[1 : 3 if club_column else 2], line[3 if club_column else 2], line[-1]]
        blocks.append(_row(xs, [checked(c, f"{where}.rows[{ri}]") for c in map(str, cells)], len(cells) - 2))
    if not blocks:
        blocks.append(message_row(x0, w, _("No places decided yet."), 12 * mm))
    label = "▽" + checked(title, f"{where}.title")

    def heading(continued, label=label):
        return heading_block(x0, w, label + (_(" (continued)") if continued else ""))

    return Section(heading, header, blocks, keep_together=False, gap_after=6 * mm)


def series_pdf(standings):
    """The ranking of ``standings`` as PDF bytes, A4 landscape, in the active language."""
    font = japanese_font()
    series = standings.series
    size = LANDSCAPE
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    title = _("Series ranking")
    masthead = Masthead(title=checked(str(series), "series.name"), date="", venue="")
    table = ", ".join(f"{place}:{value}" for place, value in enumerate(standings.table, start=1))
    notes = [
        _("Points per place %(table)s; a place beyond the table scores 0. Ties: more 1st places, then more 2nd …")
        % {"table": table}
    ]
    top0 = ph - header_height(1)

    def page_factory(index, _size=None):
        return Page(size, lambda pen: draw_page_header(pen, size, title, masthead, notes)), top0

    sections = [
        _section(x0, w, d.name, d.rows, standings.explain, True, f"divisions[{i}]")
        for i, d in enumerate(standings.divisions)
    ]
    sections.append(_section(x0, w, _("Clubs"), standings.clubs, standings.club_explain, False, "clubs"))
    doc = Document(
        title=f"{title} {masthead.title}",
        subject=masthead.title,
        keywords=[title],
        footer_left=masthead.title,
        footer_mid=title,
    )
    return sections_pdf(sections, page_factory, doc, font)
