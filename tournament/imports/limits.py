"""Checking an uploaded workbook's zip before openpyxl parses it: sizes, cells, strings, time.

A small ``.xlsx`` can hold a sheet of millions of cells or millions of shared strings that
take minutes and gigabytes to parse (issue 18, item 2: a 337 KB file with one row of 3 million
cells took 111 s and 2.78 GB). :func:`scan_workbook` reads the zip directory (member count,
compressed and uncompressed sizes) and then streams each worksheet and the shared strings
through a cheap tag count, stopping at the first limit passed; only a workbook within every
limit is handed to openpyxl. The same pass collects what the read-only reader cannot see:
hidden rows, merged ranges and whether the sheet has an AutoFilter.

Limits are generous for entry files (300 teams are a few thousand cells) and far below what
hurts a laptop; each refusal names its limit (:class:`LimitExceeded`).
"""

from __future__ import annotations

import re
import time
import zipfile
from dataclasses import dataclass, field

from common import limits
from tournament.imports.messages import _

#: The limits are the entry workbooks' rows of the one table, ``common.limits``.
MAX_MEMBERS = limits.ENTRY_ZIP_MEMBERS
MAX_UNCOMPRESSED_BYTES = limits.ENTRY_UNCOMPRESSED_BYTES
#: openpyxl parses a part other than a worksheet whole when it opens the file: a smaller limit.
MAX_PART_BYTES = limits.ENTRY_PART_BYTES
MAX_CELLS_PER_ROW = limits.ENTRY_CELLS_PER_ROW
MAX_CELLS = limits.ENTRY_CELLS
MAX_ROW_NUMBER = limits.ENTRY_ROW_NUMBER
MAX_SHARED_STRINGS = limits.ENTRY_SHARED_STRINGS
#: Merged ranges in one sheet (each is filled down by ``tournament.imports.merged``).
MAX_MERGED_RANGES = limits.ENTRY_MERGED_RANGES
TIME_BUDGET_SECONDS = limits.ENTRY_SECONDS
#: Hidden row numbers remembered (rows further down are not read anyway).
_MAX_HIDDEN_KEPT = 100_000

_CHUNK = 1 << 20
_TAGS = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?(row|c|mergeCell|autoFilter)(?=[\s/>])([^>]*)>")
_SI = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?si[\s/>]")
_UNIQUE_COUNT = re.compile(rb'<(?:[A-Za-z_][\w.-]*:)?sst\b[^>]*\buniqueCount="(\d+)"')
_ROW_NUMBER = re.compile(rb'\br="(\d+)"')
_HIDDEN = re.compile(rb'\bhidden="(?:1|true)"')
_REF = re.compile(rb'\bref="([^"]+)"')


class LimitExceeded(Exception):
    """A workbook passes a limit; ``str()`` is the translated message naming the limit."""


@dataclass
class SheetFacts:
    """What the tag count saw of one worksheet member."""

    hidden_rows: set[int] = field(default_factory=set)
    merged: list[str] = field(default_factory=list)
    autofilter: bool = False


class Budget:
    """A deadline; :meth:`check` raises :class:`LimitExceeded` once it has passed."""

    def __init__(self, seconds: float | None = None):
        self.seconds = TIME_BUDGET_SECONDS if seconds is None else seconds
        self.deadline = time.monotonic() + self.seconds

    def check(self) -> None:
        if time.monotonic() > self.deadline:
            raise LimitExceeded(
                _("The workbook takes too long to read (more than %(seconds)d seconds).") % {"seconds": self.seconds}
            )


def _strings(n: int) -> str:
    return _("%(n)s strings") % {"n": f"{n:,}"}


def _cells(n: int) -> str:
    return _("%(n)s cells") % {"n": f"{n:,}"}


def _bytes(n: int) -> str:
    return _("%(n)s bytes") % {"n": f"{n:,}"}


def _ranges(n: int) -> str:
    return _("%(n)s ranges") % {"n": f"{n:,}"}


def _files(n: int) -> str:
    return _("%(n)s files") % {"n": f"{n:,}"}


def _too_big(what: str, unit, limit: int, count: int | None = None) -> LimitExceeded:
    """The refusal naming the limit, e.g. "(shared strings 2,000,000 strings, limit 50,000
    strings)"; *unit* formats a number; without *count* (reading stopped at the limit) the
    message says "more than"."""
    if count is None:
        return LimitExceeded(
            _("The workbook is too large (%(what)s: more than %(limit)s).") % {"what": what, "limit": unit(limit)}
        )
    return LimitExceeded(
        _("The workbook is too large (%(what)s %(count)s, limit %(limit)s).")
        % {"what": what, "count": unit(count), "limit": unit(limit)}
    )


def scan_workbook(archive: zipfile.ZipFile, budget: Budget) -> dict[str, SheetFacts]:
    """Check *archive* against the limits and return the facts of each worksheet member.

    In: an open :class:`zipfile.ZipFile` and a :class:`Budget`. Out: ``{member name:
    SheetFacts}`` for every ``xl/worksheets/*.xml`` member. Raises :class:`LimitExceeded`
    (message naming the limit and the count found) at the first limit passed: too many
    members, uncompressed size (all members, or one part openpyxl parses whole such as
    ``xl/styles.xml``), cells in a row or in a sheet, a row number beyond Excel's, shared
    strings, merged ranges, or the time budget. Zip errors
    (``BadZipFile``, CRC) propagate to the caller, which reports a damaged file.
    """
    members = archive.infolist()
    if len(members) > MAX_MEMBERS:
        raise _too_big(_("files inside the workbook"), _files, MAX_MEMBERS, len(members))
    total = sum(m.file_size for m in members)
    if total > MAX_UNCOMPRESSED_BYTES:
        raise _too_big(_("size uncompressed"), _bytes, MAX_UNCOMPRESSED_BYTES, total)
    facts = {}
    for member in members:
        name = member.filename.lstrip("/")
        worksheet = name.startswith("xl/worksheets/") and name.endswith(".xml") and "/_rels/" not in name
        if name.lower() == "xl/sharedstrings.xml":
            _count_shared_strings(archive, member, budget)  # first: its count says more than its size
        if not worksheet and name.endswith((".xml", ".rels")) and member.file_size > MAX_PART_BYTES:
            raise _too_big(name, _bytes, MAX_PART_BYTES, member.file_size)
        if worksheet:
            facts[name] = _scan_sheet(archive, member, budget)
    return facts


def _chunks(archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: Budget):
    """The member's bytes in pieces that end before a ``<`` (so no tag is cut), at most
    :data:`MAX_UNCOMPRESSED_BYTES` of them whatever the directory says."""
    read = 0
    tail = b""
    with archive.open(member) as stream:
        while True:
            budget.check()
            chunk = stream.read(_CHUNK)
            read += len(chunk)
            if read > MAX_UNCOMPRESSED_BYTES:
                raise _too_big(_("size uncompressed"), _bytes, MAX_UNCOMPRESSED_BYTES)
            if not chunk:
                if tail:
                    yield tail
                return
            data = tail + chunk
            cut = data.rfind(b"<")
            if cut <= 0:
                tail = data
                continue
            tail = data[cut:]
            yield data[:cut]


def _count_shared_strings(archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: Budget) -> None:
    """Refuse more than :data:`MAX_SHARED_STRINGS` strings: the declared ``uniqueCount`` when it
    says so (the count is then known at once), else by counting the ``<si>`` elements."""
    count = 0
    for index, piece in enumerate(_chunks(archive, member, budget)):
        declared = _UNIQUE_COUNT.search(piece) if index == 0 else None
        if declared and int(declared.group(1)) > MAX_SHARED_STRINGS:
            raise _too_big(_("shared strings"), _strings, MAX_SHARED_STRINGS, int(declared.group(1)))
        count += len(_SI.findall(piece))
        if count > MAX_SHARED_STRINGS:
            raise _too_big(_("shared strings"), _strings, MAX_SHARED_STRINGS)


def _scan_sheet(archive: zipfile.ZipFile, member: zipfile.ZipInfo, budget: Budget) -> SheetFacts:
    """Count the cells of each row and of the sheet; note hidden rows, merges, AutoFilter."""
    facts = SheetFacts()
    row = cells = in_row = 0
    for piece in _chunks(archive, member, budget):
        for match in _TAGS.finditer(piece):
            tag, attrs = match.group(1), match.group(2)
            if tag == b"c":
                in_row += 1
                cells += 1
                if in_row > MAX_CELLS_PER_ROW:
                    raise _too_big(_("cells in row %(row)d") % {"row": row}, _cells, MAX_CELLS_PER_ROW)
                if cells > MAX_CELLS:
                    raise _too_big(_("cells in one sheet"), _cells, MAX_CELLS)
            elif tag == b"row":
                number = _ROW_NUMBER.search(attrs)
                row = int(number.group(1)) if number else row + 1
                in_row = 0
                if row > MAX_ROW_NUMBER:
                    raise _too_big(_("row number"), lambda n: f"{n:,}", MAX_ROW_NUMBER, row)
                if _HIDDEN.search(attrs) and len(facts.hidden_rows) < _MAX_HIDDEN_KEPT:
                    facts.hidden_rows.add(row)
            elif tag == b"mergeCell":
                ref = _REF.search(attrs)
                if ref:
                    if len(facts.merged) >= MAX_MERGED_RANGES:
                        raise _too_big(_("merged ranges"), _ranges, MAX_MERGED_RANGES)
                    facts.merged.append(ref.group(1).decode("ascii", "replace"))
            else:
                facts.autofilter = True
    return facts
