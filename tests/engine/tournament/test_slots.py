"""Slot references as a pure engine (tournament/engine/slots.py): parsing, writing and resolving
every kind, malformed references, places beyond a group's size, and slots that are not final.
Rules: docs/rules/stages.md, "Slots"."""

import pytest

from tournament.engine.slots import (
    Filled,
    Outcome,
    PlaceTable,
    Reference,
    ReferenceError,
    best,
    group_place,
    loser,
    parse,
    resolve,
    settled_places,
    winner,
)

# Group 10: teams 101 (1st), 102 (2nd), 103 (3rd), complete and untied.
# Group 20: teams 201 and 202 tied for 1st, 203 3rd; complete.
# Group 30: not complete yet.
GROUPS = {
    10: PlaceTable((101, 102, 103), (True, True, True)),
    20: PlaceTable((201, 202, 203), (False, False, True)),
    30: PlaceTable((301, 302), (False, False)),
}
# The runners-up across groups, best first: the second best is not settled (a tie crosses it).
BESTS = {2: PlaceTable((102, 202, 302), (True, False, False))}
OUTCOMES = {7: Outcome(winner=101, loser=201), 8: None}


def filled(reference):
    return resolve(reference, groups=GROUPS, bests=BESTS, outcomes=OUTCOMES)


@pytest.mark.parametrize(
    "text, reference",
    [
        ("group:10:1", Reference("group", 10, 1)),
        ("group:3:4", Reference("group", 3, 4)),
        ("best:2:1", Reference("best", 2, 1)),
        ("best:3:2", Reference("best", 3, 2)),
        ("winner:7", Reference("winner", 7)),
        ("loser:12", Reference("loser", 12)),
    ],
)
def test_every_kind_parses_and_writes_back_the_same_text(text, reference):
    assert parse(text) == reference
    assert str(reference) == text


def test_the_writers_make_the_references_they_name():
    assert (group_place(10, 1), best(2, 1), winner(7), loser(7)) == ("group:10:1", "best:2:1", "winner:7", "loser:7")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "group",
        "group:10",
        "group:10:1:2",
        "group:x:1",
        "group:10:0",
        "group:-1:1",
        "group:0:1",
        "best:2",
        "best:0:1",
        "winner",
        "winner:7:1",
        "winner:0",
        "loser:abc",
        "place:1:1",
        "GROUP:10:1",
        "group:10:1.5",
        " group:10:1",
    ],
)
def test_malformed_references_are_refused(text):
    with pytest.raises(ReferenceError):
        parse(text)
    with pytest.raises(ReferenceError):
        filled(text)


def test_reference_error_is_a_value_error():
    assert issubclass(ReferenceError, ValueError)


@pytest.mark.parametrize(
    "reference, expected",
    [
        # a group place: the team there, final when the group is complete and the place untied
        ("group:10:1", Filled(101, True)),
        ("group:10:3", Filled(103, True)),
        ("group:20:1", Filled(201, False)),  # tied for first: shown, not final
        ("group:20:2", Filled(202, False)),
        ("group:20:3", Filled(203, True)),
        ("group:30:1", Filled(301, False)),  # group not complete
        # a best-of place across groups
        ("best:2:1", Filled(102, True)),
        ("best:2:2", Filled(202, False)),
        ("best:2:3", Filled(302, False)),
        # an earlier game's winner or loser: final once it has a result
        ("winner:7", Filled(101, True)),
        ("loser:7", Filled(201, True)),
        ("winner:8", Filled(None, False)),  # no result yet
        ("loser:8", Filled(None, False)),
    ],
)
def test_resolve_every_kind(reference, expected):
    assert filled(reference) == expected
    assert filled(parse(reference)) == expected  # a parsed Reference resolves the same


@pytest.mark.parametrize(
    "reference",
    [
        "group:10:4",  # beyond the group's size
        "group:30:3",
        "group:99:1",  # unknown group
        "best:2:4",  # beyond the teams at that place
        "best:5:1",  # no team at that place anywhere
        "winner:99",  # unknown game
        "loser:99",
    ],
)
def test_out_of_range_and_unknown_targets_are_empty_and_not_final(reference):
    assert filled(reference) == Filled(None, False)


def test_a_withdrawn_team_left_out_of_the_table_moves_the_next_one_up():
    # The read side leaves withdrawn teams out: the second team then fills place 1.
    groups = {10: PlaceTable((102, 103), (True, True))}
    assert resolve("group:10:1", groups=groups, bests={}, outcomes={}) == Filled(102, True)
    assert resolve("group:10:3", groups=groups, bests={}, outcomes={}) == Filled(None, False)


def test_a_place_table_needs_one_finality_per_team():
    with pytest.raises(ValueError):
        PlaceTable((1, 2), (True,))


@pytest.mark.parametrize(
    "ranks, tied, complete, expected",
    [
        ([1, 2, 3], [False, False, False], True, (True, True, True)),
        ([1, 1, 3], [True, True, False], True, (False, False, True)),
        ([1, 2, 3], [False, False, False], False, (False, False, False)),
        ([], [], True, ()),
    ],
)
def test_settled_places(ranks, tied, complete, expected):
    assert settled_places(ranks, tied, complete) == expected
