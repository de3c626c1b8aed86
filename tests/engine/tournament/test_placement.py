"""Table tests of the placement pairing (順位決定戦): pairs, games per place, final places."""

import pytest

from tournament.engine import placement
from tournament.engine.placement import Block, GroupSize, PairsError, PlacementGame


def groups(*sizes):
    return [GroupSize(10 + i, chr(ord("A") + i), size) for i, size in enumerate(sizes)]


NAMES = ["A", "B", "C", "D", "E"]


@pytest.mark.parametrize(
    ("text", "names", "pairs"),
    [
        ("", NAMES[:2], [(0, 1)]),
        ("", NAMES[:4], [(0, 1), (2, 3)]),
        ("", NAMES[:3], [(0, 1)]),
        ("", NAMES[:5], [(0, 1), (2, 3)]),
        ("A-C, B-D", NAMES[:4], [(0, 2), (1, 3)]),
        ("Ａ－Ｄ、Ｂ－Ｃ", NAMES[:4], [(0, 3), (1, 2)]),
        ("Aリーグ-Cリーグ; B組 - D組", NAMES[:4], [(0, 2), (1, 3)]),
        ("a vs b", NAMES[:2], [(0, 1)]),
        ("A×B\nC対D", NAMES[:4], [(0, 1), (2, 3)]),
        ("B-C", NAMES[:3], [(1, 2)]),  # A is the left-over group
        ("Group A - Group B", NAMES[:2], [(0, 1)]),
        ("A-B,", NAMES[:2], [(0, 1)]),
    ],
)
def test_pairs_are_read_from_the_organisers_text(text, names, pairs):
    assert placement.parse_pairs(text, names) == pairs


@pytest.mark.parametrize(
    ("text", "names", "code", "part", "missing"),
    [
        ("A-X", NAMES[:2], "unknown", "X", ()),
        ("A-B, A-C", NAMES[:4], "twice", "A", ()),
        ("A-A", NAMES[:2], "twice", "A", ()),
        ("A-B", NAMES[:4], "missing", "", ("C", "D")),
        ("A-B", NAMES[:5], "missing", "", ("C", "D", "E")),
        ("A-B-C", NAMES[:3], "format", "A-B-C", ()),
        ("A B", NAMES[:2], "format", "A B", ()),
        ("A", NAMES[:3], "format", "A", ()),
    ],
)
def test_a_bad_pair_text_names_its_bad_part(text, names, code, part, missing):
    with pytest.raises(PairsError) as refused:
        placement.parse_pairs(text, names)
    assert (refused.value.code, refused.value.part, refused.value.groups) == (code, part, missing)


@pytest.mark.parametrize("count", range(2, 9))
def test_every_place_of_every_pair_plays_once_for_2_to_8_groups_of_four(count):
    gs = groups(*[4] * count)
    games = placement.plan(gs, placement.default_pairs(count))
    assert len(games) == 4 * (count // 2)
    for place in range(1, 5):
        at_place = [g for g in games if g.place == place]
        played = [gid for g in at_place for gid in (g.group_a, g.group_b)]
        assert len(played) == len(set(played)) == 2 * (count // 2)
    left_over = {g.id for g in gs} - {gid for g in games for gid in (g.group_a, g.group_b)}
    assert left_over == ({gs[-1].id} if count % 2 else set())


def test_two_groups_play_1st_v_1st_then_2nd_v_2nd():
    assert placement.plan(groups(3, 3), [(0, 1)]) == [
        PlacementGame(1, 10, 11, 0),
        PlacementGame(2, 10, 11, 0),
        PlacementGame(3, 10, 11, 0),
    ]


def test_games_start_at_the_first_place_below_the_knockout():
    games = placement.plan(groups(4, 4), [(0, 1)], first_place=2)
    assert [g.place for g in games] == [2, 3, 4]


def test_a_place_the_other_group_does_not_have_gets_no_game():
    games = placement.plan(groups(5, 4, 4, 3), [(0, 1), (2, 3)])
    assert [(g.place, g.pair) for g in games] == [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0)]


def test_organiser_pairs_are_followed_in_their_order():
    games = placement.plan(groups(2, 2, 2, 2), [(0, 3), (1, 2)])
    assert [(g.group_a, g.group_b) for g in games if g.place == 1] == [(10, 13), (11, 12)]


def test_plan_refuses_place_zero():
    with pytest.raises(ValueError):
        placement.plan(groups(2, 2), [(0, 1)], first_place=0)


@pytest.mark.parametrize(
    ("teams_at", "games_at", "first", "expected"),
    [
        # two groups of 3: the place-p game decides places 2p-1 and 2p
        ({1: 2, 2: 2, 3: 2}, {1: 1, 2: 1, 3: 1}, 1, [Block(1, 1, 0, 1, 2, 3), Block(2, 1, 0, 3, 4, 5), Block(3, 1, 0, 5, 6, 7)]),
        # four groups (two pairs): the two place-1 winners share 1st, their losers 3rd
        ({1: 4, 2: 4}, {1: 2, 2: 2}, 1, [Block(1, 2, 0, 1, 3, 5), Block(2, 2, 0, 5, 7, 9)]),
        # three groups: the left-over group's team comes after those who played at its place
        ({1: 3, 2: 3}, {1: 1, 2: 1}, 1, [Block(1, 1, 1, 1, 2, 3), Block(2, 1, 1, 4, 5, 6)]),
        # "both": a 2-team knockout above (first place 2)
        ({1: 2, 2: 2, 3: 2}, {2: 1, 3: 1}, 2, [Block(2, 1, 0, 3, 4, 5), Block(3, 1, 0, 5, 6, 7)]),
        # unequal sizes: a 5th place only one group has
        ({1: 2, 2: 2, 3: 2, 4: 2, 5: 1}, {1: 1, 2: 1, 3: 1, 4: 1}, 1, [
            Block(1, 1, 0, 1, 2, 3), Block(2, 1, 0, 3, 4, 5), Block(3, 1, 0, 5, 6, 7),
            Block(4, 1, 0, 7, 8, 9), Block(5, 0, 1, 9, 9, 9),
        ]),
    ],
)  # fmt: skip
def test_final_places_per_block(teams_at, games_at, first, expected):
    assert placement.blocks(teams_at, games_at, first) == expected


@pytest.mark.parametrize("count", range(2, 9))
def test_blocks_give_every_team_a_place_for_2_to_8_groups(count):
    sizes = [4] * count
    games = placement.plan(groups(*sizes), placement.default_pairs(count))
    teams_at = {p: count for p in range(1, 5)}
    games_at = {p: sum(1 for g in games if g.place == p) for p in range(1, 5)}
    result = placement.blocks(teams_at, games_at)
    assert result[0].winner_rank == 1
    last = result[-1]
    assert last.unpaired_rank + last.unpaired - 1 == 4 * count or last.loser_rank + last.games - 1 == 4 * count


@pytest.mark.parametrize(("text", "ok"), [("A-B, C-D", True), ("", True), ("A-B-C", False), ("A", False)])
def test_the_form_of_a_pair_text_is_checked_before_the_groups_exist(text, ok):
    if ok:
        placement.check_format(text)
    else:
        with pytest.raises(PairsError):
            placement.check_format(text)


# --- which places the placement games leave shared (issue 27: two 第1位 with four groups) -------


def _groups(count, size=3):
    return [placement.GroupSize(i, chr(ord("A") + i), size) for i in range(count)]


def test_four_groups_in_two_pairs_share_every_place_two_by_two():
    groups = _groups(4)
    assert placement.shared_ranks(groups, placement.default_pairs(4)) == [
        (1, 2),
        (3, 2),
        (5, 2),
        (7, 2),
        (9, 2),
        (11, 2),
    ]


def test_one_pair_or_one_pair_and_a_left_over_group_shares_nothing():
    assert placement.shared_ranks(_groups(2), placement.default_pairs(2)) == []
    assert placement.shared_ranks(_groups(3), placement.default_pairs(3)) == []


def test_five_groups_share_the_winners_and_losers_but_not_the_left_over_first():
    shared = placement.shared_ranks(_groups(5), placement.default_pairs(5))
    assert shared[:3] == [(1, 2), (3, 2), (6, 2)]  # place 5: the left-over group's first, alone


def test_below_a_knockout_only_the_placement_places_count():
    # "both" with one qualifier a group: the four winners play the knockout (places 1-4)
    assert placement.shared_ranks(_groups(4), placement.default_pairs(4), first_place=2) == [
        (5, 2),
        (7, 2),
        (9, 2),
        (11, 2),
    ]


def test_unequal_groups_share_only_where_two_games_are_played():
    groups = [
        placement.GroupSize(0, "A", 3),
        placement.GroupSize(1, "B", 3),
        placement.GroupSize(2, "C", 3),
        placement.GroupSize(3, "D", 2),
    ]
    # place 3: only A-B play (D has no third); C's third keeps its place alone
    assert placement.shared_ranks(groups, placement.default_pairs(4)) == [(1, 2), (3, 2), (5, 2), (7, 2)]
