"""Vertical Japanese text (縦書き): which glyph, upright or rotated, where in its cell.

Pure layout, no canvas: a text becomes a list of :class:`Glyph` (one cell each, stacked top
to bottom), a list of glyphs is cut into columns (read right to left) with 禁則, and a name
or a line is fitted into a column (shrunk down to a floor, then broken into two columns,
never clipped and never a character lost).  Any PDF may draw the result; the certificates
(``awards/paper/``) do.

Units: a glyph's advance down the column and its shift in its cell are in em (1 em = the font
size); column lengths and sizes handed to :func:`fit_column` are points.  The callables
``has_glyph(ch) -> bool`` (does the font draw this character?) and ``measure(text) -> em``
(horizontal width of ``text`` at 1 pt, i.e. in em) come from the caller's font.

Rules followed (JIS X 4051 「日本語文書の組版方法」 and the W3C note "Requirements for
Japanese Text Layout" (JLREQ), as summarised in ``docs/rules/certificates.md``):

* 、。，． and the small kana sit in the upper right of their cell: the font's vertical
  presentation form (U+FE10–FE48) when it has one, else the horizontal glyph shifted;
* ー 〜 … ‥ － and brackets 「」『』（）【】〈〉 are turned 90° clockwise, or drawn as their
  vertical presentation forms (︹︺﹁﹂…) when the font has them;
* one Latin letter or digit stands upright in full width (令和9年 → 令和９年); two digits
  stand side by side in one cell (縦中横: 第21回); a longer Latin run (a word, 2026) is
  turned 90° clockwise and takes as much of the column as it is wide;
* no column starts with 、。」 and the like (:data:`common.pdf.text.NO_LINE_START`) or ends
  with an opening bracket (:data:`common.pdf.text.NO_LINE_END`): the character before is
  carried to the next column (追い出し).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from common.pdf.text import MIN_PT, NO_LINE_END, NO_LINE_START, char_class

__all__ = [
    "ROTATED",
    "SHIFTED",
    "SMALL_KANA",
    "SPACE",
    "TCY",
    "UPRIGHT",
    "VERTICAL_FORMS",
    "Glyph",
    "balanced_columns",
    "break_columns",
    "column_length",
    "fit_column",
    "fit_columns",
    "layout",
    "positions",
    "split_name_columns",
]

UPRIGHT = "upright"  # drawn as is, centred in its cell
ROTATED = "rotated"  # turned 90° clockwise (ー, brackets without a vertical form, Latin runs)
TCY = "tcy"  # 縦中横: two digits side by side in one cell
SHIFTED = "shifted"  # the horizontal glyph moved to the upper right (small kana, 、。)
SPACE = "space"  # an empty cell (a space in the text)

SMALL_KANA = frozenset("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ")

#: Vertical presentation forms (Unicode "CJK Compatibility Forms" and "Vertical Forms").
VERTICAL_FORMS: dict[str, str] = {
    "，": "\ufe10",
    "、": "\ufe11",
    "。": "\ufe12",
    "：": "\ufe13",
    "；": "\ufe14",
    "！": "\ufe15",
    "？": "\ufe16",
    "〖": "\ufe17",
    "〗": "\ufe18",
    "…": "\ufe19",
    "‥": "\ufe30",
    "—": "\ufe31",
    "―": "\ufe31",
    "–": "\ufe32",
    "（": "\ufe35",
    "）": "\ufe36",
    "｛": "\ufe37",
    "｝": "\ufe38",
    "〔": "\ufe39",
    "〕": "\ufe3a",
    "【": "\ufe3b",
    "】": "\ufe3c",
    "《": "\ufe3d",
    "》": "\ufe3e",
    "〈": "\ufe3f",
    "〉": "\ufe40",
    "「": "\ufe41",
    "」": "\ufe42",
    "『": "\ufe43",
    "』": "\ufe44",
    "［": "\ufe47",
    "］": "\ufe48",
}

#: Turned 90° clockwise when the font has no vertical form for them.
_ROTATE = frozenset("ー〜～…‥－—―–‐-（）「」『』【】〈〉《》〔〕［］｛｝〖〗()[]{}<>＜＞=＝:：;；→←⇒〰")

#: Where punctuation sits when drawn from its horizontal glyph: moved right and up (em).
_PUNCT_SHIFT = (0.6, 0.62)
_SMALL_SHIFT = (0.1, 0.1)
_PUNCT = frozenset("、。，．,.")

# A run of Latin letters/digits (ASCII and Latin-1), joined by ' - . & _ / : inside a word.
_LATIN_RE = re.compile(r"[0-9A-Za-z\u00c0-\u024f](?:[0-9A-Za-z\u00c0-\u024f'’&_.\-/:]*[0-9A-Za-z\u00c0-\u024f])?")
_SPACE_RE = re.compile(r"[ \u3000]+")


@dataclass(frozen=True)
class Glyph:
    """One cell of a vertical line.

    text: the characters drawn (a vertical presentation form, a full-width digit, a Latin
    run …). source: the characters of the input it stands for (``"".join`` of the sources
    gives the text back, spaces collapsed). kind: :data:`UPRIGHT`, :data:`ROTATED`,
    :data:`TCY`, :data:`SHIFTED` or :data:`SPACE`. advance: em taken down the column.
    dx, dy: em the glyph is moved right and up from its upright place (:data:`SHIFTED`).
    """

    text: str
    source: str
    kind: str
    advance: float = 1.0
    dx: float = 0.0
    dy: float = 0.0

    @property
    def no_head(self) -> bool:
        """May not start a column (、。」 small kana …, 禁則)."""
        return bool(self.source) and self.source[0] in NO_LINE_START

    @property
    def no_tail(self) -> bool:
        """May not end a column (「（【 …, 禁則)."""
        return bool(self.source) and self.source[-1] in NO_LINE_END


def _default_measure(text: str) -> float:
    return sum(0.5 if ch.isascii() else 1.0 for ch in text)


def _full_width(ch: str) -> str:
    """「9」 → 「９」, 「A」 → 「Ａ」 (ASCII only; anything else unchanged)."""
    return chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch


def _latin(run: str, has_glyph: Callable[[str], bool], measure: Callable[[str], float]) -> list[Glyph]:
    """A Latin run: 1 character upright full-width, 2 digits 縦中横, longer turned."""
    if len(run) == 1:
        wide = _full_width(run)
        return [Glyph(wide if has_glyph(wide) else run, run, UPRIGHT)]
    if len(run) == 2 and run.isascii() and run.isdigit():
        return [Glyph(run, run, TCY)]
    return [Glyph(run, run, ROTATED, advance=max(measure(run), 0.5))]


def _one(ch: str, has_glyph: Callable[[str], bool], measure: Callable[[str], float]) -> Glyph:
    """The cell of one non-Latin character."""
    form = VERTICAL_FORMS.get(ch)
    if form and has_glyph(form):
        return Glyph(form, ch, UPRIGHT)
    if ch in _PUNCT:
        return Glyph(ch, ch, SHIFTED, dx=_PUNCT_SHIFT[0], dy=_PUNCT_SHIFT[1])
    if ch in SMALL_KANA:
        return Glyph(ch, ch, SHIFTED, dx=_SMALL_SHIFT[0], dy=_SMALL_SHIFT[1])
    if ch in _ROTATE:
        return Glyph(ch, ch, ROTATED, advance=max(measure(ch), 0.5) if ch.isascii() else 1.0)
    return Glyph(ch, ch, UPRIGHT)


def _glue(ch: str) -> bool:
    """Variation selectors, joiners and combining marks stay in the cell before them."""
    o = ord(ch)
    return 0xFE00 <= o <= 0xFE0F or 0xE0100 <= o <= 0xE01EF or o in (0x200C, 0x200D, 0x3099, 0x309A)


def layout(
    text: str,
    has_glyph: Callable[[str], bool] = lambda ch: True,
    measure: Callable[[str], float] = _default_measure,
) -> list[Glyph]:
    """``text`` as vertical cells, top to bottom (see the module's rules).

    In: any text; a run of spaces (ASCII or 全角) is one empty cell, a newline is kept as a
    zero-advance :data:`SPACE` glyph with source ``"\\n"`` (a forced column break for
    :func:`break_columns`). Out: the glyphs; ``"".join(g.source)`` is the text with space
    runs collapsed. Never raises; an empty text gives ``[]``.
    """
    glyphs: list[Glyph] = []
    at = 0
    while at < len(text):
        ch = text[at]
        latin = _LATIN_RE.match(text, at)
        space = _SPACE_RE.match(text, at)
        if latin:
            glyphs.extend(_latin(latin.group(), has_glyph, measure))
            at = latin.end()
        elif space:
            glyphs.append(Glyph("", space.group(), SPACE))
            at = space.end()
        elif ch == "\n":
            glyphs.append(Glyph("", "\n", SPACE, advance=0.0))
            at += 1
        elif _glue(ch) and glyphs:
            last = glyphs[-1]
            glyphs[-1] = Glyph(last.text + ch, last.source + ch, last.kind, last.advance, last.dx, last.dy)
            at += 1
        else:
            glyphs.append(_one(ch, has_glyph, measure))
            at += 1
    return glyphs


def column_length(glyphs: Sequence[Glyph]) -> float:
    """Em taken down the column by ``glyphs``."""
    return sum(g.advance for g in glyphs)


def positions(glyphs: Sequence[Glyph]) -> list[tuple[Glyph, float]]:
    """Each glyph with the em from the column's top to the top of its cell."""
    out, top = [], 0.0
    for g in glyphs:
        out.append((g, top))
        top += g.advance
    return out


def _split_long(g: Glyph, capacity: float, measure: Callable[[str], float]) -> list[Glyph]:
    """A turned Latin run longer than a column, cut into pieces that fit (by characters)."""
    pieces, piece = [], ""
    for ch in g.text:
        if piece and measure(piece + ch) > capacity:
            pieces.append(piece)
            piece = ch
        else:
            piece += ch
    pieces.append(piece)
    return [Glyph(p, p, ROTATED, advance=max(measure(p), 0.5)) for p in pieces]


def _trim(column: list[Glyph]) -> list[Glyph]:
    while column and column[0].kind == SPACE:
        column = column[1:]
    while column and column[-1].kind == SPACE:
        column = column[:-1]
    return column


def _carry(column: list[Glyph], nxt: Glyph) -> tuple[list[Glyph], list[Glyph]]:
    """Where to cut before ``nxt`` under 禁則: (kept, carried to the next column)."""
    cut = len(column)
    if nxt.no_head:
        cut -= 1  # 追い出し: the character before goes with it
        while cut > 0 and column[cut].no_head:  # 」。 : both move
            cut -= 1
    while cut > 0 and column[cut - 1].no_tail:
        cut -= 1
    if cut <= 0:  # nothing would stay: break anyway
        return column, []
    return column[:cut], column[cut:]


def break_columns(
    glyphs: Sequence[Glyph], capacity: float, measure: Callable[[str], float] = _default_measure
) -> list[list[Glyph]]:
    """Cut ``glyphs`` into columns of at most ``capacity`` em, in reading order (the first
    is the rightmost).

    A newline glyph forces a break; spaces at either end of a column are dropped; 禁則 as
    in the module's docstring; a turned Latin run longer than a column is cut by
    characters. A column longer than ``capacity`` happens only when one cell is (a
    capacity under 1 em). ``capacity`` ≤ 0 raises ``ValueError``.
    """
    if capacity <= 0:
        raise ValueError("a column needs a positive length")
    columns: list[list[Glyph]] = []
    column: list[Glyph] = []
    queue = list(glyphs)
    while queue:
        g = queue.pop(0)
        if g.source == "\n":
            columns.append(column)
            column = []
            continue
        if g.kind == ROTATED and g.advance > capacity and len(g.text) > 1:
            queue[:0] = _split_long(g, capacity, measure)
            continue
        if column and column_length(_trim(column + [g])) > capacity + 1e-9:
            kept, carried = _carry(column, g)
            columns.append(kept)
            column = carried + [g]
        else:
            column.append(g)
    columns.append(column)
    return [_trim(c) for c in columns if _trim(c)] or []


def balanced_columns(
    glyphs: Sequence[Glyph], capacity: float, measure: Callable[[str], float] = _default_measure
) -> list[list[Glyph]]:
    """Like :func:`break_columns`, but each paragraph (text between newlines) is spread
    evenly over as few columns as it needs: no column of one or two characters left at
    the end of a paragraph (the guides ask for lines of about the same length)."""
    paragraphs: list[list[Glyph]] = [[]]
    for g in glyphs:
        if g.source == "\n":
            paragraphs.append([])
        else:
            paragraphs[-1].append(g)
    out: list[list[Glyph]] = []
    for par in paragraphs:
        cols = break_columns(par, capacity, measure) if par else []
        if len(cols) > 1:
            need = column_length(_trim(par)) / len(cols)
            while need < capacity:
                tried = break_columns(par, need, measure)
                if len(tried) == len(cols):
                    cols = tried
                    break
                need += 0.5
        out += cols
    return out


def _natural_cut(glyphs: Sequence[Glyph], longest: float) -> int | None:
    """Index at which a name reads best in two columns: balanced, preferring a space,
    「・」 or a change of script, never against 禁則, neither column over ``longest`` em
    (``None``: no such cut)."""
    total = column_length(glyphs)
    best: tuple[float, int] | None = None
    top = 0.0
    for i in range(1, len(glyphs)):
        top += glyphs[i - 1].advance
        a, b = glyphs[i - 1], glyphs[i]
        if b.no_head or a.no_tail or max(top, total - top) > longest + 1e-9:
            continue
        if a.kind == SPACE or b.kind == SPACE or a.source in ("・", "／"):
            factor = 1.0
        elif char_class(a.source[-1]) != char_class(b.source[0]):
            factor = 1.12
        else:
            factor = 1.5
        score = max(top, total - top) * factor
        if best is None or score < best[0]:
            best = (score, i)
    return best[1] if best else None


def split_name_columns(glyphs: Sequence[Glyph], longest: float = float("inf")) -> list[list[Glyph]]:
    """A name in two columns cut at its most natural point, neither longer than
    ``longest`` em (see :func:`_natural_cut`); ``[]`` when no cut keeps to that."""
    cut = _natural_cut(glyphs, longest)
    if cut is None:
        return []
    return [c for c in (_trim(list(glyphs[:cut])), _trim(list(glyphs[cut:]))) if c]


def fit_column(
    glyphs: Sequence[Glyph],
    length: float,
    max_size: float,
    min_size: float,
    measure: Callable[[str], float] = _default_measure,
) -> tuple[float, list[list[Glyph]]]:
    """Size (points) and columns so ``glyphs`` fit a column ``length`` points long.

    One column at ``max_size``, shrunk down to ``min_size``; then two columns cut at a
    natural point (:func:`split_name_columns`) at the size that fits (never above
    ``max_size``, never under ``min_size``; the most natural cut, else the most natural
    that fits at ``min_size``); then, at ``min_size`` (never under
    :data:`common.pdf.text.MIN_PT`, 6 pt, the smallest printed text of issue 18), as many
    columns as it takes (:func:`break_columns`).
    Every glyph is kept; no column is longer than ``length``. ``length`` ≤ 0 raises
    ``ValueError``.
    """
    if length <= 0:
        raise ValueError("a column needs a positive length")
    glyphs = _trim(list(glyphs))
    total = column_length(glyphs)
    if not glyphs or total <= 0:
        return max_size, [glyphs] if glyphs else []
    size = min(max_size, length / total)
    if size >= min_size:
        return size, [glyphs]
    floor = max(min_size, MIN_PT)
    for longest in (float("inf"), length / floor):
        two = split_name_columns(glyphs, longest)
        if len(two) == 2:
            size2 = min(max_size, length / max(column_length(c) for c in two))
            if size2 >= floor - 1e-9:
                return size2, two
    return floor, break_columns(glyphs, length / floor, measure)


def _in_columns(
    glyphs: list[Glyph], length: float, max_size: float, floor: float, n: int, measure: Callable[[str], float]
) -> tuple[float, list[list[Glyph]]] | None:
    """The largest size (at most ``max_size``, at least ``floor``) at which ``glyphs`` take at
    most ``n`` columns ``length`` points long, with its columns; ``None`` when none does."""
    total = column_length(glyphs)
    if n == 1:
        size = min(max_size, length / total)
        return (size, [glyphs]) if size >= floor - 1e-9 else None
    if n == 2:
        two = split_name_columns(glyphs, length / floor)
        if len(two) == 2:
            size = min(max_size, length / max(column_length(c) for c in two))
            if size >= floor - 1e-9:
                return size, two
    size = min(max_size, length * n / total)
    while size >= floor - 1e-9:
        cols = balanced_columns(glyphs, length / size, measure)
        if len(cols) <= n:
            return size, cols
        size *= 0.97
    return None


def fit_columns(
    glyphs: Sequence[Glyph],
    length: float,
    max_size: float,
    attempts: Sequence[tuple[int, float]],
    measure: Callable[[str], float] = _default_measure,
) -> tuple[float, list[list[Glyph]]]:
    """Size (points) and columns for a name that should stay large: more columns before a
    smaller size (issue 19 fix: a 33-character team name on its certificate).

    ``attempts`` are ``(columns, floor)`` pairs tried in order: the largest size from
    ``max_size`` down to ``floor`` points at which the glyphs take at most that many columns
    ``length`` points long (two cut at a natural point, :func:`split_name_columns`, else
    balanced, :func:`balanced_columns`); the first that fits wins. Else, at the smallest
    floor (never under :data:`common.pdf.text.MIN_PT`), as many columns as it takes
    (:func:`break_columns`). Every glyph is kept; no column is longer than ``length``.
    ``length`` ≤ 0 or no attempt raises ``ValueError``.
    """
    if length <= 0 or not attempts:
        raise ValueError("a column needs a positive length and an attempt")
    glyphs = _trim(list(glyphs))
    if not glyphs or column_length(glyphs) <= 0:
        return max_size, [glyphs] if glyphs else []
    for n, floor in attempts:
        found = _in_columns(glyphs, length, max_size, floor, n, measure)
        if found is not None:
            return found
    floor = max(min(f for _n, f in attempts), MIN_PT)
    return floor, break_columns(glyphs, length / floor, measure)
