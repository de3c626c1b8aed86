"""The whole touch rule (judging.engine.rules.rule_touch / card_taker), table-driven.

From docs/rules/hitachi-karuta.md, "Touch judgment matrix" and "Play": a hand underneath
decides first (between the teams as within one, no じゃんけん); only a simultaneous touch
goes to the 16-cell table; a じゃんけん beyond the third of a game is the referee leader's
decision; "first to touch the correct card" names a team.
"""

import itertools

import pytest

from judging.engine.rules import (
    MAX_RPS_DECISIONS,
    TOUCH_MATRIX,
    Settlement,
    Side,
    TouchProblem,
    TouchRuling,
    TouchState,
    Verdict,
    card_taker,
    rule_touch,
)

ALL_PAIRS = list(itertools.product(TouchState, TouchState))
EXPECTED_SETTLEMENT = {
    Verdict.A: Settlement.TABLE,
    Verdict.B: Settlement.TABLE,
    Verdict.RPS: Settlement.RPS,
    Verdict.FIRST_TO_TOUCH: Settlement.FIRST_TO_TOUCH,
}


@pytest.mark.parametrize("side", [Side.A, Side.B, "A", "B"])
@pytest.mark.parametrize("state_a, state_b", [(None, None), *ALL_PAIRS])
def test_a_hand_underneath_takes_the_card_whatever_the_touches_and_needs_no_rps(side, state_a, state_b):
    ruling = rule_touch(side, state_a, state_b, rps_used=MAX_RPS_DECISIONS)
    assert ruling == TouchRuling(Verdict(Side(side).value), Settlement.UNDERNEATH)
    assert not ruling.needs_team
    assert card_taker(ruling) is Side(side)
    assert card_taker(ruling, Side(side).other) is Side(side)  # a named team cannot override


def test_both_teams_on_the_correct_card_with_a_hand_underneath_is_not_rps():
    """The issue's case: both on the correct card is じゃんけん in the table, but a hand underneath decides first."""
    assert TOUCH_MATRIX[(TouchState.CORRECT_ONLY, TouchState.CORRECT_ONLY)] is Verdict.RPS
    assert rule_touch("B", TouchState.CORRECT_ONLY, TouchState.CORRECT_ONLY).settlement is Settlement.UNDERNEATH
    assert card_taker(rule_touch("B", "correct_only", "correct_only")) is Side.B


@pytest.mark.parametrize("underneath", [None, ""])
@pytest.mark.parametrize("state_a, state_b", ALL_PAIRS)
def test_a_simultaneous_touch_goes_to_the_sixteen_cells_unchanged(underneath, state_a, state_b):
    verdict = TOUCH_MATRIX[(state_a, state_b)]
    ruling = rule_touch(underneath, state_a.value, state_b.value, rps_used=0)
    assert ruling == TouchRuling(verdict, EXPECTED_SETTLEMENT[verdict])


@pytest.mark.parametrize("rps_used, settlement", [(0, Settlement.RPS), (2, Settlement.RPS), (3, Settlement.REFEREE)])
def test_from_the_fourth_rps_the_referee_leader_decides(rps_used, settlement):
    ruling = rule_touch(None, TouchState.BOTH, TouchState.BOTH, rps_used)
    assert (ruling.verdict, ruling.settlement, ruling.needs_team) == (Verdict.RPS, settlement, True)
    assert card_taker(ruling, "A") is Side.A


def test_the_limit_does_not_touch_verdicts_that_are_not_rps():
    assert rule_touch(None, "correct_only", "neither", 3).settlement is Settlement.TABLE
    assert rule_touch(None, "neither", "neither", 3).settlement is Settlement.FIRST_TO_TOUCH


@pytest.mark.parametrize(
    "ruling, problem",
    [
        (rule_touch(None, "both", "both"), TouchProblem.RPS_WINNER_MISSING),
        (rule_touch(None, "neither", "neither"), TouchProblem.FIRST_TEAM_MISSING),
        (rule_touch(None, "both", "both", 3), TouchProblem.REFEREE_DECISION_MISSING),
    ],
)
def test_a_ruling_that_needs_a_team_names_what_is_missing(ruling, problem):
    with pytest.raises(ValueError, match=str(problem)):
        card_taker(ruling, None)
    with pytest.raises(ValueError, match=str(problem)):
        card_taker(ruling, "")


def test_first_to_touch_records_the_named_team():
    assert card_taker(rule_touch(None, "neither", "neither"), Side.B) is Side.B


@pytest.mark.parametrize("state_a, state_b", [(None, "both"), ("both", None), (None, None), ("", "")])
def test_without_a_hand_underneath_both_touches_are_needed(state_a, state_b):
    with pytest.raises(ValueError, match=str(TouchProblem.STATES_MISSING)):
        rule_touch(None, state_a, state_b)


def test_unknown_values_are_refused():
    with pytest.raises(ValueError):
        rule_touch("C", None, None)
    with pytest.raises(ValueError):
        rule_touch(None, "sideways", "both")
