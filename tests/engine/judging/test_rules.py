"""The rules of Hitachi Folk Karuta as pure Python (judging.engine.rules), table-driven.

Every expectation below is read from docs/rules/hitachi-karuta.md (56 cards, more cards wins, level
cards go to the holder of 「り」, じゃんけん when the referee holds it, at most three
じゃんけん decisions a game, the touch judgment matrix, walkover 28–0).
"""

import re

import pytest

from judging.engine import rules
from judging.engine.rules import (
    CARD_TOTAL,
    MAX_RPS_DECISIONS,
    TOUCH_MATRIX,
    DecidedBy,
    JokerHolder,
    Outcome,
    SheetProblem,
    SheetValues,
    Side,
    TouchState,
    Verdict,
    decide_winner,
    touch_verdict,
    validate_sheet,
    walkover_cards,
)

A, B, REF = JokerHolder.A, JokerHolder.B, JokerHolder.REFEREE


def sheet(cards_a, cards_b, referee_cards=0, joker=A, rps_winner=None, rps_used=0):
    return SheetValues(cards_a, cards_b, referee_cards, joker, rps_winner, rps_used)


# --- constants --------------------------------------------------------------------------


def test_the_deck_has_56_cards_and_a_match_at_most_three_rps_decisions():
    assert CARD_TOTAL == 56
    assert MAX_RPS_DECISIONS == 3
    assert rules.WALKOVER_WIN_CARDS == 28


# --- every problem code, each from a minimal failing sheet ------------------------------

PROBLEMS = [
    # id, sheet, expected (field, problem) list
    ("cards_a_as_text", sheet("28", 28), [("cards_a", SheetProblem.NOT_A_WHOLE_NUMBER)]),
    ("cards_b_as_float", sheet(28, 28.0), [("cards_b", SheetProblem.NOT_A_WHOLE_NUMBER)]),
    ("referee_cards_none", sheet(28, 28, None), [("referee_cards", SheetProblem.NOT_A_WHOLE_NUMBER)]),
    ("cards_as_bool", sheet(True, 28), [("cards_a", SheetProblem.NOT_A_WHOLE_NUMBER)]),
    ("cards_a_negative", sheet(-1, 28), [("cards_a", SheetProblem.NEGATIVE)]),
    ("referee_negative", sheet(28, 28, -1), [("referee_cards", SheetProblem.NEGATIVE)]),
    ("cards_b_too_many", sheet(0, 57, joker=B), [("cards_b", SheetProblem.TOO_MANY)]),
    ("total_short", sheet(28, 27), [("__all__", SheetProblem.TOTAL_MISMATCH)]),
    ("total_over", sheet(30, 27), [("__all__", SheetProblem.TOTAL_MISMATCH)]),
    ("referee_makes_total_over", sheet(28, 27, 2), [("__all__", SheetProblem.TOTAL_MISMATCH)]),
    ("joker_missing", sheet(30, 26, joker=None), [("joker_holder", SheetProblem.JOKER_MISSING)]),
    ("joker_at_a_with_no_cards", sheet(0, 56, joker=A), [("joker_holder", SheetProblem.JOKER_HOLDER_HAS_NO_CARDS)]),
    ("joker_at_b_with_no_cards", sheet(56, 0, joker=B), [("joker_holder", SheetProblem.JOKER_HOLDER_HAS_NO_CARDS)]),
    (
        "joker_at_referee_without_cards",
        sheet(30, 26, 0, joker=REF),
        [("joker_holder", SheetProblem.JOKER_WITH_REFEREE_NEEDS_REFEREE_CARD)],
    ),
    ("tie_referee_joker_without_rps", sheet(27, 27, 2, joker=REF), [("rps_winner", SheetProblem.TIE_NEEDS_RPS_WINNER)]),
    (
        "rps_winner_on_a_card_win",
        sheet(30, 26, rps_winner=Side.A),
        [("rps_winner", SheetProblem.RPS_WINNER_NOT_APPLICABLE)],
    ),
    (
        "rps_winner_on_a_joker_tie",
        sheet(28, 28, joker=B, rps_winner=Side.B),
        [("rps_winner", SheetProblem.RPS_WINNER_NOT_APPLICABLE)],
    ),
    ("rps_used_four", sheet(30, 26, rps_used=4), [("rps_used", SheetProblem.RPS_USED_OUT_OF_RANGE)]),
    ("rps_used_negative", sheet(30, 26, rps_used=-1), [("rps_used", SheetProblem.RPS_USED_OUT_OF_RANGE)]),
    ("rps_used_text", sheet(30, 26, rps_used="1"), [("rps_used", SheetProblem.NOT_A_WHOLE_NUMBER)]),
]


@pytest.mark.parametrize("values, expected", [p[1:] for p in PROBLEMS], ids=[p[0] for p in PROBLEMS])
def test_a_bad_sheet_reports_exactly_its_problem(values, expected):
    assert validate_sheet(values) == expected


def test_every_problem_code_has_a_failing_example_above():
    seen = {problem for _, _, expected in PROBLEMS for _, problem in expected}
    assert seen == set(SheetProblem)


@pytest.mark.parametrize("values, expected", [p[1:] for p in PROBLEMS], ids=[p[0] for p in PROBLEMS])
def test_decide_winner_raises_on_an_invalid_sheet(values, expected):
    with pytest.raises(ValueError, match=re.escape(f"invalid recording sheet: {expected}")):
        decide_winner(values)


def test_a_missing_joker_is_reported_even_when_the_total_is_wrong():
    problems = validate_sheet(sheet(28, 27, joker=None))
    assert ("__all__", SheetProblem.TOTAL_MISMATCH) in problems
    assert ("joker_holder", SheetProblem.JOKER_MISSING) in problems


# --- valid sheets and the derived winner -------------------------------------------------

VALID = [
    # id, sheet, winner, decided_by
    ("a_more_cards", sheet(30, 26), Side.A, DecidedBy.CARDS),
    ("b_more_cards_b_has_joker", sheet(20, 36, joker=B), Side.B, DecidedBy.CARDS),
    ("b_more_cards_a_has_joker", sheet(27, 29, joker=A), Side.B, DecidedBy.CARDS),
    ("one_card_margin", sheet(28, 27, 1, joker=REF), Side.A, DecidedBy.CARDS),
    ("whitewash", sheet(56, 0), Side.A, DecidedBy.CARDS),
    ("joker_a_on_28_28", sheet(28, 28, joker=A), Side.A, DecidedBy.JOKER),
    ("joker_b_on_28_28", sheet(28, 28, joker=B), Side.B, DecidedBy.JOKER),
    ("joker_b_on_27_27_with_referee_cards", sheet(27, 27, 2, joker=B), Side.B, DecidedBy.JOKER),
    ("referee_joker_rps_a_on_27_27", sheet(27, 27, 2, joker=REF, rps_winner=Side.A), Side.A, DecidedBy.RPS),
    ("referee_joker_rps_b_on_27_27", sheet(27, 27, 2, joker=REF, rps_winner=Side.B), Side.B, DecidedBy.RPS),
    ("referee_joker_rps_b_on_0_0", sheet(0, 0, 56, joker=REF, rps_winner=Side.B), Side.B, DecidedBy.RPS),
    ("referee_joker_card_win", sheet(26, 28, 2, joker=REF), Side.B, DecidedBy.CARDS),
    ("three_rps_decisions", sheet(30, 26, rps_used=3), Side.A, DecidedBy.CARDS),
]


@pytest.mark.parametrize("values, winner, decided_by", [v[1:] for v in VALID], ids=[v[0] for v in VALID])
def test_a_valid_sheet_has_no_problem_and_a_derived_winner(values, winner, decided_by):
    assert validate_sheet(values) == []
    assert decide_winner(values) == Outcome(winner, decided_by)


def test_a_tie_with_the_joker_at_the_referee_needs_rps_winner():
    assert ("rps_winner", SheetProblem.TIE_NEEDS_RPS_WINNER) in validate_sheet(sheet(27, 27, 2, joker=REF))


def test_every_valid_match_has_a_winner_whatever_the_split():
    for a in range(0, CARD_TOTAL + 1):
        for referee in (0, 1, 2):
            b = CARD_TOTAL - referee - a
            if b < 0:
                continue
            for joker in (A, B, REF):
                rps = Side.A if a == b and joker is REF else None
                values = sheet(a, b, referee, joker, rps)
                if validate_sheet(values):
                    continue
                assert decide_winner(values).winner in (Side.A, Side.B)


def test_the_deck_size_is_a_parameter():
    assert validate_sheet(sheet(20, 20, joker=A), card_total=40) == []
    assert validate_sheet(sheet(20, 20, joker=A)) == [("__all__", SheetProblem.TOTAL_MISMATCH)]
    assert validate_sheet(sheet(41, 0), card_total=40)[0] == ("cards_a", SheetProblem.TOO_MANY)


def test_side_other_swaps_a_and_b():
    assert Side.A.other is Side.B
    assert Side.B.other is Side.A


# --- touch judgment matrix (判定表) -------------------------------------------------------

T = TouchState
# Transcribed row by row from the table of docs/rules/hitachi-karuta.md, "Touch judgment matrix"
# (rows team A, columns team B).
RULES_PAGE_TABLE = {
    T.BOTH: {T.BOTH: "RPS", T.CORRECT_ONLY: "B", T.WRONG_ONLY: "A", T.NEITHER: "RPS"},
    T.CORRECT_ONLY: {T.BOTH: "A", T.CORRECT_ONLY: "RPS", T.WRONG_ONLY: "A", T.NEITHER: "A"},
    T.WRONG_ONLY: {T.BOTH: "B", T.CORRECT_ONLY: "B", T.WRONG_ONLY: "RPS", T.NEITHER: "B"},
    T.NEITHER: {T.BOTH: "RPS", T.CORRECT_ONLY: "B", T.WRONG_ONLY: "A", T.NEITHER: "first"},
}
PAGE_WORD = {"A": Verdict.A, "B": Verdict.B, "RPS": Verdict.RPS, "first": Verdict.FIRST_TO_TOUCH}
CELLS = [(a, b, PAGE_WORD[word]) for a, row in RULES_PAGE_TABLE.items() for b, word in row.items()]


@pytest.mark.parametrize("state_a, state_b, verdict", CELLS, ids=[f"{a}-{b}" for a, b, _ in CELLS])
def test_each_cell_of_the_touch_matrix_matches_the_rules_page(state_a, state_b, verdict):
    assert TOUCH_MATRIX[(state_a, state_b)] is verdict
    assert touch_verdict(state_a, state_b) is verdict
    assert touch_verdict(state_a.value, state_b.value) is verdict  # plain strings accepted


def test_the_touch_matrix_has_exactly_sixteen_cells():
    assert len(CELLS) == 16
    assert set(TOUCH_MATRIX) == {(a, b) for a in TouchState for b in TouchState}


SWAPPED = {
    Verdict.A: Verdict.B,
    Verdict.B: Verdict.A,
    Verdict.RPS: Verdict.RPS,
    Verdict.FIRST_TO_TOUCH: Verdict.FIRST_TO_TOUCH,
}


@pytest.mark.parametrize("state_a, state_b", [(a, b) for a in TouchState for b in TouchState])
def test_swapping_the_teams_swaps_a_and_b_verdicts_and_keeps_rps_and_first_to_touch(state_a, state_b):
    assert touch_verdict(state_b, state_a) is SWAPPED[touch_verdict(state_a, state_b)]


def test_an_unknown_touch_state_is_refused():
    with pytest.raises(ValueError, match="'sideways' is not a valid TouchState"):
        touch_verdict("sideways", T.BOTH)


# --- walkover -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "winner, cards, expected",
    [(Side.A, 28, (28, 0)), (Side.B, 28, (0, 28)), (Side.A, 20, (20, 0)), (Side.B, 20, (0, 20))],
)
def test_walkover_cards_give_the_present_team_the_cards_and_the_absent_none(winner, cards, expected):
    assert walkover_cards(winner, cards) == expected


def test_a_walkover_is_28_to_0_by_default():
    assert walkover_cards(Side.A) == (28, 0)
    assert walkover_cards(Side.B) == (0, 28)
