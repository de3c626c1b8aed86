"""Recordings: real audio is kept and played; not-audio, too long and too large files are refused
with a message naming the card; the browser's recorder posts the same form (JSON answer)."""

import wave
from io import BytesIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from reader import voices
from reader.models import DeckEdition, Recording
from tests.reader.conftest import wav_bytes

pytestmark = pytest.mark.django_db


def _upload(client, key, data, name="reading.wav", json=False):
    headers = {"HTTP_ACCEPT": "application/json"} if json else {}
    return client.post(
        reverse("reader:recording_upload", args=["hitachi"]),
        {"key": key, "file": SimpleUploadedFile(name, data, content_type="audio/wav")},
        follow=not json,
        **headers,
    )


def _messages(response):
    return " ".join(str(m) for m in response.context["messages"])


def test_a_wav_recording_is_kept_and_played_instead_of_the_voice(editor_client, client):
    data = wav_bytes(2.0)
    response = _upload(editor_client, "card:す", data)
    assert response.status_code == 200
    recording = Recording.objects.get(edition__slug="hitachi", key="card:す")
    assert recording.content_type == "audio/wav" and recording.duration_ms == 2000
    url = voices.audio_url(DeckEdition.objects.get(slug="hitachi"), "card:す")
    played = client.get(url)
    assert played.content == data and played["Content-Type"] == "audio/wav"


def test_a_text_file_renamed_wav_is_refused_naming_the_card(editor_client):
    response = _upload(editor_client, "card:す", "諏訪神社の読み札です。\n".encode() * 50)
    text = _messages(response)
    assert "す" in text and ("not audio" in text or "音声" in text)
    assert not Recording.objects.exists()


def test_a_40_second_file_is_refused_naming_the_card(editor_client):
    response = _upload(editor_client, "card:ひ", wav_bytes(40.0))
    text = _messages(response)
    assert "ひ" in text and "40" in text and "30" in text
    assert not Recording.objects.exists()


def test_a_6_mb_file_is_refused_naming_the_card(editor_client):
    out = BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(96000)
        w.writeframes(b"\x10\x00" * 2 * 96000 * 16)  # 16 s (not too long) of stereo 96 kHz: 6.1 MB
    data = out.getvalue()
    assert len(data) > 6_000_000
    response = _upload(editor_client, "card:ぴ", data)
    text = _messages(response)
    assert "ぴ" in text and "5 MB" in text
    assert not Recording.objects.exists()


def test_the_browsers_recorder_gets_json_and_a_phrase_can_be_recorded_and_deleted(editor_client):
    answer = _upload(editor_client, "phrase:next", wav_bytes(1.0), name="recording.wav", json=True)
    assert answer.status_code == 200 and answer.json()["ok"]
    refused = _upload(editor_client, "phrase:next", b"not audio", json=True)
    assert refused.status_code == 400 and "次、読みます" in refused.json()["message"]
    assert Recording.objects.filter(key="phrase:next").count() == 1
    gone = editor_client.post(reverse("reader:recording_delete", args=["hitachi"]), {"key": "phrase:next"})
    assert gone.status_code == 302 and not Recording.objects.exists()


def test_an_unknown_card_or_phrase_is_refused(editor_client):
    for key in ("card:ん", "phrase:hello", "garbage"):
        response = _upload(editor_client, key, wav_bytes(1.0), json=True)
        assert response.status_code == 400, key
    assert not Recording.objects.exists()
