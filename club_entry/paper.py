"""The clubs' entry links on paper: one card per club with its QR code (A4 portrait, 2 × 4
cards a page), to hand over or send to each club's contact.

Input: the event's title and the :class:`LinkCard` list; output: PDF bytes. The QR code is
``common.pdf.qr`` (level M, the URL in ASCII: ``docs/rules/paper.md``). Of Django only
translation: the labels are in the active language.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import MARGIN, PORTRAIT, open_canvas
from common.pdf.pen import LINE, MUTED, RENDER_LOCK, Pen
from common.pdf.qr import draw_qr, qr_modules
from common.pdf.text import checked

__all__ = ["LinkCard", "club_links_pdf"]

COLUMNS, ROWS = 2, 4
QR_SIDE = 38 * mm


@dataclass(frozen=True)
class LinkCard:
    """A club's card: the club (affiliation), its contact (name, e-mail or phone) and the link."""

    club: str
    contact_name: str
    contact: str
    url: str


def club_links_pdf(title: str, cards: list[LinkCard]) -> bytes:
    """The cards of ``cards`` under the event's ``title``, 8 a page (an empty list: one page
    saying there is no active link). Each card: the club's name, its contact, the QR code of
    its link and the link printed in full. Returns the PDF bytes."""
    font = japanese_font()
    width, height = PORTRAIT
    card_w = (width - 2 * MARGIN) / COLUMNS
    card_h = (height - 2 * MARGIN - 10 * mm) / ROWS
    buf = BytesIO()
    with RENDER_LOCK:
        c = open_canvas(buf, PORTRAIT, font, title=title, subject=_("Club entry links"), keywords=[_("entry")])
        pen = Pen(c, font)
        pages = [cards[i : i + COLUMNS * ROWS] for i in range(0, len(cards), COLUMNS * ROWS)] or [[]]
        for number, page in enumerate(pages, 1):
            pen.text(MARGIN, height - MARGIN - 5 * mm, checked(title, "title"), 12, bold=True)
            pen.text(
                width - MARGIN,
                height - MARGIN - 5 * mm,
                _("Club entry links") + f"  {number} / {len(pages)}",
                9,
                align="right",
                color=MUTED,
            )
            if not page:
                pen.text(MARGIN, height - MARGIN - 20 * mm, _("No active entry link."), 11)
            for i, card in enumerate(page):
                x = MARGIN + (i % COLUMNS) * card_w
                y = height - MARGIN - 10 * mm - (i // COLUMNS + 1) * card_h
                _card(pen, card, x, y, card_w, card_h)
            c.showPage()
        c.save()
    return buf.getvalue()


def _card(pen: Pen, card: LinkCard, x: float, y: float, w: float, h: float) -> None:
    """One club's card in the box (x, y, w, h): name, contact, QR code, the URL in full."""
    pad = 3 * mm
    pen.rect(x + 1 * mm, y + 1 * mm, w - 2 * mm, h - 2 * mm, stroke=LINE, dash=(2, 2))
    top = y + h - pad - 1 * mm
    pen.fitted(
        x + pad,
        top - 9 * mm,
        w - 2 * pad,
        9 * mm,
        checked(card.club, "club"),
        max_size=13,
        min_size=7,
        align="left",
        bold=True,
        max_lines=1,
    )
    contact = " ".join(part for part in (card.contact_name, card.contact) if part)
    if contact:
        pen.text(x + pad + 1.2 * mm, top - 13 * mm, checked(contact, "contact"), 8, color=MUTED)
    draw_qr(pen, qr_modules(card.url), x + pad, y + pad + 7 * mm, QR_SIDE)
    note_x = x + pad + QR_SIDE + 3 * mm
    pen.fitted(
        note_x,
        y + pad + 7 * mm,
        x + w - pad - note_x,
        QR_SIDE,
        _("Scan to enter your club's teams. The link is your club's password: keep it within the club."),
        max_size=8.5,
        min_size=6,
        align="left",
        max_lines=5,
    )
    pen.fitted(x + pad, y + pad, w - 2 * pad, 6 * mm, card.url, max_size=7.5, min_size=5, align="left", max_lines=2)
