"""Normalisation of team names, player names and school grades.

Pure Python (no Django), so it can be used by the Excel import, by forms and by
models alike.  Everything here is deterministic and side-effect free.

* :func:`normalize_text` — the general clean-up applied to every piece of text
  typed by a person or read from a spreadsheet (NFKC, whitespace, control
  characters).
* :func:`normalize_team_name` / :func:`name_key` — display form and uniqueness
  key of a team name.
* :func:`normalize_grade` / :func:`grade_sort_key` — canonical school grades
  such as ``"小2"``, ``"中1"`` or ``"一般"``.
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "GRADE_CHOICES",
    "grade_sort_key",
    "name_key",
    "normalize_grade",
    "normalize_team_name",
    "normalize_text",
]

#: Every canonical grade string, in display order (adults last).
GRADE_CHOICES: tuple[str, ...] = (
    *(f"小{n}" for n in range(1, 7)),
    *(f"中{n}" for n in range(1, 4)),
    *(f"高{n}" for n in range(1, 4)),
    "一般",
)

_WHITESPACE_RUN = re.compile(r"\s+")


def normalize_text(s) -> str:
    """Return *s* cleaned up for storage and comparison.

    Steps, in order:

    1. ``None`` becomes ``""``; any other non-string is converted with ``str()``.
    2. Unicode NFKC normalisation (full-width ``Ａ１`` → ``A1``, half-width
       katakana → full-width, U+3000 ideographic space → ASCII space, ...).
    3. Control and invisible format characters (Unicode categories ``Cc`` and
       ``Cf``, e.g. ``\\x0b`` or a zero-width space) are removed; tabs and line
       breaks count as whitespace instead.
    4. Runs of whitespace collapse to a single ASCII space and the ends are
       stripped.

    >>> normalize_text("\\u3000みなと子ども会Ａ\\u3000\\u3000")
    'みなと子ども会A'
    """
    if s is None:
        return ""
    if not isinstance(s, str):
        s = str(s)
    s = unicodedata.normalize("NFKC", s)
    chars = []
    for ch in s:
        if ch.isspace():
            chars.append(" ")
        elif unicodedata.category(ch) in ("Cc", "Cf"):
            continue
        else:
            chars.append(ch)
    return _WHITESPACE_RUN.sub(" ", "".join(chars)).strip()


def normalize_team_name(s) -> str:
    """Return the display form of a team name (same rules as :func:`normalize_text`).

    >>> normalize_team_name("みなと子ども会Ａ\\u3000")
    'みなと子ども会A'
    """
    return normalize_text(s)


def name_key(s) -> str:
    """Return the uniqueness key of a team name.

    The key is the normalised name, case-folded, with every space removed, so
    ``"みなと子ども会Ａ"``, ``"みなと子ども会 a"`` and ``"みなと子ども会A\\u3000"`` share
    one key.  Two teams of the same division must not share a key.  Hiragana and
    katakana are *not* folded together.
    """
    return normalize_team_name(s).casefold().replace(" ", "")


# --------------------------------------------------------------------------
# Grades
# --------------------------------------------------------------------------

_LEVEL_NAMES = {"小": "elementary school", "中": "junior high school", "高": "high school"}
_LEVEL_MAX = {"小": 6, "中": 3, "高": 3}
_LEVEL_PREFIXES = {
    "小学校": "小",
    "小学生": "小",
    "小学": "小",
    "小": "小",
    "中学校": "中",
    "中学生": "中",
    "中学": "中",
    "中": "中",
    "高等学校": "高",
    "高校生": "高",
    "高校": "高",
    "高": "高",
}
_ADULT_WORDS = {"一般", "大人", "成人", "社会人", "adult"}
_KANJI_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
# Full-width digits ０-９ are fine (NFKC makes them ASCII); other characters that
# NFKC turns into digits (①, ⑴, ², ...) are not a way of writing a grade.
_FULLWIDTH_DIGITS = {chr(c) for c in range(0xFF10, 0xFF1A)}

_GRADE_RE = re.compile(
    r"^(?P<level>" + "|".join(sorted(_LEVEL_PREFIXES, key=len, reverse=True)) + r")?"
    r"(?P<num>[0-9]+|[一二三四五六七八九])"
    r"(?:年生|年)?$"
)


def _level_from_hint(division_hint: str) -> str:
    hint = normalize_text(division_hint)
    if "中学" in hint:
        return "中"
    if "高校" in hint or "高等学校" in hint:
        return "高"
    return "小"


def normalize_grade(s, division_hint: str = "") -> str:
    """Return the canonical grade for *s*.

    Canonical values are ``"小1"``..``"小6"``, ``"中1"``..``"中3"``,
    ``"高1"``..``"高3"``, ``"一般"`` (adult), or ``""`` when *s* is empty/None.

    Accepted input (after NFKC, spaces ignored): ``"2年"``, ``"２年"``,
    ``"小２"``, ``"小学2年"``, ``"小学校2年生"``, ``"中1"``, ``"中学1年"``,
    ``"中学校１年生"``, ``"高1"``, ``"高校2年"``, ``"3"``, ``3`` (int), ``3.0``
    (float, as Excel stores numbers), kanji digits such as ``"二年"``, and
    ``"一般"`` / ``"大人"`` / ``"成人"`` / ``"社会人"`` for adults.

    A bare year (``"2年"``, ``2``) takes its school level from *division_hint*:
    a hint containing ``中学`` means junior high, ``高校`` means high school,
    anything else elementary school.

    Raises :class:`ValueError` (English message) for anything else, e.g.
    ``"①"``, ``"２番"``, ``"小7"``, ``"中4"``, or ``"7年"`` in an elementary
    division.
    """
    if s is None:
        return ""
    if isinstance(s, bool):
        raise ValueError(f"Unrecognised grade: {s!r}.")
    if isinstance(s, float):
        if not s.is_integer():
            raise ValueError(f"Unrecognised grade: {s!r} (a whole number is expected).")
        s = int(s)
    if isinstance(s, int):
        raw = str(s)
    else:
        raw = str(s)
        for ch in raw:
            if ch.isascii() or ch in _FULLWIDTH_DIGITS:
                continue
            if any(c.isdigit() for c in unicodedata.normalize("NFKC", ch)):
                raise ValueError(
                    f"Unrecognised grade: {raw!r} (write the school year with ordinary digits, e.g. '2年')."
                )
    text = normalize_text(raw).replace(" ", "")
    if not text:
        return ""
    if text.casefold() in _ADULT_WORDS:
        return "一般"
    match = _GRADE_RE.match(text)
    if not match:
        raise ValueError(f"Unrecognised grade: {raw!r} (expected e.g. '小2', '2年', '中1' or '一般').")
    num_text = match.group("num")
    year = _KANJI_DIGITS[num_text] if num_text in _KANJI_DIGITS else int(num_text)
    prefix = match.group("level")
    level = _LEVEL_PREFIXES[prefix] if prefix else _level_from_hint(division_hint)
    if not 1 <= year <= _LEVEL_MAX[level]:
        raise ValueError(f"Grade {raw!r} is out of range: {_LEVEL_NAMES[level]} years are 1 to {_LEVEL_MAX[level]}.")
    return f"{level}{year}"


_LEVEL_RANK = {"小": 0, "中": 1, "高": 2}


def grade_sort_key(grade) -> tuple[int, int, str]:
    """Return a key that orders grades 小1 < … < 小6 < 中1 < … < 高3 < 一般 < "" (unknown).

    Non-canonical input is normalised first (bare years count as elementary);
    values that cannot be normalised sort last, alphabetically among themselves.
    """
    try:
        canonical = normalize_grade(grade)
    except ValueError:
        return (9, 0, normalize_text(grade))
    if canonical == "":
        return (4, 0, "")
    if canonical == "一般":
        return (3, 0, "")
    return (_LEVEL_RANK[canonical[0]], int(canonical[1:]), "")


# Hiragana, katakana, the prolonged sound mark and spaces: what furigana may hold.
FURIGANA_RE = re.compile(r"^[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fb-\u30fe ]+$")


def is_kana(text: str) -> bool:
    """True when ``text`` (already normalised) is written in hiragana or katakana only."""
    return bool(FURIGANA_RE.match(text))
