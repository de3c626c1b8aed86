"""Tests for tournament.scheduling (pure: no Django, no database).

The FIDE Berger tables below are copied from the published tables (FIDE
Handbook C.05 Annex 1), "x-y" = x on side A (White), y on side B.  They are
kept inline on purpose: the tests must not read reference files at run time.
"""

from __future__ import annotations

import datetime
import itertools
import re
from collections import Counter, defaultdict

import pytest

from tournament.scheduling import (
    PlannedGame,
    berger_rounds,
    check_schedule,
    plan_groups_on_courts,
    slot_start,
)

# --------------------------------------------------------------------------
# Published FIDE Berger tables (test vectors)
# --------------------------------------------------------------------------

BERGER_TABLES = {
    4: """
Rd 1: 1-4, 2-3.
Rd 2: 4-3, 1-2.
Rd 3: 2-4, 3-1.
""",
    6: """
Rd 1: 1-6, 2-5, 3-4.
Rd 2: 6-4, 5-3, 1-2.
Rd 3: 2-6, 3-1, 4-5.
Rd 4: 6-5, 1-4, 2-3.
Rd 5: 3-6, 4-2, 5-1.
""",
    8: """
Rd 1: 1-8, 2-7, 3-6, 4-5.
Rd 2: 8-5, 6-4, 7-3, 1-2.
Rd 3: 2-8, 3-1, 4-7, 5-6.
Rd 4: 8-6, 7-5, 1-4, 2-3.
Rd 5: 3-8, 4-2, 5-1, 6-7.
Rd 6: 8-7, 1-6, 2-5, 3-4.
Rd 7: 4-8, 5-3, 6-2, 7-1.
""",
    10: """
Rd 1: 1-10, 2-9, 3-8, 4-7, 5-6.
Rd 2: 10-6, 7-5, 8-4, 9-3, 1-2.
Rd 3: 2-10, 3-1, 4-9, 5-8, 6-7.
Rd 4: 10-7, 8-6, 9-5, 1-4, 2-3.
Rd 5: 3-10, 4-2, 5-1, 6-9, 7-8.
Rd 6: 10-8, 9-7, 1-6, 2-5, 3-4.
Rd 7: 4-10, 5-3, 6-2, 7-1, 8-9.
Rd 8: 10-9, 1-8, 2-7, 3-6, 4-5.
Rd 9: 5-10, 6-4, 7-3, 8-2, 9-1.
""",
}


def parse_table(text: str) -> list[list[tuple[int, int]]]:
    rounds = []
    for line in text.strip().splitlines():
        body = line.split(":", 1)[1].strip().rstrip(".")
        rounds.append(
            [tuple(int(x) for x in game.strip().split("-")) for game in body.split(",")]
        )
    return rounds


def test_parsed_vectors_look_right():
    # Guard against a typo in the copied vectors themselves.
    for n, text in BERGER_TABLES.items():
        table = parse_table(text)
        assert len(table) == n - 1
        assert all(len(rnd) == n // 2 for rnd in table)


# Spot values written out by hand, independent of the parser.
def test_berger_4_literal():
    assert berger_rounds(4) == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ]


def test_berger_3_literal():
    # Table for 3 or 4 with seat 4 as the bye, dropped.
    assert berger_rounds(3) == [[(2, 3)], [(1, 2)], [(3, 1)]]


def test_berger_2():
    assert berger_rounds(2) == [[(1, 2)]]


@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_berger_even_matches_fide_exactly(n):
    assert berger_rounds(n) == parse_table(BERGER_TABLES[n])


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_berger_odd_is_even_table_with_highest_seat_as_bye(n):
    published = parse_table(BERGER_TABLES[n + 1])
    expected = [[g for g in rnd if n + 1 not in g] for rnd in published]
    assert berger_rounds(n) == expected
    # The bye is never stored as a game.
    assert all(n + 1 not in g for rnd in berger_rounds(n) for g in rnd)


@pytest.mark.parametrize("bad", [-1, 0, 1])
def test_berger_rejects_too_few_seats(bad):
    with pytest.raises(ValueError):
        berger_rounds(bad)


# --------------------------------------------------------------------------
# Berger properties for n = 2..16
# --------------------------------------------------------------------------

ALL_N = list(range(2, 17))


@pytest.mark.parametrize("n", ALL_N)
def test_berger_each_pair_once(n):
    pairs = Counter(frozenset(g) for rnd in berger_rounds(n) for g in rnd)
    expected = {frozenset(p) for p in itertools.combinations(range(1, n + 1), 2)}
    assert set(pairs) == expected
    assert all(c == 1 for c in pairs.values())


@pytest.mark.parametrize("n", ALL_N)
def test_berger_round_shape(n):
    rounds = berger_rounds(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for rnd in rounds:
        assert len(rnd) == n // 2
        seats = [s for g in rnd for s in g]
        assert len(seats) == len(set(seats)), "a team plays twice in a round"
        assert all(1 <= s <= n for s in seats)
        assert all(a != b for a, b in rnd)


@pytest.mark.parametrize("n", [n for n in ALL_N if n % 2 == 1])
def test_berger_odd_one_bye_each(n):
    byes = Counter()
    for rnd in berger_rounds(n):
        playing = {s for g in rnd for s in g}
        resting = set(range(1, n + 1)) - playing
        assert len(resting) == 1
        byes.update(resting)
    assert byes == Counter({s: 1 for s in range(1, n + 1)})


@pytest.mark.parametrize("n", ALL_N)
def test_berger_side_balance(n):
    a_count = Counter(a for rnd in berger_rounds(n) for a, _ in rnd)
    counts = [a_count.get(s, 0) for s in range(1, n + 1)]
    games_per_team = n - 1
    average = games_per_team / 2
    assert all(abs(c - average) <= 1 for c in counts), counts
    if n % 2 == 1:
        assert counts == [(n - 1) // 2] * n
    else:
        # Published property: seats 1..n/2 get n/2 A-sides, the rest n/2-1.
        assert counts == [n // 2] * (n // 2) + [n // 2 - 1] * (n // 2)


@pytest.mark.parametrize("n", ALL_N)
def test_berger_deterministic(n):
    assert berger_rounds(n) == berger_rounds(n)


def test_berger_side_counts_n6_published():
    a_count = Counter(a for rnd in berger_rounds(6) for a, _ in rnd)
    assert dict(a_count) == {1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 6: 2}


# --------------------------------------------------------------------------
# plan_groups_on_courts
# --------------------------------------------------------------------------


def make_groups(sizes: list[int], start: int = 101) -> list[list[int]]:
    groups, next_id = [], start
    for size in sizes:
        groups.append(list(range(next_id, next_id + size)))
        next_id += size
    return groups


def assert_valid_plan(groups, courts, games):
    assert check_schedule(games, groups) == []

    # No team in two games at once (explicitly, besides check_schedule).
    busy = Counter()
    for g in games:
        busy[(g.slot, g.team_a)] += 1
        busy[(g.slot, g.team_b)] += 1
    assert max(busy.values()) == 1

    # Each court: slots 0..k-1 without gaps, one game per slot.
    per_court = defaultdict(list)
    for g in games:
        per_court[g.court].append(g)
    for court, cgames in per_court.items():
        slots = sorted(g.slot for g in cgames)
        assert slots == list(range(len(cgames))), court

    # Group i on courts[i % c]; games in Berger round order, board order.
    c = len(courts)
    by_group = defaultdict(list)
    for g in games:
        assert g.court == courts[g.group % c]
        by_group[g.group].append(g)
    assert set(by_group) == set(range(len(groups)))
    for gi, group in enumerate(groups):
        ordered = sorted(by_group[gi], key=lambda g: g.slot)
        expected = [
            (ri, group[a - 1], group[b - 1])
            for ri, rnd in enumerate(berger_rounds(len(group)))
            for a, b in rnd
        ]
        assert [(g.round, g.team_a, g.team_b) for g in ordered] == expected

    # Groups sharing a court play one after the other, in list order.
    for ci, court in enumerate(courts):
        on_court = sorted(per_court.get(court, []), key=lambda g: g.slot)
        seq = [g.group for g in on_court]
        assert seq == sorted(seq)
        assert set(seq) == {gi for gi in range(len(groups)) if gi % c == ci}

    # Extra courts stay idle when there are fewer groups than courts.
    used = {g.court for g in games}
    assert used == set(courts[: min(len(groups), c)])

    # Total game count.
    assert len(games) == sum(len(gr) * (len(gr) - 1) // 2 for gr in groups)


def test_plan_many_shapes():
    """1-12 groups of 2-16 teams on 1-16 courts: no problem found."""
    checked = 0
    for n_groups in range(1, 13):
        for n_courts in range(1, 17):
            courts = [10 * (k + 1) for k in range(n_courts)]  # ids not 0..c-1
            # Uniform groups of every size 2..16 ...
            shapes = [[size] * n_groups for size in range(2, 17)]
            # ... and a mixed, deterministic spread of sizes.
            shapes.append(
                [2 + (7 * n_groups + 3 * n_courts + 5 * i) % 15 for i in range(n_groups)]
            )
            for sizes in shapes:
                groups = make_groups(sizes)
                games = plan_groups_on_courts(groups, courts)
                assert_valid_plan(groups, courts, games)
                checked += 1
    assert checked == 12 * 16 * 16


def test_plan_one_group_per_court_example():
    # 12 teams on 3 courts in groups of 4, like the 低学年 demo division.
    groups = make_groups([4, 4, 4])
    games = plan_groups_on_courts(groups, [1, 2, 3])
    assert len(games) == 18
    first = [g for g in games if g.slot == 0]
    assert first == [
        PlannedGame(slot=0, court=1, group=0, round=0, team_a=101, team_b=104),
        PlannedGame(slot=0, court=2, group=1, round=0, team_a=105, team_b=108),
        PlannedGame(slot=0, court=3, group=2, round=0, team_a=109, team_b=112),
    ]
    court1 = [(g.slot, g.round, g.team_a, g.team_b) for g in games if g.court == 1]
    assert court1 == [
        (0, 0, 101, 104),
        (1, 0, 102, 103),
        (2, 1, 104, 103),
        (3, 1, 101, 102),
        (4, 2, 102, 104),
        (5, 2, 103, 101),
    ]


def test_plan_odd_group_has_no_bye_game():
    groups = make_groups([4, 3])
    games = plan_groups_on_courts(groups, [8, 9])
    court9 = [(g.slot, g.round, g.team_a, g.team_b) for g in games if g.court == 9]
    # Berger 3 (= table for 4 with seat 4 dropped): 2-3 | 1-2 | 3-1.
    assert court9 == [(0, 0, 106, 107), (1, 1, 105, 106), (2, 2, 107, 105)]


def test_plan_more_groups_than_courts_play_in_sequence():
    groups = make_groups([3, 3, 3])
    games = plan_groups_on_courts(groups, [1, 2])
    court1 = [(g.slot, g.group) for g in games if g.court == 1]
    assert court1 == [(0, 0), (1, 0), (2, 0), (3, 2), (4, 2), (5, 2)]
    court2 = [(g.slot, g.group) for g in games if g.court == 2]
    assert court2 == [(0, 1), (1, 1), (2, 1)]


def test_plan_sorted_by_slot_then_court_order():
    groups = make_groups([4, 4, 4, 3])
    courts = [7, 4, 5, 6]  # the order of the list, not the id, decides
    games = plan_groups_on_courts(groups, courts)
    keys = [(g.slot, courts.index(g.court)) for g in games]
    assert keys == sorted(keys)


def test_plan_deterministic():
    groups = make_groups([5, 4, 6, 3, 2])
    assert plan_groups_on_courts(groups, [1, 2, 3]) == plan_groups_on_courts(
        groups, [1, 2, 3]
    )


def test_plan_empty_groups_list():
    assert plan_groups_on_courts([], [1]) == []


def test_plan_rejects_no_courts():
    with pytest.raises(ValueError):
        plan_groups_on_courts([[1, 2]], [])


@pytest.mark.parametrize("bad_group", [[], [1]])
def test_plan_rejects_small_group(bad_group):
    with pytest.raises(ValueError):
        plan_groups_on_courts([[10, 11, 12], bad_group], [1, 2])


def test_plan_rejects_team_in_two_groups():
    with pytest.raises(ValueError):
        plan_groups_on_courts([[1, 2, 3], [3, 4]], [1, 2])


def test_plan_rejects_duplicate_court():
    with pytest.raises(ValueError):
        plan_groups_on_courts([[1, 2], [3, 4]], [1, 1])


def test_planned_game_is_frozen():
    g = PlannedGame(slot=0, court=1, group=0, round=0, team_a=1, team_b=2)
    with pytest.raises(Exception):
        g.slot = 3  # type: ignore[misc]


# --------------------------------------------------------------------------
# slot_start
# --------------------------------------------------------------------------

START = datetime.datetime(2027, 1, 17, 9, 30)


def test_slot_start_arithmetic():
    assert slot_start(START, 0, 15, 5) == START
    assert slot_start(START, 1, 15, 5) == datetime.datetime(2027, 1, 17, 9, 50)
    assert slot_start(START, 5, 15, 5) == datetime.datetime(2027, 1, 17, 11, 10)
    assert slot_start(START, 3, 12, 0) == datetime.datetime(2027, 1, 17, 10, 6)
    # Crossing midnight is plain datetime arithmetic.
    assert slot_start(START, 50, 15, 5) == datetime.datetime(2027, 1, 18, 2, 10)


def test_slot_start_keeps_tzinfo():
    tz = datetime.timezone(datetime.timedelta(hours=9))
    start = START.replace(tzinfo=tz)
    assert slot_start(start, 2, 15, 5) == datetime.datetime(2027, 1, 17, 10, 10, tzinfo=tz)


@pytest.mark.parametrize(
    "slot,game,change", [(-1, 15, 5), (0, -15, 5), (0, 15, -5), (2, 15, -1)]
)
def test_slot_start_rejects_negative(slot, game, change):
    with pytest.raises(ValueError):
        slot_start(START, slot, game, change)


# --------------------------------------------------------------------------
# check_schedule
# --------------------------------------------------------------------------


def G(slot, court, a, b, group=0, rnd=0):
    return PlannedGame(slot=slot, court=court, group=group, round=rnd, team_a=a, team_b=b)


GROUPS3 = [[1, 2, 3]]


def test_check_ok():
    games = [G(0, 1, 2, 3), G(1, 1, 1, 2), G(2, 1, 3, 1)]
    assert check_schedule(games, GROUPS3) == []


def test_check_double_booked_team():
    # Team 1 is on courts 1 and 2 in slot 0.
    games = [G(0, 1, 1, 2), G(0, 2, 3, 1), G(1, 1, 2, 3)]
    problems = check_schedule(games, GROUPS3)
    assert any(re.search(r"team 1 plays 2 games in slot 0", p) for p in problems), problems


def test_check_repeated_pair():
    games = [G(0, 1, 1, 2), G(1, 1, 2, 1), G(2, 1, 2, 3), G(3, 1, 3, 1)]
    problems = check_schedule(games, GROUPS3)
    assert problems == ["teams 1 and 2 of group 0 meet 2 times instead of once"]


def test_check_missing_pair():
    games = [G(0, 1, 1, 2), G(1, 1, 2, 3)]
    problems = check_schedule(games, GROUPS3)
    assert problems == ["teams 1 and 3 of group 0 meet 0 times instead of once"]


def test_check_court_with_two_games():
    groups = [[1, 2], [3, 4]]
    games = [G(0, 1, 1, 2, group=0), G(0, 1, 3, 4, group=1)]
    problems = check_schedule(games, groups)
    assert problems == ["court 1 has 2 games in slot 0"]


def test_check_game_across_groups():
    groups = [[1, 2], [3, 4]]
    games = [G(0, 1, 1, 2), G(0, 2, 3, 4, group=1), G(1, 1, 1, 3)]
    problems = check_schedule(games, groups)
    assert len(problems) == 1
    assert "different groups" in problems[0]


def test_check_unknown_team_and_self_play():
    problems = check_schedule([G(0, 1, 1, 99), G(1, 1, 2, 2)], [[1, 2]])
    assert any("team 99" in p and "not in any group" in p for p in problems)
    assert any("plays itself" in p for p in problems)


def test_check_finds_problem_in_real_plan_after_tampering():
    groups = make_groups([4, 4])
    games = plan_groups_on_courts(groups, [1, 2])
    assert check_schedule(games, groups) == []
    # Move a game of court 2 onto court 1 in the same slot -> both checks fire.
    g = next(x for x in games if x.court == 2 and x.slot == 0)
    tampered = [x for x in games if x is not g] + [
        PlannedGame(slot=0, court=1, group=g.group, round=g.round,
                    team_a=g.team_a, team_b=g.team_b)
    ]
    assert check_schedule(tampered, groups) == ["court 1 has 2 games in slot 0"]
