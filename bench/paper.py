#!/usr/bin/env python
"""Time each kind of printed paper (tournament.paper, judging.paper.touch_matrix) on realistic sizes.

Usage (from anywhere)::

    .venv/bin/python bench/paper.py [--repeat 3] [--out-dir /tmp/paper]

Sizes: 対戦表 40 courts × 12 games; 受付名簿 500 teams (3–4 players with furigana);
順位表 100 groups of 4–6 teams; トーナメント表 4 divisions of 16-team brackets with a
third-place game; 成績一覧 12 divisions; 判定表 one page; 賞状 100 certificates written
vertically (issue 19).  Prints the font used, then seconds, pages and size per kind, and the
time per page as a ratio to the 受付名簿's time per page in the same run (the reference).
The first run includes registering the font.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
import time
from io import BytesIO

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django  # noqa: E402

django.setup()  # the certificates' refusals are translated text

from awards.paper.certificates import CertificateText, PaperLayout, render_certificates  # noqa: E402
from common.pdf.fonts import describe_font, japanese_font  # noqa: E402
from judging.paper.touch_matrix import touch_matrix_pdf  # noqa: E402
from tournament.paper import (  # noqa: E402
    BracketMatch,
    EventInfo,
    GroupSheet,
    ReceptionPlayer,
    ReceptionTeam,
    ResultEntry,
    StandingLine,
    TimetableMatch,
    bracket_pdf,
    court_timetables_pdf,
    final_results_pdf,
    reception_list_pdf,
    standings_pdf,
)

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
SURNAMES = [
    ("山田", "やまだ"),
    ("佐々木", "ささき"),
    ("髙橋", "たかはし"),
    ("小野寺", "おのでら"),
    ("鈴木", "すずき"),
    ("渡邉", "わたなべ"),
    ("齋藤", "さいとう"),
    ("菊地", "きくち"),
]
GIVEN = [
    ("花子", "はなこ"),
    ("健太郎", "けんたろう"),
    ("美咲", "みさき"),
    ("大知", "たいち"),
    ("結衣", "ゆい"),
    ("蒼", "あおい"),
    ("陽菜", "ひな"),
    ("湊", "みなと"),
]
EVENT = EventInfo("ひたち郷土かるた大会", 12, datetime.date(2025, 5, 3), "多賀市民プラザ")
T0 = datetime.datetime(2025, 5, 3, 0, 30, tzinfo=datetime.UTC)  # 09:30 JST


def team_name(i: int) -> str:
    return f"{AREAS[i % len(AREAS)]}{KINDS[(i // 3) % len(KINDS)]}{SUFFIX[(i // 7) % len(SUFFIX)]}"


def timetables(courts: int = 40, matches: int = 12):
    out = []
    for c in range(courts):
        rows = []
        for g in range(matches):
            knockout = g >= matches - 2
            rows.append(
                TimetableMatch(
                    match_number=c * matches + g + 1,
                    start=T0 + datetime.timedelta(minutes=20 * g),
                    division=DIVISIONS[c % len(DIVISIONS)],
                    stage="準決勝" if knockout else "予選リーグ",
                    group="" if knockout else f"{'ABCDEFGH'[c % 8]}リーグ",
                    team_a=None if knockout else team_name(c * 7 + g),
                    team_b=None if knockout else team_name(c * 7 + g + 3),
                    result="30-26" if g < 4 else "",
                )
            )
        out.append((f"第{c + 1}コート", rows))
    return out


def reception(teams: int = 500):
    out = []
    for t in range(teams):
        players = []
        for p in range(4 if t % 3 == 0 else 3):
            (s, sk), (g, gk) = SURNAMES[(t + p) % 8], GIVEN[(t * 3 + p) % 8]
            players.append(
                ReceptionPlayer(
                    f"{s} {g}", f"{sk} {gk}", f"{(t + p) % 6 + 1}年", is_leader=p == 0, is_substitute=p == 3
                )
            )
        out.append(
            ReceptionTeam(t + 1, DIVISIONS[t * 4 // teams], team_name(t), f"日立市立{AREAS[t % 16]}小学校", players)
        )
    return out


def standings(groups: int = 100):
    out = []
    for g in range(groups):
        n = 4 + g % 3
        lines = [
            StandingLine(
                str(i + 1),
                team_name(g * 6 + i),
                f"{AREAS[i]}小",
                n - 1,
                n - 1 - i,
                i,
                100 - 9 * i,
                70 + 5 * i,
                30 - 14 * i,
                "" if i == 0 else "勝数",
            )
            for i in range(n)
        ]
        cross = [["" if i == j else ("○ 30-26" if i < j else "● 26-30") for j in range(n)] for i in range(n)]
        out.append(
            GroupSheet(DIVISIONS[g * 4 // groups], f"{'ABCDEFGH'[g % 8]}リーグ", f"第{g + 1}コート", lines, cross)
        )
    return out


def brackets(divisions: int = 4, teams: int = 16):
    out = []
    for d in range(divisions):
        matches, number, count, r = [], 1, teams // 2, 0
        names = [team_name(d * 16 + k) for k in range(teams)]
        stages = {8: "1回戦", 4: "準々決勝", 2: "準決勝", 1: "決勝"}
        while count >= 1:
            for p in range(count):
                span = 2**r
                matches.append(
                    BracketMatch(
                        r,
                        p,
                        stages.get(count, f"{r + 1}回戦"),
                        number,
                        names[2 * p * span],
                        names[(2 * p + 1) * span],
                        "30",
                        "26",
                        "A" if d % 2 == 0 else None,
                    )
                )
                number += 1
            count //= 2
            r += 1
        third = [BracketMatch(r - 1, 0, "3位決定戦", number, names[4], names[12], "28", "28", "B")]
        out.append((DIVISIONS[d % 4], matches, third))
    return out


def results(divisions: int = 12):
    out = []
    for d in range(divisions):
        entries = [
            ResultEntry(
                place,
                team_name(d * 4 + k),
                f"{AREAS[k]}小学校",
                [f"{SURNAMES[(d + k + p) % 8][0]} {GIVEN[(d + p) % 8][0]}" for p in range(3)],
            )
            for k, place in enumerate(("優勝", "準優勝", "第3位", "第3位"))
        ]
        out.append((f"{DIVISIONS[d % 4]}（{d // 4 + 1}）", entries))
    return out


def certificates(count: int = 100):
    """``count`` member certificates of one division, names varied, on A4 portrait."""
    body = "あなたは第21回ひたち郷土かるた大会 小学生高学年の部において頭書の成績を収められました\nよってこれを賞します"
    issuers = (("ひたち郷土かるた大会実行委員会 会長", "日立 太郎"),)
    return [
        CertificateText(
            "賞状",
            ("優勝", "準優勝", "第3位")[i % 3],
            "小学生高学年の部",
            f"{AREAS[i % len(AREAS)]} 花子",
            "殿",
            body,
            "令和9年1月17日",
            issuers,
            team=team_name(i),
        )
        for i in range(count)
    ]


def pages(pdf: bytes) -> int:
    try:
        from pypdf import PdfReader  # optional: the bench runs without pypdf
    except ImportError:  # pragma: no cover
        return -1
    return len(PdfReader(BytesIO(pdf)).pages)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out-dir", help="write the last PDF of each kind here")
    args = ap.parse_args()

    t0 = time.perf_counter()
    japanese_font()
    print(f"font: {describe_font()}  (registered in {time.perf_counter() - t0:.3f} s)")
    # the data is built once, outside the timed calls
    tt, rc, st, br, rs = timetables(), reception(), standings(), brackets(), results()
    cert = certificates()
    note = "勝数 → 得失札差 → 取り札数 → 直接対決 → 抽選"
    jobs = {
        "受付名簿 500 teams": ("reception", lambda: reception_list_pdf(EVENT, rc)),
        "対戦表 40 courts x 12 games": ("timetables", lambda: court_timetables_pdf(EVENT, tt)),
        "順位表 100 groups": ("standings", lambda: standings_pdf(EVENT, st, note)),
        "トーナメント表 4 x 16 teams": ("brackets", lambda: bracket_pdf(EVENT, br)),
        "成績一覧 12 divisions": ("results", lambda: final_results_pdf(EVENT, rs)),
        "判定表": ("touch", touch_matrix_pdf),
        "賞状 100 certificates": ("certificates", lambda: render_certificates(cert, PaperLayout())),
    }
    reference = None  # seconds per page of the 受付名簿
    for label, (slug, make) in jobs.items():
        best = None
        pdf = b""
        for _ in range(args.repeat):
            t = time.perf_counter()
            pdf = make()
            dt = time.perf_counter() - t
            best = dt if best is None else min(best, dt)
        count = pages(pdf)
        per_page = best / max(count, 1)
        reference = per_page if slug == "reception" else reference
        ratio = f"  {per_page / reference:5.2f}x the 受付名簿 per page" if reference else ""
        print(f"{label:<30} best {best:7.3f} s  ({count} pages, {len(pdf) / 1024:.0f} KiB){ratio}")
        if args.out_dir:
            os.makedirs(args.out_dir, exist_ok=True)
            path = os.path.join(args.out_dir, f"{slug}.pdf")
            with open(path, "wb") as fh:
                fh.write(pdf)


if __name__ == "__main__":
    main()
