"""The pen: drawing on a reportlab canvas in the Japanese font, with the paper's colours.

Every printed paper (recording sheets, tournament paper, the club games' sheets) draws
through :class:`Pen` and holds :data:`RENDER_LOCK` while it renders.  Coordinates and
sizes are points (``reportlab.lib.units.mm`` converts), origin at the bottom left;
colours are RGB triples of 0–1 floats.  No Django.
"""

from __future__ import annotations

import threading

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from common.pdf.fallback import runs, text_width
from common.pdf.text import MIN_PT, ellipsize, fit, fit_lines, fit_name

__all__ = [
    "BAND",
    "HINT",
    "INK",
    "LINE",
    "MUTED",
    "RENDER_LOCK",
    "SHADE",
    "WHITE",
    "ZEBRA",
    "Pen",
    "checkbox",
    "draw_boxed",
    "draw_fitted",
    "shrink",
]

# reportlab keeps per-document subset state on the shared TTFont object and documents
# "you cannot use the same TTFont object for different documents at the same time":
# serialise rendering (threaded servers) — a 200-sheet batch takes about 1.5 s.
RENDER_LOCK = threading.Lock()

# --------------------------------------------------------------------------- colours

INK = (0.10, 0.10, 0.10)
LINE = (0.22, 0.22, 0.22)
MUTED = (0.38, 0.38, 0.38)
HINT = (0.55, 0.55, 0.55)
BAND = (0.86, 0.86, 0.86)  # header cells
SHADE = (0.945, 0.945, 0.945)  # label cells
WHITE = (1, 1, 1)
ZEBRA = (0.968, 0.968, 0.968)  # every other table row


class Pen:
    """Thin wrapper over the canvas ``c`` drawing in ``font`` (a registered font name).

    Positions and sizes are points; ``mm`` from ``reportlab.lib.units`` converts.  The
    pen draws any text: a character the font lacks comes from a fallback font or prints
    as 〓, and the text layer keeps the true characters (:mod:`common.pdf.fallback`).
    """

    def __init__(self, c: Canvas, font: str):
        self.c = c
        self.font = font

    # geometry -------------------------------------------------------------
    def rect(self, x, y, w, h, *, fill=None, stroke=LINE, width=0.6, radius=0.0, dash=None):
        """A rectangle (rounded by ``radius``), filled with ``fill`` and outlined in ``stroke``
        ``width`` points wide; ``None`` leaves either out; ``dash`` = (on, off) points."""
        c = self.c
        if fill is not None:
            c.setFillColorRGB(*fill)
        if stroke is not None:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(width)
        if dash:
            c.setDash(*dash)
        if radius:
            c.roundRect(x, y, w, h, radius, stroke=stroke is not None, fill=fill is not None)
        else:
            c.rect(x, y, w, h, stroke=stroke is not None, fill=fill is not None)
        if dash:
            c.setDash()

    def line(self, x1, y1, x2, y2, *, width=0.6, color=LINE, dash=None):
        """A line ``width`` points wide from (x1, y1) to (x2, y2); ``dash`` = (on, off)."""
        c = self.c
        c.setStrokeColorRGB(*color)
        c.setLineWidth(width)
        if dash:
            c.setDash(*dash)
        c.line(x1, y1, x2, y2)
        if dash:
            c.setDash()

    def hline(self, x1, x2, y, **style):
        """A horizontal line at ``y`` (see :meth:`line` for the style)."""
        self.line(x1, y, x2, y, **style)

    def vline(self, x, y1, y2, **style):
        """A vertical line at ``x`` (see :meth:`line` for the style)."""
        self.line(x, y1, x, y2, **style)

    # text -----------------------------------------------------------------
    def width(self, text: str, size: float) -> float:
        """Width in points of ``text`` at ``size`` points in the pen's font."""
        return text_width(text, self.font, size)

    def text(self, x, y, text: str, size: float, *, align="left", bold=False, color=INK):
        """Draw one line with its baseline at ``y``; ``bold`` = fill+stroke (fake bold).

        Text is never drawn under :data:`common.pdf.text.MIN_PT` (6 pt): a smaller ``size``
        draws at 6 pt in the width it would have taken, abbreviated with 「…」."""
        if not text:
            return
        if size < MIN_PT:  # never under 6 pt: the same width, abbreviated with 「…」
            text, size = ellipsize(text, self.font, MIN_PT, text_width(text, self.font, size)), MIN_PT
        c = self.c
        if align != "left":
            w = text_width(text, self.font, size)
            x -= w if align == "right" else w / 2
        t = c.beginText(x, y)
        c.setFillColorRGB(*color)
        if bold:
            c.setStrokeColorRGB(*color)
            c.setLineWidth(size * 0.045)
            t.setTextRenderMode(2)
        for font, piece in runs(text, self.font):
            t.setFont(font, size)
            t.textOut(piece)
        if bold:
            t.setTextRenderMode(0)
        c.drawText(t)

    def text_mid(self, x, cy, text, size, **kw):
        """Draw one line vertically centred on ``cy`` (CJK em-box centre)."""
        self.text(x, cy - size * 0.36, text, size, **kw)

    def fitted(
        self,
        x,
        y,
        w,
        h,
        text: str,
        *,
        max_size,
        min_size,
        align="center",
        bold=False,
        color=INK,
        pad=1.2 * mm,
        max_lines=2,
    ):
        """Fit ``text`` into the box (shrink, then wrap to two lines) and draw it centred."""
        if not text:
            return
        inner_w, inner_h = w - 2 * pad, h - 2 * pad * 0.6
        size, lines = fit(text, self.font, inner_w, inner_h, max_size, min_size, max_lines)
        leading = size * 1.18
        block = leading * (len(lines) - 1)
        cy = y + h / 2 + block / 2
        if align == "center":
            tx = x + w / 2
        elif align == "right":
            tx = x + w - pad
        else:
            tx = x + pad
        for i, line in enumerate(lines):
            self.text_mid(tx, cy - i * leading, line, size, align=align, bold=bold, color=color)


def draw_fitted(
    pen: Pen,
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
    """Fit ``text`` into the box (x, y, w, h in points) and draw it vertically centred.

    Shrinks from ``max_size`` to ``min_size`` points (never under 6 pt: then more lines, or
    「…」), then wraps to two lines at a natural
    break (:func:`common.pdf.text.fit_name`), never outside the box.  Unlike
    :meth:`Pen.fitted` (balanced two-line split of the recording sheets), a break after
    「・」, a space or where the script changes is preferred.  ``pad`` is the horizontal padding, ``vpad`` the vertical
    one (default ``0.6 * pad``)."""
    if not text:
        return
    inner_w, inner_h = w - 2 * pad, h - 2 * (pad * 0.6 if vpad is None else vpad)
    size, lines = fit_name(text, pen.font, inner_w, inner_h, max_size, min_size, max_lines)
    leading = size * 1.16
    cy = y + h / 2 + leading * (len(lines) - 1) / 2
    tx = x + w / 2 if align == "center" else (x + w - pad if align == "right" else x + pad)
    for i, line in enumerate(lines):
        pen.text_mid(tx, cy - i * leading, line, size, align=align, bold=bold, color=color)


def shrink(pen: Pen, text: str, width: float, max_size: float) -> float:
    """Font size ≤ ``max_size`` at which ``text`` fits on one line of ``width``."""
    return min(max_size, width / (pen.width(text, 1.0) or 1.0))


def draw_boxed(
    pen: Pen,
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
    """Draw ``text`` centred in the box on as many lines as needed: the largest size from
    ``max_size`` (never under 6 pt, whatever ``min_size`` says) at which the text wrapped
    with 禁則 and whole Latin words (:func:`common.pdf.text.wrap`) fits; at 6 pt what does
    not fit is abbreviated with 「…」 (:func:`common.pdf.text.fit_lines`)."""
    if not text:
        return
    iw, ih = w - 2 * pad, h - 2 * pad
    size, lines = fit_lines(text, pen.font, iw, ih, max(max_size, min_size), leading)
    block = size * leading * (len(lines) - 1)
    cy = y + h / 2 + block / 2
    for i, line in enumerate(lines):
        pen.text_mid(x + w / 2, cy - i * size * leading, line, size, align="center", bold=bold, color=color)


def checkbox(pen: Pen, x: float, y: float, s: float, width: float = 0.8) -> None:
    """A white check-in box of side ``s`` (points) at (x, y), outlined ``width`` points."""
    pen.rect(x, y, s, s, fill=WHITE, stroke=LINE, width=width)
