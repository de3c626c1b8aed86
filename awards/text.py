"""The words of a certificate: the body template filled in and the date in 和暦.

Plain Python (no database): the settings form checks a template with ``body_problem``, the read
side (``awards.reports``) fills it with ``fill_body``. Rules: ``docs/rules/awards.md``.
"""

from __future__ import annotations

import datetime
import string

from common.dates import japanese_year

PLACEHOLDERS = ("edition", "event", "division", "place")


def era_date(day: datetime.date) -> str:
    """A certificate's date in 和暦 without the weekday: 2027-01-17 → 「令和9年1月17日」
    (the first year of an era is 元年: ``common.dates.japanese_year``)."""
    return f"{japanese_year(day)}{day.month}月{day.day}日"


def body_problem(template: str) -> str | None:
    """Why ``template`` cannot be filled in ("{evnt}" is unknown, a lone brace …), or None.

    In: the body text as typed. Out: the first unknown placeholder's name, "brace" for a brace
    without its pair, "empty" for ``{}``, for the form to put in words; None when it fills in.
    A brace itself is written doubled: ``{{`` and ``}}`` print ``{`` and ``}``.
    """
    try:
        fields = [name for _lit, name, _spec, _conv in string.Formatter().parse(template) if name is not None]
    except ValueError:
        return "brace"
    for name in fields:
        if name not in PLACEHOLDERS:
            return name or "empty"
    return None


def fill_body(template: str, event, division: str, place: str) -> str:
    """The body text of one certificate: ``template`` with {edition}, {event}, {division} and
    {place} filled in. An event without an edition drops 「第{edition}回」 (no 「第回」). A
    template that does not fill in (never saved: the form refuses it) is returned as typed."""
    if not event.edition:
        template = template.replace("第{edition}回", "")
    values = {"edition": event.edition or "", "event": event.name, "division": division, "place": place}
    if body_problem(template) is not None:
        return template
    return template.format(**values)
