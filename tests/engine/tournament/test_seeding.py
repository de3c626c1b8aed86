"""Tests for tournament.engine.seeding (pure: no Django, no database).

Seed orders, byes and cross-over tables are copied from docs/rules/scheduling-standings-seeding.md,
sections 4.1 and 4.2, written out here on purpose: the tests do not read files
at run time.
"""

from __future__ import annotations

import itertools
import random

import pytest

from tournament.engine.seeding import (
    Qualifier,
    bracket_size,
    first_round_pairs,
    meeting_round,
    seed_bracket,
    standard_seed_order,
)

LETTERS = "ABCDEFGH"


def team(label: str) -> int:
    """'A1' -> 101, 'C2' -> 302: group letter and place as a team id."""
    return (LETTERS.index(label[0]) + 1) * 100 + int(label[1:])


def q(label: str) -> Qualifier:
    return Qualifier(team=team(label), group=LETTERS.index(label[0]), place=int(label[1:]))


def lineup_labels(lineup):
    return [None if t is None else f"{LETTERS[t // 100 - 1]}{t % 100}" for t in lineup]


def meetings(qualifiers, lineup):
    """Round in which each pair of group-mates would meet."""
    position = {t: i for i, t in enumerate(lineup) if t is not None}
    return [
        meeting_round(position[a.team], position[b.team])
        for a, b in itertools.combinations(qualifiers, 2)
        if a.group == b.group
    ]


class TestStandardSeedOrder:
    def test_published_orders_for_4_8_and_16(self):
        assert standard_seed_order(2) == [1, 2]
        assert standard_seed_order(4) == [1, 4, 2, 3]
        assert standard_seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
        assert standard_seed_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]

    def test_seed_s_meets_seed_size_plus_one_minus_s_in_round_1(self):
        for size in (2, 4, 8, 16, 32):
            for a, b in first_round_pairs(standard_seed_order(size)):
                assert a + b == size + 1

    @pytest.mark.parametrize("size", [0, 1, 3, 6, 12, -4])
    def test_size_must_be_a_power_of_two_at_least_2(self, size):
        with pytest.raises(ValueError, match=f"bracket size must be a power of two >= 2, not {size}$"):
            standard_seed_order(size)


class TestBracketSize:
    def test_is_the_next_power_of_two(self):
        assert [bracket_size(n) for n in (2, 3, 4, 5, 8, 9, 16, 17)] == [2, 4, 4, 8, 8, 16, 16, 32]

    @pytest.mark.parametrize("n", [0, 1])
    def test_a_single_qualifier_means_no_knockout(self, n):
        with pytest.raises(ValueError, match=f"a knockout needs at least 2 qualifiers, not {n}$"):
            bracket_size(n)


class TestByes:
    # docs/rules/scheduling-standings-seeding.md, section 4.1: first rounds with byes to the top seeds
    EXPECTED = {
        5: [(1, None), (4, 5), (2, None), (3, None)],
        6: [(1, None), (4, 5), (2, None), (3, 6)],
        7: [(1, None), (4, 5), (2, 7), (3, 6)],
        8: [(1, 8), (4, 5), (2, 7), (3, 6)],
        12: [(1, None), (8, 9), (4, None), (5, 12), (2, None), (7, 10), (3, None), (6, 11)],
    }

    @pytest.mark.parametrize("n", sorted(EXPECTED))
    def test_group_winners_get_the_published_first_round(self, n):
        # one winner per group, team id = seed number
        lineup = seed_bracket([Qualifier(team=s, group=s - 1, place=1) for s in range(1, n + 1)])
        assert len(lineup) == bracket_size(n)
        assert first_round_pairs(lineup) == self.EXPECTED[n]

    def test_a_bye_is_never_paired_with_a_bye(self):
        for n in range(2, 33):
            lineup = seed_bracket([Qualifier(team=s, group=s, place=1) for s in range(1, n + 1)])
            assert (None, None) not in first_round_pairs(lineup)
            assert lineup.count(None) == bracket_size(n) - n

    def test_first_round_pairs_needs_an_even_line_up(self):
        with pytest.raises(ValueError, match="a line-up has an even number of positions"):
            first_round_pairs([1, 2, 3])


class TestCrossOverTables:
    def test_two_groups_top_two(self):
        lineup = seed_bracket([q("A1"), q("B1"), q("A2"), q("B2")])
        assert lineup_labels(lineup) == ["A1", "B2", "B1", "A2"]

    def test_four_groups_top_two_is_euro_2012(self):
        lineup = seed_bracket([q(x) for x in ("A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2")])
        # QF A1-B2, C1-D2 in one half; B1-A2, D1-C2 in the other
        assert lineup_labels(lineup) == ["A1", "B2", "C1", "D2", "B1", "A2", "D1", "C2"]

    def test_eight_groups_top_two_is_world_cup_2018(self):
        winners = [q(f"{g}1") for g in LETTERS]
        runners_up = [q(f"{g}2") for g in LETTERS]
        lineup = lineup_labels(seed_bracket(winners + runners_up))
        assert first_round_pairs(lineup) == [
            ("A1", "B2"),
            ("C1", "D2"),
            ("E1", "F2"),
            ("G1", "H2"),
            ("B1", "A2"),
            ("D1", "C2"),
            ("F1", "E2"),
            ("H1", "G2"),
        ]

    def test_three_groups_top_two_uses_the_8_bracket_of_the_reference(self):
        # W1-bye, R(g2)-R(g3) | W2-bye, W3-R(g1), Wi the i-th winner passed
        lineup = seed_bracket([q(x) for x in ("B1", "C1", "A1", "A2", "B2", "C2")])
        assert lineup_labels(lineup) == ["B1", None, "C2", "A2", "C1", None, "A1", "B2"]

    def test_letters_follow_the_order_the_winners_are_passed(self):
        # best winner first: C's winner takes A's line of the table
        lineup = seed_bracket([q(x) for x in ("C1", "A1", "D1", "B1", "A2", "B2", "C2", "D2")])
        assert lineup_labels(lineup) == ["C1", "A2", "D1", "B2", "A1", "C2", "B1", "D2"]

    @pytest.mark.parametrize("groups", [2, 3, 4, 8])
    def test_order_of_the_runners_up_does_not_matter(self, groups):
        winners = [q(f"{g}1") for g in LETTERS[:groups]]
        runners_up = [q(f"{g}2") for g in LETTERS[:groups]]
        expected = seed_bracket(winners + runners_up)
        rng = random.Random(groups)
        for _ in range(5):
            rng.shuffle(runners_up)
            assert seed_bracket(winners + runners_up) == expected

    @pytest.mark.parametrize("groups", [2, 3, 4, 8])
    def test_group_mates_are_in_opposite_halves(self, groups):
        qualifiers = [q(f"{g}{p}") for p in (1, 2) for g in LETTERS[:groups]]
        lineup = seed_bracket(qualifiers)
        final = len(lineup).bit_length() - 1
        assert meetings(qualifiers, lineup) == [final] * groups


class TestSearch:
    def test_three_winners_and_the_runner_up_of_the_best_winners_group(self):
        # section 4.2, "3 groups": if R comes from W1's group, SF1 W1-W3 and SF2 W2-R
        lineup = lineup_labels(seed_bracket([q("A1"), q("B1"), q("C1"), q("A2")]))
        assert {frozenset(p) for p in first_round_pairs(lineup)} == {frozenset({"A1", "C1"}), frozenset({"B1", "A2"})}

    def test_a_single_group_meets_in_round_1_when_there_is_no_choice(self):
        assert seed_bracket([q("A1"), q("A2")]) == [team("A1"), team("A2")]

    def test_winners_keep_their_order_when_no_rematch_is_forced(self):
        lineup = seed_bracket([q(x) for x in ("A1", "B1", "C1", "D1", "E1", "A2", "B2")])
        position = {label: i for i, label in enumerate(lineup_labels(lineup))}
        seeds = standard_seed_order(8)
        assert [seeds[position[w]] for w in ("A1", "B1", "C1", "D1", "E1")] == [1, 2, 3, 4, 5]

    def test_two_groups_top_three(self):
        qualifiers = [q(x) for x in ("A1", "B1", "A2", "B2", "A3", "B3")]
        lineup = seed_bracket(qualifiers)
        assert lineup_labels(lineup) == ["A1", None, "B2", "A3", "B1", None, "A2", "B3"]
        # three teams per group in an 8-bracket: one pair must meet in the semi-final
        assert sorted(meetings(qualifiers, lineup)) == [2, 2, 3, 3, 3, 3]

    def test_more_than_16_qualifiers_with_group_mates_and_no_table_raise(self):
        qualifiers = [q(f"{g}1") for g in LETTERS] + [Qualifier(900 + i, 8 + i, 1) for i in range(8)] + [q("A2")]
        with pytest.raises(ValueError, match="seeding more than 16 qualifiers with group-mates needs a fixed table"):
            seed_bracket(qualifiers)

    def test_many_group_winners_need_no_search(self):
        lineup = seed_bracket([Qualifier(team=s, group=s, place=1) for s in range(1, 21)])
        assert [t or 0 for t in lineup[:4]] == [1, 0, 16, 17]


def one_or_two_per_group_cases():
    """Every n of 2..16 with g groups sending 1 or 2 teams, several runner-up sets."""
    rng = random.Random(4242)
    for n in range(2, 17):
        for g in range(1, n + 1):
            if not g <= n <= 2 * g:
                continue
            for _ in range(4):
                winner_groups = rng.sample(range(g), g)
                runner_up_groups = rng.sample(range(g), n - g)
                qualifiers = [Qualifier(100 + x, x, 1) for x in winner_groups]
                qualifiers += [Qualifier(200 + x, x, 2) for x in runner_up_groups]
                yield n, g, qualifiers


class TestPropertiesForUpTo16Qualifiers:
    CASES = list(one_or_two_per_group_cases())

    def test_every_team_appears_once_and_byes_fill_the_rest(self):
        for n, _g, qualifiers in self.CASES:
            lineup = seed_bracket(qualifiers)
            assert len(lineup) == bracket_size(n)
            assert sorted(t for t in lineup if t is not None) == sorted(x.team for x in qualifiers)

    def test_byes_go_to_the_best_places(self):
        for _n, _g, qualifiers in self.CASES:
            place = {x.team: x.place for x in qualifiers}
            pairs = first_round_pairs(seed_bracket(qualifiers))
            with_bye = [place[a or b] for a, b in pairs if None in (a, b)]
            playing = [place[t] for pair in pairs if None not in pair for t in pair]
            assert not with_bye or not playing or max(with_bye) <= min(playing)

    def test_group_mates_never_meet_in_round_1_when_avoidable(self):
        for n, g, qualifiers in self.CASES:
            rounds = meetings(qualifiers, seed_bracket(qualifiers))
            if g >= 2:
                assert 1 not in rounds, (n, g, qualifiers)

    def test_top_two_formats_put_group_mates_in_opposite_halves(self):
        for n, g, qualifiers in self.CASES:
            if n == 2 * g:
                lineup = seed_bracket(qualifiers)
                final = len(lineup).bit_length() - 1
                assert meetings(qualifiers, lineup) == [final] * g

    def test_without_group_mates_the_result_is_standard_seeding(self):
        for n, g, qualifiers in self.CASES:
            if n == g:
                order = standard_seed_order(bracket_size(n))
                expected = [qualifiers[s - 1].team if s <= n else None for s in order]
                assert seed_bracket(qualifiers) == expected

    def test_lower_places_are_arranged_as_well_as_brute_force_finds(self):
        # independent check: with the winners where seed_bracket put them, try
        # every arrangement of the lower places over their seeds
        cases = [c for c in self.CASES if c[0] <= 12] + [
            (n, None, [q(x) for x in labels])
            for n, labels in [
                (6, ("A1", "B1", "A2", "B2", "A3", "B3")),
                (8, ("A1", "B1", "A2", "B2", "A3", "B3", "A4", "B4")),
                (9, ("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3")),
                (7, ("A1", "B1", "C1", "B2", "C2", "A3", "C3")),
            ]
        ]
        for _n, _, qualifiers in cases:
            lineup = seed_bracket(qualifiers)
            size = len(lineup)
            rounds = size.bit_length() - 1
            position_of_seed = {s: i for i, s in enumerate(standard_seed_order(size))}

            def profile(line, rounds=rounds, qualifiers=qualifiers):
                counts = [0] * (rounds + 1)
                for r in meetings(qualifiers, line):
                    counts[r] += 1
                return counts

            lower_seeds = [s for s, x in enumerate(qualifiers, 1) if x.place != qualifiers[0].place]
            lower_teams = {x.team: x.place for x in qualifiers if x.place != qualifiers[0].place}
            best = None
            by_place: dict[int, list[int]] = {}
            for s in lower_seeds:
                by_place.setdefault(qualifiers[s - 1].place, []).append(s)
            places = sorted(by_place)
            teams_of = {p: [t for t, tp in lower_teams.items() if tp == p] for p in places}
            for perms in itertools.product(*(itertools.permutations(teams_of[p]) for p in places)):
                line = list(lineup)
                for p, perm in zip(places, perms, strict=True):
                    for s, t in zip(by_place[p], perm, strict=True):
                        line[position_of_seed[s]] = t
                if best is None or profile(line) < best:
                    best = profile(line)
            assert profile(lineup) == best, lineup_labels(lineup)


class TestInputs:
    def test_places_must_not_decrease(self):
        with pytest.raises(ValueError, match="qualifiers must be in seed order: places never decrease"):
            seed_bracket([q("A1"), q("A2"), q("B1")])

    def test_a_team_cannot_qualify_twice(self):
        with pytest.raises(ValueError, match="a team is listed twice"):
            seed_bracket([q("A1"), q("B1"), q("A1")])

    def test_two_qualifiers_cannot_share_group_and_place(self):
        with pytest.raises(ValueError, match="two qualifiers share a group and a place"):
            seed_bracket([q("A1"), Qualifier(999, 0, 1)])

    def test_a_single_qualifier_is_no_knockout(self):
        with pytest.raises(ValueError, match="a knockout needs at least 2 qualifiers, not 1$"):
            seed_bracket([q("A1")])

    def test_same_input_same_output(self):
        qualifiers = [q(x) for x in ("A1", "B1", "C1", "D1", "E1", "C2", "A2")]
        assert seed_bracket(qualifiers) == seed_bracket(list(qualifiers))
