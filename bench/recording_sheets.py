#!/usr/bin/env python
"""Time a batch of recording sheets (記録用紙) with realistic Japanese data.

Usage (from anywhere)::

    .venv/bin/python bench/recording_sheets.py [--games 200] [--per-page 1] [--repeat 3]
                                               [--out /tmp/sheets.pdf]

Prints the font used, then seconds total and per sheet for each run, and the reference
measured in the same run: a bare reportlab page per sheet with the same font and the same
text (every string the sheet draws, at its place and size, with ``drawString``; no frames,
no QR code), and the ratio of a sheet to that page (target: about 2x, issue 17 item 4).
The first run includes registering the font (about 0.1-0.2 s); later runs show the steady
state. Each run is a first print (the QR codes encoded, ``clear_qr_cache``) followed by a
reprint (the codes kept by the process); the last two lines are their median ratios. Times
are CPU time of this process (``time.process_time``), so other work on the machine changes
them less. Django's settings are loaded for the translated labels (no database is used).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()  # the sheet's labels are translated strings; no database is opened

from io import BytesIO  # noqa: E402

from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402

from common.pdf import pen as pen_module  # noqa: E402
from common.pdf.fonts import describe_font, japanese_font  # noqa: E402
from common.pdf.qr import clear_qr_cache  # noqa: E402
from judging.paper.recording_sheet import SheetMatch, recording_sheets_pdf  # noqa: E402

AREAS = [
    "ひたち海浜",
    "常陸太田",
    "日立中央",
    "十王",
    "多賀",
    "河原子",
    "大みか",
    "久慈浜",
    "那珂湊",
    "東海村",
    "高萩",
    "北茨城",
    "金沢",
    "成沢",
    "諏訪",
    "助川",
]
KINDS = ["かるた会", "カルタ部", "子ども会", "郷土かるたクラブ", "小学校かるた部", "地区子ども会育成会"]
SUFFIX = ["Ａ組", "Ｂ組", "Ｃ", "①", "チーム", "ジュニア", "々会", "・ひかり"]
DIVISIONS = ["小学生低学年の部", "小学生高学年の部", "中学生の部", "一般の部"]
STAGES = [
    ("予選リーグ", "Aリーグ"),
    ("予選リーグ", "Bリーグ"),
    ("予選リーグ", "Cリーグ"),
    ("準決勝", ""),
    ("決勝", ""),
    ("3位決定戦", ""),
]


def team_name(i: int) -> str:
    return f"{AREAS[i % len(AREAS)]}{KINDS[(i // 3) % len(KINDS)]}{SUFFIX[(i // 7) % len(SUFFIX)]}"


def make_matches(n: int) -> list[SheetMatch]:
    day = datetime.date(2025, 5, 3)
    start0 = datetime.datetime(2025, 5, 3, 0, 30, tzinfo=datetime.UTC)  # 09:30 JST
    matches = []
    for i in range(n):
        stage, group = STAGES[i % len(STAGES)]
        knockout = stage != "予選リーグ"
        matches.append(
            SheetMatch(
                event_name="ひたち郷土かるた大会",
                edition=12,
                event_date=day,
                division=DIVISIONS[i % len(DIVISIONS)],
                stage=stage,
                group=group,
                court=f"第{i % 8 + 1}コート",
                match_number=i + 1,
                start=start0 + datetime.timedelta(minutes=15 * (i // 8)),
                team_a=None if knockout and i % 2 else team_name(2 * i),
                team_b=None if knockout and i % 2 else team_name(2 * i + 1),
                entry_url=f"https://karuta.example.jp/j/c/{i % 8 + 1:02d}k7Qx2/{i + 1}/",
            )
        )
    return matches


def sheet_texts(match: SheetMatch) -> list[tuple[float, float, str, float]]:
    """Every string one sheet draws: (x, y, text, size), recorded from the pen."""
    drawn = []
    original = pen_module.Pen.text

    def record(self, x, y, text, size, **kw):
        drawn.append((x, y, text, size))
        return original(self, x, y, text, size, **kw)

    pen_module.Pen.text = record
    try:
        recording_sheets_pdf([match])
    finally:
        pen_module.Pen.text = original
    return drawn


def bare_pages(pages: list[list[tuple[float, float, str, float]]], font: str) -> bytes:
    """The reference: one bare reportlab page per sheet with the same font and text."""
    buf = BytesIO()
    c = Canvas(buf, pagesize=A4, pageCompression=1, initialFontName=font)
    for texts in pages:
        for x, y, text, size in texts:
            c.setFont(font, size)
            c.drawString(x, y, text)
        c.showPage()
    c.save()
    return buf.getvalue()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", dest="matches", type=int, default=200)
    ap.add_argument("--per-page", type=int, default=1, choices=(1, 2))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", help="write the last PDF here")
    args = ap.parse_args()

    matches = make_matches(args.matches)
    t0 = time.process_time()
    japanese_font()
    print(f"font: {describe_font()}  (registered in {time.process_time() - t0:.3f} s)")
    font = japanese_font()
    texts = [sheet_texts(m) for m in matches]
    pdf = b""
    ratios = []
    reprints = []
    for run in range(1, args.repeat + 1):
        clear_qr_cache()  # a first print: every QR code encoded
        t = time.process_time()
        pdf = recording_sheets_pdf(matches, per_page=args.per_page)
        dt = time.process_time() - t
        t = time.process_time()
        recording_sheets_pdf(matches, per_page=args.per_page)  # a reprint: the codes are kept
        again = time.process_time() - t
        t = time.process_time()
        bare = bare_pages(texts, font)
        ref = time.process_time() - t
        n = max(args.matches, 1)
        print(
            f"run {run}: {args.matches} sheets, per_page={args.per_page}: {dt:.3f} s total, "
            f"{dt / n * 1000:.1f} ms per sheet, {len(pdf) / 1024:.0f} KiB; bare reportlab page "
            f"with the same font and text {ref / n * 1000:.1f} ms ({len(bare) / 1024:.0f} KiB); "
            f"ratio {dt / ref:.1f}x"
        )
        ratios.append(dt / ref)
        reprints.append(again / ref)
    print(f"median ratio of a sheet to the bare page: {statistics.median(ratios):.1f}x (first print)")
    print(f"median ratio of a reprinted sheet to the bare page: {statistics.median(reprints):.1f}x")
    if args.out:
        with open(args.out, "wb") as fh:
            fh.write(pdf)
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
