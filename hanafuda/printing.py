"""Checks before a hanafuda paper is printed: which typed names print with a substitute mark.

Since issue 18 every paper prints whatever the names: a character the main PDF font lacks is
drawn from an installed fallback font, and one that no installed font has prints as 〓
(``common.pdf.fallback``; docs/rules/paper.md, "Paper always prints"). ``paper_warnings`` names
those last characters so the scorer can read, on the screen, which names will show 〓.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from common.pdf.coverage import font_warnings
from hanafuda.models import Session
from hanafuda.services import SessionState, unit_label


def paper_warnings(texts: Mapping[str, object]) -> list[str]:
    """The warnings, in the active language, for the texts of a paper (what -> text, as
    ``paper_texts`` or ``title_text`` give them) that have characters no installed font can
    print: each names the text, the character and its code, and the mark printed instead.
    ``[]`` when everything prints. Never raises."""
    return [warning.message for warning in font_warnings(texts.items())]


def title_text(title: str) -> dict[str, object]:
    """The title as ``check_printable`` names it, in the active language."""
    return {_("the title"): title}


def paper_texts(session: Session, state: SessionState | None = None) -> dict[str, object]:
    """The texts typed by the players that the score sheet prints (title, sides, players),
    each named in the active language: "the title", "the name “…”"."""
    texts = title_text(session.title)
    names = [*session.sides, *(p for team in session.team_members for p in team)]
    if state is not None:
        names += [unit_label(session, u) for u in state.units]
    texts.update({_("the name “%(name)s”") % {"name": name}: name for name in names})
    return texts
