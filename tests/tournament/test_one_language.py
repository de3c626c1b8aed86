"""One language a page (issue 27 item 3): an English page says rock-paper-scissors and false
touch, "3rd place", "Grade 3", and no 殿 (names and places stay as typed); the Japanese page of
the same screen says no English outside names. Certificates stay Japanese (their paper is), the
pages around them follow the session's language."""

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests import factories
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

TEAMS = [
    "港かるた会",
    "日立南クラブ",
    "十王少年団",
    "多賀同好会",
    "大みか子ども会",
    "会瀬ジュニア",
    "河原子クラブ",
    "久慈浜少年団",
]
JAPANESE_WORDS = ["じゃんけん", "お手つき", "殿", "第1位", "第3位", "第5位", "優勝", "準優勝", "小2", "小3"]
ENGLISH_WORDS = ["rock-paper-scissors", "false touch", "Place ", " place", "Grade ", "Champion", "Runner-up"]


@pytest.fixture
def day(db, django_user_model):
    """Eight teams in two groups, the knockout and placement games all played; an organiser."""
    event = factories.make_event(courts=2, slug="lang")
    division = factories.make_division(event, courts=[1, 2], after_groups="both")
    for name in TEAMS:
        factories.make_team(division, name)
    draw_groups(event, seed=2)
    make_schedule(event)
    out = StringIO()
    call_command("simulate_results", "lang", "--seed", "3", stdout=out)
    call_command("seed_knockout", "lang", stdout=out)
    call_command("simulate_results", "lang", "--stage", "knockout", "--seed", "4", stdout=out)
    call_command("simulate_results", "lang", "--stage", "placement", "--seed", "5", stdout=out)
    user = django_user_model.objects.create_user("lang-organiser")
    event.organisers.add(user)
    return event, division, user


def visible_text(html):
    """The page's text without its scripts, styles and tags, and without the names typed by
    people (teams, players, the event, the division) and the 「り」 card's name."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", html)
    return text


def _pages(event, division, court):
    game = Match.objects.filter(event=event, court=court).order_by("match_number").first()
    team = division.teams.order_by("entry_number").first()
    return {
        "result form": reverse("judging:court_entry", args=[court.token, game.match_number]),
        "touch helper": reverse("judging:court_dispute", args=[court.token, game.match_number]),
        "rules": reverse("judging:court_rules", args=[court.token]),
        "final places": reverse("tournament:public_final", args=[event.slug]),
        "bracket": reverse("tournament:public_bracket", args=[event.slug]),
        "awards desk": reverse("awards:desk", args=[event.slug]),
        "MC list": reverse("awards:mc_list", args=[event.slug]),
        "team form": reverse("tournament:team_edit", args=[event.slug, team.pk]),
        "standings": reverse("tournament:standings", args=[event.slug]),
    }


def _client(user, language):
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def test_english_pages_say_nothing_in_japanese_outside_names(day):
    event, division, user = day
    client = _client(user, "en")
    found = {}
    for name, url in _pages(event, division, event.courts.order_by("order").first()).items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        text = visible_text(response.content.decode())
        words = [w for w in JAPANESE_WORDS if w in text]
        if words:
            found[name] = words
    assert not found, found
    final = visible_text(client.get(reverse("tournament:public_final", args=[event.slug])).content.decode())
    assert "Champion" in final and "3rd place" in final
    desk = visible_text(client.get(reverse("awards:desk", args=[event.slug])).content.decode())
    assert "Champion" in desk and "3rd place" in desk
    form = client.get(_pages(event, division, event.courts.first())["team form"]).content.decode()
    assert re.search(r'<option value="小3" selected>Grade 3</option>', form), "the grade select says Grade 3"
    entry = visible_text(client.get(_pages(event, division, event.courts.first())["result form"]).content.decode())
    assert "rock-paper-scissors" in entry.lower()


def test_japanese_pages_say_no_english_words(day):
    event, division, user = day
    client = _client(user, "ja")
    found = {}
    for name, url in _pages(event, division, event.courts.order_by("order").first()).items():
        text = visible_text(client.get(url).content.decode())
        words = [w for w in ENGLISH_WORDS if w in text]
        if words:
            found[name] = words
    assert not found, found
    desk = visible_text(client.get(reverse("awards:desk", args=[event.slug])).content.decode())
    assert "優勝" in desk and "殿" in desk  # the certificate's own words, in Japanese
