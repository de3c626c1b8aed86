"""The budget of every input from outside: one table of the limits each parser and upload
checks (issue 28, item 1), as ``tournament/engine/limits.py`` is for an event's numbers.

Pure Python: no Django, no third-party library. Each parser cites its limits from here (the
entry workbooks in ``tournament/imports``, the sheet photos in ``common/images``, the reader's
recordings in ``reader/services/recordings``, the reader's log in ``reader/log_json`` and
``reader/sessions``, the results and key files in ``series/exchange/signing``, the deck
workbook in ``reader/deck_import``, the club games' hidden JSON in ``hanafuda/forms``, the
kept forms in ``common/kept_forms``) and refuses past a limit with a sentence naming it. The
table is listed in ``docs/limits.md``; ``tests/security/test_hostile_inputs.py`` builds a
hostile input for each path and measures the refusal's time and memory.

Every figure is generous for the real thing (a 300-team entry sheet, a phone's photo, a card
read in 5 seconds, a reading of 100 cards) and far below what stops a laptop.
"""

from __future__ import annotations

# --- Entry workbooks (tournament/imports; also the deck workbook's zip) ------------------------

#: Bytes of an uploaded entry workbook (a 300-team entry file is far below 1 MB).
ENTRY_FILE_BYTES = 5 * 1024 * 1024
#: Members of the workbook's zip (a workbook has a dozen or two).
ENTRY_ZIP_MEMBERS = 500
#: Uncompressed bytes of all members together, and of one worksheet.
ENTRY_UNCOMPRESSED_BYTES = 96 * 1024 * 1024
#: Uncompressed bytes of a part openpyxl parses whole (styles, shared strings, the workbook).
ENTRY_PART_BYTES = 16 * 1024 * 1024
#: Cells in one row (Excel's own maximum is 16,384 columns).
ENTRY_CELLS_PER_ROW = 16_384
#: Cells in one sheet (5,000 rows of 100 columns).
ENTRY_CELLS = 500_000
#: Highest row number (Excel's own maximum).
ENTRY_ROW_NUMBER = 1_048_576
#: Shared strings (a 300-team entry file has a few thousand).
ENTRY_SHARED_STRINGS = 50_000
#: Merged ranges in the sheet read (300 teams with 所属, 部門 and 引率者 merged: 900).
ENTRY_MERGED_RANGES = 2_000
#: Cells filled from merged ranges, all ranges together (5,000 rows of 4 fillable columns).
ENTRY_MERGED_CELLS = 20_000
#: Non-blank rows read below the header.
ENTRY_DATA_ROWS = 5_000
#: Columns read (those beyond are ignored).
ENTRY_COLUMNS = 100
#: Characters kept of one cell (Excel's own limit).
ENTRY_CELL_CHARS = 32_767
#: Seconds (wall clock) for checking and reading one workbook.
ENTRY_SECONDS = 15.0

# --- Photos of recording sheets (common/images) -------------------------------------------------

#: Bytes of an uploaded photo.
PHOTO_BYTES = 10 * 1024 * 1024
#: Pixels of the photo as stored in the file (a 50-megapixel phone camera).
PHOTO_PIXELS = 60_000_000
#: Bytes the decoded photo takes in memory: pixels (after JPEG's reduced decoding) × bytes per
#: pixel (3 for RGB, 4 for RGBA); a 12-megapixel PNG with transparency is 48 MB.
PHOTO_DECODED_BYTES = 64 * 1024 * 1024
#: The formats a phone's camera or gallery writes: 8-bit JPEG (MPO: a JPEG with a second
#: frame), PNG and WebP. TIFF, BMP, GIF and others are refused (no camera writes them; TIFF
#: holds 32-bit floats). HEIC is not decoded by this installation's Pillow.
PHOTO_FORMATS = frozenset({"JPEG", "MPO", "PNG", "WEBP"})
#: The pixel modes of 8 bits per channel, with the bytes each pixel takes decoded.
PHOTO_MODES = {"1": 1, "L": 1, "P": 1, "LA": 2, "PA": 2, "RGB": 3, "YCbCr": 3, "RGBA": 4, "RGBX": 4, "CMYK": 4}
#: Photos decoded at once in one server process (the others wait their turn).
PHOTO_DECODERS = 1
#: Seconds a photo waits for its turn to be decoded before it is refused as "busy".
PHOTO_WAIT_SECONDS = 30

# --- The reader's recordings (reader/services/recordings) ---------------------------------------

#: Bytes of an uploaded recording.
AUDIO_BYTES = 5 * 1024 * 1024
#: Longest recording, seconds (a card read once takes some 5 s).
AUDIO_SECONDS = 30
#: Shortest recording, seconds (less is a click, not a reading).
AUDIO_MIN_SECONDS = 0.2
#: Boxes nested inside one another in an M4A file (a real one nests 8 deep: moov/udta/meta/ilst/…).
AUDIO_BOX_DEPTH = 16
#: Boxes in an M4A file, all levels (a real one has a few dozen).
AUDIO_BOXES = 5_000

# --- The reader's log (reader/log_json, reader/sessions) ----------------------------------------

#: Bytes of one post of log lines (500 lines of ~150 bytes are ~75 kB).
READER_LOG_BYTES = 256 * 1024
#: Nesting of the post's JSON (object, list, line: 3).
READER_LOG_DEPTH = 8
#: Lines in one post.
READER_LOG_LINES_PER_POST = 500
#: Lines of one reading (100 cards read twice, the phrases, pauses and resumes: under 600).
READER_LOG_LINES_PER_READING = 2_000

# --- Results and key files (series/exchange/signing) -------------------------------------------

#: Bytes of a results file (a district of 500 teams is well under 1 MB).
RESULTS_FILE_BYTES = 20 * 1024 * 1024
#: Bytes of the results file's header line (about 250) and of a key file (about 400).
RESULTS_HEADER_BYTES = 4096
KEY_FILE_BYTES = 64 * 1024
#: Nesting of the header and the key file (flat), and of the contents (series → player: 5).
RESULTS_HEADER_DEPTH = 1
KEY_FILE_DEPTH = 1
RESULTS_CONTENTS_DEPTH = 16

# --- Deck workbooks (reader/deck_import) --------------------------------------------------------

#: Bytes of an uploaded deck workbook (its zip is checked with the entry workbooks' limits).
DECK_FILE_BYTES = 5 * 1024 * 1024

# --- Every JSON read from outside (common/bounded_json) -----------------------------------------

#: Characters of one text in a JSON document (names ≤ 120, ids ≤ 64).
JSON_TEXT_CHARS = 1000
#: The club games' hidden list of earlier draws (hanafuda/forms): bytes, nesting, draws.
DRAW_HISTORY_BYTES = 16 * 1024
DRAW_HISTORY_DEPTH = 2
DRAW_HISTORY_DRAWS = 50

# --- Forms kept after a refusal (common/kept_forms) ---------------------------------------------

#: Bytes of the values kept of one refused form, and how long they are offered back (seconds).
KEPT_FORM_BYTES = 16 * 1024
KEPT_FORM_SECONDS = 10 * 60
#: Forms of clients without a session kept at once (in the cache, never in the session table),
#: per ``KEPT_FORM_SECONDS``: past it, a refused anonymous form keeps nothing.
KEPT_FORMS_ANONYMOUS = 200

# --- Sessions (ops serve, ops/backups) ----------------------------------------------------------

#: Seconds between two clearings of expired sessions while ``make serve`` runs.
SESSION_CLEAR_SECONDS = 15 * 60


def table() -> list[tuple[str, object]]:
    """Every limit of this module as ``[(name, value)]``, in the order written (docs/limits.md
    lists them; a test checks the page names each one)."""
    return [(name, value) for name, value in globals().items() if name.isupper() and not name.startswith("_")]
