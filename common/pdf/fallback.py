"""Paper that always prints: characters the main PDF font lacks (pure reportlab, no Django).

The main font (IPAex Gothic, :mod:`common.pdf.fonts`) lacks Hangul, emoji and rare kanji
such as 𠮷.  Every paper draws through :class:`common.pdf.pen.Pen`, which splits a text
into *runs* by font (:func:`runs`):

* a character the main font has is drawn in it;
* else from the first installed **fallback font** that has it (``KARUTA_PDF_FALLBACK_FONTS``
  or the known paths below: IPAmj Mincho (Debian's ``fonts-ipamj-mincho``: 58,000+ glyphs
  of people's names, 𠮷 and 𡈽 among them), Hanazono Mincho and Noto CJK TrueType for rare
  kanji, Nanum /
  Un fonts for Hangul, Droid Sans Fallback, DejaVu Sans for monochrome emoji and symbols);
* else as the visible **substitute mark** 〓, drawn by a font that maps every character to
  the main font's 〓 glyph, so the PDF's text layer still holds the true character;
* variation selectors and the zero-width joiner are drawn by a zero-width font: the base
  character prints, the selector stays in the text layer (葛󠄀 reads back as 葛󠄀).

It also repairs reportlab's ToUnicode CMap for characters beyond U+FFFF (reportlab 5.1
writes ``<1F600>``, an odd-length hex string readers reject): the entries are written
as UTF-16 surrogate pairs (:func:`to_unicode_cmap`), so 𩸽 is searchable and copyable.

Decision: ``docs/rules/paper.md`` ("Paper always prints"; issue 18 item 9).
"""

from __future__ import annotations

import copy
import functools
import logging
import os
import threading
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from common.pdf import fonts

logger = logging.getLogger(__name__)

ENV_VAR = "KARUTA_PDF_FALLBACK_FONTS"

#: The mark drawn for a character no installed font has (JIS 「げた」, U+3013).
SUBSTITUTE_MARK = "〓"
SUBSTITUTE_NAME = "KarutaSubstitute"
INVISIBLE_NAME = "KarutaInvisible"

#: Fallback candidates, most preferred first (missing files are skipped, CFF ones too).
KNOWN_FALLBACK_PATHS: tuple[str, ...] = (
    # IPAmj明朝 (IPA Font License): the 人名 glyphs of the MJ character set, 𠮷 included.
    "/usr/share/fonts/truetype/ipamj/ipamjm.ttf",
    "/usr/share/fonts/opentype/ipamj/ipamjm.ttf",
    "/usr/share/fonts/ipamj/ipamjm.ttf",
    "/usr/local/share/fonts/ipamjm.ttf",
    "/usr/share/fonts/truetype/hanazono/HanaMinA.ttf",
    "/usr/share/fonts/truetype/hanazono/HanaMinB.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansCJKjp-Regular.ttf",
    "/usr/share/fonts/truetype/nanum/NanumGothic.ttf",
    "/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf",
    "/usr/share/fonts/truetype/baekmuk/gulim.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/usr/share/fonts/truetype/droid/DroidSansFallback.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "C:/Windows/Fonts/malgun.ttf",
    "C:/Windows/Fonts/seguisym.ttf",
    "/System/Library/Fonts/Supplemental/AppleGothic.ttf",
)


def is_invisible(ch: str) -> bool:
    """True for a character drawn as nothing: variation selectors (U+FE00–FE0F,
    U+E0100–E01EF) and the zero-width joiner / non-joiner."""
    o = ord(ch)
    return 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or o in (0x200C, 0x200D)


# --------------------------------------------------------------------------- ToUnicode


def _utf16_hex(cp: int) -> str:
    """``0x1F600`` -> ``'D83DDE00'`` (UTF-16BE, surrogate pair beyond U+FFFF)."""
    if cp > 0xFFFF:
        cp -= 0x10000
        return f"{0xD800 + (cp >> 10):04X}{0xDC00 + (cp & 0x3FF):04X}"
    return f"{cp:04X}"


def to_unicode_cmap(fontname: str, subset: list[int]) -> str:
    """reportlab's ``makeToUnicodeCMap`` with each destination written as UTF-16BE, so
    a character beyond U+FFFF becomes a surrogate pair (``<D842DFB7>`` for 𠮷), not the
    odd-length ``<20BB7>`` reportlab 5.1 writes (PDF 32000 §9.10.3)."""
    head = [
        "/CIDInit /ProcSet findresource begin",
        "12 dict begin",
        "begincmap",
        "/CIDSystemInfo",
        f"<< /Registry ({fontname})",
        f"/Ordering ({fontname})",
        "/Supplement 0",
        ">> def",
        f"/CMapName /{fontname} def",
        "/CMapType 2 def",
        "1 begincodespacerange",
        f"<00> <{len(subset) - 1:02X}>",
        "endcodespacerange",
        f"{len(subset)} beginbfchar",
    ]
    body = [f"<{i:02X}> <{_utf16_hex(v)}>" for i, v in enumerate(subset)]
    tail = ["endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(head + body + tail)


ttfonts.makeToUnicodeCMap = to_unicode_cmap  # the workaround: addObjects looks it up here


# --------------------------------------------------------------------------- fonts


class _AnyGlyph(dict):
    """A ``charToGlyph`` that maps every character to one glyph."""

    def __init__(self, glyph: int):
        super().__init__()
        self.glyph = glyph

    def __contains__(self, code: object) -> bool:
        return True

    def __missing__(self, code: int) -> int:
        return self.glyph


def _one_glyph_font(main: TTFont, name: str, source_char: str, width: float) -> TTFont:
    """A copy of the main TrueType font drawing every character as ``source_char``'s glyph,
    ``width`` thousandths of an em wide; the text layer keeps the true characters."""
    font = copy.copy(main)
    font.fontName = name
    font.state = WeakKeyDictionary()
    face = copy.copy(main.face)
    face.name = name.encode("ascii")
    face.charToGlyph = _AnyGlyph(main.face.charToGlyph[ord(source_char)])
    face.charWidths = {}
    face.defaultWidth = width
    font.face = face
    pdfmetrics.registerFont(font)
    return font


def has_outlines(font: TTFont) -> bool:
    """True when reportlab can subset ``font``: it has a ``glyf`` table.  A colour emoji
    font (Noto Color Emoji: CBDT bitmaps, no ``glyf``) would fail when the PDF is built."""
    return "glyf" in getattr(font.face, "table", {})


@dataclass(frozen=True)
class _Fallback:
    name: str
    path: str
    codepoints: frozenset[int]


@dataclass(frozen=True)
class _Chain:
    source: object  # the main font's selection this chain was built for
    main: str
    main_codepoints: frozenset[int] | None  # None: the CID fallback (coverage unknown)
    fallbacks: tuple[_Fallback, ...]
    substitute: str | None  # None with the CID fallback: the mark itself is drawn
    invisible: str | None


_lock = threading.Lock()
_chain: _Chain | None = None


def _candidates() -> list[str]:
    spec = os.environ.get(ENV_VAR)
    if spec is not None:
        return [p.strip() for p in spec.split(os.pathsep) if p.strip()]
    return list(KNOWN_FALLBACK_PATHS) if fonts.system_fonts_allowed() else []


def _load_fallbacks(main_path: str | None) -> tuple[_Fallback, ...]:
    found: list[_Fallback] = []
    seen = {os.path.realpath(main_path)} if main_path else set()
    for spec in _candidates():
        path, index = fonts._parse_spec(os.path.expanduser(spec))
        if not os.path.isfile(path) or os.path.realpath(path) in seen:
            continue
        seen.add(os.path.realpath(path))
        name = f"KarutaFallback{len(found) + 1}"
        try:
            if fonts._outline_kind(path, index or 0) != "truetype":
                logger.debug("fallback font %s skipped: CFF outlines", path)
                continue
            font = TTFont(name, path, subfontIndex=index or 0)
        except (fonts.FontConfigurationError, TTFError) as exc:
            logger.debug("fallback font %s skipped: %s", path, exc)
            continue
        if not has_outlines(font):
            logger.debug("fallback font %s skipped: colour bitmaps, no TrueType outlines", path)
            continue
        pdfmetrics.registerFont(font)
        found.append(_Fallback(name, path, frozenset(font.face.charToGlyph)))
        logger.info("PDF fallback font: %s", path)
    return tuple(found)


def _build() -> _Chain:
    main = fonts.japanese_font()
    state = fonts._current()
    if not state.embedded:
        return _Chain(state, main, None, (), None, None)
    main_font = pdfmetrics.getFont(main)
    substitute = _one_glyph_font(main_font, SUBSTITUTE_NAME, SUBSTITUTE_MARK, main_font.face.getCharWidth(0x3013))
    invisible = _one_glyph_font(main_font, INVISIBLE_NAME, " ", 0)
    return _Chain(state, main, state.codepoints, _load_fallbacks(state.path), substitute.fontName, invisible.fontName)


def _current() -> _Chain:
    global _chain
    chain = _chain
    if chain is None or chain.source is not fonts._current():
        with _lock:
            if _chain is None or _chain.source is not fonts._current():
                _chain = _build()
                _font_of.cache_clear()
            chain = _chain
    return chain


def reset_fallback_cache() -> None:
    """Forget the fallback chain (tests, environment changes); the main font too."""
    global _chain
    with _lock:
        _chain = None
        _font_of.cache_clear()
    fonts.reset_font_cache()


# --------------------------------------------------------------------------- runs


@functools.lru_cache(maxsize=4096)
def _font_of(ch: str) -> str:
    """Registered font name drawing ``ch`` (``""``: the CID font cannot encode it)."""
    chain = _chain
    assert chain is not None
    o = ord(ch)
    if chain.main_codepoints is None:  # CID fallback: UCS-2, astral characters impossible
        return "" if o > 0xFFFF or is_invisible(ch) else chain.main
    if o in chain.main_codepoints or o == 0xA0:
        return chain.main
    if is_invisible(ch):
        return chain.invisible or ""
    for fb in chain.fallbacks:
        if o in fb.codepoints:
            return fb.name
    return chain.substitute or ""


def runs(text: str, font: str) -> list[tuple[str, str]]:
    """``text`` split into ``(font name, piece)`` runs, each drawable by its font.

    Only the main Japanese font (:func:`common.pdf.fonts.japanese_font`) is split; any
    other font (Helvetica…) gives one run.  With the non-embedded CID fallback, a
    character it cannot encode becomes the substitute mark 〓 itself (and a variation
    selector is dropped)."""
    chain = _current()
    if font != chain.main or not text:
        return [(font, text)] if text else []
    out: list[tuple[str, str]] = []
    for ch in text:
        name = _font_of(ch)
        if not name:  # CID fallback
            if is_invisible(ch):
                continue
            name, ch = chain.main, SUBSTITUTE_MARK
        if out and out[-1][0] == name:
            out[-1] = (name, out[-1][1] + ch)
        else:
            out.append((name, ch))
    return out


def text_width(text: str, font: str, size: float) -> float:
    """Width in points of ``text`` at ``size`` as the pen draws it (runs by font)."""
    return sum(pdfmetrics.stringWidth(piece, name, size) for name, piece in runs(text, font))


def unprintable_chars(text: str) -> list[str]:
    """Characters of ``text`` (in order, no repeats) that no installed font draws: they
    print as 〓.  Variation selectors and joiners are never listed."""
    chain = _current()
    seen: list[str] = []
    for ch in text:
        if ch in seen or is_invisible(ch):
            continue
        name = _font_of(ch)
        if (not name or name == chain.substitute) and ch not in seen:
            seen.append(ch)
    return seen


def describe_fallbacks() -> list[str]:
    """Files of the fallback fonts in use, in order (for logs and the README)."""
    return [fb.path for fb in _current().fallbacks]
