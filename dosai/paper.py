"""Paper and Excel for Sanjô Dôsai: the points table of an edition (A4 PDF) and the ledger
of hands and sessions (xlsx).

The PDF is drawn with reportlab canvas primitives in the embedded Japanese font of
``common.pdf.fonts.japanese_font`` (text the font cannot draw is refused by ``check_glyphs``);
the workbook is written with ``common.xlsx``. Both take data already derived by
``dosai.editions`` (an ``EditionStatus``) and ``dosai.services`` (``HandReplay`` objects) and return bytes.
"""

from __future__ import annotations

from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth

from common.pdf.fonts import check_glyphs, japanese_font
from common.pdf.layout import open_canvas, wrap_notes
from common.pdf.pen import RENDER_LOCK
from common.xlsx import add_sheet, new_workbook, workbook_bytes, write_cell, write_table
from dosai.editions import full_deck_note, source_words, sources_note
from dosai.engine import cards


def source_tag(subject: cards.Subject) -> str:
    """Where a value comes from, in words (``editions.source_words``)."""
    return source_words(subject)


def marks(subject: cards.Subject) -> str:
    """The special roles of an efuda, translated (docs/rules/sanjo-dosai.md l.49, l.67, l.87, l.94)."""
    out = []
    if not subject.in_play:
        out.append(_("removed before play"))
    if subject.bakefuda:
        out.append(_("bakefuda: eats the next call"))
    if subject.end_free:
        out.append(_("may be turned free at the end"))
    if subject.never_eaten:
        out.append(_("never eaten"))
    return "・".join(out)


def _fit(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


def points_table_pdf(status) -> bytes:
    """The printable points table of an edition: one A4 page, the 62 subjects with number,
    proverb, points, class marks and source, and the class counts (entered / required).

    Input: ``editions.EditionStatus``. Output: PDF bytes. Raises ValueError for a character
    the font cannot draw (``common.pdf.fonts.check_glyphs``)."""
    edition = status.edition
    font = japanese_font()
    title = _("Dôsai Karuta points table: %(name)s") % {"name": edition.name}
    ready = (
        _("ready to play")
        if status.ready
        else _("not ready: %(count)s values missing or wrong") % {"count": len(status.unknown) or len(status.problems)}
    )
    classes = "   ".join(
        _("%(points)s pt × %(required)s (%(entered)s)")
        % {"points": c.points, "required": c.required, "entered": c.entered}
        for c in status.classes
    )
    rows = [
        (str(s.number), s.proverb or "—", "" if s.points is None else str(s.points), marks(s), source_tag(s))
        for s in edition.subjects
    ]
    deck_note = full_deck_note()
    for text in [title, ready, classes, deck_note] + [cell for row in rows for cell in row]:
        check_glyphs(text, "points table")

    buf = BytesIO()
    with RENDER_LOCK:  # reportlab's TTFont subset state is shared by every document
        c = open_canvas(buf, A4, font, title=title)
        width, height = A4
        left, right, top = 14 * mm, width - 14 * mm, height - 14 * mm
        c.setFont(font, 14)
        c.drawString(left, top, title)
        c.setFont(font, 8.5)
        c.drawString(left, top - 14, ready)
        c.drawString(left, top - 26, _("Classes over the 60 efuda in play (entered in brackets):"))
        c.setFont(font, 9)
        c.drawString(left + 4 * mm, top - 37, classes)
        # The longest proverb is about 34 mm at 8 pt; the source, in words, needs up to 46 mm.
        cols = [left, left + 10 * mm, left + 52 * mm, left + 65 * mm, left + 120 * mm, right]
        heads = [_("Number"), _("Proverb"), _("Points"), _("Role"), _("Source of the value")]
        y = top - 54
        row_h = 10.6
        c.setFillColorRGB(0.86, 0.86, 0.86)
        c.rect(left, y - 3, right - left, row_h, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        c.setFont(font, 8)
        for x, text in zip(cols, heads, strict=False):  # cols has one more edge than heads
            c.drawString(x + 2, y, text)
        for i, row in enumerate(rows):
            y -= row_h
            if i % 2:
                c.setFillColorRGB(0.95, 0.95, 0.95)
                c.rect(left, y - 3, right - left, row_h, stroke=0, fill=1)
                c.setFillColorRGB(0, 0, 0)
            grey = not edition.subjects[i].in_play
            c.setFillColorRGB(*((0.45, 0.45, 0.45) if grey else (0, 0, 0)))
            for j, (x, text) in enumerate(zip(cols, row, strict=False)):
                size = 9 if j == 2 else 8
                c.setFont(font, size)
                text = _fit(text, font, size, cols[j + 1] - x - 4)
                if j in (0, 2):
                    c.drawRightString(cols[j + 1] - 4, y, text)
                else:
                    c.drawString(x + 2, y, text)
            c.setFillColorRGB(0, 0, 0)
        c.setLineWidth(0.4)
        c.line(left, y - 4, right, y - 4)
        c.setFont(font, 7)
        c.drawString(left, y - 14, sources_note())
        # the full deck's classes and the assumption about nos. 8 and 23 (issue 33)
        c.setFont(font, 6.5)
        for i, line in enumerate(wrap_notes([deck_note], font, right - left, 6.5)[:4]):
            c.drawString(left, y - 23 - 8 * i, line)
        c.showPage()
        c.save()
    return buf.getvalue()


def _house(name: str) -> str:
    return _("house %(house)s") % {"house": name}


def ledger_workbook(session, replays, totals=None) -> bytes:
    """The ledger in Excel: a sheet per hand (call #, number, proverb, points, hako, eaten,
    holder, payee, what each house paid or got, running totals; then the settlement of the
    nobori pool) and, when ``totals`` (``services.SessionTotals``) is given, a totals sheet
    per player and per house across hands.

    Input: the session, ``HandReplay`` objects, optional totals. Output: .xlsx bytes."""
    wb = new_workbook()
    for r in replays:
        _hand_sheet(wb, r)
    if totals is not None:
        _totals_sheet(wb, totals)
    if not wb.sheetnames:
        write_table(add_sheet(wb, _("Totals")), [_("Player"), _("Total")], [[p, 0] for p in session.players])
    return workbook_bytes(wb)


def _hand_sheet(wb, r) -> None:
    """One hand's sheet: every call, then the settlement (or the calls left), then the players."""
    names = [h.name for h in r.initial.houses]
    ws = add_sheet(wb, _("Hand %(number)s") % {"number": r.hand.number})
    headers = [
        _("Call"),
        _("Number"),
        _("Proverb"),
        _("Points"),
        _("Hako"),
        _("Eaten by"),
        _("Holder"),
        _("Holder's player"),
        _("Paid to"),
        _("Each payer pays"),
    ]
    headers += [_house(n) for n in names] + [_("Total %(house)s") % {"house": _house(n)} for n in names]
    rows = []
    for line in r.lines:
        res = line.result
        rows.append(
            [
                res.call_index,
                res.number,
                line.subject.proverb or "",
                r.initial.points.get(res.number),
                _("hako") if res.hako else "",
                _house(res.payee) if res.eaten else "",
                _house(res.holder) if res.holder else "",
                r.owners.get(res.holder, "") if res.holder else "",
                _house(res.payee) if res.payee else "",
                res.amount,
                *[res.payments[n] for n in names],
                *[line.running[n] for n in names],
            ]
        )
    last = write_table(ws, headers, rows)
    if r.settlement is not None:
        _settlement_block(ws, r, names, last)
    else:
        write_cell(ws, last + 2, 1, _("The hand is not over: %(left)s calls left.") % {"left": r.calls_left})
    ws2_start = ws.max_row + 2
    write_table(
        ws,
        [_("Player"), _("Houses"), _("Hand total")],
        [[p, ", ".join(r.hand.holdings.get(p, [])), v] for p, v in r.player_totals.items()],
        start_row=ws2_start,
        freeze=False,
        autofilter=False,
    )


def _settlement_block(ws, r, names, last) -> None:
    """The settlement of the nobori pool below a finished hand's calls."""
    s = r.settlement
    final = s.state
    start = last + 2
    write_table(
        ws,
        [
            _("Settlement"),
            _("Player"),
            _("Face-up efuda"),
            _("Nobori"),
            _("Fee paid"),
            _("Share of the pool"),
            _("Settlement"),
            _("Hand total"),
        ],
        [
            [
                _house(n),
                r.owners.get(n, ""),
                len(final.face_up_cards(n)),
                _("Yes") if n in s.nobori else "",
                s.fees.get(n, 0),
                s.share if n in s.takers else 0,
                s.payments[n],
                r.house_totals[n],
            ]
            for n in names
        ],
        start_row=start,
        freeze=False,
        autofilter=False,
    )
    note = start + len(names) + 1
    write_cell(ws, note + 1, 1, _("Turned free at the end"))
    write_cell(ws, note + 1, 2, ", ".join(map(str, s.turned_free)) or "—")
    write_cell(ws, note + 2, 1, _("Pool carried in / left"))
    write_cell(ws, note + 2, 2, f"{s.pool_in} / {s.pool_out}")


def _totals_sheet(wb, totals) -> None:
    """Totals per player and per house across the session's hands."""
    ws = add_sheet(wb, _("Totals"))
    hands = [r.hand.number for r in totals.hands]
    heads = [_("Player")] + [_("Hand %(number)s") % {"number": n} for n in hands] + [_("Total")]
    rows = [[p] + [r.player_totals.get(p, 0) for r in totals.hands] + [v] for p, v in totals.players.items()]
    last = write_table(ws, heads, rows)
    heads = [_("House")] + [_("Hand %(number)s") % {"number": n} for n in hands] + [_("Total")]
    rows = [[_house(h)] + [r.house_totals.get(h, 0) for r in totals.hands] + [v] for h, v in totals.houses.items()]
    write_table(ws, heads, rows, start_row=last + 2, freeze=False, autofilter=False)
