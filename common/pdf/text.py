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


def split_two(text: str, font: str) -> list[str]:
    """Split ``text`` into two lines of balanced width, respecting 禁則 and ASCII words."""
    n = len(text)
    if n < 2:
        return [text]
    widths = [text_width(ch, font, 1.0) for ch in text]
    total = sum(widths)
    best: tuple[float, int, int] | None = None  # (score, cut_start, cut_end)
    left = 0.0
    for i in range(1, n):
        left += widths[i - 1]
        before, after = text[i - 1], text[i]
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

    One line shrunk down to ``min_size``; then two balanced lines; below ``min_size`` only
    as a last resort (the text is never clipped or allowed to overflow).
    """
    unit = text_width(text, font, 1.0) or 1.0
    size = min(max_size, box_w / unit, box_h / 1.05)
    if size >= min_size or max_lines < 2 or len(text) < 2:
        return size, [text]
    lines = split_two(text, font)
    widest = max(text_width(line, font, 1.0) for line in lines) or 1.0
    size2 = min(max_size, box_w / widest, box_h / (len(lines) * leading))
    if size2 < size:  # wrapping did not help (e.g. a single unbreakable word)
        return size, [text]
    return size2, lines


def checked(value: object, what: str) -> str:
    """``value`` cleaned (see :func:`clean`); a character the Japanese font lacks is only
    logged with ``what`` (e.g. ``teams[3].players[1].name``): the pen draws it from a
    fallback font or as 〓 (:mod:`common.pdf.fallback`), the paper always prints."""
    text = clean(value)
    check_glyphs(text, what)
    return text


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """Greedy line breaking of ``text`` at ``size`` within ``width`` (禁則 respected)."""
    lines: list[str] = []
    line = ""
    for ch in text:
        if line and text_width(line + ch, font, size) > width:
            carry = ""
            if ch in NO_LINE_START and len(line) > 1:
                carry, line = line[-1], line[:-1]
            while len(line) > 1 and line[-1] in NO_LINE_END:
                carry, line = line[-1] + carry, line[:-1]
            lines.append(line.rstrip())
            line = (carry + ch).lstrip()
        else:
            line += ch
    if line:
        lines.append(line)
    return lines


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
    for i in range(1, len(text)):
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
    ``min_size``, then two lines split by :func:`split_name`; below ``min_size`` only as
    a last resort.  The result never exceeds the box."""
    unit = text_width(text, font, 1.0) or 1.0
    size = min(max_size, box_w / unit, box_h / 1.05)
    if size >= min_size or max_lines < 2 or len(text) < 2:
        return size, [text]
    lines = split_name(text, font)
    if len(lines) < 2:
        return size, [text]
    widest = max(text_width(line, font, 1.0) for line in lines) or 1.0
    size2 = min(max_size, box_w / widest, box_h / (len(lines) * leading))
    if size2 <= size:
        return size, [text]
    return size2, lines


def edition_title(name: object, edition: int | None) -> str:
    """An event's printed title: ``name`` cleaned, with 「第N回」 in front for ``edition`` N
    (「第12回 ひたち郷土かるた大会」), not doubled when the name already starts with it."""
    title = clean(name)
    if edition:
        prefix = f"第{edition}回"
        if not title.startswith(prefix):
            return f"{prefix} {title}".strip()
    return title
