"""The certificate paper: its size, the text area inside the printed frame, the offset, the
drawn frame and the calibration page (issue 19 item 2).

Settings are millimetres (:class:`awards.paper.certificates.PaperLayout`); drawing is in
points (1 mm = 72 / 25.4 pt), origin at the bottom left of the page. The offset moves
everything printed: ``offset_x_mm`` to the right, ``offset_y_mm`` down (a printer that
feeds the sheet 2 mm too high is corrected with ``offset_y_mm = 2``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from common.errors import UserError
from common.pdf.fonts import japanese_font
from common.pdf.pen import INK, Pen, draw_boxed

#: Paper sizes, portrait, millimetres (B5 is JIS B5, the size of Japanese 賞状用紙).
PAPER_SIZES_MM = {"A4": (210.0, 297.0), "B5": (182.0, 257.0)}
ORIENTATIONS = ("portrait", "landscape")
MIN_AREA_MM = 60.0  # the text area is at least this wide and tall
#: Nothing printed closer than this to the paper's edge: most printers cannot print there
#: (docs/rules/certificates.md, "Margins and offset").
MIN_EDGE_MM = 5.0
#: The drawn frame's outer line lies this far outside the text area (3 mm + its line).
FRAME_OUTSIDE_MM = 3.5

GOLD = (0.66, 0.52, 0.20)
RULE = (0.15, 0.15, 0.15)


@dataclass(frozen=True)
class Area:
    """A rectangle in points: left ``x``, bottom ``y``, width ``w``, height ``h``."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def top(self) -> float:
        return self.y + self.h

    def inset(self, d: float) -> Area:
        """The rectangle ``d`` points smaller on every side."""
        return Area(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)


def paper_mm(paper) -> tuple[float, float]:
    """(width, height) of the sheet in mm as it lies in the printer's output.

    Raises ``UserError`` naming the setting for an unknown size or orientation."""
    if paper.size not in PAPER_SIZES_MM:
        raise UserError(_("Paper size “%(size)s” is not one of A4, B5.") % {"size": paper.size})
    if paper.orientation not in ORIENTATIONS:
        raise UserError(_("Orientation “%(value)s” is neither portrait nor landscape.") % {"value": paper.orientation})
    w, h = PAPER_SIZES_MM[paper.size]
    return (h, w) if paper.orientation == "landscape" else (w, h)


def page_size(paper) -> tuple[float, float]:
    """(width, height) of the page in points."""
    w, h = paper_mm(paper)
    return w * mm, h * mm


def _edges(paper):
    """(side, distance of the text area from that edge in mm, margin, offset toward it)."""
    w, h = paper_mm(paper)
    ox, oy = paper.offset_x_mm, paper.offset_y_mm
    return (
        (pgettext("paper edge", "top"), paper.margin_top_mm + oy, paper.margin_top_mm, -oy),
        (pgettext("paper edge", "right"), paper.margin_right_mm - ox, paper.margin_right_mm, ox),
        (pgettext("paper edge", "bottom"), paper.margin_bottom_mm - oy, paper.margin_bottom_mm, oy),
        (pgettext("paper edge", "left"), paper.margin_left_mm + ox, paper.margin_left_mm, -ox),
    )


def edge_problems(paper) -> list[str]:
    """Why margins + offset of ``paper`` put the text area (or, with ``draw_frame``, the drawn
    frame, ``FRAME_OUTSIDE_MM`` outside it) closer than ``MIN_EDGE_MM`` (5 mm) to an edge of
    the paper or past it: one sentence per edge naming its margin and the offset; [] when all
    is on the paper. Raises ``UserError`` for an unknown paper (:func:`paper_mm`).
    docs/rules/certificates.md, "Margins and offset"."""
    frame = FRAME_OUTSIDE_MM if paper.draw_frame else 0.0
    problems = []
    for side, distance, margin, toward in _edges(paper):
        if distance - frame >= MIN_EDGE_MM:
            continue
        what = _("The drawn frame") if frame else _("The text")
        problems.append(
            _(
                "%(what)s would be printed %(d)s mm from the paper's %(side)s edge (%(side)s margin %(m)s mm, "
                "offset %(o)s mm toward that edge): keep at least %(min)s mm, printers cannot print closer. "
                "Make the offset smaller or the margin larger."
            )
            % {
                "what": what,
                "d": f"{distance - frame:g}",
                "side": side,
                "m": f"{margin:g}",
                "o": f"{toward:+g}",
                "min": f"{MIN_EDGE_MM:g}",
            }
        )
    return problems


def text_area(paper) -> Area:
    """The inside of the printed frame, offset applied, in points.

    Raises ``UserError`` naming the margins when they leave less than 60 mm either way or
    one is negative, or when margins + offset put the text or the drawn frame off the paper
    (:func:`edge_problems`; the settings form says the same before saving)."""
    w, h = paper_mm(paper)
    margins = (paper.margin_top_mm, paper.margin_right_mm, paper.margin_bottom_mm, paper.margin_left_mm)
    if min(margins) < 0:
        raise UserError(_("Margins cannot be negative."))
    inner_w = w - paper.margin_left_mm - paper.margin_right_mm
    inner_h = h - paper.margin_top_mm - paper.margin_bottom_mm
    if inner_w < MIN_AREA_MM or inner_h < MIN_AREA_MM:
        raise UserError(
            _("The margins leave %(w)s × %(h)s mm for the text; at least %(min)s mm each way are needed.")
            % {"w": f"{inner_w:g}", "h": f"{inner_h:g}", "min": f"{MIN_AREA_MM:g}"}
        )
    off_paper = edge_problems(paper)
    if off_paper:
        raise UserError(" ".join(off_paper))
    x = (paper.margin_left_mm + paper.offset_x_mm) * mm
    y = (paper.margin_bottom_mm - paper.offset_y_mm) * mm
    return Area(x, y, inner_w * mm, inner_h * mm)


def draw_frame(c: Canvas, area: Area) -> None:
    """A simple double frame whose inner line is the text area's edge (plain paper, the
    preview): a fine inner line and a thicker outer one 3 mm outside it, in gold."""
    c.setStrokeColorRGB(*GOLD)
    c.setLineWidth(0.8)
    c.rect(area.x, area.y, area.w, area.h, stroke=1, fill=0)
    outer = area.inset(-3 * mm)
    c.setLineWidth(2.4)
    c.rect(outer.x, outer.y, outer.w, outer.h, stroke=1, fill=0)


RULER_IN_MM = 12.0  # each ruler's line lies this far in from its edge
LEFT_RULER_FROM_MM = 18.0  # the left ruler starts this far down: clear of the top ruler


def _ticks(pen: Pen, length_mm: float, place, label, start: int = 0) -> None:
    """Ruler ticks every mm (longer every 5, numbered every 10) along one edge, from ``start``
    mm (the numbers are always mm from the sheet's edge)."""
    for i in range(start, int(length_mm) + 1):
        tick = 4.0 if i % 10 == 0 else (2.5 if i % 5 == 0 else 1.3)
        (x1, y1), (x2, y2) = place(i, tick)
        pen.line(x1, y1, x2, y2, width=0.3, color=RULE)
        if i % 10 == 0 and i:
            label(i, x2, y2)


def draw_rulers(c: Canvas, paper, font: str) -> None:
    """Rulers in mm from the sheet's left and top edges (offset applied): along the top edge
    12 mm in, over the whole width; along the left edge 12 mm in, from 18 mm down, so the two
    never cross nor overlap in the top-left corner (issue 19 fix: they did)."""
    pen = Pen(c, font)
    w_mm, h_mm = paper_mm(paper)
    ox, oy = paper.offset_x_mm * mm, paper.offset_y_mm * mm
    top = h_mm * mm - RULER_IN_MM * mm - oy
    left = RULER_IN_MM * mm + ox
    pen.line(ox, top, w_mm * mm + ox, top, width=0.3, color=RULE)
    _ticks(
        pen,
        w_mm,
        lambda i, t: ((i * mm + ox, top), (i * mm + ox, top - t * mm)),
        lambda i, x, y: pen.text(x, y - 2.6 * mm, str(i), 6, align="center", color=RULE),
    )
    start = int(LEFT_RULER_FROM_MM)
    pen.line(left, h_mm * mm - start * mm - oy, left, -oy, width=0.3, color=RULE)
    _ticks(
        pen,
        h_mm,
        lambda i, t: ((left, h_mm * mm - i * mm - oy), (left + t * mm, h_mm * mm - i * mm - oy)),
        lambda i, x, y: pen.text(x + 0.8 * mm, y - 2.1, str(i), 6, color=RULE),
        start=start,
    )


def calibration_text(paper) -> str:
    """The line printed on the calibration page: paper, margins and offset (mm)."""
    portrait = paper.orientation == "portrait"
    orientation = pgettext("paper orientation", "portrait") if portrait else pgettext("paper orientation", "landscape")
    w, h = paper_mm(paper)
    return _(
        "%(size)s %(orientation)s (%(w)s × %(h)s mm) · margins top %(top)s, right %(right)s, "
        "bottom %(bottom)s, left %(left)s mm · offset x %(x)s, y %(y)s mm"
    ) % {
        "size": paper.size,
        "orientation": orientation,
        "w": f"{w:g}",
        "h": f"{h:g}",
        "top": f"{paper.margin_top_mm:g}",
        "right": f"{paper.margin_right_mm:g}",
        "bottom": f"{paper.margin_bottom_mm:g}",
        "left": f"{paper.margin_left_mm:g}",
        "x": f"{paper.offset_x_mm:+g}",
        "y": f"{paper.offset_y_mm:+g}",
    }


def draw_calibration(c: Canvas, paper) -> None:
    """The calibration page: a thin frame exactly on the text area (margins + offset), the
    rulers, a cross at the frame's centre, the settings in one line and what to do."""
    area = text_area(paper)
    font = japanese_font()
    pen = Pen(c, font)
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.25)
    c.rect(area.x, area.y, area.w, area.h, stroke=1, fill=0)
    cx, cy = area.x + area.w / 2, area.y + area.h / 2
    pen.line(cx - 10 * mm, cy, cx + 10 * mm, cy, width=0.25, color=INK)
    pen.line(cx, cy - 10 * mm, cx, cy + 10 * mm, width=0.25, color=INK)
    draw_rulers(c, paper, font)
    pen.fitted(area.x, cy + 14 * mm, area.w, 12 * mm, calibration_text(paper), max_size=9, min_size=6, max_lines=2)
    hint = _(
        "Print this page on the certificate paper: the thin frame should lie on the inside edge of the "
        "printed frame. If it does not, measure how far it is off and enter that as the offset."
    )
    box_w = min(area.w - 10 * mm, 150 * mm)
    draw_boxed(pen, cx - box_w / 2, cy - 32 * mm, box_w, 18 * mm, hint, max_size=9, min_size=6)
