"""The group draw as a pure engine: courts shared by teams, snake order, clubs kept apart."""

import random
from collections import Counter

import pytest

from tournament.engine.draw import DrawEntry, NotEnoughCourts, share_courts, spread_into_groups


@pytest.mark.parametrize(
    ("free", "teams", "expected"),
    [
        ([1, 2, 3, 4], {10: 8, 20: 8}, {10: [1, 2], 20: [3, 4]}),
        ([1, 2, 3, 4, 5], {10: 12, 20: 3}, {10: [1, 2, 3, 4], 20: [5]}),
        ([1, 2, 3], {10: 1, 20: 1, 30: 1}, {10: [1], 20: [2], 30: [3]}),
        ([1, 2, 3, 4, 5, 6, 7], {10: 10, 20: 10, 30: 1}, {10: [1, 2, 3], 20: [4, 5, 6], 30: [7]}),
        ([], {}, {}),
    ],
)
def test_free_courts_are_shared_in_proportion_to_the_teams_at_least_one_each(free, teams, expected):
    assert share_courts(free, teams) == expected


def test_fewer_free_courts_than_divisions_is_refused_with_the_counts():
    with pytest.raises(NotEnoughCourts, match="3 divisions need a court each, 2 are free") as refused:
        share_courts([1, 2], {10: 5, 20: 5, 30: 5})
    assert (refused.value.divisions, refused.value.courts) == (3, 2)


def test_seeds_are_dealt_in_snake_order_and_group_sizes_differ_by_at_most_one():
    entries = [DrawEntry(team=n, seed=n, entry_number=n) for n in range(1, 8)]
    groups = spread_into_groups(entries, 3, random.Random(1))
    assert groups == [[1, 6, 7], [2, 5], [3, 4]]


def test_unseeded_teams_follow_the_seeds_in_the_random_order_of_the_draw():
    entries = [DrawEntry(team=1, seed=1)] + [DrawEntry(team=n) for n in range(2, 7)]
    first = spread_into_groups(entries, 2, random.Random(5))
    assert first == spread_into_groups(entries, 2, random.Random(5))  # repeatable from its seed
    assert first[0][0] == 1
    assert sorted(t for g in first for t in g) == list(range(1, 7))


@pytest.mark.parametrize("seed", range(30))
def test_teams_of_one_club_are_kept_apart_when_a_swap_can_do_it(seed):
    clubs = ["常陸", "常陸", "常陸", "多賀", "多賀", "日高", "日高", "十王", "豊浦"]
    entries = [DrawEntry(team=i, club=club) for i, club in enumerate(clubs)]
    groups = spread_into_groups(entries, 3, random.Random(seed))
    club_of = dict(enumerate(clubs))
    for group in groups:
        assert max(Counter(club_of[t] for t in group).values()) == 1


def test_a_club_with_more_teams_than_groups_keeps_the_clash_that_no_swap_can_mend():
    entries = [DrawEntry(team=i, club="常陸") for i in range(3)] + [DrawEntry(team=3, club="多賀")]
    groups = spread_into_groups(entries, 2, random.Random(0))
    assert sorted(len(g) for g in groups) == [2, 2]


def test_a_swap_stays_within_the_seeding_tier():
    # Seeds 1 and 2 of one club land in different groups; unseeded teams never swap with them.
    entries = [DrawEntry(1, seed=1, club="A"), DrawEntry(2, seed=2, club="B"), DrawEntry(3, seed=3, club="A")]
    entries += [DrawEntry(n, club=None) for n in range(4, 7)]
    groups = spread_into_groups(entries, 2, random.Random(3))
    tier_one = {1, 2}
    assert all(len(tier_one & set(g)) == 1 for g in groups)
