"""School grades as a page shows them: 「小1」… in Japanese, "Grade 1"… in English (issue 27:
English pages said 小1). The stored value stays the Japanese code (``tournament.engine.names``:
小1–小6, 中1–中3, 高1–高3, 一般); anything else is shown as typed."""

from __future__ import annotations

import re

from django.utils.functional import lazy
from django.utils.translation import get_language, gettext

__all__ = ["grade_band_label", "grade_label", "grade_label_lazy"]

_CODE = re.compile(r"^(小|中|高)([1-6])$")
_BEFORE = {"小": 0, "中": 6, "高": 9}  # school years before the first of each school


def grade_label(code: str) -> str:
    """``code`` (「小3」) in the active language: itself in Japanese; "Grade 3" in English
    (中1 is Grade 7, 高1 Grade 10: the school years counted from 小1), 一般 "Adult"; "" for "";
    a text that is no grade code as typed."""
    text = str(code or "")
    if (get_language() or "ja").startswith("ja"):
        return text
    found = _CODE.match(text)
    if found:
        return gettext("Grade %(n)s") % {"n": _BEFORE[found.group(1)] + int(found.group(2))}
    if text == "一般":
        return gettext("Adult")
    return text


grade_label_lazy = lazy(grade_label, str)

_IN_TEXT = re.compile(r"(小|中|高)([1-6])")


def grade_band_label(text: str) -> str:
    """A division's band of grades as typed (「小1〜小3」) in the active language: as typed in
    Japanese; each grade code in it as "Grade N" and 〜 / ～ as "–" in English ("Grade 1–Grade 3");
    the rest of the text as typed."""
    text = str(text or "")
    if (get_language() or "ja").startswith("ja"):
        return text
    text = _IN_TEXT.sub(lambda m: grade_label(m.group(0)), text)
    return re.sub(r"\s*[〜～]\s*", "–", text.replace("一般", gettext("Adult")))
