"""Where a Japanese name may break across lines on a screen (the hall podium's team names).

Phrases come from BudouX (its Japanese model, a pure-Python package), then two corrections
for names, which are noun compounds rather than sentences: no break inside a run of one
kana script (BudouX, trained on sentences, splits 「かる|た」), and a break wherever a bracket
opens or closes and where katakana meets kanji (「さくら」|ジュニアチーム|第3班). Never a break
before a small kana, a long vowel mark or closing punctuation, nor after opening punctuation
(JIS X 4051 line-start and line-end rules, as CSS ``line-break: strict``).
"""

from __future__ import annotations

import functools

import budoux

OPENING = "（(「『【〔［[｛{〈《“‘"
CLOSING = "）)」』】〕］]｝}〉》”’、。，．,.・：:；;！!？?"
NOT_AT_LINE_START = (
    CLOSING + "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーｰ々〻ゝゞヽヾ"
)


@functools.cache
def _parser():
    return budoux.load_default_japanese_parser()


def _script(char):
    """ "hira", "kata", "kanji" or "" (anything else) for one character."""
    if "ぁ" <= char <= "ゖ":
        return "hira"
    if "ァ" <= char <= "ヺ" or char in "ーｰ" or "ｦ" <= char <= "ﾝ":
        return "kata"
    if "一" <= char <= "鿿" or char in "々〆ヶ":
        return "kanji"
    return ""


def _may_break(before, after, budoux_break):
    """Whether a line may break between the characters ``before`` and ``after``."""
    if after in NOT_AT_LINE_START or before in OPENING or after.isspace() or before.isspace():
        return False
    if before in CLOSING or after in OPENING:
        return True
    kinds = {_script(before), _script(after)}
    if kinds == {"kata", "kanji"}:
        return True
    if budoux_break:
        return not (len(kinds) == 1 and kinds <= {"hira", "kata"})
    return False


def phrases(text):
    """``text`` cut into the pieces between which a line may break (joined, they are ``text``
    again); a text without such a place is one piece, "" is ``[]``.

    In: any text (a team name). Out: a list of non-empty strings, none of a single character
    (it joins the piece before). Spaces stay inside the pieces: the browser breaks at spaces
    by itself."""
    if not text:
        return []
    breaks = set()
    at = 0
    for piece in _parser().parse(text)[:-1]:
        at += len(piece)
        breaks.add(at)
    pieces, start = [], 0
    for i in range(1, len(text)):
        if _may_break(text[i - 1], text[i], i in breaks):
            pieces.append(text[start:i])
            start = i
    pieces.append(text[start:])
    merged = pieces[:1]
    for piece in pieces[1:]:
        if len(piece.strip()) == 1 and piece.strip() not in OPENING:  # no line of one character
            merged[-1] += piece
        else:
            merged.append(piece)
    return merged
