"""The name check: which characters of a name no installed PDF font can print.

Used when a name is typed (``tournament.forms.TeamForm``), imported (the import preview)
and on the print page.  Such a character still prints, as the mark 〓
(:mod:`common.pdf.fallback`); the check only warns, naming the character and a standard
substitute where one exists (𠮷 → 吉), so the organiser can decide before print day.
Decision: ``docs/rules/paper.md`` "Paper always prints" (issue 18 item 9).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _

from common.pdf.fallback import SUBSTITUTE_MARK, unprintable_chars
from common.pdf.text import clean

#: Standard substitutes of characters outside the common fonts (異体字 → 通用字体).
#: Only offered when the character cannot be printed.
SUGGESTIONS: dict[str, str] = {
    "𠮷": "吉",  # つちよし
    "𡈽": "土",
    "﨑": "崎",  # たつさき
    "髙": "高",  # はしごだか
    "𣘺": "橋",
    "槗": "橋",
    "德": "徳",
    "瀨": "瀬",
    "濵": "浜",
    "\ufa10": "塚",  # compatibility ideograph
    "𦚰": "脇",
    "𥔎": "碕",
    "𩵋": "魚",
    "𠀋": "丈",
}


@dataclass(frozen=True)
class Unprintable:
    """A character no installed font draws: ``char``, its code point (``U+20BB7``) and a
    standard substitute (``""`` when there is none)."""

    char: str
    codepoint: str
    suggestion: str


@dataclass(frozen=True)
class FontWarning:
    """A name (``text``) in the field ``label`` that prints with 〓 for ``chars``."""

    label: str
    text: str
    chars: tuple[Unprintable, ...]

    @property
    def message(self) -> str:
        """The warning in the current language, e.g. 「チーム名「𠮷田会」: 𠮷 (U+20BB7) は…」."""
        chars = "、".join(f"{u.char} ({u.codepoint})" for u in self.chars)
        text = _("%(field)s “%(name)s”: %(chars)s is in no installed font and prints as %(mark)s.") % {
            "field": self.label,
            "name": self.text,
            "chars": chars,
            "mark": SUBSTITUTE_MARK,
        }
        suggested = [f"{u.char} → {u.suggestion}" for u in self.chars if u.suggestion]
        if suggested:
            text += " " + _("Standard form: %(pairs)s.") % {"pairs": "、".join(suggested)}
        return text

    def __str__(self) -> str:
        return self.message


def unprintable(text: object) -> list[Unprintable]:
    """Characters of ``text`` (cleaned as for printing) that no installed font can print,
    in order and without repeats, each with its standard substitute if the table has one.
    Variation selectors are never listed (the base character prints).  Never raises."""
    return [Unprintable(ch, f"U+{ord(ch):04X}", SUGGESTIONS.get(ch, "")) for ch in unprintable_chars(clean(text))]


def unprintable_notes(texts: Iterable[object]) -> list[str]:
    """One sentence per character of ``texts`` (in order, no repeats) that no installed font
    can print, in the current language: 「𠮷 (U+20BB7) は印刷できません: 〓 になります」 (the
    awards desk and the MC's list name them before printing, issue 19). Empty when every
    character prints. Never raises (``docs/rules/paper.md``, "Paper always prints")."""
    found: list[Unprintable] = []
    for text in texts:
        for u in unprintable(text):
            if u not in found:
                found.append(u)
    return [
        _("%(char)s (%(code)s) cannot be printed: it prints as %(mark)s")
        % {"char": u.char, "code": u.codepoint, "mark": SUBSTITUTE_MARK}
        for u in found
    ]


def font_warnings(named: Iterable[tuple[str, object]]) -> list[FontWarning]:
    """One :class:`FontWarning` per ``(label, text)`` pair whose text has characters no
    installed font can print; a text met twice is reported once.  Empty texts are skipped."""
    warnings: list[FontWarning] = []
    seen: set[str] = set()
    for label, value in named:
        text = clean(value)
        if not text or text in seen:
            continue
        seen.add(text)
        chars = unprintable(text)
        if chars:
            warnings.append(FontWarning(str(label), text, tuple(chars)))
    return warnings


def entry_font_warnings(teams: Iterable) -> list[FontWarning]:
    """Warnings for parsed entries (the import preview): each team has ``row``, ``name``,
    ``affiliation`` and ``players`` with ``name`` and ``furigana``; labels name the row."""
    named: list[tuple[str, object]] = []
    for t in teams:
        row = _("row %(row)s") % {"row": t.row}
        named += [(f"{row} {_('team name')}", t.name), (f"{row} {_('affiliation')}", t.affiliation)]
        for p in t.players:
            named += [(f"{row} {_('player')}", p.name), (f"{row} {_('furigana')}", p.furigana)]
    return font_warnings(named)
