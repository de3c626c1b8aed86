"""「LINEで送る文面」 (issue 35, item 2): the ready texts of the team page, of each announcement and
of each division's results, as pasted: event, time, court, result or place, the public address,
never a player's name."""

import datetime
import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from tests.tournament.test_stages_services import day, members, play_groups, play_stage
from tournament import family, share
from tournament.models import Announcement, Match, Player
from tournament.services.knockout import seed_divisions

URL = "http://192.168.1.10:8000/e/x/"


@pytest.fixture
def played(db):
    """Two groups of three, two through each, the groups played and the knockout seeded."""
    event, (division,) = day([("小学生の部", [1, 2], 6, {"qualifiers_per_group": 2})])
    event.name, event.edition = "日立市郷土かるた大会", 40
    event.save(update_fields=["name", "edition"])
    play_groups(division)
    seed_divisions(event)
    return event, division, list(division.groups.order_by("name"))


def textareas(page):
    return [html.unescape(t) for t in re.findall(r"<textarea id=\"share-[^\"]*\"[^>]*>(.*?)</textarea>", page, re.S)]


def test_the_team_text_names_event_team_next_game_rank_path_and_address(played):
    event, division, groups = played
    team = members(groups[0])[0]
    semi = Match.objects.get(division=division, stage=Match.Stage.SEMIFINAL, team_a=team)
    with translation.override("ja"):
        day_ = family.team_day(event, team)
        text = share.team_text(event, team, day_, URL)
    start = timezone.localtime(semi.start_at).strftime("%H:%M")
    lines = text.split("\n")
    assert lines[0] == "第40回日立市郷土かるた大会　2027年1月17日(日)"
    assert lines[1] == f"{team.name}（小学生の部）"
    assert lines[2] == f"次の試合：{start} {semi.court} 対 {semi.team_b.name}（第{semi.match_number}試合）"
    assert lines[3] == f"リーグ順位：予選{groups[0].name}リーグ1位"
    assert lines[4] == f"予選{groups[0].name}リーグ1位として準決勝 {start} {semi.court}"
    assert lines[-1] == URL
    assert not any(p.name in text for p in Player.objects.filter(team__division=division))


def test_the_team_text_after_the_final_says_the_place_and_the_certificate(played):
    event, division, groups = played
    play_stage(division)
    champion = Match.objects.get(division=division, stage=Match.Stage.FINAL).team_a
    with translation.override("ja"):
        day_ = family.team_day(event, champion)
        from awards.reports import team_prizes

        day_.place, day_.certificates = "優勝", team_prizes(event, champion)
        text = share.team_text(event, champion, day_, URL)
    assert "次の試合" not in text
    assert "最終順位：優勝" in text
    assert "賞状：優勝" in text


def test_an_announcement_text_is_event_time_text_and_address(played):
    event, _division, _groups = played
    at = timezone.make_aware(datetime.datetime(2027, 1, 17, 10, 45))
    announcement = Announcement.objects.create(
        event=event, text="第3コートへ集合：赤チーム", shown_from=at, shown_until=at + datetime.timedelta(minutes=5)
    )
    with translation.override("ja"):
        text = share.announcement_text(event, announcement, URL)
    assert text == f"第40回日立市郷土かるた大会　2027年1月17日(日)\n10:45 第3コートへ集合：赤チーム\n{URL}"


def test_a_division_text_lists_its_places_with_affiliations_and_marks(played):
    event, division, groups = played
    a, b = members(groups[0])[:2]
    with translation.override("ja"):
        text = share.division_text(event, division, [("優勝", a, False), ("準優勝", b, True)], URL)
    assert text.split("\n") == [
        "第40回日立市郷土かるた大会　2027年1月17日(日)",
        "▽小学生の部",
        f"優勝 {a.name}（{a.affiliation}）",
        f"準優勝 {b.name}（{b.affiliation}）（要確認）",
        URL,
    ]


def test_a_result_text_is_event_game_court_score_winner_and_address(played):
    """The outgoing webhook's text of a confirmed game (issue 35 item 2): teams only."""
    from judging.models import RecordingSheet

    event, division, _groups = played
    game = Match.objects.filter(division=division, stage=Match.Stage.GROUP).order_by("match_number").first()
    sheet = RecordingSheet.objects.get(match=game, is_confirmed=True)
    with translation.override("ja"):
        text = share.result_text(event, game, sheet, URL)
        sheet.is_walkover = True
        walkover = share.result_text(event, game, sheet, URL)
    winner = game.team_a if sheet.winner_side == "A" else game.team_b
    assert text.split("\n") == [
        "第40回日立市郷土かるた大会　2027年1月17日(日)",
        f"第{game.match_number}試合　{game.court}　小学生の部",
        f"{game.team_a.name} {sheet.cards_a} – {sheet.cards_b} {game.team_b.name}",
        f"勝ち：{winner.name}",
        URL,
    ]
    assert walkover.split("\n")[3] == f"勝ち：{winner.name}（不戦勝）"
    assert not any(p.name in text for p in Player.objects.filter(team__division=division))


def test_the_pages_carry_the_texts_with_their_button(played, client):
    event, division, groups = played
    team = members(groups[0])[0]
    page = client.get(f"/e/{event.slug}/team/{team.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "LINEで送る文面" in page and 'data-share="share-team"' in page
    (text,) = textareas(page)
    assert text.endswith(f"http://testserver/e/{event.slug}/team/{team.pk}/")
    now = timezone.now()
    Announcement.objects.create(
        event=event, text="集合", shown_from=now, shown_until=now + datetime.timedelta(minutes=5)
    )
    organiser = get_user_model().objects.create_user("share-organiser")
    event.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(f"/manage/{event.slug}/announcements/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    (text,) = textareas(page)
    assert text.endswith(f"集合\nhttp://testserver/e/{event.slug}/")
