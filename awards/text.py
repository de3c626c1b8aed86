"""The words of a certificate: the body template filled in, the date in 和暦, and the two
records the drawing takes (``CertificateText``, ``PaperLayout``).

Plain Python (no database): the settings form checks a template with ``body_problem``, the read
side (``awards.reports``) fills it with ``fill_body`` and hands ``CertificateText`` and
``PaperLayout`` to the drawing (``awards.paper.certificates``), which the read side never
imports (docs/architecture.md, "Layers"). Rules: ``docs/rules/awards.md``.
"""

from __future__ import annotations

import datetime
import string
from dataclasses import dataclass, field

from awards.engine.numerals import kanji_number, kanji_numerals
from common.dates import japanese_year

PLACEHOLDERS = ("edition", "event", "division", "place")


@dataclass(frozen=True)
class CertificateText:
    """The filled-in text of one certificate, ready to typeset.

    title: 「賞状」. place: 「優勝」「準優勝」「第3位」「敢闘賞」…. division: 「小学生高学年の部」.
    recipient: the team's name (one per team) or the member's name (one per member).
    honorific: 「殿」「様」 or "". team: the team's name when the recipient is a member, else "".
    body: the body text with the event's name and edition filled in. date_text: 「令和9年1月17日」.
    issuers: (title, name) pairs, e.g. (「ひたち郷土かるた大会実行委員会 会長」, 「日立 太郎」).
    """

    title: str
    place: str
    division: str
    recipient: str
    honorific: str
    body: str
    date_text: str
    issuers: tuple[tuple[str, str], ...] = ()
    team: str = ""


@dataclass(frozen=True)
class PaperLayout:
    """The certificate paper and where the printer puts the text on it (millimetres).

    size: "A4" or "B5" (JIS B5, 182 × 257 mm). orientation: "portrait" or "landscape".
    margins: the printed frame's inside edge from the paper's edge (top, right, bottom, left).
    offset: moves everything right (x) and down (y) to correct a printer's feed, may be negative.
    draw_frame: draw a simple frame (plain paper, or a preview on a drawn frame).
    """

    size: str = "A4"
    orientation: str = "portrait"
    margin_top_mm: float = 30.0
    margin_right_mm: float = 25.0
    margin_bottom_mm: float = 30.0
    margin_left_mm: float = 25.0
    offset_x_mm: float = 0.0
    offset_y_mm: float = 0.0
    draw_frame: bool = False
    extra: dict = field(default_factory=dict)


def era_date(day: datetime.date, kanji: bool = False) -> str:
    """A certificate's date in 和暦 without the weekday: 2027-01-17 → 「令和9年1月17日」, or
    with ``kanji`` (the settings' 漢数字 option) 「令和九年一月十七日」 (the first year of an
    era is 元年 either way: ``common.dates.japanese_year``)."""
    text = f"{japanese_year(day)}{day.month}月{day.day}日"
    return kanji_numerals(text) if kanji else text


def _pieces(template: str) -> list[tuple[str, str | None, str, str | None]]:
    """The template cut into (literal, field as written, format spec, conversion); ValueError
    for a lone brace."""
    return list(string.Formatter().parse(template))


def _as_typed(name: str, spec: str, conversion: str | None) -> str:
    return name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")


def body_problem(template: str) -> str | None:
    """Why ``template`` cannot be filled in, or None.

    In: the body text as typed. Out: "brace" for a brace without its pair; else the first
    placeholder that is not exactly one of {edition}, {event}, {division}, {place}, as typed
    between its braces ("evnt", "event:d", "edition!r", "event.x", "place[0]"), or "empty"
    for ``{}``, for the form to name in its message; None when it fills in. A brace itself
    is written doubled: ``{{`` and ``}}`` print ``{`` and ``}``. Format specs, conversions,
    attribute and index access are refused (docs/rules/awards.md, "Settings the form
    refuses"): they either fail when filled in or print an event's numbers in ways no
    certificate should show ("{edition:%}" → "300.000000%").
    """
    try:
        pieces = _pieces(template)
    except ValueError:
        return "brace"
    for _lit, name, spec, conversion in pieces:
        if name is None:
            continue
        if name not in PLACEHOLDERS or spec or conversion:
            return _as_typed(name, spec, conversion) or "empty"
    return None


def fill_body(template: str, event, division: str, place: str, kanji: bool = False) -> str:
    """The body text of one certificate: ``template`` with {edition}, {event}, {division} and
    {place} filled in; with ``kanji`` the edition in 漢数字 (21 → 「二十一」, so 「第二十一回」;
    the event's and division's names stay as typed). An event without an edition drops
    「第{edition}回」 (no 「第回」). A
    template that does not fill in (never saved: the form refuses it; one saved before the
    form refused it) is returned as typed. Never raises: the placeholders are put in by hand,
    never with ``str.format``."""
    if not event.edition:
        template = template.replace("第{edition}回", "")
    edition = (kanji_number(event.edition) if kanji else event.edition) if event.edition else ""
    values = {"edition": edition, "event": event.name, "division": division, "place": place}
    if body_problem(template) is not None:
        return template
    return "".join(literal + ("" if name is None else str(values[name])) for literal, name, _s, _c in _pieces(template))
