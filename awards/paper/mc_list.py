"""表彰式の読み上げ: the MC's list, A4 portrait, large type, furigana as ruby above each name.

Input: :class:`tournament.paper.data.EventInfo` and :class:`CallDivision` records (plain data,
from ``awards.ceremony``); output: PDF bytes. A call (a prize, its team and the names) is never
split across pages. Of Django only translation: the labels are in the active language.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    MARGIN,
    PORTRAIT,
    Block,
    Page,
    Section,
    draw_page_header,
    header_height,
    heading_block,
    message_row,
    sections_pdf,
)
from common.pdf.pen import MUTED, SHADE, Pen, draw_fitted, shrink
from common.pdf.text import checked, split_name, wrap
from tournament.paper.data import EventInfo, event_document, prepare_event

__all__ = ["CallDivision", "CallLine", "CallMember", "mc_list_pdf"]

NAME_SIZE = 16  # points: the names the MC reads out
RUBY_SIZE = 10  # points: the furigana above them (large enough to read at arm's length)
PRIZE_W = 34 * mm
ROW_H = 14 * mm
TEAM_H = 10 * mm
TEAM_SIZE = 14  # points: a team's name
TEAM_MIN = 13  # points: a longer team name wraps rather than shrink below this
AFFILIATION_SIZE = 10  # points
LEADING = 1.2
WARN = (0.70, 0.10, 0.10)  # 「よみがな未登録」 where the furigana would be


def _reading(member: CallMember) -> str:
    """What is printed above the name: its furigana, or 「よみがな未登録」 (issue 19 re-check)."""
    return _("no reading registered") if member.no_reading else member.furigana


@dataclass(frozen=True)
class CallMember:
    """A name to read: ``furigana`` in kana ("" = none given)."""

    name: str
    furigana: str = ""

    @property
    def no_reading(self) -> bool:
        """True when no furigana is registered (blank counts as none): the MC must ask."""
        return not self.furigana.strip()


@dataclass(frozen=True)
class CallLine:
    """One call of the ceremony: the ``prize`` (「第3位」「個人賞」), a ``note`` (a tie), the
    ``team`` and its ``affiliation``, the ``members`` who go up, and ``font_notes``: the
    characters no installed font prints, in words (the page shows them; the PDF does not)."""

    prize: str
    note: str
    team: str
    affiliation: str
    members: list[CallMember] = field(default_factory=list)
    font_notes: tuple[str, ...] = ()
    label: str = ""  # the prize in the page's language (``prize`` stays as the MC reads it)


@dataclass(frozen=True)
class CallDivision:
    """A division's calls in ceremony order; ``note``: why it has no places yet ("" = none)."""

    name: str
    note: str
    lines: list[CallLine] = field(default_factory=list)


def _cells(pen: Pen, members: list[CallMember], width: float) -> list[list[tuple[CallMember, float]]]:
    """The members laid out in rows of cells ``(member, cell width)`` within ``width``."""
    rows, row, used = [], [], 0.0
    for m in members:
        cell = min(width, max(pen.width(m.name, NAME_SIZE), pen.width(_reading(m), RUBY_SIZE)) + 8 * mm)
        if row and used + cell > width:
            rows.append(row)
            row, used = [], 0.0
        row.append((m, cell))
        used += cell
    if row:
        rows.append(row)
    return rows


@dataclass(frozen=True)
class _Team:
    """How a call's team is set: ``size`` (points), its ``lines``, the affiliation beside it
    (``inline``) or on a line below, and the ``height`` (points) the team takes."""

    size: float
    lines: list[str]
    inline: bool
    height: float


def _team(pen: Pen, team: str, affiliation: str, width: float) -> _Team:
    """The team at ``TEAM_SIZE`` in 60 % of ``width`` with the affiliation beside it, shrunk
    to ``TEAM_MIN`` at most; else on the whole width with the affiliation below; else on two
    lines (cut at a natural point), else wrapped at ``TEAM_MIN``: a long team name is never
    set unreadably small (issue 19 fix)."""
    beside = shrink(pen, team, width * 0.6 if affiliation else width, TEAM_SIZE)
    if beside >= TEAM_MIN:
        return _Team(beside, [team], True, TEAM_H)
    size, lines = shrink(pen, team, width, TEAM_SIZE), [team]
    if size < TEAM_MIN:
        lines = split_name(team, pen.font)
        size = min(TEAM_SIZE, width / max(pen.width(part, 1.0) or 1.0 for part in lines))
    if size < TEAM_MIN:
        size, lines = TEAM_MIN, wrap(team, pen.font, TEAM_MIN, width)
    height = TEAM_H + (len(lines) - 1) * size * LEADING + (AFFILIATION_SIZE * LEADING + 1.5 * mm if affiliation else 0)
    return _Team(size, lines, False, height)


def _call_block(pen: Pen, x0: float, w: float, line: CallLine) -> Block:
    """A call: the prize at the left (shaded), then the team and the rows of names with ruby."""
    body_x, body_w = x0 + PRIZE_W + 3 * mm, w - PRIZE_W - 3 * mm
    rows = _cells(pen, line.members, body_w)
    team = _team(pen, line.team, line.affiliation, body_w)
    height = team.height + max(len(rows), 1) * ROW_H + 2 * mm

    def draw(pen: Pen, top: float) -> None:
        y = top - height
        pen.rect(x0, y, PRIZE_W, height, fill=SHADE, stroke=None)
        prize_h = height - (6 * mm if line.note else 0)
        draw_fitted(pen, x0, y + height - prize_h, PRIZE_W, prize_h, line.prize, max_size=18, min_size=9, bold=True)
        if line.note:
            draw_fitted(pen, x0, y + 1 * mm, PRIZE_W, 5 * mm, line.note, max_size=8.5, min_size=6, color=MUTED)
        team_base = top - TEAM_H + 3 * mm
        for i, text in enumerate(team.lines):
            pen.text(body_x, team_base - i * team.size * LEADING, text, team.size, bold=True)
        if line.affiliation and team.inline:
            ax = body_x + pen.width(line.team, team.size) + 4 * mm
            aw = body_x + body_w - ax
            pen.text(ax, team_base, line.affiliation, shrink(pen, line.affiliation, aw, AFFILIATION_SIZE), color=MUTED)
        elif line.affiliation:
            ay = team_base - (len(team.lines) - 1) * team.size * LEADING - AFFILIATION_SIZE * LEADING
            size = shrink(pen, line.affiliation, body_w, AFFILIATION_SIZE)
            pen.text(body_x, ay, line.affiliation, size, color=MUTED)
        for r, row in enumerate(rows):
            base = top - team.height - (r + 1) * ROW_H + 3 * mm
            x = body_x
            for member, cell in row:
                cx = x + cell / 2
                name_size = shrink(pen, member.name, cell - 2 * mm, NAME_SIZE)
                pen.text(cx, base, member.name, name_size, align="center")
                reading, color = _reading(member), WARN if member.no_reading else MUTED
                ruby = shrink(pen, reading, cell - 2 * mm, RUBY_SIZE)
                pen.text(cx, base + name_size * 0.95 + 1 * mm, reading, ruby, align="center", color=color)
                x += cell
        pen.hline(x0, x0 + w, y, width=0.5, color=MUTED)

    return Block(height, draw)


def _prepared(divisions: list[CallDivision]) -> list[CallDivision]:
    """The records with every text checked for the font (a missing character prints as 〓)."""
    return [
        CallDivision(
            checked(d.name, f"divisions[{i}].name"),
            checked(d.note, f"divisions[{i}].note"),
            [
                CallLine(
                    checked(c.prize, f"divisions[{i}].prize"),
                    checked(c.note, f"divisions[{i}].note"),
                    checked(c.team, f"divisions[{i}].team"),
                    checked(c.affiliation, f"divisions[{i}].affiliation"),
                    [CallMember(checked(m.name, "name"), checked(m.furigana, "furigana")) for m in c.members],
                )
                for c in d.lines
            ],
        )
        for i, d in enumerate(divisions)
    ]


def mc_list_pdf(event: EventInfo, divisions: list[CallDivision]) -> bytes:
    """表彰式の読み上げ, A4 portrait: per division a ▽ heading, then one block per call in the
    order given (the ceremony's), names at 16 pt under their furigana at 10 pt (「よみがな未登録」
    in red where none is registered: the MC asks before the ceremony); a division without
    places says why under its heading. Returns the PDF bytes."""
    font = japanese_font()
    ev = prepare_event(event)
    size = PORTRAIT
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    title = _("Awards ceremony: the MC's list")
    notes = [_("Read from the top: each prize, the team, then the names (furigana above each name).")]
    top0 = ph - header_height(1)

    def page_factory(index: int, _size=None) -> tuple[Page, float]:
        return Page(size, lambda pen: draw_page_header(pen, size, title, ev, notes)), top0

    measure = Pen(None, font)  # widths only: no canvas needed
    sections = []
    for d in _prepared(divisions):

        def heading(continued: bool, label=f"▽{d.name}") -> Block:
            return heading_block(x0, w, label + (_(" (continued)") if continued else ""))

        blocks = [_call_block(measure, x0, w, line) for line in d.lines]
        if d.note:
            blocks.insert(0, message_row(x0, w, d.note, 10 * mm))
        if not blocks:
            blocks.append(message_row(x0, w, _("No prizes."), 10 * mm))
        sections.append(Section(heading, None, blocks, keep_together=False, gap_after=6 * mm))
    if not sections:
        sections.append(Section(None, None, [message_row(x0, w, _("No divisions."), 14 * mm)]))
    return sections_pdf(sections, page_factory, event_document(ev, title), font)
