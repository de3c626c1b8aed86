"""What every tournament paper shares: the event in the header and the 「未定」 team."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from common.dates import format_date
from common.pdf.layout import Document, Masthead
from common.pdf.text import checked, edition_title

__all__ = [
    "EventInfo",
    "event_document",
    "game_label",
    "in_japanese",
    "kept_mark",
    "prepare_event",
    "side_text",
    "team_text",
    "to_confirm",
    "undecided",
]


def undecided() -> str:
    """Printed for a team that is not known yet (a knockout slot, a game still to be drawn):
    「未定」, in the active language."""
    return _("undecided")


def kept_mark() -> str:
    """Printed by a game whose played result the organiser kept after a change of its places
    (docs/rules/stages.md, "Out of date: keep or replay"): 「保留」, in the active language."""
    return pgettext("bracket paper", "kept")


def to_confirm() -> str:
    """Printed by a game a later change left out of date, and beside a place it gave
    (docs/rules/stages.md): 「要確認」, in the active language."""
    return _("to confirm")


def game_label(number: object) -> str:
    """「第12試合」 / "Game 12" in the active language."""
    return _("Game %(number)s") % {"number": number}


def in_japanese() -> bool:
    """Whether the paper is printed in Japanese (the language of the session that asked
    for it, README "Languages")."""
    return (get_language() or "ja").startswith("ja")


@dataclass(frozen=True)
class EventInfo:
    """The event printed in every header and footer.

    ``name`` e.g. 「ひたち郷土かるた大会」; ``edition`` 12 prints 「第12回 ひたち郷土かるた大会」
    (not doubled when the name already starts with it); ``date`` prints
    「2025年5月3日(土)」; ``venue`` e.g. 「多賀市民プラザ」 ("" = not printed).
    """

    name: str
    edition: int | None
    date: datetime.date | None
    venue: str
    japanese_era: bool = False  # the date as 「令和9年…」 (the event's 和暦 setting)


def team_text(value: str | None, what: str) -> tuple[str, bool]:
    """A team name checked for the font, or 「未定」 for ``None`` / blank.

    Returns ``(text, is_undecided)``; a character the font lacks still prints (from a
    fallback font or as 〓, ``common.pdf.fallback``).
    """
    text = checked(value, what)
    return (text, False) if text else (undecided(), True)


def side_text(team: str | None, slot: str, what: str) -> tuple[str, bool]:
    """A side of a game: its team's name, else its slot's words (「Aリーグ 1位」,
    「第12試合の勝者」), else 「未定」. Returns ``(text, is_undecided)`` (the slot's words and
    「未定」 are printed in grey); raises ``ValueError`` naming ``what`` for a character the
    font lacks."""
    text, undecided = team_text(team, what)
    if undecided and slot:
        return checked(slot, f"{what}.slot") or text, True
    return text, undecided


def prepare_event(event: EventInfo) -> Masthead:
    """The header line of ``event``: title with its edition (「第12回」 / "No. 12"), date and
    venue, in the active language.  Raises nothing for characters the font lacks (they
    print as 〓)."""
    prefix = None if in_japanese() else _("No. %(edition)s") % {"edition": event.edition}
    title = checked(edition_title(event.name, event.edition, prefix), "event.name")
    venue = checked(event.venue, "event.venue")
    return Masthead(
        title=title,
        date=format_date(event.date, event.japanese_era, english=not in_japanese()),
        venue=venue,
        venue_label=pgettext("paper header", "Venue"),
    )


def event_document(masthead: Masthead, kind: str, keywords: list[str] | None = None, footer: str = "") -> Document:
    """The PDF metadata and footer of a tournament paper of ``kind`` (e.g. 「対戦表」) for the
    event of ``masthead``: title 「<kind> <event>」, the event as subject and footer left,
    ``footer`` (default ``kind``) in the footer's middle, ``keywords`` (default ``[kind]``)."""
    return Document(
        title=f"{kind} {masthead.title}",
        subject=masthead.title,
        keywords=keywords or [kind],
        footer_left=masthead.title,
        footer_mid=footer or kind,
    )
