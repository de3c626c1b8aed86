"""試合の準備: how the referee sets up a game, on the rules page and on one A4 page.

The referee's notice ① and the sheet's "Preparation" (``docs/rules/hitachi-karuta.md``,
"Preparation" and "Notice for a referee"): shuffle the 56 cards, two piles of 28 face down
in the centre; the teams sit on either side, the leaders in the middle; じゃんけん, the
winner chooses its pile; 15 cards on the top row and 13 on the bottom row, face up, 3 cm
apart, the bottom row 10 cm from the knees; the bow. The page's card
(``judging/rules_help.html``) and the PDF use the same :func:`setup_steps`. Of Django only
translation: every text is in the active language.
"""

from __future__ import annotations

from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm

from common.pdf.fonts import check_glyphs, japanese_font
from common.pdf.layout import open_canvas
from common.pdf.pen import INK, LINE, MUTED, RENDER_LOCK, SHADE, WHITE, Pen, shrink
from common.pdf.text import fit_paragraph

__all__ = ["TOP_ROW", "BOTTOM_ROW", "game_setup_pdf", "setup_steps"]

#: Cards a team lays out: the top row (away from the player) and the bottom row (near the knees).
TOP_ROW, BOTTOM_ROW = 15, 13


def setup_steps() -> list[str]:
    """The steps of 試合の準備 in order, in the active language (the rule sheet's
    "Preparation" and the referee's notice ①, ②; docs/rules/hitachi-karuta.md)."""
    return [
        _(
            "The referee shuffles the 56 cards well, divides them into two piles of 28 and places "
            "them face down in the centre of the court."
        ),
        _(
            "The teams sit on either side of the court, each team's leader in the middle. The referee "
            "checks the teams' names and fills in the recording sheet."
        ),
        _("Rock-paper-scissors: the team that wins chooses its pile first."),
        _("Each team lays its cards face up: %(top)d on the top row and %(bottom)d on the bottom row.")
        % {"top": TOP_ROW, "bottom": BOTTOM_ROW},
        _("The cards are 3 cm apart; the bottom row is 10 cm from the players' knees."),
        _("The players bow to each other before the game (and again after it)."),
    ]


def game_setup_pdf(title: str = "") -> bytes:
    """試合の準備 on ONE A4 portrait page: the title, the steps of :func:`setup_steps`
    numbered, and a drawing of the court (both teams' 15 + 13 cards, 3 cm apart, the bottom
    rows 10 cm from the knees, the two piles in the centre). In: the title (default
    「試合の準備」 in the active language). Out: the PDF bytes. Through
    ``common.pdf.layout.open_canvas`` (every font embedded)."""
    font = japanese_font()
    title = title or _("Preparing the game")
    steps = setup_steps()
    check_glyphs(title + "".join(steps), "setup")
    buf = BytesIO()
    width, height = A4
    with RENDER_LOCK:
        c = open_canvas(buf, A4, font, title=title, subject=_("Hitachi Folk Karuta: preparing the game"))
        pen = Pen(c, font)
        margin = 15 * mm
        top = height - margin
        pen.text(margin, top - 9 * mm, title, shrink(pen, title, width - 2 * margin, 24), bold=True)
        pen.hline(margin, width - margin, top - 13 * mm, width=1.4, color=INK)
        y = top - 22 * mm
        text_w = width - 2 * margin - 10 * mm
        for number, step in enumerate(steps, 1):
            size, lines = fit_paragraph(step, font, text_w, 22 * mm, 14, 9)
            pen.text(margin, y, f"{number}.", size, bold=True)
            for line in lines:
                pen.text(margin + 10 * mm, y, line, size)
                y -= size * 1.4
            y -= 3 * mm
        _draw_court(pen, margin, margin + 8 * mm, width - 2 * margin, y - margin - 14 * mm)
        foot = _("Hitachi Folk Karuta: from the rules")
        pen.text(margin, margin, foot, 8, color=MUTED)
        c.showPage()
        c.save()
    return buf.getvalue()


def _cards_row(pen: Pen, cx: float, y: float, count: int, card_w: float, card_h: float, gap: float) -> None:
    x = cx - (count * card_w + (count - 1) * gap) / 2
    for i in range(count):
        pen.rect(x + i * (card_w + gap), y, card_w, card_h, fill=WHITE, stroke=LINE, width=0.6)


def _draw_court(pen: Pen, x0: float, y0: float, w: float, h: float) -> None:
    """The court seen from above in the box (x0, y0, w, h): team B's side at the top (rows
    mirrored), team A's at the bottom, the two piles in the centre, the 3 cm and 10 cm marks."""
    h = max(h, 80 * mm)
    pen.rect(x0, y0, w, h, fill=SHADE, stroke=LINE, width=0.9, radius=2 * mm)
    cx = x0 + w / 2
    card_w, gap = 7 * mm, 2.4 * mm
    card_h = card_w * 1.35
    knee = 9 * mm  # the drawing's 10 cm
    # team A (bottom): the knees, then 10 cm, the bottom row of 13, the top row of 15
    a_knee = y0 + 8 * mm
    pen.text_mid(cx, a_knee - 3 * mm, _("Team A (the leader in the middle)"), 10, align="center", bold=True)
    pen.hline(x0 + 20 * mm, x0 + w - 20 * mm, a_knee, width=1.2, color=INK)
    a_bottom = a_knee + knee
    _cards_row(pen, cx, a_bottom, BOTTOM_ROW, card_w, card_h, gap)
    a_top = a_bottom + card_h + gap
    _cards_row(pen, cx, a_top, TOP_ROW, card_w, card_h, gap)
    # team B (top), mirrored
    b_knee = y0 + h - 8 * mm
    pen.text_mid(cx, b_knee + 3 * mm, _("Team B (the leader in the middle)"), 10, align="center", bold=True)
    pen.hline(x0 + 20 * mm, x0 + w - 20 * mm, b_knee, width=1.2, color=INK)
    b_bottom = b_knee - knee - card_h
    _cards_row(pen, cx, b_bottom, BOTTOM_ROW, card_w, card_h, gap)
    b_top = b_bottom - gap - card_h
    _cards_row(pen, cx, b_top, TOP_ROW, card_w, card_h, gap)
    # the centre: two piles of 28, face down
    mid = (a_top + card_h + b_top) / 2
    for dx in (-14 * mm, 14 * mm - card_w):
        for k in range(3):
            pen.rect(cx + dx + k * 0.6, mid - card_h / 2 + k * 0.6, card_w, card_h, fill=MUTED, stroke=LINE)
    pen.text_mid(cx, mid - card_h / 2 - 4 * mm, _("two piles of 28, face down"), 9, align="center", color=MUTED)
    # labels: the rows at the left, the 3 cm and the 10 cm at the right
    row_w = TOP_ROW * card_w + (TOP_ROW - 1) * gap
    label_w = (w - row_w) / 2 - 4 * mm
    for y, n, text in ((a_top, TOP_ROW, _("top row: %(n)d")), (a_bottom, BOTTOM_ROW, _("bottom row: %(n)d"))):
        label = text % {"n": n}
        pen.text(x0 + 2.5 * mm, y + card_h / 2 - 1.2 * mm, label, shrink(pen, label, label_w, 8))
    right = cx + row_w / 2 + 1.5 * mm
    for y, text in ((a_bottom + card_h / 2, _("3 cm between cards")), (a_knee + knee / 2, _("10 cm from the knees"))):
        lines = fit_paragraph(text, pen.font, x0 + w - right - 2 * mm, 10 * mm, 8, 6)
        size, parts = lines
        for k, part in enumerate(parts):
            pen.text(right, y + (len(parts) / 2 - k - 0.8) * size * 1.2, part, size)
