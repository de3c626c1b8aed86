"""判定表: the touch-judgment matrix on one A4 landscape page, for the referees.

The verdicts come from :data:`judging.engine.rules.TOUCH_MATRIX`; the notes under the
matrix quote the rules (``docs/rules/hitachi-karuta.md``).  Of Django only translation: every
label is in the active language (README "Languages").
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import check_glyphs, japanese_font
from common.pdf.layout import CONTENT_BOTTOM, LANDSCAPE, MARGIN, Document, Page, pages_pdf
from common.pdf.pen import BAND, INK, LINE, MUTED, SHADE, WHITE, Pen, draw_fitted, shrink
from common.pdf.text import clean, fit_paragraph
from judging.engine.rules import MAX_RPS_DECISIONS, TOUCH_MATRIX, TouchState, Verdict

__all__ = ["mismatch_cases", "touch_labels", "touch_matrix_cells", "touch_matrix_pdf", "touch_steps", "verdict_labels"]

TINT_A = (0.84, 0.90, 0.98)
TINT_B = (0.99, 0.87, 0.78)
TINT_RPS = (0.92, 0.95, 0.84)
TINT_FIRST = (0.93, 0.90, 0.97)


def touch_labels() -> list[tuple[TouchState, str, str]]:
    """Row / column labels of the touch-judgment matrix, in the rules page's order, in the
    active language."""
    return [
        (TouchState.BOTH, _("touched both"), _("touched the right card and a wrong one")),
        (TouchState.CORRECT_ONLY, _("right card only"), _("touched only the card read")),
        (TouchState.WRONG_ONLY, _("wrong card only"), _("touched only a card not read")),
        (TouchState.NEITHER, _("touched neither card"), _("touched no card")),
    ]


def verdict_labels() -> dict[Verdict, tuple[str, str, tuple[float, float, float]]]:
    """Printed verdicts: label, short explanation, cell tint (in the active language)."""
    return {
        Verdict.A: ("A", _("team A takes it"), TINT_A),
        Verdict.B: ("B", _("team B takes it"), TINT_B),
        Verdict.RPS: (
            _("rock-paper-scissors"),
            _("at most %(count)s a game") % {"count": MAX_RPS_DECISIONS},
            TINT_RPS,
        ),
        Verdict.FIRST_TO_TOUCH: (_("the team that touched the right card first"), "", TINT_FIRST),
    }


def touch_matrix_cells() -> list[list[str]]:
    """The printed verdict labels, rows = team A's state, columns = team B's state, in the
    order of :func:`touch_labels` (taken from :data:`judging.engine.rules.TOUCH_MATRIX`)."""
    labels, verdicts = touch_labels(), verdict_labels()
    return [[verdicts[TOUCH_MATRIX[(ra, cb)]][0] for cb, _x, _y in labels] for ra, _x, _y in labels]


def _notes() -> list[tuple[str, str]]:
    """The notes under the matrix: (heading, text), from the rules (docs/rules/hitachi-karuta.md)."""
    n = {"count": MAX_RPS_DECISIONS}
    return [
        (
            _("Fault"),
            _(
                "Touching a card not read (a wrong card) gives the right card to the other team. "
                "However many players of a team touch however many wrong cards, only one card is given."
            ),
        ),
        (
            _("The last two cards"),
            _(
                "When two cards remain the reader reads both to confirm them; they are placed in the "
                "centre 30 cm apart. Only the two teams' leaders compete; whoever takes the first card "
                "also takes the other."
            ),
        ),
        (
            _("The last two cards do not match"),
            " ".join(mismatch_cases()),
        ),
        (
            _("Rock-paper-scissors"),
            _(
                "At most %(count)s rock-paper-scissors of the table a game (two players, called by the "
                "referee). After %(count)s the referee raises a hand and the referee leader decides "
                "(the referee's decision). For “the team that touched the right card first” write the "
                "team's name."
            )
            % n,
        ),
    ]


def mismatch_cases() -> tuple[str, str, str]:
    """What the referee does when, at the last two cards, the cards on the court do not match
    the reading cards left (docs/rules/hitachi-karuta.md, "Last two cards"; the rule sheet's
    three cases), in the active language."""
    return (
        _("More than two cards on the court: the referee collects the extra cards."),
        _("Fewer than two: the referee prepares the missing cards, and play goes on."),
        _("Both cards wrong: the referee collects them and prepares the correct ones."),
    )


def touch_steps() -> tuple[str, str, str]:
    """The touch rule in the rule sheet's order, before the table (docs/rules/hitachi-karuta.md,
    "Touch judgment matrix"; the sheet: "If more than one player holds the same card, the
    player whose hand is at the bottom should get the card. If they hold the same card at the
    same time, in the same place, play rock-paper-scissors … In other cases, see the list."):
    ① the hand at the bottom takes the card, between the two teams as within one; ② the same
    card at the same time in the same place: じゃんけん; ③ in other cases, the table. Shared by
    the printed 判定表 and every page that shows the matrix (``judging/includes/matrix.html``)."""
    return (
        _(
            "① When several players hold the same card, the player whose hand is at the bottom gets it "
            "(within one team or between the teams; no rock-paper-scissors)."
        ),
        _("② If they hold the same card at the same time, in the same place: rock-paper-scissors."),
        _("③ In other cases, see the table."),
    )


def _steps() -> tuple[str, str, str]:
    return touch_steps()


def _foot() -> str:
    return _(
        "When several players touch a card at the same time, when nobody touches a card read twice, "
        "or on any trouble, the referee raises a hand and keeps it raised until it is settled. "
        "Swapping A and B swaps the verdict (the table is symmetric)."
    )


HEAD_W = 64 * mm  # the row headings (team A's state)
HEAD_H = 21 * mm  # the column headings (team B's state)
ROW_H = 22 * mm
STEPS_H = 17 * mm  # the band of the touch rule's three steps, between the title and the matrix


def touch_matrix_pdf(title: str = "") -> bytes:
    """The touch-judgment matrix (判定表) on ONE A4 landscape page, for the referees.

    Input: the page title (default 「判定表」 in the active language).  Above the matrix, the
    touch rule in the sheet's three steps (:func:`touch_steps`): the hand at the bottom takes
    the card; the same card at the same time in the same place, じゃんけん; in other cases,
    the table.  Rows are team A's state (両方触った /
    正しい札だけ / 間違った札だけ / どちらも触らない), columns team B's; cells read A / B /
    じゃんけん / 先に正しい札に触れたチーム, from :data:`judging.engine.rules.TOUCH_MATRIX`
    (``docs/rules/hitachi-karuta.md``).  Under the matrix: notes on お手つき (the correct
    card goes to the opponent, one card only however many wrong touches), the last two
    cards (leaders only; whoever takes the first takes both), what the referee does when the
    last two cards do not match (:func:`mismatch_cases`) and じゃんけん (at most 3 per
    match; then the referee leader decides; first-to-touch names the team).  Returns the PDF bytes; a character of
    ``title`` the font lacks prints from a fallback font or as 〓.
    """
    font = japanese_font()
    title = clean(title) or _("Touch judgment")
    check_glyphs(title, "title")
    check_glyphs("".join(_steps()), "steps")
    for head, body in _notes():
        check_glyphs(head + body, "note")
    size = LANDSCAPE
    page = Page(size, lambda pen: _draw_page(pen, size, title))
    doc = Document(
        title=title,
        subject=_("Hitachi Folk Karuta: touch judgment"),
        keywords=[title],
        footer_left=_("Hitachi Folk Karuta: from the rules"),
        footer_mid="",
    )
    return pages_pdf([page], doc, font)


def _draw_page(pen: Pen, size: tuple[float, float], title: str) -> None:
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    top = ph - MARGIN
    # title
    ts = 26
    pen.text(x0, top - 10 * mm, title, shrink(pen, title, w * 0.4, ts), bold=True)
    sub = _("When both teams touch at once (rows: team A, columns: team B)")
    tw = pen.width(title, shrink(pen, title, w * 0.4, ts))
    pen.text(x0 + tw + 6 * mm, top - 10 * mm, sub, shrink(pen, sub, w - tw - 6 * mm, 12), color=MUTED)
    pen.hline(x0, x0 + w, top - 14 * mm, width=1.4, color=INK)
    _draw_steps(pen, x0, w, top - 17 * mm)
    mb = _draw_matrix(pen, x0, w, top - 19 * mm - STEPS_H)
    _draw_notes(pen, x0, w, mb - 5.5 * mm)
    foot = _foot()
    pen.text(x0, CONTENT_BOTTOM + 1.2 * mm, foot, shrink(pen, foot, w, 8.5), color=MUTED)


def _draw_steps(pen: Pen, x0: float, w: float, st: float) -> None:
    """Step one of the touch rule in a band with its top at ``st``: the hand underneath first."""
    pen.rect(x0, st - STEPS_H, w, STEPS_H, fill=TINT_FIRST, stroke=INK, width=1.2, radius=1.5 * mm)
    steps = _steps()
    size = min(shrink(pen, step, w - 6 * mm, 12) for step in steps)
    first = st - (STEPS_H - 3.5 * size) / 2 - 0.9 * size  # three lines centred in the band
    for k, step in enumerate(steps):
        pen.text(x0 + 3 * mm, first - 1.3 * k * size, step, size, bold=True)


def _draw_matrix(pen: Pen, x0: float, w: float, mt: float) -> float:
    """The 5 × 5 table with its top at ``mt`` (points); returns the y of its bottom."""
    col_w = (w - HEAD_W) / 4
    cy0 = mt - HEAD_H
    # corner with the diagonal
    pen.rect(x0, cy0, HEAD_W, HEAD_H, fill=BAND, stroke=None)
    pen.c.setStrokeColorRGB(*LINE)
    pen.c.setLineWidth(0.7)
    pen.c.line(x0, mt, x0 + HEAD_W, cy0)
    pen.text(x0 + HEAD_W - 3 * mm, mt - 7 * mm, _("Team B") + " →", 12, align="right", bold=True)
    pen.text(x0 + 3 * mm, cy0 + 3.5 * mm, _("Team A") + " ↓", 12, bold=True)
    labels = touch_labels()
    for j, (_state, label, desc) in enumerate(labels):
        cx = x0 + HEAD_W + j * col_w
        pen.rect(cx, cy0, col_w, HEAD_H, fill=BAND, stroke=None)
        _label_pair(pen, cx + col_w / 2, cy0, HEAD_H, label, desc, col_w - 4 * mm, 15, 0.62)
    cells = touch_matrix_cells()
    for i, (_state, label, desc) in enumerate(labels):
        ry = cy0 - (i + 1) * ROW_H
        pen.rect(x0, ry, HEAD_W, ROW_H, fill=SHADE, stroke=None)
        _label_pair(pen, x0 + HEAD_W / 2, ry, ROW_H, label, desc, HEAD_W - 6 * mm, 16, 0.6)
        for j, text in enumerate(cells[i]):
            _verdict_cell(pen, x0 + HEAD_W + j * col_w, ry, col_w, text)
    # grid
    mb = cy0 - 4 * ROW_H
    for j in range(5):
        x = x0 + HEAD_W + j * col_w
        pen.vline(x, mb, mt, width=1.2 if j == 0 else 0.6)
    for i in range(5):
        y = cy0 - i * ROW_H
        pen.hline(x0, x0 + w, y, width=1.2 if i == 0 else 0.6)
    pen.rect(x0, mb, w, mt - mb, stroke=INK, width=1.6)
    return mb


def _label_pair(
    pen: Pen, cx: float, y: float, h: float, label: str, desc: str, width: float, size: float, at: float
) -> None:
    """A state's label (bold, at ``at`` of the cell's height) over its explanation."""
    pen.text_mid(cx, y + h * at, label, shrink(pen, label, width, size), align="center", bold=True)
    pen.text_mid(cx, y + h * 0.27, desc, shrink(pen, desc, width, 8.5), align="center", color=MUTED)


def _verdict_cell(pen: Pen, cx: float, ry: float, col_w: float, text: str) -> None:
    """One verdict on its tint: A / B large, じゃんけん with its limit, else fitted text."""
    verdicts = verdict_labels()
    verdict = next(v for v, lab in verdicts.items() if lab[0] == text)
    _label, expl, tint = verdicts[verdict]
    pen.rect(cx, ry, col_w, ROW_H, fill=tint, stroke=None)
    if verdict in (Verdict.A, Verdict.B):
        pen.text_mid(cx + col_w / 2, ry + ROW_H * 0.58, text, 34, align="center", bold=True)
        pen.text_mid(cx + col_w / 2, ry + ROW_H * 0.18, expl, 9, align="center", color=MUTED)
    elif verdict is Verdict.RPS:
        size = shrink(pen, text, col_w - 6 * mm, 21)
        pen.text_mid(cx + col_w / 2, ry + ROW_H * 0.56, text, size, align="center", bold=True)
        pen.text_mid(cx + col_w / 2, ry + ROW_H * 0.18, expl, 9, align="center", color=MUTED)
    else:
        draw_fitted(pen, cx, ry, col_w, ROW_H, text, max_size=17, min_size=15, bold=True, pad=3 * mm)


def _draw_notes(pen: Pen, x0: float, w: float, nt: float) -> None:
    """The notes side by side, from ``nt`` down to just above the foot line."""
    gap = 4 * mm
    nb = CONTENT_BOTTOM + 6 * mm
    notes = _notes()
    nw = (w - (len(notes) - 1) * gap) / len(notes)
    for k, (head, body) in enumerate(notes):
        nx = x0 + k * (nw + gap)
        pen.rect(nx, nb, nw, nt - nb, fill=WHITE, stroke=LINE, width=0.9, radius=1.5 * mm)
        tab_w = pen.width(head, 11) + 6 * mm
        pen.rect(nx, nt - 7.5 * mm, tab_w, 7.5 * mm, fill=INK, stroke=None, radius=1.5 * mm)
        pen.text_mid(nx + tab_w / 2, nt - 3.75 * mm, head, 11, align="center", bold=True, color=WHITE)
        s, lines = fit_paragraph(body, pen.font, nw - 6 * mm, nt - nb - 11 * mm, 10.5, 6)
        yy = nt - 9.5 * mm - s
        for line in lines:
            pen.text(nx + 3 * mm, yy, line, s)
            yy -= s * 1.38
