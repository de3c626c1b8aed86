"""Keeping or replaying a game after the groups that a correction left out of date
(tournament.services.stages), and the scenarios of issue 15: a correction before and after the
knockout, divisions seeded each at its own time, a single qualifier that blocks nobody."""

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import translation

from common.errors import UserError
from judging.engine import rules
from judging.models import HistoryEntry
from tests import factories
from tests.factories import submit_result
from tournament.models import Match, Team
from tournament.reports import stage_notes, stages
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_divisions
from tournament.services.schedule import make_schedule
from tournament.services.stages import keep_result, replay_match


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def play(match, cards_a, cards_b):
    joker = rules.JokerHolder.A if cards_a >= cards_b else rules.JokerHolder.B
    return submit_result(match, rules.SheetValues(cards_a, cards_b, 56 - cards_a - cards_b, joker))


def play_stage(division, cards_a=30, cards_b=20):
    """Plays every game after the groups of ``division`` (semifinals, then the final and the
    third-place game, as their teams arrive), team A winning each."""
    while True:
        waiting = Match.objects.filter(
            division=division, status=Match.Status.SCHEDULED, team_a__isnull=False, team_b__isnull=False
        )
        if not waiting.exists():
            return
        for match in waiting:
            play(match, cards_a, cards_b)


def between(x, y):
    return Match.objects.get(stage=Match.Stage.GROUP, team_a__in=[x, y], team_b__in=[x, y])


def win(winner, loser):
    match = between(winner, loser)
    if match.team_a_id == winner.pk:
        play(match, 30, 26)
    else:
        play(match, 26, 30)
    return match


def play_groups(division):
    """Every group game of ``division``: the team registered earlier wins 30–26."""
    for match in Match.objects.filter(division=division, stage=Match.Stage.GROUP, status=Match.Status.SCHEDULED):
        a, b = match.team_a, match.team_b
        win(a, b) if a.entry_number < b.entry_number else win(b, a)


def members(group):
    return sorted(Team.objects.filter(group=group), key=lambda t: t.entry_number)


def day(divisions):
    """An event with one division per entry of ``divisions`` ((name, courts, teams, fields)),
    drawn and scheduled."""
    event = factories.make_event(courts=sum(len(c) for _n, c, _t, _f in divisions))
    made = []
    for name, courts, teams, fields in divisions:
        division = factories.make_division(event, name=name, courts=courts, **fields)
        factories.make_teams(division, teams, prefix=f"{name}チーム")
        made.append(division)
    draw_groups(event, seed=1)
    make_schedule(event)
    event.refresh_from_db()
    return event, made


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("organiser")


@pytest.fixture
def seeded(db):
    """One division of 4 groups of 3, every group game played by strength, the knockout seeded."""
    event, (division,) = day([("小学生の部", [1, 2, 3, 4], 12, {})])
    play_groups(division)
    seed_divisions(event)
    return event, division


def semifinal_of(division, group, place=1):
    """The semifinal whose slot is ``place`` of ``group``."""
    reference = f"group:{group.pk}:{place}"
    return Match.objects.get(Q(source_a=reference) | Q(source_b=reference), division=division)


def overturn_group_a(division):
    """Group A's second team beats its first (30–26 becomes 26–30): A1 is now the second team."""
    group = division.groups.order_by("name").first()
    first, second, _third = members(group)
    match = between(first, second)
    if match.team_a_id == first.pk:
        play(match, 26, 30)
    else:
        play(match, 30, 26)
    return group, first, second


# --- a correction before the knockout was played -------------------------------------------


def test_a_correction_before_the_semifinal_is_played_changes_its_team_and_the_history_says_so(seeded):
    event, division = seeded
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    side = "a" if semi.source_a == f"group:{group.pk}:1" else "b"
    group, first, second = overturn_group_a(division)
    semi.refresh_from_db()
    assert getattr(semi, f"team_{side}_id") == second.pk
    entry = semi.history.get(action=HistoryEntry.Action.TEAMS_CHANGED)
    assert first.name in entry.note and second.name in entry.note
    assert stages.out_of_date(division) == []


# --- a correction after the semifinal was played --------------------------------------------


def test_a_correction_after_the_semifinal_shows_it_out_of_date_naming_the_place(seeded):
    event, division = seeded
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    group, first, second = overturn_group_a(division)
    semi.refresh_from_db()
    assert first.pk in (semi.team_a_id, semi.team_b_id)  # a played game never changes by itself
    (found,) = stage_notes.division_out_of_date(division)
    assert found.match == semi
    (change,) = found.changes
    assert (change.before, change.now) == (first.name, second.name)
    assert str(change) == f"{division.name}, {group} place 1: was {first.name}, now {second.name}"


def test_replaying_the_out_of_date_semifinal_puts_the_new_group_winner_in_and_opens_it(seeded, organiser):
    event, division = seeded
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    assert final.team_a_id or final.team_b_id  # the semifinal's winner went on
    group, first, second = overturn_group_a(division)
    replay_match(semi, organiser, note="A組の訂正")
    semi.refresh_from_db()
    final.refresh_from_db()
    assert second.pk in (semi.team_a_id, semi.team_b_id) and first.pk not in (semi.team_a_id, semi.team_b_id)
    assert (semi.status, semi.winner_id, semi.actual_start, semi.actual_end, semi.kept_teams) == (
        Match.Status.SCHEDULED, None, None, None, "",
    )  # fmt: skip
    assert not semi.sheets.filter(is_confirmed=True).exists()
    assert semi.sheets.exists()  # the played versions stay in its history
    assert semi.history.filter(action=HistoryEntry.Action.REPLAYED, user=organiser, note__contains="A組の訂正").exists()
    assert (final.team_a_id, final.team_b_id) == (None, None)  # the winner it sent on is taken back
    assert stages.out_of_date(division) == []
    play(semi, 30, 26)  # the replay is played like any game
    semi.refresh_from_db()
    assert semi.has_result


def test_replaying_a_semifinal_after_the_final_was_played_leaves_the_final_out_of_date(seeded, organiser):
    event, division = seeded
    group = division.groups.order_by("name").first()
    semis = list(Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL))
    for semi in semis:
        play(semi, 30, 26)
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    play(final, 30, 26)
    overturn_group_a(division)
    semi = semifinal_of(division, group)
    replay_match(semi, organiser)
    out = {s.match.pk for s in stages.out_of_date(division)}
    assert final.pk in out and semi.pk not in out
    final.refresh_from_db()
    assert final.has_result  # shown out of date, never rewritten


def test_keeping_the_played_semifinal_takes_it_off_the_out_of_date_list_with_the_note(seeded, organiser):
    event, division = seeded
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    teams = (semi.team_a_id, semi.team_b_id)
    group, first, second = overturn_group_a(division)
    keep_result(semi, organiser, "両チーム了承済み")
    semi.refresh_from_db()
    assert (semi.team_a_id, semi.team_b_id) == teams and semi.has_result
    assert stages.out_of_date(division) == []
    entry = semi.history.get(action=HistoryEntry.Action.KEPT)
    assert "両チーム了承済み" in entry.note and second.name in entry.note and entry.user == organiser


def test_a_kept_game_is_out_of_date_again_when_a_later_change_moves_its_slot_again(seeded, organiser):
    event, division = seeded
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    group, first, second = overturn_group_a(division)
    keep_result(semi, organiser, "了承")
    _first, _second, third = members(group)
    win(third, second)  # now first, second and third have one win each: place 1 is open again
    found = stage_notes.match_out_of_date(semi)
    assert found is not None and found.changes[0].now == "nobody yet"


# --- refusals --------------------------------------------------------------------------------


def test_keep_needs_a_note_and_an_out_of_date_game(seeded, organiser):
    event, division = seeded
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    with pytest.raises(UserError, match=r"小学生の部, Game \d+ \(Semifinal\) is not out of date"):
        keep_result(semi, organiser, "note")
    overturn_group_a(division)
    with pytest.raises(UserError, match=r"小学生の部, Game \d+ \(Semifinal\): say in a note"):
        keep_result(semi, organiser, "  ")
    assert not semi.history.filter(action=HistoryEntry.Action.KEPT).exists()
    semi.refresh_from_db()
    assert semi.kept_teams == ""


def test_replay_is_refused_for_a_game_that_is_not_out_of_date_and_for_a_group_game(seeded, organiser):
    event, division = seeded
    semi = Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL).first()
    play(semi, 30, 26)
    with pytest.raises(UserError, match="is not out of date"):
        replay_match(semi, organiser)
    semi.refresh_from_db()
    assert semi.has_result and not semi.history.filter(action=HistoryEntry.Action.REPLAYED).exists()
    group_game = Match.objects.filter(division=division, stage=Match.Stage.GROUP).first()
    with pytest.raises(UserError, match="is a group game"):
        replay_match(group_game, organiser)
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    with pytest.raises(UserError, match="is not out of date"):
        keep_result(final, organiser, "note")  # not started: it follows its slots by itself


# --- divisions at their own time --------------------------------------------------------------


def test_three_divisions_are_seeded_at_different_times(db):
    event, (low, high, mid) = day(
        [("低学年の部", [1, 2], 6, {}), ("高学年の部", [3, 4], 6, {}), ("中学年の部", [5, 6], 6, {})]
    )
    play_groups(high)
    report = seed_divisions(event)
    assert [d for d, _n in report.seeded] == [high]
    assert {d for d, _r in report.not_seeded} == {low, mid}
    assert all(d.name in str(reason) for d, reason in report.not_seeded)
    assert stage_notes.division_stage(high).state == stage_notes.SEEDED
    low_stage = stage_notes.division_stage(low)
    assert low_stage.state == stage_notes.PLAYING and sum(n for _g, n in low_stage.groups_left) == 6
    play_groups(mid)
    assert stage_notes.division_stage(mid).state == stage_notes.READY
    report = seed_divisions(event)
    assert [d for d, _n in report.seeded] == [mid]
    play_groups(low)
    report = seed_divisions(event, division=low)
    assert [d for d, _n in report.seeded] == [low]
    assert all(stage_notes.division_stage(d).state == stage_notes.SEEDED for d in (low, mid, high))


def test_a_division_that_finishes_early_plays_its_knockout_while_another_still_plays_groups(db):
    event, (early, late) = day([("早い部", [1, 2], 6, {}), ("遅い部", [3, 4], 6, {})])
    play_groups(early)
    seed_divisions(event, division=early)
    final = Match.objects.get(division=early, stage=Match.Stage.FINAL)
    play(final, 30, 26)
    final.refresh_from_db()
    assert final.has_result
    assert stage_notes.division_stage(late).state == stage_notes.PLAYING
    assert not Match.objects.filter(division=late).exclude(stage=Match.Stage.GROUP).exists()


def test_a_division_with_a_single_qualifier_does_not_block_another(db):
    event, (single, other) = day([("一組の部", [1], 4, {}), ("二組の部", [2, 3], 6, {})])
    play_groups(single)
    play_groups(other)
    stage = stage_notes.division_stage(single)
    assert stage.state == stage_notes.SINGLE
    assert stage.champion == members(single.groups.get())[0]
    report = seed_divisions(event)
    assert [d for d, _n in report.seeded] == [other]
    ((division, reason),) = report.not_seeded
    assert division == single and "single qualifier" in str(reason)


def test_a_division_without_a_knockout_says_so(db):
    event, (division,) = day([("順位戦の部", [1, 2], 6, {"after_groups": "none"})])
    assert stage_notes.division_stage(division).state == stage_notes.NO_KNOCKOUT


def test_a_division_with_placement_games_is_ready_when_its_groups_are_complete(db):
    event, (division,) = day([("順位戦の部", [1, 2], 6, {"after_groups": "placement"})])
    assert stage_notes.division_stage(division).state == stage_notes.PLAYING
    play_groups(division)
    assert stage_notes.division_stage(division).state == stage_notes.READY
    report = seed_divisions(event, division=division)
    assert [d for d, _n in report.seeded] == [division]
    assert stage_notes.division_stage(division).state == stage_notes.SEEDED
