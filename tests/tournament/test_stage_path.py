"""Each team's stage path (tournament.stage_path.stage_paths): before and after the games after
the groups exist, in both languages."""

import pytest
from django.utils import timezone, translation

from tests.tournament.test_stages_services import day, members, play_groups
from tournament.models import Match
from tournament.services.knockout import seed_divisions
from tournament.stage_path import stage_paths


@pytest.fixture
def two_groups(db):
    """Two groups of three, two through each: semifinals A1–B2 and B1–A2."""
    event, (division,) = day([("小学生の部", [1, 2], 6, {"qualifiers_per_group": 2})])
    return event, division, list(division.groups.order_by("name"))


def test_before_the_bracket_the_settings_say_where_each_place_goes(two_groups):
    event, _division, groups = two_groups
    first = members(groups[0])[0]
    with translation.override("ja"):
        paths = stage_paths(event)
    name = groups[0].name
    assert paths[first.pk] == [
        f"予選{name}リーグ1位なら決勝トーナメント（準決勝から、時刻はリーグ戦終了後）",
        f"予選{name}リーグ2位なら決勝トーナメント（準決勝から、時刻はリーグ戦終了後）",
    ]
    assert set(paths) == {t.pk for g in groups for t in members(g)}


def test_once_seeded_the_team_holding_a_slot_reads_its_game_time_and_court(two_groups):
    event, division, groups = two_groups
    play_groups(division)
    seed_divisions(event)
    winner_a = members(groups[0])[0]
    semi = Match.objects.get(division=division, stage=Match.Stage.SEMIFINAL, source_a__endswith=":1", team_a=winner_a)
    when = timezone.localtime(semi.start_at).strftime("%H:%M")
    with translation.override("ja"):
        paths = stage_paths(event)
    assert paths[winner_a.pk] == [f"予選{groups[0].name}リーグ1位として準決勝 {when} {semi.court}"]
    with translation.override("en"):
        assert stage_paths(event)[winner_a.pk] == [f"As Group {groups[0].name} place 1: Semifinal {when} {semi.court}"]
    third = members(groups[0])[2]
    assert stage_paths(event)[third.pk] == []  # third place goes nowhere once the group is complete
