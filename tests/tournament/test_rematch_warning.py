"""A correction that makes a first knockout round a rematch of two teams of one group says so
before it is confirmed, and offers the re-draw (issue 29, item 8)."""

import pytest
from django.db.models import Q
from django.utils import translation

from judging.engine import rules
from judging.models import RecordingSheet
from tests.tournament.test_stages_services import between, day, members, play_groups
from tournament.models import Match
from tournament.reports import stages
from tournament.services.knockout import seed_divisions


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def replay_with(match, winner, cards_winner, cards_loser):
    """A new confirmed version of ``match`` where ``winner`` takes ``cards_winner``."""
    from tests.factories import submit_result

    a_wins = match.team_a_id == winner.pk
    cards_a, cards_b = (cards_winner, cards_loser) if a_wins else (cards_loser, cards_winner)
    joker = rules.JokerHolder.A if a_wins else rules.JokerHolder.B
    return submit_result(match, rules.SheetValues(cards_a, cards_b, 56 - cards_a - cards_b, joker))


def unsaved_version(match, winner, cards_winner, cards_loser):
    a_wins = match.team_a_id == winner.pk
    cards_a, cards_b = (cards_winner, cards_loser) if a_wins else (cards_loser, cards_winner)
    return RecordingSheet(
        match=match,
        version=99,
        cards_a=cards_a,
        cards_b=cards_b,
        referee_cards=56 - cards_a - cards_b,
        joker_holder="A" if a_wins else "B",
        winner_side="A" if a_wins else "B",
        decided_by="cards",
    )


@pytest.fixture
def seeded_with_best_second(db):
    """Three groups of three, one qualifier each and the best runner-up: group A's runner-up
    is the best second (it beat its third 40–10), seeded against another group's winner."""
    event, (division,) = day([("小学生の部", [1, 2, 3], 9, {"qualifiers_per_group": 1, "best_runners_up": 1})])
    play_groups(division)
    groups = list(division.groups.order_by("name"))
    _a1, a2, a3 = members(groups[0])
    replay_with(between(a2, a3), a2, 40, 10)
    for group in groups[1:]:  # the other runners-up beat their thirds by less, each differently
        _w, second, third = members(group)
        replay_with(between(second, third), second, 30 + groups.index(group), 24)
    seed_divisions(event)
    semi = Match.objects.get(Q(team_a=a2) | Q(team_b=a2), division=division, stage=Match.Stage.SEMIFINAL)
    opponent = semi.team_b if semi.team_a_id == a2.pk else semi.team_a
    return division, groups, semi, opponent


def test_a_correction_that_makes_the_best_second_meet_its_own_group_winner_says_so(seeded_with_best_second):
    division, groups, semi, opponent = seeded_with_best_second
    group = next(g for g in groups if g.pk == opponent.group_id)
    _winner, second, third = members(group)
    assert opponent == _winner
    # Correcting that group's runner-up's game to a big win makes it the best second: it would
    # now fill the slot that faces its own group's winner.
    sheet = unsaved_version(between(second, third), second, 50, 5)
    sentences = stages.changes_if_confirmed(sheet)
    rematch = [s for s in sentences if "rematch" in s]
    assert rematch, sentences
    assert opponent.name in rematch[0] and second.name in rematch[0] and "Reset and seed again" in rematch[0]


def test_a_correction_that_changes_nothing_in_the_first_round_warns_of_no_rematch(seeded_with_best_second):
    division, groups, semi, opponent = seeded_with_best_second
    group = next(g for g in groups if g.pk not in (opponent.group_id, groups[0].pk))
    winner, second, _third = members(group)
    sheet = unsaved_version(between(winner, second), winner, 35, 20)
    assert not [s for s in stages.changes_if_confirmed(sheet) if "rematch" in s]
