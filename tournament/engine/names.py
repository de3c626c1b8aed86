"""Normalisation of team names, player names and school grades.

Pure Python (no Django), so it can be used by the Excel import, by forms and by
models alike.  Everything here is deterministic and side-effect free.

* :func:`normalize_text` — the general clean-up applied to every piece of text
  typed by a person or read from a spreadsheet (NFKC, whitespace, control
  characters).
* :func:`clean_display` / :func:`normalize_team_name` — the display form of a
  name: the spelling the organiser typed, trimmed, spaces collapsed (no NFKC).
* :func:`name_key` — the one comparison key of names (team names, divisions,
  clubs), used by forms, the import and the database constraint
  ``Team.name_key`` alike: NFKC, spaces removed, case folded, the dash and
  tilde families unified (issue 18, item 7), variation selectors and other invisible marks
  ignored (issue 28, item 8); :func:`differ_only_invisibly` says when two spellings are one
  name only because of such a mark, so the organiser is told.
* :func:`grade_band` / :func:`grade_in_band` — a division's grade band
  (``"小1〜小3"``) and whether a grade lies in it.
* The length limits shared by forms, import and database (``*_MAX``).
* :func:`normalize_grade` / :func:`grade_sort_key` — canonical school grades
  such as ``"小2"``, ``"中1"`` or ``"一般"``.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata

__all__ = [
    "AFFILIATION_MAX",
    "CHAPERONE_MAX",
    "DIVISION_NAME_MAX",
    "FURIGANA_MAX",
    "GRADE_CHOICES",
    "PLAYER_NAME_MAX",
    "TEAM_NAME_MAX",
    "INVISIBLE_MARKS",
    "clean_display",
    "differ_only_invisibly",
    "grade_band",
    "grade_in_band",
    "grade_sort_key",
    "has_invisible_marks",
    "name_key",
    "normalize_grade",
    "normalize_team_name",
    "normalize_text",
    "strip_invisible",
]

#: Every canonical grade string, in display order (adults last).
GRADE_CHOICES: tuple[str, ...] = (
    *(f"小{n}" for n in range(1, 7)),
    *(f"中{n}" for n in range(1, 4)),
    *(f"高{n}" for n in range(1, 4)),
    "一般",
)

#: Length limits of the stored texts: the model fields, the forms and the import use these.
TEAM_NAME_MAX = 60
AFFILIATION_MAX = 60
CHAPERONE_MAX = 60
DIVISION_NAME_MAX = 60
PLAYER_NAME_MAX = 40
FURIGANA_MAX = 60

_WHITESPACE_RUN = re.compile(r"\s+")
#: Characters that stand for a tilde or wave dash (after NFKC): 〜 ～ ~ ∼ ⁓ 〰.
_TILDES = "\u301c\uff5e~\u223c\u2053\u3030"
#: Characters that stand for a hyphen or dash (after NFKC): ‐ ‑ ‒ – — ― − ﹣ － ⁃ and -.
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff0d\u2043-"
#: Marks a reader cannot see, ignored by :func:`name_key` (kept in the stored spelling): the
#: variation selectors (U+FE00–FE0F, and the ideographic ones U+E0100–E01EF: 葛󠄀 is 葛 with
#: U+E0100), the Mongolian ones (U+180B–180D, U+180F), the combining grapheme joiner (U+034F)
#: and the Hangul fillers. Zero-width space, joiners, word joiner, BOM, soft hyphen and the
#: other format characters (category ``Cf``) are already removed by :func:`normalize_text`.
INVISIBLE_MARKS: frozenset[str] = frozenset(
    [chr(c) for c in range(0xFE00, 0xFE10)]
    + [chr(c) for c in range(0xE0100, 0xE01F0)]
    + ["\u180b", "\u180c", "\u180d", "\u180f", "\u034f", "\u115f", "\u1160", "\u3164", "\uffa0"]
)
_KEY_TABLE = str.maketrans(
    {**{c: "~" for c in _TILDES}, **{c: "-" for c in _DASHES}, **{c: None for c in INVISIBLE_MARKS}}
)
#: The long-vowel mark ー (or ｰ) between two ASCII letters or digits stands for a dash.
_LONG_VOWEL_AS_DASH = re.compile(r"(?<=[0-9A-Za-z])[\u30fc\uff70]+(?=[0-9A-Za-z])")


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
    return clean_display(unicodedata.normalize("NFKC", s if isinstance(s, str) else str(s)))


def clean_display(s) -> str:
    """Return *s* as the organiser typed it, tidied for display and storage.

    ``None`` becomes ``""``; control and invisible format characters (``Cc``, ``Cf``) are
    removed; any whitespace (U+3000 ideographic space, tabs and line breaks included) counts
    as a space; runs of spaces collapse to one and the ends are stripped. No NFKC: ``～``,
    ``（）`` and full-width letters keep their spelling (issue 18, item 7: the display keeps
    the spelling the organiser typed; comparisons go through :func:`name_key`).

    >>> clean_display("\\u3000みなと子ども会Ａ～（東）\\u3000")
    'みなと子ども会Ａ～（東）'
    """
    if s is None:
        return ""
    if not isinstance(s, str):
        s = str(s)
    chars = []
    for ch in s:
        if ch.isspace():
            chars.append(" ")
        elif unicodedata.category(ch) not in ("Cc", "Cf"):
            chars.append(ch)
    return _WHITESPACE_RUN.sub(" ", "".join(chars)).strip()


def normalize_team_name(s) -> str:
    """Return the display form of a team name: :func:`clean_display` (no NFKC).

    >>> normalize_team_name("みなと子ども会Ａ\\u3000")
    'みなと子ども会Ａ'
    """
    return clean_display(s)


def name_key(s) -> str:
    """Return the comparison key of a name: two names with one key are the same name.

    Used by the team form, the entry import and the database constraint
    (``Team.name_key``, unique in a division) alike. Steps: :func:`normalize_text` (NFKC,
    whitespace incl. U+3000, control characters), case folding, every space removed, the
    tilde family (〜 ～ ~ ∼ ⁓ 〰) becomes ``~``, the dash family (‐ ‑ ‒ – — ― − ﹣ － -)
    becomes ``-``, and the long-vowel mark ー between two Latin letters or digits (``Aー1``)
    becomes ``-`` (issue 18, item 7). Invisible marks are ignored: the variation selectors
    and the other :data:`INVISIBLE_MARKS`, and (through :func:`normalize_text`) zero-width
    spaces and joiners, the word joiner, the BOM and the soft hyphen (issue 28, item 8:
    ``葛󠄀`` and ``葛`` are one name; the spelling stored keeps the selector).
    Hiragana and katakana are *not* folded together, and ー inside katakana (``カード``) stays.

    >>> name_key("ひたち〜Ａ－１") == name_key("ひたち～a‐1") == name_key("ひたち ~ Aー1")
    True
    >>> name_key("\u845b\U000e0100飾") == name_key("葛飾")
    True
    """
    key = normalize_text(s).translate(_INVISIBLE_TABLE).casefold().replace(" ", "")
    key = _LONG_VOWEL_AS_DASH.sub("-", key)
    return key.translate(_KEY_TABLE)


_INVISIBLE_TABLE = str.maketrans({c: None for c in INVISIBLE_MARKS})


def has_invisible_marks(s) -> bool:
    """True when ``s`` holds a character :func:`name_key` ignores though a person may not see
    it: one of :data:`INVISIBLE_MARKS` or a format character (``Cf``: zero-width space, joiners,
    word joiner, BOM, soft hyphen …)."""
    text = "" if s is None else str(s)
    return any(ch in INVISIBLE_MARKS or unicodedata.category(ch) == "Cf" for ch in text)


def strip_invisible(s) -> str:
    """``s`` without the marks :func:`has_invisible_marks` looks for (display text unchanged
    otherwise)."""
    text = "" if s is None else str(s)
    return "".join(ch for ch in text if ch not in INVISIBLE_MARKS and unicodedata.category(ch) != "Cf")


def differ_only_invisibly(a, b) -> bool:
    """True when the names ``a`` and ``b`` are spelt differently, have one :func:`name_key`,
    and one of them holds an invisible mark (``葛󠄀`` / ``葛``): a person would take them for two
    names, the key takes them for one, so the organiser is told why (issue 28, item 8)."""
    a, b = "" if a is None else str(a), "" if b is None else str(b)
    return a != b and name_key(a) == name_key(b) and (has_invisible_marks(a) or has_invisible_marks(b))


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


_BAND_GRADE = re.compile(
    r"一般|(?P<level>小学校|小学|小|中学校|中学|中|高等学校|高校|高)?(?P<num>[1-6一二三四五六])(?:年生|年)?"
)


def grade_band(band) -> tuple[str, str] | None:
    """The (lowest, highest) canonical grades of a division's grade band, or None.

    *band* is the division's free text (``Division.grade_band``): ``"小1〜小3"``,
    ``"小学4年～6年"`` (a bare year takes the level written before it), ``"中1〜中3"``,
    ``"小3"`` (one grade) and ``"小5〜一般"`` are understood. The first and the last grade
    written are the band's ends. Returns None for an empty band or one without a
    recognisable grade: then every grade is accepted (issue 18, item 6: a grade outside the
    band is a warning the organiser may accept, never a refusal).

    >>> grade_band("小1〜小3")
    ('小1', '小3')
    """
    found = []
    level = ""
    for match in _BAND_GRADE.finditer(normalize_text(band).replace(" ", "")):
        if match.group(0) == "一般":
            found.append("一般")
            continue
        level = _LEVEL_PREFIXES[match.group("level")] if match.group("level") else level
        if level:
            with contextlib.suppress(ValueError):
                found.append(normalize_grade(level + match.group("num")))
    if not found:
        return None
    ends = sorted((found[0], found[-1]), key=grade_sort_key)
    return ends[0], ends[1]


def grade_in_band(grade: str, band) -> bool:
    """True when the canonical *grade* lies in the division's *band* (:func:`grade_band`),
    or when either is empty or the band is not understood (nothing to check)."""
    ends = grade_band(band)
    if not grade or ends is None:
        return True
    key = grade_sort_key(grade)
    return grade_sort_key(ends[0]) <= key <= grade_sort_key(ends[1])


# Hiragana, katakana, the prolonged sound mark and spaces: what furigana may hold.
FURIGANA_RE = re.compile(r"^[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fb-\u30fe ]+$")


def is_kana(text: str) -> bool:
    """True when ``text`` (already normalised) is written in hiragana or katakana only."""
    return bool(FURIGANA_RE.match(text))
