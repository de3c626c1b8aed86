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

    Input: what -> text, e.g. {"title": session.title, "sides[0]": "Ann"}: the texts typed by
    the players that a paper prints. Run before building the PDF, so a name the font lacks is
    a message on the screen rather than a blank box on paper."""
    for what, text in texts.items():
        missing = [ch for ch in missing_glyphs(str(text or "")) if ch not in _CONTROL]
        if missing:
            ch = missing[0]
            raise NotPrintable(
                _(
                    "Character %(char)r (U+%(code)04X) in %(what)s is not in the PDF font; it would print as a blank box."
                )
                % {"char": ch, "code": ord(ch), "what": what}
            )


def paper_texts(session: Session, state: SessionState | None = None) -> dict[str, object]:
    """The texts typed by the players that the score sheet prints: title, sides, players."""
    texts: dict[str, object] = {"title": session.title}
    texts.update({f"sides[{i}]": name for i, name in enumerate(session.sides)})
    if state is not None:
        texts.update({f"players[{i}]": unit_label(session, u) for i, u in enumerate(state.units)})
    return texts
