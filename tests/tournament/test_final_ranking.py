"""The final ranking (issue 19, item 5): ``reports.ranking`` gives the places of the final
results with how each was decided, and the results workbook's 成績一覧 sheet writes them, a
division not finished saying so on its row, never a player's name."""

from io import BytesIO

import pytest
from django.utils import translation
from openpyxl import load_workbook

from tests.tournament.test_placement import day, placement_games, play, play_groups
from tournament import exports, reports
from tournament.models import Match, Player
from tournament.reports import ranking
from tournament.services.knockout import seed_divisions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def sheet_rows(event, kinds=("ranking",)):
    """(title of the first sheet, its title cell, its header, its rows) of the workbook."""
    ws = load_workbook(BytesIO(exports.event_workbook(event, kinds))).worksheets[0]
    rows = list(ws.iter_rows(values_only=True))
    return ws.title, rows[0][0], rows[1], [tuple("" if c is None else c for c in row) for row in rows[2:]]


def play_knockout(division, stage):
    for match in Match.objects.filter(division=division, stage=stage).order_by("match_number"):
        play(match, 30, 26)


def same_as_final_places(event):
    """The ranking's (place, team, to confirm) equal ``reports.final_places``, division by division."""
    expected = {d.pk: places for d, places in reports.final_places(event)}
    for r in ranking.division_rankings(event):
        assert [(line.place, line.team, line.to_confirm) for line in r.lines] == expected.get(r.division.pk, [])


def test_a_knockout_with_a_third_place_game_before_and_after_the_final():
    event, division = day(2, after_groups="knockout", qualifiers_per_group=2)
    play_groups(division)
    seed_divisions(event)
    (before,) = ranking.division_rankings(event)
    assert before.state == ranking.UNFINISHED and before.lines == [] and before.games_left == 4
    title, heading, header, rows = sheet_rows(event)
    assert title == "Final ranking" and heading == f"{event.title} ・ Final ranking"
    assert header == ("division", "place", "team", "affiliation", "how the place was decided", "remarks")
    assert rows == [
        (division.name, "", "", "", "", "Not finished: 4 games after the groups have no confirmed result yet.")
    ]
    play_knockout(division, Match.Stage.SEMIFINAL)
    play_knockout(division, Match.Stage.THIRD_PLACE)
    (third_only,) = ranking.division_rankings(event)
    assert [line.rank for line in third_only.lines] == [3] and not third_only.champion_decided
    play_knockout(division, Match.Stage.FINAL)
    same_as_final_places(event)
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    third = Match.objects.get(division=division, stage=Match.Stage.THIRD_PLACE)
    _title, _heading, _header, rows = sheet_rows(event)
    assert rows == [
        (division.name, "Champion", final.winner.name, final.winner.affiliation, "by the final", ""),
        (division.name, "Runner-up", final.loser.name, final.loser.affiliation, "by the final", ""),
        (division.name, "3rd place", third.winner.name, third.winner.affiliation, "by the third-place game", ""),
    ]


def test_joint_third_without_a_third_place_game():
    event, division = day(2, after_groups="knockout", third_place_game=False, qualifiers_per_group=2)
    play_groups(division)
    seed_divisions(event)
    play_knockout(division, Match.Stage.SEMIFINAL)
    (semis_only,) = ranking.division_rankings(event)
    assert semis_only.state == ranking.UNFINISHED and semis_only.games_left == 1
    play_knockout(division, Match.Stage.FINAL)
    same_as_final_places(event)
    (done,) = ranking.division_rankings(event)
    assert done.finished and [line.how for line in done.at(3)] == [ranking.JOINT_THIRD] * 2
    losers = {m.loser.name for m in Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL)}
    _title, _heading, _header, rows = sheet_rows(event)
    thirds = [row for row in rows if row[1] == "3rd place"]
    assert {row[2] for row in thirds} == losers
    assert {row[4] for row in thirds} == {"joint third (no third-place game)"}


def test_placement_games_below_a_two_team_knockout_name_their_game():
    event, division = day(2, after_groups="both", third_place_game=False)
    play_groups(division)
    seed_divisions(event)
    play_knockout(division, Match.Stage.FINAL)
    below = placement_games(division)
    play(below[0], 30, 26)
    (partly,) = ranking.division_rankings(event)
    assert partly.state == ranking.UNFINISHED and partly.games_left == 2
    for match in below[1:]:
        play(match, 26, 30)
    same_as_final_places(event)
    (done,) = ranking.division_rankings(event)
    assert done.finished
    assert [line.place for line in done.lines] == [
        "Champion",
        "Runner-up",
        "3rd place",
        *(f"{n}th place" for n in range(4, 9)),
    ]
    assert [line.how for line in done.lines] == [ranking.FINAL] * 2 + [ranking.PLACEMENT] * 6
    _title, _heading, _header, rows = sheet_rows(event)
    below[0].refresh_from_db()
    assert rows[2][4] == "Play-off for place 2 (A-B)" and rows[2][2] == below[0].winner.name
    assert all(row[5] == "" for row in rows)


def test_a_division_whose_groups_are_the_result_says_so_and_no_names_are_written():
    event, division = day(2, after_groups="none")
    play_groups(division)
    (only,) = ranking.division_rankings(event)
    assert only.state == ranking.GROUPS_ONLY
    _title, _heading, _header, rows = sheet_rows(event, exports.KINDS)
    assert rows == [(division.name, "", "", "", "", "No games after the groups: the group standings are the result.")]
    text = " ".join(
        str(c) for ws in load_workbook(BytesIO(exports.event_workbook(event))) for row in ws.values for c in row if c
    )
    assert not any(p.name in text for p in Player.objects.all())


def test_the_sheet_is_in_japanese_in_the_public_workbook_without_names(client):
    event, division = day(2, after_groups="knockout", third_place_game=False, qualifiers_per_group=2)
    play_groups(division)
    seed_divisions(event)
    play_knockout(division, Match.Stage.SEMIFINAL)
    play_knockout(division, Match.Stage.FINAL)
    response = client.get(f"/e/{event.slug}/results.xlsx", HTTP_ACCEPT_LANGUAGE="ja")
    wb = load_workbook(BytesIO(response.content))
    ws = wb.worksheets[0]
    assert ws.title == "成績一覧"
    rows = list(ws.iter_rows(min_row=2, values_only=True))
    assert rows[0] == ("部門", "順位", "チーム", "所属", "決定方法", "備考")
    assert [row[1] for row in rows[1:]] == ["優勝", "準優勝", "第3位", "第3位"]
    assert [row[4] for row in rows[1:3]] == ["決勝", "決勝"]
    text = " ".join(str(c) for ws in wb for row in ws.values for c in row if c)
    assert not any(p.name in text for p in Player.objects.filter(team__division=division))


def test_a_single_qualifier_is_the_champion_decided_by_its_group(client):
    event, division = day(1, after_groups="knockout", qualifiers_per_group=1)
    play_groups(division)
    same_as_final_places(event)
    (only,) = ranking.division_rankings(event)
    assert only.finished and [line.how for line in only.lines] == [ranking.GROUP]
    _title, _heading, _header, rows = sheet_rows(event)
    assert rows == [
        (division.name, "Champion (group A, place 1)", only.lines[0].team.name, only.lines[0].team.affiliation,
         "group A, place 1 (only qualifier)", "")
    ]  # fmt: skip


@pytest.mark.parametrize("third_place_game", [True, False])
def test_a_lone_third_is_third_not_joint_third(client, third_place_game):
    """Three qualifiers: one semifinal and a bye, so no third-place game whatever the setting; its
    loser is third alone, "3位（3位決定戦なし）", never "同率" (issue 19, tester's finding 3)."""
    event, division = day(3, after_groups="knockout", qualifiers_per_group=1, third_place_game=third_place_game)
    play_groups(division)
    seed_divisions(event)
    assert not Match.objects.filter(division=division, stage=Match.Stage.THIRD_PLACE).exists()
    (semi,) = Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL)
    play_knockout(division, Match.Stage.SEMIFINAL)
    play_knockout(division, Match.Stage.FINAL)
    same_as_final_places(event)
    (done,) = ranking.division_rankings(event)
    semi.refresh_from_db()
    assert done.finished and [(line.team, line.how) for line in done.at(3)] == [(semi.loser, ranking.LONE_THIRD)]
    assert done.podium_places == {1: 1, 2: 1, 3: 1}
    _title, _heading, _header, rows = sheet_rows(event)
    assert rows[2][1:5] == ("3rd place", semi.loser.name, semi.loser.affiliation, "third (no third-place game)")
    response = client.get(f"/e/{event.slug}/results.xlsx", HTTP_ACCEPT_LANGUAGE="ja")
    rows = list(load_workbook(BytesIO(response.content)).worksheets[0].iter_rows(min_row=3, values_only=True))
    assert [(row[1], row[4]) for row in rows] == [
        ("優勝", "決勝"),
        ("準優勝", "決勝"),
        ("第3位", "3位（3位決定戦なし）"),
    ]
    assert not any("同率" in str(c) for row in rows for c in row if c)


def test_joint_third_is_joint_in_japanese_and_the_format_gives_two_thirds(client):
    event, division = day(2, after_groups="knockout", third_place_game=False, qualifiers_per_group=2)
    play_groups(division)
    seed_divisions(event)
    (before,) = ranking.division_rankings(event)
    assert before.podium_places == {1: 1, 2: 1, 3: 2}  # from the format, before any game
    play_knockout(division, Match.Stage.SEMIFINAL)
    play_knockout(division, Match.Stage.FINAL)
    response = client.get(f"/e/{event.slug}/results.xlsx", HTTP_ACCEPT_LANGUAGE="ja")
    rows = list(load_workbook(BytesIO(response.content)).worksheets[0].iter_rows(min_row=3, values_only=True))
    assert [row[4] for row in rows[2:]] == ["同率3位（3位決定戦なし）"] * 2


def test_the_places_each_format_gives():
    """``podium_places`` from the format: a final alone gives 1st and 2nd; a third-place game one
    3rd; a lone group champion 1st; placement games the ranks they decide."""
    formats = [
        ({"after_groups": "knockout", "qualifiers_per_group": 1}, {1: 1, 2: 1}),  # a final alone
        ({"after_groups": "knockout", "qualifiers_per_group": 2}, {1: 1, 2: 1, 3: 1}),
        ({"after_groups": "both", "third_place_game": False}, {1: 1, 2: 1, 3: 1}),  # the play-off for place 2
    ]
    for fields, places in formats:
        event, division = day(2, **fields)
        play_groups(division)
        seed_divisions(event)
        assert ranking.division_rankings(event)[0].podium_places == places, fields
    event, single = day(1, after_groups="knockout", qualifiers_per_group=1)
    play_groups(single)
    assert ranking.division_rankings(event)[0].podium_places == {1: 1}
