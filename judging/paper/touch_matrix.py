"""判定表: the touch-judgment matrix on one A4 landscape page, for the referees.

The verdicts come from :data:`judging.engine.rules.TOUCH_MATRIX`; the notes under the
matrix quote the rules (``docs/rules/hitachi-karuta.md``).  No Django.
"""

from __future__ import annotations

from reportlab.lib.units import mm

from common.pdf.fonts import check_glyphs, japanese_font
from common.pdf.layout import CONTENT_BOTTOM, LANDSCAPE, MARGIN, Document, Page, pages_pdf
from common.pdf.pen import BAND, INK, LINE, MUTED, SHADE, WHITE, Pen, draw_fitted, shrink
from common.pdf.text import clean, fit_paragraph
from judging.engine.rules import MAX_RPS_DECISIONS, TOUCH_MATRIX, TouchState, Verdict

__all__ = ["TOUCH_LABELS", "VERDICT_LABELS", "touch_matrix_cells", "touch_matrix_pdf"]

TINT_A = (0.84, 0.90, 0.98)
TINT_B = (0.99, 0.87, 0.78)
TINT_RPS = (0.92, 0.95, 0.84)
TINT_FIRST = (0.93, 0.90, 0.97)

#: Row / column labels of the touch-judgment matrix, in the rules page's order.
TOUCH_LABELS: list[tuple[TouchState, str, str]] = [
    (TouchState.BOTH, "両方触った", "正しい札と間違った札の両方に触れた"),
    (TouchState.CORRECT_ONLY, "正しい札だけ", "読まれた札だけに触れた"),
    (TouchState.WRONG_ONLY, "間違った札だけ", "読まれていない札だけに触れた"),
    (TouchState.NEITHER, "どちらも触らない", "どちらの札にも触れていない"),
]

#: Printed verdicts: label, short explanation, cell tint.
VERDICT_LABELS: dict[Verdict, tuple[str, str, tuple[float, float, float]]] = {
    Verdict.A: ("A", "Aチームが取る", TINT_A),
    Verdict.B: ("B", "Bチームが取る", TINT_B),
    Verdict.RPS: ("じゃんけん", f"1試合 最大{MAX_RPS_DECISIONS}回", TINT_RPS),
    Verdict.FIRST_TO_TOUCH: ("先に正しい札に触れたチーム", "", TINT_FIRST),
}


def touch_matrix_cells() -> list[list[str]]:
    """The printed verdict labels, rows = team A's state, columns = team B's state, in the
    order of :data:`TOUCH_LABELS` (taken from :data:`judging.engine.rules.TOUCH_MATRIX`)."""
    return [[VERDICT_LABELS[TOUCH_MATRIX[(ra, cb)]][0] for cb, _, _ in TOUCH_LABELS] for ra, _, _ in TOUCH_LABELS]


#: The notes under the matrix: (heading, text), from the rules (docs/rules/hitachi-karuta.md).
NOTES = [
    (
        "お手つき",
        "読まれていない札（間違った札）に触れたら、正しい札は相手チームのものになる。"
        "同じチームの何人が何枚まちがえて触っても、相手に渡すのは1枚だけ。",
    ),
    (
        "最後の2枚",
        "残り2枚になったら読み手が2枚とも読んで確認し、30cm離して中央に置く。"
        "取り合うのは両チームの主将（リーダー）だけ。先に1枚取ったチームが2枚とも取る。",
    ),
    (
        "じゃんけん",
        f"表のじゃんけんは1試合で最大{MAX_RPS_DECISIONS}回（2人で行い、審判が名前を呼ぶ）。"
        f"{MAX_RPS_DECISIONS}回使ったら、審判が手を挙げ、審判長が決める（審判の判定）。"
        "「先に正しい札に触れたチーム」はチーム名を記録する。",
    ),
]

#: Step one, before the table (docs/rules/hitachi-karuta.md, "Touch judgment matrix"): the hand
#: at the bottom takes the card, between the two teams as within one, with no じゃんけん.
STEPS = (
    "① まず：何人かが同じ札を押さえたら、いちばん下に手がある人のチームが取る"
    "（同じチームでも、両チームでも。じゃんけんはしない）。",
    "② 同じ札・同じ時・同じ場所で、どちらの手も下でないときだけ、下の表で判定する。",
)

FOOT = (
    "複数の人が同時に札に触れたとき、読まれた札を2回読んでも誰も触れないとき、"
    "トラブルのときは、審判が手を挙げ、解決するまで下ろさない。"
    "AとBを入れ替えると判定も入れ替わる（表は対称）。"
)

HEAD_W = 64 * mm  # the row headings (team A's state)
HEAD_H = 21 * mm  # the column headings (team B's state)
ROW_H = 22 * mm
STEPS_H = 13 * mm  # the band of step one, between the title and the matrix


def touch_matrix_pdf(title: str = "判定表") -> bytes:
    """The touch-judgment matrix (判定表) on ONE A4 landscape page, for the referees.

    Input: the page title (default 「判定表」).  Above the matrix, step one of the rule:
    the player whose hand is at the bottom takes the card, between the two teams as within
    one, with no じゃんけん; only a truly simultaneous touch goes to the table.  Rows are team A's state (両方触った /
    正しい札だけ / 間違った札だけ / どちらも触らない), columns team B's; cells read A / B /
    じゃんけん / 先に正しい札に触れたチーム, from :data:`judging.engine.rules.TOUCH_MATRIX`
    (``docs/rules/hitachi-karuta.md``).  Under the matrix: notes on お手つき (the correct
    card goes to the opponent, one card only however many wrong touches), the last two
    cards (leaders only; whoever takes the first takes both) and じゃんけん (at most 3 per
    match; then the referee leader decides; first-to-touch names the team).  Returns the PDF bytes; a character of
    ``title`` the font lacks prints from a fallback font or as 〓.
    """
    font = japanese_font()
    title = clean(title) or "判定表"
    check_glyphs(title, "title")
    check_glyphs("".join(STEPS), "steps")
    for head, body in NOTES:
        check_glyphs(head + body, "note")
    size = LANDSCAPE
    page = Page(size, lambda pen: _draw_page(pen, size, title))
    doc = Document(
        title=title,
        subject="ひたち郷土かるた 判定表",
        keywords=[title],
        footer_left="ひたち郷土かるた　競技規則より",
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
    sub = "両チームが同時に触れたときの判定（行＝Aチーム、列＝Bチーム）"
    tw = pen.width(title, shrink(pen, title, w * 0.4, ts))
    pen.text(x0 + tw + 6 * mm, top - 10 * mm, sub, shrink(pen, sub, w - tw - 6 * mm, 12), color=MUTED)
    pen.hline(x0, x0 + w, top - 14 * mm, width=1.4, color=INK)
    _draw_steps(pen, x0, w, top - 17 * mm)
    mb = _draw_matrix(pen, x0, w, top - 19 * mm - STEPS_H)
    _draw_notes(pen, x0, w, mb - 5.5 * mm)
    pen.text(x0, CONTENT_BOTTOM + 1.2 * mm, FOOT, shrink(pen, FOOT, w, 8.5), color=MUTED)


def _draw_steps(pen: Pen, x0: float, w: float, st: float) -> None:
    """Step one of the touch rule in a band with its top at ``st``: the hand underneath first."""
    pen.rect(x0, st - STEPS_H, w, STEPS_H, fill=TINT_FIRST, stroke=INK, width=1.2, radius=1.5 * mm)
    size = min(shrink(pen, step, w - 6 * mm, 12) for step in STEPS)
    first = st - (STEPS_H - 2.2 * size) / 2 - 0.9 * size  # two lines centred in the band
    for k, step in enumerate(STEPS):
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
    pen.text(x0 + HEAD_W - 3 * mm, mt - 7 * mm, "Bチーム →", 12, align="right", bold=True)
    pen.text(x0 + 3 * mm, cy0 + 3.5 * mm, "Aチーム ↓", 12, bold=True)
    for j, (_, label, desc) in enumerate(TOUCH_LABELS):
        cx = x0 + HEAD_W + j * col_w
        pen.rect(cx, cy0, col_w, HEAD_H, fill=BAND, stroke=None)
        _label_pair(pen, cx + col_w / 2, cy0, HEAD_H, label, desc, col_w - 4 * mm, 15, 0.62)
    cells = touch_matrix_cells()
    for i, (_, label, desc) in enumerate(TOUCH_LABELS):
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
    verdict = next(v for v, lab in VERDICT_LABELS.items() if lab[0] == text)
    _, expl, tint = VERDICT_LABELS[verdict]
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
    """The three notes side by side, from ``nt`` down to just above the foot line."""
    gap = 4 * mm
    nb = CONTENT_BOTTOM + 6 * mm
    nw = (w - 2 * gap) / 3
    for k, (head, body) in enumerate(NOTES):
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
