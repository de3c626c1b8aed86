"""The scorekeeper's services: sessions, rounds, derived dealers, corrections, undo, settlement."""

import pytest

from hanafuda import services
from hanafuda.engine.options import Options, Players, Storm, TeamPayment
from hanafuda.models import Round, RoundRevision
from tests.hanafuda.helpers import INSTA, ROUND_A, ROUND_B, ROUND_C, engine_game, months, new_session

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_a_session_stores_the_sides_and_the_rules_as_plain_values(user):
    options = Options(rounds=6, storm=Storm.A, payment_cap=8)
    s = new_session(user, options=options, first_dealer=2)
    s.refresh_from_db()
    assert s.sides == ["一郎", "二郎", "三郎"] and s.first_dealer == 2 and s.owner == user
    assert s.rules() == options and s.rounds_planned == 6
    state = services.session_state(s)
    assert state.next_number == 1 and state.next_dealer == 2 and state.settlement.totals == {}


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"sides": ["a", "b"]}, "need 3 sides"),
        ({"sides": ["a", "a", "b"]}, "different"),
        ({"first_dealer": 3}, "first_dealer"),
    ],
)
def test_bad_sessions_are_refused_and_nothing_is_saved(user, kwargs, message):
    args = {"sides": ["a", "b", "c"], "options": Options(), "first_dealer": 0, **kwargs}
    with pytest.raises(ValueError, match=message):
        services.create_session(user, "x", args["sides"], args["options"], first_dealer=args["first_dealer"])
    assert not services.sessions_for(user).exists()


def test_recorded_rounds_derive_the_dealers_scores_and_totals_like_the_engine(user):
    s = new_session(user, first_dealer=1)
    rounds = [ROUND_A, ROUND_B, INSTA, ROUND_C]
    for n, piles in enumerate(rounds, start=1):
        services.record_round(s, n, piles, user=user)
    state = services.session_state(s)
    results, settlement = engine_game(rounds, s.rules(), first_dealer=1)
    assert [r.dealer for r in state.rounds] == [r.dealer for r in results]
    # The winner deals next (musashino-bana.md l.13): round 2 is dealt by round 1's winner.
    assert state.rounds[1].dealer == results[0].next_dealer
    assert state.rounds[2].result.insta_win.side == 1
    assert state.settlement.totals == settlement.totals
    assert [dict(r.running) for r in state.rounds] == [dict(x) for x in settlement.running]
    assert state.next_dealer == results[-1].next_dealer and state.next_number == 5
    # Payments sum to zero in every round.
    assert all(sum(r.result.net.values()) == 0 for r in state.rounds)


def test_a_correction_re_derives_the_dealers_and_totals_of_the_later_rounds(user):
    s = new_session(user)
    for n, piles in enumerate([ROUND_A, ROUND_B, ROUND_C], start=1):
        services.record_round(s, n, piles, user=user)
    before = services.session_state(s)
    # Round 1 corrected: side 2 now wins it, so side 2 deals round 2.
    corrected = [months(2, 4, 11), months(1, 3, 8, 12), months(5, 6, 7, 9, 10)]
    services.correct_round(s, 1, corrected, user=user)
    after = services.session_state(s)
    results, settlement = engine_game([corrected, ROUND_B, ROUND_C], s.rules())
    assert [r.dealer for r in after.rounds] == [r.dealer for r in results]
    assert after.rounds[1].dealer != before.rounds[1].dealer
    assert after.settlement.totals == settlement.totals != before.settlement.totals
    rev = RoundRevision.objects.get()
    assert (rev.number, rev.action, rev.old_captures, rev.new_captures, rev.changed_by) == (
        1,
        "corrected",
        ROUND_A,
        corrected,
        user,
    )


def test_an_unchanged_correction_records_nothing(user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    services.correct_round(s, 1, ROUND_A)
    assert not RoundRevision.objects.exists()


def test_a_wrong_correction_saves_nothing(user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    bad = [ROUND_A[0][:-2], ROUND_A[1], ROUND_A[2]]
    with pytest.raises(services.RoundError, match="not given to any side"):
        services.correct_round(s, 1, bad)
    assert Round.objects.get().captures == ROUND_A and not RoundRevision.objects.exists()


def test_undo_removes_the_last_round_and_keeps_its_cards_in_the_history(user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    services.record_round(s, 2, ROUND_B)
    assert services.undo_last_round(s, user=user) == 2
    assert list(s.round_set.values_list("number", flat=True)) == [1]
    rev = RoundRevision.objects.get()
    assert (rev.number, rev.action, rev.old_captures, rev.new_captures) == (2, "undone", ROUND_B, None)
    assert services.session_state(s).next_number == 2
    services.undo_last_round(s)
    with pytest.raises(services.RoundError, match="No round"):
        services.undo_last_round(s)


@pytest.mark.parametrize(
    "piles, message",
    [
        (
            [ROUND_A[0][:-2], ROUND_A[1], ROUND_A[2]],
            "2 card\\(s\\) are not given to any side: Paulownia chaff 2, Paulownia chaff 3",
        ),
        (
            [ROUND_A[0] + [20], [c for c in ROUND_A[1] if c != 20], ROUND_A[2]],
            "一郎 has 1 card\\(s\\) of Plum blossom \\(2\\) \\(Bush warbler\\)",
        ),
        ([[10, 11], [10], []], "given to both"),
        ([[10, 11, 999], [], []], "Unknown card"),
        ([[10], []], "each of the 3 sides"),
        (
            [
                [10, 30, 80, 110, 120, 12, 32, 82, 111, 122],
                [11, 21, 31, 41, 51, 71, 112, 13, 22, 33, 42, 52, 72, 113],
                [],
            ],
            "both hold a complete insta-win",
        ),
    ],
)
def test_impossible_rounds_are_refused_with_the_problem_named(user, piles, message):
    s = new_session(user)
    with pytest.raises(services.RoundError, match=message):
        services.record_round(s, 1, piles)
    assert not Round.objects.exists()


def test_only_the_next_round_can_be_recorded_and_never_twice(user):
    s = new_session(user, rounds=3)
    with pytest.raises(services.RoundError, match="next round is round 1"):
        services.record_round(s, 2, ROUND_A)
    services.record_round(s, 1, ROUND_A)
    with pytest.raises(services.RoundAlreadySaved, match="Round 1 was saved already"):
        services.record_round(s, 1, ROUND_B)
    services.record_round(s, 2, ROUND_B)
    services.record_round(s, 3, ROUND_C)
    with pytest.raises(services.RoundError, match="All 3 rounds"):
        services.record_round(s, 4, ROUND_A)
    state = services.session_state(s)
    assert state.complete and state.settlement.complete and Round.objects.count() == 3


def test_teams_share_a_pile_and_settle_per_team_or_per_player(user):
    per_player = Options(players=Players.TWO_TEAMS, rounds=3, team_payment=TeamPayment.EACH_PLAYER)
    for options, units in [(None, (0, 1)), (per_player, ("甲", "丙", "乙", "丁"))]:
        s = new_session(user, teams=True, options=options, rounds=3)
        piles = [months(1, 2, 3, 4, 5, 6), months(7, 8, 9, 10, 11, 12)]
        services.record_round(s, 1, piles)
        state = services.session_state(s)
        teams = {0: ("甲", "丙"), 1: ("乙", "丁")}
        _, settlement = engine_game([piles], s.rules(), teams=teams)
        assert state.units == units and state.settlement.totals == settlement.totals
        assert sum(state.settlement.totals.values()) == 0
        assert [services.unit_label(s, u) for u in units][0] in ("甲・丙", "甲")


def test_session_state_needs_one_query(user, django_assert_num_queries):
    s = new_session(user)
    for n, piles in enumerate([ROUND_A, ROUND_B, ROUND_C], start=1):
        services.record_round(s, n, piles)
    with django_assert_num_queries(1):
        services.session_state(s)


def test_sessions_are_private_to_their_owner_except_for_superusers(user, django_user_model):
    other = django_user_model.objects.create_user("other")
    root = django_user_model.objects.create_superuser("root", password="x" * 12)
    s = new_session(user)
    assert list(services.sessions_for(user)) == [s]
    assert not services.sessions_for(other).exists()
    assert list(services.sessions_for(root)) == [s]


def test_the_totals_columns_follow_the_seats_whoever_deals_first(user):
    """The running totals (screen, sheet, Excel) are in the players' column order, not in the
    order of the first round's turn (issue 33: 花子・次郎・太郎 against 太郎・花子・次郎)."""
    s = new_session(user, first_dealer=1)
    services.record_round(s, 1, ROUND_A)
    state = services.session_state(s)
    assert set(state.settlement.units) == {0, 1, 2} and state.settlement.units != (0, 1, 2)
    assert state.units == (0, 1, 2)
