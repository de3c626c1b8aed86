"""Vertical typesetting (縦書き, issue 19 item 1): which glyph, upright or turned, where in its
cell; columns cut with 禁則; a name fitted into its column (``common/pdf/tategaki.py``).

Pure: the font is a pair of callables, so every case is a row of a table."""

from __future__ import annotations

import pytest

from common.pdf.tategaki import (
    ROTATED,
    SHIFTED,
    SPACE,
    TCY,
    UPRIGHT,
    balanced_columns,
    break_columns,
    column_length,
    fit_column,
    fit_columns,
    layout,
    positions,
    split_name_columns,
)


def all_forms(ch: str) -> bool:
    return True


def no_forms(ch: str) -> bool:
    """A font without the vertical presentation forms (U+FE10–FE4F)."""
    return not any(0xFE10 <= ord(c) <= 0xFE4F for c in ch)


def cells(text, has=all_forms):
    return [(g.text, g.kind) for g in layout(text, has)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("賞状", [("賞", UPRIGHT), ("状", UPRIGHT)]),
        # one digit: upright, full width; two digits: 縦中横 in one cell
        ("令和9年", [("令", UPRIGHT), ("和", UPRIGHT), ("９", UPRIGHT), ("年", UPRIGHT)]),
        ("第21回", [("第", UPRIGHT), ("21", TCY), ("回", UPRIGHT)]),
        ("1月17日", [("１", UPRIGHT), ("月", UPRIGHT), ("17", TCY), ("日", UPRIGHT)]),
        # longer Latin runs are turned 90°
        ("2026年", [("2026", ROTATED), ("年", UPRIGHT)]),
        ("Karuta Club", [("Karuta", ROTATED), ("", SPACE), ("Club", ROTATED)]),
        ("Ａ組", [("Ａ", UPRIGHT), ("組", UPRIGHT)]),
        ("A組", [("Ａ", UPRIGHT), ("組", UPRIGHT)]),
        # the long vowel mark and the wave dash are turned (no vertical form exists)
        ("カード", [("カ", UPRIGHT), ("ー", ROTATED), ("ド", UPRIGHT)]),
        ("1〜3", [("１", UPRIGHT), ("〜", ROTATED), ("３", UPRIGHT)]),
        # brackets and punctuation: the vertical presentation forms when the font has them
        ("「かるた」", [("\ufe41", UPRIGHT), ("か", UPRIGHT), ("る", UPRIGHT), ("た", UPRIGHT), ("\ufe42", UPRIGHT)]),
        ("（秋）", [("\ufe35", UPRIGHT), ("秋", UPRIGHT), ("\ufe36", UPRIGHT)]),
        ("【祝】", [("\ufe3b", UPRIGHT), ("祝", UPRIGHT), ("\ufe3c", UPRIGHT)]),
        ("〈A〉", [("\ufe3f", UPRIGHT), ("Ａ", UPRIGHT), ("\ufe40", UPRIGHT)]),
        (
            "はい、そう。",
            [
                ("は", UPRIGHT),
                ("い", UPRIGHT),
                ("\ufe11", UPRIGHT),
                ("そ", UPRIGHT),
                ("う", UPRIGHT),
                ("\ufe12", UPRIGHT),
            ],
        ),
        ("待て…", [("待", UPRIGHT), ("て", UPRIGHT), ("\ufe19", UPRIGHT)]),
        ("あ‥", [("あ", UPRIGHT), ("\ufe30", UPRIGHT)]),
        # small kana: moved to the upper right of the cell
        ("きゃっ", [("き", UPRIGHT), ("ゃ", SHIFTED), ("っ", SHIFTED)]),
        (
            "ヴァイオリン",
            [("ヴ", UPRIGHT), ("ァ", SHIFTED), ("イ", UPRIGHT), ("オ", UPRIGHT), ("リ", UPRIGHT), ("ン", UPRIGHT)],
        ),
    ],
)
def test_which_glyph(text, expected):
    assert cells(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("「かるた」", [("「", ROTATED), ("か", UPRIGHT), ("る", UPRIGHT), ("た", UPRIGHT), ("」", ROTATED)]),
        ("（秋）", [("（", ROTATED), ("秋", UPRIGHT), ("）", ROTATED)]),
        (
            "はい、そう。",
            [("は", UPRIGHT), ("い", UPRIGHT), ("、", SHIFTED), ("そ", UPRIGHT), ("う", UPRIGHT), ("。", SHIFTED)],
        ),
        ("待て…", [("待", UPRIGHT), ("て", UPRIGHT), ("…", ROTATED)]),
        ("Ａ－Ｂ", [("Ａ", UPRIGHT), ("－", ROTATED), ("Ｂ", UPRIGHT)]),
    ],
)
def test_without_vertical_forms_brackets_turn_and_punctuation_moves(text, expected):
    assert cells(text, no_forms) == expected


def test_small_kana_and_punctuation_sit_in_the_upper_right():
    small, comma = layout("ょ、", no_forms)
    assert small.dx > 0 and small.dy > 0
    assert comma.dx >= 0.5 and comma.dy >= 0.5  # from the lower left to the upper right
    assert layout("あ")[0].dx == layout("あ")[0].dy == 0


def test_full_width_only_when_the_font_has_it():
    assert cells("9", lambda ch: ch.isascii()) == [("9", UPRIGHT)]


def test_a_turned_run_takes_its_width_down_the_column():
    run = layout("Karuta", measure=lambda text: 0.55 * len(text))[0]
    assert run.kind == ROTATED and run.advance == pytest.approx(3.3)


def test_sources_give_the_text_back():
    text = "第21回ひたち郷土かるた大会（令和9年）ー2026年 Karuta Club、きゃっ。葛\U000e0100"
    assert "".join(g.source for g in layout(text)) == text


def test_variation_selector_stays_in_its_cell():
    glyphs = layout("葛\U000e0100城")
    assert [g.source for g in glyphs] == ["葛\U000e0100", "城"]


def test_positions_stack_top_to_bottom():
    placed = positions(layout("第21回 2026"))
    tops = [top for _, top in placed]
    assert tops == sorted(tops) and tops[0] == 0.0
    assert column_length(layout("あい")) == 2.0


def sources(columns):
    return ["".join(g.source for g in column) for column in columns]


@pytest.mark.parametrize(
    ("text", "capacity", "expected"),
    [
        ("あいうえおか", 3, ["あいう", "えおか"]),
        # 禁則: no column starts with 。 or 」: the character before goes with it
        ("あいう。えお", 3, ["あい", "う。え", "お"]),
        ("あいう」。", 4, ["あい", "う」。"]),
        ("あいうえ」。", 4, ["あいう", "え」。"]),
        # no column ends with an opening bracket
        ("あい「うえ」", 3, ["あい", "「う", "え」"]),
        # small kana and ー never head a column
        ("かるたっ", 3, ["かる", "たっ"]),
        ("カードゲーム", 2, ["カー", "ド", "ゲー", "ム"]),
        # a newline forces a column; spaces at either end are dropped
        ("収めました\nよって", 10, ["収めました", "よって"]),
        ("あいう えお", 3, ["あいう", "えお"]),
    ],
)
def test_break_columns_with_kinsoku(text, capacity, expected):
    assert sources(break_columns(layout(text), capacity)) == expected


def test_no_column_starts_with_a_forbidden_character():
    text = "あなたは、第21回大会において「優勝」。よって、これを賞します。" * 3
    for capacity in range(3, 12):
        columns = break_columns(layout(text), capacity)
        assert all(not c[0].no_head and not c[-1].no_tail for c in columns)
        assert all(column_length(c) <= capacity for c in columns)


def test_a_latin_run_longer_than_a_column_is_cut():
    columns = break_columns(layout("Supercalifragilistic"), 3)
    assert "".join(sources(columns)) == "Supercalifragilistic"
    assert all(column_length(c) <= 3 for c in columns)


def test_balanced_columns_leave_no_orphan():
    text = "あなたは第二十一回ひたち郷土かるた大会において頭書の成績を収められました\nよってこれを賞します"
    columns = balanced_columns(layout(text), 13)
    lengths = [column_length(c) for c in columns]
    assert sources(columns)[-1] == "よってこれを賞します"
    assert max(lengths[:-1]) - min(lengths[:-1]) <= 1


NAME20 = "ひたち海浜かるた会ジュニアチーム二十字"  # 20 characters with the 𠮷 below
NAME20 = NAME20 + "𠮷"


@pytest.mark.parametrize(
    ("text", "length", "size", "columns"),
    [
        ("日立太郎", 100.0, 20.0, [1]),  # fits at its size
        ("ひたち海浜かるた会", 100.0, 20.0, [1]),  # shrunk to 100/9 pt, over the floor of 10
        ("ひたち海浜かるた会・Ａ組", 100.0, 20.0, [2]),  # under the floor: two columns
        (NAME20, 120.0, 20.0, [2]),
        (NAME20, 100.0, 20.0, [3]),  # no cut into two fits at the floor (ジ|ュ is 禁則)
        (NAME20, 60.0, 20.0, [4]),  # more columns, never a lost character
        ("😀🎉", 30.0, 20.0, [1]),
        ("😀🎉", 10.0, 20.0, [2]),
    ],
)
def test_fit_column_never_overflows_nor_loses_a_character(text, length, size, columns):
    got_size, got = fit_column(layout(text), length, size, 10.0)
    assert len(got) in columns
    assert "".join(sources(got)).replace(" ", "") == text.replace(" ", "")
    assert 6.0 <= got_size <= size
    assert all(column_length(c) * got_size <= length + 1e-6 for c in got)


def test_a_name_breaks_at_its_natural_point():
    # as common.pdf.text.split_name: balance first, then a change of script or a space
    assert sources(split_name_columns(layout("ひたち海浜かるた会・Ａ組"))) == ["ひたち海浜", "かるた会・Ａ組"]
    assert sources(split_name_columns(layout("日立 太郎"))) == ["日立", "太郎"]


def test_bad_lengths_raise():
    with pytest.raises(ValueError):
        fit_column(layout("あ"), 0, 10, 8)
    with pytest.raises(ValueError):
        break_columns(layout("あ"), 0)


TEAM33 = "日立市立会瀬台小学校子ども会かるた部ひたち海浜ジュニアＡチーム大会"


@pytest.mark.parametrize(
    ("length", "attempts", "columns", "size"),
    [
        (300.0, [(1, 12.0), (2, 12.0), (3, 12.0)], 2, 300.0 / 17),  # two columns before a smaller size
        (180.0, [(1, 12.0), (2, 12.0), (3, 12.0)], 3, 180.0 / 11),  # then three
        (100.0, [(1, 12.0), (2, 12.0), (3, 12.0), (3, 10.0)], 4, 10.0),  # at last as many as it takes
        (800.0, [(1, 20.0), (2, 20.0)], 1, 800.0 / 33),  # one column when it is large enough
    ],
)
def test_fit_columns_takes_more_columns_before_a_smaller_size(length, attempts, columns, size):
    """Issue 19 fix: a 33-character team name takes two or three columns at a large size
    rather than one small one; every character kept, no column too long."""
    got_size, got = fit_columns(layout(TEAM33), length, 30.0, attempts)
    assert len(got) == columns
    assert got_size == pytest.approx(min(30.0, size), rel=0.08)
    assert "".join(g.source for col in got for g in col) == TEAM33
    assert all(column_length(col) * got_size <= length + 1e-6 for col in got)
    assert got_size >= min(f for _n, f in attempts) - 1e-9


def test_fit_columns_refuses_no_length():
    with pytest.raises(ValueError):
        fit_columns(layout("あ"), 0, 10, [(1, 8)])
