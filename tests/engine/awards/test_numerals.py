"""漢数字 for vertical certificates (issue 33, item 1; docs/rules/certificates.md, "Numbers")."""

import pytest

from awards.engine.numerals import kanji_number, kanji_numerals


@pytest.mark.parametrize(
    "n, kanji",
    [
        (0, "〇"),
        (1, "一"),
        (9, "九"),
        (10, "十"),
        (11, "十一"),
        (19, "十九"),
        (20, "二十"),
        (21, "二十一"),
        (99, "九十九"),
        (100, "百"),
        (101, "百一"),
        (110, "百十"),
        (111, "百十一"),
        (200, "二百"),
        (999, "九百九十九"),
        (1000, "千"),
        (1110, "千百十"),
        (2000, "二千"),
        (2026, "二千二十六"),
        (9999, "九千九百九十九"),
        (10000, "一万"),
        (10001, "一万一"),
        (20000, "二万"),
        (12345, "一万二千三百四十五"),
        (10_000_000, "千万"),
        (100_000_000, "一億"),
        (100_010_000, "一億一万"),
    ],
)
def test_kanji_number(n, kanji):
    assert kanji_number(n) == kanji


@pytest.mark.parametrize("bad", [-1, 10**16, True, 1.5, "3"])
def test_kanji_number_refuses(bad):
    with pytest.raises(ValueError):
        kanji_number(bad)


@pytest.mark.parametrize(
    "text, kanji",
    [
        ("第3位", "第三位"),
        ("第21回", "第二十一回"),
        ("第10回", "第十回"),
        ("令和9年1月17日", "令和九年一月十七日"),
        ("令和元年5月1日", "令和元年五月一日"),
        ("令和10年12月31日", "令和十年十二月三十一日"),
        ("１９２５年", "千九百二十五年"),
        ("優勝", "優勝"),
        ("", ""),
        ("1" * 17, "1" * 17),
    ],
)
def test_kanji_numerals(text, kanji):
    assert kanji_numerals(text) == kanji
