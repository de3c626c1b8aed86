"""大会プログラム: the booklet handed to everyone on the day (A4 portrait, optionally imposed
2-up on A3 for folding).

Input: :class:`tournament.paper.data.EventInfo`, the :class:`ProgrammeCover` texts, the
sections wanted (:data:`SECTIONS`, in print order), the day's schedule
(:class:`ScheduleItem`), the 注意事項 paragraphs, the groups (:class:`ProgrammeGroup`), and
the inputs of the court timetables (:func:`tournament.paper.timetable.court_timetable_pages`)
and of the bracket (:func:`tournament.paper.bracket.bracket_pages`), which lay out the same
pages as the 対戦表 and the トーナメント表 (one renderer, not a copy).  Output: PDF bytes whose
contents page gives each section's first page, the number printed in its footer
(「3 / 12」; the cover counts as page 1 and has no footer).  The stage after the groups
is printed as it stands: before the groups end its sides are their slots' words
(「Aリーグ 1位」), an empty bracket.  Layout rules: ``docs/rules/paper.md``; the booklet:
``docs/programme.md``.  Of Django only translation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A3, landscape
from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    MARGIN,
    PORTRAIT,
    Block,
    Masthead,
    Page,
    Section,
    cols_x,
    draw_page_header,
    header_height,
    header_row,
    heading_block,
    message_row,
    pages_pdf,
    paginate,
    paper_language,
    scale_cols,
)
from common.pdf.pen import HINT, INK, MUTED, ZEBRA, Pen, draw_fitted, shrink
from common.pdf.qr import draw_qr, qr_modules
from common.pdf.text import checked, wrap, wrap_items
from tournament.paper.bracket import BracketMatch, PlacementGame, bracket_pages
from tournament.paper.data import EventInfo, event_document, prepare_event
from tournament.paper.timetable import TimetableMatch, court_timetable_pages

__all__ = [
    "DEFAULT_SECTIONS",
    "SECTIONS",
    "ProgrammeCover",
    "ProgrammeGroup",
    "ProgrammeStaff",
    "ProgrammeTeam",
    "ScheduleItem",
    "impose_booklet",
    "programme_pdf",
    "section_title",
]

SECTIONS = ("cover", "contents", "schedule", "notes", "groups", "timetables", "bracket", "staff")
# printed when no section is named: the staff section prints adults' names the people app keeps
# off public pages (docs/people.md "Privacy"), so the organiser asks for it (docs/programme.md)
DEFAULT_SECTIONS = tuple(s for s in SECTIONS if s != "staff")
MOST_COURTS = 9  # courts side by side in one referees' table (A4 portrait)


@dataclass(frozen=True)
class ProgrammeCover:
    """The cover's texts: ``title`` ("" = the event's name), ``organiser`` (主催) and
    ``supporters`` (後援, one per line), and ``url`` (the public pages, printed as a QR code
    and as text; "" = no QR code; ASCII, ``docs/rules/paper.md``)."""

    title: str = ""
    organiser: str = ""
    supporters: str = ""
    url: str = ""


@dataclass(frozen=True)
class ScheduleItem:
    """A line of the day's schedule: ``time`` as printed (「9:30」 or 「9:45〜11:30」) and what
    happens then (「開会式」, 「予選リーグ（小学生の部）」)."""

    time: str
    text: str


@dataclass(frozen=True)
class ProgrammeTeam:
    """A team in a group: entry number, name, affiliation (school or 子ども会) and the players'
    names (empty unless the event publishes names: the booklet is handed to everyone)."""

    entry_number: int
    name: str
    affiliation: str
    players: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ProgrammeGroup:
    """A group of a division with its court ("" = not yet on a court) and teams in seat order."""

    division: str
    group: str
    court: str
    teams: list[ProgrammeTeam]


@dataclass(frozen=True)
class ProgrammeStaff:
    """The staff section's contents: ``referees`` as (name, club) pairs; the referees' table
    (``courts``: its column headings; ``rows``: (time, a cell per court), "" = no game there);
    the roster's ``duties`` as (role, time, names) lines.  Empty (no referee, no duty): the
    section is left out."""

    referees: list[tuple[str, str]] = field(default_factory=list)
    courts: list[str] = field(default_factory=list)
    rows: list[tuple[str, list[str]]] = field(default_factory=list)
    duties: list[tuple[str, str, list[str]]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.referees or self.duties)


def programme_pdf(
    event: EventInfo,
    cover: ProgrammeCover,
    *,
    sections: list[str] | tuple[str, ...] = SECTIONS,
    schedule: list[ScheduleItem] = (),
    notes: list[str] = (),
    groups: list[ProgrammeGroup] = (),
    courts: list[tuple[str, list[TimetableMatch]]] = (),
    brackets: list[tuple[str, list[BracketMatch], list[BracketMatch]]] = (),
    placements: list[tuple[str, list[PlacementGame]]] = (),
    staff: ProgrammeStaff | None = None,
    booklet: bool = False,
) -> bytes:
    """The 大会プログラム as PDF bytes: the ``sections`` wanted (names of :data:`SECTIONS`,
    always printed in that order), each starting on a new page.  ``staff`` empty or None:
    the staff section is left out, from the contents too (asked for alone, one page says
    there is none).  ``booklet``: the pages imposed 2-up on A3 landscape for folding
    (:func:`impose_booklet`).  Raises ``ValueError`` for an unknown section name or no
    section; a character the font lacks prints from a fallback font or as 〓."""
    unknown = [s for s in sections if s not in SECTIONS]
    if unknown:
        raise ValueError(f"unknown programme section(s): {', '.join(unknown)}")
    wanted = [s for s in SECTIONS if s in sections]
    if not wanted:
        raise ValueError("no programme section chosen")
    if "staff" in wanted and not staff and len(wanted) > 1:
        wanted.remove("staff")
    font = japanese_font()
    ev = prepare_event(event)
    title = checked(cover.title, "cover.title") or ev.title
    badge = _("Programme")
    parts: dict[str, list[Page]] = {}
    if "cover" in wanted:
        parts["cover"] = [_cover_page(ev, title, event, cover)]
    if "schedule" in wanted:
        parts["schedule"] = _simple_pages(ev, badge, _schedule_sections(schedule))
    if "notes" in wanted:
        parts["notes"] = _simple_pages(ev, badge, _notes_sections(font, notes))
    if "groups" in wanted:
        parts["groups"] = _simple_pages(ev, badge, _group_sections(groups))
    if "timetables" in wanted:
        parts["timetables"] = court_timetable_pages(ev, list(courts), compact=True)
    if "bracket" in wanted:
        parts["bracket"] = bracket_pages(ev, list(brackets), list(placements))
    if "staff" in wanted:
        parts["staff"] = _simple_pages(ev, badge, _staff_sections(font, staff or ProgrammeStaff()))
    if "contents" in wanted:
        parts["contents"] = [Page(PORTRAIT, lambda pen: None)]  # placeholder, one page
    # page numbers: the cover is page 1
    starts: dict[str, int] = {}
    number = 1
    for name in wanted:
        starts[name] = number
        number += len(parts[name])
    if "contents" in wanted:
        parts["contents"] = [_contents_page(ev, badge, [(section_title(n), starts[n]) for n in wanted])]
    pages = [page for name in wanted for page in parts[name]]
    doc = event_document(ev, _("Programme"))
    doc = type(doc)(
        title=f"{title} {_('Programme')}",
        subject=doc.subject,
        keywords=doc.keywords,
        footer_left=doc.footer_left,
        footer_mid=doc.footer_mid,
    )
    data = pages_pdf(pages, doc, font)
    return impose_booklet(data) if booklet else data


def section_title(name: str) -> str:
    """The title of section ``name`` of :data:`SECTIONS` in the active language (the contents page, the print page)."""
    return {
        "cover": _("Cover"),
        "contents": _("Contents"),
        "schedule": _("Schedule of the day"),
        "notes": _("Notes for players and families"),
        "groups": _("Groups and teams"),
        "timetables": _("Court timetable"),
        "bracket": _("Bracket"),
        "staff": _("Referees and duties"),
    }[name]


def _simple_pages(ev: Masthead, badge: str, sections: list[Section]) -> list[Page]:
    top0 = PORTRAIT[1] - header_height()

    def new_page(index: int, _size=None) -> tuple[Page, float]:
        return Page(PORTRAIT, lambda pen: draw_page_header(pen, PORTRAIT, badge, ev)), top0

    if sections:
        sections[0].page_break_before = True
    return paginate(sections, new_page)


def _cover_page(ev: Masthead, title: str, event: EventInfo, cover: ProgrammeCover) -> Page:
    pw, ph = PORTRAIT
    x0, w = MARGIN + 8 * mm, pw - 2 * (MARGIN + 8 * mm)
    organiser = checked(cover.organiser, "cover.organiser")
    supporters = [checked(s, "cover.supporters") for s in cover.supporters.splitlines() if s.strip()]
    # the edition is printed on its own line above the name (「第12回」), not in the title
    name = title
    edition = ""
    if event.edition and title == ev.title:
        edition = ev.title[: len(ev.title) - len(checked(event.name, "event.name"))].strip()
        name = checked(event.name, "event.name") if edition else title

    def draw(pen: Pen) -> None:
        pen.rect(MARGIN, MARGIN, pw - 2 * MARGIN, ph - 2 * MARGIN, stroke=INK, width=2.2, radius=3 * mm)
        pen.rect(MARGIN + 2.5 * mm, MARGIN + 2.5 * mm, pw - 2 * MARGIN - 5 * mm, ph - 2 * MARGIN - 5 * mm, width=0.5)
        y = ph - 70 * mm
        if edition:
            pen.text(pw / 2, y, edition, 24, align="center", bold=True)
            y -= 12 * mm
        draw_fitted(pen, x0, y - 34 * mm, w, 34 * mm, name, max_size=40, min_size=16, bold=True, max_lines=2)
        y -= 46 * mm
        pen.text(pw / 2, y, _("Programme"), 20, align="center", color=MUTED)
        y -= 22 * mm
        for line in (ev.date, ev.venue_text):
            if line:
                pen.text(pw / 2, y, line, shrink(pen, line, w, 16), align="center")
                y -= 10 * mm
        y -= 6 * mm
        for label, values in ((_("Organised by"), [organiser] if organiser else []), (_("Supported by"), supporters)):
            if not values:
                continue
            for i, value in enumerate(values):
                text = f"{label}　{value}" if i == 0 else value
                lw = pen.width(f"{label}　", 12)
                x = pw / 2 - 60 * mm
                pen.text(x + (0 if i == 0 else lw), y, text, shrink(pen, text, 120 * mm, 12))
                y -= 7 * mm
            y -= 3 * mm
        if cover.url:
            size = 34 * mm
            qx, qy = pw / 2 - size / 2, MARGIN + 24 * mm
            draw_qr(pen, qr_modules(cover.url), qx, qy, size)
            hint = _("Timetable and results on your phone")
            pen.text(pw / 2, qy - 5 * mm, hint, 10, align="center")
            pen.text(pw / 2, qy - 10 * mm, cover.url, shrink(pen, cover.url, w, 8), align="center", color=MUTED)

    return Page(PORTRAIT, lambda pen: None, extra=[draw], footer=False)


def _contents_page(ev: Masthead, badge: str, entries: list[tuple[str, int]]) -> Page:
    pw, ph = PORTRAIT
    x0, w = MARGIN + 10 * mm, pw - 2 * (MARGIN + 10 * mm)
    top0 = ph - header_height()

    def draw(pen: Pen) -> None:
        y = top0 - 14 * mm
        pen.text(pw / 2, y, _("Contents"), 20, align="center", bold=True)
        y -= 18 * mm
        for text, number in entries:
            page = str(number)
            tw = pen.width(text, 13)
            nw = pen.width(page, 13)
            pen.text(x0, y, text, 13)
            pen.text(x0 + w, y, page, 13, align="right", bold=True)
            pen.line(x0 + tw + 3 * mm, y + 1.2 * mm, x0 + w - nw - 3 * mm, y + 1.2 * mm, color=HINT, dash=(1, 2))
            y -= 11 * mm

    return Page(PORTRAIT, lambda pen: draw_page_header(pen, PORTRAIT, badge, ev), extra=[draw])


def _schedule_sections(schedule: list[ScheduleItem]) -> list[Section]:
    x0, w = MARGIN, PORTRAIT[0] - 2 * MARGIN
    widths = scale_cols([45, 135], w)
    xs = cols_x(x0, widths)
    heading = lambda continued: heading_block(x0, w, _("Schedule of the day"), size=15, height=13 * mm)  # noqa: E731
    header = header_row(x0, [(_("Time"), widths[0]), (_("Programme item"), widths[1])], 8 * mm, size=10)
    rows: list[Block] = []
    for i, item in enumerate(schedule):
        time, text = checked(item.time, f"schedule[{i}].time"), checked(item.text, f"schedule[{i}].text")
        rows.append(_two_col_row(xs, time, text, 13 * mm, i))
    if not rows:
        rows = [message_row(x0, w, _("No schedule yet."), 14 * mm)]
    return [Section(heading, header, rows)]


def _two_col_row(xs: list[float], left: str, right: str, rh: float, index: int) -> Block:
    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        if index % 2:
            pen.rect(xs[0], y, xs[-1] - xs[0], rh, fill=ZEBRA, stroke=None)
        draw_fitted(pen, xs[0], y, xs[1] - xs[0], rh, left, max_size=15, min_size=8, bold=True, max_lines=1)
        draw_fitted(pen, xs[1], y, xs[2] - xs[1], rh, right, max_size=14, min_size=8, align="left", pad=4 * mm)
        pen.hline(xs[0], xs[-1], y, width=0.5, color=MUTED)
        pen.vline(xs[1], y, top, width=0.4, color=MUTED)

    return Block(rh, draw)


def _notes_sections(font: str, notes: list[str]) -> list[Section]:
    x0, w = MARGIN, PORTRAIT[0] - 2 * MARGIN
    size, lead = 11.5, 6.4 * mm
    heading = lambda continued: heading_block(x0, w, _("Notes for players and families"), size=15, height=13 * mm)  # noqa: E731
    rows: list[Block] = []
    for i, note in enumerate(n for n in notes if n.strip()):
        mark = f"{i + 1}."
        lines = wrap(checked(note.strip(), f"notes[{i}]"), font, size, w - 9 * mm)

        def draw(pen: Pen, top: float, lines=lines, mark=mark) -> None:
            y = top - lead + 1.5 * mm
            pen.text(x0, y, mark, size, bold=True)
            for line in lines:
                pen.text(x0 + 9 * mm, y, line, size)
                y -= lead

        rows.append(Block(lead * len(lines) + 2.5 * mm, draw))
    if not rows:
        rows = [message_row(x0, w, _("No notes."), 14 * mm)]
    return [Section(heading, None, rows, keep_together=False)]


def _group_sections(groups: list[ProgrammeGroup]) -> list[Section]:
    x0, w = MARGIN, PORTRAIT[0] - 2 * MARGIN
    with_players = any(t.players for g in groups for t in g.teams)
    widths = scale_cols([12, 50, 50, 74] if with_players else [12, 80, 94], w)
    xs = cols_x(x0, widths)
    labels = [_("No."), _("Team"), _("Affiliation")] + ([_("Players")] if with_players else [])
    title = heading_block(x0, w, section_title("groups"), size=15, height=13 * mm)
    sections: list[Section] = [Section(None, None, [title], gap_after=1 * mm)]
    previous = None
    for gi, g in enumerate(groups):
        what = f"groups[{gi}]"
        division = checked(g.division, f"{what}.division")
        group = checked(g.group, f"{what}.group")
        court = checked(g.court, f"{what}.court")
        if division != previous:
            sections.append(
                Section(
                    None,
                    None,
                    [heading_block(x0, w, division, size=16, height=13 * mm)],
                    page_break_before=previous is not None,
                    keep_together=True,
                    gap_after=1 * mm,
                )
            )
            previous = division
        heading = _group_heading(x0, w, group, court)  # the court's name says 「第1コート」 / "Court 1"
        header = header_row(x0, list(zip(labels, widths, strict=True)), 7 * mm, size=9)
        rows = []
        for ti, t in enumerate(g.teams):
            cells = [
                str(t.entry_number or ""),
                checked(t.name, f"{what}.teams[{ti}].name"),
                checked(t.affiliation, f"{what}.teams[{ti}].affiliation"),
            ]
            if with_players:
                cells.append("・".join(checked(p, f"{what}.teams[{ti}].players") for p in t.players))
            rows.append(_team_row(xs, cells, ti))
        if not rows:
            rows = [message_row(x0, w, _("No teams in this group yet."), 10 * mm)]
        sections.append(Section(heading, header, rows, gap_after=4 * mm))
    if not groups:
        sections.append(Section(None, None, [message_row(x0, w, _("No groups drawn yet."), 14 * mm)]))
    return sections


def _group_heading(x0: float, w: float, group: str, right: str) -> Callable[[bool], Block]:
    def heading(continued: bool) -> Block:
        text = group + (_(" (continued)") if continued else "")
        return heading_block(x0, w, text, right, size=12.5, height=9 * mm)

    return heading


def _team_row(xs: list[float], cells: list[str], index: int) -> Block:
    rh = 9 * mm

    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        if index % 2:
            pen.rect(xs[0], y, xs[-1] - xs[0], rh, fill=ZEBRA, stroke=None)
        for i, text in enumerate(cells):
            bold = i == 1
            draw_fitted(
                pen,
                xs[i],
                y,
                xs[i + 1] - xs[i],
                rh,
                text,
                max_size=11.5 if i == 1 else 10,
                min_size=5.5,
                bold=bold,
                align="center" if i == 0 else "left",
                pad=1.5 * mm,
            )
        pen.hline(xs[0], xs[-1], y, width=0.4, color=MUTED)

    return Block(rh, draw)


def _staff_sections(font: str, staff: ProgrammeStaff) -> list[Section]:
    """審判・係分担: the referees (three to a row), the referees' table (a row per start
    time, a column per court, at most :data:`MOST_COURTS` courts to a table) and the duty
    roster's lines (係, time, names)."""
    x0, w = MARGIN, PORTRAIT[0] - 2 * MARGIN
    title = heading_block(x0, w, section_title("staff"), size=15, height=13 * mm)
    sections: list[Section] = [Section(None, None, [title], gap_after=1 * mm)]
    if staff.referees:
        per_row, rh = 3, 10.5 * mm
        xs = cols_x(x0, [w / per_row] * per_row)
        cells = [
            (checked(name, f"referees[{i}].name"), checked(club, f"referees[{i}].club"))
            for i, (name, club) in enumerate(staff.referees)
        ]
        rows = [_referee_names_row(xs, cells[i : i + per_row], rh) for i in range(0, len(cells), per_row)]
        heading = _sub_heading(x0, w, _("Referees"), _("%(count)d referees") % {"count": len(cells)})
        sections.append(Section(heading, None, rows, gap_after=4 * mm))
    columns = [checked(c, f"courts[{i}]") for i, c in enumerate(staff.courts)]
    for chunk in _chunks(len(columns)):
        names = [columns[i] for i in chunk]
        widths = scale_cols([16] + [28] * len(names), w if len(names) > 3 else w * (0.25 + 0.25 * len(names)))
        xs = cols_x(x0, widths)
        header = header_row(x0, list(zip([_("Time"), *names], widths, strict=True)), 8 * mm, size=9)
        rows = []
        for ri, (time, cells) in enumerate(staff.rows):
            texts = [checked(time, f"rows[{ri}].time")] + [
                checked(cells[i], f"rows[{ri}].cells[{i}]") if i < len(cells) else "" for i in chunk
            ]
            rows.append(_grid_row(xs, texts, ri))
        heading = _sub_heading(x0, w, _("Referees by court"))
        sections.append(Section(heading, header, rows, gap_after=4 * mm))
    if staff.duties:
        widths = scale_cols([30, 52, 104], w)
        xs = cols_x(x0, widths)
        header = header_row(x0, list(zip([_("Duty"), _("Time"), _("Who")], widths, strict=True)), 8 * mm, size=9)
        rows = []
        for i, (role, time, people) in enumerate(staff.duties):
            who = wrap_items([checked(p, f"duties[{i}].names") for p in people], "、", font, 10, widths[2] - 3 * mm)
            cells = [checked(role, f"duties[{i}].role"), checked(time, f"duties[{i}].time")]
            rows.append(_duty_row(xs, cells, who, i))
        sections.append(Section(_sub_heading(x0, w, _("Duty roster")), header, rows, keep_together=False))
    if len(sections) == 1:
        sections.append(Section(None, None, [message_row(x0, w, _("No referees or duty roster yet."), 14 * mm)]))
    return sections


def _chunks(courts: int) -> list[range]:
    """The courts split into tables of at most :data:`MOST_COURTS`, as even as possible."""
    tables = -(-courts // MOST_COURTS) if courts else 0
    size, extra = divmod(courts, tables) if tables else (0, 0)
    found, start = [], 0
    for i in range(tables):
        end = start + size + (1 if i < extra else 0)
        found.append(range(start, end))
        start = end
    return found


def _sub_heading(x0: float, w: float, text: str, right: str = "") -> Callable[[bool], Block]:
    def heading(continued: bool) -> Block:
        return heading_block(x0, w, text + (_(" (continued)") if continued else ""), right, size=12.5, height=9 * mm)

    return heading


def _referee_names_row(xs: list[float], cells: list[tuple[str, str]], rh: float) -> Block:
    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        for i, (name, club) in enumerate(cells):
            cw = xs[i + 1] - xs[i]
            if club:
                draw_fitted(pen, xs[i], y + rh * 0.42, cw, rh * 0.58, name, max_size=11, min_size=6, bold=True,
                            align="left", max_lines=1, vpad=0)  # fmt: skip
                draw_fitted(pen, xs[i], y, cw, rh * 0.45, club, max_size=8, min_size=6, align="left", color=MUTED,
                            max_lines=1, vpad=0)  # fmt: skip
            else:
                draw_fitted(pen, xs[i], y, cw, rh, name, max_size=11, min_size=6, bold=True, align="left", max_lines=1)
        pen.hline(xs[0], xs[-1], y, width=0.4, color=MUTED)

    return Block(rh, draw)


def _grid_row(xs: list[float], cells: list[str], index: int) -> Block:
    rh = 8 * mm

    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        if index % 2:
            pen.rect(xs[0], y, xs[-1] - xs[0], rh, fill=ZEBRA, stroke=None)
        for i, text in enumerate(cells):
            draw_fitted(pen, xs[i], y, xs[i + 1] - xs[i], rh, text, max_size=10 if i else 10.5, min_size=5.5,
                        bold=i == 0, pad=1 * mm)  # fmt: skip
            if i:
                pen.vline(xs[i], y, top, width=0.4, color=MUTED)
        pen.hline(xs[0], xs[-1], y, width=0.4, color=MUTED)

    return Block(rh, draw)


def _duty_row(xs: list[float], cells: list[str], who: list[str], index: int) -> Block:
    """A roster line: the role and its time fitted, the names wrapped at 10 pt (a name is
    never split nor cut: the row grows)."""
    lead = 4.6 * mm
    rh = max(8.5 * mm, lead * len(who) + 3.5 * mm)

    def draw(pen: Pen, top: float) -> None:
        y = top - rh
        if index % 2:
            pen.rect(xs[0], y, xs[-1] - xs[0], rh, fill=ZEBRA, stroke=None)
        for i, text in enumerate(cells):
            draw_fitted(pen, xs[i], y, xs[i + 1] - xs[i], rh, text, max_size=11 if i == 0 else 9.5, min_size=6,
                        bold=i == 0, align="left", pad=1.5 * mm)  # fmt: skip
        ly = y + rh / 2 + lead * (len(who) - 1) / 2
        for line in who:
            pen.text_mid(xs[2] + 1.5 * mm, ly, line, 10)
            ly -= lead
        pen.hline(xs[0], xs[-1], y, width=0.4, color=MUTED)

    return Block(rh, draw)


# --------------------------------------------------------------------------- booklet


def impose_booklet(data: bytes) -> bytes:
    """The A4 pages of PDF ``data`` imposed for a folded booklet: two pages side by side on
    each A3 landscape sheet side, in saddle-stitch order (sheet 1 front: last page | page 1,
    back: page 2 | second to last ...), the page count padded with blank pages to a
    multiple of 4.  Print both sides (flip on the short edge), fold in the middle.  A
    landscape page (the bracket) is turned a quarter to fit its half.  The title, ``/Lang``
    and every font carry over.  Returns the PDF bytes."""
    from pypdf import PageObject, PdfReader, PdfWriter, Transformation  # noqa: PLC0415 (only the booklet needs it)
    from pypdf.generic import NameObject, TextStringObject  # noqa: PLC0415

    reader = PdfReader(BytesIO(data))
    src = list(reader.pages)
    n = len(src)
    total = -(-n // 4) * 4
    order: list[tuple[int, int]] = []
    for i in range(total // 4):
        order.append((total - 1 - 2 * i, 2 * i))
        order.append((2 * i + 1, total - 2 - 2 * i))
    sheet_w, sheet_h = landscape(A3)
    half = sheet_w / 2
    writer = PdfWriter()
    for left, right in order:
        out = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        for slot, index in ((0, left), (1, right)):
            if index >= n:
                continue
            page = src[index]
            pw, ph = float(page.mediabox.width), float(page.mediabox.height)
            ox = slot * half
            if pw > ph:  # landscape: a quarter turn
                s = min(half / ph, sheet_h / pw)
                t = Transformation().scale(s).rotate(90).translate(ox + (half + ph * s) / 2, (sheet_h - pw * s) / 2)
            else:
                s = min(half / pw, sheet_h / ph)
                t = Transformation().scale(s).translate(ox + (half - pw * s) / 2, (sheet_h - ph * s) / 2)
            out.merge_transformed_page(page, t)
        writer.add_page(out)
    if reader.metadata:
        writer.add_metadata({k: v for k, v in reader.metadata.items() if isinstance(v, str)})
    lang = reader.trailer["/Root"].get("/Lang") or paper_language()
    writer._root_object[NameObject("/Lang")] = TextStringObject(str(lang))
    writer.create_viewer_preferences()
    writer.viewer_preferences.display_doctitle = True
    buf = BytesIO()
    writer.write(buf)
    return buf.getvalue()
