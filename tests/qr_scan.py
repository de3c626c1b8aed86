"""Reading QR codes back as a phone would: zbarimg (Debian's zbar-tools) on a picture.

``decode_png`` reads every code in a PNG, ``decode_pdf`` every code on every page of a PDF
rendered by pdftoppm at 150 dpi (a printed page seen by a phone's camera). Tests that use
them are skipped where the tools are missing, except under CI=true, where they are required.
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

ZBARIMG = shutil.which("zbarimg")
PDFTOPPM = shutil.which("pdftoppm")

if not (ZBARIMG and PDFTOPPM) and os.environ.get("CI") == "true":
    raise RuntimeError("CI needs zbarimg (zbar-tools) and pdftoppm (poppler-utils) for the QR tests")

needs_zbar = pytest.mark.skipif(not (ZBARIMG and PDFTOPPM), reason="zbarimg or pdftoppm is not installed")


def _zbar(paths) -> list[str]:
    """The texts of every QR code zbarimg finds in the images ``paths`` (none: [])."""
    done = subprocess.run(
        [ZBARIMG, "--raw", "-q", "-Sdisable", "-Sqrcode.enable", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # zbarimg exits 4 when it finds nothing; that is an empty list here, not an error
    assert done.returncode in (0, 4), done.stderr
    return [line for line in done.stdout.splitlines() if line]


def decode_png(data: bytes) -> list[str]:
    """Texts of the QR codes in the PNG ``data``."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "shot.png"
        path.write_bytes(data)
        return _zbar([path])


def decode_pdf(data: bytes, dpi: int = 150) -> list[list[str]]:
    """Texts of the QR codes on each page of the PDF ``data``, one list per page."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "paper.pdf"
        pdf.write_bytes(data)
        subprocess.run([PDFTOPPM, "-r", str(dpi), "-png", str(pdf), str(Path(tmp) / "page")], check=True, timeout=120)
        pages = sorted(Path(tmp).glob("page-*.png"))
        assert pages, "pdftoppm wrote no page"
        return [_zbar([page]) for page in pages]
