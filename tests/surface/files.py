"""The files the crawl fetches (issue 27, item 1): PDFs, workbooks, CSV, JSON, images, audio.

A PDF opens (``qpdf --check``), embeds every font (``pdffonts``), has text to extract
(``pdftotext``) and says its language (``/Lang`` in its catalogue, the session's language: the
crawl's sessions are Japanese). A workbook opens with openpyxl and keeps numbers as numbers
(a cell of text that reads as a plain number is a finding). JSON parses; CSV is UTF-8.
"""

import io
import json
import re
import subprocess
import tempfile
import urllib.error
import urllib.request

NUMBER = re.compile(r"^-?(0|[1-9]\d{0,8})(\.\d+)?$")
PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def status(base, path):
    """The status of a plain GET of ``path`` (no cookies)."""
    try:
        with urllib.request.urlopen(base + path, timeout=60) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def kind_of(content_type):
    base = content_type.split(";")[0].strip()
    return {
        PDF: "pdf",
        XLSX: "xlsx",
        "application/json": "json",
        "text/csv": "csv",
        "image/svg+xml": "svg",
        "image/jpeg": "jpeg",
        "image/png": "png",
        "text/plain": "text",
    }.get(base, "audio" if base.startswith("audio/") else base or "?")


def check(name, path, role, content_type, body, headers, crawl):
    kind = kind_of(content_type)
    crawl.files.append((kind, name, path, role))
    add = lambda detail: crawl.add(kind, name, path, role, detail)  # noqa: E731
    if not body:
        add("empty file")
        return
    if kind == "pdf":
        _pdf(body, add)
    elif kind == "xlsx":
        _xlsx(body, add)
    elif kind == "json":
        try:
            json.loads(body)
        except ValueError as e:
            add(f"not JSON: {e}")
    elif kind in ("csv", "text", "svg"):
        try:
            body.decode("utf-8")
        except UnicodeDecodeError as e:
            add(f"not UTF-8: {e}")


def _run(args, data):
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(data)
        f.flush()
        return subprocess.run(
            [*args, f.name] if args[0] != "pdftotext" else [*args, f.name, "-"], capture_output=True, text=True
        )


def _pdf(data, add):
    checked = _run(["qpdf", "--check"], data)
    if checked.returncode not in (0, 3):  # 3: warnings only
        add(f"qpdf --check: {(checked.stdout + checked.stderr).strip()[-300:]}")
    fonts = _run(["pdffonts"], data)
    for line in fonts.stdout.splitlines()[2:]:
        cols = line.split()
        # name type [encoding...] emb sub uni object ID: emb is the 5th column from the end
        if len(cols) >= 7 and cols[-5] != "yes":
            add(f"font not embedded: {cols[0]}")
    text = _run(["pdftotext", "-q"], data)
    if not text.stdout.strip():
        add("no extractable text")
    from pypdf import PdfReader

    catalogue = PdfReader(io.BytesIO(data)).trailer["/Root"]
    lang = catalogue.get("/Lang")
    if lang is None:
        add("no /Lang in the catalogue")
    elif not str(lang).lower().startswith("ja"):
        add(f"/Lang is {lang}, the session is Japanese")


def _xlsx(data, add):
    from openpyxl import load_workbook

    try:
        book = load_workbook(io.BytesIO(data))
    except Exception as e:  # any failure to open is the finding
        add(f"does not open: {e}")
        return
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if isinstance(cell.value, str) and NUMBER.match(cell.value.strip()):
                    add(f"{sheet.title}!{cell.coordinate} holds the number {cell.value!r} as text")
                    return
