"""Drawing vertical columns (縦書き) on a reportlab canvas in the certificates' font.

The glyphs come from :mod:`common.pdf.tategaki` (pure layout); this module chooses the font
and puts each glyph where its cell says: one text object per column, each glyph placed by
its own text matrix (upright, turned 90° clockwise, or squeezed side by side for 縦中横), so
a reader of the PDF finds every character at its place (the tests read them back).

Font: certificates are set in 明朝 (IPAex Mincho, Debian's ``fonts-ipaexfont-mincho``) when
it is installed, else in the papers' Gothic (:func:`common.pdf.fonts.japanese_font`). A
character the Mincho lacks is drawn as the other papers draw it: from the Gothic, a fallback
font or as 〓 (:mod:`common.pdf.fallback`, ``docs/rules/paper.md`` "Paper always prints").
Lengths are points, origin bottom left. No Django.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFError, TTFont
from reportlab.pdfgen.canvas import Canvas

from common.pdf import fonts
from common.pdf.fallback import runs
from common.pdf.tategaki import ROTATED, SPACE, TCY, Glyph, layout, positions

MINCHO_NAME = "KarutaMincho"
MINCHO_ENV_VAR = "KARUTA_PDF_MINCHO_FONT"
MINCHO_PATHS = (
    "/usr/share/fonts/opentype/ipaexfont-mincho/ipaexm.ttf",
    "/usr/share/fonts/truetype/ipaexfont-mincho/ipaexm.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-mincho.ttf",
    "/usr/share/fonts/ipa-ex-mincho/ipaexm.ttf",
    "/usr/share/fonts/TTF/ipaexm.ttf",
    "/usr/local/share/fonts/ipaexm.ttf",
    "/Library/Fonts/ipaexm.ttf",
)

ASCENT = 0.88  # em above the baseline of the em box (IPAex: 880/1000)
CENTRE = 0.38  # em from the baseline to the middle of the em box
TCY_ROOM = 0.94  # em a 縦中横 pair may take across the column


@dataclass(frozen=True)
class Face:
    """The font a certificate is set in: ``name`` (registered), ``codepoints`` it draws
    (``None``: unknown, the non-embedded CID font) and ``mincho`` (True for 明朝)."""

    name: str
    codepoints: frozenset[int] | None
    mincho: bool

    def has_glyph(self, ch: str) -> bool:
        """True when the face itself draws every character of ``ch``."""
        if self.codepoints is None:
            return all(ord(c) <= 0xFFFF and not 0xFE10 <= ord(c) <= 0xFE4F for c in ch)
        return all(ord(c) in self.codepoints for c in ch)

    def runs(self, text: str) -> list[tuple[str, str]]:
        """``text`` as (font name, piece) runs: the face where it has the character, else
        the papers' fallback chain (:func:`common.pdf.fallback.runs`)."""
        if not self.mincho:
            return runs(text, self.name)
        if self.has_glyph(text):
            return [(self.name, text)]
        out: list[tuple[str, str]] = []
        for ch in text:
            pieces = [(self.name, ch)] if self.has_glyph(ch) else runs(ch, fonts.japanese_font())
            for name, piece in pieces:
                if out and out[-1][0] == name:
                    out[-1] = (name, out[-1][1] + piece)
                else:
                    out.append((name, piece))
        return out

    def measure(self, text: str) -> float:
        """Horizontal width of ``text`` in em (as drawn, fallback fonts included)."""
        return sum(pdfmetrics.stringWidth(piece, name, 1.0) for name, piece in self.runs(text))

    def glyphs(self, text: str) -> list[Glyph]:
        """``text`` laid out vertically for this face (:func:`common.pdf.tategaki.layout`)."""
        return layout(text, self.has_glyph, self.measure)


_lock = threading.Lock()
_face: Face | None = None


def _mincho_path() -> str | None:
    spec = os.environ.get(MINCHO_ENV_VAR, "").strip()
    system = list(MINCHO_PATHS) if fonts.system_fonts_allowed() else []
    for path in ([spec] if spec else []) + system:
        if os.path.isfile(path):
            return path
    return None


def _load() -> Face:
    main = fonts.japanese_font()
    path = _mincho_path()
    if path and fonts.font_is_embedded():
        try:
            font = TTFont(MINCHO_NAME, path)
        except TTFError:
            font = None
        if font is not None:
            pdfmetrics.registerFont(font)
            return Face(MINCHO_NAME, frozenset(font.face.charToGlyph), True)
    if not fonts.font_is_embedded():
        return Face(main, None, False)
    return Face(main, frozenset(pdfmetrics.getFont(main).face.charToGlyph), False)


def certificate_face() -> Face:
    """The certificates' face (registered once): IPAex Mincho if installed, else the
    papers' Gothic. ``KARUTA_PDF_MINCHO_FONT`` may name another TrueType 明朝 file."""
    global _face
    with _lock:
        if _face is None or (not _face.mincho and _face.name != fonts.japanese_font()):
            _face = _load()
        return _face


def reset_face() -> None:
    """Forget the chosen face (tests switching fonts)."""
    global _face
    with _lock:
        _face = None


def _matrix(face: Face, g: Glyph, cx: float, y_cell: float, size: float) -> tuple[float, ...]:
    """The text matrix putting glyph ``g`` in its cell (top ``y_cell``, centre ``cx``)."""
    if g.kind == ROTATED:
        width = face.measure(g.text) * size
        y = y_cell - (g.advance * size - width) / 2
        return (0, -1, 1, 0, cx - CENTRE * size, y)
    width = face.measure(g.text)
    squeeze = min(1.0, TCY_ROOM / width) if g.kind == TCY and width else 1.0
    x = cx - width * squeeze * size / 2 + g.dx * size
    return (squeeze, 0, 0, 1, x, y_cell - ASCENT * size + g.dy * size)


def draw_column(
    c: Canvas,
    face: Face,
    glyphs: Sequence[Glyph],
    cx: float,
    top: float,
    size: float,
    *,
    bold: bool = False,
    color=(0.08, 0.08, 0.08),
    actual_text: str | None = None,
) -> None:
    """Draw ``glyphs`` down a column centred on ``cx`` from ``top`` (points) at ``size``.

    ``actual_text`` (not None) marks the column as a span whose text for extraction is that
    string (``/ActualText``; "" = nothing: the certificate gives its text once, in reading
    order, in an invisible layer, :func:`draw_reading_layer`).

    ``bold`` fills and strokes the outlines (a thicker stroke for titles). Spaces draw
    nothing but take their cell. The caller has fitted the column
    (:func:`common.pdf.tategaki.fit_column`); nothing is clipped here.
    """
    if actual_text is not None:
        c._code.append(f"/Span <</ActualText <FEFF{actual_text.encode('utf-16-be').hex().upper()}>>> BDC")
    t = c.beginText()
    c.setFillColorRGB(*color)
    if bold:
        c.setStrokeColorRGB(*color)
        c.setLineWidth(size * 0.03)
        t.setTextRenderMode(2)
    for g, em in positions(glyphs):
        if g.kind == SPACE or not g.text:
            continue
        t.setTextTransform(*_matrix(face, g, cx, top - em * size, size))
        for name, piece in face.runs(g.text):
            t.setFont(name, size)
            t.textOut(piece)
    if bold:
        t.setTextRenderMode(0)
    c.drawText(t)
    if actual_text is not None:
        c._code.append("EMC")


READING_SIZE = 4.0  # points: the invisible reading layer's text (never seen; small to stay inside the area)


def draw_reading_layer(
    c: Canvas, face: Face, lines: Sequence[str], x: float, top: float, size: float = READING_SIZE
) -> None:
    """The text of a vertical page once more, invisible (render mode 3), one horizontal line
    per column in reading order from (``x``, ``top``) down: what text extraction
    (pdftotext, copy and paste, a screen reader) reads, since the visible glyphs stand one
    per cell and read one per line, columns interleaved (issue 34 item 4)."""
    t = c.beginText()
    t.setTextRenderMode(3)
    y = top - size
    for line in lines:
        t.setTextOrigin(x, y)
        for name, piece in face.runs(line):
            t.setFont(name, size)
            t.textOut(piece)
        y -= size * 1.3
    t.setTextRenderMode(0)
    c.drawText(t)
