"""Where a name may break on a screen (``common.phrases``): between phrases, never inside a
word of one kana script, never before a small kana or closing punctuation, never one character
alone on a line (issue 19, the podium's long team names)."""

import pytest

from common.phrases import NOT_AT_LINE_START, OPENING, phrases

NAMES = [
    "ひたち郷土かるた愛好会（中小路）「さくら」ジュニアチーム第3班",
    "日立市立中小路小学校かるたクラブ「ひまわり」シューターズ",
    "常陸太田ジュニアかるた会（北部）「あおば」チャレンジャーズ第2班",
    "大みか南子ども会A",
    "Hitachi Karuta Club ジュニア",
    "ショートッ",
    "チュ",
    "a",
]


def test_the_testers_name_breaks_at_its_phrases():
    assert phrases(NAMES[0]) == ["ひたち郷土かるた", "愛好会", "（中小路）", "「さくら」", "ジュニアチーム", "第3班"]


@pytest.mark.parametrize("name", NAMES)
def test_pieces_join_into_the_name_and_start_no_line_badly(name):
    pieces = phrases(name)
    assert "".join(pieces) == name
    for before, piece in zip(pieces, pieces[1:], strict=False):
        assert piece[0] not in NOT_AT_LINE_START and before[-1] not in OPENING, pieces
        assert len(piece.strip()) > 1, pieces
    assert "かる" not in [p[-2:] for p in pieces]  # かるた is one word


def test_nothing_gives_no_piece():
    assert phrases("") == []
