"""Tests for tournament.engine.standings (pure: no Django, no database).

Vectors K1, K3, K4 and K5 are copied from docs/rules/scheduling-standings-seeding.md,
sections 3.7 and 3.8, written out here on purpose: the tests do not read files at
run time.  K1-K3 give
"winner, loser, margin"; the card counts below are synthetic (the referee
may hold collected cards, so the two counts need not add up to 56).
"""

from __future__ import annotations

import itertools
import random
from dataclasses import astuple

import pytest

from tournament.engine.standings import (
    CARD_DIFF,
    CARDS_TAKEN,
    HEAD_TO_HEAD,
    LOT,
    PRESET_HEAD_TO_HEAD_FIRST,
    PRESET_JAPANESE,
    PRESETS,
    WINS,
    MatchResult,
    StandingRow,
    apply_lots_across_groups,
    compare_across_groups,
    rank_group,
)

A, B, C, D = 1, 2, 3, 4


def win(winner: int, loser: int, margin: int, loser_cards: int = 10, **extra) -> MatchResult:
    """A game ``winner`` won by ``margin`` cards (winner listed as team A)."""
    return MatchResult(winner, loser, loser_cards + margin, loser_cards, winner, **extra)


def order(rows: list[StandingRow]) -> list[int]:
    return [row.team for row in rows]


def column(rows: list[StandingRow], name: str) -> list:
    return [getattr(row, name) for row in rows]


def by_team(rows: list[StandingRow]) -> dict[int, StandingRow]:
    return {row.team: row for row in rows}


def assert_consistent(rows: list[StandingRow]) -> None:
    """Ranks equal the sort position; ties, separators and flags agree."""
    for i, row in enumerate(rows):
        ahead = sum(1 for other in rows if other.rank < row.rank)
        assert row.rank == ahead + 1
        assert row.rank == (rows[i - 1].rank if i and row.tied and rows[i - 1].rank == row.rank else i + 1)
        assert row.tied == (sum(1 for other in rows if other.rank == row.rank) > 1)
        tied_with_above = i > 0 and rows[i - 1].rank == row.rank
        assert (row.separated_by is None) == (i == 0 or tied_with_above)
        assert row.losses == row.played - row.wins
        assert row.card_diff == row.cards_taken - row.cards_conceded


# K1 - recursion discriminator (docs/rules/scheduling-standings-seeding.md, section 3.7): (winner, loser, margin)
K1 = [win(A, B, 5), win(B, C, 3), win(C, A, 1), win(A, D, 2), win(B, D, 1), win(C, D, 10)]

# K3 - perfect 3-cycle, every criterion equal
K3 = [win(A, B, 2, loser_cards=13), win(B, C, 2, loser_cards=13), win(C, A, 2, loser_cards=13)]


class TestK1RecursionDiscriminator:
    def test_overall_values_are_as_published(self):
        rows = by_team(rank_group([A, B, C, D], K1))
        assert [rows[t].wins for t in (A, B, C, D)] == [2, 2, 2, 0]
        assert [rows[t].card_diff for t in (A, B, C, D)] == [6, -1, 8, -13]

    def test_head_to_head_first_is_recursive_and_gives_a_b_c_d(self):
        rows = rank_group([A, B, C, D], K1, criteria=PRESET_HEAD_TO_HEAD_FIRST)
        assert order(rows) == [A, B, C, D]
        assert column(rows, "rank") == [1, 2, 3, 4]
        assert column(rows, "separated_by") == [None, HEAD_TO_HEAD, HEAD_TO_HEAD, WINS]
        assert_consistent(rows)

    def test_head_to_head_is_reapplied_to_the_two_teams_still_tied(self):
        rows = by_team(rank_group([A, B, C, D], K1, criteria=PRESET_HEAD_TO_HEAD_FIRST))
        # mini-league of A, B, C: 1 win each, card diff A +4, B -2, C -2
        assert (rows[A].h2h_wins, rows[A].h2h_card_diff) == (1, 4)
        # B and C are then compared on their own game only: B beat C by 3
        assert (rows[B].h2h_wins, rows[B].h2h_card_diff) == (1, 3)
        assert (rows[C].h2h_wins, rows[C].h2h_card_diff) == (0, -3)
        assert rows[D].h2h_wins is None and rows[D].h2h_card_diff is None

    def test_japanese_default_goes_wins_then_card_difference(self):
        rows = rank_group([A, B, C, D], K1)
        # C +8, A +6, B -1 split by card difference; D has no win
        assert order(rows) == [C, A, B, D]
        assert column(rows, "card_diff") == [8, 6, -1, -13]
        assert column(rows, "separated_by") == [None, CARD_DIFF, CARD_DIFF, WINS]
        assert column(rows, "h2h_wins") == [None] * 4
        assert_consistent(rows)

    def test_japanese_is_the_default_preset(self):
        assert PRESETS["japanese"] == PRESET_JAPANESE == (WINS, CARD_DIFF, CARDS_TAKEN, HEAD_TO_HEAD, LOT)
        assert rank_group([A, B, C, D], K1) == rank_group([A, B, C, D], K1, criteria="japanese")
        assert order(rank_group([A, B, C, D], K1, criteria="head_to_head_first")) == [A, B, C, D]


class TestK3PerfectCycle:
    @pytest.mark.parametrize("criteria", [PRESET_JAPANESE, PRESET_HEAD_TO_HEAD_FIRST])
    def test_is_reported_as_an_unresolved_tie(self, criteria):
        rows = rank_group([A, B, C], K3, criteria=criteria)
        assert column(rows, "rank") == [1, 1, 1]
        assert column(rows, "tied") == [True, True, True]
        assert column(rows, "separated_by") == [None, None, None]
        assert column(rows, "settled_by_lot") == [False, False, False]
        assert order(rows) == [A, B, C]  # display order only: team id
        assert_consistent(rows)

    def test_stays_tied_until_every_tied_team_has_a_lot(self):
        rows = rank_group([A, B, C], K3, lots={C: 1, A: 2})
        assert column(rows, "rank") == [1, 1, 1]
        assert not any(column(rows, "settled_by_lot"))

    @pytest.mark.parametrize("criteria", [PRESET_JAPANESE, PRESET_HEAD_TO_HEAD_FIRST])
    def test_is_settled_by_the_recorded_lot(self, criteria):
        rows = rank_group([A, B, C], K3, criteria=criteria, lots={C: 1, A: 2, B: 3})
        assert order(rows) == [C, A, B]
        assert column(rows, "rank") == [1, 2, 3]
        assert column(rows, "tied") == [False, False, False]
        assert column(rows, "separated_by") == [None, LOT, LOT]
        assert column(rows, "settled_by_lot") == [True, True, True]
        assert_consistent(rows)

    def test_lots_of_teams_outside_the_tie_change_nothing(self):
        matches = K3 + [win(A, D, 5), win(B, D, 5), win(C, D, 5)]
        rows = rank_group([A, B, C, D], matches, lots={D: 1})
        assert column(rows, "rank") == [1, 1, 1, 4]
        assert not any(column(rows, "settled_by_lot"))

    def test_without_lot_criterion_lots_are_ignored(self):
        rows = rank_group([A, B, C], K3, criteria=(WINS, CARD_DIFF), lots={A: 1, B: 2, C: 3})
        assert column(rows, "rank") == [1, 1, 1]


class TestK4WalkoverInDirectEncounter:
    # A and B tie on 2 wins; B forfeited its game against A (28-0).
    MATCHES = [
        MatchResult(A, B, 28, 0, A, walkover=True, decided_by="walkover"),
        MatchResult(A, D, 16, 12, A),
        MatchResult(C, A, 20, 8, C),
        MatchResult(B, C, 18, 10, B),
        MatchResult(B, D, 17, 11, B),
        MatchResult(D, C, 15, 13, D),
    ]

    def test_walkover_counts_as_a_head_to_head_win(self):
        for walkover_cards in ("count", "exclude"):
            rows = rank_group([A, B, C, D], self.MATCHES, PRESET_HEAD_TO_HEAD_FIRST, walkover_cards=walkover_cards)
            assert order(rows) == [A, B, D, C]
            assert column(rows, "separated_by") == [None, HEAD_TO_HEAD, WINS, HEAD_TO_HEAD]

    def test_walkover_is_counted_in_the_record(self):
        rows = by_team(rank_group([A, B, C, D], self.MATCHES))
        assert (rows[A].walkover_wins, rows[A].walkover_losses) == (1, 0)
        assert (rows[B].walkover_wins, rows[B].walkover_losses) == (0, 1)
        assert (rows[A].played, rows[A].wins, rows[B].played, rows[B].wins) == (3, 2, 3, 2)

    def test_walkover_cards_count_28_0_by_default(self):
        rows = rank_group([A, B, C, D], self.MATCHES)
        assert order(rows) == [A, B, C, D]
        assert column(rows, "card_diff") == [20, -14, 2, -8]
        assert column(rows, "separated_by") == [None, CARD_DIFF, WINS, CARD_DIFF]
        assert by_team(rows)[A].card_matches == 3

    def test_excluded_walkover_cards_leave_the_card_criteria(self):
        rows = rank_group([A, B, C, D], self.MATCHES, walkover_cards="exclude")
        assert order(rows) == [B, A, C, D]
        assert column(rows, "card_diff") == [14, -8, 2, -8]
        a = by_team(rows)[A]
        assert (a.played, a.wins, a.cards_taken, a.cards_conceded, a.card_matches) == (3, 2, 24, 32, 2)
        assert_consistent(rows)

    def test_excluded_walkover_cards_leave_the_head_to_head_card_difference(self):
        # a double round robin: A won the first leg by walkover, B the second 20-10
        matches = [
            MatchResult(A, B, 28, 0, A, walkover=True),
            MatchResult(B, A, 20, 10, B),
        ]
        count = by_team(rank_group([A, B], matches, PRESET_HEAD_TO_HEAD_FIRST))
        excluded = by_team(rank_group([A, B], matches, PRESET_HEAD_TO_HEAD_FIRST, walkover_cards="exclude"))
        assert (count[A].h2h_wins, count[A].h2h_card_diff) == (1, 18)
        assert (excluded[A].h2h_wins, excluded[A].h2h_card_diff) == (1, -10)
        assert order(rank_group([A, B], matches, PRESET_HEAD_TO_HEAD_FIRST)) == [A, B]
        assert order(rank_group([A, B], matches, PRESET_HEAD_TO_HEAD_FIRST, walkover_cards="exclude")) == [B, A]


class TestK5MarginZeroWins:
    def test_28_28_decided_by_the_joker_is_a_win_with_difference_zero(self):
        rows = rank_group([A, B], [MatchResult(A, B, 28, 28, A, decided_by="joker")])
        a, b = rows
        assert order(rows) == [A, B]
        assert (a.wins, a.losses, a.card_diff, a.joker_wins) == (1, 0, 0, 1)
        assert (b.wins, b.losses, b.card_diff, b.joker_wins) == (0, 1, 0, 0)
        assert b.separated_by == WINS

    def test_referee_held_cards_belong_to_nobody(self):
        # 27-27, the referee holds 2 collected cards (one of them 「り」): rock-paper-scissors
        rows = by_team(rank_group([A, B], [MatchResult(A, B, 27, 27, B, decided_by="rps")]))
        assert (rows[B].wins, rows[B].rps_wins, rows[B].cards_taken, rows[B].cards_conceded) == (1, 1, 27, 27)
        assert rows[A].cards_taken + rows[B].cards_taken == 54


class TestThreeWayTieInAGroupOfFour:
    def test_unresolvable_tie_shares_rank_one_and_the_fourth_is_rank_four(self):
        matches = K3 + [win(A, D, 5), win(B, D, 5), win(C, D, 5)]
        rows = rank_group([D, C, B, A], matches)
        assert order(rows) == [A, B, C, D]
        assert column(rows, "rank") == [1, 1, 1, 4]
        assert column(rows, "tied") == [True, True, True, False]
        assert column(rows, "separated_by") == [None, None, None, WINS]
        assert column(rows, "h2h_wins") == [1, 1, 1, None]
        assert_consistent(rows)

    def test_japanese_default_falls_through_to_recursive_head_to_head(self):
        # A, B, C: 2 wins, card diff +7 and 55 cards taken each; D: no win.
        matches = [
            MatchResult(A, B, 20, 15, A),
            MatchResult(B, C, 18, 15, B),
            MatchResult(C, A, 16, 15, C),
            MatchResult(A, D, 20, 17, A),
            MatchResult(B, D, 22, 13, B),
            MatchResult(C, D, 24, 15, C),
        ]
        rows = rank_group([A, B, C, D], matches)
        assert column(rows, "card_diff")[:3] == [7, 7, 7]
        assert column(rows, "cards_taken")[:3] == [55, 55, 55]
        assert order(rows) == [A, B, C, D]
        assert column(rows, "separated_by") == [None, HEAD_TO_HEAD, HEAD_TO_HEAD, WINS]
        assert [(r.h2h_wins, r.h2h_card_diff) for r in rows] == [(1, 4), (1, 3), (0, -3), (None, None)]
        assert_consistent(rows)


class TestSeparators:
    def test_cards_taken_separates_equal_card_differences(self):
        matches = [MatchResult(A, B, 20, 10, A), MatchResult(C, D, 15, 5, C)]
        rows = rank_group([A, B, C, D], matches)
        assert order(rows) == [A, C, B, D]
        assert column(rows, "separated_by") == [None, CARDS_TAKEN, WINS, CARDS_TAKEN]
        assert column(rows, "rank") == [1, 2, 3, 4]

    def test_a_tied_block_records_what_separated_it_from_the_row_above(self):
        matches = K3 + [win(D, A, 5), win(D, B, 5), win(D, C, 5)]
        rows = rank_group([A, B, C, D], matches)
        assert order(rows) == [D, A, B, C]
        assert column(rows, "rank") == [1, 2, 2, 2]
        assert column(rows, "separated_by") == [None, WINS, None, None]
        assert column(rows, "tied") == [False, True, True, True]
        assert_consistent(rows)

    def test_teams_with_no_match_yet_are_tied(self):
        rows = rank_group([C, A, B], [])
        assert order(rows) == [A, B, C]
        assert column(rows, "rank") == [1, 1, 1]
        assert column(rows, "played") == [0, 0, 0]


class TestPermutationStability:
    @staticmethod
    def random_group(rng: random.Random):
        teams = rng.sample(range(1, 50), rng.randint(2, 6))
        matches = []
        for a, b in itertools.combinations(teams, 2):
            if rng.random() < 0.15:
                continue  # some games not played yet
            if rng.random() < 0.1:
                matches.append(MatchResult(a, b, 28, 0, a, walkover=True, decided_by="walkover"))
                continue
            cards_a, cards_b = rng.choice([(15, 13), (16, 12), (28, 28), (20, 8), (14, 14)])
            winner = a if cards_a > cards_b else rng.choice([a, b])
            decided_by = "cards" if cards_a != cards_b else rng.choice(["joker", "rps"])
            matches.append(MatchResult(a, b, cards_a, cards_b, winner, decided_by=decided_by))
        return teams, matches

    def test_shuffling_teams_and_results_never_changes_the_table(self):
        rng = random.Random(20240601)
        for _ in range(300):
            teams, matches = self.random_group(rng)
            criteria = rng.choice([PRESET_JAPANESE, PRESET_HEAD_TO_HEAD_FIRST, (WINS, HEAD_TO_HEAD), (WINS,)])
            lots = {t: p for p, t in enumerate(rng.sample(teams, len(teams)), 1)} if rng.random() < 0.3 else None
            walkover_cards = rng.choice(["count", "exclude"])
            expected = rank_group(teams, matches, criteria, lots, walkover_cards)
            assert_consistent(expected)
            assert sorted(order(expected)) == sorted(teams)
            for _ in range(10):
                rng.shuffle(teams)
                rng.shuffle(matches)
                rows = rank_group(teams, matches, criteria, lots, walkover_cards)
                assert [astuple(r) for r in rows] == [astuple(r) for r in expected]

    def test_ranks_equal_the_position_in_the_sort(self):
        rng = random.Random(7)
        for _ in range(200):
            teams, matches = self.random_group(rng)
            rows = rank_group(teams, matches, rng.choice(list(PRESETS.values())))
            for i, row in enumerate(rows):
                assert row.rank == 1 + sum(1 for other in rows[:i] if other.rank != row.rank)


class TestInputs:
    def test_matches_with_a_team_outside_the_group_are_ignored(self):
        matches = K1 + [win(D, 99, 20), win(99, A, 20)]
        assert rank_group([A, B, C, D], matches) == rank_group([A, B, C, D], K1)

    def test_unknown_criterion_raises(self):
        with pytest.raises(ValueError, match="criterion"):
            rank_group([A, B], [], criteria=(WINS, "goal_difference"))

    def test_unknown_preset_raises(self):
        with pytest.raises(ValueError, match="preset"):
            rank_group([A, B], [], criteria="uefa")

    def test_winner_who_is_neither_team_raises(self):
        with pytest.raises(ValueError, match="winner"):
            rank_group([A, B], [MatchResult(A, B, 20, 10, C)])

    def test_unknown_walkover_policy_raises(self):
        with pytest.raises(ValueError, match="walkover_cards must be one of"):
            rank_group([A, B], [], walkover_cards="half")

    def test_repeated_team_raises(self):
        with pytest.raises(ValueError, match="a team id is listed twice"):
            rank_group([A, A, B], [])


class TestCompareAcrossGroups:
    @staticmethod
    def row(team, played, wins, taken, conceded, card_matches=None):
        return StandingRow(
            team=team,
            rank=1,
            tied=False,
            played=played,
            wins=wins,
            losses=played - wins,
            cards_taken=taken,
            cards_conceded=conceded,
            card_diff=taken - conceded,
            joker_wins=0,
            rps_wins=0,
            walkover_wins=0,
            walkover_losses=0,
            separated_by=None,
            settled_by_lot=False,
            h2h_wins=1,
            h2h_card_diff=2,
            card_matches=card_matches,
        )

    def test_orders_by_wins_then_card_difference_then_cards_taken_per_match(self):
        rows = [
            self.row(10, 3, 3, 60, 30),  # 1 win/game, +10/game, 20 taken/game
            self.row(20, 2, 2, 44, 20),  # 1 win/game, +12/game
            self.row(30, 3, 2, 70, 20),  # 2/3 win/game
            self.row(40, 2, 2, 36, 16),  # 1 win/game, +10/game, 18 taken/game
        ]
        ordered = compare_across_groups(rows)
        assert order(ordered) == [20, 10, 40, 30]
        assert column(ordered, "rank") == [1, 2, 3, 4]
        assert column(ordered, "separated_by") == [None, CARD_DIFF, CARDS_TAKEN, WINS]
        assert column(ordered, "h2h_wins") == [None] * 4
        assert rows[0].rank == 1 and rows[0].h2h_wins == 1  # inputs untouched

    def test_equal_teams_are_flagged_tied_and_listed_by_team_id(self):
        rows = [self.row(50, 2, 1, 30, 20), self.row(7, 4, 2, 60, 40), self.row(9, 3, 3, 45, 30)]
        for perm in itertools.permutations(rows):
            ordered = compare_across_groups(list(perm))
            assert order(ordered) == [9, 7, 50]
            assert column(ordered, "rank") == [1, 2, 2]
            assert column(ordered, "tied") == [False, True, True]
            assert column(ordered, "separated_by") == [None, WINS, None]

    def test_excluded_walkovers_do_not_dilute_card_averages(self):
        # team 1: 3 wins, one a walkover left out of the cards: +10 over 2 games = +5/game
        # team 2: 3 wins, +12 over 3 games = +4/game (team 1 would be +3.3 over 3 games)
        rows = [self.row(1, 3, 3, 30, 20, card_matches=2), self.row(2, 3, 3, 42, 30, card_matches=3)]
        ordered = compare_across_groups(rows)
        assert order(ordered) == [1, 2]
        assert column(ordered, "separated_by") == [None, CARD_DIFF]

    def test_no_matches_played_counts_as_zero(self):
        ordered = compare_across_groups([self.row(1, 0, 0, 0, 0), self.row(2, 1, 1, 20, 10)])
        assert order(ordered) == [2, 1]


def test_lots_across_groups_settle_a_block_only_when_every_team_has_a_position():
    row = TestCompareAcrossGroups.row
    rows = compare_across_groups(
        [row(1, 2, 1, 56, 56), row(2, 2, 1, 56, 56), row(3, 2, 1, 56, 56), row(4, 2, 0, 52, 60)]
    )
    assert [r.rank for r in rows] == [1, 1, 1, 4]
    settled = apply_lots_across_groups(rows, {3: 1, 1: 2, 2: 3})
    assert [(r.team, r.rank, r.tied, r.settled_by_lot) for r in settled] == [
        (3, 1, False, True),
        (1, 2, False, True),
        (2, 3, False, True),
        (4, 4, False, False),
    ]
    assert [r.separated_by for r in settled[1:3]] == [LOT, LOT]
    partly = apply_lots_across_groups(rows, {3: 1, 1: 2})
    assert [(r.rank, r.tied) for r in partly] == [(1, True), (1, True), (1, True), (4, False)]
    assert rows[0].tied  # the input is not changed
