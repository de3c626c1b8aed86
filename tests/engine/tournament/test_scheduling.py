"""Tests for tournament.engine.scheduling (pure: no Django, no database).

The FIDE Berger tables below are copied from docs/rules/scheduling-standings-seeding.md,
section 1.2 (the published FIDE tables), "x-y" = x on side A (White), y on side B.
Section numbers below are those of that page.  The tables are kept inline on
purpose: the tests do not read files at run time.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import re
from collections import Counter, defaultdict

import pytest

from tests.engine.scheduling_helpers import check_timed, plan_groups_on_courts, shift, slot_start, timed_matches
from tournament.engine.scheduling import (
    LAYOUTS,
    Clock,
    Plan,
    PlannedMatch,
    ScheduleReport,
    TimedMatch,
    berger_rounds,
    check_schedule,
    lower_bound,
    plan,
    report,
)
from tournament.engine.scheduling.layouts import balance_sides

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
        rounds.append([tuple(int(x) for x in match.strip().split("-")) for match in body.split(",")])
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
    with pytest.raises(ValueError, match=f"a round robin needs at least 2 seats, got {bad}$"):
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
    matches_per_team = n - 1
    average = matches_per_team / 2
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


def assert_valid_plan(groups, courts, matches):
    assert check_schedule(matches, groups) == []

    # No team in two games at once (explicitly, besides check_schedule).
    busy = Counter()
    for g in matches:
        busy[(g.slot, g.team_a)] += 1
        busy[(g.slot, g.team_b)] += 1
    assert max(busy.values()) == 1

    # Each court: slots 0..k-1 without gaps, one game per slot.
    per_court = defaultdict(list)
    for g in matches:
        per_court[g.court].append(g)
    for court, cmatches in per_court.items():
        slots = sorted(g.slot for g in cmatches)
        assert slots == list(range(len(cmatches))), court

    # Group i on courts[i % c]; games in Berger round order, board order.
    c = len(courts)
    by_group = defaultdict(list)
    for g in matches:
        assert g.court == courts[g.group % c]
        by_group[g.group].append(g)
    assert set(by_group) == set(range(len(groups)))
    for gi, group in enumerate(groups):
        ordered = sorted(by_group[gi], key=lambda g: g.slot)
        expected = [
            (ri, group[a - 1], group[b - 1]) for ri, rnd in enumerate(berger_rounds(len(group))) for a, b in rnd
        ]
        assert [(g.round, g.team_a, g.team_b) for g in ordered] == expected

    # Groups sharing a court play one after the other, in list order.
    for ci, court in enumerate(courts):
        on_court = sorted(per_court.get(court, []), key=lambda g: g.slot)
        seq = [g.group for g in on_court]
        assert seq == sorted(seq)
        assert set(seq) == {gi for gi in range(len(groups)) if gi % c == ci}

    # Extra courts stay idle when there are fewer groups than courts.
    used = {g.court for g in matches}
    assert used == set(courts[: min(len(groups), c)])

    # Total game count.
    assert len(matches) == sum(len(gr) * (len(gr) - 1) // 2 for gr in groups)


def test_plan_many_shapes():
    """1-12 groups of 2-16 teams on 1-16 courts: no problem found."""
    checked = 0
    for n_groups in range(1, 13):
        for n_courts in range(1, 17):
            courts = [10 * (k + 1) for k in range(n_courts)]  # ids not 0..c-1
            # Uniform groups of every size 2..16 ...
            shapes = [[size] * n_groups for size in range(2, 17)]
            # ... and a mixed, deterministic spread of sizes.
            shapes.append([2 + (7 * n_groups + 3 * n_courts + 5 * i) % 15 for i in range(n_groups)])
            for sizes in shapes:
                groups = make_groups(sizes)
                matches = plan_groups_on_courts(groups, courts)
                assert_valid_plan(groups, courts, matches)
                checked += 1
    assert checked == 12 * 16 * 16


def test_plan_one_group_per_court_example():
    # 12 teams on 3 courts in groups of 4, like the 低学年 demo division.
    groups = make_groups([4, 4, 4])
    matches = plan_groups_on_courts(groups, [1, 2, 3])
    assert len(matches) == 18
    first = [g for g in matches if g.slot == 0]
    assert first == [
        PlannedMatch(slot=0, court=1, group=0, round=0, team_a=101, team_b=104),
        PlannedMatch(slot=0, court=2, group=1, round=0, team_a=105, team_b=108),
        PlannedMatch(slot=0, court=3, group=2, round=0, team_a=109, team_b=112),
    ]
    court1 = [(g.slot, g.round, g.team_a, g.team_b) for g in matches if g.court == 1]
    assert court1 == [
        (0, 0, 101, 104),
        (1, 0, 102, 103),
        (2, 1, 104, 103),
        (3, 1, 101, 102),
        (4, 2, 102, 104),
        (5, 2, 103, 101),
    ]


def test_plan_odd_group_has_no_bye_match():
    groups = make_groups([4, 3])
    matches = plan_groups_on_courts(groups, [8, 9])
    court9 = [(g.slot, g.round, g.team_a, g.team_b) for g in matches if g.court == 9]
    # Berger 3 (= table for 4 with seat 4 dropped): 2-3 | 1-2 | 3-1.
    assert court9 == [(0, 0, 106, 107), (1, 1, 105, 106), (2, 2, 107, 105)]


def test_plan_more_groups_than_courts_play_in_sequence():
    groups = make_groups([3, 3, 3])
    matches = plan_groups_on_courts(groups, [1, 2])
    court1 = [(g.slot, g.group) for g in matches if g.court == 1]
    assert court1 == [(0, 0), (1, 0), (2, 0), (3, 2), (4, 2), (5, 2)]
    court2 = [(g.slot, g.group) for g in matches if g.court == 2]
    assert court2 == [(0, 1), (1, 1), (2, 1)]


def test_plan_sorted_by_slot_then_court_order():
    groups = make_groups([4, 4, 4, 3])
    courts = [7, 4, 5, 6]  # the order of the list, not the id, decides
    matches = plan_groups_on_courts(groups, courts)
    keys = [(g.slot, courts.index(g.court)) for g in matches]
    assert keys == sorted(keys)


def test_plan_groups_on_courts_is_deterministic():
    groups = make_groups([5, 4, 6, 3, 2])
    assert plan_groups_on_courts(groups, [1, 2, 3]) == plan_groups_on_courts(groups, [1, 2, 3])


def test_plan_empty_groups_list():
    assert plan_groups_on_courts([], [1]) == []


def test_plan_rejects_no_courts():
    with pytest.raises(ValueError, match="at least one court is needed"):
        plan_groups_on_courts([[1, 2]], [])


@pytest.mark.parametrize("bad_group", [[], [1]])
def test_plan_rejects_small_group(bad_group):
    with pytest.raises(ValueError, match=re.escape(f"group 1 has {len(bad_group)} team(s); a group needs at least 2")):
        plan_groups_on_courts([[10, 11, 12], bad_group], [1, 2])


def test_plan_rejects_team_in_two_groups():
    with pytest.raises(ValueError, match="team 3 appears more than once in the groups"):
        plan_groups_on_courts([[1, 2, 3], [3, 4]], [1, 2])


def test_plan_rejects_duplicate_court():
    with pytest.raises(ValueError, match=re.escape("court ids must be distinct: [1, 1]")):
        plan_groups_on_courts([[1, 2], [3, 4]], [1, 1])


def test_planned_match_is_frozen():
    g = PlannedMatch(slot=0, court=1, group=0, round=0, team_a=1, team_b=2)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'slot'"):
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
    "slot,match,change,message",
    [
        (-1, 15, 5, "slot must not be negative, got -1"),
        (0, -15, 5, "game_minutes must not be negative, got -15"),
        (0, 15, -5, "changeover_minutes must not be negative, got -5"),
        (2, 15, -1, "changeover_minutes must not be negative, got -1"),
    ],
)
def test_slot_start_rejects_negative(slot, match, change, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        slot_start(START, slot, match, change)


# --------------------------------------------------------------------------
# check_schedule
# --------------------------------------------------------------------------


def G(slot, court, a, b, group=0, rnd=0):
    return PlannedMatch(slot=slot, court=court, group=group, round=rnd, team_a=a, team_b=b)


GROUPS3 = [[1, 2, 3]]


def test_check_ok():
    matches = [G(0, 1, 2, 3), G(1, 1, 1, 2), G(2, 1, 3, 1)]
    assert check_schedule(matches, GROUPS3) == []


def test_check_double_booked_team():
    # Team 1 is on courts 1 and 2 in slot 0.
    matches = [G(0, 1, 1, 2), G(0, 2, 3, 1), G(1, 1, 2, 3)]
    problems = check_schedule(matches, GROUPS3)
    assert any(re.search(r"team 1 plays 2 games in slot 0", p) for p in problems), problems


def test_check_repeated_pair():
    matches = [G(0, 1, 1, 2), G(1, 1, 2, 1), G(2, 1, 2, 3), G(3, 1, 3, 1)]
    problems = check_schedule(matches, GROUPS3)
    assert problems == ["teams 1 and 2 of group 0 meet 2 times instead of once"]


def test_check_missing_pair():
    matches = [G(0, 1, 1, 2), G(1, 1, 2, 3)]
    problems = check_schedule(matches, GROUPS3)
    assert problems == ["teams 1 and 3 of group 0 meet 0 times instead of once"]


def test_check_court_with_two_matches():
    groups = [[1, 2], [3, 4]]
    matches = [G(0, 1, 1, 2, group=0), G(0, 1, 3, 4, group=1)]
    problems = check_schedule(matches, groups)
    assert problems == ["court 1 has 2 games in slot 0"]


def test_check_match_across_groups():
    groups = [[1, 2], [3, 4]]
    matches = [G(0, 1, 1, 2), G(0, 2, 3, 4, group=1), G(1, 1, 1, 3)]
    problems = check_schedule(matches, groups)
    assert len(problems) == 1
    assert "different groups" in problems[0]


def test_check_unknown_team_and_self_play():
    problems = check_schedule([G(0, 1, 1, 99), G(1, 1, 2, 2)], [[1, 2]])
    assert any("team 99" in p and "not in any group" in p for p in problems)
    assert any("plays itself" in p for p in problems)


def test_check_finds_problem_in_real_plan_after_tampering():
    groups = make_groups([4, 4])
    matches = plan_groups_on_courts(groups, [1, 2])
    assert check_schedule(matches, groups) == []
    # Move a game of court 2 onto court 1 in the same slot -> both checks fire.
    g = next(x for x in matches if x.court == 2 and x.slot == 0)
    tampered = [x for x in matches if x is not g] + [
        PlannedMatch(slot=0, court=1, group=g.group, round=g.round, team_a=g.team_a, team_b=g.team_b)
    ]
    assert check_schedule(tampered, groups) == ["court 1 has 2 games in slot 0"]


def test_check_rest_flag_finds_back_to_back():
    matches = [G(0, 1, 2, 3), G(1, 1, 1, 2), G(3, 1, 3, 1)]
    assert check_schedule(matches, GROUPS3) == []
    assert check_schedule(matches, GROUPS3, rest=True) == ["team 2 plays in consecutive slots 0 and 1"]
    spaced = [G(0, 1, 2, 3), G(2, 1, 1, 2), G(4, 1, 3, 1)]
    assert check_schedule(spaced, GROUPS3, rest=True) == []


# --------------------------------------------------------------------------
# plan(): layouts, lower bound, sections 2.4 and 2.6
# --------------------------------------------------------------------------


def matches_in(n: int) -> int:
    return n * (n - 1) // 2


def rounds_of(n: int) -> int:
    return n - 1 if n % 2 == 0 else n


def berger_orientation(groups):
    """{(team_a, team_b): (group, round)} exactly as in the Berger table."""
    out = {}
    for gi, group in enumerate(groups):
        for ri, rnd in enumerate(berger_rounds(len(group))):
            for a, b in rnd:
                out[(group[a - 1], group[b - 1])] = (gi, ri)
    return out


def assert_valid(groups, courts, p, rest):
    """Every hard constraint of section 2.1, checked explicitly."""
    matches = p.matches
    assert isinstance(p, Plan)
    assert p.rest is rest
    assert check_schedule(matches, groups, rest=rest) == []
    team_slot = Counter()
    court_slot = Counter()
    for g in matches:
        team_slot[(g.slot, g.team_a)] += 1
        team_slot[(g.slot, g.team_b)] += 1
        court_slot[(g.slot, g.court)] += 1
        assert g.court in courts
        assert 0 <= g.slot < p.slots
    assert not matches or max(team_slot.values()) == 1, "a team twice in a slot"
    assert not matches or max(court_slot.values()) == 1, "a court double-booked"
    if rest:
        for slot, team in team_slot:
            assert (slot + 1, team) not in team_slot, (team, slot)
    assert len(matches) == sum(matches_in(len(gr)) for gr in groups)
    assert p.slots == (max(g.slot for g in matches) + 1 if matches else 0)
    # Sides and rounds are the Berger ones (so |A - B| <= 1 for every team).
    orient = berger_orientation(groups)
    for g in matches:
        assert orient[(g.team_a, g.team_b)] == (g.group, g.round)
    # The bound is a bound.
    assert p.lower_bound == lower_bound([len(gr) for gr in groups], len(courts), rest)
    assert p.slots >= p.lower_bound
    assert p.gap == p.slots - p.lower_bound
    # Sorted by slot, then the position of the court in the list.
    keys = [(g.slot, courts.index(g.court)) for g in matches]
    assert keys == sorted(keys)


def sample_shapes():
    """(sizes, courts) over 1-12 groups of 2-16 teams on 1-16 courts.

    All the corners (1, 2, 12 groups x 1, 2, 16 courts x sizes 2, 3, 4, 5,
    15, 16, plus a mixed spread), and a deterministic walk over the grid:
    half of the (groups, courts) pairs (a checkerboard), with a size that
    cycles through 2..16 and, on every other such pair, a mixed spread.
    """
    shapes = []
    for ng in (1, 2, 12):
        for nc in (1, 2, 16):
            shapes.extend(([size] * ng, nc) for size in (2, 3, 4, 5, 15, 16))
            shapes.append(([2 + (3 * ng + nc + 4 * i) % 15 for i in range(ng)], nc))
    for ng in range(1, 13):
        for nc in range(1, 17):
            if (ng + nc) % 2:
                continue
            shapes.append(([2 + (5 * ng + 11 * nc) % 15] * ng, nc))
            if nc % 4 in (0, 1):
                shapes.append(([2 + (7 * ng + 3 * nc + 5 * i) % 15 for i in range(ng)], nc))
    return shapes


SHAPES = sample_shapes()


def test_sample_covers_the_grid():
    assert {len(s) for s, _ in SHAPES} == set(range(1, 13))
    assert {c for _, c in SHAPES} == set(range(1, 17))
    assert {n for s, _ in SHAPES for n in s} == set(range(2, 17))


@pytest.mark.parametrize("rest", [False, True])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_plan_property_all_constraints(layout, rest):
    for sizes, nc in SHAPES:
        groups = make_groups(sizes)
        courts = [10 * (k + 1) for k in range(nc)]
        p = plan(groups, courts, layout, rest=rest)
        assert p.layout == layout
        assert_valid(groups, courts, p, rest)
        rep = report(p)
        assert rep.problems == []
        assert rep.side_imbalance <= 1
        if rest:
            assert rep.max_streak == 1 and rep.back_to_back == 0
        if layout != "shared":
            # Pinned: each group on one court, groups of a court one after
            # the other in list order.
            court_of = {}
            span = {}
            for g in p.matches:
                assert court_of.setdefault(g.group, g.court) == g.court
                lo, hi = span.get(g.group, (g.slot, g.slot))
                span[g.group] = (min(lo, g.slot), max(hi, g.slot))
            for gi in range(len(groups)):
                for gj in range(gi + 1, len(groups)):
                    if court_of[gi] == court_of[gj]:
                        assert span[gi][1] < span[gj][0]
        if layout == "shared" and not rest:
            assert p.slots == p.lower_bound, (sizes, nc)


def test_shared_hits_bound_on_dense_corner_block():
    # Every size on the smallest and largest court counts, with 1, 2, 12 groups.
    for ng in (1, 2, 12):
        for nc in (1, 2, 16):
            for size in range(2, 17):
                groups = make_groups([size] * ng)
                p = plan(groups, list(range(1, nc + 1)), "shared")
                assert p.slots == p.lower_bound, (size, ng, nc)
                assert check_schedule(p.matches, groups) == []


def test_one_group_per_court_is_the_historical_plan():
    for sizes, nc in SHAPES[::5]:
        groups = make_groups(sizes)
        courts = [10 * (k + 1) for k in range(nc)]
        p = plan(groups, courts, "one_group_per_court")
        assert p.matches == plan_groups_on_courts(groups, courts)


@pytest.mark.parametrize("rest", [False, True])
def test_several_equals_one_per_court_when_courts_suffice(rest):
    for sizes, nc in SHAPES:
        if len(sizes) > nc:
            continue
        groups = make_groups(sizes)
        courts = list(range(1, nc + 1))
        assert (
            plan(groups, courts, "several_groups_per_court", rest=rest).matches
            == plan(groups, courts, "one_group_per_court", rest=rest).matches
        )


def test_several_groups_per_court_balances_the_courts():
    # 8, 4, 8, 4 teams on 2 courts: dealt in turn, one court gets both
    # 8-team groups (56 games); balanced dealing gives 34 + 34.
    groups = make_groups([8, 4, 8, 4])
    one = plan(groups, [1, 2], "one_group_per_court")
    several = plan(groups, [1, 2], "several_groups_per_court")
    assert one.slots == 56
    assert several.slots == 34 == several.lower_bound
    on_court = defaultdict(set)
    for g in several.matches:
        on_court[g.court].add(g.group)
    assert dict(on_court) == {1: {0, 1}, 2: {2, 3}}


def test_plan_fields_and_gap():
    groups = make_groups([4, 4, 4])
    p = plan(groups, [1, 2], "shared")
    assert (p.slots, p.lower_bound, p.gap, p.layout, p.rest) == (9, 9, 0, "shared", False)
    assert p.groups == tuple(tuple(g) for g in groups)
    assert p.courts == (1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'slots'"):
        p.slots = 3  # type: ignore[misc]
    pinned = plan(groups, [1, 2], "one_group_per_court")
    assert (pinned.slots, pinned.lower_bound, pinned.gap) == (12, 9, 3)


def test_plan_empty():
    for layout in LAYOUTS:
        p = plan([], [1], layout, rest=True)
        assert (p.matches, p.slots, p.lower_bound, p.gap) == ([], 0, 0, 0)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_plan_rejects_bad_input(layout):
    with pytest.raises(ValueError, match="at least one court is needed"):
        plan([[1, 2]], [], layout)
    with pytest.raises(ValueError, match=re.escape("court ids must be distinct: [1, 1]")):
        plan([[1, 2], [3, 4]], [1, 1], layout)
    with pytest.raises(ValueError, match=re.escape("group 1 has 1 team(s); a group needs at least 2")):
        plan([[1, 2, 3], [4]], [1, 2], layout)
    with pytest.raises(ValueError, match="team 3 appears more than once in the groups"):
        plan([[1, 2, 3], [3, 4]], [1, 2], layout, rest=True)


def test_plan_rejects_unknown_layout():
    with pytest.raises(ValueError, match="unknown layout 'round_robin_on_one_court'"):
        plan([[1, 2]], [1], "round_robin_on_one_court")


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("rest", [False, True])
def test_plan_deterministic(layout, rest):
    groups = make_groups([5, 4, 6, 3, 2])
    assert plan(groups, [1, 2, 3], layout, rest=rest) == plan(groups, [1, 2, 3], layout, rest=rest)


# Section 2.4, exact optima computed with CP-SAT:
# (teams per group, groups, courts, free, free+rest, pinned, pinned+rest);
# None where pinning is impossible (fewer courts than groups).
OPTIMA = [
    (3, 1, 1, 3, 5, 3, 5),
    (3, 2, 1, 6, 6, None, None),
    (3, 3, 2, 5, 6, None, None),
    (3, 4, 2, 6, 6, None, None),
    (3, 4, 3, 4, 6, None, None),
    (3, 4, 4, 3, 5, 3, 5),
    (3, 6, 4, 5, 6, None, None),
    (4, 1, 1, 6, 8, 6, 8),
    (4, 1, 2, 3, 5, 3, 5),
    (4, 2, 2, 6, 6, 6, 8),
    (4, 2, 3, 4, 6, 6, 8),
    (4, 3, 3, 6, 7, 6, 8),
    (4, 3, 4, 5, 6, 6, 8),
    (4, 4, 3, 8, 8, None, None),
    (4, 4, 4, 6, 6, 6, 8),
    (4, 4, 6, 4, 6, 6, 8),
    (4, 5, 4, 8, 8, None, None),
    (5, 1, 2, 5, 9, 5, 9),
    (5, 2, 3, 7, 10, 10, 10),
    (5, 3, 3, 10, 10, 10, 10),
    (5, 4, 4, 10, 10, 10, 10),
    (6, 1, 3, 5, 9, 5, 9),
    (6, 2, 3, 10, 10, 15, 15),
    (6, 2, 4, 8, 10, 8, 11),
    (6, 3, 4, 12, 12, 15, 15),
]

# Rows where the rest lower bound is below the optimum (bound it gives).
REST_BOUND_LOOSE = {(4, 3, 3): 6}


@pytest.mark.parametrize("row", OPTIMA, ids=lambda r: f"{r[0]}x{r[1]}on{r[2]}")
def test_reference_optima_table(row):
    n, g, c, free, free_rest, pinned, pinned_rest = row
    groups = make_groups([n] * g)
    courts = list(range(1, c + 1))

    # No rest: the bound is exact and the shared layout reaches it.
    assert lower_bound([n] * g, c) == free
    shared = plan(groups, courts, "shared")
    assert shared.slots == free and shared.gap == 0

    # Rest: the bound never exceeds the optimum, and is exact but for one row.
    bound = lower_bound([n] * g, c, rest=True)
    assert bound == REST_BOUND_LOOSE.get((n, g, c), free_rest)
    assert bound <= free_rest
    shared_rest = plan(groups, courts, "shared", rest=True)
    assert_valid(groups, courts, shared_rest, True)
    assert shared_rest.slots >= free_rest  # nobody beats the optimum
    assert shared_rest.slots == free_rest  # and the scheduler reaches it

    # Pinned with one court per group: the table's "pinned" when g == c.
    if g == c:
        assert plan(groups, courts, "one_group_per_court").slots == pinned
        assert plan(groups, courts, "one_group_per_court", rest=True).slots == pinned_rest


# Section 2.6 scenarios.


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("n,slots", [(3, 5), (4, 8)])
def test_small_group_alone_on_one_court_with_rest(layout, n, slots):
    groups = make_groups([n])
    p = plan(groups, [1], layout, rest=True)
    assert p.slots == slots == p.lower_bound
    assert_valid(groups, [1], p, True)


def test_small_group_on_one_court_rest_orders():
    # Section 2.3: 3 teams: AB, -, AC, -, BC; 4 teams: two disjoint games, idle, ...
    p3 = plan([[1, 2, 3]], [1], "one_group_per_court", rest=True)
    assert [g.slot for g in p3.matches] == [0, 2, 4]
    p4 = plan([[1, 2, 3, 4]], [1], "one_group_per_court", rest=True)
    assert [g.slot for g in p4.matches] == [0, 1, 3, 4, 6, 7]


@pytest.mark.parametrize("n", [5, 6, 7, 8, 16])
def test_larger_group_on_one_court_with_rest_needs_no_idle_slot(n):
    p = plan([list(range(1, n + 1))], [1], "one_group_per_court", rest=True)
    assert p.slots == matches_in(n)
    assert check_schedule(p.matches, [list(range(1, n + 1))], rest=True) == []


def test_two_groups_of_four_on_two_courts_six_slots_no_back_to_back():
    groups = make_groups([4, 4])
    p = plan(groups, [1, 2], "shared", rest=True)
    assert p.slots == 6 and p.gap == 0
    assert report(p).max_streak == 1
    free = plan(groups, [1, 2], "shared")
    assert free.slots == 6


def test_four_groups_of_four_six_courts_pinned_vs_shared_with_rest():
    groups = make_groups([4, 4, 4, 4])
    courts = list(range(1, 7))
    assert plan(groups, courts, "one_group_per_court", rest=True).slots == 8
    shared = plan(groups, courts, "shared", rest=True)
    assert shared.slots == 6 == shared.lower_bound
    assert_valid(groups, courts, shared, True)


# --------------------------------------------------------------------------
# lower_bound
# --------------------------------------------------------------------------


def test_lower_bound_without_rest_is_court_or_rounds():
    for sizes, nc in SHAPES:
        expected = max(
            -(-sum(matches_in(n) for n in sizes) // nc),
            max(rounds_of(n) for n in sizes),
        )
        assert lower_bound(sizes, nc) == expected


@pytest.mark.parametrize(
    "sizes,courts,expected",
    [
        ([3], 1, 5),  # section 2.3
        ([4], 1, 8),  # section 2.3, only the one-court argument gives 8
        ([4], 2, 5),  # per team 2·3-1
        ([5], 2, 9),  # window: 2 games per two slots
        ([6], 3, 9),  # per team 2·5-1
        ([4, 4], 1, 12),  # court capacity; rest costs nothing (section 2.3)
        ([3, 3, 3], 2, 6),  # global window bound
        ([2], 1, 1),
        ([2, 2], 1, 2),
        ([16], 16, 29),
    ],
)
def test_lower_bound_with_rest_examples(sizes, courts, expected):
    assert lower_bound(sizes, courts, rest=True) == expected


def test_lower_bound_monotone():
    for sizes, nc in SHAPES[::4]:
        for rest in (False, True):
            b = lower_bound(sizes, nc, rest)
            assert lower_bound(sizes, nc + 1, rest) <= b
            assert lower_bound(sizes + [4], nc, rest) >= b
            assert lower_bound(sizes, nc, True) >= lower_bound(sizes, nc, False)


@pytest.mark.parametrize(
    "sizes,courts,message",
    [
        ([1], 1, "a group needs at least 2 teams, got 1"),
        ([4, 0], 2, "a group needs at least 2 teams, got 0"),
        ([4], 0, "at least one court is needed, got 0"),
        ([4], -1, "at least one court is needed, got -1"),
        ([4], 1.5, "courts must be a number of courts (int), got 1.5"),
        (["4"], 1, "a group needs at least 2 teams, got '4'"),
    ],
)
def test_lower_bound_rejects_bad_input(sizes, courts, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        lower_bound(sizes, courts)


def test_lower_bound_empty():
    assert lower_bound([], 3) == 0 and lower_bound([], 3, rest=True) == 0


def brute_force_rest_optimum(n: int, courts: int, limit: int) -> int | None:
    """Fewest slots for one n-team group with rest, by exhaustive search."""
    pairs = list(itertools.combinations(range(n), 2))
    full = (1 << len(pairs)) - 1

    def matchings(avail_teams, todo):
        # every set of disjoint remaining games among avail teams, <= courts
        out = [0]

        def grow(start, used, mask, size):
            for i in range(start, len(pairs)):
                a, b = pairs[i]
                if not (todo >> i) & 1 or a in used or b in used:
                    continue
                if a not in avail_teams or b not in avail_teams:
                    continue
                out.append(mask | (1 << i))
                if size + 1 < courts:
                    grow(i + 1, used | {a, b}, mask | (1 << i), size + 1)

        grow(0, frozenset(), 0, 0)
        return out

    frontier = {(0, frozenset())}
    for t in range(1, limit + 1):
        nxt = set()
        for done, busy in frontier:
            avail = frozenset(range(n)) - busy
            for m in matchings(avail, full & ~done):
                teams = frozenset(x for i, p in enumerate(pairs) if (m >> i) & 1 for x in p)
                if done | m == full:
                    return t
                nxt.add((done | m, teams))
        frontier = nxt
    return None


@pytest.mark.parametrize("n,courts", [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3), (5, 1), (5, 2), (5, 3)])
def test_rest_bound_and_plan_against_brute_force(n, courts):
    best = brute_force_rest_optimum(n, courts, 20)
    assert lower_bound([n], courts, rest=True) <= best
    p = plan([list(range(1, n + 1))], list(range(1, courts + 1)), "shared", rest=True)
    assert p.slots == best


def test_six_teams_two_courts_with_rest():
    # brute_force_rest_optimum(6, 2, 20) == 11 (about a minute, so not run
    # here); the bound is 10: per team 2·5 - 1 = 9; two consecutive slots hold
    # at most 3 games, one slot 2, so 1 + ceil((2·15 - 2·2) / 3) = 10.
    assert lower_bound([6], 2, rest=True) == 10
    p = plan([list(range(1, 7))], [1, 2], "shared", rest=True)
    assert p.slots == 11
    assert check_schedule(p.matches, [list(range(1, 7))], rest=True) == []


# --------------------------------------------------------------------------
# report and the secondary aims
# --------------------------------------------------------------------------


def test_report_on_hand_made_plan():
    # One court, 4 teams, Berger order: 1-4, 2-3 | 4-3, 1-2 | 2-4, 3-1.
    groups = [[1, 2, 3, 4]]
    p = plan(groups, [9], "one_group_per_court")
    rep = report(p)
    assert isinstance(rep, ScheduleReport)
    assert (rep.slots, rep.lower_bound, rep.gap) == (6, 6, 0)
    # Slots per team: 1: 0,3,5  2: 1,3,4  3: 1,2,5  4: 0,2,4.
    assert rep.waits == {1: (1, 2), 2: (0, 1), 3: (0, 2), 4: (1, 1)}
    assert rep.max_streak == 2
    assert rep.back_to_back == 2  # team 2 (3-4), team 3 (1-2)
    assert rep.max_wait == 2
    assert rep.wait_spread == 2
    assert rep.side_imbalance == 1
    assert rep.problems == []


def test_report_flags_broken_plan():
    groups = [[1, 2, 3]]
    good = plan(groups, [1], "one_group_per_court", rest=True)
    squeezed = Plan(
        matches=[
            PlannedMatch(slot=i, court=1, group=0, round=g.round, team_a=g.team_a, team_b=g.team_b)
            for i, g in enumerate(good.matches)
        ],
        slots=3,
        lower_bound=5,
        layout=good.layout,
        rest=True,
        groups=good.groups,
        courts=good.courts,
    )
    problems = report(squeezed).problems
    assert any("consecutive slots" in pr for pr in problems)


def test_shared_layout_spreads_matches_when_courts_allow():
    # 1 group of 4 and 1 of 8 on plenty of courts: 7 slots are needed for the
    # 8-team group; the 4-team group need not play 3 in a row.
    groups = make_groups([4, 8])
    p = plan(groups, list(range(1, 11)), "shared")
    assert p.slots == 7
    four = {t: sorted(g.slot for g in p.matches if t in (g.team_a, g.team_b)) for t in groups[0]}
    for slots in four.values():
        assert all(b - a > 1 for a, b in zip(slots, slots[1:], strict=False)), four


def test_shared_streaks_not_worse_than_one_court_order():
    # On one shared court the shared plan never makes a team play more games
    # in a row than the official one-court order does.
    for sizes, _nc in SHAPES[::7]:
        groups = make_groups(sizes)
        shared = report(plan(groups, [1], "shared"))
        pinned = report(plan(groups, [1], "one_group_per_court"))
        assert shared.max_streak <= pinned.max_streak


def test_balance_sides_swaps_when_it_helps():
    matches = [
        PlannedMatch(slot=i, court=1, group=0, round=i, team_a=1, team_b=b) for i, b in enumerate([2, 3, 4])
    ]  # team 1 on side A three times
    out = balance_sides(matches)
    a_count = Counter(g.team_a for g in out)
    assert a_count[1] == 2  # 2 A, 1 B: within 1
    assert {frozenset((g.team_a, g.team_b)) for g in out} == {frozenset((1, b)) for b in (2, 3, 4)}
    # Berger games are left alone.
    p = plan(make_groups([6]), [1], "one_group_per_court")
    assert balance_sides(p.matches) == p.matches


# --------------------------------------------------------------------------
# Timed schedules: check_timed
# --------------------------------------------------------------------------


def T_(court, a, b, start, end, group=0):
    return TimedMatch(court=court, team_a=a, team_b=b, start_minute=start, end_minute=end, group=group)


TIMED_OK = [T_(1, 2, 3, 540, 560), T_(1, 1, 2, 560, 580), T_(2, 3, 1, 600, 620)]


def test_check_timed_ok_and_touching_is_not_overlap():
    assert check_timed(TIMED_OK) == []
    assert check_timed(TIMED_OK, [[1, 2, 3]]) == []


@pytest.mark.parametrize(
    "second",
    [
        (545, 570),  # partial overlap, starts inside
        (530, 545),  # partial overlap, ends inside
        (545, 555),  # nested inside
        (530, 600),  # nests the first
        (540, 560),  # identical
        (540, 550),  # equal start
    ],
)
def test_check_timed_team_overlap(second):
    matches = [T_(1, 1, 2, 540, 560), T_(2, 1, 3, *second), T_(3, 2, 3, 700, 720)]
    problems = check_timed(matches)
    assert len(problems) == 1 and problems[0].startswith("team 1 is in games "), problems


def test_check_timed_nested_overlap_reports_each_pair():
    # Game 0 spans two shorter games of team 1.
    matches = [
        T_(1, 1, 2, 540, 640),
        T_(2, 1, 3, 550, 560),
        T_(3, 1, 4, 600, 610),
        T_(1, 2, 3, 700, 710),
        T_(1, 2, 4, 720, 730),
        T_(1, 3, 4, 740, 750),
    ]
    problems = [p for p in check_timed(matches) if p.startswith("team 1 ")]
    assert problems == [
        "team 1 is in games 0 (540-640) and 1 (550-560) at once",
        "team 1 is in games 0 (540-640) and 2 (600-610) at once",
    ]


@pytest.mark.parametrize("second", [(545, 570), (545, 555), (530, 600), (540, 560)])
def test_check_timed_court_double_booked(second):
    matches = [T_(1, 1, 2, 540, 560), T_(1, 3, 4, *second, group=1)]
    problems = check_timed(matches)
    assert len(problems) == 1 and problems[0].startswith("court 1 is in games"), problems


def test_check_timed_court_back_to_back_is_fine():
    matches = [T_(1, 1, 2, 540, 560), T_(1, 3, 4, 560, 580, group=1)]
    assert check_timed(matches) == []


def test_check_timed_pairs():
    missing = TIMED_OK[:2]  # 2-3 and 1-2, no 3-1
    expected = ["teams 1 and 3 of group 0 meet 0 times instead of once"]
    # Without groups the members are the teams seen in the group's games.
    assert check_timed(missing) == expected
    assert check_timed(missing, [[1, 2, 3]]) == expected
    repeated = TIMED_OK + [T_(2, 2, 1, 700, 720)]
    assert check_timed(repeated) == ["teams 1 and 2 of group 0 meet 2 times instead of once"]


def test_check_timed_groups_given():
    matches = [T_(1, 1, 2, 0, 10), T_(1, 3, 4, 10, 20, group=1), T_(2, 1, 3, 20, 30), T_(2, 5, 1, 40, 50)]
    problems = check_timed(matches, [[1, 2], [3, 4]])
    assert "team 5 in game 3 is not in any group" in problems
    assert any("game 2 (1 v 3)" in p for p in problems)


def test_check_timed_bad_matches():
    problems = check_timed([T_(1, 1, 2, 60, 60), T_(2, 3, 3, 0, 10)])
    assert "game 0 ends at 60, not after its start 60" in problems
    assert "team 3 plays itself in game 1" in problems


def test_check_timed_finds_overlap_with_late_court():
    # Team 1 plays slot 0 on court 2, slot 1 on court 1.  With court 2 opening
    # 10 minutes late its first game (550-570) overlaps 565-585 on court 1.
    matches = [
        PlannedMatch(slot=0, court=2, group=0, round=0, team_a=1, team_b=2),
        PlannedMatch(slot=0, court=1, group=0, round=0, team_a=3, team_b=4),
        PlannedMatch(slot=1, court=1, group=0, round=1, team_a=1, team_b=3),
        PlannedMatch(slot=1, court=2, group=0, round=1, team_a=2, team_b=4),
        PlannedMatch(slot=2, court=1, group=0, round=2, team_a=4, team_b=1),
        PlannedMatch(slot=2, court=2, group=0, round=2, team_a=2, team_b=3),
    ]
    groups = [[1, 2, 3, 4]]
    assert check_schedule(matches, groups) == []
    assert check_timed(timed_matches(matches, Clock(540, 20, 5)), groups) == []
    late = timed_matches(matches, Clock(540, 20, 5, court_start={2: 550}))
    assert (late[0].start_minute, late[0].end_minute) == (550, 570)
    # Team 4 too: court 2 in slot 1 (575-595), court 1 in slot 2 (590-610).
    assert check_timed(late, groups) == [
        "team 1 is in games 0 (550-570) and 2 (565-585) at once",
        "team 4 is in games 3 (575-595) and 4 (590-610) at once",
    ]


def test_check_timed_on_shared_plan_with_late_court():
    # Exactly the teams that leave court 2 after slot k for another court in
    # slot k+1 are reported; with equal clocks nothing is.
    groups = make_groups([4, 6])
    p = plan(groups, [1, 2, 3], "shared")
    assert check_timed(timed_matches(p, Clock(540, 20, 5)), groups) == []
    where = {(g.slot, t): g.court for g in p.matches for t in (g.team_a, g.team_b)}
    movers = {t for (k, t), court in where.items() if court == 2 and where.get((k + 1, t)) not in (None, 2)}
    assert movers  # the shared layout moves teams between courts here
    problems = check_timed(timed_matches(p, Clock(540, 20, 5, court_start={2: 550})), groups)
    reported = {int(pr.split()[1]) for pr in problems}
    assert all(pr.startswith("team ") for pr in problems)
    assert reported == movers


# --------------------------------------------------------------------------
# Clock and shift
# --------------------------------------------------------------------------


def simulate(start, match, change, lunch, court_start, slot, court):
    """Reference clock: walk slot by slot, pushing a game past lunch."""
    t = (court_start or {}).get(court, start)
    for k in range(slot + 1):
        if lunch and t < lunch[1] and t + match > lunch[0]:
            t = lunch[1]
        if k == slot:
            return t
        t += match + change


def test_clock_plain_arithmetic():
    clock = Clock(570, 15, 5)  # 9:30, 20-minute slots
    assert [clock.start_of(k, 1) for k in range(4)] == [570, 590, 610, 630]
    assert clock.end_of(1, 1) == 605
    assert clock.slot_minutes == 20


def test_clock_lunch_pushes_and_shifts_later_slots():
    # 9:00 start, 15 + 5; lunch 12:00-13:00.  Slot 8 is 11:40-11:55 (ends
    # before lunch), slot 9 would be 12:00 -> 13:00, slot 10 13:20.
    clock = Clock(540, 15, 5, lunch=(720, 780))
    assert clock.start_of(8, 1) == 700
    assert clock.start_of(9, 1) == 780
    assert clock.start_of(10, 1) == 800
    # A game overlapping the start of lunch is pushed too.
    clock2 = Clock(540, 30, 5, lunch=(720, 780))  # slot 5: 11:55-12:25
    assert clock2.start_of(4, 1) == 680
    assert clock2.start_of(5, 1) == 780
    assert clock2.start_of(6, 1) == 815


def test_clock_match_ending_at_lunch_start_is_not_pushed():
    clock = Clock(660, 20, 10, lunch=(740, 800))  # slot 2: 12:00-12:20, ends 12:20
    assert clock.start_of(2, 1) == 720
    assert clock.start_of(3, 1) == 800


def test_clock_per_court_start():
    clock = Clock(540, 20, 5, lunch=(720, 780), court_start={2: 600, 3: 800})
    assert clock.start_of(0, 1) == 540
    assert clock.start_of(0, 2) == 600
    assert clock.start_of(4, 2) == 700  # 11:40-12:00, ends as lunch starts
    assert clock.start_of(5, 2) == 780
    assert clock.start_of(0, 3) == 800  # opens after lunch: no push
    assert clock.start_of(2, 3) == 850
    # A court that opens during lunch starts at the end of lunch.
    assert Clock(540, 20, 5, lunch=(720, 780), court_start={4: 730}).start_of(0, 4) == 780


def test_clock_property_matches_simulation():
    for start in (480, 540, 555):
        for match in (1, 10, 15, 25, 40):
            for change in (0, 5, 7):
                for lunch in (None, (720, 780), (700, 705), (545, 560), (300, 400)):
                    court_start = {2: start + 13, 3: 725}
                    clock = Clock(start, match, change, lunch=lunch, court_start=court_start)
                    for court in (1, 2, 3):
                        previous = None
                        for slot in range(30):
                            s = clock.start_of(slot, court)
                            expected = simulate(start, match, change, lunch, court_start, slot, court)
                            assert s == expected
                            if lunch:
                                assert s >= lunch[1] or s + match <= lunch[0]
                            if previous is not None:
                                assert s >= previous + match + change
                            previous = s


@pytest.mark.parametrize(
    "args,kwargs,message",
    [
        ((540, 0, 5), {}, "game_minutes must be at least 1, got 0"),
        ((540, 15, -1), {}, "changeover_minutes must be at least 0, got -1"),
        ((-1, 15, 5), {}, "start_minute must be at least 0, got -1"),
        ((540, 15, 5), {"lunch": (780, 720)}, "lunch must end after it starts, got (780, 720)"),
        ((540, 15, 5), {"lunch": (720, 720)}, "lunch must end after it starts, got (720, 720)"),
        ((540, 15, 5), {"court_start": {1: -5}}, "start of court 1 must be at least 0, got -5"),
        ((540.5, 15, 5), {}, "start_minute must be an int (minutes), got 540.5"),
    ],
)
def test_clock_rejects_bad_input(args, kwargs, message):
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        Clock(*args, **kwargs)


def test_clock_rejects_negative_slot():
    with pytest.raises(ValueError, match="slot must be at least 0, got -1"):
        Clock(540, 15, 5).start_of(-1, 1)


def test_shift_delays_remaining_matches_only():
    starts = {"g1": 540, "g2": 565, "g3": 590, "g4": 615}
    before = dict(starts)
    out = shift(starts, 565, 12)
    assert out == {"g1": 540, "g2": 577, "g3": 602, "g4": 627}
    assert starts == before  # pure
    assert shift(starts, 1000, 30) == starts
    assert shift({}, 0, 5) == {}
    with pytest.raises(ValueError, match="delay must be at least 0, got -5"):
        shift(starts, 565, -5)
