"""The Japanese a club member reads on the Dôsai screens (issue 22): Japanese punctuation, one
word per thing (プレイヤー, 精算, 数字札, the seed's suujifuda), and the sources of a value
named in words, not as the team's tags ("seed", "TK2")."""

import html as html_module
import re

import pytest
from django.urls import reverse

from dosai import services
from tests.dosai.factories import PLAYERS6, make_session

pytestmark = pytest.mark.django_db

# ASCII punctuation touching Japanese text: 「版:」, 「(いまは」, 「です?」 …
MIXED = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff][:(?]|[:)][\u3040-\u30ff\u4e00-\u9fff]")
ONE_WORD = ("打ち手", "清算", "数札", "seed", "TK2")


def visible_text(html):
    """The text a reader sees: no script, style, tags or attribute values."""
    html = re.sub(r"(?s)<(script|style)\b.*?</\1>", " ", html)
    return html_module.unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def pages(client, django_user_model):
    user = django_user_model.objects.create_user("reader-ja")
    client.force_login(user)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ja"
    session = make_session(user, players=PLAYERS6[:4])
    hand = services.start_hand(session, dealing="app", reader="app")
    for k in range(50):
        services.record_call(hand, None, k)
    urls = [
        reverse("dosai:home"),
        reverse("dosai:session_new"),
        reverse("dosai:session", args=[session.pk]),
        reverse("dosai:hand", args=[session.pk, 1]),
        reverse("dosai:edition", args=[session.edition.pk]),
        reverse("dosai:session_delete", args=[session.pk]),
        reverse("dosai:hand_new", args=[session.pk]),
    ]
    return {url: visible_text(client.get(url).content.decode()) for url in urls}


def test_the_japanese_screens_use_japanese_punctuation(pages):
    for url, text in pages.items():
        assert MIXED.findall(text) == [], url


def test_one_word_for_each_thing(pages):
    for url, text in pages.items():
        assert [w for w in ONE_WORD if w in text] == [], url
    everything = " ".join(pages.values())
    assert "プレイヤー" in everything and "精算" in everything and "数字札" in everything


def test_the_sources_of_a_value_are_named_in_words(pages):
    edition = next(text for url, text in pages.items() if "/editions/" in url)
    assert "英文の解説" in edition and "高橋の本" in edition
    assert "英文の解説：Andy's Playing Cards「Dôsai Karuta」（英語）。高橋の本：高橋「道才かるたの遊び方」。" in edition
