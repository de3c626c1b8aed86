"""Page layout for the printed paper: blocks, sections, pages, header and footer.

A paper is a list of :class:`Section` (a heading, an optional table header and rows of
:class:`Block`); :func:`paginate` lays them out top to bottom on A4 pages, never
splitting a block and repeating the heading and the table header on a continuation page;
:func:`sections_pdf` (or :func:`pages_pdf` for pages laid out by hand) takes the render
lock, renders every page with its header and the 「1 / 3」 footer and returns the PDF bytes.

Lengths are points (``mm`` converts), origin at the bottom left of the page.  Of Django
only the active language (the PDF's ``/Lang``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from io import BytesIO

from django.utils.translation import get_language
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from common.pdf.pen import BAND, HINT, INK, LINE, MUTED, RENDER_LOCK, WHITE, Pen, draw_fitted, shrink
from common.pdf.text import wrap

NOTE_SIZE = 8.2  # points, the notes under the page header

__all__ = [
    "CONTENT_BOTTOM",
    "LANDSCAPE",
    "MARGIN",
    "PORTRAIT",
    "Block",
    "Document",
    "Masthead",
    "Page",
    "Section",
    "cols_x",
    "draw_page_header",
    "header_height",
    "header_row",
    "heading_block",
    "message_row",
    "open_canvas",
    "paper_language",
    "pages_pdf",
    "paginate",
    "scale_cols",
    "sections_pdf",
    "wrap_notes",
]

PORTRAIT = A4
LANDSCAPE = landscape(A4)

MARGIN = 12 * mm
CONTENT_BOTTOM = 15 * mm  # content never goes below this line (footer underneath)
FOOTER_RULE = 10.5 * mm

CREATOR = "ひたち郷土かるた大会 運営システム"


@dataclass(frozen=True)
class Masthead:
    """The event line printed at the top of every page: title, date and venue, as text
    already checked for the font ("" = not printed)."""

    title: str
    date: str
    venue: str
    venue_label: str = "会場"  # the word before the venue, in the paper's language

    @property
    def venue_text(self) -> str:
        """「会場 多賀市民プラザ」, or "" without a venue."""
        return f"{self.venue_label} {self.venue}" if self.venue else ""


@dataclass(frozen=True)
class Document:
    """A paper's PDF metadata (``title``, ``subject``, ``keywords``) and the text of its
    footer, left (e.g. the event title) and middle (e.g. 「対戦表」)."""

    title: str
    subject: str
    keywords: list[str]
    footer_left: str
    footer_mid: str


@dataclass
class Block:
    """A piece of a page that is never split: ``draw(pen, y_top)``; x and width are known
    to the block."""

    height: float
    draw: Callable[[Pen, float], None]


@dataclass
class Section:
    """A heading, an optional table header (repeated after a page break) and rows."""

    heading: Callable[[bool], Block] | None  # continued? -> block
    header: Block | None
    rows: list[Block]
    keep_together: bool = True  # move the whole section to a new page if it fits there
    page_break_before: bool = False
    gap_after: float = 5 * mm
    size: tuple[float, float] | None = None  # paper for this section (None = default)


@dataclass
class Page:
    """One page: its paper ``size`` (points), the ``header`` drawn first, the blocks placed
    on it with the y of their top, and ``extra`` drawings (e.g. a bracket) drawn last."""

    size: tuple[float, float]
    header: Callable[[Pen], None]
    blocks: list[tuple[Block, float]] = field(default_factory=list)
    extra: list[Callable[[Pen], None]] = field(default_factory=list)
    footer: bool = True  # False: no footer (a cover page); it still counts in 「n / total」


def paginate(
    sections: list[Section], new_page: Callable[[int, tuple[float, float] | None], tuple[Page, float]]
) -> list[Page]:
    """Lay the sections out top to bottom; ``new_page(index, size)`` returns a fresh page
    (``size`` None = the document's default paper) and the y of its content top.  Rows
    are atomic; the heading and header are repeated on a continuation page.  A section
    with its own ``size`` starts a new page when the current one has another size."""
    pages: list[Page] = []
    y = 0.0
    size: tuple[float, float] | None = sections[0].size if sections else None

    def start_page() -> None:
        nonlocal y
        page, y = new_page(len(pages), size)
        pages.append(page)

    def place(block: Block) -> None:
        nonlocal y
        pages[-1].blocks.append((block, y))
        y -= block.height

    def fresh_room() -> float:
        _, top = new_page(len(pages), size)
        return top - CONTENT_BOTTOM

    start_page()
    for sec in sections:
        if sec.size is not None and sec.size != pages[-1].size:
            size = sec.size
            if not pages[-1].blocks:
                pages.pop()
            start_page()
        head = ([sec.heading(False)] if sec.heading else []) + ([sec.header] if sec.header else [])
        head_h = sum(b.height for b in head)
        first = sec.rows[0].height if sec.rows else 0.0
        total = head_h + sum(r.height for r in sec.rows)
        room = y - CONTENT_BOTTOM
        if pages[-1].blocks:
            fits = head_h + first <= room + 0.01
            if fits and sec.keep_together and total > room + 0.01 and total <= fresh_room():
                fits = False
            if sec.page_break_before or not fits:
                start_page()
        for b in head:
            place(b)
        rows_here = 0
        for row in sec.rows:
            if row.height > y - CONTENT_BOTTOM + 0.01 and rows_here:
                start_page()
                if sec.heading:
                    place(sec.heading(True))
                if sec.header:
                    place(sec.header)
                rows_here = 0
            place(row)
            rows_here += 1
        y -= sec.gap_after
    return pages


def paper_language() -> str:
    """The ``/Lang`` of a PDF made now: the active Django language's primary tag ("ja",
    "en"), "ja" outside a request or before Django's translation is set up (README
    "Languages": a paper is in the language of the session that asked for it)."""
    try:
        code = get_language()
    except Exception:  # Django not configured (a script using the pen alone)
        code = None
    return (code or "ja").split("-")[0].lower()


def open_canvas(
    buf: BytesIO,
    size: tuple[float, float],
    font: str,
    *,
    title: str,
    subject: str = "",
    keywords: list[str] = (),
    lang: str | None = None,
):
    """A reportlab canvas writing to ``buf`` on paper ``size`` (points), with compressed
    pages, ``font`` as its initial font (so no page refers to an unembedded Helvetica), the
    document language ``lang`` (default :func:`paper_language`), the viewer showing the title
    instead of the file name, and the metadata every paper carries (``title``, the keyword
    「ひたち郷土かるた」 first, then ``keywords``).  Every PDF of the project is opened here."""
    c = Canvas(buf, pagesize=size, pageCompression=1, initialFontName=font, lang=lang or paper_language())
    c.setTitle(title)
    c.setViewerPreference("DisplayDocTitle", "true")
    c.setSubject(subject)
    c.setCreator(CREATOR)
    c.setKeywords(["ひたち郷土かるた", *keywords])
    return c


def sections_pdf(
    sections: list[Section],
    new_page: Callable[[int, tuple[float, float] | None], tuple[Page, float]],
    doc: Document,
    font: str,
) -> bytes:
    """Lay ``sections`` out with :func:`paginate` and render them: the PDF bytes.

    Holds :data:`common.pdf.pen.RENDER_LOCK` while it works.
    """
    with RENDER_LOCK:
        return _render(paginate(sections, new_page), doc, font)


def pages_pdf(pages: list[Page], doc: Document, font: str) -> bytes:
    """Render pages laid out by the caller (at least one): the PDF bytes.

    Holds :data:`common.pdf.pen.RENDER_LOCK` while it works.
    """
    with RENDER_LOCK:
        return _render(pages, doc, font)


def _render(pages: list[Page], doc: Document, font: str) -> bytes:
    buf = BytesIO()
    c = open_canvas(buf, pages[0].size, font, title=doc.title, subject=doc.subject, keywords=doc.keywords)
    pen = Pen(c, font)
    total = len(pages)
    for number, page in enumerate(pages, 1):
        c.setPageSize(page.size)
        page.header(pen)
        for block, y in page.blocks:
            block.draw(pen, y)
        for extra in page.extra:
            extra(pen)
        if page.footer:
            _draw_footer(pen, page.size, doc.footer_left, doc.footer_mid, f"{number} / {total}")
        c.showPage()
    c.save()
    return buf.getvalue()


def _draw_footer(pen: Pen, size: tuple[float, float], left: str, mid: str, right: str) -> None:
    pw, _ = size
    x0, x1 = MARGIN, pw - MARGIN
    pen.hline(x0, x1, FOOTER_RULE, width=0.4, color=HINT)
    y = FOOTER_RULE - 4.2 * mm
    rw = pen.width(right, 9) + 2 * mm
    mw = min(pen.width(mid, 7.5), (x1 - x0) * 0.3) if mid else 0
    lw = (x1 - x0) / 2 - mw / 2 - 4 * mm
    if left:
        pen.text(x0, y, left, shrink(pen, left, lw, 7.5), color=MUTED)
    if mid:
        pen.text((x0 + x1) / 2, y, mid, shrink(pen, mid, mw, 7.5), align="center", color=MUTED)
    pen.text(x1, y, right, min(9, shrink(pen, right, rw, 9)), align="right", bold=True, color=INK)


def draw_page_header(
    pen: Pen, size: tuple[float, float], badge: str, ev: Masthead, note_lines: Sequence[str] = ()
) -> None:
    """Badge with the document title, the event title, date / venue on the right and an
    optional small note under the rule (drawn on every page)."""
    pw, ph = size
    x0, w = MARGIN, pw - 2 * MARGIN
    top = ph - MARGIN
    h = 11 * mm
    bsize = 12.5
    bw = pen.width(badge, bsize) + 6 * mm
    bh = 8 * mm
    by = top - h / 2 - bh / 2
    pen.rect(x0, by, bw, bh, fill=INK, stroke=None, radius=1.2 * mm)
    pen.text_mid(x0 + bw / 2, by + bh / 2, badge, bsize, align="center", bold=True, color=WHITE)
    info = [s for s in (ev.date, ev.venue_text) if s]
    info_w = min(w * 0.34, max((pen.width(s, 9) for s in info), default=0))
    tx = x0 + bw + 3.5 * mm
    tw = w - (tx - x0) - info_w - (4 * mm if info else 0)
    draw_fitted(pen, tx, top - h, tw, h, ev.title, max_size=16, min_size=8, align="left", bold=True, pad=0.4 * mm)
    if len(info) == 1:
        pen.text_mid(x0 + w, top - h / 2, info[0], shrink(pen, info[0], info_w, 9), align="right", color=MUTED)
    elif info:
        for i, s in enumerate(info):
            pen.text_mid(
                x0 + w, top - h / 2 + (2.2 - 4.4 * i) * mm, s, shrink(pen, s, info_w, 9), align="right", color=MUTED
            )
    rule = top - h - 1.2 * mm
    pen.hline(x0, x0 + w, rule, width=1.3, color=INK)
    y = rule - 4.2 * mm
    for line in note_lines:
        pen.text(x0, y, line, shrink(pen, line, w, NOTE_SIZE), color=MUTED)
        y -= 4.2 * mm


def wrap_notes(notes: Sequence[str], font: str, width: float, size: float = NOTE_SIZE) -> list[str]:
    """The note lines of :func:`draw_page_header` wrapped to ``width`` points at ``size``
    (禁則, whole words), so a long note (the ranking order of five divisions) takes more
    lines instead of shrinking under 6 pt; pass the result to both
    :func:`draw_page_header` and :func:`header_height`."""
    return [line for note in notes for line in wrap(note, font, size, width)]


def header_height(note_lines: int = 0) -> float:
    """Distance (points) from the page top to the content top under :func:`draw_page_header`
    with ``note_lines`` lines of notes."""
    return MARGIN + 12.2 * mm + (3 * mm if not note_lines else 1.8 * mm + 4.2 * mm * note_lines)


def heading_block(
    x0: float, w: float, text: str, right: str = "", *, size: float = 13, height: float = 10 * mm
) -> Block:
    """▽ heading of ``height`` points across ``w`` from ``x0``, with a rule under it; the text
    shrinks from ``size`` points to fit; ``right`` is a muted note at the right end."""

    def draw(pen: Pen, top: float) -> None:
        base = top - height + 2.6 * mm
        rw = min(pen.width(right, 9), w * 0.4) if right else 0
        avail = w - rw - (4 * mm if right else 0)
        pen.text(x0, base, text, shrink(pen, text, avail, size), bold=True)
        if right:
            pen.text(x0 + w, base, right, shrink(pen, right, rw, 9), align="right", color=MUTED)
        pen.hline(x0, x0 + w, base - 1.6 * mm, width=0.9, color=INK)

    return Block(height, draw)


def header_row(x0: float, cols: Sequence[tuple[str, float]], height: float, *, size: float = 8.5) -> Block:
    """Grey table header row of ``height`` points: ``cols`` are (label, width in points); a
    label may hold a line break ("チーム\\n受付"); an empty label merges with its neighbours."""

    def draw(pen: Pen, top: float) -> None:
        y = top - height
        total = sum(w for _, w in cols)
        pen.rect(x0, y, total, height, fill=BAND, stroke=None)
        x = x0
        prev = None
        for label, w in cols:
            parts = label.split("\n")
            lead = size * 1.12
            cy = y + height / 2 + lead * (len(parts) - 1) / 2
            for i, part in enumerate(parts):
                s = min(size, shrink(pen, part, w - 1.2 * mm, size))
                pen.text_mid(x + w / 2, cy - i * lead, part, s, align="center", bold=True)
            if x > x0 and label and prev:  # an empty label merges with its neighbours
                pen.vline(x, y, top, width=0.4, color=MUTED)
            prev = label
            x += w
        pen.rect(x0, y, total, height, stroke=LINE, width=0.9)

    return Block(height, draw)


def cols_x(x0: float, widths: Sequence[float]) -> list[float]:
    """The x of every column edge, from ``x0`` through each width (one more than ``widths``)."""
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    return xs


def scale_cols(widths: Sequence[float], total: float) -> list[float]:
    """``widths`` (any unit) scaled so that they add up to ``total`` (points)."""
    k = total / sum(widths)
    return [w * k for w in widths]


def message_row(x0: float, w: float, text: str, h: float) -> Block:
    """A row of height ``h`` with ``text`` centred and muted (e.g. 「登録チームがありません。」)."""

    def draw(pen: Pen, top: float) -> None:
        pen.text_mid(x0 + w / 2, top - h / 2, text, 11, align="center", color=MUTED)

    return Block(h, draw)
