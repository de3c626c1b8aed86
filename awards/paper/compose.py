"""The layout of one 賞状, right to left, in vertical columns (issue 19 item 1).

Followed: the usual layout of a vertical Japanese certificate (``docs/rules/certificates.md``,
after the guides cited there): the title (表題, the largest) at the right; the place and
the division; the recipient (受者名, larger than the body, smaller than the title) with
the 敬称 at the bottom of its column; the body (主文) in several columns from the top; the
date (贈呈日, the smallest, one character lower than the body); the issuers (贈者名, title
above name) towards the left, their names at the bottom.

Every size follows one base size ``b`` (the body's, points); the base is the largest at
which every column fits the text area's width (a long body or name makes it smaller), and
the width left over widens the gaps so the certificate fills its frame. A text that does not
fit its column is shrunk down to a floor and then broken into two columns
(:func:`common.pdf.tategaki.fit_column`), never clipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from awards.paper.sheet import Area
from awards.paper.typeset import Face
from common.errors import UserError
from common.pdf.tategaki import SPACE, Glyph, balanced_columns, column_length, fit_column, fit_columns

# Sizes in base sizes (the body's size) and gaps after a column, in base sizes.
TITLE, PLACE, DIVISION, TEAM, RECIPIENT, HONORIFIC = 2.3, 1.45, 1.0, 0.85, 1.5, 1.3
BODY, DATE, ISSUER_TITLE, ISSUER_NAME = 1.0, 0.8, 0.85, 1.15
NAME_LARGE = 1.2  # the recipient takes more columns before it is set smaller than this
NAME_ONE_COLUMN = 1.1  # … but stays in one column down to this size (a short name)
LINE_GAP = 0.6  # between body columns
MAX_BASE = 40.0  # points
MIN_BASE = 7.5  # the date (0.8 b) stays at 6 pt or more


@dataclass
class Segment:
    """Glyphs at one size in a column, placed ``top`` points under the column's top or,
    when ``top`` is None, ending ``bottom`` points above its foot."""

    glyphs: list[Glyph]
    size: float
    top: float | None = 0.0
    bottom: float = 0.0
    bold: bool = False

    @property
    def length(self) -> float:
        return column_length(self.glyphs) * self.size


@dataclass
class Column:
    """One vertical line: its segments, its role (for readers and tests) and the gap to
    the next column on its left (points)."""

    role: str
    segments: list[Segment] = field(default_factory=list)
    gap: float = 0.0
    x: float = 0.0  # the column's centre once drawn (points)

    @property
    def width(self) -> float:
        return max((s.size for s in self.segments), default=0.0)


def _spaced(glyphs: list[Glyph], em: float) -> list[Glyph]:
    """``glyphs`` with ``em`` of empty space between cells (a title, a short name)."""
    if em <= 0 or len(glyphs) < 2:
        return glyphs
    out: list[Glyph] = []
    for g in glyphs:
        if out:
            out.append(Glyph("", "", SPACE, advance=em))
        out.append(g)
    return out


def _fitted(face: Face, text: str, length: float, size: float, floor: float) -> tuple[float, list[list[Glyph]]]:
    return fit_column(face.glyphs(text), length, size, floor, face.measure)


def _title(face: Face, text: str, height: float, b: float) -> list[Column]:
    glyphs = face.glyphs(text)
    track = 0.8 if len(glyphs) <= 3 else 0.0
    size, cols = fit_column(_spaced(glyphs, track), height - 0.6 * b, TITLE * b, 1.2 * b, face.measure)
    return [Column("title", [Segment(c, size, top=0.6 * b, bold=True)], gap=0.4 * b) for c in cols]


def _place(face: Face, cert, height: float, b: float) -> list[Column]:
    top = 1.2 * b
    columns: list[Column] = []
    if cert.place:
        size, cols = _fitted(face, cert.place, height - top, PLACE * b, b)
        columns = [Column("place", [Segment(c, size, top=top, bold=True)], gap=0.3 * b) for c in cols]
    if cert.division:
        below = top + (columns[-1].segments[0].length + 0.8 * b if columns else 0.0)
        room = height - below
        size, cols = _fitted(face, cert.division, max(room, b), DIVISION * b, 0.75 * b)
        if columns and len(cols) == 1 and column_length(cols[0]) * size <= room:
            columns[-1].segments.append(Segment(cols[0], size, top=below))
        else:
            size, cols = _fitted(face, cert.division, height - top, DIVISION * b, 0.75 * b)
            columns += [Column("division", [Segment(c, size, top=top + b)], gap=0.3 * b) for c in cols]
    return columns


def _name_columns(face: Face, name: str, height: float, foot: float, b: float) -> tuple[float, float, list]:
    """(size, top, columns) of the recipient's name above a foot of ``foot`` points: one
    column from 30 % down at a large size (at least ``NAME_LARGE`` b); else from the top,
    one column at ``NAME_ONE_COLUMN`` b or larger, then two or three columns at a large size,
    then one, two or three at the body's size; never smaller than the body (issue 19 fix: a
    33-character team name was set as small as the affiliation line), in as many columns
    as it takes at last (``common.pdf.tategaki.fit_columns``)."""
    glyphs = face.glyphs(name)
    start = 0.3 * height
    size, cols = fit_columns(glyphs, height - start - foot, RECIPIENT * b, [(1, NAME_LARGE * b)], face.measure)
    if len(cols) > 1 or size < NAME_LARGE * b - 1e-9:
        start = 1.2 * b
        large, body = NAME_LARGE * b, BODY * b
        attempts = [(1, NAME_ONE_COLUMN * b), (2, large), (3, large), (1, body), (2, body), (3, body)]
        size, cols = fit_columns(glyphs, height - start - foot, RECIPIENT * b, attempts, face.measure)
    if len(cols) == 1:
        free = height - start - foot - column_length(cols[0]) * size
        cols[0] = _spaced(cols[0], max(0.0, min(0.5, free / size / max(len(cols[0]) - 1, 1))))
    return size, start, cols


def _recipient(face: Face, cert, height: float, b: float) -> list[Column]:
    """The team (for a member's certificate) and the name, the 敬称 at the foot (a 敬称
    longer than two characters is set as part of the name)."""
    columns: list[Column] = []
    if cert.team:
        size, cols = _fitted(face, cert.team, height * 0.7 + b, TEAM * b, 0.6 * b)
        columns += [Column("team", [Segment(c, size, top=0.3 * height - b)], gap=0.3 * b) for c in cols]
    name, hon = cert.recipient, face.glyphs(cert.honorific) if cert.honorific else []
    if column_length(hon) > 2 or not name:
        name, hon = f"{name} {cert.honorific}".strip(), []
    hon_size = HONORIFIC * b
    foot = column_length(hon) * hon_size + (0.7 * b if hon else 0.0)
    size, start, cols = _name_columns(face, name, height, foot, b)
    for i, glyphs in enumerate(cols):
        last = i == len(cols) - 1
        segment = Segment(glyphs, size, top=None, bottom=foot) if last else Segment(glyphs, size, top=start)
        columns.append(Column("recipient", [segment], gap=0.35 * b))
    if hon and cols:
        columns[-1].segments.append(Segment(hon, hon_size, top=None, bold=False))
    return columns


def _body(face: Face, text: str, height: float, b: float) -> list[Column]:
    if not text:
        return []
    cols = balanced_columns(face.glyphs(text), height / (BODY * b), face.measure)
    return [Column("body", [Segment(c, BODY * b)], gap=LINE_GAP * b) for c in cols]


def _date(face: Face, text: str, height: float, b: float) -> list[Column]:
    if not text:
        return []
    size, cols = _fitted(face, text, height - 1.5 * b, DATE * b, 0.75 * DATE * b)
    return [Column("date", [Segment(c, size, top=1.5 * b)], gap=0.3 * b) for c in cols]


def _issuer(face: Face, title: str, name: str, height: float, b: float) -> list[Column]:
    """One issuer: the title at the top of the column, the name at its foot; in two
    columns when both do not fit one."""
    t_size, t_cols = _fitted(face, title, height - 2 * b, ISSUER_TITLE * b, 0.7 * b) if title else (0, [])
    n_size, n_cols = _fitted(face, name, height - 2 * b, ISSUER_NAME * b, 0.8 * b) if name else (0, [])
    together = len(t_cols) == 1 and len(n_cols) == 1
    if together and t_cols and n_cols:
        together = column_length(t_cols[0]) * t_size + b + column_length(n_cols[0]) * n_size <= height - 2 * b
    if together:
        segments = [Segment(c, t_size, top=2 * b) for c in t_cols]
        segments += [Segment(c, n_size, top=None, bottom=0.4 * b) for c in n_cols]
        return [Column("issuer", segments, gap=0.45 * b)]
    columns = [Column("issuer", [Segment(c, t_size, top=2 * b)], gap=0.3 * b) for c in t_cols]
    columns += [Column("issuer", [Segment(c, n_size, top=None, bottom=0.4 * b)], gap=0.3 * b) for c in n_cols]
    return columns


#: The gaps after each part that take the width left over (base sizes at most).
STRETCH = {"title": 3.0, "place": 1.5, "division": 1.5, "recipient": 3.0, "body": 3.0, "date": 1.5}


def plan(face: Face, cert, height: float, b: float) -> list[Column]:
    """The columns of ``cert`` (a ``CertificateText``) right to left, for a text area
    ``height`` points tall at base size ``b`` points; gaps at their minimum (points).
    The parts and their sizes: ``docs/rules/certificates.md`` "The layout of a vertical 賞状"."""
    parts = [
        _title(face, cert.title, height, b),
        _place(face, cert, height, b),
        _recipient(face, cert, height, b),
        _body(face, cert.body, height, b),
        _date(face, cert.date_text, height, b),
        [col for title, name in cert.issuers for col in _issuer(face, title, name, height, b)],
    ]
    columns: list[Column] = []
    for part in parts:
        if part:
            part[-1].gap = max(part[-1].gap, 1.1 * b)
            columns += part
    if columns:
        columns[-1].gap = 0.0
    return columns


def width(columns: list[Column]) -> float:
    """Points from the right edge of the first column to the left edge of the last."""
    return sum(c.width + c.gap for c in columns)


class DoesNotFit(UserError):
    """A certificate too wide for its text area even at the smallest base size; the caller
    (``awards.paper.certificates``) says whether the margins or the text are the cause."""


def fit_base(face: Face, cert, area: Area) -> tuple[float, list[Column]]:
    """The largest base size (points, at most 40) at which the certificate fits ``area``
    (points), and its columns. Raises ``DoesNotFit`` (a ``UserError``) naming the recipient
    when even the smallest (7.5 pt, the date then at 6 pt) does not fit
    (``docs/rules/certificates.md``)."""
    b = min(MAX_BASE, area.h / 13)
    while True:
        columns = plan(face, cert, area.h, b)
        if width(columns) <= area.w or b <= MIN_BASE:
            break
        b = max(MIN_BASE, b * min(0.97, area.w / width(columns) + 0.02))
    if width(columns) > area.w + 0.01:
        raise DoesNotFit(_("The certificate for “%(name)s” does not fit its paper.") % {"name": cert.recipient})
    return b, columns


def stretch(columns: list[Column], spare: float, b: float) -> float:
    """Widen the gaps by up to ``spare`` points (the body's line gaps first, up to half a
    base size each, then the gaps between parts, up to ``STRETCH`` base sizes); return the
    points still left, which the caller splits on both sides (``docs/rules/certificates.md``)."""
    body_gaps = [c for c in columns[:-1] if c.role == "body" and c.gap < 1.1 * b]
    if body_gaps:
        each = min(0.5 * b, spare / len(body_gaps))
        for c in body_gaps:
            c.gap += each
        spare -= each * len(body_gaps)
    wide: list[Column] = []
    for before, after in zip(columns, columns[1:], strict=False):
        if before.role in STRETCH and after.role != before.role:
            wide.append(before)
    if wide and spare > 0:
        each = min(spare / len(wide), min(STRETCH[c.role] for c in wide) * b)
        for c in wide:
            c.gap += each
        spare -= each * len(wide)
    return spare
