"""Tests for tournament.engine.names: text, team-name and grade normalisation."""

import pytest

from tournament.engine.names import (
    GRADE_CHOICES,
    clean_display,
    grade_band,
    grade_in_band,
    grade_sort_key,
    name_key,
    normalize_grade,
    normalize_team_name,
    normalize_text,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param(None, "", id="none-becomes-empty"),
        pytest.param("", "", id="empty-stays-empty"),
        pytest.param("\u3000みなと子ども会\u3000", "みなと子ども会", id="full-width-spaces-are-stripped"),
        pytest.param("小川\u3000\u3000光", "小川 光", id="inner-full-width-spaces-collapse-to-one"),
        pytest.param("小川 \t\n 光", "小川 光", id="tabs-and-newlines-collapse-to-one-space"),
        pytest.param("みなと子ども会Ａ", "みなと子ども会A", id="full-width-latin-becomes-ascii"),
        pytest.param("１２３", "123", id="full-width-digits-become-ascii"),
        pytest.param("ｶﾙﾀ", "カルタ", id="half-width-katakana-becomes-full-width"),
        pytest.param("チーム\x0bひたち", "チーム ひたち", id="vertical-tab-counts-as-whitespace"),
        pytest.param("チーム\x01ひたち\x1f", "チームひたち", id="control-characters-are-removed"),
        pytest.param("ひ\u200bたち\ufeff", "ひたち", id="zero-width-and-bom-are-removed"),
        pytest.param(12, "12", id="non-strings-are-converted"),
    ],
)
def test_normalize_text_cleans_up_typed_text(raw, expected):
    assert normalize_text(raw) == expected


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        pytest.param("\u3000みなと子ども会Ａ\u3000", "みなと子ども会Ａ", id="trimmed-full-width-kept"),
        pytest.param("ひたち～かるた会（東）", "ひたち～かるた会（東）", id="tilde-and-brackets-kept"),
        pytest.param("ひたち\u3000\u3000かるた\t会", "ひたち かるた 会", id="spaces-collapse"),
        pytest.param("ﾐﾅﾄ\u200b", "ﾐﾅﾄ", id="half-width-kept-invisible-removed"),
        pytest.param(None, "", id="none"),
    ],
)
def test_the_display_form_keeps_the_spelling_typed(raw, expected):
    """Issue 18, item 7: the stored name is not changed to its NFKC form."""
    assert normalize_team_name(raw) == expected
    assert clean_display(raw) == expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param("ひたち〜かるた", "ひたち～かるた", id="wave-dash-and-full-width-tilde"),
        pytest.param("ひたち～かるた", "ひたち~かるた", id="full-width-and-ascii-tilde"),
        pytest.param("ひたち∼かるた", "ひたち~かるた", id="tilde-operator"),
        pytest.param("A‐1", "A-1", id="hyphen-u2010"),
        pytest.param("A−1", "A-1", id="minus-sign"),
        pytest.param("A–1", "A-1", id="en-dash"),
        pytest.param("A—1", "A-1", id="em-dash"),
        pytest.param("A－1", "A-1", id="full-width-hyphen-minus"),
        pytest.param("Aー1", "A-1", id="long-vowel-between-latin-and-digit"),
        pytest.param("Ａｰ１", "a-1", id="half-width-long-vowel-full-width-latin"),
        pytest.param("チーム2ー3", "チーム2-3", id="long-vowel-between-digits"),
        pytest.param("ひたち（東）", "ひたち(東)", id="full-width-brackets"),
        pytest.param("\u3000ひたち\u3000東\u3000", "ひたち 東", id="ideographic-spaces"),
        pytest.param("ＴＥＡＭ  Mito", "team mito", id="full-width-case-and-spaces"),
    ],
)
def test_name_key_unifies_dashes_tildes_and_spaces(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param("カード", "カ-ド", id="long-vowel-inside-katakana-stays"),
        pytest.param("Aー", "A-", id="long-vowel-after-latin-at-the-end-stays"),
        pytest.param("A-1", "A~1", id="dash-and-tilde-differ"),
    ],
)
def test_name_key_keeps_the_long_vowel_mark_where_it_is_one(a, b):
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize(
    ("band", "expected"),
    [
        pytest.param("小1〜小3", ("小1", "小3"), id="wave-dash"),
        pytest.param("小学4年～6年", ("小4", "小6"), id="bare-year-takes-the-level-before"),
        pytest.param("中1-中3", ("中1", "中3"), id="hyphen"),
        pytest.param("小3", ("小3", "小3"), id="one-grade"),
        pytest.param("小5〜一般", ("小5", "一般"), id="to-adults"),
        pytest.param("", None, id="empty"),
        pytest.param("どなたでも", None, id="not-understood"),
    ],
)
def test_grade_band_reads_the_division_band(band, expected):
    assert grade_band(band) == expected


def test_grade_in_band():
    assert grade_in_band("小2", "小1〜小3")
    assert not grade_in_band("小4", "小1〜小3")
    assert not grade_in_band("中1", "小1〜小3")
    assert grade_in_band("中1", "どなたでも")
    assert grade_in_band("", "小1〜小3")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param("みなと子ども会Ａ", "みなと子ども会A\u3000", id="full-width-letter-and-trailing-space"),
        pytest.param("みなと子ども会 A", "みなと子ども会a", id="inner-space-and-case"),
        pytest.param("Team Mito", "TEAMMITO", id="latin-case-and-spaces"),
    ],
)
def test_name_key_treats_spelling_variants_as_the_same_team(a, b):
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        pytest.param("みなと子ども会A", "みなと子ども会B", id="different-letter"),
        pytest.param("かるた会", "カルタ会", id="hiragana-and-katakana-are-not-folded"),
    ],
)
def test_name_key_keeps_different_names_apart(a, b):
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize(
    ("raw", "hint", "expected"),
    [
        pytest.param(None, "", "", id="none-is-empty"),
        pytest.param("", "", "", id="empty-is-empty"),
        pytest.param("\u3000", "", "", id="blank-is-empty"),
        pytest.param("2年", "", "小2", id="bare-year-defaults-to-elementary"),
        pytest.param("２年", "", "小2", id="full-width-year"),
        pytest.param("小２", "", "小2", id="short-elementary-full-width-digit"),
        pytest.param("小学2年", "", "小2", id="小学-n-年"),
        pytest.param("小学校2年生", "", "小2", id="小学校-n-年生"),
        pytest.param("小 3", "", "小3", id="space-inside"),
        pytest.param("6年生", "", "小6", id="年生-suffix"),
        pytest.param("二年", "", "小2", id="kanji-digit"),
        pytest.param("中1", "", "中1", id="short-junior-high"),
        pytest.param("中学1年", "", "中1", id="中学-n-年"),
        pytest.param("中学校１年生", "", "中1", id="中学校-n-年生-full-width"),
        pytest.param("高1", "", "高1", id="short-high-school"),
        pytest.param("高校3年", "", "高3", id="高校-n-年"),
        pytest.param("3", "", "小3", id="digit-string"),
        pytest.param(3, "", "小3", id="int-from-excel"),
        pytest.param(3.0, "", "小3", id="float-from-excel"),
        pytest.param("一般", "", "一般", id="adult"),
        pytest.param("大人", "", "一般", id="adult-synonym-大人"),
        pytest.param("2年", "中学生の部", "中2", id="bare-year-in-junior-high-division"),
        pytest.param(1, "中学生の部", "中1", id="bare-int-in-junior-high-division"),
        pytest.param("3年", "高校生の部", "高3", id="bare-year-in-high-school-division"),
        pytest.param("5年", "小学生高学年の部", "小5", id="bare-year-in-elementary-division"),
        pytest.param("小2", "中学生の部", "小2", id="explicit-level-beats-the-hint"),
    ],
)
def test_normalize_grade_accepts_common_spellings(raw, hint, expected):
    assert normalize_grade(raw, hint) == expected


@pytest.mark.parametrize(
    ("raw", "hint"),
    [
        pytest.param("①", "", id="circled-digit"),
        pytest.param("⑴", "", id="parenthesised-digit"),
        pytest.param("２番", "", id="number-with-番"),
        pytest.param("7年", "", id="year-7-in-elementary"),
        pytest.param("4年", "中学生の部", id="year-4-in-junior-high"),
        pytest.param("小7", "", id="小7"),
        pytest.param("中4", "", id="中4"),
        pytest.param("高4", "", id="高4"),
        pytest.param("0", "", id="year-0"),
        pytest.param(3.5, "", id="fractional-float"),
        pytest.param(True, "", id="boolean"),
        pytest.param("年長", "", id="kindergarten-word"),
        pytest.param("abc", "", id="latin-text"),
    ],
)
def test_normalize_grade_rejects_anything_else_with_a_value_error(raw, hint):
    with pytest.raises(ValueError) as excinfo:
        normalize_grade(raw, hint)
    assert "grade" in str(excinfo.value).lower()


def test_normalize_grade_error_names_the_range_when_out_of_range():
    with pytest.raises(ValueError, match="1 to 6"):
        normalize_grade("小7")


def test_every_canonical_grade_normalises_to_itself():
    for grade in GRADE_CHOICES:
        assert normalize_grade(grade) == grade


def test_grade_sort_key_orders_elementary_then_junior_high_then_high_then_adults_then_blank():
    shuffled = ["", "一般", "高1", "中3", "小6", "小1", "中1", "小10?"]
    assert sorted(shuffled, key=grade_sort_key) == ["小1", "小6", "中1", "中3", "高1", "一般", "", "小10?"]


def test_grade_sort_key_follows_the_canonical_order():
    assert sorted(reversed(GRADE_CHOICES), key=grade_sort_key) == list(GRADE_CHOICES)


def test_grade_sort_key_normalises_spelling_variants_first():
    assert grade_sort_key("中学校１年生") == grade_sort_key("中1")
