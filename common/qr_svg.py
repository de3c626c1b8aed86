"""QR codes on pages: one SVG of a URL, the same matrix as the paper's (``common.pdf.qr``).

The SVG carries a ``viewBox`` and no width or height, so a CSS size scales the whole code
(with a width and height but no ``viewBox`` a CSS size crops it instead: issue 27, the
court links did not scan), and a quiet zone of four modules on every side, as the QR
standard asks (readers find the code by its light border). The payload should be ASCII
(``docs/rules/paper.md``). No Django.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from common.pdf.qr import qr_modules

__all__ = ["QUIET_ZONE", "qr_svg"]

QUIET_ZONE = 4  # modules of light border on each side (ISO/IEC 18004)


@lru_cache(maxsize=256)
def qr_svg(url: str, label: str = "") -> str:
    """An SVG element (text) of the QR code of ``url``: error correction M, a quiet zone
    of :data:`QUIET_ZONE` modules, a white background (scans on a dark page and on paper),
    one path of dark squares, ``viewBox`` in modules so any CSS size shows all of it.

    ``label`` (translated text) becomes the image's accessible name (``aria-label``); without
    it the picture is named "QR".  Works inline in HTML and as an ``image/svg+xml`` file."""
    modules = qr_modules(url)
    size = len(modules) + 2 * QUIET_ZONE
    q = QUIET_ZONE
    dark = "".join(f"M{c + q} {r + q}h1v1h-1z" for r, row in enumerate(modules) for c, on in enumerate(row) if on)
    name = escape(label or "QR", quote=True)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" role="img" aria-label="{name}"'
        f' shape-rendering="crispEdges"><rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path d="{dark}" fill="#000"/></svg>'
    )
