"""Checks before a hanafuda paper is printed: every name and title must be drawable.

The PDF font lacks some characters (emoji, rare kanji); a name typed with one would print
as a blank box. ``check_printable`` refuses it with ``NotPrintable`` (a ``UserError``) before
the PDF is built, so the scorer reads why on the screen.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _

from common.errors import UserError
from common.pdf.fonts import missing_glyphs
from hanafuda.models import Session
from hanafuda.services import SessionState, unit_label


class NotPrintable(UserError):
    """A name or title the PDF font cannot draw (it would print as a blank box)."""


# Control characters print as a space (the PDF toolkit replaces them), so they are never missing.
_CONTROL = frozenset(chr(c) for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029])


def check_printable(texts: Mapping[str, object]) -> None:
    """``NotPrintable`` naming the first character the PDF font cannot draw.

    Input: what -> text, ``what`` in words of the page's language (``paper_texts``), e.g.
    {"the title": session.title}: the texts typed by the players that a paper prints. Run
    before building the PDF, so a name the font lacks is a message on the screen, in the
    page's language, rather than a blank box on paper."""
    for what, text in texts.items():
        missing = [ch for ch in missing_glyphs(str(text or "")) if ch not in _CONTROL]
        if missing:
            ch = missing[0]
            raise NotPrintable(
                _(
                    "The character “%(char)s” (U+%(code)04X) in %(what)s is not in the font of the paper: it "
                    "would print as a blank box. Change it and print again."
                )
                % {"char": ch, "code": ord(ch), "what": what}
            )


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
