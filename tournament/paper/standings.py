"""順位表・星取表: each group's ranking with its cross table (A4, landscape for a wide group).

Input: :class:`tournament.paper.data.EventInfo`, the :class:`GroupSheet` list (already
ranked by the caller) and the precedence note; output: PDF bytes.  No Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    LANDSCAPE,
    MARGIN,
    PORTRAIT,
    Block,
    Page,
    Section,
    cols_x,
    draw_page_header,
    header_height,
    heading_block,
    message_row,
    scale_cols,
    sections_pdf,
    wrap_notes,
)
from common.pdf.pen import (
    BAND,
    INK,
    LINE,
    MUTED,
    ZEBRA,
    Pen,
    draw_boxed,
    draw_fitted,
    shrink,
)
from common.pdf.text import MIN_PT, checked, wrap
from tournament.paper.data import UNDECIDED, EventInfo, event_document, prepare_event

__all__ = ["GroupSheet", "StandingLine", "standings_pdf"]


@dataclass(frozen=True)
class StandingLine:
    """One row of a group's standings, already ranked by the caller.

    ``rank`` is text (``"1"``, ``"2="`` for a shared rank), ``decided_by`` the criterion
    that separated this row from the row above (e.g. 「勝数」, 「得失札差」, 「抽選」; "" = none).
    ``withdrawn``: the team has withdrawn, printed 「（棄権）」 after its name; ``annulled``:
    its games are annulled, its figures are printed 「—」.
    """

    rank: str
    team: str
    affiliation: str
    played: int
    wins: int
    losses: int
    cards_taken: int
    cards_conceded: int
    card_diff: int
    decided_by: str = ""
    withdrawn: bool = False
    annulled: bool = False


@dataclass(frozen=True)
class GroupSheet:
    """A group (リーグ) on the standings sheet.

    ``cross[i][j]`` is the 星取表 cell of row team ``lines[i]`` against column team
    ``lines[j]`` (same order as ``lines``), e.g. 「○ 30-26」, 「● 26-30」, ``""`` for the
    diagonal or a game not played yet.  A leading mark (○ ● △ × …) followed by a space is
    printed large with the score under it.  ``provisional``: games of the group have no
    confirmed result yet (``games_left`` of them): the heading says 「暫定」 and how many.
    """

    division: str
    group: str
    court: str
    lines: list[StandingLine]
    cross: list[list[str]]
    provisional: bool = False
    games_left: int = 0


_MARKS = set("○●◯△×✕□■▲◎")


FIXED = [10, 44]  # mm: 順位, チーム名
STATS = [8, 8, 8, 10, 10, 10, 16]  # mm: 試合 勝 敗 取札 失札 差 決定
LEGEND = (
    "○＝勝ち　●＝負け　取札＝取った札の合計　失札＝取られた札の合計　"
    "差＝取札－失札　決定＝上の順位との差がついた基準　「=」は同順位　暫定＝結果待ちの試合あり　棄権＝棄権したチーム"
)


def standings_pdf(event: EventInfo, groups: list[GroupSheet], precedence_note: str = "") -> bytes:
    """順位表 with the 星取表 of each group.

    Input: the event, the groups (in print order) and an optional precedence note (e.g.
    「順位の決め方：勝数 → 得失札差 → 取り札数 → 直接対決 → 抽選」), printed under the title on
    every page together with a legend of the columns.  Per group: a 「▽部門　リーグ」 heading
    with the court, then one row per team in the order of ``lines``: rank (「2=」 kept as
    given), team and affiliation, the cross table (○ / ● and scores; the diagonal shaded
    and struck through), 試合 / 勝 / 敗 / 取札 / 失札 / 差 and the 「決定」 (decided by)
    column.  A group is kept on one page when it fits.  Groups of up to 5 teams are packed
    onto A4 portrait pages; a wider group gets A4 landscape page(s) of its own, so one
    document may mix both orientations (in the order of ``groups``).  Raises
    ``ValueError`` if ``cross`` does not match ``lines``; a character the font lacks prints
    from a fallback font or as 〓 (``common.pdf.fallback``).  Returns the PDF bytes.
    """
    font = japanese_font()
    ev = prepare_event(event)
    note = checked(precedence_note, "precedence_note")
    prepared = [_prepare_group(g, f"groups[{gi}]") for gi, g in enumerate(groups)]
    note_lines = (
        [f"順位の決め方：{note}" if note and not note.startswith("順位") else note, LEGEND] if note else [LEGEND]
    )
    note_lines = wrap_notes([s for s in note_lines if s], font, PORTRAIT[0] - 2 * MARGIN)

    def page_factory(index: int, size=None) -> tuple[Page, float]:
        size = size or PORTRAIT
        page = Page(size, lambda pen: draw_page_header(pen, size, "順位表", ev, note_lines))
        return page, size[1] - header_height(len(note_lines))

    sections = [_group_section(g) for g in prepared]
    if not sections:
        sections.append(
            Section(None, None, [message_row(MARGIN, PORTRAIT[0] - 2 * MARGIN, "リーグがありません。", 14 * mm)])
        )
    doc = event_document(ev, "順位表", keywords=["順位表", "星取表"], footer="順位表・星取表")
    return sections_pdf(sections, page_factory, doc, font)


def _prepare_group(g: GroupSheet, w: str) -> dict:
    """The printed text of group ``g`` (``w`` names it in errors), checked for the font."""
    n = len(g.lines)
    if len(g.cross) != n or any(len(row) != n for row in g.cross):
        raise ValueError(f"{w}.cross must be a {n}×{n} table in the order of lines")
    lines = []
    for li, ln in enumerate(g.lines):
        lw = f"{w}.lines[{li}]"
        stats = [str(ln.played), str(ln.wins), str(ln.losses), str(ln.cards_taken), str(ln.cards_conceded)]
        stats = ["—"] * 6 if ln.annulled else [*stats, _signed(ln.card_diff)]
        team = checked(ln.team, f"{lw}.team") or UNDECIDED
        lines.append(
            dict(
                rank=checked(ln.rank, f"{lw}.rank"),
                team=f"{team}（棄権）" if ln.withdrawn else team,
                affiliation=checked(ln.affiliation, f"{lw}.affiliation"),
                stats=stats,
                decided_by=checked(ln.decided_by, f"{lw}.decided_by"),
            )
        )
    cross = [[checked(cell, f"{w}.cross[{i}][{j}]") for j, cell in enumerate(row)] for i, row in enumerate(g.cross)]
    state = ""
    if g.provisional:
        state = f"暫定（結果待ち{g.games_left}試合）" if g.games_left else "暫定"
    return dict(
        state=state,
        division=checked(g.division, f"{w}.division"),
        group=checked(g.group, f"{w}.group"),
        court=checked(g.court, f"{w}.court"),
        lines=lines,
        cross=cross,
    )


def _group_section(g: dict) -> Section:
    """One group: portrait when its cross table fits the width, else landscape."""
    portrait_room = (PORTRAIT[0] - 2 * MARGIN) / mm - sum(FIXED) - sum(STATS)
    n = len(g["lines"])
    size = PORTRAIT if n * 12 <= portrait_room else LANDSCAPE
    x0, w = MARGIN, size[0] - 2 * MARGIN
    room = w / mm - sum(FIXED) - sum(STATS)
    cross_w = min(20.0, room / n) if n else 0.0
    name_w = min(80.0, FIXED[1] + (room - cross_w * n))  # leftover goes to the names
    widths_mm = [FIXED[0], name_w] + [cross_w] * n + STATS
    widths = scale_cols(widths_mm, w) if sum(widths_mm) > w / mm else [v * mm for v in widths_mm]
    xs = cols_x(x0, widths)
    title = "　".join(p for p in (g["division"], g["group"]) if p) or "リーグ"
    if g["state"]:
        title += f"　{g['state']}"
    court = g["court"]
    right = (court if "コート" in court else f"コート {court}") if court else ""
    tw = sum(widths)

    def heading(continued: bool) -> Block:
        return heading_block(
            MARGIN, tw, f"▽{title}" + ("（続き）" if continued else ""), right, size=12.5, height=9.5 * mm
        )

    header = _standings_header(xs, g["lines"], n)
    rh = _row_height(g["lines"], xs[2] - xs[1] - 4.8 * mm)
    blocks = [_standing_row(xs, g, i, rh) for i in range(n)]
    if not blocks:
        blocks = [message_row(x0, w, "チームがありません。", 10 * mm)]
    return Section(heading, header, blocks, keep_together=True, gap_after=7 * mm, size=size)


def _row_height(lines: list[dict], name_w: float) -> float:
    """11.5 mm, or taller when a team name needs more than two lines at 6 pt in the name
    cell (a 40-character club): names wrap, never shrink under 6 pt (issue 18 item 9)."""
    font = japanese_font()
    most = max((len(wrap(ln["team"], font, MIN_PT, name_w)) for ln in lines), default=1)
    if most <= 2:
        return 11.5 * mm
    return max(11.5 * mm, (most * MIN_PT * 1.16 + 1.6 * mm) / 0.64)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _standings_header(xs: list[float], lines: list[dict], n: int) -> Block:
    # The 星取表 column heads hold whole names (wrapped at 6 pt at least): the header grows
    # for long names instead of shrinking them (issue 18 item 9).
    font = japanese_font()
    most = max(
        (len(wrap(lines[j]["team"], font, MIN_PT, xs[3 + j] - xs[2 + j] - 1.4 * mm)) for j in range(n)), default=1
    )
    height = max(17 * mm, most * MIN_PT * 1.14 + 5.2 * mm)

    def draw(pen: Pen, top: float) -> None:
        y = top - height
        x0, x1 = xs[0], xs[-1]
        pen.rect(x0, y, x1 - x0, height, fill=BAND, stroke=None)
        labels = ["順位", "チーム名・所属"]
        for i, lab in enumerate(labels):
            draw_fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                height,
                lab,
                max_size=9,
                min_size=5,
                bold=True,
                max_lines=1,
                pad=0.6 * mm,
            )
        for j in range(n):
            cx0, cw = xs[2 + j], xs[3 + j] - xs[2 + j]
            pen.text_mid(cx0 + cw / 2, top - 2.6 * mm, str(j + 1), 7, align="center", color=MUTED)
            draw_boxed(
                pen, cx0, y, cw, height - 3.6 * mm, lines[j]["team"], max_size=8.5, min_size=5, bold=True, pad=0.7 * mm
            )
        stats = ["試合", "勝", "敗", "取札", "失札", "差", "決定"]
        for k, lab in enumerate(stats):
            i = 2 + n + k
            draw_fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                height,
                lab,
                max_size=9,
                min_size=5,
                bold=True,
                max_lines=1,
                pad=0.5 * mm,
            )
        for x in xs[1:-1]:
            strong = x in (xs[2], xs[2 + n])
            pen.vline(x, y, top, width=0.9 if strong else 0.4, color=LINE if strong else MUTED)
        pen.rect(x0, y, x1 - x0, height, stroke=LINE, width=1.1)

    return Block(height, draw)


def _standing_row(xs: list[float], g: dict, i: int, rh: float) -> Block:
    """Row ``i`` of group ``g``: rank, team, its line of the cross table, the stats."""
    line = g["lines"][i]
    n = len(g["lines"])

    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        x0, x1 = xs[0], xs[-1]
        if i % 2:
            pen.rect(x0, y, x1 - x0, rh, fill=ZEBRA, stroke=None)
        rank_w = xs[1] - xs[0]
        draw_fitted(
            pen, xs[0], y, rank_w, rh, line["rank"], max_size=15, min_size=6, bold=True, max_lines=1, pad=0.6 * mm
        )
        pen.text(xs[1] + 1.3 * mm, top - 2.9 * mm, str(i + 1), 6.5, color=MUTED)
        _draw_team_cell(pen, xs[1] + 2.4 * mm, y, xs[2] - xs[1] - 2.4 * mm, rh, line)
        for j in range(n):
            cx, cw = xs[2 + j], xs[3 + j] - xs[2 + j]
            if i == j:
                pen.rect(cx, y, cw, rh, fill=BAND, stroke=None)
                pen.c.setStrokeColorRGB(*MUTED)
                pen.c.setLineWidth(0.5)
                pen.c.line(cx, y, cx + cw, top)
                continue
            _cross_cell(pen, cx, y, cw, rh, g["cross"][i][j])
        for k, value in enumerate(line["stats"]):
            c = 2 + n + k
            cw = xs[c + 1] - xs[c]
            draw_fitted(pen, xs[c], y, cw, rh, value, max_size=11, min_size=5, bold=k == 1, max_lines=1, pad=0.5 * mm)
        c = 2 + n + 6
        draw_fitted(pen, xs[c], y, xs[c + 1] - xs[c], rh, line["decided_by"], max_size=8.5, min_size=4.5, pad=0.6 * mm)
        for x in xs[1:-1]:
            strong = x in (xs[2], xs[2 + n])
            pen.vline(x, y, top, width=0.9 if strong else 0.4, color=LINE if strong else MUTED)
        pen.vline(x0, y, top, width=1.1)
        pen.vline(x1, y, top, width=1.1)
        pen.hline(x0, x1, y, width=1.1 if i == n - 1 else 0.4, color=LINE if i == n - 1 else MUTED)

    return Block(rh, draw)


def _draw_team_cell(pen: Pen, x: float, y: float, w: float, h: float, line: dict) -> None:
    """The team name, with its affiliation small under it when there is one."""
    if line["affiliation"]:
        draw_fitted(
            pen,
            x,
            y + h * 0.36,
            w,
            h * 0.64,
            line["team"],
            max_size=11,
            min_size=8.5,
            align="left",
            bold=True,
            pad=1.2 * mm,
        )
        draw_fitted(
            pen,
            x,
            y + 0.3 * mm,
            w,
            h * 0.38,
            line["affiliation"],
            max_size=7.5,
            min_size=5,
            align="left",
            color=MUTED,
            pad=1.2 * mm,
            max_lines=1,
        )
    else:
        draw_fitted(pen, x, y, w, h, line["team"], max_size=11, min_size=6, align="left", bold=True, pad=1.2 * mm)


def _cross_cell(pen: Pen, x: float, y: float, w: float, h: float, text: str) -> None:
    if not text:
        return
    mark, _, rest = text.partition(" ")
    if mark and all(ch in _MARKS for ch in mark) and rest:
        ms = min(13.0, h * 0.45, shrink(pen, mark, w - 1 * mm, 13))
        pen.text_mid(x + w / 2, y + h * 0.66, mark, ms, align="center", bold=mark[0] in "○◯", color=INK)
        draw_fitted(
            pen, x, y + 0.4 * mm, w, h * 0.42, rest.strip(), max_size=8, min_size=4.5, pad=0.5 * mm, max_lines=1
        )
    elif len(text) == 1 and text in _MARKS:
        pen.text_mid(x + w / 2, y + h / 2, text, min(14.0, h * 0.55), align="center")
    else:
        draw_fitted(pen, x, y, w, h, text, max_size=8.5, min_size=4.5, pad=0.5 * mm)
