"""The Japanese a club member reads on the Musashino-bana screens (issue 22): no 「側」 standing
alone as a noun, Japanese punctuation, one word for a player (プレイヤー) and for the
settlement (精算), the suppression choice read as a sentence, and the team dealer's house rule."""

import html
import re

import pytest
from django.urls import reverse

from hanafuda import services
from hanafuda.engine.options import Options, Players
from tests.hanafuda.helpers import ROUND_A, months, new_session

pytestmark = pytest.mark.django_db

MIXED = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff][:(?]|[:)][\u3040-\u30ff\u4e00-\u9fff]")
SIDE_AS_NOUN = re.compile(r"(?<!相手)側")


def visible_text(page):
    page = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", page)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


@pytest.fixture
def pages(client, django_user_model):
    user = django_user_model.objects.create_user("scorer-ja")
    client.force_login(user)
    client.cookies["django_language"] = "ja"
    three = new_session(user)
    services.record_round(three, 1, ROUND_A)
    teams = services.create_session(
        user,
        "組",
        ["甲・丙", "乙・丁"],
        Options(players=Players.TWO_TEAMS, rounds=3),
        team_members=[["甲", "丙"], ["乙", "丁"]],
    )
    services.record_round(teams, 1, [months(1, 3, 8, 12, 2, 4), months(5, 6, 7, 9, 10, 11)])
    urls = {
        "list": reverse("hanafuda:session_list"),
        "form": reverse("hanafuda:session_create"),
        "session": reverse("hanafuda:session_detail", args=[three.pk]),
        "entry": reverse("hanafuda:round_entry", args=[three.pk]),
        "round": reverse("hanafuda:round_detail", args=[three.pk, 1]),
        "settlement": reverse("hanafuda:settlement", args=[three.pk]),
        "teams": reverse("hanafuda:session_detail", args=[teams.pk]),
        "teams_round": reverse("hanafuda:round_detail", args=[teams.pk, 1]),
    }
    return {name: visible_text(client.get(url).content.decode()) for name, url in urls.items()}


def test_no_side_as_a_noun_and_japanese_punctuation(pages):
    for name, text in pages.items():
        assert SIDE_AS_NOUN.findall(text) == [], name
        assert MIXED.findall(text) == [], name
        assert "打ち手" not in text and "清算" not in text, name


def test_the_choices_read_as_sentences(pages):
    form = pages["form"]
    assert "四光ができたときに三光を数えない（既定）" in form and "だけ（既定）" not in form
    assert "チーム戦の親" in form and "チームが親になるたびに、組む2人が交互に親をする（既定）" in form
    assert "同じ格なら引き直し" in form


def test_the_team_dealer_is_a_player_and_the_rule_is_shown(pages):
    team = pages["teams"]
    assert "チーム戦の親：チームが親になるたびに、組む2人が交互に親をする（既定）" in team
    assert re.search(r"親：\s*丙", team)  # round 2: 甲 dealt round 1, his partner 丙 deals now
