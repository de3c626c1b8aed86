"""Provisional standings (tournament.engine.standings.settled_ties) and the cards-first preset.

Pure: no Django. A tie is final ("needs a lot") only when no remaining game can change it
(docs/rules/standings-display.md, "Provisional standings").
"""

from __future__ import annotations

import itertools
import random

import pytest

from tournament.engine.standings import (
    CARD_DIFF,
    CARDS_TAKEN,
    HEAD_TO_HEAD,
    LOT,
    PRESET_BY_OPTION,
    PRESET_CARDS_FIRST,
    PRESETS,
    WINS,
    MatchResult,
    rank_group,
    settled_ties,
)

A, B, C, D = 1, 2, 3, 4


def game(winner: int, loser: int, won: int = 30, lost: int = 26) -> MatchResult:
    return MatchResult(winner, loser, won, lost, winner)


def left(pairs) -> dict[int, int]:
    """Games left per team from the unplayed pairs."""
    out: dict[int, int] = {}
    for a, b in pairs:
        out[a] = out.get(a, 0) + 1
        out[b] = out.get(b, 0) + 1
    return out


def test_no_game_played_nothing_is_settled():
    teams = [A, B, C, D]
    rows = rank_group(teams, [])
    assert all(row.tied for row in rows)
    assert settled_ties(rows, left(itertools.combinations(teams, 2))) == set()


def test_a_complete_perfect_cycle_is_settled():
    results = [game(A, B), game(B, C), game(C, A)]
    rows = rank_group([A, B, C], results)
    assert settled_ties(rows, {}) == {A, B, C}


def test_a_tie_of_teams_with_games_left_is_provisional():
    rows = rank_group([A, B, C, D], [game(A, C), game(B, D)])
    assert {row.team for row in rows if row.tied} == {A, B, C, D}  # A=B on top, C=D below
    assert settled_ties(rows, left([(A, B), (C, D), (A, D), (B, C)])) == set()


def test_a_tie_stays_provisional_while_an_open_team_can_still_join_it():
    # A and B have finished with one win each; C (one win) still plays D and may stay on one.
    criteria = (WINS, LOT)
    rows = rank_group([A, B, C, D], [game(B, A), game(A, C), game(C, B), game(D, A), game(D, B)], criteria)
    assert [(row.team, row.rank, row.tied) for row in rows] == [(D, 1, False), (A, 2, True), (B, 2, True), (C, 2, True)]
    assert settled_ties(rows, {C: 1, D: 1}, criteria) == set()


def test_a_tie_is_settled_when_no_open_team_can_reach_its_wins():
    # A, B, C: a cycle among them, and each beat D and E: 3 wins each. D v E left (1 win max).
    teams = [A, B, C, D, 5]
    results = [game(A, B), game(B, C), game(C, A)]
    results += [game(t, o) for t in (A, B, C) for o in (D, 5)]
    rows = rank_group(teams, results)
    assert {row.team for row in rows if row.tied} == {A, B, C, D, 5}
    assert settled_ties(rows, left([(D, 5)])) == {A, B, C}


def test_card_difference_proves_nothing_but_cards_taken_do():
    # cards_first ranks on cards taken first: a team that already took more cards can never join.
    teams = [A, B, C, D]
    results = [game(A, B, 20, 18), game(B, A, 20, 18), game(C, D, 40, 10)]
    rows = rank_group(teams, results, PRESET_CARDS_FIRST)
    assert {row.team for row in rows if row.tied} == {A, B}
    # C (40 cards) has a game left but never comes back down to 38; D (10 cards) may reach it.
    assert settled_ties(rows, {C: 1, D: 1}, PRESET_CARDS_FIRST) == set()
    assert settled_ties(rows, {C: 1}, PRESET_CARDS_FIRST) == {A, B}
    # With card difference alone before head-to-head nothing is proved.
    custom = (CARD_DIFF, HEAD_TO_HEAD, LOT)
    rows = rank_group(teams, results, custom)
    assert settled_ties(rows, {C: 1}, custom) == set()


def test_head_to_head_first_needs_every_open_team_kept_out_of_the_wins_block():
    # Without wins before head-to-head (head-to-head first in a custom order), only a
    # finished group settles a tie.
    teams = [A, B, C, D]
    results = [game(A, B), game(B, A)]
    rows = rank_group(teams, results, (HEAD_TO_HEAD, WINS, LOT))
    assert settled_ties(rows, {C: 1, D: 1}, (HEAD_TO_HEAD, WINS, LOT)) == set()
    assert settled_ties(rows, {}, (HEAD_TO_HEAD, WINS, LOT)) == {row.team for row in rows if row.tied}


def _round_robin(teams):
    return list(itertools.combinations(teams, 2))


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_settled_tie_survives_every_outcome_of_the_games_left(preset):
    """Soundness, checked by brute force: whatever the remaining games give (winner and a
    few card counts), a tie called final stays the same tie with the same rank."""
    rng = random.Random(15)
    scores = [(30, 26), (28, 28), (40, 10), (29, 0)]
    checked = 0
    for _ in range(4000):
        teams = list(range(1, rng.choice([4, 5]) + 1))
        pairs = _round_robin(teams)
        rng.shuffle(pairs)
        cut = rng.randrange(len(pairs) - 2, len(pairs) + 1)
        played, rest = pairs[:cut], pairs[cut:]
        results = []
        for a, b in played:
            won, lost = rng.choice([(30, 26), (28, 28), (30, 26)])
            results.append(game(a, b, won, lost) if rng.random() < 0.5 else game(b, a, won, lost))
        rows = rank_group(teams, results, preset)
        final = settled_ties(rows, left(rest), preset)
        if not final:
            continue
        blocks = {frozenset(r.team for r in rows if r.rank == row.rank) for row in rows if row.team in final}
        for outcome in itertools.product(*[[(a, b), (b, a)] for a, b in rest]):
            for won, lost in scores[: 1 if len(rest) > 2 else None]:
                later = results + [game(w, lo, won, lost) for w, lo in outcome]
                after = rank_group(teams, later, preset)
                for block in blocks:
                    ranks = {r.rank for r in after if r.team in block}
                    assert len(ranks) == 1 and all(r.tied for r in after if r.team in block)
                    mates = {r.team for r in after if r.rank in ranks}
                    assert mates == set(block), (teams, results, rest, block)
        checked += 1
    assert checked >= 20


def test_cards_first_preset_ranks_total_cards_before_wins():
    # A wins twice narrowly (60 cards); B loses to A but wins big (71 cards).
    results = [game(A, B, 30, 26), game(A, C, 30, 26), game(B, C, 45, 5)]
    rows = rank_group([A, B, C], results, "cards_first")
    assert [row.team for row in rank_group([A, B, C], results)] == [A, B, C]
    assert rows[0].team == B and rows[0].separated_by is None
    assert rows[1].team == A and rows[1].separated_by == CARDS_TAKEN
    assert PRESETS["cards_first"] == PRESET_CARDS_FIRST == (CARDS_TAKEN, WINS, CARD_DIFF, HEAD_TO_HEAD, LOT)


def test_the_scripting_names_map_to_presets():
    assert PRESET_BY_OPTION == {
        "default": "japanese",
        "cards-first": "cards_first",
        "head-to-head-first": "head_to_head_first",
    }
    assert set(PRESET_BY_OPTION.values()) == set(PRESETS)


def test_unknown_criteria_are_refused():
    with pytest.raises(ValueError):
        settled_ties([], {}, "nope")
