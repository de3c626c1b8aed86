"""The four properties issue #9 names, checked explicitly on many possible rounds (default rules
and the variants that touch them): payments sum to zero; a card counts toward several
dekiyaku; each dekiyaku counts once; Four Brights suppresses Three Brights (musashino-bana.md l.36, l.40–41;
musashino-bana.md s.2.2.6, M5, M8)."""

import random

import pytest

from hanafuda.engine.deck import cards_of_month
from hanafuda.engine.dekiyaku import DEKIYAKU
from hanafuda.engine.formation import composition, formed_dekiyaku
from hanafuda.engine.options import FourBrights, LightningCard, Options, Repeats, Suppression
from hanafuda.engine.scoring import score_round

VARIANTS = [
    Options(),
    Options(four_brights=FourBrights.CURTAIN),
    Options(lightning=LightningCard.RAIN_MAN),
    Options(suppression=Suppression.SUBSET_OF_HIGHER),
    Options(payment_cap=8),
]


def rounds(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        piles = {s: [] for s in "ABC"}
        for month in range(1, 13):
            cards = sorted(cards_of_month(month))
            rng.shuffle(cards)
            for pair in (cards[:2], cards[2:]):
                piles[rng.choice("ABC")].extend(pair)
        if sum(any(y.dekiyaku.insta_win for y in formed_dekiyaku(p)) for p in piles.values()) <= 1:
            out.append((piles, rng.choice(VARIANTS), rng.choice("ABC")))
    return out


@pytest.mark.parametrize(("piles", "options", "dealer"), rounds(200, 2024))
def test_the_four_properties(piles, options, dealer):
    result = score_round(piles, options, dealer=dealer)
    assert sum(result.net.values()) == 0 and sum(result.side_net.values()) == 0
    four = set().union(*composition("four_brights", options))
    for side, yaku in result.dekiyaku.items():
        codes = [y.code for y in yaku]
        assert len(codes) == len(set(codes))  # each dekiyaku once (M8(a))
        assert all(y.count == 1 for y in yaku)
        if result.insta_win is None and four <= set(piles[side]):
            assert "four_brights" in codes and "three_brights" not in codes


def test_a_card_counts_toward_several_dekiyaku():
    # The Crane (10) makes Three Brights, Large Birds, Takasago, Front Sugawara and Kemari Court at once.
    pile = [10, 80, 120, 81, 60, 90, 20, 30, 100, 110]
    codes = {y.code for y in formed_dekiyaku(pile)}
    using_crane = {y.code for y in formed_dekiyaku(pile) if 10 in y.cards}
    assert {"large_birds", "takasago", "front_sugawara", "kemari_court"} <= using_crane
    assert "five_kings" in codes  # 10, 30, 80, 110, 120: the insta-win is reported first


def test_each_dekiyaku_counts_once_unless_the_house_rule_says_otherwise():
    pile = [90, 30, 31, 100, 101]  # Flower Banquet and Autumn Leaves twice over (MB-7)
    once = {y.code: y.count for y in formed_dekiyaku(pile)}
    twice = {y.code: y.count for y in formed_dekiyaku(pile, Options(repeats=Repeats.PER_DISJOINT_SET))}
    assert once == {"flower_banquet": 1, "autumn_leaves": 1}
    assert twice == {"flower_banquet": 2, "autumn_leaves": 2}


def test_every_dekiyaku_value_is_in_the_table():
    assert sorted({d.value for d in DEKIYAKU}) == [1, 2, 4, 8]
