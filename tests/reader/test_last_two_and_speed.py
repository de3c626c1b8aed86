"""The reader's last two cards and the voice's speed (issue 33, item 2): the log keeps the
referee's 「続ける」 and the mismatch case, and refuses anything else; a tournament reading
is slow by default, its synthetic voice's URLs say so and Open JTalk gets ``-r``; a recording
plays as recorded; the pages show no developer text (item 5)."""

import time
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import translation

from common.errors import UserError
from reader import sessions, synth, voices
from reader.engine import sequence
from reader.models import Card, DeckEdition, ReadingLogEntry
from tests.reader.conftest import wav_bytes
from tests.reader.test_reading import make_deck

pytestmark = pytest.mark.django_db


def now_ms():
    return int(time.time() * 1000)


def test_the_placed_and_mismatch_lines_are_kept(event):
    reading = sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1)
    lines = [
        {"seq": 1, "kind": "mismatch", "reading": "more", "at": now_ms()},
        {"seq": 2, "kind": "mismatch", "reading": "wrong", "at": now_ms()},
        {"seq": 3, "kind": "placed", "at": now_ms()},
    ]
    assert sessions.record_lines(reading, lines) == [1, 2, 3]
    assert list(ReadingLogEntry.objects.values_list("kind", "reading")) == [
        ("mismatch", "more"),
        ("mismatch", "wrong"),
        ("placed", ""),
    ]


@pytest.mark.parametrize(
    "bad",
    [
        {"seq": 1, "kind": "mismatch", "reading": "three"},
        {"seq": 1, "kind": "mismatch", "reading": ""},
        {"seq": 1, "kind": "mismatch", "reading": "more", "card": "あ"},
        {"seq": 1, "kind": "placed", "reading": "more"},
        {"seq": 1, "kind": "placed", "card": "あ"},
    ],
)
def test_a_wrong_placed_or_mismatch_line_is_refused(event, bad):
    reading = sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1)
    with pytest.raises(UserError):
        sessions.record_lines(reading, [bad | {"at": now_ms()}])
    assert not ReadingLogEntry.objects.exists()


def test_the_log_page_says_what_the_referee_did(client, event, organiser):
    reading = sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1)
    sessions.record_lines(
        reading,
        [
            {"seq": 1, "kind": "mismatch", "reading": "fewer", "at": now_ms()},
            {"seq": 2, "kind": "placed", "at": now_ms()},
        ],
    )
    client.force_login(organiser)
    with translation.override("ja"):
        html = client.get(reverse("reader:manage_log", args=[event.slug, reading.pk])).content.decode()
    assert "札が2枚より少ない：足りない札は審判が用意します" in html and "残り2枚を置いた：続ける" in html


def synthetic_deck():
    edition = DeckEdition.objects.create(slug="voice", name="声")
    for i, kana in enumerate("あい"):
        Card.objects.create(edition=edition, head_kana=kana, text=f"{kana}のふだ", order=i)
    return edition


def test_a_tournament_reading_is_slow_by_default_and_its_urls_say_so(event):
    reading = sessions.start_reading(synthetic_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1)
    assert reading.voice_speed == "slow"
    slow, normal = voices.audio_urls(reading.edition, "slow"), voices.audio_urls(reading.edition)
    assert slow["card:あ"].endswith("&speed=slow") and "speed" not in normal["card:あ"]
    assert slow["card:あ"].split("?v=")[1][:17] != normal["card:あ"].split("?v=")[1][:17]  # another file
    with pytest.raises(UserError):
        sessions.start_reading(reading.edition, event, unreadable=[], pauses=sequence.Timing(), speed="fast")


def test_a_recording_plays_as_recorded_whatever_the_speed(event):
    edition = make_deck()
    assert voices.audio_urls(edition, "slow") == voices.audio_urls(edition)


def test_open_jtalk_gets_the_rate_and_each_speed_its_own_file(monkeypatch, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    commands = []

    def fake_run(command, **kwargs):
        commands.append(command)
        Path(command[command.index("-ow") + 1]).write_bytes(wav_bytes(1.0))

        class Done:
            returncode, stderr = 0, b""

        return Done()

    monkeypatch.setattr(synth, "voice_status", lambda: synth.VoiceStatus(True, ""))
    monkeypatch.setattr(synth, "_binary", lambda: "/usr/bin/open_jtalk")
    monkeypatch.setattr(synth.subprocess, "run", fake_run)
    slow, normal = synth.synthesize("あのふだ", "slow"), synth.synthesize("あのふだ")
    assert slow != normal and slow.is_file() and normal.is_file()
    rates = [c[c.index("-r") + 1] for c in commands]
    assert rates == ["0.80", "1.00"]
    assert synth.synthesize("あのふだ", "whatever") == normal  # an unknown speed is normal
    assert len(commands) == 2


def test_the_start_form_and_the_reading_page_use_the_speed_chosen(client, event, organiser):
    edition = make_deck()
    client.force_login(organiser)
    url = reverse("reader:manage", args=[event.slug])
    with translation.override("ja"):
        page = client.get(url).content.decode()
    assert 'name="voice_speed"' in page and '<option value="slow" selected>' in page
    data = {"edition": edition.pk, "between_readings": "2", "between_cards": "4", "voice_speed": "normal"}
    data["incomplete_ok"] = "1"
    response = client.post(reverse("reader:manage_start", args=[event.slug]), data)
    assert response.status_code == 302
    assert event.readings.get().voice_speed == "normal"


def test_no_developer_text_on_the_japanese_reader_pages(client, event, organiser):
    """Issue 33 item 5: no file path, no 「きまりの本製品での解釈」 on the reader's pages."""
    edition = make_deck()
    reading = sessions.start_reading(edition, event, unreadable=[], pauses=sequence.Timing(), seed=1)
    client.force_login(organiser)
    with translation.override("ja"):
        pages = [
            client.get(reverse("reader:manage", args=[event.slug])).content.decode(),
            client.get(reverse("reader:manage_read", args=[event.slug, reading.pk])).content.decode(),
            client.get(reverse("reader:practice") + f"?edition={edition.slug}").content.decode(),
        ]
    for html in pages:
        assert "docs/" not in html and ".md" not in html and "本製品での解釈" not in html


def test_a_refused_start_keeps_the_speed_typed(client, event, organiser):
    edition = make_deck()
    client.force_login(organiser)
    data = {"edition": edition.pk, "between_readings": "x", "between_cards": "4", "voice_speed": "normal"}
    response = client.post(reverse("reader:manage_start", args=[event.slug]), data)
    assert response.status_code == 400
    assert '<option value="normal" selected>' in response.content.decode()
    assert not event.readings.exists()


def test_practice_offers_the_speed_and_plays_it(client):
    edition = synthetic_deck()
    html = client.get(reverse("reader:practice") + f"?edition={edition.slug}&voice_speed=normal").content.decode()
    assert 'name="voice_speed"' in html and "&amp;speed=slow" not in html and "speed=slow" not in html
    slow = client.get(reverse("reader:practice") + f"?edition={edition.slug}").content.decode()
    assert "speed=slow" in slow  # slow by default
