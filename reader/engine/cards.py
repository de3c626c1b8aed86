"""A deck's card fields checked and normalised (pure; issue 21, item 1).

Each check returns the clean value or raises :class:`CardValueError` with a code; the forms
and the Excel import turn the code into a translated sentence naming the field or the row.
"""

from __future__ import annotations

import unicodedata

#: Longest head kana (頭字): one kana, or a small kana pair such as 「きゃ」 (4 leaves room).
MAX_HEAD_CHARS = 4
#: Longest reading text or kana reading (a card's text is some 20 characters).
MAX_TEXT_CHARS = 200
#: Most cards in one edition (the Hitachi deck has 56; a practice deck fewer).
MAX_CARDS = 100

_TRUE = {"1", "○", "◯", "〇", "true", "yes", "y", "はい", "x", "✓", "役札"}
_FALSE = {"", "0", "×", "false", "no", "n", "いいえ", "-", "－"}
_KANA_PUNCT = set(" 　、。・ー！？!?「」")


class CardValueError(ValueError):
    """``code``: "required", "too_long", "not_kana", "not_flag"."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


def _to_hiragana(text: str) -> str:
    return "".join(chr(ord(ch) - 0x60) if "ァ" <= ch <= "ヶ" else ch for ch in text)


def _is_kana(ch: str) -> bool:
    return "ぁ" <= ch <= "ゖ" or "ァ" <= ch <= "ヺ" or ch in _KANA_PUNCT


def head_kana(value: str) -> str:
    """The head kana (頭字) in hiragana (katakana and half-width kana converted, spaces
    removed). Raises ``CardValueError`` "required", "too_long" (over :data:`MAX_HEAD_CHARS`)
    or "not_kana"."""
    text = unicodedata.normalize("NFKC", str(value or "")).replace(" ", "").replace("　", "")
    if not text:
        raise CardValueError("required")
    if len(text) > MAX_HEAD_CHARS:
        raise CardValueError("too_long")
    text = _to_hiragana(text)
    if not all("ぁ" <= ch <= "ゖ" for ch in text):
        raise CardValueError("not_kana")
    return text


def card_text(value: str) -> str:
    """A reading text with its spaces collapsed; "too_long" past :data:`MAX_TEXT_CHARS`."""
    text = " ".join(unicodedata.normalize("NFKC", str(value or "")).split())
    if len(text) > MAX_TEXT_CHARS:
        raise CardValueError("too_long")
    return text


def kana_reading(value: str) -> str:
    """A kana reading (may be empty): kana, spaces and 「、。・ー」 only ("not_kana")."""
    text = card_text(value)
    if not all(_is_kana(ch) for ch in text):
        raise CardValueError("not_kana")
    return text


def flag(value) -> bool:
    """A 役札 cell: ○/1/TRUE/はい → True; blank/0/×/FALSE/いいえ → False; else "not_flag"."""
    if isinstance(value, bool):
        return value
    text = unicodedata.normalize("NFKC", str(value if value is not None else "")).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise CardValueError("not_flag")
