"""A team that did not finish its games is left out of the head-to-head (issue 29, item 5;
docs/rules/scheduling-standings-seeding.md, section 3.9), as tables under both withdrawal
settings. Pure: no Django.

The group: A beats everyone; B beat C by 1; W (withdrawn during the groups) had beaten B by
10 and lost to C by 10; its game against A is a walkover for A. B, C and W have one win each.
"""

from __future__ import annotations

import itertools

import pytest

from tournament.engine.standings import CARD_DIFF, CARDS_TAKEN, HEAD_TO_HEAD, LOT, WINS, MatchResult, rank_group

A, B, C, W = 1, 2, 3, 9
H2H_FIRST = (WINS, HEAD_TO_HEAD, CARD_DIFF, CARDS_TAKEN, LOT)
CARDS_FIRST = (WINS, CARD_DIFF, CARDS_TAKEN, HEAD_TO_HEAD, LOT)


def win(winner, loser, margin, loser_cards=10, walkover=False):
    if walkover:
        return MatchResult(winner, loser, 28, 0, winner, decided_by="walkover")
    return MatchResult(winner, loser, loser_cards + margin, loser_cards, winner)


GAMES = [
    win(A, B, 5),
    win(A, C, 5),
    win(A, W, 0, walkover=True),
    win(B, C, 1),
    win(W, B, 10),
    win(C, W, 10),
]
WITHOUT_W = [g for g in GAMES if W not in (g.team_a, g.team_b)]


def order(rows):
    return [row.team for row in rows]


# setting, teams, games, unfinished -> order, and the explanation codes of B, C and W
TABLE = [
    # "walkovers": W stays in the table, left out of the mini-league of B and C, placed after them.
    ("walkovers", [A, B, C, W], GAMES, {W}, [A, B, C, W]),
    # "annul": W and its games are gone before ranking (the read side drops them); the same B over C.
    ("annul", [A, B, C], WITHOUT_W, set(), [A, B, C]),
    # Before the rule (W counted in the mini-league): its games put C above B, against B's win over C.
    ("walkovers, W counted (the old way)", [A, B, C, W], GAMES, set(), [A, C, W, B]),
]


@pytest.mark.parametrize(("setting", "teams", "games", "unfinished", "expected"), TABLE, ids=[t[0] for t in TABLE])
def test_the_withdrawn_team_is_left_out_of_the_head_to_head(setting, teams, games, unfinished, expected):
    rows = rank_group(teams, games, H2H_FIRST, unfinished=unfinished)
    assert order(rows) == expected
    by_team = {row.team: row for row in rows}
    if unfinished:
        assert by_team[W].left_out_of_h2h and by_team[W].separated_by == HEAD_TO_HEAD
        assert by_team[C].separated_by == HEAD_TO_HEAD and by_team[C].h2h_without == (W,)
        assert (by_team[B].h2h_wins, by_team[C].h2h_wins) == (1, 0)  # B's own win over C decides
    else:
        assert not any(row.left_out_of_h2h or row.h2h_without for row in rows)


@pytest.mark.parametrize("walkover_cards", ["count", "exclude"])
def test_the_overall_criteria_still_count_the_withdrawn_teams_games(walkover_cards):
    """Wins, cards and played games are the same with or without the rule."""
    with_rule = rank_group([A, B, C, W], GAMES, H2H_FIRST, walkover_cards=walkover_cards, unfinished={W})
    without = rank_group([A, B, C, W], GAMES, H2H_FIRST, walkover_cards=walkover_cards)
    overall = ("played", "wins", "cards_taken", "cards_conceded", "card_matches", "walkover_losses")
    assert {r.team: tuple(getattr(r, f) for f in overall) for r in with_rule} == {
        r.team: tuple(getattr(r, f) for f in overall) for r in without
    }


def test_with_card_difference_before_head_to_head_the_rule_changes_nothing_when_cards_separate():
    """Overall card difference (B −14, C +4, W −28 with the walkover's 0–28) separates them
    before head-to-head is reached: the rule has nothing to do."""
    rows = rank_group([A, B, C, W], GAMES, CARDS_FIRST, unfinished={W})
    assert order(rows) == [A, C, B, W]
    assert not any(row.left_out_of_h2h for row in rows)


def test_two_withdrawn_teams_level_only_with_each_other_are_compared_as_usual():
    V = 8
    games = [win(A, V, 3), win(A, W, 3), win(V, W, 2)]
    rows = rank_group([A, V, W], games, (WINS, HEAD_TO_HEAD, LOT), unfinished={V, W})
    assert order(rows) == [A, V, W]
    assert not any(row.left_out_of_h2h for row in rows)


def test_the_order_never_depends_on_the_order_of_the_games():
    expected = order(rank_group([A, B, C, W], GAMES, H2H_FIRST, unfinished={W}))
    for games in itertools.permutations(GAMES):
        assert order(rank_group([W, C, B, A], list(games), H2H_FIRST, unfinished=[W])) == expected
