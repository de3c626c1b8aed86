"""The people of the day on paper (issue 32; docs/people.md): team cards (A6, four to an A4
page, cut along the dashed lines) and the duty roster (係分担表, A4 landscape).

Input: the event's title and the read side's records (``people.cards.TeamCard``,
``people.roster.RosterTable``); output: PDF bytes, opened with ``common.pdf.layout.open_canvas``.
The QR codes are ``common.pdf.qr`` (level M, the URL in ASCII: ``docs/rules/paper.md``). Of Django
only translation: the labels are in the active language.
"""

from __future__ import annotations

from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import LANDSCAPE, MARGIN, PORTRAIT, open_canvas
from common.pdf.pen import BAND, LINE, MUTED, RENDER_LOCK, Pen
from common.pdf.qr import draw_qr, qr_modules
from common.pdf.text import checked

__all__ = ["roster_pdf", "team_cards_pdf"]

CARDS_PER_PAGE = 4  # A6 on A4: two columns, two rows, no margin (cut along the lines)
MAX_GAMES = 10
QR_SIDE = 30 * mm
CAL_SIDE = 20 * mm


def team_cards_pdf(title: str, cards: list) -> bytes:
    """The cards of ``cards`` (``people.cards.TeamCard``) under the event's ``title``, four A6
    cards to an A4 page (an empty list: one page saying there is no team). Returns PDF bytes."""
    font = japanese_font()
    width, height = PORTRAIT
    card_w, card_h = width / 2, height / 2
    buf = BytesIO()
    with RENDER_LOCK:
        c = open_canvas(buf, PORTRAIT, font, title=title, subject=_("Team cards"), keywords=[_("reception")])
        pen = Pen(c, font)
        pages = [cards[i : i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)] or [[]]
        for page in pages:
            if not page:
                pen.text(MARGIN, height - MARGIN - 10 * mm, _("No team is entered."), 11)
            pen.line(width / 2, 0, width / 2, height, color=LINE, dash=(2, 3), width=0.3)
            pen.line(0, height / 2, width, height / 2, color=LINE, dash=(2, 3), width=0.3)
            for i, card in enumerate(page):
                x = (i % 2) * card_w
                y = height - (i // 2 + 1) * card_h
                _card(pen, title, card, x, y, card_w, card_h)
            c.showPage()
        c.save()
    return buf.getvalue()


def _card(pen: Pen, title: str, card, x: float, y: float, w: float, h: float) -> None:
    """One team's A6 card in the box (x, y, w, h)."""
    pad = 7 * mm
    left, right = x + pad, x + w - pad
    top = y + h - pad
    pen.text(left, top - 3 * mm, checked(title, "title"), 7.5, color=MUTED)
    if card.changed:
        pen.text(right, top - 3 * mm, _("Changed since the last print"), 8, align="right", bold=True)
    pen.text(left, top - 8 * mm, checked(card.division, "division"), 9, color=MUTED)
    pen.fitted(
        left - 1.2 * mm,
        top - 17 * mm,
        right - left,
        9 * mm,
        checked(card.team, "team"),
        max_size=15,
        min_size=8,
        align="left",
        bold=True,
        max_lines=1,
    )
    if card.affiliation:
        pen.text(left, top - 20.5 * mm, checked(card.affiliation, "affiliation"), 8.5)
    row_h = 5.4 * mm
    cols = [left, left + 11 * mm, left + 23 * mm, left + 40 * mm]
    ty = top - 27 * mm
    pen.rect(left, ty - 1.6 * mm, right - left, row_h, fill=BAND, stroke=None)
    for col, label in zip(cols, (_("No."), _("Time"), _("Court"), _("Opponent")), strict=True):
        pen.text(col + 1 * mm, ty, label, 7.5, bold=True)
    games = card.games[:MAX_GAMES]
    for i, game in enumerate(games, 1):
        gy = ty - i * row_h
        pen.text(cols[0] + 1 * mm, gy, str(game.number), 8.5)
        pen.text(cols[1] + 1 * mm, gy, game.time, 8.5)
        pen.fitted(
            cols[2],
            gy - 1.6 * mm,
            cols[3] - cols[2],
            row_h,
            checked(game.court, "court"),
            max_size=8.5,
            min_size=6,
            align="left",
            max_lines=1,
        )
        pen.fitted(
            cols[3],
            gy - 1.6 * mm,
            right - cols[3],
            row_h,
            checked(game.opponent, "opponent"),
            max_size=8.5,
            min_size=6,
            align="left",
            max_lines=1,
        )
        pen.hline(left, right, gy - 1.8 * mm, color=LINE, width=0.2)
    if not games:
        pen.text(left + 1 * mm, ty - row_h, _("The games are not scheduled yet."), 8.5, color=MUTED)
    if len(card.games) > MAX_GAMES:
        more = len(card.games) - MAX_GAMES
        pen.text(
            left + 1 * mm,
            ty - (MAX_GAMES + 1) * row_h,
            _("… and %(n)d more games (see the team's page)") % {"n": more},
            7.5,
            color=MUTED,
        )
    py = y + pad + QR_SIDE + 4 * mm
    for line in card.path[:3]:
        pen.fitted(
            left - 1.2 * mm,
            py - 1.5 * mm,
            right - left,
            5 * mm,
            checked(line, "path"),
            max_size=8.5,
            min_size=6,
            align="left",
            max_lines=1,
        )
        py += 5 * mm
    if card.scan_url:
        draw_qr(pen, qr_modules(card.scan_url), left, y + pad, QR_SIDE)
        pen.fitted(
            left + QR_SIDE + 1 * mm,
            y + pad + QR_SIDE / 2,
            right - left - QR_SIDE - CAL_SIDE - 3 * mm,
            QR_SIDE / 2,
            _("Show this code at reception. Scanned with a phone: the team's page."),
            max_size=7.5,
            min_size=6,
            align="left",
            max_lines=4,
        )
    if card.calendar_url:
        draw_qr(pen, qr_modules(card.calendar_url), right - CAL_SIDE, y + pad + 3 * mm, CAL_SIDE)
        pen.text(right - CAL_SIDE / 2, y + pad, _("Calendar"), 7, align="center", color=MUTED)


def roster_pdf(title: str, table) -> bytes:
    """The duty roster (``people.roster.RosterTable``) of the event ``title`` on A4 landscape:
    roles down, time blocks across, the names in each cell, the warnings under it."""
    font = japanese_font()
    width, height = LANDSCAPE
    buf = BytesIO()
    with RENDER_LOCK:
        c = open_canvas(buf, LANDSCAPE, font, title=title, subject=_("Duty roster"), keywords=[_("duty roster")])
        pen = Pen(c, font)
        pen.text(MARGIN, height - MARGIN - 5 * mm, checked(title, "title"), 13, bold=True)
        pen.text(width - MARGIN, height - MARGIN - 5 * mm, _("Duty roster"), 11, align="right")
        label_w = 40 * mm
        blocks = table.blocks or []
        col_w = (width - 2 * MARGIN - label_w) / max(1, len(blocks))
        top = height - MARGIN - 14 * mm
        head_h = 10 * mm
        rows = table.rows
        row_h = min(18 * mm, (top - head_h - MARGIN - 20 * mm) / max(1, len(rows)))
        pen.rect(MARGIN, top - head_h, width - 2 * MARGIN, head_h, fill=BAND)
        pen.text(MARGIN + 2 * mm, top - head_h / 2 - 1.5 * mm, _("Role"), 9, bold=True)
        for i, block in enumerate(blocks):
            bx = MARGIN + label_w + i * col_w
            pen.fitted(
                bx,
                top - head_h,
                col_w,
                head_h,
                checked(block.label, "block"),
                max_size=9,
                min_size=6,
                bold=True,
                max_lines=2,
            )
        for r, row in enumerate(rows):
            ry = top - head_h - (r + 1) * row_h
            pen.rect(MARGIN, ry, width - 2 * MARGIN, row_h, stroke=LINE, width=0.4)
            pen.fitted(
                MARGIN,
                ry,
                label_w,
                row_h,
                checked(row.label, "role"),
                max_size=10,
                min_size=6,
                align="left",
                bold=True,
                max_lines=2,
            )
            for i, names in enumerate(row.cells):
                bx = MARGIN + label_w + i * col_w
                pen.vline(bx, ry, ry + row_h, color=LINE, width=0.4)
                pen.fitted(
                    bx,
                    ry,
                    col_w,
                    row_h,
                    checked("、".join(names), "names"),
                    max_size=9.5,
                    min_size=6,
                    align="left",
                    max_lines=3,
                )
        wy = top - head_h - len(rows) * row_h - 7 * mm
        for warning in table.warnings[:6]:
            pen.text(MARGIN, wy, "※ " + checked(warning, "warning"), 8.5, color=MUTED)
            wy -= 5 * mm
        c.showPage()
        c.save()
    return buf.getvalue()


def referees_pdf(title: str, courts: list, by_referee: list) -> bytes:
    """The referees' games on A4 portrait: first the hall's list (each referee with their games:
    No., time, court), then a page per court (No., time, teams, referee). ``courts`` is
    ``[(court name, [(number, time, teams, referee)])]``, ``by_referee``
    ``[(name, [(number, time, court)])]``. Returns PDF bytes."""
    font = japanese_font()
    width, height = PORTRAIT
    buf = BytesIO()
    with RENDER_LOCK:
        c = open_canvas(buf, PORTRAIT, font, title=title, subject=_("Referees"), keywords=[_("referee")])
        pen = Pen(c, font)
        row_h = 6.5 * mm

        def page(heading):
            pen.text(MARGIN, height - MARGIN - 5 * mm, checked(title, "title"), 11, bold=True)
            pen.text(width - MARGIN, height - MARGIN - 5 * mm, checked(heading, "heading"), 11, align="right")
            return height - MARGIN - 16 * mm

        y = page(_("Referees"))
        if not by_referee:
            pen.text(MARGIN, y, _("No referee is assigned."), 10)
        for name, games in by_referee:
            if y < MARGIN + 2 * row_h:
                c.showPage()
                y = page(_("Referees"))
            pen.text(MARGIN, y, checked(name, "referee"), 10, bold=True)
            listed = "、".join(f"{_('No.')}{n} {t} {court}" for n, t, court in games)
            pen.fitted(
                MARGIN + 42 * mm,
                y - 2 * mm,
                width - 2 * MARGIN - 42 * mm,
                row_h,
                checked(listed, "games"),
                max_size=9,
                min_size=6,
                align="left",
                max_lines=2,
            )
            pen.hline(MARGIN, width - MARGIN, y - 2.6 * mm, color=LINE, width=0.2)
            y -= row_h + 1 * mm
        for court, games in courts:
            c.showPage()
            y = page(court)
            cols = [MARGIN, MARGIN + 14 * mm, MARGIN + 30 * mm, width - MARGIN - 45 * mm]
            pen.rect(MARGIN, y - 2 * mm, width - 2 * MARGIN, row_h, fill=BAND, stroke=None)
            for col, label in zip(cols, (_("No."), _("Time"), _("Teams"), _("Referee")), strict=True):
                pen.text(col + 1 * mm, y, label, 9, bold=True)
            for number, time, teams, referee in games:
                y -= row_h
                if y < MARGIN:
                    c.showPage()
                    y = page(court) - row_h
                pen.text(cols[0] + 1 * mm, y, str(number), 9.5)
                pen.text(cols[1] + 1 * mm, y, time, 9.5)
                pen.fitted(
                    cols[2],
                    y - 2 * mm,
                    cols[3] - cols[2],
                    row_h,
                    checked(teams, "teams"),
                    max_size=9.5,
                    min_size=6,
                    align="left",
                    max_lines=1,
                )
                pen.fitted(
                    cols[3],
                    y - 2 * mm,
                    width - MARGIN - cols[3],
                    row_h,
                    checked(referee or "—", "referee"),
                    max_size=9.5,
                    min_size=6,
                    align="left",
                    max_lines=1,
                )
                pen.hline(MARGIN, width - MARGIN, y - 2.2 * mm, color=LINE, width=0.2)
        c.showPage()
        c.save()
    return buf.getvalue()
