"""受付名簿: the check-in list, teams by division with a box per team and per player (A4 portrait).

Input: :class:`tournament.paper.data.EventInfo` and the :class:`ReceptionTeam` list;
output: PDF bytes.  A team block is never split across pages (``docs/rules/paper.md``).
Of Django only translation: every label is in the active language (README "Languages").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import check_glyphs, japanese_font
from common.pdf.layout import (
    MARGIN,
    PORTRAIT,
    Block,
    Page,
    Section,
    cols_x,
    draw_page_header,
    header_height,
    header_row,
    heading_block,
    message_row,
    scale_cols,
    sections_pdf,
)
from common.pdf.pen import (
    INK,
    LINE,
    MUTED,
    SHADE,
    WHITE,
    Pen,
    checkbox,
    draw_fitted,
    shrink,
)
from common.pdf.text import checked
from tournament.paper.data import EventInfo, event_document, prepare_event

__all__ = ["ReceptionPlayer", "ReceptionTeam", "reception_list_pdf"]


@dataclass(frozen=True)
class ReceptionPlayer:
    """A registered player: ``furigana`` in hiragana ("" = none), ``grade`` e.g. 「5年」."""

    name: str
    furigana: str
    grade: str
    is_leader: bool = False
    is_substitute: bool = False
    note: str = ""  # printed under 備考, e.g. an absence a club reported (issue 20 item 4)


@dataclass(frozen=True)
class ReceptionTeam:
    """A team on the 受付名簿: entry number, division, name, affiliation and players."""

    entry_number: int
    division: str
    name: str
    affiliation: str
    players: list[ReceptionPlayer] = field(default_factory=list)


def reception_list_pdf(event: EventInfo, teams: list[ReceptionTeam]) -> bytes:
    """受付名簿 (check-in list), A4 portrait.

    Input: the event and the teams.  Teams are grouped by division (divisions in order of
    first appearance, teams in the order given) under 「▽部門」 headings with team and
    player counts.  Each team is one block that is never split across pages: entry
    number, team name, affiliation and a team check-in box spanning the team's rows; one
    row per player with リーダー / 補欠 marks, the name with its furigana above it, the grade,
    a check-in box and a blank 備考 cell.  A team without registered players gets one
    blank row.  The column header is repeated on every page, the division heading with
    「（続き）」.  Returns the PDF bytes.
    """
    font = japanese_font()
    ev = prepare_event(event)
    by_division: dict[str, list[dict]] = {}
    for ti, t in enumerate(teams):
        w = f"teams[{ti}]"
        players = []
        for pi, p in enumerate(t.players):
            pw_ = f"{w}.players[{pi}]"
            players.append(
                dict(
                    name=checked(p.name, f"{pw_}.name"),
                    furigana=checked(p.furigana, f"{pw_}.furigana"),
                    grade=checked(p.grade, f"{pw_}.grade"),
                    marks=[m for m, on in ((_("leader"), p.is_leader), (_("sub"), p.is_substitute)) if on],
                    leader=p.is_leader,
                    note=checked(p.note, f"{pw_}.note"),
                )
            )
        division = checked(t.division, f"{w}.division")
        by_division.setdefault(division, []).append(
            dict(
                number=str(t.entry_number),
                name=checked(t.name, f"{w}.name"),
                affiliation=checked(t.affiliation, f"{w}.affiliation"),
                players=players,
            )
        )

    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    labels = _labels()
    widths = scale_cols([11, 58, 13, 13, 50, 13, 13, 15], w)
    xs = cols_x(x0, widths)
    notes = [
        _(
            "Tick the □ at check-in. Leader = the team leader, sub = a substitute. Write absences "
            "and changes of players under notes and tell the desk."
        )
    ]
    check_glyphs(notes[0], "note")
    top0 = ph - header_height(1)
    title = _("Check-in list")
    header = header_row(x0, list(zip(labels, widths, strict=True)), 9 * mm, size=8.5)

    def page_factory(index: int, _size=None) -> tuple[Page, float]:
        return Page(size, lambda pen: draw_page_header(pen, size, title, ev, notes)), top0

    sections = []
    for division, dteams in by_division.items():
        n_players = sum(len(t["players"]) for t in dteams)
        right = _("%(teams)s teams, %(players)s players") % {"teams": len(dteams), "players": n_players}
        label = f"▽{division}" if division else "▽" + _("(no division)")

        def heading(continued: bool, label=label, right=right) -> Block:
            return heading_block(x0, w, label + (_(" (continued)") if continued else ""), right)

        blocks = [_reception_block(xs, t) for t in dteams]
        sections.append(Section(heading, header, blocks, keep_together=False, gap_after=6 * mm))
    if not sections:
        sections.append(Section(None, None, [message_row(x0, w, _("No teams registered."), 14 * mm)]))
    doc = event_document(ev, title)
    return sections_pdf(sections, page_factory, doc, font)


def _labels() -> list[str]:
    """The column heads, in the active language."""
    return [
        _("No."),
        _("Team / affiliation"),
        _("Team\nchecked in"),
        _("Role"),
        _("Name (furigana)"),
        _("Grade"),
        _("Player\nchecked in"),
        _("Notes"),
    ]


def _badge(pen: Pen, cx: float, cy: float, label: str, size: float, *, filled: bool) -> None:
    bw = pen.width(label, size) + 2.4 * mm
    bh = size * 1.55
    if filled:
        pen.rect(cx - bw / 2, cy - bh / 2, bw, bh, fill=INK, stroke=None, radius=0.8 * mm)
        pen.text_mid(cx, cy, label, size, align="center", bold=True, color=WHITE)
    else:
        pen.rect(cx - bw / 2, cy - bh / 2, bw, bh, fill=WHITE, stroke=MUTED, width=0.6, radius=0.8 * mm)
        pen.text_mid(cx, cy, label, size, align="center", color=MUTED)


def _reception_block(xs: list[float], team: dict) -> Block:
    """A team's block: number, name and affiliation, a team box, one row per player."""
    rh = 9 * mm
    n = max(len(team["players"]), 1)
    height = max(n * rh, 16 * mm)
    rh = height / n

    def draw(pen: Pen, top: float) -> None:
        y = top - height
        x0, x1 = xs[0], xs[-1]
        # entry number and team cell (spanning the player rows)
        pen.rect(xs[0], y, xs[1] - xs[0], height, fill=SHADE, stroke=None)
        nw = xs[1] - xs[0]
        draw_fitted(
            pen, xs[0], y, nw, height, team["number"], max_size=13, min_size=6, bold=True, max_lines=1, pad=0.8 * mm
        )
        _draw_team_cell(pen, xs[1], y, xs[2] - xs[1], height, team)
        s = 7 * mm
        checkbox(pen, (xs[2] + xs[3]) / 2 - s / 2, y + height / 2 - s / 2, s, width=1.1)
        # player rows
        for i in range(n):
            ry = top - (i + 1) * rh
            if i:
                pen.hline(xs[3], x1, ry + rh, width=0.35, color=MUTED)
            if i < len(team["players"]):
                _draw_player_row(pen, xs, ry, rh, team["players"][i])
        for x in xs[1:-1]:
            pen.vline(x, y, top, width=0.4, color=MUTED)
        pen.rect(x0, y, x1 - x0, height, stroke=LINE, width=1.0)

    return Block(height, draw)


def _draw_team_cell(pen: Pen, x: float, y: float, w: float, h: float, team: dict) -> None:
    """The team name, with its affiliation small under it when there is one."""
    if team["affiliation"]:
        name_h = min(h - 7 * mm, 12 * mm)
        block = name_h + 5.5 * mm
        by = y + (h - block) / 2
        draw_fitted(
            pen,
            x,
            by + 5.5 * mm,
            w,
            name_h,
            team["name"],
            max_size=12.5,
            min_size=9,
            align="left",
            bold=True,
            pad=2 * mm,
        )
        draw_fitted(
            pen,
            x,
            by,
            w,
            5.5 * mm,
            team["affiliation"],
            max_size=8.5,
            min_size=5.5,
            align="left",
            color=MUTED,
            pad=2 * mm,
            max_lines=1,
        )
    else:
        draw_fitted(pen, x, y, w, h, team["name"], max_size=12.5, min_size=7, align="left", bold=True, pad=2 * mm)


def _draw_player_row(pen: Pen, xs: list[float], ry: float, rh: float, p: dict) -> None:
    """Leader (リーダー) / substitute badges, the name under its furigana, the grade and the check-in box."""
    marks = p["marks"]
    for k, m in enumerate(marks):
        cy = ry + rh / 2 + (len(marks) - 1 - 2 * k) * 2.4 * mm
        size = min(7.5 if len(marks) == 1 else 6.5, shrink(pen, m, xs[4] - xs[3] - 3.4 * mm, 7.5))
        _badge(pen, (xs[3] + xs[4]) / 2, cy, m, size, filled=p["leader"] and k == 0)
    nx, nw = xs[4], xs[5] - xs[4]
    if p["furigana"]:
        fs = min(6.5, shrink(pen, p["furigana"], nw - 4 * mm, 6.5))
        pen.text(nx + 2 * mm, ry + rh - 1.3 * mm - fs * 0.9, p["furigana"], fs, color=MUTED)
        draw_fitted(pen, nx, ry, nw, rh - 3.2 * mm, p["name"], max_size=12.5, min_size=7, align="left", pad=2 * mm)
    else:
        draw_fitted(pen, nx, ry, nw, rh, p["name"], max_size=12.5, min_size=7, align="left", pad=2 * mm)
    gw = xs[6] - xs[5]
    draw_fitted(pen, xs[5], ry, gw, rh, p["grade"], max_size=10, min_size=5.5, max_lines=1, pad=0.8 * mm)
    s2 = 5.2 * mm
    checkbox(pen, (xs[6] + xs[7]) / 2 - s2 / 2, ry + rh / 2 - s2 / 2, s2)
    if p["note"]:
        draw_fitted(pen, xs[7], ry, xs[8] - xs[7], rh, p["note"], max_size=8, min_size=5.5, align="left", pad=1 * mm)
