"""賞状 (certificates) written vertically, on the club's own certificate paper (issue 19).

The contract between the awards desk (``awards.services``/views, which choose who gets what
and fill in the texts) and the drawing of the certificates. The drawing is built in this
module; until it is, the functions refuse.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CertificateText:
    """The filled-in text of one certificate, ready to typeset.

    title: 「賞状」. place: 「優勝」「準優勝」「第3位」「敢闘賞」…. division: 「小学生高学年の部」.
    recipient: the team's name (one per team) or the member's name (one per member).
    honorific: 「殿」「様」 or "". team: the team's name when the recipient is a member, else "".
    body: the body text with the event's name and edition filled in. date_text: 「令和9年1月17日」.
    issuers: (title, name) pairs, e.g. (「ひたち郷土かるた大会実行委員会 会長」, 「日立 太郎」).
    """

    title: str
    place: str
    division: str
    recipient: str
    honorific: str
    body: str
    date_text: str
    issuers: tuple[tuple[str, str], ...] = ()
    team: str = ""


@dataclass(frozen=True)
class PaperLayout:
    """The certificate paper and where the printer puts the text on it (millimetres).

    size: "A4" or "B5" (JIS B5, 182 × 257 mm). orientation: "portrait" or "landscape".
    margins: the printed frame's inside edge from the paper's edge (top, right, bottom, left).
    offset: moves everything right (x) and down (y) to correct a printer's feed, may be negative.
    draw_frame: draw a simple frame (plain paper, or a preview on a drawn frame).
    """

    size: str = "A4"
    orientation: str = "portrait"
    margin_top_mm: float = 30.0
    margin_right_mm: float = 25.0
    margin_bottom_mm: float = 30.0
    margin_left_mm: float = 25.0
    offset_x_mm: float = 0.0
    offset_y_mm: float = 0.0
    draw_frame: bool = False
    extra: dict = field(default_factory=dict)


def render_certificates(certificates, paper):
    """PDF bytes: one page per ``CertificateText`` on ``paper`` (a ``PaperLayout``)."""
    raise NotImplementedError("the certificate drawing is being built (issue 19)")


def render_calibration(paper):
    """PDF bytes: one page with a thin frame where the text area lies and rulers in mm."""
    raise NotImplementedError("the calibration page is being built (issue 19)")
