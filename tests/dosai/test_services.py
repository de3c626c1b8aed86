"""The dosai services: editions, dealing, calls replayed through the engine, undo, end of
hand and next hand, totals, and properties over random full hands through the services."""

import random

import pytest
from django.utils import translation

from dosai import editions, services
from dosai.engine import cards
from dosai.engine.calls import call_sequence
from dosai.engine.facts import IN_PLAY
from dosai.engine.hand import House, new_hand
from dosai.engine.options import Options
from dosai.engine.settlement import net_by_player, total_payments
from dosai.models import ClubEdition, Hand
from tests.dosai.factories import PLAYERS6, club_values, make_session, ready_edition

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """The messages are checked in English (the catalogue has the Japanese)."""
    with translation.override("en"):
        yield


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("owner")


def _read_all(hand, count=None):
    r = services.replay(hand)
    for _ in range(count if count is not None else r.options.calls_per_hand):
        hand.refresh_from_db()
        r = services.record_call(hand, None, len(hand.calls))
    hand.refresh_from_db()
    return r


# --- editions ---


def test_a_new_matsui_edition_is_not_ready_and_names_whats_missing(owner):
    club = editions.create_edition(owner, "Matsui Tengudô", ClubEdition.BASE_MATSUI)
    status = editions.edition_status(club)
    assert not status.ready
    assert status.unknown == cards.MATSUI_TENGUDO.unknown_in_play
    assert any("39 of the 60" in p for p in status.problems)
    assert {c.points: c.entered for c in status.classes}[20] == 1  # no. 10, from the seed


def test_partial_values_are_saved_and_the_class_counts_follow(owner):
    club = editions.create_edition(owner, "Matsui", ClubEdition.BASE_MATSUI)
    values = club_values()
    some = dict(list(values.items())[:10])
    status = editions.save_values(club, some, "club set")
    club.refresh_from_db()
    assert club.values == {str(k): v for k, v in some.items()}
    assert not status.ready and len(status.unknown) == len(values) - 10
    status = editions.save_values(club, values, "club set")
    assert status.ready and status.problems == ()
    assert cards.points_in_play(status.edition)[4] == values[4]


def test_a_complete_table_with_wrong_class_counts_says_which_class(owner):
    club = editions.create_edition(owner, "Matsui", ClubEdition.BASE_MATSUI)
    values = club_values()
    twos = [n for n, v in values.items() if v == 2][:2]
    for n in twos:
        values[n] = 3
    status = editions.save_values(club, values, "club set")
    assert not status.ready
    assert "2-point efuda: 15 entered, 17 needed" in status.problems
    assert "3-point efuda: 12 entered, only 10 in this edition" in status.problems


def test_a_sourced_value_cannot_be_changed_or_overwritten(owner):
    club = editions.create_edition(owner, "Matsui", ClubEdition.BASE_MATSUI)
    with pytest.raises(services.DosaiError, match="no. 10 is 20 points"):
        editions.save_values(club, {10: 4}, "club set")
    with pytest.raises(services.DosaiError, match="no. 8 is removed"):
        editions.save_values(club, {8: 2}, "club set")
    with pytest.raises(services.DosaiError, match="where the values come from"):
        editions.save_values(club, {4: 2}, " ")
    club.refresh_from_db()
    assert club.values == {}


def test_a_blank_edition_takes_every_value_from_the_club(owner):
    club = editions.create_edition(owner, "Other maker", ClubEdition.BASE_BLANK)
    status = editions.edition_status(club)
    assert len(status.unknown) == 60
    full = club_values(cards.blank_edition("x"))
    assert editions.save_values(club, full, "our set").ready


# --- sessions and dealing ---


def test_a_session_needs_three_to_six_different_players(owner):
    edition = ready_edition(owner)
    with pytest.raises(services.DosaiError, match="three to six"):
        services.create_session(owner, "t", edition, ["A", "B"], Options())
    with pytest.raises(services.DosaiError, match="different"):
        services.create_session(owner, "t", edition, ["A", "B", "A"], Options())


@pytest.mark.parametrize("players, sizes", [(3, [2, 2, 2]), (4, [2, 2, 1, 1]), (5, [2, 1, 1, 1, 1]), (6, [1] * 6)])
def test_the_numeral_cards_go_round_the_table(players, sizes):
    names = PLAYERS6[:players]
    holdings = services.deal_numeral_cards(names, random.Random(players))
    assert [len(holdings[p]) for p in names] == sizes
    assert sorted(h for hs in holdings.values() for h in hs) == list("123456")


def test_the_app_deals_sixty_efuda_into_six_houses_and_shuffles_the_reading(owner):
    session = make_session(owner, players=PLAYERS6[:4])
    hand = services.start_hand(session, dealing="app", reader="app", rng=random.Random(1))
    dealt = [n for h in hand.houses for row in services.ROWS for n in h[row]]
    assert sorted(dealt) == sorted(IN_PLAY)
    assert [len(h["head"]) for h in hand.houses] == [1] * 6
    assert sorted(hand.reading_order) == sorted(IN_PLAY)
    assert sum(len(v) for v in hand.holdings.values()) == 6


def _layout():
    numbers = sorted(IN_PLAY)
    houses = []
    for i in range(6):
        cards_ = numbers[i * 10 : (i + 1) * 10]
        houses.append(
            {"name": str(i + 1), "head": cards_[:1], "upper": cards_[1:4], "middle": cards_[4:7], "lower": cards_[7:]}
        )
    return houses


def test_a_layout_entered_as_on_the_table_starts_a_hand(owner):
    session = make_session(owner)
    holders = {str(i + 1): p for i, p in enumerate(PLAYERS6)}
    hand = services.start_hand(session, dealing="entered", reader="human", houses=_layout(), holders=holders)
    assert hand.reading_order is None and hand.houses[0]["head"] == [1]
    assert hand.holdings["Aoki"] == ["1"]


def test_a_wrong_layout_names_the_house_and_row_and_saves_nothing(owner):
    session = make_session(owner)
    houses = _layout()
    houses[2]["upper"] = [houses[2]["upper"][0], 8, houses[0]["lower"][0]]
    houses[4]["middle"] = houses[4]["middle"][:2]
    holders = {str(i + 1): p for i, p in enumerate(PLAYERS6)}
    problems = [m for _k, m in services.check_layout(houses, holders, session.players)]
    assert "house 3, upper row: no. 8 is removed before play" in problems
    assert any(m.startswith("house 3, upper row: no. ") and "is already in house 1, lower row" in m for m in problems)
    assert "house 5, middle row: 3 card(s) needed, 2 given" in problems
    with pytest.raises(services.DosaiError, match=r"house 3, upper row: no\. 8 is removed before play"):
        services.start_hand(session, dealing="entered", reader="app", houses=houses, holders=holders)
    assert not Hand.objects.exists()
    holders["6"] = "Aoki"
    assert "Fujii holds no house" in [m for _k, m in services.check_layout(_layout(), holders, session.players)]


def test_a_hand_cannot_start_until_the_edition_is_ready(owner):
    club = editions.create_edition(owner, "Matsui", ClubEdition.BASE_MATSUI)
    session = services.create_session(owner, "t", club, PLAYERS6, Options())
    with pytest.raises(services.DosaiError, match="not ready"):
        services.start_hand(session, dealing="app", reader="app")
    assert not Hand.objects.exists()


def test_rename_needs_a_name_and_delete_refuses_an_edition_in_use(owner, monkeypatch):
    session = make_session(owner)
    edition = session.edition
    with pytest.raises(services.DosaiError, match="Give the edition a name"):
        editions.rename_edition(edition, "  ")
    with pytest.raises(services.DosaiError, match="Give the session a title"):
        services.rename_session(session, "")
    edition.refresh_from_db()
    session.refresh_from_db()
    assert (edition.name, session.title) == ("Matsui Tengudô", "Test table")
    with pytest.raises(services.DosaiError, match="is used by 1 session: Test table"):
        editions.delete_edition(edition)
    # A session made from it between the check and the delete: still refused, nothing deleted.
    monkeypatch.setattr(editions, "edition_users", lambda club: [])
    with pytest.raises(services.DosaiError, match="is now used by a session"):
        editions.delete_edition(edition)
    assert ClubEdition.objects.filter(pk=edition.pk).exists()


def test_delete_a_session_only_as_listed(owner):
    session = make_session(owner)
    hand = services.start_hand(session, dealing="app", reader="app")
    _read_all(hand, 2)
    contents = services.session_contents(session)
    assert contents.hands == ((1, 2, False),) and contents.calls == 2
    with pytest.raises(services.StaleForm, match="The session changed since this page was shown"):
        services.delete_session(session, hands=1, calls=1)
    assert Hand.objects.count() == 1
    assert services.delete_session(session, hands=1, calls=2) == "Test table"
    assert not Hand.objects.exists() and ClubEdition.objects.count() == 1


# --- calls, undo, end of hand ---


def test_calls_and_the_ledger_equal_the_engines_replay(owner):
    session = make_session(owner, players=PLAYERS6[:4])
    hand = services.start_hand(session, dealing="app", reader="app", rng=random.Random(7))
    r = _read_all(hand, 23)
    houses = [House(h["name"], h["head"], h["upper"], h["middle"], h["lower"]) for h in hand.houses]
    state = new_hand(houses, {int(k): v for k, v in hand.points.items()}, holdings=hand.holdings)
    results = call_sequence(state, hand.reading_order[:23])
    assert hand.calls == hand.reading_order[:23]
    assert [dict(line.result.payments) for line in r.lines] == [dict(x.payments) for x in results]
    assert r.house_totals == total_payments(results)
    assert r.player_totals == net_by_player(r.house_totals, hand.holdings)
    assert r.lines[4].result.hako and r.lines[-1].running == r.house_totals


def test_a_human_reader_taps_numbers_and_bad_taps_are_refused(owner):
    session = make_session(owner)
    hand = services.start_hand(session, dealing="app", reader="human")
    services.record_call(hand, 10, 0)
    with pytest.raises(services.DosaiError, match="already read"):
        services.record_call(hand, 10, 1)
    with pytest.raises(services.DosaiError, match="not in the reading pile"):
        services.record_call(hand, 8, 1)
    hand.refresh_from_db()
    assert hand.calls == [10]


def test_a_double_submit_records_once(owner):
    session = make_session(owner)
    hand = services.start_hand(session, dealing="app", reader="app")
    services.record_call(hand, None, 0)
    with pytest.raises(services.StaleForm, match="it showed 0 calls, the hand now has 1"):
        services.record_call(hand, None, 0)
    hand.refresh_from_db()
    assert len(hand.calls) == 1
    with pytest.raises(services.StaleForm, match="it showed 0 calls, the hand now has 1"):
        services.undo_last_call(hand, 0)
    assert services.undo_last_call(hand, 1) == hand.calls[0]
    hand.refresh_from_db()
    assert hand.calls == []


def test_undo_is_exact(owner):
    session = make_session(owner)
    hand = services.start_hand(session, dealing="app", reader="app", rng=random.Random(3))
    before = _read_all(hand, 12)
    after = services.record_call(hand, None, 12)
    services.undo_last_call(hand, 13)
    hand.refresh_from_db()
    again = services.replay(hand)
    assert again.house_totals == before.house_totals and again.state == before.state
    assert after.lines[-1].result.number == hand.reading_order[12]


def test_a_full_hand_ends_after_fifty_calls_settles_and_the_next_hand_adds_up(owner):
    session = make_session(owner, players=PLAYERS6[:5])
    hand = services.start_hand(session, dealing="app", reader="app", rng=random.Random(11))
    with pytest.raises(services.DosaiError, match="not over"):
        services.start_hand(session, dealing="app", reader="app")
    r = _read_all(hand)
    assert r.over and r.calls_made == 50 and len(r.unread) == 10
    assert r.settlement is not None
    with pytest.raises(services.DosaiError, match="over"):
        services.record_call(hand, None, 50)
    assert sum(r.house_totals.values()) == 0
    hand2 = services.start_hand(session, dealing="app", reader="app", rng=random.Random(12))
    assert hand2.number == 2
    r2 = _read_all(hand2, 5)
    totals = services.session_totals(session)
    assert [x.hand.number for x in totals.hands] == [1, 2]
    assert totals.players == {p: r.player_totals[p] + r2.player_totals[p] for p in session.players}
    with pytest.raises(services.DosaiError, match="later hand"):
        services.undo_last_call(hand, 50)


def test_d12_choice_lets_the_holder_turn_46_and_50(owner):
    session = make_session(owner, options=Options(end_free_turn="choice"))
    hand = services.start_hand(session, dealing="app", reader="human", rng=random.Random(5))
    for i, n in enumerate(x for x in sorted(IN_PLAY) if x not in (46, 50)):
        if i == 50:
            break
        services.record_call(hand, n, i)
        hand.refresh_from_db()
    r = services.replay(hand)
    assert r.settlement.turned_free == ()
    r = services.set_turn_free(hand, [46])
    assert r.settlement.turned_free == (46,)


def test_d13_carry_pool_moves_into_the_next_hand(owner):
    session = make_session(owner, options=Options(no_nobori="carry_pool"))
    for seed in range(40):
        hand = services.start_hand(session, dealing="app", reader="app", rng=random.Random(seed))
        r = _read_all(hand)
        if r.settlement.pool_out:
            nxt = services.start_hand(session, dealing="app", reader="app", rng=random.Random(seed + 100))
            assert nxt.carried_pool == r.settlement.pool_out
            assert services.replay(nxt).initial.carried_pool == r.settlement.pool_out
            return
    pytest.skip("no hand without nobori in 40 deals")


# --- properties over random full hands through the services ---


@pytest.mark.parametrize("seed", range(6))
def test_random_full_hands_are_zero_sum_per_call_fifty_calls_and_the_pool_divides(owner, seed):
    rng = random.Random(seed)
    session = make_session(owner, players=PLAYERS6[: 3 + seed % 4], edition=ready_edition(owner, f"e{seed}"))
    hand = services.start_hand(session, dealing="app", reader="app", rng=rng)
    r = _read_all(hand)
    assert len(r.lines) == 50 and r.over
    for line in r.lines:
        assert sum(line.result.payments.values()) == 0
    s = r.settlement
    assert s.pool_out == 0
    if s.takers:
        assert s.share * len(s.takers) == sum(s.fees.values())
    assert sum(r.house_totals.values()) == 0 and sum(r.player_totals.values()) == 0
