"""What a re-check of the reader found (brief fixR2): every label the page hands its script is
Japanese on the Japanese page; the organiser's start refuses a game on another court."""

import re

import pytest
from django.urls import reverse

from reader.models import ReadingSession
from tests.factories import make_division
from tests.reader.test_reading import make_deck
from tournament.models import Match

pytestmark = pytest.mark.django_db

ENGLISH = re.compile(r"[A-Za-z]{3,}")


def test_no_label_of_the_reading_page_is_left_in_english(client):
    edition = make_deck()
    page = client.get(reverse("reader:practice"), {"edition": edition.slug}, HTTP_ACCEPT_LANGUAGE="ja")
    page = page.content.decode()
    labels = dict(re.findall(r'data-label-([a-z-]+)="([^"]*)"', page))
    assert len(labels) >= 15
    # The placeholders the script fills (%(n)s, %(card)s) are not words.
    english = {name: text for name, text in labels.items() if ENGLISH.search(re.sub(r"%\(\w+\)s", "", text))}
    assert english == {}
    assert "%(n)s" in labels["continue"] and "%(card)s" in labels["skip-ask"]


def test_the_organisers_start_refuses_a_game_on_another_court(client, event, organiser):
    one, two = event.courts.all()[:2]
    Match.objects.create(event=event, division=make_division(event), match_number=2, court=two)
    client.force_login(organiser)
    answer = client.post(
        reverse("reader:manage_start", args=[event.slug]),
        {
            "edition": make_deck().pk,
            "court": one.pk,
            "match": "2",
            "between_readings": "2",
            "between_cards": "4",
            "incomplete_ok": "1",
        },
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert answer.status_code == 400
    assert not ReadingSession.objects.exists()
    said = " ".join(str(m) for m in answer.context["messages"])
    assert "第2試合" in said and str(two) in said and str(one) in said
