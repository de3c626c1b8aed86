"""賞状 (certificates) written vertically, on the club's own certificate paper (issue 19).

The contract between the awards desk (``awards.reports``, which chooses who gets what and
fills in the texts) and the drawing of the certificates: :func:`render_certificates` and
:func:`render_calibration` take the records of :mod:`awards.text` (``CertificateText``,
``PaperLayout``) and return PDF bytes. The layout is
:mod:`awards.paper.compose`, the paper :mod:`awards.paper.sheet`, the vertical columns
:mod:`awards.paper.typeset` over :mod:`common.pdf.tategaki` (decisions in
``docs/rules/certificates.md``).
"""

import math
from io import BytesIO

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from awards.paper import compose, sheet
from awards.paper.typeset import certificate_face, draw_column, draw_reading_layer
from awards.text import CertificateText, PaperLayout
from common.errors import UserError
from common.pdf.fonts import japanese_font
from common.pdf.layout import open_canvas
from common.pdf.pen import RENDER_LOCK
from common.pdf.tategaki import SPACE
from common.pdf.text import clean


def _canvas(buf: BytesIO, paper: "PaperLayout", title: str, font: str) -> Canvas:
    """A canvas on the paper's page size whose initial font is ``font`` (every font in the
    PDF embedded, fault 2 of ``docs/rules/paper.md``)."""
    return open_canvas(buf, sheet.page_size(paper), font, title=title, keywords=[title])


def _cleaned(cert: CertificateText) -> CertificateText:
    """The texts with control characters and doubled spaces removed (the body keeps its
    line breaks: a newline starts a new column)."""
    body = "\n".join(clean(line) for line in (cert.body or "").splitlines())
    return CertificateText(
        title=clean(cert.title),
        place=clean(cert.place),
        division=clean(cert.division),
        recipient=clean(cert.recipient),
        honorific=clean(cert.honorific),
        body=body.strip("\n"),
        date_text=clean(cert.date_text),
        issuers=tuple((clean(t), clean(n)) for t, n in cert.issuers),
        team=clean(cert.team),
    )


#: The certificate the margins must leave room for (issue 19 fix): the default body for a
#: 21st edition, a member's certificate with team, a place, a division and one issuer.
REFERENCE = CertificateText(
    title="賞状",
    place="準優勝",
    division="小学生高学年の部",
    recipient="日立 花子",
    honorific="殿",
    body="あなたは第21回ひたち郷土かるた大会小学生高学年の部において頭書の成績を収められました よってこれを賞します",
    date_text="令和9年1月17日",
    issuers=(("ひたち郷土かるた大会実行委員会 会長", "日立 太郎"),),
    team="ひたち海浜かるた会",
)


READABLE_BASE = 10.0  # points: the body of the reference certificate at least this size


def _inner(area: sheet.Area) -> sheet.Area:
    """The text area less the padding kept inside the frame (points)."""
    pad_h, pad_v = min(8.0, area.w * 0.04) * 2.835, min(12.0, area.h * 0.05) * 2.835
    return sheet.Area(area.x + pad_h, area.y + pad_v, area.w - 2 * pad_h, area.h - 2 * pad_v)


def room_problem(paper) -> str:
    """Why the margins of ``paper`` (a ``PaperLayout``) leave too little room for a certificate,
    in words naming the margins and the width (mm) the reference certificate
    (:data:`REFERENCE`) needs at that height with its body at ``READABLE_BASE`` (10 pt, the
    name then 15 pt); "" when it fits at that size or larger. Raises ``UserError`` as :func:`sheet.text_area`
    (unknown paper, negative margins, an area under 60 mm). docs/rules/certificates.md."""
    area = sheet.text_area(paper)
    inner = _inner(area)
    face = certificate_face()
    try:
        base, _columns = compose.fit_base(face, REFERENCE, inner)
    except compose.DoesNotFit:
        base = 0.0
    if base < READABLE_BASE:
        need = compose.width(compose.plan(face, REFERENCE, inner.h, READABLE_BASE)) + area.w - inner.w
        return _(
            "The margins (top %(top)s, right %(right)s, bottom %(bottom)s, left %(left)s mm) leave %(w)s × %(h)s mm "
            "for the text: a certificate needs about %(need)s mm of width at that height. Make the margins smaller."
        ) % {
            "top": f"{paper.margin_top_mm:g}",
            "right": f"{paper.margin_right_mm:g}",
            "bottom": f"{paper.margin_bottom_mm:g}",
            "left": f"{paper.margin_left_mm:g}",
            "w": f"{area.w / mm:.0f}",
            "h": f"{area.h / mm:.0f}",
            "need": f"{math.ceil(need / mm)}",
        }
    return ""


def _fit(face, cert: CertificateText, inner: sheet.Area, paper) -> tuple[float, list[compose.Column]]:
    """``compose.fit_base``, its refusal saying whether the margins or the text are the cause."""
    try:
        return compose.fit_base(face, cert, inner)
    except compose.DoesNotFit as refused:
        margins = room_problem(paper)
        if margins:
            raise UserError(f"{refused.message} {margins}") from refused
        raise UserError(
            _(
                "The certificate for “%(name)s” does not fit its paper: the margins leave enough room, "
                "its text is too long. Shorten the body text, the names or the issuers."
            )
            % {"name": cert.recipient}
        ) from refused


def draw_certificate(c: Canvas, cert: CertificateText, paper: "PaperLayout") -> list[compose.Column]:
    """Draw one certificate on the canvas's current page; return its columns as placed
    (each column's ``x`` centre set), for previews and tests."""
    area = sheet.text_area(paper)
    if paper.draw_frame:
        sheet.draw_frame(c, area)
    face = certificate_face()
    inner = _inner(area)
    b, columns = _fit(face, cert, inner, paper)
    spare = compose.stretch(columns, inner.w - compose.width(columns), b)
    x = inner.right - spare / 2
    lines = []  # the columns' text in reading order (right to left, top to bottom)
    for column in columns:
        column.x = x - column.width / 2
        for seg in column.segments:
            top = inner.top - seg.top if seg.top is not None else inner.y + seg.bottom + seg.length
            draw_column(c, face, seg.glyphs, column.x, top, seg.size, bold=seg.bold, actual_text="")
            lines.append("".join(g.text for g in seg.glyphs if g.kind != SPACE and g.text))
        x -= column.width + column.gap
    draw_reading_layer(c, face, [line for line in lines if line], inner.x, inner.top)
    return columns


def render_certificates(certificates, paper):
    """PDF bytes: one page per ``CertificateText`` on ``paper`` (a ``PaperLayout``).

    Vertical layout as in :mod:`awards.paper.compose`; a simple double frame when
    ``paper.draw_frame``. Raises ``UserError`` (naming the setting or the recipient) for an
    unknown paper size or orientation, margins that leave no room, or a text too long for
    the paper; nothing is drawn then. An empty list gives a one-page PDF saying so.
    """
    buf = BytesIO()
    with RENDER_LOCK:
        c = _canvas(buf, paper, _("Certificates"), certificate_face().name)
        sheet.text_area(paper)  # refuses bad settings before drawing
        for cert in certificates:
            draw_certificate(c, _cleaned(cert), paper)
            c.showPage()
        if not certificates:
            c.setFont(certificate_face().name, 12)
            c.drawString(72, sheet.page_size(paper)[1] - 72, _("No certificates to print."))
            c.showPage()
        c.save()
    return buf.getvalue()


def render_calibration(paper):
    """PDF bytes: one page with a thin frame where the text area lies (margins + offset),
    rulers in mm along the top and left edges, a cross at the frame's centre and a line
    giving the paper, margins and offset. Raises ``UserError`` as :func:`render_certificates`.
    """
    buf = BytesIO()
    with RENDER_LOCK:
        c = _canvas(buf, paper, _("Certificate paper calibration"), japanese_font())
        sheet.draw_calibration(c, paper)
        c.showPage()
        c.save()
    return buf.getvalue()
