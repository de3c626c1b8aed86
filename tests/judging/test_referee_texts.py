"""The referee's texts complete (issue 33, item 3): the touch rule in the sheet's three steps
(the hand at the bottom first; "in other cases, see the table") on every page that shows the
matrix; the last two cards that do not match; 試合の準備 on the rules page and on one A4 page."""

import re
from io import BytesIO

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from judging.paper.game_setup import game_setup_pdf
from tournament.models import Match

pytestmark = pytest.mark.django_db

STEPS = (
    "① 何人かが同じ札を押さえたら、いちばん下に手がある人が取る",
    "② 同じ札を同じ時・同じ場所で押さえたら、じゃんけんで決める。",
    "③ その他の場合は、判定表で決める。",
)


def page(client, url):
    with translation.override("ja"):
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_rules_page_has_the_touch_rule_the_last_two_and_the_setup(client, day):
    court = day.courts.first()
    html = page(client, reverse("judging:court_rules", args=[court.token]))
    for step in STEPS:
        assert step in html, step
    assert "試合の準備" in html and 'id="game-setup"' in html
    for words in ("28枚ずつ2つの山", "裏向き", "じゃんけん", "上の段に15枚、下の段に13枚", "3cm", "ひざから10cm", "礼"):
        assert words in html, words
    assert reverse("judging:court_setup_pdf", args=[court.token]) in html
    assert 'id="last-two"' in html  # the last two cards and their mismatch cases (referee_calls.html)


def test_the_dispute_page_words_the_rule_as_the_sheet_does(client, day):
    match = Match.objects.filter(event=day, court__isnull=False).first()
    html = page(client, reverse("judging:court_dispute", args=[match.court.token, match.match_number]))
    for step in STEPS:
        assert step in html, step
    assert "ときだけ" not in html  # never "only same time, same place goes to the table"
    assert html.count("いちばん下に手がある人が取る") == 1  # once, above; the matrix below leaves it out


def test_the_setup_pdf_is_one_a4_page_with_every_step(client, day):
    court = day.courts.first()
    with translation.override("ja"):
        response = client.get(reverse("judging:court_setup_pdf", args=[court.token]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    data = b"".join(response.streaming_content) if response.streaming else response.content
    reader = PdfReader(BytesIO(data))
    assert len(reader.pages) == 1
    box = reader.pages[0].mediabox
    assert (round(float(box.width) / 72 * 25.4), round(float(box.height) / 72 * 25.4)) == (210, 297)
    flat = re.sub(r"\s+", "", reader.pages[0].extract_text())
    for words in ("試合の準備", "28枚ずつ2つの山", "上の段に15枚、下の段に13枚", "ひざから10cm", "礼をする", "Aチーム"):
        assert words in flat, words
    assert reader.metadata.title == "試合の準備"


def test_the_setup_pdf_in_english_and_on_the_print_menu(client, day, organiser):
    with translation.override("en"):
        text = PdfReader(BytesIO(game_setup_pdf())).pages[0].extract_text()
    assert "two piles of 28" in text and "15 on the top row" in text
    client.force_login(organiser)
    url = reverse("tournament:print_paper", args=[day.slug, "setup"])
    assert url in page(client, reverse("tournament:print_menu", args=[day.slug]))
    assert client.get(url).status_code == 200
