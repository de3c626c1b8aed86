"""Numbers written in 漢数字 for vertical certificates (issue 33, item 1).

Pure: the standard library only. A 賞状 is written vertically, where the convention is
漢数字 (第三位, 第二十一回, 令和九年一月十七日) rather than Arabic digits; the awards desk
applies these to the place, the edition and the date when the settings' 漢数字 option is on
(``docs/rules/certificates.md``, "Numbers").
"""

from __future__ import annotations

import re

DIGITS = "〇一二三四五六七八九"
SMALL = ((1000, "千"), (100, "百"), (10, "十"))
LARGE = ((10**12, "兆"), (10**8, "億"), (10**4, "万"))
_RUN = re.compile(r"[0-9０-９]+")


def _below_10000(n: int) -> str:
    """1–9999 in 漢数字, 一 dropped before 十, 百 and 千 (1110 → 千百十)."""
    out = []
    for unit, mark in SMALL:
        q, n = divmod(n, unit)
        if q:
            out.append(("" if q == 1 else DIGITS[q]) + mark)
    if n:
        out.append(DIGITS[n])
    return "".join(out)


def kanji_number(n: int) -> str:
    """``n`` (an int, 0 ≤ n < 10**16) as a Japanese number in 漢数字: 0 → 「〇」, 10 → 「十」,
    11 → 「十一」, 21 → 「二十一」, 100 → 「百」, 2026 → 「二千二十六」, 10000 → 「一万」
    (一 kept before 万, 億, 兆; dropped before 十, 百, 千). Raises ValueError for a negative
    number, a number of 10**16 or more, or a bool."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise ValueError(f"not a whole number: {n!r}")
    if n < 0 or n >= 10**16:
        raise ValueError(f"out of range: {n}")
    if n == 0:
        return DIGITS[0]
    out = []
    for unit, mark in LARGE:
        q, n = divmod(n, unit)
        if q:
            out.append(_below_10000(q) + mark if q > 1 else "一" + mark)
    if n:
        out.append(_below_10000(n))
    return "".join(out)


def kanji_numerals(text: str) -> str:
    """``text`` with every run of digits (ASCII or full-width) written as a number in 漢数字:
    「第3位」 → 「第三位」, 「令和9年1月17日」 → 「令和九年一月十七日」, 「令和元年5月1日」 →
    「令和元年五月一日」 (元 is not a digit and stays). A run that is too long for
    :func:`kanji_number` (16 digits or more) is left as typed. Never raises."""

    def one(match: re.Match) -> str:
        value = int(match.group(0).translate(_FULL_WIDTH))
        try:
            return kanji_number(value)
        except ValueError:
            return match.group(0)

    return _RUN.sub(one, text)


_FULL_WIDTH = str.maketrans("０１２３４５６７８９", "0123456789")
