"""The reader works out of the box (issue 27 item 3): on a fresh database the shipped deck
(``hitachi``, migration 0003: す, ひ, ぴ with their texts, り without) can be practised with the
cards that can be read, the page names the ones left out and says how to bring in the rest
(copy the deck, import the card list)."""

import pytest
from django.urls import reverse

from reader import synth, voices
from reader.models import DeckEdition, ReadingSession


@pytest.fixture
def voice(monkeypatch):
    def set_installed(installed):
        status = synth.VoiceStatus(installed, "" if installed else "合成音声（Open JTalk）が入っていません。")
        monkeypatch.setattr(synth, "voice_status", lambda: status)

    return set_installed


def test_practice_starts_with_the_shipped_deck_on_a_fresh_database(client, db, voice):
    voice(True)
    edition = DeckEdition.objects.get(slug="hitachi")
    assert edition.cards.count() < voices.DECK_SIZE  # as shipped: not the whole deck
    page = client.get(reverse("reader:practice"), {"edition": "hitachi"})
    assert page.status_code == 200 and page.context["error"] == ""
    plan = page.context["plan"]
    assert sorted(plan["order"]) == sorted(["す", "ひ", "ぴ"])  # り has no text and no recording
    assert plan["steps"][0]["key"] == "phrase:start"
    read = {step["key"] for step in plan["steps"] if step["key"]}
    assert {"card:す", "card:ひ", "card:ぴ"} <= read and "card:り" not in read
    for key in read:  # every step has a sound the page can fetch
        assert key in plan["audio"]
    text = page.content.decode()
    assert 'id="reader-plan"' in text
    assert "この練習では、読める3枚を読みます。" in text and "読まない札（1枚）：り。" in text
    assert 'id="bring-in-cards"' in text and "この札セットを複製" in text and "取り込みます" in text
    assert reverse("reader:deck_list") in text
    assert not ReadingSession.objects.exists()


def test_without_the_synthetic_voice_the_page_says_why_it_cannot_start(client, db, voice):
    voice(False)
    page = client.get(reverse("reader:practice"), {"edition": "hitachi"})
    assert page.context["plan"] is None
    error = page.context["error"]
    assert "練習には、読める札が2枚以上必要です。" in error and "合成音声（Open JTalk）が入っていません。" in error
    assert "す、ひ、ぴ、り" in error
    assert 'id="bring-in-cards"' in page.content.decode()
