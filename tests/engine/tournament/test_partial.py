"""A fixed number of games per team in a group (docs/rules/scheduling-standings-seeding.md,
section 1.5): the rounds of ``partial_rounds``, the refusals, the layouts and the checks.
Pure: no Django."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tournament.engine.scheduling import (
    LAYOUTS,
    PartialRoundRobinError,
    TimedMatch,
    berger_rounds,
    check_partial,
    check_schedule,
    partial_lower_bound,
    partial_rounds,
    plan,
    report,
    timed_problems,
)
from tournament.engine.scheduling.partial import balance_orientation

TABLE = [(n, k) for n in range(2, 13) for k in range(1, n)]
POSSIBLE = [(n, k) for n, k in TABLE if n * k % 2 == 0]
IMPOSSIBLE = [(n, k) for n, k in TABLE if n * k % 2]


@pytest.mark.parametrize(("n", "k"), POSSIBLE)
def test_every_team_plays_k_games_once_per_pair_once_per_round_sides_balanced(n, k):
    rounds = partial_rounds(n, k)
    games = Counter()
    side = Counter()
    pairs = Counter()
    for rnd in rounds:
        in_round = Counter(v for game in rnd for v in game)
        assert max(in_round.values()) == 1, f"a team plays twice in a round: {rnd}"
        for a, b in rnd:
            assert a != b and 1 <= a <= n and 1 <= b <= n
            games[a] += 1
            games[b] += 1
            side[a] += 1
            side[b] -= 1
            pairs[frozenset((a, b))] += 1
    assert {v: games[v] for v in range(1, n + 1)} == dict.fromkeys(range(1, n + 1), k)
    assert max(pairs.values()) == 1
    assert all(abs(side[v]) <= 1 for v in range(1, n + 1))
    assert sum(len(rnd) for rnd in rounds) == n * k // 2


@pytest.mark.parametrize(("n", "k"), POSSIBLE)
def test_rounds_are_as_few_as_possible(n, k):
    # An even group plays in every round; an odd one needs one round more (a round holds
    # at most (n - 1) / 2 of its games) and then every team rests exactly once.
    rounds = partial_rounds(n, k)
    if n % 2 == 0:
        assert len(rounds) == k
        assert all(len(rnd) == n // 2 for rnd in rounds)
    else:
        assert len(rounds) == k + 1
        rests = Counter(v for rnd in rounds for v in range(1, n + 1) if all(v not in g for g in rnd))
        assert rests == Counter(range(1, n + 1))


@pytest.mark.parametrize("n", [4, 6, 8, 10, 12])
def test_even_group_takes_the_first_berger_rounds(n):
    k = 3
    expected = [frozenset(g) for rnd in berger_rounds(n)[:k] for g in rnd]
    assert [frozenset(g) for rnd in partial_rounds(n, k) for g in rnd] == expected


def test_eight_teams_three_games_is_the_printed_berger_table():
    # The city's school format: rounds 1-3 of the FIDE table for 8, sides as published.
    assert partial_rounds(8, 3) == [
        [(1, 8), (2, 7), (3, 6), (4, 5)],
        [(8, 5), (6, 4), (7, 3), (1, 2)],
        [(2, 8), (3, 1), (4, 7), (5, 6)],
    ]


@pytest.mark.parametrize("n", range(2, 13))
def test_k_n_minus_one_is_the_full_round_robin(n):
    if n % 2 and (n - 1) % 2:  # pragma: no cover - n * (n - 1) is always even
        return
    pairs = {frozenset(g) for rnd in partial_rounds(n, n - 1) for g in rnd}
    assert pairs == {frozenset(p) for p in itertools.combinations(range(1, n + 1), 2)}


@pytest.mark.parametrize(("n", "k"), IMPOSSIBLE)
def test_odd_total_is_refused(n, k):
    with pytest.raises(PartialRoundRobinError) as caught:
        partial_rounds(n, k)
    assert caught.value.reason == "odd_total"
    assert (caught.value.n, caught.value.k) == (n, k)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(
    ("n", "k", "reason"),
    [
        (8, 0, "too_few"),
        (8, -1, "too_few"),
        (8, 8, "too_many"),
        (3, 5, "too_many"),
        (7, 3, "odd_total"),
        (2, 2, "too_many"),
    ],
)
def test_refusals_say_why(n, k, reason):
    with pytest.raises(PartialRoundRobinError) as caught:
        check_partial(n, k)
    assert caught.value.reason == reason


def test_no_group_and_bad_types():
    with pytest.raises(ValueError, match="at least 2"):
        partial_rounds(1, 1)
    with pytest.raises(TypeError):
        partial_rounds(8, "3")
    with pytest.raises(TypeError):
        partial_rounds(True, 1)


@pytest.mark.parametrize(("n", "k"), POSSIBLE)
def test_deterministic(n, k):
    assert partial_rounds(n, k) == partial_rounds(n, k)


def test_balance_orientation_fixes_unbalanced_sides():
    # Team 1 on side A three times: the orientation evens it out.
    rounds = [[(1, 2), (3, 4)], [(1, 3), (2, 4)], [(1, 4), (2, 3)]]
    out = balance_orientation(rounds)
    side = Counter()
    for rnd in out:
        for a, b in rnd:
            side[a] += 1
            side[b] -= 1
    assert all(abs(v) <= 1 for v in side.values())
    assert [[frozenset(g) for g in rnd] for rnd in out] == [[frozenset(g) for g in rnd] for rnd in rounds]


# --------------------------------------------------------------------------
# Layouts and checks
# --------------------------------------------------------------------------


def _groups(sizes):
    groups, next_id = [], 1
    for size in sizes:
        groups.append(list(range(next_id, next_id + size)))
        next_id += size
    return groups


@pytest.mark.parametrize(
    ("sizes", "k", "courts", "layout", "rest"),
    [
        (sizes, k, c, layout, rest)
        for sizes, k in (([8], 3), ([8, 8], 3), ([7, 7, 7], 2), ([6, 5], 2), ([9], 4), ([4, 4, 4], 1), ([12], 5))
        for c in (1, 2, 4)
        for layout in LAYOUTS
        for rest in (False, True)
    ],
)
def test_plan_with_games_per_team(sizes, k, courts, layout, rest):
    groups = _groups(sizes)
    p = plan(groups, list(range(101, 101 + courts)), layout, rest=rest, games_per_team=k)
    assert p.games_per_team == k
    r = report(p)
    assert r.problems == []
    assert r.side_imbalance <= 1
    games = Counter(v for g in p.matches for v in (g.team_a, g.team_b))
    assert set(games.values()) == {k}
    assert len(games) == sum(sizes)
    assert p.slots >= p.lower_bound
    if rest:
        assert r.max_streak == 1
    if layout != "shared":
        # a pinned group stays on one court
        assert all(len({g.court for g in p.matches if g.group == gi}) == 1 for gi in range(len(groups)))


def test_eight_by_three_on_one_court_with_rest_takes_twelve_slots():
    p = plan([list(range(1, 9))], [1], "one_group_per_court", rest=True, games_per_team=3)
    r = report(p)
    assert (p.slots, r.max_streak, r.problems) == (12, 1, [])
    assert r.wait_spread <= 3


def test_two_groups_of_eight_share_four_courts_in_six_slots_with_rest():
    p = plan(_groups([8, 8]), [1, 2, 3, 4], "shared", rest=True, games_per_team=3)
    assert p.slots == p.lower_bound == 6
    assert report(p).problems == []


def test_plan_refuses_impossible_games_per_team():
    with pytest.raises(PartialRoundRobinError):
        plan(_groups([8, 7]), [1, 2], "one_group_per_court", games_per_team=3)


@pytest.mark.parametrize(
    ("sizes", "k", "courts", "rest", "bound"),
    [
        ([8], 3, 1, False, 12),
        ([8, 8], 3, 4, False, 6),
        ([8], 3, 8, False, 3),
        ([7], 2, 8, False, 3),
        ([8], 3, 8, True, 5),
        ([], 3, 2, False, 0),
    ],
)
def test_partial_lower_bound(sizes, k, courts, rest, bound):
    assert partial_lower_bound(sizes, k, courts, rest) == bound


def test_check_schedule_with_games_per_team():
    p = plan([list(range(1, 9))], [1, 2], "shared", games_per_team=3)
    assert check_schedule(p.matches, [list(range(1, 9))], games_per_team=3) == []
    # as a full round robin, the missing pairs are problems
    assert check_schedule(p.matches, [list(range(1, 9))])
    # a game dropped: two teams play 2 games
    problems = check_schedule(p.matches[1:], [list(range(1, 9))], games_per_team=3)
    assert len(problems) == 2 and all("plays 2 games instead of 3" in text for text in problems)
    # a game played twice
    again = [*p.matches, p.matches[0].__class__(**{**p.matches[0].__dict__, "slot": 99})]
    assert any("meet 2 times" in text for text in check_schedule(again, [list(range(1, 9))], games_per_team=3))


def test_timed_problems_with_games_per_team():
    p = plan([list(range(1, 9))], [1], "one_group_per_court", games_per_team=3)
    timed = [TimedMatch(g.court, g.team_a, g.team_b, 600 + 20 * g.slot, 615 + 20 * g.slot, 0) for g in p.matches]
    expected = dict.fromkeys(range(1, 9), 3)
    assert timed_problems(timed, [list(range(1, 9))], expected) == []
    kinds = Counter(pr.kind for pr in timed_problems(timed, [list(range(1, 9))]))
    assert kinds == {"pair_count": 28 - 12}
    short = timed_problems(timed[1:], [list(range(1, 9))], expected)
    assert [(pr.kind, pr.count, pr.expected) for pr in short] == [("game_count", 2, 3)] * 2
    # a team expected to play fewer (its opponent withdrew) is fine with fewer
    first = p.matches[0]
    fewer = {**expected, first.team_a: 2, first.team_b: 2}
    assert timed_problems(timed[1:], [list(range(1, 9))], fewer) == []
