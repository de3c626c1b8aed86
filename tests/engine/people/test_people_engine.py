"""The people app's pure engines, as tables: referees (rest, own club, one game a block) and
the duty roster's blocks and clashes (issue 32; docs/people.md)."""

import pytest

from people.engine import referees as r
from people.engine import roster


def games(blocks, courts=2, clubs=None):
    clubs = clubs or {}
    return [r.Game(b * 10 + c, b, c, frozenset(clubs.get((b, c), ()))) for b in range(blocks) for c in range(courts)]


@pytest.mark.parametrize(
    ("held", "block", "rest", "expected"),
    [
        ({0, 1}, 2, 2, True),
        ({0}, 2, 2, False),
        ({1}, 2, 1, True),
        ({0, 1, 2}, 3, 0, False),
        (set(), 0, 1, False),
    ],
)
def test_resting(held, block, rest, expected):
    assert r.resting(held, block, rest) is expected


def test_every_game_gets_a_referee_and_no_one_judges_two_at_once():
    plan = r.plan(games(4), [r.Referee(i, "") for i in range(1, 5)], rest=2)
    assert not plan.unassigned
    by_block = {}
    for game, ref in plan.assigned.items():
        by_block.setdefault(game // 10, []).append(ref)
    assert all(len(refs) == len(set(refs)) for refs in by_block.values())


def test_rest_after_n_games_in_a_row():
    plan = r.plan(games(5, courts=1), [r.Referee(1, ""), r.Referee(2, "")], rest=2)
    seq = [plan.assigned[b * 10] for b in range(5)]
    for i in range(2, 5):
        assert not (seq[i - 2] == seq[i - 1] == seq[i])


def test_never_own_club_and_unassigned_when_no_one_may():
    clubs = {(0, 0): {"a"}, (1, 0): {"a", "b"}}
    plan = r.plan(games(2, courts=1, clubs=clubs), [r.Referee(1, "a"), r.Referee(2, "b")], rest=0)
    assert plan.assigned[0] == 2
    assert plan.unassigned == (10,)


def test_games_given_by_hand_are_kept():
    plan = r.plan(games(1), [r.Referee(1, ""), r.Referee(2, "")], rest=0, fixed={1: 1})
    assert plan.assigned[1] == 1 and plan.assigned[0] == 2


@pytest.mark.parametrize(
    ("lunch", "kinds"),
    [
        ((720, 780), ["before", "morning", "lunch", "afternoon"]),
        (None, ["before", "games"]),
        ((900, 960), ["before", "games"]),  # a lunch after the last game is no block
    ],
)
def test_blocks(lunch, kinds):
    blocks = roster.blocks(570, 840, lunch)
    assert [b.kind for b in blocks] == kinds
    assert blocks[0].start == 510 and blocks[-1].end == 840


def test_clashes_two_roles_or_a_role_while_judging():
    duties = [("reception", 0, "山田 花子"), ("announcer", 0, "山田花子"), ("venue", 1, "佐藤")]
    found = roster.clashes(duties, judging=[("佐藤", 1), ("鈴木", 1)])
    assert [(c.name, c.block, c.roles) for c in found] == [
        ("山田花子", 0, ("reception", "announcer")),
        ("佐藤", 1, ("venue", "referee-game")),
    ]
