"""The rules of Sanjô Dôsai as pure Python (dosai.engine: facts, options, hand, calls,
settlement), table-driven.

The eleven worked examples D-1 … D-11 and their variants are copied from
docs/rules/sanjo-dosai.md s.3.5 (the tests do not read that file). Where an example
depends on the unknown value of a bakefuda (p30, p33, p54, p61) the expectation is written
as a function of those values and checked for two different sets of them.
"""

import random
from dataclasses import FrozenInstanceError, dataclass, field

import pytest

from dosai.engine.calls import call, call_sequence, hand_over
from dosai.engine.facts import END_FREE, IN_PLAY, REMOVED_BEFORE_PLAY, ROW_SIZES, Row
from dosai.engine.hand import HandState, House, PendingEat, house_in_dealt_order, new_hand
from dosai.engine.options import (
    EatenRow,
    EndFreeTurn,
    ExemptionTiming,
    FeeBasis,
    NoNobori,
    Options,
    PaymentUnit,
    options_as_dict,
    options_from_dict,
)
from dosai.engine.settlement import net_by_player, settle_hand, total_payments

NAMES = ("A", "B", "C", "D", "E", "F")
ROWS = {"H": Row.HEAD, "U": Row.UPPER, "M": Row.MIDDLE, "L": Row.LOWER}

# Values given by the sources (seed and TK2, sanjo-dosai.md s.3.2), copied for the tests.
KNOWN = {
    1: 2, 2: 15, 3: 3, 5: 10, 10: 20, 11: 1, 12: 4, 19: 15, 20: 10, 21: 10, 26: 10,
    28: 10, 32: 3, 36: 10, 37: 10, 38: 15, 41: 2, 42: 1, 44: 2, 51: 4, 59: 2,
}  # fmt: skip
BAKEFUDA_VALUE_SETS = ({30: 1, 33: 2, 54: 3, 61: 4}, {30: 4, 33: 10, 54: 2, 61: 3})


def points_table(bakefuda=BAKEFUDA_VALUE_SETS[0], filler=1):
    """The known values, the bakefuda values under test, and a stand-in ``filler`` for every
    other efuda in play (fictional: the examples never call those)."""
    table = {n: filler for n in IN_PLAY}
    table.update(KNOWN)
    table.update(bakefuda)
    return table


def layout(place=None):
    """Six houses A–F; ``place`` puts efuda at "house.row" (e.g. {10: "A.U"}); the other
    efuda in play fill the free places in number order."""
    place = dict(place or {})
    slots = {(h, r): [] for h in NAMES for r in Row}
    for n, spot in place.items():
        h, r = spot.split(".")
        slots[(h, ROWS[r])].append(n)
    rest = iter(sorted(IN_PLAY - set(place)))
    houses = []
    for h in NAMES:
        rows = {}
        for r in Row:
            cards = slots[(h, r)]
            assert len(cards) <= ROW_SIZES[r]
            while len(cards) < ROW_SIZES[r]:
                cards.append(next(rest))
            rows[r.value] = tuple(cards)
        houses.append(House(h, **rows))
    return tuple(houses)


def position(k, place=None, complete=(), nobori=(), points=None, **fields):
    """The state just before call k, with the ``complete`` rows ("C.M") and the ``nobori``
    houses already extinguished (a position described as in sanjo-dosai.md s.3.5, not played to)."""
    houses = layout(place)
    by_name = {h.name: h for h in houses}
    down = set()
    for spot in complete:
        h, r = spot.split(".")
        down |= set(by_name[h].row(ROWS[r]))
    for h in nobori:
        down |= set(by_name[h].cards)
    return HandState(houses, points or points_table(), face_down=frozenset(down), calls_made=k - 1, **fields)


def ledger(**amounts):
    """Payments of every house, zero unless given."""
    return {h: amounts.get(h, 0) for h in NAMES}


def receives(payee, amount, payers):
    """``payee`` is paid ``amount`` by each house in ``payers``."""
    result = ledger()
    for p in payers:
        result[p] -= amount
        result[payee] += amount
    return result


# --- the eleven worked examples (sanjo-dosai.md s.3.5) ------------------------------------------------


@dataclass(frozen=True)
class Example:
    name: str
    k: int
    place: dict
    calls: tuple  # (number, expected payments: a dict or a function of the bakefuda values)
    complete: tuple = ()
    nobori: tuple = ()
    options: Options = field(default_factory=Options)


EXAMPLES = (
    Example("D-1 plain call", 1, {10: "A.U"},
            calls=((10, ledger(A=100, B=-20, C=-20, D=-20, E=-20, F=-20)),)),
    Example("D-2 row-level exemption", 3, {19: "B.M"}, complete=("C.M", "D.M"),
            calls=((19, ledger(B=45, A=-15, E=-15, F=-15)),)),
    Example("D-3 hako", 5, {28: "C.H"}, complete=("A.H", "F.H"),
            calls=((28, ledger(C=60, B=-20, D=-20, E=-20)),)),
    Example("D-4 bakefuda eats the next call", 6, {30: "D.L", 5: "E.U"},
            calls=((30, lambda p: receives("D", p[30], "ABCEF")),
                   (5, ledger(D=50, A=-10, B=-10, C=-10, E=-10, F=-10)))),
    Example("D-4 under D5(b): the holder does not pay", 6, {30: "D.L", 5: "E.U"},
            options=Options(eaten_holder_pays=False),
            calls=((30, lambda p: receives("D", p[30], "ABCEF")),
                   (5, ledger(D=40, A=-10, B=-10, C=-10, F=-10)))),
    Example("D-5 no. 2 is never eaten", 8, {33: "A.M", 2: "F.U", 37: "B.L"},
            calls=((33, lambda p: receives("A", p[33], "BCDEF")),
                   (2, ledger(F=75, A=-15, B=-15, C=-15, D=-15, E=-15)),
                   (37, ledger(B=100, A=-20, C=-20, D=-20, E=-20, F=-20)))),
    Example("D-5 under D7(b): the eat carries over no. 2", 8, {33: "A.M", 2: "F.U", 37: "B.L"},
            options=Options(eat_survives_no2=True),
            calls=((33, lambda p: receives("A", p[33], "BCDEF")),
                   (2, ledger(F=75, A=-15, B=-15, C=-15, D=-15, E=-15)),
                   (37, ledger(A=100, B=-20, C=-20, D=-20, E=-20, F=-20)))),
    Example("D-6 eaten hako", 14, {54: "C.U", 38: "A.M"}, complete=("E.M",),
            calls=((54, lambda p: receives("C", p[54], "ABDEF")),
                   (38, ledger(C=120, A=-30, B=-30, D=-30, F=-30)))),
    Example("D-7 bakefuda chain", 2, {54: "B.L", 61: "E.M", 36: "A.H"},
            calls=((54, lambda p: receives("B", p[54], "ACDEF")),
                   (61, lambda p: receives("B", p[61], "ACDEF")),
                   (36, ledger(E=50, A=-10, B=-10, C=-10, D=-10, F=-10)))),
    Example("D-7 under D8(b): an eaten bakefuda does not eat", 2, {54: "B.L", 61: "E.M", 36: "A.H"},
            options=Options(eaten_bakefuda_eats=False),
            calls=((54, lambda p: receives("B", p[54], "ACDEF")),
                   (61, lambda p: receives("B", p[61], "ACDEF")),
                   (36, ledger(A=50, B=-10, C=-10, D=-10, E=-10, F=-10)))),
    Example("D-10 a nobori house pays nothing", 31, {26: "C.L"}, nobori=("A",), complete=("D.L",),
            calls=((26, ledger(C=30, B=-10, E=-10, F=-10)),)),
)  # fmt: skip


@pytest.mark.parametrize("bakefuda", BAKEFUDA_VALUE_SETS, ids=["p-set-1", "p-set-2"])
@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_worked_example(example, bakefuda):
    state = position(example.k, example.place, example.complete, example.nobori, points_table(bakefuda))
    for offset, (number, expected) in enumerate(example.calls):
        result = call(state, number, example.options)
        expected = expected(bakefuda) if callable(expected) else expected
        assert result.call_index == example.k + offset
        assert dict(result.payments) == expected, f"{example.name}, call of no. {number}"
        assert sum(result.payments.values()) == 0
        state = result.state


def test_d1_plain_call_extinguishes_the_card_and_names_the_payers():
    result = call(position(1, {10: "A.U"}), 10)
    assert (result.holder, result.row, result.payee, result.amount) == ("A", Row.UPPER, "A", 20)
    assert result.payers == ("B", "C", "D", "E", "F")
    assert not result.hako and not result.eaten
    assert not result.state.is_face_up(10)
    assert result.state.calls_made == 1 and result.state.called == {10}


def test_d3_the_fifth_call_is_hako_and_the_head_counts_as_a_row():
    result = call(position(5, {28: "C.H"}, complete=("A.H", "F.H")), 28)
    assert result.hako and result.amount == 20
    assert result.exempt_row is Row.HEAD
    assert result.payers == ("B", "D", "E")


def test_d4_the_holder_of_an_eaten_card_gets_nothing_and_its_card_is_extinguished():
    first = call(position(6, {30: "D.L", 5: "E.U"}), 30)
    assert first.state.pending_eat == PendingEat("D", 30, Row.LOWER)
    second = call(first.state, 5)
    assert second.eaten and second.eat_used and (second.holder, second.payee) == ("E", "D")
    assert "E" in second.payers
    assert not second.state.is_face_up(5)
    assert second.state.pending_eat is None


def test_d5_no_2_uses_the_eat_up_by_default():
    state = position(8, {33: "A.M", 2: "F.U", 37: "B.L"})
    _, two, ten = call_sequence(state, [33, 2, 37])
    assert not two.eaten and two.eat_used and two.payee == "F"
    assert ten.hako and ten.payee == "B" and ten.call_index == 10


def test_d6_eaten_hako_pays_the_eater_double_and_respects_the_called_cards_row():
    _, hako = call_sequence(position(14, {54: "C.U", 38: "A.M"}, complete=("E.M",)), [54, 38])
    assert hako.hako and hako.eaten and hako.amount == 30
    assert hako.exempt_row is Row.MIDDLE
    assert hako.payers == ("A", "B", "D", "F")


def test_d7_the_eater_of_a_bakefuda_is_replaced_by_that_bakefudas_holder():
    _, second, third = call_sequence(position(2, {54: "B.L", 61: "E.M", 36: "A.H"}), [54, 61, 36])
    assert second.eaten and second.payee == "B"
    assert second.state.pending_eat == PendingEat("E", 61, Row.MIDDLE)
    assert third.eaten and third.payee == "E"


def _end_position(face_up, place=None):
    """The state after the 50th call; ``face_up`` maps a house to how many of its efuda
    (not 46 / 50) are still face up, plus the efuda in ``place`` that stay face up."""
    place = dict(place or {})
    houses = layout(place)
    up = set(place)
    for h in houses:
        ordinary = [n for n in h.cards if n not in END_FREE and n not in place]
        up |= set(ordinary[: face_up.get(h.name, 0)])
    down = IN_PLAY - up
    return HandState(houses, points_table(), face_down=down, called=down, calls_made=50)


def test_d8_end_of_hand_46_is_turned_free_and_two_nobori_houses_share_the_pool():
    # B's only face-up card is 46; C–F keep 3, 2, 2, 2 ordinary cards: 10 uncalled in all.
    state = _end_position({"C": 3, "D": 2, "E": 2, "F": 2}, place={46: "B.U"})
    assert len(IN_PLAY - state.face_down) == 10
    result = settle_hand(state)
    assert result.turned_free == (46,)
    assert result.nobori == ("A", "B")
    assert dict(result.payments) == ledger(A=40, B=40, C=-20, D=-20, E=-20, F=-20)
    assert result.pool_out == 0
    assert all(result.state.is_nobori(h) for h in ("A", "B"))


def test_d9_end_of_hand_a_single_nobori_house_takes_100():
    state = _end_position({"A": 2, "B": 2, "C": 2, "E": 2, "F": 2}, place={46: "D.U", 50: "D.M"})
    state = HandState(state.houses, state.points, face_down=state.face_down | END_FREE,
                      called=state.called | END_FREE, calls_made=50)  # fmt: skip
    result = settle_hand(state)
    assert result.nobori == ("D",)
    assert dict(result.payments) == ledger(D=100, A=-20, B=-20, C=-20, E=-20, F=-20)


def test_d9_end_of_hand_without_a_nobori_house_pays_nothing():
    state = _end_position({"A": 2, "B": 2, "C": 2, "D": 2, "E": 1, "F": 1})
    result = settle_hand(state)
    assert result.nobori == () and result.takers == ()
    assert dict(result.payments) == ledger()


def test_d11_two_houses_of_one_player_are_settled_net():
    result = call(position(1, {10: "A.U"}), 10)
    assert result.payments["A"] == 100
    holdings = {"P": ("A", "B"), "Q": ("C", "D"), "R": ("E",), "S": ("F",)}
    assert net_by_player(result, holdings) == {"P": 80, "Q": -40, "R": -20, "S": -20}


# --- the other options (sanjo-dosai.md s.3.4) ---------------------------------------------------------


def test_d2_b_keeps_yomifuda_8_and_23_they_pay_nobody_but_count_and_use_up_an_eat():
    options = Options(remove_yomifuda_8_23=False)
    assert options.calls_per_hand == 52 and Options().calls_per_hand == 50
    state = position(4, {30: "D.L", 5: "E.U"})
    eat, eight, five = call_sequence(state, [30, 8, 5], options)
    assert eight.payments == ledger() and eight.hako and eight.holder is None
    assert eight.eat_used and eight.state.pending_eat is None
    assert five.payee == "E" and five.call_index == 6


def test_d2_b_sub_options_not_counting_for_hako_and_not_using_the_eat():
    options = Options(remove_yomifuda_8_23=False, removed_call_counts_for_hako=False,
                      removed_call_consumes_eat=False)  # fmt: skip
    state = position(4, {30: "D.L", 5: "E.U"})
    eat, eight, five = call_sequence(state, [30, 8, 5], options)
    assert not eat.hako and not eight.hako
    assert eight.state.pending_eat == PendingEat("D", 30, Row.LOWER)
    assert five.hako and five.eaten and five.payee == "D" and five.amount == 20


def test_d2_a_rejects_yomifuda_8_and_23():
    for n in REMOVED_BEFORE_PLAY:
        with pytest.raises(ValueError, match="removed before play"):
            call(position(1), n)


def test_d3_player_unit_each_other_player_pays_once():
    holdings = {"P": ("A", "B"), "Q": ("C", "D"), "R": ("E",), "S": ("F",)}
    options = Options(payment_unit=PaymentUnit.PLAYER)
    state = new_hand(layout({10: "A.U"}), points_table(), options, holdings=holdings)
    result = call(state, 10, options)
    # B is P's own house; Q pays once, from C.
    assert dict(result.payments) == ledger(A=60, C=-20, E=-20, F=-20)
    with pytest.raises(ValueError, match="needs the holdings"):
        call(position(1, {10: "A.U"}), 10, options)


def test_d3_player_unit_a_player_pays_from_a_house_that_is_not_exempt():
    holdings = {"P": ("A", "B"), "Q": ("C", "D"), "R": ("E",), "S": ("F",)}
    options = Options(payment_unit=PaymentUnit.PLAYER)
    state = position(1, {10: "A.U"}, complete=("C.U",), owners={h: p for p, hs in holdings.items() for h in hs})
    assert dict(call(state, 10, options).payments) == ledger(A=60, D=-20, E=-20, F=-20)
    state = position(1, {10: "A.U"}, complete=("C.U", "D.U"), owners=state.owners)
    assert dict(call(state, 10, options).payments) == ledger(A=40, E=-20, F=-20)


def test_d4_after_call_exempts_an_eaten_holder_whose_row_the_call_completes():
    # E's upper row is 5 plus two extinguished cards: the call of 5 completes it.
    state = position(6, {30: "D.L", 5: "E.U", 6: "E.U", 7: "E.U"})
    state = HandState(state.houses, state.points, face_down={6, 7}, calls_made=5)
    before = call_sequence(state, [30, 5])[1]
    after = call_sequence(state, [30, 5], Options(exemption_timing=ExemptionTiming.AFTER_CALL))[1]
    assert "E" in before.payers and "E" not in after.payers
    assert before.payments["D"] == 50 and after.payments["D"] == 40


def test_d6_b_uses_the_row_of_the_bakefuda_in_the_eaters_house():
    # D's bakefuda is in the lower row; A's lower row is complete, its upper row is not.
    state = position(6, {30: "D.L", 5: "E.U"}, complete=("A.L",))
    default = call_sequence(state, [30, 5])[1]
    by_bakefuda = call_sequence(state, [30, 5], Options(eaten_exemption_row=EatenRow.BAKEFUDA))[1]
    assert "A" in default.payers and default.exempt_row is Row.UPPER
    assert "A" not in by_bakefuda.payers and by_bakefuda.exempt_row is Row.LOWER


def test_d9_b_a_bakefuda_pays_nothing_but_still_eats():
    options = Options(bakefuda_pays_holder=False)
    first, second = call_sequence(position(6, {30: "D.L", 5: "E.U"}), [30, 5], options)
    assert first.payments == ledger() and first.amount == 0
    assert second.payee == "D" and second.payments["D"] == 50


def test_d10_b_an_eaten_hako_call_is_not_doubled():
    state = position(14, {54: "C.U", 38: "A.M"}, complete=("E.M",))
    hako = call_sequence(state, [54, 38], Options(hako_doubles_eaten_call=False))[1]
    assert hako.hako and hako.eaten and hako.amount == 15
    assert dict(hako.payments) == ledger(C=60, A=-15, B=-15, D=-15, F=-15)


def test_d11_a_cards_46_and_50_pay_when_called():
    result = call(position(1, {46: "B.U"}, points=points_table(filler=3)), 46)
    assert result.payments["B"] == 15


def test_d11_b_cards_46_and_50_are_face_down_from_the_deal_and_never_pay():
    options = Options(end_free_cards_pay_when_called=False)
    state = new_hand(layout({46: "B.U", 50: "C.H"}), points_table(filler=3), options)
    assert not state.is_face_up(46) and not state.is_face_up(50)
    assert state.row_complete("C", Row.HEAD)
    result = call(state, 46, options)
    assert result.payments == ledger() and result.call_index == 1


def test_d12_choice_lets_the_holder_turn_46_or_not():
    state = _end_position({"C": 3, "D": 2, "E": 2, "F": 2}, place={46: "B.U"})
    options = Options(end_free_turn=EndFreeTurn.CHOICE)
    kept = settle_hand(state, options)
    assert kept.turned_free == () and kept.nobori == ("A",)
    assert dict(kept.payments) == ledger(A=100, B=-20, C=-20, D=-20, E=-20, F=-20)
    turned = settle_hand(state, options, turn_free=[46])
    assert dict(turned.payments) == ledger(A=40, B=40, C=-20, D=-20, E=-20, F=-20)
    with pytest.raises(ValueError, match="only face-up efuda 46 and 50"):
        settle_hand(state, options, turn_free=[50])
    with pytest.raises(ValueError, match="only for EndFreeTurn.CHOICE"):
        settle_hand(state, turn_free=[46])


def test_d13_carry_pool_moves_the_fees_to_the_next_hand():
    options = Options(no_nobori=NoNobori.CARRY_POOL)
    no_nobori = _end_position({"A": 2, "B": 2, "C": 2, "D": 2, "E": 1, "F": 1})
    first = settle_hand(no_nobori, options)
    assert dict(first.payments) == ledger(A=-20, B=-20, C=-20, D=-20, E=-20, F=-20)
    assert first.pool_out == 120 and first.state.carried_pool == 120
    single = _end_position({"A": 2, "B": 2, "C": 2, "E": 2, "F": 2}, place={46: "D.U"})
    single = HandState(single.houses, single.points, face_down=single.face_down, called=single.called,
                       calls_made=50, carried_pool=first.pool_out)  # fmt: skip
    second = settle_hand(single, options)
    assert second.pool_in == 120 and second.pool_out == 0
    assert dict(second.payments) == ledger(D=220, A=-20, B=-20, C=-20, E=-20, F=-20)


def test_d13_fewest_face_up_houses_take_the_pool_and_share_a_tie():
    options = Options(no_nobori=NoNobori.FEWEST_FACE_UP)
    state = _end_position({"A": 2, "B": 2, "C": 2, "D": 2, "E": 1, "F": 1})
    result = settle_hand(state, options)
    assert result.takers == ("E", "F")
    assert dict(result.payments) == ledger(A=-20, B=-20, C=-20, D=-20, E=40, F=40)


def test_d14_per_face_up_card_fee_and_d15_doubled_fee():
    state = _end_position({"C": 3, "D": 2, "E": 2, "F": 2}, place={46: "B.U"})
    per_card = settle_hand(state, Options(fee_basis=FeeBasis.PER_FACE_UP_CARD))
    assert dict(per_card.payments) == ledger(A=90, B=90, C=-60, D=-40, E=-40, F=-40)
    doubled = settle_hand(state, Options(hako_doubles_end_fee=True))
    assert dict(doubled.payments) == ledger(A=80, B=80, C=-40, D=-40, E=-40, F=-40)


def test_d14_a_pool_that_does_not_split_evenly_leaves_the_remainder_for_the_next_hand():
    # D, E and F keep 4, 3 and 3 efuda: 200 points shared by three nobori houses.
    state = _end_position({"D": 4, "E": 3, "F": 3})
    result = settle_hand(state, Options(fee_basis=FeeBasis.PER_FACE_UP_CARD))
    assert result.nobori == ("A", "B", "C")
    assert result.share == 66 and result.pool_out == 2
    assert sum(result.payments.values()) == result.pool_in - result.pool_out


def test_d16_bozu_house_never_pays():
    points = points_table(filler=3)
    houses = layout({10: "A.U"})
    for n in houses[1].cards:  # give house B six one-point efuda or more
        points[n] = 1
    state = HandState(houses, points)
    assert "B" in state.bozu_houses()
    assert "B" in call(state, 10).payers
    assert "B" not in call(state, 10, Options(bozu=True)).payers


def test_d16_bozu_counts_bakefuda_and_two_pointers():
    points = points_table(filler=3)
    houses = layout({30: "C.U", 33: "C.U", 54: "C.U", 61: "C.M", 1: "D.U", 41: "D.U", 44: "D.U", 59: "D.M"})
    for n in [n for n in houses[3].cards if points[n] != 2][:2]:
        points[n] = 2
    state = HandState(houses, points)
    assert state.bozu_houses() == {"C", "D"}


def test_d17_the_tk2_ruleset_is_refused_and_d18_has_no_scoring_effect():
    with pytest.raises(ValueError, match="D17"):
        Options(tk2_ruleset=True)
    state = position(1, {10: "A.U"})
    assert call(state, 10, Options(rows_chosen_by_player=False)).payments == call(state, 10).payments


def test_an_eater_who_holds_the_called_card_is_paid_as_an_ordinary_call():
    first, second = call_sequence(position(6, {30: "D.L", 5: "D.U"}), [30, 5])
    assert not second.eaten and second.eat_used and second.payee == "D"
    assert second.state.pending_eat is None


def test_a_bakefuda_called_while_no_eat_is_pending_gives_the_next_eat_to_its_holder():
    state = position(1, {61: "F.H"})
    assert call(state, 61).state.pending_eat == PendingEat("F", 61, Row.HEAD)


def test_the_last_call_of_a_hand_is_the_fiftieth_and_then_the_hand_is_over():
    rng = random.Random(7)
    order = sorted(IN_PLAY)
    rng.shuffle(order)
    state = new_hand(layout(), points_table())
    results = call_sequence(state, order[:50])
    assert [r.call_index for r in results if r.hako] == [5, 10, 15, 20, 25, 30, 35, 40, 45, 50]
    final = results[-1].state
    assert hand_over(final) and not hand_over(results[-2].state)
    with pytest.raises(ValueError, match="the hand is over"):
        call(final, order[50])
    with pytest.raises(ValueError, match="the hand is not over"):
        settle_hand(results[-2].state)


# --- purity and validation ------------------------------------------------------------------


def test_call_returns_a_new_state_and_leaves_the_old_one_alone():
    state = position(1, {10: "A.U"})
    result = call(state, 10)
    assert state.is_face_up(10) and state.calls_made == 0
    assert result.state is not state
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'calls_made'"):
        state.calls_made = 3
    with pytest.raises(TypeError, match="does not support item assignment"):
        state.points[10] = 1


def test_house_in_dealt_order_puts_the_last_card_at_the_head():
    house = house_in_dealt_order("1", [1, 2, 3, 4, 5, 6, 7, 9, 10, 11])
    assert house.head == (11,) and house.upper == (1, 2, 3) and house.lower == (7, 9, 10)
    assert house.row_of(5) is Row.MIDDLE and house.row_of(62) is None
    with pytest.raises(ValueError, match="10 efuda"):
        house_in_dealt_order("1", [1, 2, 3])


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: House("A", head=(1, 2), upper=(3, 4, 5), middle=(6, 7, 9), lower=(10, 11, 12)), "head row"),
        (lambda: House("", head=(1,), upper=(3, 4, 5), middle=(6, 7, 9), lower=(10, 11, 12)), "needs a name"),
        (lambda: HandState(layout()[:5], points_table()), "6 houses"),
        (lambda: HandState(_swap(layout(), 1, 8), points_table()), "not in play"),
        (lambda: HandState(_swap(layout(), 1, 2), points_table()), "dealt twice"),
        (lambda: HandState(layout(), {n: 1 for n in IN_PLAY if n != 4}), "cannot start.*\\[4\\]"),
        (lambda: HandState(layout(), {**points_table(), 4: None}), "cannot start"),
        (lambda: HandState(layout(), {**points_table(), 4: 0}), "at least 1"),
        (lambda: HandState(layout(), points_table(), called={10}), "must be extinguished"),
        (lambda: HandState(layout(), points_table(), face_down={10}, called={10}), "calls_made"),
        (lambda: HandState(layout(), points_table(), pending_eat=PendingEat("A", 10, Row.HEAD)), "bakefuda"),
        (
            lambda: HandState(layout({30: "A.H"}), points_table(), pending_eat=PendingEat("A", 30, Row.HEAD)),
            "must be extinguished",
        ),
        (lambda: HandState(layout(), points_table(), carried_pool=-1), "carried_pool"),
        (lambda: Options(hako_every=0), "hako_every"),
        (lambda: Options(bozu="yes"), "True or False"),
        (lambda: Options(no_nobori="sometimes"), "no_nobori must be one of"),
        (lambda: call(position(1), 63), "not a subject number"),
        (lambda: call(call(position(1), 10).state, 10), "already called"),
        (lambda: call(position(1), 10, options="default"), "Options"),
    ],
)
def test_invalid_input_raises_value_error_naming_the_problem(build, message):
    with pytest.raises(ValueError, match=message):
        build()


def _swap(houses, old, new):
    result = []
    for h in houses:
        rows = {r.value: tuple(new if n == old else n for n in h.row(r)) for r in Row}
        result.append(House(h.name, **rows))
    return tuple(result)


def test_enum_options_accept_their_string_values():
    assert Options(no_nobori="carry_pool").no_nobori is NoNobori.CARRY_POOL


@pytest.mark.parametrize(
    "holdings, message",
    [
        ({"P": ("A", "B", "C"), "Q": ("D",), "R": ("E", "F")}, "at most 2 houses"),
        ({"P": ("A", "B", "C"), "Q": ("D", "E", "F")}, "at least 3 players"),
        ({"P": ("A", "B"), "Q": ("C", "D"), "R": ("E",)}, "nobody holds \\['F'\\]"),
        ({"P": ("A", "B"), "Q": ("B", "C"), "R": ("D", "E"), "S": ("F",)}, "held by both"),
        ({"P": ("A", "G"), "Q": ("B", "C"), "R": ("D", "E"), "S": ("F",)}, "unknown houses"),
    ],
)
def test_net_by_player_checks_the_holdings(holdings, message):
    with pytest.raises(ValueError, match=message):
        net_by_player(ledger(), holdings)


# --- properties: every call and every hand is zero-sum ------------------------------------

_CHOICES = {
    "remove_yomifuda_8_23": (True, False),
    "removed_call_counts_for_hako": (True, False),
    "removed_call_consumes_eat": (True, False),
    "payment_unit": tuple(PaymentUnit),
    "exemption_timing": tuple(ExemptionTiming),
    "eaten_holder_pays": (True, False),
    "eaten_exemption_row": tuple(EatenRow),
    "eat_survives_no2": (True, False),
    "eaten_bakefuda_eats": (True, False),
    "bakefuda_pays_holder": (True, False),
    "hako_doubles_eaten_call": (True, False),
    "end_free_cards_pay_when_called": (True, False),
    "end_free_turn": tuple(EndFreeTurn),
    "no_nobori": tuple(NoNobori),
    "fee_basis": tuple(FeeBasis),
    "hako_doubles_end_fee": (True, False),
    "bozu": (True, False),
    "rows_chosen_by_player": (True, False),
}


def _random_hand(seed):
    rng = random.Random(seed)
    options = Options() if seed % 4 == 0 else Options(**{k: rng.choice(v) for k, v in _CHOICES.items()})
    cards = sorted(IN_PLAY)
    rng.shuffle(cards)
    houses = [house_in_dealt_order(NAMES[i], cards[10 * i : 10 * i + 10]) for i in range(6)]
    points = {n: rng.choice((1, 1, 2, 2, 3, 4, 10, 15, 20)) for n in IN_PLAY}
    players = rng.choice([("P", "Q", "R"), ("P", "Q", "R", "S"), ("P", "Q", "R", "S", "T"), NAMES])
    owners = list(players) + list(players)[: 6 - len(players)]
    rng.shuffle(owners)
    holdings = {}
    for house, player in zip(NAMES, owners, strict=True):
        holdings.setdefault(player, []).append(house)
    state = new_hand(houses, points, options, holdings=holdings, carried_pool=rng.choice((0, 0, 40, 120)))
    order = sorted(options.yomifuda)
    rng.shuffle(order)
    return rng, options, holdings, state, order


@pytest.mark.parametrize("seed", range(300))
def test_every_call_and_every_hand_is_zero_sum(seed):
    rng, options, holdings, state, order = _random_hand(seed)
    start = state
    results = call_sequence(state, order[: options.calls_per_hand], options)
    for r in results:
        assert sum(r.payments.values()) == 0
        assert all(t.amount > 0 and t.payee == r.payee for t in r.transfers)
        assert len(set(r.payers)) == len(r.payers)
    final = results[-1].state
    assert hand_over(final, options)
    assert IN_PLAY - final.face_down == IN_PLAY - start.face_down - final.called
    turn_free = None
    if options.end_free_turn is EndFreeTurn.CHOICE:
        turn_free = [n for n in END_FREE if final.is_face_up(n) and rng.random() < 0.5]
    settlement = settle_hand(final, options, turn_free=turn_free)
    assert sum(settlement.payments.values()) == settlement.pool_in - settlement.pool_out
    hand = total_payments([*results, settlement])
    assert sum(hand.values()) == settlement.pool_in - settlement.pool_out
    assert sum(net_by_player(hand, holdings).values()) == sum(hand.values())
    for h in settlement.nobori:
        assert settlement.payments[h] >= 0


@pytest.mark.parametrize("seed", range(100))
def test_a_nobori_house_never_pays_a_call(seed):
    rng, options, _, state, order = _random_hand(seed)
    for n in order[: options.calls_per_hand]:
        nobori_before = {h for h in state.house_names if state.is_nobori(h)}
        result = call(state, n, options)
        assert not nobori_before & set(result.payers)
        state = result.state


def test_options_round_trip_through_plain_values():
    options = Options(no_nobori="carry_pool", payment_unit="player", hako_every=4, bozu=True)
    data = options_as_dict(options)
    assert data["no_nobori"] == "carry_pool" and data["hako_every"] == 4
    assert options_from_dict(data) == options
    assert options_from_dict({}) == Options()
    with pytest.raises(ValueError, match="unknown options"):
        options_from_dict({"nonsense": 1})
    with pytest.raises(ValueError, match="D17"):
        options_from_dict({"tk2_ruleset": True})


def test_every_house_that_does_not_pay_says_why():
    """Issue 33: the reason for every exempt house — here the head rows of A and F complete."""
    from dosai.engine.calls import EXEMPT_ROW

    result = call(position(5, {28: "C.H"}, complete=("A.H", "F.H")), 28)
    assert dict(result.exempt) == {"A": EXEMPT_ROW, "F": EXEMPT_ROW}
    assert set(result.exempt) | set(result.payers) | {result.payee} == set(result.payments)
