"""A budget on every input path (issue 28, item 1): each hostile file is built here, in the
test (no file from outside), sent through the path a stranger or a slip would use, and must be
refused with a sentence naming its limit in under ``CPU_SECONDS`` of CPU and ``PEAK_MB`` of
memory above the start (the peak resident size, reset before each case through
``/proc/self/clear_refs``; where that is not allowed, Python's own allocations by tracemalloc).
The limits are the table of ``common/limits.py`` (docs/limits.md)."""

from __future__ import annotations

import gc
import io
import re
import struct
import time
import tracemalloc
import zipfile

import pytest
from django.utils import translation
from openpyxl import Workbook

from common import limits
from tournament.imports import TEMPLATE_LABELS, parse_entry_workbook

CPU_SECONDS = 3.0
PEAK_MB = 120


def _status(field):
    with open("/proc/self/status") as status:
        return int(re.search(field + r":\s+(\d+)", status.read()).group(1)) // 1024  # MB


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


class Cost:
    """What one refusal cost: CPU seconds, wall seconds, peak memory above the start (MB)."""

    def __init__(self, cpu, wall, peak_mb):
        self.cpu, self.wall, self.peak_mb = cpu, wall, peak_mb

    def __repr__(self):
        return f"cpu {self.cpu:.2f} s, wall {self.wall:.2f} s, peak +{self.peak_mb} MB"

    def within(self, cpu=CPU_SECONDS, peak_mb=PEAK_MB):
        # The wall clock only guards against a hang (another test's process may hold the CPU).
        assert self.cpu < cpu and self.wall < 10 * cpu and self.peak_mb < peak_mb, self


def measure(action):
    """``(action's result, Cost)``."""
    gc.collect()
    by_rss = _reset_peak()
    start = _status("VmRSS")
    if not by_rss:
        tracemalloc.start()
    cpu, wall = time.process_time(), time.monotonic()
    try:
        result = action()
    finally:
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        if by_rss:
            peak = _status("VmHWM") - start
        else:
            peak = tracemalloc.get_traced_memory()[1] // (1024 * 1024)
            tracemalloc.stop()
    return result, Cost(cpu, wall, peak)


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


# --- Entry workbooks ----------------------------------------------------------------------------


def entry_workbook(teams=300, merged=(), extra_xml=b"", club_every=1):
    """An entry sheet of ``teams`` rows (the template's labels), with the merged ranges
    ``merged`` written into the sheet's XML (openpyxl would make an object per merged cell)."""
    wb = Workbook()
    ws = wb.active
    ws.title = "申込書"
    ws.append(list(TEMPLATE_LABELS))
    for n in range(teams):
        club = "みなと子ども会" if n % club_every == 0 else None
        ws.append(["小学生の部", f"チーム{n}", club, "小川 光", "おがわ ひかる", "2年"])
    out = io.BytesIO()
    wb.save(out)
    cells = b"".join(b'<mergeCell ref="%s"/>' % ref.encode() for ref in merged)
    block = b'<mergeCells count="%d">%s</mergeCells>' % (len(merged), cells) if merged else b""
    return _rewrite(
        out.getvalue(),
        "xl/worksheets/sheet1.xml",
        lambda xml: xml.replace(b"</sheetData>", b"</sheetData>" + block + extra_xml),
    )


def _rewrite(data, member, change):
    source, target = zipfile.ZipFile(io.BytesIO(data)), io.BytesIO()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            body = source.read(item)
            out.writestr(item, change(body) if item.filename == member else body)
    return target.getvalue()


def _problems(parsed):
    return " ".join(p.message for p in parsed.problems)


def test_an_entry_sheet_merged_down_to_the_last_row_many_times_is_refused_quickly():
    """The outside tester's file: ranges merged from each entry row down to row 1,048,576 (200
    took 72 s). Only the rows read are visited; the filled cells stop at their limit."""
    data = entry_workbook(merged=[f"C{row}:C1048576" for row in range(2, 1_900)])
    assert len(data) < 200_000
    parsed, cost = measure(lambda: parse_entry_workbook(data))
    assert not parsed.ok and f"more than {limits.ENTRY_MERGED_CELLS:,} cells" in _problems(parsed)
    cost.within()


def test_an_entry_sheet_with_more_merged_ranges_than_the_limit_is_refused_naming_it():
    data = entry_workbook(teams=5, merged=[f"A{row}:XFD{row + 1}" for row in range(2, 2 * 16_000, 2)])
    parsed, cost = measure(lambda: parse_entry_workbook(data))
    assert _problems(parsed) == (
        f"The workbook is too large (merged ranges: more than {limits.ENTRY_MERGED_RANGES:,} ranges)."
    )
    cost.within()


def test_wide_merged_ranges_over_every_column_are_refused_without_visiting_each_column():
    data = entry_workbook(merged=[f"A{row}:XFD1048576" for row in range(2, 1_900)])
    parsed, cost = measure(lambda: parse_entry_workbook(data))
    assert "are merged over several rows of entries" in _problems(parsed)
    cost.within()


def test_a_sheet_within_the_limits_still_fills_its_merged_club_down():
    data = entry_workbook(teams=3, merged=["C2:C4"], club_every=3)
    parsed = parse_entry_workbook(data)
    assert [t.affiliation for t in parsed.teams] == ["みなと子ども会"] * 3
