"""The contract the reader's pages use (reader.voices): keys, URLs, unreadable cards, the voice."""

import shutil
import wave
from io import BytesIO

import pytest

from reader import synth, voices
from reader.models import Card, DeckEdition, Recording

pytestmark = pytest.mark.django_db

needs_voice = pytest.mark.skipif(
    shutil.which("open_jtalk") is None or not (synth.DEFAULT_DIC / "sys.dic").is_file(),
    reason="open_jtalk or its dictionary is not installed (apt-get install open-jtalk open-jtalk-mecab-naist-jdic)",
)


def _wav(seconds=1.0, rate=8000, loud=True):
    out = BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        sample = (8000 if loud else 0).to_bytes(2, "little", signed=True)
        w.writeframes(sample * int(seconds * rate))
    return out.getvalue()


def test_the_shipped_edition_holds_only_the_cited_cards():
    edition = DeckEdition.objects.get(slug="hitachi")
    cards = {c.head_kana: c for c in edition.cards.all()}
    assert set(cards) == {"す", "ひ", "ぴ", "り"}
    assert cards["す"].text == "諏訪神社 万年太夫と 水穴ロマン"
    assert cards["ひ"].text == "日立港 世界に開く 海の玄関"
    assert cards["り"].is_joker and not cards["り"].text
    assert "hitachikyodokaruta.info/sa_gyou/su.html" in edition.source
    assert "inference" in edition.source


def test_keys_parse_and_unknown_keys_are_refused():
    assert voices.parse_key("card:す") == ("card", "す")
    assert voices.parse_key("phrase:start") == ("phrase", "start")
    for bad in ("phrase:hello", "card:", "nothing", "sound:start"):
        with pytest.raises(voices.UnknownKey):
            voices.parse_key(bad)


def test_urls_of_every_card_and_phrase_change_with_the_text():
    edition = DeckEdition.objects.get(slug="hitachi")
    urls = voices.audio_urls(edition)
    assert set(urls) == {"card:す", "card:ひ", "card:ぴ", "card:り", "phrase:start", "phrase:next", "phrase:check"}
    before = voices.audio_url(edition, "card:す")
    assert before.startswith("/reader/audio/hitachi/card/")
    Card.objects.filter(edition=edition, head_kana="す").update(furigana="すわじんじゃ")
    assert voices.audio_url(edition, "card:す") != before
    with pytest.raises(voices.UnknownKey):
        voices.audio_url(edition, "card:ん")


def test_unreadable_cards_are_named_and_a_recording_makes_a_card_readable(settings):
    edition = DeckEdition.objects.get(slug="hitachi")
    if synth.voice_status().installed:
        assert [c.head_kana for c in voices.unreadable_cards(edition)] == ["り"]
    settings.READER_OPEN_JTALK = "no-such-open-jtalk"
    assert not voices.voice_status().installed
    assert "open_jtalk" in voices.voice_status().message
    assert [c.head_kana for c in voices.unreadable_cards(edition)] == ["す", "ひ", "ぴ", "り"]
    data = _wav()
    Recording.objects.create(
        edition=edition,
        key="card:り",
        audio=data,
        content_type="audio/wav",
        extension="wav",
        duration_ms=1000,
        size=len(data),
        sha256="ab" * 32,
    )
    assert [c.head_kana for c in voices.unreadable_cards(edition)] == ["す", "ひ", "ぴ"]
    message = voices.unreadable_message(voices.unreadable_cards(edition))
    assert "3" in message and "す、ひ、ぴ" in message


def test_the_audio_view_plays_a_recording_with_ranges_and_cache(client, settings):
    settings.READER_OPEN_JTALK = "no-such-open-jtalk"
    edition = DeckEdition.objects.get(slug="hitachi")
    data = _wav()
    Recording.objects.create(
        edition=edition,
        key="phrase:start",
        audio=data,
        content_type="audio/wav",
        extension="wav",
        duration_ms=1000,
        size=len(data),
        sha256="cd" * 32,
    )
    url = voices.audio_url(edition, "phrase:start")
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "audio/wav"
    assert response.content == data
    assert "max-age=31536000" in response["Cache-Control"]
    part = client.get(url, HTTP_RANGE="bytes=0-99")
    assert part.status_code == 206 and part.content == data[:100]
    assert part["Content-Range"] == f"bytes 0-99/{len(data)}"
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    # No recording and no voice: 404, never a 500.
    assert client.get(voices.audio_url(edition, "card:す")).status_code == 404
    assert client.get("/reader/audio/hitachi/phrase/hello/").status_code == 404
    assert client.get("/reader/audio/nope/card/す/").status_code == 404


@needs_voice
def test_the_view_synthesises_a_card_once(client, monkeypatch):
    edition = DeckEdition.objects.get(slug="hitachi")
    url = voices.audio_url(edition, "card:す")
    first = client.get(url)
    assert first.status_code == 200 and first["Content-Type"] == "audio/wav"
    assert first.content[:4] == b"RIFF"
    calls = []
    monkeypatch.setattr(synth, "_run", lambda *args: calls.append(args))
    again = client.get(url)
    assert again.content == first.content and calls == []
