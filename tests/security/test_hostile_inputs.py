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
import zlib
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl import Workbook
from PIL import Image

from common import images, kept_forms, limits
from common.errors import UserError
from reader import deck_import, sessions
from reader.engine import sequence
from reader.services.recordings import check_audio
from series.exchange import signing
from tests import factories
from tests.hanafuda.test_first_dealer import TIED, TIED_DRAW
from tests.reader.test_reading import make_deck, now_ms
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


# --- Photos of recording sheets -------------------------------------------------------------------


def float_tiff(width=7700, height=7700):
    """The outside tester's photo: a TIFF of ``width`` × ``height`` 32-bit floats (mode "F"),
    deflated to a few hundred kB, written by hand (Pillow would need the whole image in memory)."""
    strip_rows = 64
    strip = zlib.compress(b"\0" * (width * 4 * strip_rows), 9)
    strips = (height + strip_rows - 1) // strip_rows
    fields = [(256, 4, width), (257, 4, height), (258, 3, 32), (259, 3, 8), (262, 3, 1), (273, 4, None)]
    fields += [(277, 3, 1), (278, 4, strip_rows), (279, 4, None), (339, 3, 3)]  # 339: floats
    offsets_at = 8 + 2 + 12 * len(fields) + 4
    counts_at = offsets_at + 4 * strips
    data_at = counts_at + 4 * strips
    out = bytearray(b"II*\0" + struct.pack("<IH", 8, len(fields)))
    for tag, kind, value in fields:
        count = strips if tag in (273, 279) else 1
        value = {273: offsets_at, 279: counts_at}.get(tag, value)
        out += struct.pack(
            "<HHIHH" if kind == 3 and count == 1 else "<HHII",
            tag,
            kind,
            count,
            value,
            *([0] if kind == 3 and count == 1 else []),
        )
    out += struct.pack("<I", 0)
    out += b"".join(struct.pack("<I", data_at + i * len(strip)) for i in range(strips))
    out += struct.pack("<I", len(strip)) * strips + strip * strips
    return bytes(out)


def png_header_only(width, height, colour_type=6, depth=8):
    """A PNG that declares ``width`` × ``height`` pixels (RGBA by default) with one tiny IDAT: what
    a decoder would allocate is decided by the header alone."""

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, depth, colour_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b"")
    )


def small_image(fmt, mode="RGB"):
    out = io.BytesIO()
    Image.new(mode, (64, 48)).save(out, fmt)
    return out.getvalue()


def _photo(data, name="sheet.jpg"):
    return images.downscaled_jpeg(SimpleUploadedFile(name, data, "image/jpeg"))


def test_a_tiff_of_32_bit_floats_is_refused_before_decoding():
    data = float_tiff()
    assert len(data) < 400_000
    with pytest.raises(images.ImageRefused, match="8 bits per colour"):
        _photo(data)
    _, cost = measure(lambda: pytest.raises(images.ImageRefused, _photo, data))
    cost.within(peak_mb=40)


@pytest.mark.parametrize(
    ("fmt", "mode"), [("TIFF", "RGB"), ("BMP", "RGB"), ("GIF", "P"), ("PNG", "I;16"), ("TIFF", "I"), ("TIFF", "F")]
)
def test_formats_and_modes_no_camera_writes_are_refused(fmt, mode):
    with pytest.raises(images.ImageRefused, match="8 bits per colour"):
        _photo(small_image(fmt, mode))


def test_a_png_whose_decoded_pixels_pass_the_memory_limit_is_refused_naming_it():
    data = png_header_only(7000, 7000)  # 49 million RGBA pixels: 196 MB once decoded
    _, cost = measure(lambda: pytest.raises(images.ImageRefused, _photo, data))
    with pytest.raises(images.ImageRefused, match=f"at most {limits.PHOTO_DECODED_BYTES // 2**20} MB"):
        _photo(data)
    cost.within(peak_mb=40)


def test_a_png_declaring_too_many_pixels_is_refused_naming_the_limit():
    data = png_header_only(100_000, 100_000)
    with pytest.raises(images.ImageRefused, match=f"(at most|more than) {limits.PHOTO_PIXELS // 1_000_000} million"):
        _photo(data)
    assert Image.MAX_IMAGE_PIXELS == limits.PHOTO_PIXELS


def test_photos_are_decoded_one_at_a_time(monkeypatch):
    monkeypatch.setattr(limits, "PHOTO_WAIT_SECONDS", 0.05)
    assert images._DECODING.acquire(timeout=1)  # another request is decoding
    try:
        with pytest.raises(images.ImageRefused, match="busy"):
            _photo(small_image("JPEG"))
    finally:
        images._DECODING.release()
    assert _photo(small_image("JPEG"))[:2] == b"\xff\xd8"  # its turn: decoded


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_a_cameras_photo_is_still_accepted(fmt):
    with Image.open(io.BytesIO(_photo(small_image(fmt)))) as kept:
        assert kept.format == "JPEG" and kept.size == (64, 48)


# --- The reader's recordings --------------------------------------------------------------------


def box(name, body=b""):
    return struct.pack(">I4s", 8 + len(body), name) + body


def nested_m4a(depth=5000):
    """An M4A whose "moov" boxes nest ``depth`` deep (built from the inside out): mutagen's
    reader recursed until ``RecursionError`` (a 500)."""
    inner = box(b"free")
    for _ in range(depth):
        inner = box(b"moov", inner)
    return box(b"ftyp", b"M4A \0\0\0\0M4A mp42isom") + inner


def test_an_m4a_of_boxes_nested_thousands_deep_is_refused_naming_the_limit():
    data = nested_m4a()
    assert len(data) < limits.AUDIO_BYTES
    with pytest.raises(UserError, match=f"nest more than {limits.AUDIO_BOX_DEPTH} deep"):
        check_audio(data, "「す」の札")
    _, cost = measure(lambda: pytest.raises(UserError, check_audio, data, "「す」の札"))
    cost.within(peak_mb=40)


def test_an_m4a_of_a_hundred_thousand_boxes_is_refused_naming_the_limit():
    data = box(b"ftyp", b"M4A \0\0\0\0M4A mp42isom") + box(b"moov", box(b"free") * 100_000)
    with pytest.raises(UserError, match=f"more than {limits.AUDIO_BOXES:,} boxes"):
        check_audio(data, "「す」の札")
    _, cost = measure(lambda: pytest.raises(UserError, check_audio, data, "「す」の札"))
    cost.within(peak_mb=40)


def test_a_nested_m4a_without_its_ftyp_first_is_still_no_500():
    data = box(b"free", b"mp4") + nested_m4a()[28:]
    with pytest.raises(UserError):
        check_audio(data, "「す」の札")


def test_a_wav_whose_header_claims_hours_is_refused_by_its_length():
    header = struct.pack("<4sI4s4sIHHIIHH", b"RIFF", 36 + 2**31, b"WAVE", b"fmt ", 16, 1, 1, 8000, 16000, 2, 16)
    data = header + struct.pack("<4sI", b"data", 2**31) + b"\0" * 16000
    with pytest.raises(UserError, match=f"at most {limits.AUDIO_SECONDS} s|not audio"):
        check_audio(data, "「す」の札")


def test_an_audio_file_over_the_byte_limit_is_refused_before_it_is_read():
    data = b"\0" * (limits.AUDIO_BYTES + 1)
    with pytest.raises(UserError, match=f"larger than {limits.AUDIO_BYTES // 2**20} MB"):
        check_audio(data, "「す」の札")


# --- The reader's log ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_reader_link_cannot_flood_a_reading_and_the_log_page_stays_fast(client, django_user_model):
    """The outside tester posted 54,000 lines through a court's reader link; the organiser's log
    page then took 36 s. A reading keeps at most READER_LOG_LINES_PER_READING lines."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    event = factories.make_event(courts=1, slug="reader-flood")
    link = sessions.reader_link(event.courts.first())
    reading = sessions.start_reading(
        make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1, court=link.court
    )
    url = reverse("reader:link_lines", args=[link.token, reading.pk])
    per_post = limits.READER_LOG_LINES_PER_POST
    answers = []
    for batch in range(limits.READER_LOG_LINES_PER_READING // per_post + 3):
        lines = [{"seq": batch * per_post + n + 1, "kind": "pause", "at": now_ms()} for n in range(per_post)]
        answer, cost = measure(lambda lines=lines: client.post(url, {"lines": lines}, content_type="application/json"))
        answers.append(answer.status_code)
        cost.within()
    assert answers.count(200) == limits.READER_LOG_LINES_PER_READING // per_post
    assert answer.status_code == 400
    assert f"at most {limits.READER_LOG_LINES_PER_READING:,} log lines" in answer.json()["error"]
    assert reading.entries.count() == limits.READER_LOG_LINES_PER_READING
    too_many = [{"seq": 10**6 + n, "kind": "pause", "at": now_ms()} for n in range(per_post + 1)]
    refused = client.post(url, {"lines": too_many}, content_type="application/json")
    assert refused.status_code == 400 and f"at most {per_post} lines" in refused.json()["error"]
    organiser = django_user_model.objects.create_user("reader-organiser")
    event.organisers.add(organiser)
    client.force_login(organiser)
    page, cost = measure(lambda: client.get(reverse("reader:manage_log", args=[event.slug, reading.pk])))
    assert page.status_code == 200
    cost.within()


# --- Deck workbooks -----------------------------------------------------------------------------


def deck_workbook(change):
    wb = Workbook()
    ws = wb.active
    ws.append(["頭字", "読み札", "読み（かな）", "役札"])
    ws.append(["す", "諏訪神社", "すわじんじゃ", ""])
    out = io.BytesIO()
    wb.save(out)
    return _rewrite(out.getvalue(), "xl/worksheets/sheet1.xml", change)


def test_a_deck_workbook_with_a_row_wider_than_excels_is_refused_naming_the_limit():
    cells = b"".join(b'<c r="A3" t="n"><v>1</v></c>' for _ in range(limits.ENTRY_CELLS_PER_ROW + 10))
    data = deck_workbook(lambda xml: xml.replace(b"</sheetData>", b'<row r="3">' + cells + b"</row></sheetData>"))
    assert len(data) < 200_000
    (rows, problems), cost = measure(lambda: deck_import.read_deck(data))
    assert not rows and f"{limits.ENTRY_CELLS_PER_ROW:,} cells" in problems[0].message
    cost.within()


def test_a_deck_workbook_over_the_byte_limit_is_refused_before_it_is_opened():
    data = b"PK\x03\x04" + b"\0" * limits.DECK_FILE_BYTES
    (rows, problems), cost = measure(lambda: deck_import.read_deck(data))
    assert not rows and "larger than 5 MB" in problems[0].message
    cost.within()


# --- Results and key files ----------------------------------------------------------------------


def test_a_results_file_over_the_byte_limit_is_refused_naming_it():
    data = b"{" + b" " * limits.RESULTS_FILE_BYTES + b"}"
    with pytest.raises(UserError, match=f"larger than {limits.RESULTS_FILE_BYTES // 2**20} MB"):
        signing.open_signed(data)


@pytest.mark.django_db
def test_a_results_file_whose_header_nests_a_hundred_thousand_deep_is_not_one():
    data = b"[" * 100_000 + b"]" * 100_000 + b"\n{}"
    _, cost = measure(lambda: pytest.raises(UserError, signing.open_signed, data))
    with pytest.raises(UserError, match="not a results file"):
        signing.open_signed(data)
    cost.within()


@pytest.mark.django_db
def test_a_key_file_nested_a_hundred_thousand_deep_is_not_a_key_file():
    data = b'{"format": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"
    _, cost = measure(lambda: pytest.raises(UserError, signing.load_key, data))
    with pytest.raises(UserError, match="not a series key file"):
        signing.load_key(data)
    cost.within()


# --- Every JSON read from outside: the club games' hidden draws ---------------------------------


def test_a_hidden_list_of_draws_nested_deep_or_huge_is_no_draw_never_a_500(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("scorer"))
    for history in ("[" * 50_000 + "]" * 50_000, "[" + ",".join(['{"draw_player_1": 12}'] * 5_000) + "]"):
        data = {**TIED, **TIED_DRAW, "draw_history": history}
        answer, cost = measure(lambda data=data: client.post(reverse("hanafuda:session_create"), data))
        assert answer.status_code == 200  # the draw starts again: the tied players draw again
        cost.within()


# --- Forms kept after a refusal -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_refused_form_over_the_kept_limit_keeps_nothing():
    event = factories.make_event(courts=1, slug="kept")
    url = reverse("tournament:people", args=[event.slug])
    answer = Client().post(url, {"username": "あ" * limits.KEPT_FORM_BYTES, "role": "recorder"})
    assert answer.status_code == 302 and kept_forms.COOKIE not in answer.cookies
    assert not Session.objects.exists()


# --- The table ------------------------------------------------------------------------------------


def test_docs_limits_lists_every_limit_of_the_table():
    page = (Path(__file__).resolve().parents[2] / "docs" / "limits.md").read_text(encoding="utf-8")
    missing = [name for name, _value in limits.table() if f"`{name}`" not in page]
    assert not missing and len(limits.table()) > 40


def test_a_png_just_past_the_pixel_limit_is_refused_by_its_count_before_decoding():
    data = png_header_only(10_000, limits.PHOTO_PIXELS // 10_000 + 1, colour_type=0)  # grey: few bytes
    with pytest.raises(images.ImageRefused, match=f"at most {limits.PHOTO_PIXELS // 1_000_000} million"):
        _photo(data)
