"""Placement games (順位決定戦) through the services: creation per division, slots, final places,
"both" under a knockout, refusals, and corrections after a placement game was played."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.db import models
from django.utils import translation

from common.errors import UserError
from judging.engine import rules
from judging.models import HistoryEntry
from judging.services import refresh_slots
from tests import factories
from tests.factories import submit_result
from tournament import reports
from tournament.models import Match, Team
from tournament.reports import stages
from tournament.reports.placement import division_placements
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_divisions
from tournament.services.placement import create_placement_games
from tournament.services.schedule import make_schedule


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def day(groups, per_group=4, name="小学生の部", event=None, first_court=1, schedule=True, **division_fields):
    """A division of ``groups`` groups of ``per_group`` teams on ``groups`` courts from
    ``first_court``, drawn and (with ``schedule``) scheduled."""
    if event is None:
        event = factories.make_event(courts=groups)
        event.refresh_from_db()
    courts = range(first_court, first_court + groups)
    division = factories.make_division(event, name=name, courts=courts, **division_fields)
    factories.make_teams(division, groups * per_group, prefix=f"{name}チーム")
    draw_groups(event, seed=3, division=division)
    if schedule:
        make_schedule(event)
    return event, division


def play(match, cards_a, cards_b):
    joker = rules.JokerHolder.A if cards_a >= cards_b else rules.JokerHolder.B
    return submit_result(match, rules.SheetValues(cards_a, cards_b, 0, joker, None))


def play_groups(division):
    """Every group game: the team registered earlier wins 30–26 (no ties)."""
    for match in Match.objects.filter(division=division, stage=Match.Stage.GROUP, status=Match.Status.SCHEDULED):
        if match.team_a.entry_number < match.team_b.entry_number:
            play(match, 30, 26)
        else:
            play(match, 26, 30)


EIGHT_PLACES = ["Champion", "Runner-up", "3rd place", "4th place", "5th place", "6th place", "7th place", "8th place"]


def placement_games(division):
    return list(Match.objects.filter(division=division, stage=Match.Stage.PLACEMENT).order_by("match_number"))


def places(division):
    """Team id -> group place (1 = first), from the standings."""
    return {row.team: row.rank for t in reports.division_standings(division) for row in t.rows}


@pytest.mark.django_db
@pytest.mark.parametrize("groups", range(2, 9))
def test_placement_games_for_2_to_8_groups(groups):
    event, division = day(groups, after_groups="placement")
    play_groups(division)
    created = create_placement_games(event, division)
    assert len(created) == 4 * (groups // 2)
    rank = places(division)
    group_of = {t.pk: t.group_id for t in division.teams.all()}
    for match in placement_games(division):
        assert match.teams_known
        assert rank[match.team_a_id] == rank[match.team_b_id] == match.round
        assert group_of[match.team_a_id] != group_of[match.team_b_id]
    teams = [t for m in placement_games(division) for t in (m.team_a_id, m.team_b_id)]
    assert len(teams) == len(set(teams))
    numbers = sorted(Match.objects.filter(event=event).values_list("match_number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))
    last_group = Match.objects.filter(division=division, stage=Match.Stage.GROUP).order_by("-start_at")[0].start_at
    assert all(m.start_at > last_group for m in created)
    assert len({(m.court_id, m.slot) for m in created}) == len(created)
    if groups % 2:
        left_over = division.groups.order_by("order", "pk").last()
        assert not any(m.source_a.startswith(f"group:{left_over.pk}:") for m in created)


@pytest.mark.django_db
def test_two_groups_give_final_places_1_to_8_from_the_placement_games():
    event, division = day(2, after_groups="placement")
    play_groups(division)
    create_placement_games(event, division)
    for match in placement_games(division):
        play(match, 30, 26)  # side A wins
    (placed,) = [places for d, places in reports.final_places(event) if d == division]
    games = {m.round: m for m in placement_games(division)}
    assert placed[:4] == [
        ("Champion", games[1].team_a, False),
        ("Runner-up", games[1].team_b, False),
        ("3rd place", games[2].team_a, False),
        ("4th place", games[2].team_b, False),
    ]
    assert [name for name, _team, _check in placed] == EIGHT_PLACES


@pytest.mark.django_db
def test_seed_divisions_creates_placement_games_when_the_groups_are_complete():
    event, division = day(2, after_groups="placement")
    report = seed_divisions(event)
    ((refused, reason),) = report.not_seeded
    assert refused == division
    assert "小学生の部・Group A" in str(reason) and "has 6 games without a confirmed result" in str(reason)
    assert not placement_games(division)
    play_groups(division)
    report = seed_divisions(event)
    assert report.seeded == [(division, 4)]
    assert len(placement_games(division)) == 4
    report = seed_divisions(event)
    assert "already has its placement games" in str(report.not_seeded[0][1])


@pytest.mark.django_db
def test_both_plays_a_two_team_knockout_and_placement_games_below():
    event, division = day(2, after_groups="both", third_place_game=False)
    play_groups(division)
    report = seed_divisions(event)
    assert report.seeded == [(division, 4)]
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    below = placement_games(division)
    assert [m.round for m in below] == [2, 3, 4]
    rank = places(division)
    assert rank[final.team_a_id] == rank[final.team_b_id] == 1
    assert all(rank[m.team_a_id] == rank[m.team_b_id] == m.round for m in below)
    # the placement games use the court the final leaves free, beside it
    assert below[0].slot == final.slot and below[0].court_id != final.court_id
    play(final, 30, 26)
    for match in below:
        play(match, 26, 30)
    (placed,) = [places for d, places in reports.final_places(event) if d == division]
    assert [name for name, _team, _check in placed] == EIGHT_PLACES
    assert placed[0][1] == final.team_a and placed[2][1] == below[0].team_b


@pytest.mark.django_db
def test_both_with_best_runners_up_is_refused_naming_the_division():
    event, division = day(2, after_groups="both", best_runners_up=1, qualifiers_per_group=1)
    play_groups(division)
    report = seed_divisions(event)
    assert "best runners-up to 0" in str(report.not_seeded[0][1])
    assert not Match.objects.filter(division=division).exclude(stage=Match.Stage.GROUP).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("pairs", "message"),
    [
        ("A-X", "there is no group “X”"),
        ("A-A", "group “A” is written twice"),
        ("A-B", "groups C、D are in no pair"),
        ("A-B-C, D", "“A-B-C” is not a pair of groups"),
    ],
)
def test_a_bad_pair_text_is_refused_before_any_write(pairs, message):
    event, division = day(4, per_group=3, after_groups="placement", placement_pairs=pairs)
    play_groups(division)
    with pytest.raises(UserError, match=message) as refused:
        create_placement_games(event, division)
    assert "小学生の部" in str(refused.value)
    assert not placement_games(division)


@pytest.mark.django_db
def test_organiser_pairs_are_followed():
    event, division = day(4, per_group=3, after_groups="placement", placement_pairs="A-D, B-C")
    play_groups(division)
    created = create_placement_games(event, division)
    by_name = {g.pk: g.name for g in division.groups.all()}
    firsts = [m for m in created if m.round == 1]
    pairs = [{by_name[int(m.source_a.split(":")[1])], by_name[int(m.source_b.split(":")[1])]} for m in firsts]
    assert pairs == [{"A", "D"}, {"B", "C"}]


@pytest.mark.django_db
def test_create_placement_games_refusals_name_the_division():
    event, division = day(2, per_group=3, after_groups="knockout")
    with pytest.raises(UserError, match="小学生の部 plays no placement games"):
        create_placement_games(event, division)
    division.after_groups = "placement"
    division.save()
    with pytest.raises(UserError, match="小学生の部・Group B has 3 games without a confirmed result"):
        create_placement_games(event, division)


@pytest.mark.django_db
def test_a_correction_after_a_placement_game_was_played_reports_it_out_of_date():
    event, division = day(2, per_group=3, after_groups="placement")
    play_groups(division)
    create_placement_games(event, division)
    first = placement_games(division)[0]
    play(first, 30, 26)
    group_a = division.groups.order_by("order", "pk").first()
    top, second = [row.team for row in reports.division_standings(division)[0].rows[:2]]
    game = Match.objects.get(stage=Match.Stage.GROUP, team_a__in=[top, second], team_b__in=[top, second])
    # the group winner loses its game against the runner-up: the runner-up is now first
    play(game, 26, 30) if game.team_a_id == top else play(game, 30, 26)
    assert [row.team for row in reports.division_standings(division)[0].rows[:2]] == [second, top]
    first.refresh_from_db()
    assert first.status == Match.Status.CONFIRMED  # a played game never changes by itself
    (state,) = stages.out_of_date(division)
    assert state.match == first
    assert str(group_a) in (state.a.label + state.b.label)
    seconds = placement_games(division)[1]  # not played yet: it follows its slots, but never puts
    assert top not in (seconds.team_a_id, seconds.team_b_id)  # a team in two games at once (item 1)
    assert HistoryEntry.objects.filter(match=seconds, action=HistoryEntry.Action.TEAMS_CHANGED).exists()
    ((side,),) = [s.blocked for s in stages.division_slots(division) if s.match == seconds]
    assert (side.wanted_team, side.blocked_by) == (top, first)
    (line,) = [line for p in division_placements(event) for line in p.lines if line.out_of_date]
    assert line.match == first
    (placed,) = [places for d, places in reports.final_places(event) if d == division]
    assert [(team.pk, check) for _name, team, check in placed] == [
        (first.winner_id, True),
        (first.loser_id, True),
    ]  # the played 1位決定戦's places are printed "要確認" until kept or replayed


@pytest.mark.django_db
def test_three_formats_move_on_each_at_its_own_time_through_the_commands():
    """Groups of 4 with 3 games per team then placement games; "both" with a 2-team knockout and
    placement games below; a plain knockout: each seeded when its own groups are complete."""
    event = factories.make_event(courts=7)
    event.refresh_from_db()
    common = {"event": event, "schedule": False}
    _, low = day(2, 4, "低学年の部", first_court=1, after_groups="placement", games_per_team=3, **common)
    _, mid = day(2, 3, "中学年の部", first_court=3, after_groups="both", third_place_game=False, **common)
    _, high = day(3, 3, "高学年の部", first_court=5, after_groups="knockout", **common)
    make_schedule(event)
    for team in low.teams.all():
        assert (
            Match.objects.filter(stage=Match.Stage.GROUP).filter(models.Q(team_a=team) | models.Q(team_b=team)).count()
            == 3
        )

    call_command("simulate_results", event.slug, "--division", "低学年の部", "--seed", "1", stdout=StringIO())
    report = seed_divisions(event)
    assert report.seeded == [(low, 4)]
    assert {d for d, _reason in report.not_seeded} == {mid, high}
    call_command("simulate_results", event.slug, "--stage", "placement", "--division", "低学年の部", stdout=StringIO())
    (low_places,) = [places for d, places in reports.final_places(event) if d == low]
    assert len(low_places) == 8 and low_places[0][0] == "Champion"

    call_command("simulate_results", event.slug, "--division", "中学年の部", "--seed", "2", stdout=StringIO())
    report = seed_divisions(event)
    assert report.seeded == [(mid, 3)]  # the final, then 2位決定戦 and 3位決定戦
    out = StringIO()
    call_command("simulate_results", event.slug, "--stage", "knockout", "--division", "中学年の部", stdout=out)
    assert "1 knockout result entered" in out.getvalue()
    assert len(placement_games(mid)) == 2 and not any(m.has_result for m in placement_games(mid))
    call_command("simulate_results", event.slug, "--stage", "placement", stdout=StringIO())
    (mid_places,) = [places for d, places in reports.final_places(event) if d == mid]
    assert [name for name, _team, _check in mid_places] == [
        "Champion",
        "Runner-up",
        "3rd place",
        "4th place",
        "5th place",
        "6th place",
    ]
    assert Match.objects.filter(division=high).exclude(stage=Match.Stage.GROUP).count() == 0


@pytest.mark.django_db
def test_three_groups_the_left_over_group_keeps_its_places_after_those_who_played():
    event, division = day(3, per_group=3, after_groups="placement")
    play_groups(division)
    assert len(create_placement_games(event, division)) == 3
    (line_up,) = division_placements(event)
    group_c = division.groups.order_by("order", "pk").last()
    assert [(u.group, u.place, u.rank_name) for u in line_up.unpaired] == [
        (group_c, 1, "3rd place"),
        (group_c, 2, "6th place"),
        (group_c, 3, "9th place"),
    ]
    assert [line.decides for line in line_up.lines] == ["places 1 and 2", "places 4 and 5", "places 7 and 8"]
    for match in placement_games(division):
        play(match, 30, 26)
    (placed,) = [places for d, places in reports.final_places(event) if d == division]
    c_rows = reports.division_standings(division)[2].rows
    assert [name for name, _t, _c in placed] == [
        "Champion",
        "Runner-up",
        "3rd place",
        "4th place",
        "5th place",
        "6th place",
        "7th place",
        "8th place",
        "9th place",
    ]
    assert placed[2][1].pk == c_rows[0].team and placed[5][1].pk == c_rows[1].team


@pytest.mark.django_db
def test_four_groups_two_pairs_share_their_places():
    event, division = day(4, per_group=3, after_groups="placement")
    play_groups(division)
    create_placement_games(event, division)
    (line_up,) = division_placements(event)
    assert [line.title for line in line_up.lines[:2]] == ["Play-off for place 1 (A-B)", "Play-off for place 1 (C-D)"]
    assert line_up.lines[0].decides == "winner place 1, loser place 3 (shared by the 2 games at this place)"
    for match in placement_games(division):
        play(match, 30, 26)
    (placed,) = [places for d, places in reports.final_places(event) if d == division]
    assert [name for name, _t, _c in placed[:6]] == [
        "1st place",
        "1st place",
        "3rd place",
        "3rd place",
        "5th place",
        "5th place",
    ]


@pytest.mark.django_db
def test_the_lists_survive_a_last_place_left_empty_by_withdrawals():
    event, division = day(2, per_group=3, after_groups="placement")
    play_groups(division)
    create_placement_games(event, division)
    for table in reports.division_standings(division):
        Team.objects.filter(pk=table.rows[0].team).update(withdrawn=True)
    refresh_slots(division)
    (line_up,) = division_placements(event)
    last = line_up.lines[-1]
    assert (last.match.team_a, last.match.team_b) == (None, None)
    assert [line.decides for line in line_up.lines] == ["places 1 and 2", "places 3 and 4", "places 5 and 6"]
    assert reports.final_places(event) == []


@pytest.mark.django_db
def test_a_placement_division_with_a_played_game_cannot_be_reset():
    event, division = day(2, per_group=3, after_groups="placement")
    play_groups(division)
    seed_divisions(event)
    play(placement_games(division)[0], 30, 26)
    report = seed_divisions(event, division=division, reset=True)
    assert "has placement game results" in str(report.not_seeded[0][1])
    assert len(placement_games(division)) == 3


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_groups_of_8_with_3_games_per_team_then_one_placement_game_each(seed):
    """The city's school format: groups of 8, 3 games per team, then 1st v 1st, 2nd v 2nd …"""
    event, division = day(2, per_group=8, after_groups="placement", games_per_team=3)
    for team in division.teams.all():
        games = Match.objects.filter(stage=Match.Stage.GROUP).filter(models.Q(team_a=team) | models.Q(team_b=team))
        assert games.count() == 3
    call_command("simulate_results", event.slug, "--seed", str(seed), stdout=StringIO())
    report = seed_divisions(event)
    assert report.seeded == [(division, 8)]
    games = placement_games(division)
    assert [m.round for m in games] == list(range(1, 9))
    tables = reports.division_standings(division)
    for match in games:
        for side, source in ((match.team_a_id, match.source_a), (match.team_b_id, match.source_b)):
            _kind, group, place = source.split(":")
            (table,) = [t for t in tables if t.group.pk == int(group)]
            row = table.rows[int(place) - 1]
            assert side == (None if row.tied else row.team)  # a tied place waits for its lot
    teams = [t for m in games for t in (m.team_a_id, m.team_b_id) if t is not None]
    assert len(teams) == len(set(teams))
    call_command("simulate_results", event.slug, "--stage", "placement", stdout=StringIO())
    played = [m for m in placement_games(division) if m.has_result]
    assert played
    (placed,) = [places for d, places in reports.final_places(event) if d == division] or [[]]
    assert len(placed) == 2 * len(played)


@pytest.mark.django_db
def test_refusals_read_in_japanese_name_the_division_and_the_group():
    event, division = day(2, per_group=3, after_groups="placement", placement_pairs="A-Z")
    with translation.override("ja"):
        (reason,) = [str(r) for _d, r in seed_divisions(event).not_seeded]
        assert reason == (
            "予選リーグがまだ終わっていません。小学生の部・予選Aリーグに結果が確定していない試合が3試合あります。"
            "小学生の部・予選Bリーグに結果が確定していない試合が3試合あります。"
        )
        play_groups(division)
        with pytest.raises(UserError) as refused:
            create_placement_games(event, division)
        assert str(refused.value) == "小学生の部：「Z」というリーグはありません（リーグ：A、B）。"
