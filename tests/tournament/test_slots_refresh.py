"""Slots after the groups follow their sources (docs/rules/stages.md, "Slots"): corrections, lots
and voids reach the knockout at once; a played game is never rewritten but reported out of date."""

import pytest
from django.db.models import Q
from django.utils import translation

from judging.engine import rules
from judging.models import HistoryEntry
from judging.services import submit_sheet, void_match
from tests.tournament.test_services import drawn_day, match_between, members, play, play_groups_by_strength, win
from tournament import reports
from tournament.models import Match
from tournament.reports import stages
from tournament.services.knockout import seed_divisions, seed_knockout
from tournament.services.lots import record_tie_break


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def two_groups(db):
    """Two groups of three, every group game played (the earlier entry wins), the bracket
    seeded: semifinals A1–B2 and B1–A2."""
    event, division = drawn_day(2, 6)
    division.qualifiers_per_group = 2
    division.save()
    play_groups_by_strength(event)
    seed_knockout(event)
    return event, division


def semifinal_with(team):
    return Match.objects.filter(stage=Match.Stage.SEMIFINAL).filter(Q(team_a=team) | Q(team_b=team)).get()


def group_order(division, index):
    return [row.team for row in reports.division_standings(division)[index].rows]


def swap_first_two(division, index):
    """Correct group ``index``'s game between its first two teams so that the second wins it."""
    first, second = (members_by_pk(division)[pk] for pk in group_order(division, index)[:2])
    match = match_between(first, second)
    if match.team_a_id == first.pk:
        play(match, 10, 46, joker=rules.JokerHolder.B)
    else:
        play(match, 46, 10)
    return first, second


def members_by_pk(division):
    return {t.pk: t for g in division.groups.all() for t in members(g)}


def test_seeded_sides_name_their_group_place(two_groups):
    _event, division = two_groups
    states = stages.division_slots(division)
    semis = [s for s in states if s.match.stage == Match.Stage.SEMIFINAL]
    assert sorted(side.short for s in semis for side in s.sides) == ["A1", "A2", "B1", "B2"]
    assert all(side.final and side.now == side.stored for s in semis for side in s.sides)
    final = next(s for s in states if s.match.stage == Match.Stage.FINAL)
    assert [side.short[0] for side in final.sides] == ["W", "W"] and not any(s.out_of_date for s in states)


def test_a_correction_before_the_semifinal_is_played_changes_its_teams_with_a_history_entry(two_groups):
    _event, division = two_groups
    first, second = swap_first_two(division, 0)
    assert group_order(division, 0)[:2] == [second.pk, first.pk]
    semi = semifinal_with(second)
    assert semi.source_a.endswith(":1") if semi.team_a_id == second.pk else semi.source_b.endswith(":1")
    for state in stages.division_slots(division):
        for side in state.sides:
            assert side.stored == side.settled_team
    entry = HistoryEntry.objects.filter(match=semi, action=HistoryEntry.Action.TEAMS_CHANGED).latest("pk")
    assert second.name in entry.note and first.name in entry.note
    assert not stages.out_of_date(division)


def test_a_correction_after_the_semifinal_was_played_leaves_it_and_reports_it_out_of_date(two_groups):
    _event, division = two_groups
    semis = list(Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL))
    a1_semi = next(m for m in semis if "group:" in m.source_a and m.source_a.endswith(":1"))
    before = (a1_semi.team_a_id, a1_semi.team_b_id)
    play(a1_semi, 30, 26)
    swap_first_two(division, 0)
    a1_semi.refresh_from_db()
    assert (a1_semi.team_a_id, a1_semi.team_b_id) == before and a1_semi.has_result
    (state,) = stages.out_of_date(division)
    assert state.match == a1_semi
    # the other semifinal (not played yet) follows its slots, but never takes the old A1 (now A2)
    # while it still holds a side of the played semifinal of the same round (one game per round)
    other = next(m for m in semis if m.pk != a1_semi.pk)
    other.refresh_from_db()
    now_a2 = group_order(division, 0)[1]
    assert now_a2 not in {other.team_a_id, other.team_b_id}
    ((side,),) = [s.blocked for s in stages.division_slots(division) if s.match.pk == other.pk]
    assert (side.wanted_team, side.blocked_by) == (now_a2, a1_semi)


def test_the_confirmation_warns_before_a_correction_reaches_a_played_game(two_groups):
    _event, division = two_groups
    semi = Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL).first()
    play(semi, 30, 26)
    first, second = (members_by_pk(division)[pk] for pk in group_order(division, 0)[:2])
    match = match_between(first, second)
    event = division.event
    event.auto_confirm = False
    event.save()
    values = (
        rules.SheetValues(10, 46, 0, rules.JokerHolder.B)
        if match.team_a_id == first.pk
        else rules.SheetValues(46, 10, 0, rules.JokerHolder.A)
    )

    sheet, _created = submit_sheet(match, values)
    sentences = stages.changes_if_confirmed(sheet)
    assert any(first.name in s and second.name in s for s in sentences)
    assert any("already has a result" in s for s in sentences)


def test_a_lot_after_seeding_moves_the_slot(db):
    event, division = drawn_day(2, 6)
    play_groups_by_strength(event)
    group = division.groups.first()
    x, y, z = members(group)
    # a three-way tie at the top of group A: each wins one game 29–27
    for winner, loser in ((x, y), (y, z), (z, x)):
        win(winner, loser, 29, 27)
    report = seed_divisions(event)
    assert not report.seeded and "tied" in str(report.not_seeded[0][1])
    record_tie_break(group, [x, y, z], "lot")
    seed_knockout(event)
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    assert x.pk in (final.team_a_id, final.team_b_id)
    record_tie_break(group, [z, x, y], "lot")
    final.refresh_from_db()
    assert z.pk in (final.team_a_id, final.team_b_id) and x.pk not in (final.team_a_id, final.team_b_id)


def test_voiding_a_semifinal_takes_its_winner_back_out_of_the_final(two_groups):
    _event, division = two_groups
    semi = Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL).first()
    play(semi, 30, 26)
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    assert semi.team_a_id in (final.team_a_id, final.team_b_id)
    void_match(semi, None, reason="replayed later")
    final.refresh_from_db()
    assert semi.team_a_id not in (final.team_a_id, final.team_b_id)
    assert not stages.out_of_date(division)
