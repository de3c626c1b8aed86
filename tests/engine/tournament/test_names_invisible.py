"""One name key for look-alike names (issue 28, item 8): variation selectors and other invisible
marks are ignored for comparison and kept for display."""

import pytest

from tournament.engine.names import (
    INVISIBLE_MARKS,
    clean_display,
    differ_only_invisibly,
    has_invisible_marks,
    name_key,
    strip_invisible,
)

KUZU_IVS = "\u845b\U000e0100"  # 葛 with the ideographic variation selector VS17
PLAIN = "葛飾かるた会"


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        pytest.param(KUZU_IVS + "飾かるた会", PLAIN, id="ideographic-variation-selector-17"),
        pytest.param("\u845b\U000e01ef飾かるた会", PLAIN, id="ideographic-variation-selector-256"),
        pytest.param("\u845b\ufe00飾かるた会", PLAIN, id="variation-selector-1"),
        pytest.param("\u845b\ufe0f飾かるた会", PLAIN, id="variation-selector-16"),
        pytest.param("葛\u200b飾かるた会", PLAIN, id="zero-width-space"),
        pytest.param("葛\u200c飾かるた会", PLAIN, id="zero-width-non-joiner"),
        pytest.param("葛\u200d飾かるた会", PLAIN, id="zero-width-joiner"),
        pytest.param("葛\u2060飾かるた会", PLAIN, id="word-joiner"),
        pytest.param("\ufeff葛飾かるた会", PLAIN, id="byte-order-mark"),
        pytest.param("葛飾\u00adかるた会", PLAIN, id="soft-hyphen"),
        pytest.param("葛飾\u034fかるた会", PLAIN, id="combining-grapheme-joiner"),
        pytest.param("葛飾かるた会\u3164", PLAIN, id="hangul-filler"),
        pytest.param("ｶﾙﾀ\U000e0100Ａ", "カルタA", id="with-nfkc-and-case"),
    ],
)
def test_invisible_marks_do_not_change_the_key(raw, plain):
    assert name_key(raw) == name_key(plain)
    assert has_invisible_marks(raw)
    assert not has_invisible_marks(plain)
    assert differ_only_invisibly(raw, plain)
    assert differ_only_invisibly(plain, raw)


def test_the_display_keeps_the_variation_selector():
    typed = KUZU_IVS + "飾かるた会"
    assert clean_display(typed) == typed
    assert strip_invisible(typed) == PLAIN


def test_visible_differences_still_make_two_names():
    assert name_key(KUZU_IVS + "飾") != name_key("葛西")
    assert not differ_only_invisibly(KUZU_IVS + "飾", "葛西")
    assert not differ_only_invisibly(PLAIN, PLAIN)
    # One key without an invisible mark (full width) is not a look-alike to warn about.
    assert not differ_only_invisibly("Ａ組", "A組")
    assert not differ_only_invisibly(None, "")


def test_the_table_covers_both_variation_selector_blocks():
    assert {chr(c) for c in range(0xFE00, 0xFE10)} <= INVISIBLE_MARKS
    assert {chr(c) for c in range(0xE0100, 0xE01F0)} <= INVISIBLE_MARKS
    assert "葛" not in INVISIBLE_MARKS
