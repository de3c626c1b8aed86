"""Text for the printed paper: cleaning, line breaking (禁則), fitting names into boxes.

Pure Python over reportlab's font metrics (no Django).  Sizes are in points, widths and
heights in points (1 mm = 2.835 pt).  The line-breaking rules (禁則) and the preference for
natural breaks in Japanese names are described in ``docs/rules/paper.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from common.pdf.fallback import text_width
from common.pdf.fonts import check_glyphs

__all__ = [
    "CONTROL_RE",
    "MIN_PT",
    "break_units",
    "ellipsize",
    "fit_lines",
    "NO_LINE_END",
    "NO_LINE_START",
    "char_class",
    "checked",
    "clean",
    "edition_title",
    "fit",
    "fit_name",
    "fit_paragraph",
    "split_name",
    "split_two",
    "wrap",
    "wrap_items",
]

CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SPACE_RE = re.compile(r"\s+")

# Japanese line-breaking rules (禁則): never start a line with these …
NO_LINE_START = set(
    "、。，．,.・:：;；!！?？%％)）]］}｝」』】〕〉》〙〗”’ー～々ゝゞヽヾ"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
)
# … and never end one with these.
NO_LINE_END = set("(（[［{｛「『【〔〈《〘〖“‘")


def clean(value: object) -> str:
    """Data string for printing: ``str(value)``, control characters -> space, whitespace
    collapsed and stripped; ``None`` -> ""."""
    if value is None:
        return ""
    text = CONTROL_RE.sub(" ", str(value))
    return _SPACE_RE.sub(" ", text).strip()


def _is_ascii_word_char(ch: str) -> bool:
    return ch.isascii() and (ch.isalnum() or ch in "-_'&")


def _boundaries(text: str) -> set[int]:
    """Indexes of ``text`` where a line may break (between :func:`break_units` pieces)."""
    cuts, at = set(), 0
    for unit in break_units(text)[:-1]:
        at += len(unit)
        cuts.add(at)
    return cuts


def split_two(text: str, font: str) -> list[str]:
    """Split ``text`` into two lines of balanced width, respecting 禁則 and ASCII words."""
    n = len(text)
    if n < 2:
        return [text]
    widths = [text_width(ch, font, 1.0) for ch in text]
    total = sum(widths)
    allowed = _boundaries(text)
    best: tuple[float, int, int] | None = None  # (score, cut_start, cut_end)
    left = 0.0
    for i in range(1, n):
        left += widths[i - 1]
        before, after = text[i - 1], text[i]
        if allowed and i not in allowed:
            continue  # inside a Latin word or against 禁則
        if after == " ":
            continue  # break *after* the space run instead
        cut_start = i
        while cut_start > 0 and text[cut_start - 1] == " ":
            cut_start -= 1
        if cut_start == 0:
            continue
        w1 = left - sum(widths[cut_start:i])
        w2 = total - left
        score = max(w1, w2)
        natural = before == " " or before in "・/／-－"
        if after in NO_LINE_START or text[cut_start - 1] in NO_LINE_END:
            score *= 1.6
        elif _is_ascii_word_char(before) and _is_ascii_word_char(after):
            score *= 1.35
        elif not natural:
            score *= 1.08  # prefer a space or 「・」 when it is nearly as balanced
        if best is None or score < best[0]:
            best = (score, cut_start, i)
    if best is None:
        return [text]
    _, cut_start, cut_end = best
    return [text[:cut_start], text[cut_end:]]


def fit(
    text: str,
    font: str,
    box_w: float,
    box_h: float,
    max_size: float,
    min_size: float,
    max_lines: int = 2,
    leading: float = 1.18,
) -> tuple[float, list[str]]:
    """Font size and lines so ``text`` fits ``box_w`` × ``box_h`` (points).

    One line shrunk down to ``min_size``; then two balanced lines; then, never under
    :data:`MIN_PT` (6 pt), more lines or the text abbreviated with 「…」 (never clipped,
    never outside the box).
    """
    min_size = max(min_size, MIN_PT)
    unit = text_width(text, font, 1.0) or 1.0
    size = min(max_size, box_w / unit, box_h / 1.05)
    if size >= min_size or len(text) < 2:
        return _floored(text, font, box_w, box_h, size, [text], min_size, max_lines, leading)
    lines = split_two(text, font) if max_lines >= 2 else [text]
    widest = max(text_width(line, font, 1.0) for line in lines) or 1.0
    size2 = min(max_size, box_w / widest, box_h / (len(lines) * leading))
    if size2 < size:  # wrapping did not help (e.g. a single unbreakable word)
        size2, lines = size, [text]
    return _floored(text, font, box_w, box_h, size2, lines, min_size, max_lines, leading)


def _floored(text, font, box_w, box_h, size, lines, min_size, max_lines, leading):
    """``(size, lines)`` unless ``size`` is under :data:`MIN_PT`: then more lines
    (:func:`fit_lines`) or, for a one-line box, the text abbreviated with 「…」."""
    if size >= MIN_PT:
        return size, lines
    if max_lines < 2:
        return MIN_PT, [ellipsize(text, font, MIN_PT, box_w)]
    return fit_lines(text, font, box_w, box_h, min_size, leading)


def checked(value: object, what: str) -> str:
    """``value`` cleaned (see :func:`clean`); a character the Japanese font lacks is only
    logged with ``what`` (e.g. ``teams[3].players[1].name``): the pen draws it from a
    fallback font or as 〓 (:mod:`common.pdf.fallback`), the paper always prints."""
    text = clean(value)
    check_glyphs(text, what)
    return text


#: No printed text is smaller than this (points): below it a text wraps onto more lines
#: or, as a last resort, is abbreviated with 「…」 (issue 18 item 9).
MIN_PT = 6.0

ELLIPSIS = "…"
# A Latin word (ASCII / Latin-1 letters and digits, joined by ' - . & _) is never split
# when it fits on a line.
_UNIT_RE = re.compile(r"[0-9A-Za-z\u00c0-\u024f](?:[0-9A-Za-z\u00c0-\u024f'’&_.\-]*[0-9A-Za-z\u00c0-\u024f])?|.", re.S)


def _glued(ch: str) -> bool:
    """A character that must stay with the one before it: 禁則 line-start characters,
    variation selectors, joiners and combining marks (dakuten)."""
    o = ord(ch)
    return (
        ch in NO_LINE_START
        or 0xFE00 <= o <= 0xFE0F
        or 0xE0100 <= o <= 0xE01EF
        or o in (0x200C, 0x200D, 0x3099, 0x309A)
        or 0x0300 <= o <= 0x036F
    )


def break_units(text: str) -> list[str]:
    """``text`` cut into the pieces a line may break between: a Latin word, or one other
    character, with 禁則 applied (a line-start-forbidden character is glued to the piece
    before it, a line-end-forbidden one to the piece after it).  ``"".join`` gives
    ``text`` back."""
    units: list[str] = []
    hold = ""
    for tok in _UNIT_RE.findall(text):
        if units and not hold and _glued(tok[0]):
            units[-1] += tok
        elif tok in NO_LINE_END:
            hold += tok
        else:
            units.append(hold + tok)
            hold = ""
    if hold:
        units.append(hold)
    return units


def _wrap_chars(text: str, font: str, size: float, width: float) -> list[str]:
    """Character by character (a piece wider than the line), one 禁則 carry."""
    lines: list[str] = []
    line = ""
    for ch in text:
        if line and text_width(line + ch, font, size) > width:
            carry = ""
            if _glued(ch) and len(line) > 1:
                carry, line = line[-1], line[:-1]
            lines.append(line)
            line = carry + ch
        else:
            line += ch
    if line:
        lines.append(line)
    return lines


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking of ``text`` at ``size`` within ``width`` points.

    Breaks only between :func:`break_units` pieces: no line starts with 、。）」ー, small
    kana and the like or ends with an opening bracket (禁則, ``docs/rules/paper.md``), and
    a Latin word that fits on a line is never split (「常陸Karuta Club」, not
    「常陸Karut|a Club」).  A piece wider than the line is broken by characters.  Spaces
    at the ends of lines are dropped."""
    lines: list[str] = []
    line = ""
    for unit in break_units(text):
        if line.strip() and text_width(line + unit, font, size) > width:
            lines.append(line.rstrip())
            line = unit.lstrip()
        else:
            line = (line + unit).lstrip() if not line.strip() else line + unit
        if text_width(line, font, size) > width and len(line) > 1:
            parts = _wrap_chars(line, font, size, width)
            lines.extend(parts[:-1])
            line = parts[-1]
    if line.strip():
        lines.append(line.rstrip())
    return lines


def ellipsize(text: str, font: str, size: float, width: float) -> str:
    """``text`` cut to fit ``width`` at ``size``, ending in 「…」 when cut."""
    if text_width(text, font, size) <= width:
        return text
    while text and text_width(text + ELLIPSIS, font, size) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def fit_lines(
    text: str, font: str, box_w: float, box_h: float, max_size: float, leading: float = 1.16
) -> tuple[float, list[str]]:
    """Largest size from ``max_size`` down to :data:`MIN_PT` at which ``text`` wrapped
    (:func:`wrap`) fits the box on as many lines as it takes; at :data:`MIN_PT` the lines
    that do not fit are dropped and the last one kept ends in 「…」."""
    size = max(max_size, MIN_PT)
    while True:
        lines = wrap(text, font, size, box_w)
        if len(lines) * size * leading <= box_h + 0.01 or size <= MIN_PT:
            break
        size = max(MIN_PT, size - 0.25)
    room = max(1, int((box_h + 0.01) // (size * leading)))
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = ellipsize(lines[-1] + ELLIPSIS, font, size, box_w)
    return size, [ellipsize(line, font, size, box_w) for line in lines]


def fit_paragraph(
    text: str, font: str, width: float, height: float, max_size: float, min_size: float, leading: float = 1.38
) -> tuple[float, list[str]]:
    """Largest size (≤ ``max_size``) at which ``text`` wrapped to ``width`` fits ``height``."""
    size = max_size
    while True:
        lines = wrap(text, font, size, width)
        if len(lines) * size * leading <= height or size <= min_size:
            return size, lines
        size = max(min_size, size - 0.25)


def wrap_items(items: Sequence[str], sep: str, font: str, size: float, width: float) -> list[str]:
    """Join ``items`` with ``sep`` into lines no wider than ``width``; never split an item
    unless it is wider than a whole line by itself."""
    lines: list[str] = []
    line = ""
    for item in items:
        candidate = f"{line}{sep}{item}" if line else item
        if line and text_width(candidate, font, size) > width:
            lines.append(line)
            line = item
        else:
            line = candidate
        while text_width(line, font, size) > width and len(line) > 1:
            # one item wider than the line: break it by characters
            parts = wrap(line, font, size, width)
            lines.extend(parts[:-1])
            line = parts[-1]
            if len(parts) == 1:
                break
    if line:
        lines.append(line)
    return lines


def char_class(ch: str) -> str:
    """Script of a character: kanji, hiragana, katakana, alphanumeric or punctuation."""
    o = ord(ch)
    if ch in "々〆ヵヶ" or 0x4E00 <= o <= 0x9FFF or 0x3400 <= o <= 0x4DBF or o >= 0x20000 or 0xF900 <= o <= 0xFAFF:
        return "kanji"
    if 0x3041 <= o <= 0x309F:
        return "hira"
    if 0x30A0 <= o <= 0x30FF or 0xFF66 <= o <= 0xFF9F:
        return "kata"
    if ch.isalnum():
        return "alnum"
    return "punct"


def split_name(text: str, font: str) -> list[str]:
    """Split a name into two lines at its most natural point.

    Unlike a purely balanced split, a break after 「・」 or a space, or where the script
    changes (漢字 / ひらがな / カタカナ), is preferred to one inside a run of the same
    script: 「ひたち海浜かるた会・Ａ組」 -> 「ひたち海浜」「かるた会・Ａ組」.  Never splits an
    ASCII word when another break exists, and respects 禁則.
    """
    best: tuple[float, str, str] | None = None
    allowed = _boundaries(text)
    for i in range(1, len(text)):
        if allowed and i not in allowed:
            continue  # inside a Latin word or against 禁則
        a, b = text[i - 1], text[i]
        left, right = text[:i].rstrip(), text[i:].lstrip()
        if not left or not right:
            continue
        ca, cb = char_class(a), char_class(b)
        if b in NO_LINE_START or a in NO_LINE_END:
            factor = 2.2
        elif a in " 　・/／" or b in " 　（(「『【〔":
            factor = 1.0
        elif ca == cb == "alnum" or (a.isascii() and b.isascii() and a.isalnum() and b.isalnum()):
            factor = 2.5
        elif ca != cb:
            factor = 1.12
        else:
            factor = 1.5
        score = max(text_width(left, font, 1.0), text_width(right, font, 1.0)) * factor
        if best is None or score < best[0]:
            best = (score, left, right)
    return [text] if best is None else [best[1], best[2]]


def fit_name(
    text: str,
    font: str,
    box_w: float,
    box_h: float,
    max_size: float,
    min_size: float,
    max_lines: int = 2,
    leading: float = 1.16,
) -> tuple[float, list[str]]:
    """Font size and lines for a name in ``box_w`` × ``box_h``: one line shrunk down to
    ``min_size``, then two lines split by :func:`split_name`; then, never under
    :data:`MIN_PT`, more lines or 「…」.  The result never exceeds the box."""
    min_size = max(min_size, MIN_PT)
    unit = text_width(text, font, 1.0) or 1.0
    size = min(max_size, box_w / unit, box_h / 1.05)
    if size >= min_size or max_lines < 2 or len(text) < 2:
        return _floored(text, font, box_w, box_h, size, [text], min_size, max_lines, leading)
    lines = split_name(text, font)
    widest = max(text_width(line, font, 1.0) for line in lines) or 1.0
    size2 = min(max_size, box_w / widest, box_h / (len(lines) * leading))
    if len(lines) < 2 or size2 <= size:
        size2, lines = size, [text]
    return _floored(text, font, box_w, box_h, size2, lines, min_size, max_lines, leading)


def edition_title(name: object, edition: int | None) -> str:
    """An event's printed title: ``name`` cleaned, with 「第N回」 in front for ``edition`` N
    (「第12回 ひたち郷土かるた大会」), not doubled when the name already starts with it."""
    title = clean(name)
    if edition:
        prefix = f"第{edition}回"
        if not title.startswith(prefix):
            return f"{prefix} {title}".strip()
    return title
