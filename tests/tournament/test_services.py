"""Operations of a tournament day (tournament.services): draw, schedule, standings, knockout."""

import datetime
import itertools
from collections import Counter
from zoneinfo import ZoneInfo

import pytest
from django.utils import translation

from common.errors import UserError
from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament import reports
from tournament.engine import standings
from tournament.models import Event, Group, Match, Team
from tournament.reports import stages
from tournament.services.draw import draw_groups, move_team
from tournament.services.events import create_event
from tournament.services.knockout import seed_knockout
from tournament.services.registration import PlayerData, save_team
from tournament.services.schedule import clear_schedule, make_schedule

TOKYO = ZoneInfo("Asia/Tokyo")


@pytest.fixture(autouse=True)
def english():
    """Messages are matched in English, the language of the source strings."""
    with translation.override("en"):
        yield


# --- helpers ------------------------------------------------------------------------------


def new_event(courts, **fields):
    event = factories.make_event(courts=courts, **fields)
    event.refresh_from_db()  # times as loaded by every view and command
    return event


def drawn_day(courts, teams, seed=1, **event_fields):
    """One division playing on all ``courts`` with ``teams`` teams, drawn and scheduled."""
    event = new_event(courts, **event_fields)
    division = factories.make_division(event, courts=range(1, courts + 1))
    factories.make_teams(division, teams)
    draw_groups(event, seed=seed)
    make_schedule(event)
    return event, division


def members(group):
    return list(Team.objects.filter(group=group).order_by("group_seat"))


def match_between(x, y):
    return Match.objects.get(stage=Match.Stage.GROUP, team_a__in=[x, y], team_b__in=[x, y])


def play(match, cards_a, cards_b, referee=0, joker=None, rps=None):
    if joker is None:
        joker = rules.JokerHolder.A if cards_a >= cards_b else rules.JokerHolder.B
    return submit_result(match, rules.SheetValues(cards_a, cards_b, referee, joker, rps))


def win(winner, loser, cards_w=30, cards_l=26):
    """Enter the game of ``winner`` and ``loser`` so that ``winner`` takes ``cards_w``."""
    match = match_between(winner, loser)
    if match.team_a_id == winner.pk:
        play(match, cards_w, cards_l)
    else:
        play(match, cards_l, cards_w)
    return match


def play_groups_by_strength(event):
    """Every group game: the team registered earlier wins 30–26 (no ties anywhere)."""
    for match in Match.objects.filter(event=event, stage=Match.Stage.GROUP, status=Match.Status.SCHEDULED):
        first = match.team_a if match.team_a.entry_number < match.team_b.entry_number else match.team_b
        second = match.team_b if first == match.team_a else match.team_a
        win(first, second)


def standings_snapshot(division):
    return [
        [(r.team, r.rank, r.tied, r.wins, r.cards_taken, r.cards_conceded, r.separated_by) for r in t.rows]
        for t in reports.division_standings(division)
    ]


# --- draw ---------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_division_with_3_courts_and_12_teams_is_drawn_into_3_groups_of_4():
    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    factories.make_teams(division, 12)
    drawn = draw_groups(event, seed=1)
    groups = drawn[division]
    assert [g.name for g in groups] == ["A", "B", "C"]
    assert [len(members(g)) for g in groups] == [4, 4, 4]
    assert {g.court.name for g in groups} == {"1", "2", "3"}
    assert Team.objects.filter(division=division, group__isnull=True).count() == 0


@pytest.mark.django_db
def test_group_seats_run_from_1_in_each_group():
    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    factories.make_teams(division, 10)
    for group in draw_groups(event, seed=4)[division]:
        assert [t.group_seat for t in members(group)] == list(range(1, len(members(group)) + 1))


@pytest.mark.django_db
@pytest.mark.parametrize("count", range(2, 17))
def test_group_sizes_differ_by_at_most_one(count):
    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    factories.make_teams(division, count)
    groups = draw_groups(event, seed=count)[division]
    sizes = [len(members(g)) for g in groups]
    assert sum(sizes) == count
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= 2
    assert len(groups) == max(1, min(3, count // 3))


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(6))
def test_two_teams_of_one_affiliation_land_in_different_groups(seed):
    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    twins = [factories.make_team(division, f"みなと子ども会{x}", affiliation="みなと子ども会") for x in "AB"]
    for i in range(10):
        factories.make_team(division, f"単独{i}", affiliation=f"単独子ども会{i}")
    draw_groups(event, seed=seed)
    first, second = (Team.objects.get(pk=t.pk) for t in twins)
    assert first.group_id != second.group_id


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(4))
def test_affiliations_written_differently_after_normalisation_are_kept_apart(seed):
    event = new_event(2)
    division = factories.make_division(event, courts=[1, 2])
    a = factories.make_team(division, "港A", affiliation="みなと子ども会Ａ")
    b = factories.make_team(division, "港B", affiliation="みなと子ども会 A")
    for i in range(4):
        factories.make_team(division, f"他{i}", affiliation=f"他の会{i}")
    draw_groups(event, seed=seed)
    assert Team.objects.get(pk=a.pk).group_id != Team.objects.get(pk=b.pk).group_id


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(4))
def test_seeded_teams_1_to_3_are_drawn_into_different_groups(seed):
    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    factories.make_teams(division, 9)
    seeded = [factories.make_team(division, f"シード{s}", affiliation="強豪子ども会", seed=s) for s in (1, 2, 3)]
    draw_groups(event, seed=seed)
    assert len({Team.objects.get(pk=t.pk).group_id for t in seeded}) == 3


@pytest.mark.django_db
def test_the_same_seed_gives_the_same_draw():
    def draw(seed):
        draw_groups(event, seed=seed)
        return sorted(
            (t.name, t.group.name, t.group_seat) for t in Team.objects.filter(division=division).select_related("group")
        )

    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    factories.make_teams(division, 12)
    first = draw(7)
    assert draw(7) == first
    assert any(draw(s) != first for s in (8, 9, 10))


@pytest.mark.django_db
def test_the_same_seed_gives_the_same_draw_in_another_event_with_the_same_entry():
    def drawn_names(seed):
        event = new_event(3)
        division = factories.make_division(event, courts=[1, 2, 3])
        factories.make_teams(division, 12)
        groups = draw_groups(event, seed=seed)[division]
        return [[t.name for t in members(g)] for g in groups]

    assert drawn_names(42) == drawn_names(42)


@pytest.mark.django_db
def test_the_draw_is_refused_after_the_schedule_is_made():
    event, division = drawn_day(2, 6)
    before = {t.pk: t.group_id for t in Team.objects.filter(division=division)}
    with pytest.raises(UserError, match="schedule"):
        draw_groups(event, seed=2)
    assert {t.pk: t.group_id for t in Team.objects.filter(division=division)} == before


@pytest.mark.django_db
def test_drawing_an_event_without_teams_is_refused():
    event = new_event(2)
    factories.make_division(event, courts=[1, 2])
    with pytest.raises(UserError, match="No teams to draw"):
        draw_groups(event)


@pytest.mark.django_db
def test_divisions_without_assigned_courts_share_the_free_courts():
    event = new_event(4)
    big = factories.make_division(event, name="高学年")
    small = factories.make_division(event, name="低学年")
    factories.make_teams(big, 9, prefix="大")
    factories.make_teams(small, 3, prefix="小")
    drawn = draw_groups(event, seed=1)
    courts = [g.court_id for groups in drawn.values() for g in groups]
    assert len(courts) == len(set(courts))  # never two groups on one court
    assert len(drawn[big]) == 3 and len(drawn[small]) == 1


# --- move_team ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_move_team_puts_a_team_in_the_last_seat_of_another_group():
    event = new_event(2)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    first, second = draw_groups(event, seed=1)[division]
    team = members(first)[0]
    move_team(team, second)
    team.refresh_from_db()
    assert team.group == second and team.group_seat == 4
    assert len(members(first)) == 2 and len(members(second)) == 4


@pytest.mark.django_db
def test_move_team_refuses_a_group_of_another_division():
    event = new_event(4)
    one = factories.make_division(event, name="一", courts=[1, 2])
    two = factories.make_division(event, name="二", courts=[3, 4])
    factories.make_teams(one, 6, prefix="一")
    factories.make_teams(two, 6, prefix="二")
    drawn = draw_groups(event, seed=1)
    team = members(drawn[one][0])[0]
    with pytest.raises(UserError, match="A team can only move to a group of its own division"):
        move_team(team, drawn[two][0])
    team.refresh_from_db()
    assert team.group == drawn[one][0]


@pytest.mark.django_db
def test_move_team_is_refused_once_the_schedule_exists():
    event, division = drawn_day(2, 6)
    first, second = division.groups.all()
    team = members(first)[0]
    with pytest.raises(UserError, match="The schedule exists; clear it before moving teams"):
        move_team(team, second)
    team.refresh_from_db()
    assert team.group == first


# --- schedule -----------------------------------------------------------------------------


@pytest.mark.django_db
def test_every_pair_of_a_group_meets_exactly_once():
    event, division = drawn_day(3, 12)
    for group in division.groups.all():
        ids = [t.pk for t in members(group)]
        matches = Match.objects.filter(group=group)
        pairs = Counter(frozenset((m.team_a_id, m.team_b_id)) for m in matches)
        assert set(pairs) == {frozenset(p) for p in itertools.combinations(ids, 2)}
        assert set(pairs.values()) == {1}
        assert all(m.court_id == group.court_id for m in matches)
    assert Match.objects.filter(event=event).count() == 3 * 6


@pytest.mark.django_db
def test_match_numbers_run_from_1_to_n_without_gaps():
    event, _ = drawn_day(3, 12)
    numbers = sorted(Match.objects.filter(event=event).values_list("match_number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))


@pytest.mark.django_db
def test_match_numbers_follow_the_clock():
    event, _ = drawn_day(3, 11)
    matches = list(Match.objects.filter(event=event).order_by("match_number"))
    assert [m.start_at for m in matches] == sorted(m.start_at for m in matches)


@pytest.mark.django_db
def test_start_times_are_event_start_plus_slot_times_match_and_changeover_in_tokyo():
    event, _ = drawn_day(2, 7, start_time=datetime.time(10, 0), game_minutes=12, changeover_minutes=3)
    start = datetime.datetime(2027, 1, 17, 10, 0, tzinfo=TOKYO)
    for m in Match.objects.filter(event=event):
        assert m.start_at == start + datetime.timedelta(minutes=15 * m.slot)
    first = Match.objects.get(event=event, match_number=1)
    assert first.start_at.astimezone(TOKYO).strftime("%Y-%m-%d %H:%M") == "2027-01-17 10:00"
    assert first.start_at == datetime.datetime(2027, 1, 17, 1, 0, tzinfo=datetime.UTC)


@pytest.mark.django_db
def test_default_times_start_at_9_30_with_20_minute_slots():
    event, _ = drawn_day(1, 4)
    starts = sorted({m.start_at.astimezone(TOKYO).strftime("%H:%M") for m in Match.objects.filter(event=event)})
    assert starts == ["09:30", "09:50", "10:10", "10:30", "10:50", "11:10"]


@pytest.mark.django_db
def test_no_court_has_two_matches_in_one_slot_and_no_team_two_matches_in_one_slot():
    event, _ = drawn_day(3, 14)
    matches = list(Match.objects.filter(event=event))
    courts = Counter((m.court_id, m.slot) for m in matches)
    assert set(courts.values()) == {1}
    teams = Counter((t, m.slot) for m in matches for t in (m.team_a_id, m.team_b_id))
    assert set(teams.values()) == {1}
    times = Counter((t, m.start_at) for m in matches for t in (m.team_a_id, m.team_b_id))
    assert set(times.values()) == {1}


@pytest.mark.django_db
def test_two_divisions_sharing_a_court_never_double_book_it():
    event = new_event(1)
    one = factories.make_division(event, name="一", courts=[1])
    two = factories.make_division(event, name="二", courts=[1])
    factories.make_teams(one, 3, prefix="一")
    factories.make_teams(two, 3, prefix="二")
    draw_groups(event, seed=1)
    make_schedule(event)
    matches = list(Match.objects.filter(event=event))
    assert len(matches) == 6
    assert len({(m.court_id, m.slot) for m in matches}) == 6


@pytest.mark.django_db
@pytest.mark.parametrize("size", [3, 5])
def test_an_odd_group_gets_a_full_round_robin_with_no_stored_bye(size):
    event, division = drawn_day(1, size)
    (group,) = division.groups.all()
    matches = list(Match.objects.filter(group=group))
    assert len(matches) == size * (size - 1) // 2
    assert all(m.team_a_id and m.team_b_id and m.team_a_id != m.team_b_id for m in matches)
    played = Counter(t for m in matches for t in (m.team_a_id, m.team_b_id))
    assert set(played.values()) == {size - 1}
    assert sorted(m.slot for m in matches) == list(range(len(matches)))


@pytest.mark.django_db
def test_make_schedule_is_refused_before_the_draw():
    event = new_event(2)
    factories.make_teams(factories.make_division(event, courts=[1, 2]), 6)
    with pytest.raises(UserError, match="Draw the groups first"):
        make_schedule(event)
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_make_schedule_is_refused_twice():
    event, _ = drawn_day(2, 6)
    with pytest.raises(UserError, match="The schedule already exists"):
        make_schedule(event)
    assert Match.objects.filter(event=event).count() == 6


@pytest.mark.django_db
def test_clear_schedule_deletes_the_matches_until_a_result_exists():
    event, _ = drawn_day(2, 6)
    clear_schedule(event)
    assert not Match.objects.filter(event=event).exists()
    make_schedule(event)
    first = Match.objects.get(event=event, match_number=1)
    play(first, 30, 26)
    with pytest.raises(UserError, match="Results have been entered; the schedule can no longer be cleared"):
        clear_schedule(event)
    assert Match.objects.filter(event=event).count() == 6


@pytest.mark.django_db
def test_make_schedule_works_on_an_event_just_created_by_create_event():
    event = create_event("fresh", "新しい大会", datetime.date(2027, 1, 17), courts=2)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    assert make_schedule(event) == 6


# --- standings ----------------------------------------------------------------------------


@pytest.fixture
def league_of_four(db):
    """One court, one group of 4; teams named after their entry order."""
    event, division = drawn_day(1, 4)
    (group,) = division.groups.all()
    a, b, c, d = (Team.objects.get(division=division, name=f"チーム{i}") for i in (1, 2, 3, 4))
    return event, division, group, (a, b, c, d)


def test_a_three_way_tie_on_wins_is_split_by_card_difference(league_of_four):
    _, division, _, (a, b, c, d) = league_of_four
    win(a, b, 30, 26)  # A +4
    win(b, c, 30, 26)  # B +4
    win(c, a, 29, 27)  # C +2, A -2
    win(a, d, 40, 16)  # A +24 -> A: +26
    win(b, d, 35, 21)  # B +14 -> B: +14
    win(c, d, 31, 25)  # C +6  -> C: +4
    (table,) = reports.division_standings(division)
    assert table.complete
    rows = [(r.team, r.rank, r.tied, r.wins, r.card_diff, r.separated_by) for r in table.rows]
    assert rows == [
        (a.pk, 1, False, 2, 26, None),
        (b.pk, 2, False, 2, 14, "card_diff"),
        (c.pk, 3, False, 2, 4, "card_diff"),
        (d.pk, 4, False, 0, -44, "wins"),
    ]


def test_standings_count_only_confirmed_sheets_and_the_corrected_values(league_of_four):
    _, division, _, (a, b, _c, _d) = league_of_four
    match = win(a, b, 30, 26)
    win(b, a, 33, 23)  # a correction: B won after all
    (table,) = reports.division_standings(division)
    row = {r.team: r for r in table.rows}
    assert (row[b.pk].wins, row[b.pk].cards_taken, row[b.pk].cards_conceded) == (1, 33, 23)
    assert (row[a.pk].wins, row[a.pk].played) == (0, 1)
    assert not table.complete
    assert match.sheets.count() == 2


def test_a_joker_win_counts_as_a_win_with_zero_card_difference(league_of_four):
    _, division, _, (a, b, _c, _d) = league_of_four
    match = match_between(a, b)
    play(match, 28, 28, joker=rules.JokerHolder.A if match.team_a_id == a.pk else rules.JokerHolder.B)
    (table,) = reports.division_standings(division)
    row = {r.team: r for r in table.rows}
    assert (row[a.pk].wins, row[a.pk].card_diff, row[a.pk].joker_wins) == (1, 0, 1)
    assert (row[b.pk].wins, row[b.pk].card_diff) == (0, 0)
    assert table.cells[(a.pk, b.pk)][3] == "り"


def test_referee_held_cards_belong_to_nobody_in_the_standings(league_of_four):
    _, division, _, (a, b, _c, _d) = league_of_four
    match = match_between(a, b)
    ref = rules.JokerHolder.REFEREE
    play(match, 27, 27, referee=2, joker=ref, rps=rules.Side.A if match.team_a_id == a.pk else rules.Side.B)
    (table,) = reports.division_standings(division)
    row = {r.team: r for r in table.rows}
    assert (row[a.pk].cards_taken, row[a.pk].cards_conceded, row[a.pk].rps_wins) == (27, 27, 1)


@pytest.fixture
def two_leagues_of_three(db):
    event, division = drawn_day(2, 6)
    first, second = division.groups.all()
    return event, division, members(first), members(second)


def test_a_perfect_three_cycle_with_equal_cards_shares_the_rank(two_leagues_of_three):
    _, division, (x, y, z), _ = two_leagues_of_three
    win(x, y, 29, 27)
    win(y, z, 29, 27)
    win(z, x, 29, 27)
    table = reports.division_standings(division)[0]
    assert [(r.rank, r.tied, r.wins, r.card_diff, r.cards_taken) for r in table.rows] == [(1, True, 1, 0, 56)] * 3
    assert [r.separated_by for r in table.rows] == [None, None, None]


def test_seeding_is_refused_with_a_message_about_the_tie_when_a_qualifying_place_is_tied(two_leagues_of_three):
    event, division, (x, y, z), (p, q, r) = two_leagues_of_three
    win(x, y, 29, 27)
    win(y, z, 29, 27)
    win(z, x, 29, 27)
    win(p, q)
    win(p, r)
    win(q, r)
    with pytest.raises(UserError, match="tied"):
        seed_knockout(event)
    assert not Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).exists()


def test_a_tie_below_the_qualifying_places_does_not_block_seeding(league_of_four):
    event, division, _, (a, b, c, d) = league_of_four
    for other in (b, c, d):
        win(a, other)
    win(b, c, 29, 27)
    win(c, d, 29, 27)
    win(d, b, 29, 27)
    (table,) = reports.division_standings(division)
    assert [(r.rank, r.tied) for r in table.rows] == [(1, False), (2, True), (2, True), (2, True)]
    # a single group sends a single qualifier: there is no knockout to seed, and the
    # reason given is not the tie
    with pytest.raises(UserError) as refused:
        seed_knockout(event)
    assert "tied" not in str(refused.value)


# --- knockout -----------------------------------------------------------------------------


@pytest.fixture
def four_groups(db):
    event, division = drawn_day(4, 12)
    play_groups_by_strength(event)
    return event, division


def knockout_matches(event):
    return {m.stage: m for m in Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP)}


def test_four_groups_give_two_semifinals_a_final_and_a_third_place_match(four_groups):
    event, division = four_groups
    assert seed_knockout(event) == 4
    matches = list(Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP))
    assert Counter(m.stage for m in matches) == {
        Match.Stage.SEMIFINAL: 2,
        Match.Stage.FINAL: 1,
        Match.Stage.THIRD_PLACE: 1,
    }
    winners = {t.rows[0].team for t in reports.division_standings(division)}
    semis = [m for m in matches if m.stage == Match.Stage.SEMIFINAL]
    assert {t for m in semis for t in (m.team_a_id, m.team_b_id)} == winners
    final, third = knockout_matches(event)[Match.Stage.FINAL], knockout_matches(event)[Match.Stage.THIRD_PLACE]
    assert (final.team_a_id, final.team_b_id, third.team_a_id, third.team_b_id) == (None, None, None, None)
    assert third.match_number < final.match_number
    numbers = sorted(Match.objects.filter(event=event).values_list("match_number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    group_last = Match.objects.filter(event=event, stage=Match.Stage.GROUP).order_by("-start_at").first().start_at
    assert all(m.start_at > group_last for m in matches)
    assert all(m.start_at > s.start_at for m in (final, third) for s in semis)


def test_semifinal_results_fill_the_final_and_the_third_place_match(four_groups):
    event, _ = four_groups
    seed_knockout(event)
    semis = list(Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL).order_by("bracket_position"))
    play(semis[0], 30, 26)  # A wins
    play(semis[1], 20, 36, joker=rules.JokerHolder.B)  # B wins
    matches = knockout_matches(event)
    final, third = matches[Match.Stage.FINAL], matches[Match.Stage.THIRD_PLACE]
    assert (final.team_a_id, final.team_b_id) == (semis[0].team_a_id, semis[1].team_b_id)
    assert (third.team_a_id, third.team_b_id) == (semis[0].team_b_id, semis[1].team_a_id)


def test_correcting_a_semifinal_moves_the_new_winner_to_the_final(four_groups):
    event, _ = four_groups
    seed_knockout(event)
    semi = Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL).order_by("bracket_position").first()
    play(semi, 30, 26)
    play(semi, 26, 30, joker=rules.JokerHolder.B)
    matches = knockout_matches(event)
    assert matches[Match.Stage.FINAL].team_a_id == semi.team_b_id
    assert matches[Match.Stage.THIRD_PLACE].team_a_id == semi.team_a_id


def test_a_semifinal_correction_after_the_final_leaves_the_final_as_played_and_out_of_date(four_groups):
    event, division = four_groups
    seed_knockout(event)
    semis = list(Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL).order_by("bracket_position"))
    play(semis[0], 30, 26)
    play(semis[1], 30, 26)
    final = knockout_matches(event)[Match.Stage.FINAL]
    play(final, 30, 26)
    play(semis[0], 26, 30, joker=rules.JokerHolder.B)
    final.refresh_from_db()
    assert final.team_a_id == semis[0].team_a_id  # the played final is never rewritten
    (state,) = stages.out_of_date(division)
    assert state.match == final and state.a.settled_team == semis[0].team_b_id


def test_three_groups_give_a_bye_one_semifinal_and_a_final_without_third_place_match(db):
    event, division = drawn_day(3, 9)
    play_groups_by_strength(event)
    assert seed_knockout(event) == 2
    matches = knockout_matches(event)
    assert set(matches) == {Match.Stage.SEMIFINAL, Match.Stage.FINAL}
    semi, final = matches[Match.Stage.SEMIFINAL], matches[Match.Stage.FINAL]
    winners = {t.rows[0].team for t in reports.division_standings(division)}
    bye = winners - {semi.team_a_id, semi.team_b_id}
    assert len(bye) == 1
    assert final.team_a_id in bye and final.team_b_id is None
    play(semi, 30, 26)
    final.refresh_from_db()
    assert final.team_b_id == semi.team_a_id


def test_knockout_results_never_change_the_group_standings(four_groups):
    event, division = four_groups
    before = standings_snapshot(division)
    seed_knockout(event)
    for stage in (Match.Stage.SEMIFINAL, Match.Stage.THIRD_PLACE, Match.Stage.FINAL):
        for match in Match.objects.filter(event=event, stage=stage):
            play(match, 10, 46, joker=rules.JokerHolder.B)
    assert standings_snapshot(division) == before


def test_seeding_is_refused_while_a_group_match_has_no_result(db):
    event, _ = drawn_day(4, 12)
    play_groups_by_strength(event)
    last = Match.objects.filter(event=event).order_by("-match_number").first()
    last.sheets.all().delete()
    last.status, last.winner = Match.Status.SCHEDULED, None
    last.save()
    with pytest.raises(UserError, match="without a result"):
        seed_knockout(event)
    assert not Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).exists()


def test_seeding_twice_is_refused_without_reset_and_reset_rebuilds_an_unplayed_bracket(four_groups):
    event, _ = four_groups
    seed_knockout(event)
    with pytest.raises(UserError, match="小学生の部 already has a bracket"):
        seed_knockout(event)
    assert seed_knockout(event, reset=True) == 4
    assert Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).count() == 4


def test_reset_is_refused_when_knockout_results_exist(four_groups):
    event, _ = four_groups
    seed_knockout(event)
    semi = Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL).first()
    play(semi, 30, 26)
    with pytest.raises(UserError, match="knockout results"):
        seed_knockout(event, reset=True)
    assert Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).count() == 4
    semi.refresh_from_db()
    assert semi.has_result


def test_two_qualifiers_from_each_of_two_groups_cross_over(db):
    event, division = drawn_day(2, 6)
    division.qualifiers_per_group = 2
    division.save()
    play_groups_by_strength(event)
    seed_knockout(event)
    tables = reports.division_standings(division)
    a1, a2 = (r.team for r in tables[0].rows[:2])
    b1, b2 = (r.team for r in tables[1].rows[:2])
    semis = {
        frozenset((m.team_a_id, m.team_b_id)) for m in Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL)
    }
    assert semis == {frozenset((a1, b2)), frozenset((b1, a2))}


# --- teams and import ---------------------------------------------------------------------


@pytest.mark.django_db
def test_save_team_refuses_a_name_that_matches_after_normalisation():
    division = factories.make_division(new_event(1))
    factories.make_team(division, "みなと子ども会A")
    # The refusal names the team already registered, as it is spelt (issue 28, item 8).
    with pytest.raises(UserError, match="A team named “みなと子ども会A” is already registered"):
        factories.make_team(division, "みなと子ども会Ａ")
    with pytest.raises(UserError, match="A team named “みなと子ども会A” is already registered"):
        factories.make_team(division, " みなと子ども会 a ")
    assert Team.objects.filter(division=division).count() == 1


@pytest.mark.django_db
def test_save_team_refuses_dash_and_tilde_variants_and_keeps_the_spelling_typed():
    """Issue 18, item 7: one name key (〜～~, ‐−–—, ー between Latin letters and digits);
    the display keeps ～ and （）."""
    division = factories.make_division(new_event(1))
    team = factories.make_team(division, "ひたち～かるた（東）A－1")
    assert team.name == "ひたち～かるた（東）A－1"
    for variant in ("ひたち〜かるた(東)A-1", "ひたち~かるた（東）Aー1", "ひたち～かるた（東）a—1"):
        with pytest.raises(UserError, match="already registered"):
            factories.make_team(division, variant)
    assert Team.objects.filter(division=division).count() == 1


@pytest.mark.django_db
def test_save_team_normalises_names_and_numbers_entries_across_the_event():
    event = new_event(1)
    one = factories.make_division(event, name="一")
    two = factories.make_division(event, name="二")
    first = factories.make_team(one, "\u3000みなと子ども会Ａ\u3000")
    second = factories.make_team(two, "みなと子ども会Ａ")  # same name, other division: fine
    assert first.name == "みなと子ども会Ａ"  # trimmed, spelling kept (issue 18, item 7)
    assert (first.entry_number, second.entry_number) == (1, 2)
    assert first.players.count() == 3
    assert first.players.filter(is_leader=True).count() == 1


@pytest.mark.django_db
def test_save_team_keeps_the_rows_of_the_players_still_in_the_team():
    """Issue 20 item 4: an edit matches players by name key; what hangs on a kept row survives."""
    division = factories.make_division(new_event(1))
    first = [PlayerData("港 一郎", "いちろう", "小3"), PlayerData("港二郎", is_leader=True), PlayerData("港三郎")]
    team = save_team(division, "港A", "", first)
    ids = {p.name: p.pk for p in team.players.all()}
    # Reordered, the leader moved to a kept row, one respelled by the key only, one replaced.
    second = [PlayerData("港三郎", is_leader=True), PlayerData("港一郎"), PlayerData("港五郎", is_substitute=True)]
    save_team(division, "港A", "", second, team=team)
    rows = list(team.players.order_by("order"))
    assert [(p.name, p.order, p.is_leader) for p in rows] == [
        ("港三郎", 0, True),
        ("港一郎", 1, False),
        ("港五郎", 2, False),
    ]
    assert (rows[0].pk, rows[1].pk) == (ids["港三郎"], ids["港 一郎"])
    assert rows[1].furigana == "" and rows[2].pk not in ids.values()


@pytest.mark.django_db
def test_create_event_refuses_a_used_slug():
    create_event("same", "大会", datetime.date(2027, 1, 17), courts=3)
    with pytest.raises(UserError, match="A tournament with the short name “same” already exists"):
        create_event("same", "大会", datetime.date(2027, 1, 17), courts=3)
    assert Event.objects.get(slug="same").courts.count() == 3
    assert Group.objects.count() == 0


def test_two_qualifiers_from_each_of_four_groups_play_quarterfinals(db):
    event, division = drawn_day(4, 12)
    division.qualifiers_per_group = 2
    division.save()
    play_groups_by_strength(event)
    assert seed_knockout(event) == 8
    stages = Counter(Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).values_list("stage", flat=True))
    assert stages == {"quarterfinal": 4, "semifinal": 2, "final": 1, "third_place": 1}
    tables = reports.division_standings(division)
    group_of = {r.team: i for i, t in enumerate(tables) for r in t.rows}
    for match in Match.objects.filter(event=event, stage=Match.Stage.QUARTERFINAL):
        assert group_of[match.team_a_id] != group_of[match.team_b_id]


def test_no_third_place_match_when_the_division_turns_it_off(db):
    event, division = drawn_day(4, 12)
    division.third_place_game = False
    division.save()
    play_groups_by_strength(event)
    assert seed_knockout(event) == 3
    assert not Match.objects.filter(event=event, stage=Match.Stage.THIRD_PLACE).exists()


def test_walkovers_count_28_to_0_by_default_and_can_be_left_out_of_the_card_criteria(league_of_four):
    _, division, _, (a, b, _c, _d) = league_of_four
    match = match_between(a, b)
    from judging.services import submit_walkover

    submit_walkover(match, rules.Side.B if match.team_a_id == a.pk else rules.Side.A)
    row = {r.team: r for r in reports.division_standings(division)[0].rows}
    assert (row[a.pk].wins, row[a.pk].cards_taken, row[a.pk].card_diff, row[a.pk].walkover_wins) == (1, 28, 28, 1)
    division.walkover_cards = "exclude"
    division.save()
    row = {r.team: r for r in reports.division_standings(division)[0].rows}
    assert (row[a.pk].wins, row[a.pk].cards_taken, row[a.pk].card_diff, row[b.pk].walkover_losses) == (1, 0, 0, 1)


def test_a_withdrawn_teams_matches_are_annulled_and_it_never_appears_in_the_table(league_of_four):
    _, division, _, (a, b, c, d) = league_of_four
    win(d, a, 40, 16)
    win(a, b)
    Team.objects.filter(pk=d.pk).update(withdrawn=True)
    (table,) = reports.division_standings(division)
    assert {r.team for r in table.rows} == {a.pk, b.pk, c.pk}
    row = {r.team: r for r in table.rows}
    assert (row[a.pk].played, row[a.pk].wins, row[a.pk].card_diff) == (1, 1, 4)


def test_teams_level_on_every_overall_criterion_are_split_by_head_to_head_card_difference(league_of_four):
    _, division, _, (a, b, c, d) = league_of_four
    win(a, b, 30, 26)  # head-to-head: A +4 -2 = +2, B -4 +2 = -2, C +2 -2 = 0
    win(b, c, 29, 27)
    win(c, a, 29, 27)
    win(a, d, 38, 18)  # overall: every one of A, B, C has 2 wins, +22, 95 cards
    win(b, d, 40, 16)
    win(c, d, 39, 17)
    (table,) = reports.division_standings(division)
    rows = [(r.team, r.rank, r.wins, r.card_diff, r.cards_taken, r.separated_by) for r in table.rows]
    assert rows == [
        (a.pk, 1, 2, 22, 95, None),
        (c.pk, 2, 2, 22, 95, "head_to_head"),
        (b.pk, 3, 2, 22, 95, "head_to_head"),
        (d.pk, 4, 0, -66, 51, "wins"),
    ]


def test_head_to_head_is_applied_again_to_the_two_teams_still_tied(league_of_four):
    _, division, _, (a, b, c, d) = league_of_four
    win(a, b, 31, 25)  # head-to-head among A, B, C: A +4, B -2, C -2
    win(b, c, 30, 26)  # ... and B beat C
    win(c, a, 29, 27)
    win(a, d, 33, 23)  # overall: 2 wins, +14, 91 cards each
    win(b, d, 36, 20)
    win(c, d, 36, 20)
    (table,) = reports.division_standings(division)
    rows = [(r.team, r.rank, r.tied, r.separated_by) for r in table.rows]
    assert rows == [
        (a.pk, 1, False, None),
        (b.pk, 2, False, "head_to_head"),
        (c.pk, 3, False, "head_to_head"),
        (d.pk, 4, False, "wins"),
    ]


def test_the_head_to_head_first_preset_puts_the_direct_match_before_card_difference(league_of_four):
    _, division, _, (a, b, c, d) = league_of_four
    division.criteria_codes = ",".join(standings.PRESET_HEAD_TO_HEAD_FIRST)
    division.save()
    win(b, a, 29, 27)  # B beat A narrowly ...
    win(a, c, 46, 10)  # ... but A has the far better card difference
    win(a, d, 46, 10)
    win(b, c, 29, 27)
    win(d, b, 29, 27)
    win(c, d, 29, 27)
    (table,) = reports.division_standings(division)
    assert [(r.team, r.separated_by) for r in table.rows[:2]] == [(b.pk, None), (a.pk, "head_to_head")]
    division.criteria_codes = ",".join(standings.PRESET_JAPANESE)
    division.save()
    (table,) = reports.division_standings(division)
    assert [(r.team, r.separated_by) for r in table.rows[:2]] == [(a.pk, None), (b.pk, "card_diff")]


def three_clubs_of_three_and_two_single_teams(division):
    clubs = ["みなと子ども会"] * 3 + ["桜が丘子ども会"] * 3 + ["東町子ども会"] * 3 + ["宮田小学校", "城南小学校"]
    for i, club in enumerate(clubs, start=1):
        factories.make_team(division, f"{club}{i}", affiliation=club)


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_three_clubs_of_three_are_spread_one_per_group(seed):
    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    three_clubs_of_three_and_two_single_teams(division)
    for group in draw_groups(event, seed=seed)[division]:
        clubs = [t.affiliation for t in members(group)]
        assert len(clubs) == len(set(clubs)), clubs


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [73, 204])
def test_two_teams_of_one_club_are_kept_apart_whenever_a_clash_free_draw_exists(seed):
    event = new_event(3)
    division = factories.make_division(event, courts=[1, 2, 3])
    three_clubs_of_three_and_two_single_teams(division)
    for group in draw_groups(event, seed=seed)[division]:
        clubs = [t.affiliation for t in members(group)]
        assert len(clubs) == len(set(clubs)), clubs


@pytest.mark.django_db
def test_an_event_with_matches_and_results_can_be_deleted():
    from django.core.management import call_command

    from tournament.models import Event, Team

    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    call_command("simulate_results", "demo", "--seed", "1")
    Event.objects.get(slug="demo").delete()
    assert not Team.objects.exists()
