"""The team page as the family's page (issue 35, item 1): the next game with its time, court,
opponent and minutes, the banner when it is due or called, the group rank with what placed it,
the stage path, the final place; players' names only where the event publishes them."""

import datetime
import re

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from tests.tournament.test_stages_services import day, members, play_groups, play_stage
from tournament.models import Announcement, Match
from tournament.services.knockout import seed_divisions
from tournament.views import public as public_views


@pytest.fixture
def event_day(db):
    event, (division,) = day([("小学生の部", [1, 2], 6, {"qualifiers_per_group": 2})])
    return event, division, list(division.groups.order_by("name"))


def page(client, event, team, fragment=False):
    url = f"/e/{event.slug}/team/{team.pk}/" + ("?fragment=1" if fragment else "")
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    return response.content.decode()


def first_game(team):
    return Match.objects.filter(Q(team_a=team) | Q(team_b=team)).order_by("start_at").first()


def test_the_next_game_says_time_court_opponent_and_minutes(client, event_day):
    event, _division, groups = event_day
    team = members(groups[0])[0]
    game = first_game(team)
    game.start_at = timezone.now() + datetime.timedelta(minutes=42, seconds=30)
    game.save(update_fields=["start_at"])
    html = page(client, event, team)
    opponent = game.team_b if game.team_a_id == team.pk else game.team_a
    assert "次の試合" in html and str(game.court) in html and opponent.name in html
    assert "あと42分" in html
    assert timezone.localtime(game.start_at).strftime("%H:%M") in html
    assert 'role="alert"' not in html  # not due yet
    assert "予選Aリーグ1位なら決勝トーナメント" in html  # the stage path before the bracket
    assert "リーグ順位" in html and "予選Aリーグ：まだ試合がありません。" in html
    game.start_at = timezone.now() + datetime.timedelta(days=3)  # days ahead: the time only
    game.save(update_fields=["start_at"])
    cache.clear()
    assert "あと" not in page(client, event, team)


def test_a_due_game_shows_the_banner_and_a_call_names_it(client, event_day, monkeypatch):
    monkeypatch.setattr(public_views, "LIVE_LAG_SECONDS", 0)  # a polled fragment may lag 5 s: not here
    event, _division, groups = event_day
    team = members(groups[0])[0]
    game = first_game(team)
    game.start_at = timezone.now() + datetime.timedelta(minutes=4)
    game.save(update_fields=["start_at"])
    html = page(client, event, team, fragment=True)
    assert f'class="due-banner" role="alert" data-due="{game.match_number}"' in html
    assert "まもなく試合です" in html
    now = timezone.now()
    Announcement.objects.create(
        event=event,
        text=f"第1コートへ集合：{team.name}",
        shown_from=now,
        shown_until=now + datetime.timedelta(minutes=5),
    )
    html = page(client, event, team, fragment=True)
    assert f"呼び出し： 第1コートへ集合：{team.name}" in html


def test_a_late_game_says_how_late(client, event_day):
    event, _division, groups = event_day
    team = members(groups[0])[0]
    game = first_game(team)
    game.start_at = timezone.now() - datetime.timedelta(minutes=7, seconds=30)
    game.save(update_fields=["start_at"])
    html = page(client, event, team)
    assert "開始時刻を8分過ぎています" in html or "開始時刻を7分過ぎています" in html
    assert "試合の時刻です" in html


def test_after_the_groups_the_page_shows_rank_explanation_and_the_seeded_game(client, event_day):
    event, division, groups = event_day
    play_groups(division)
    seed_divisions(event)
    winner = members(groups[0])[0]
    html = page(client, event, winner)
    assert "1位：2勝0敗" in html
    assert "予選Aリーグ1位として準決勝" in html
    semi = Match.objects.get(division=division, stage=Match.Stage.SEMIFINAL, team_a=winner)
    assert f"第{semi.match_number}試合" in html


def test_players_names_only_where_the_event_publishes_them(client, event_day):
    event, _division, groups = event_day
    team = members(groups[0])[0]
    names = list(team.players.values_list("name", flat=True))
    html = page(client, event, team)
    assert not any(name in html for name in names)
    event.publish_names = True
    event.save(update_fields=["publish_names"])
    cache.clear()  # a setting is not in the event's version: the fragment is kept 15 s
    html = page(client, event, team)
    assert all(name in html for name in names)
    # the share text never names them, even then
    share = re.search(r'<textarea id="share-team"[^>]*>(.*?)</textarea>', html, re.S).group(1)
    assert not any(name in share for name in names)


def test_the_final_place_and_its_certificate(client, event_day):
    event, division, groups = event_day
    play_groups(division)
    seed_divisions(event)
    play_stage(division)
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    champion = final.team_a
    html = page(client, event, champion)
    assert "最終順位" in html and "優勝" in html
    assert "賞状：" in html
    assert "残りの試合はありません。" in html
