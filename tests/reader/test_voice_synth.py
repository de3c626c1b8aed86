"""The offline synthetic voice: the audio of す is real speech, cached, and written by the command.

Measured with Python's ``wave`` and ``array`` (no audioop): the RMS of the whole file above a
floor, and a length a card's reading can have. Skipped only when Open JTalk is not installed
(CI installs it: .ci/run).
"""

import array
import math
import shutil
import wave
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from reader import synth, voices
from reader.models import DeckEdition
from tests.reader.conftest import wav_bytes

pytestmark = pytest.mark.django_db

needs_voice = pytest.mark.skipif(
    shutil.which("open_jtalk") is None or not (synth.DEFAULT_DIC / "sys.dic").is_file(),
    reason="open_jtalk or its dictionary is not installed (apt-get install open-jtalk open-jtalk-mecab-naist-jdic)",
)


def measure(path):
    """(seconds, RMS of the 16-bit samples, share of 20 ms windows louder than 300)."""
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2
        rate, frames = w.getframerate(), w.readframes(w.getnframes())
    samples = array.array("h", frames)
    rms = math.sqrt(sum(x * x for x in samples) / len(samples))
    window = rate // 50
    chunks = [samples[i : i + window] for i in range(0, len(samples) - window, window)]
    loud = sum(1 for c in chunks if math.sqrt(sum(x * x for x in c) / window) > 300)
    return len(samples) / rate, rms, loud / len(chunks)


@needs_voice
def test_the_synthetic_su_is_real_speech(tmp_path):
    out = tmp_path / "su.wav"
    call_command("reader_audio", "hitachi", "--card", "す", "-o", str(out))
    seconds, rms, loud = measure(out)
    assert 1.5 <= seconds <= 8.0, seconds
    assert rms > 1000, rms  # silence is 0; measured 3732 for す
    assert loud > 0.3, loud  # speech most of the time, not one click


@needs_voice
def test_the_second_call_does_not_run_the_binary(monkeypatch):
    edition = DeckEdition.objects.get(slug="hitachi")
    first = voices.audio_for(edition, "card:ひ")
    calls = []
    monkeypatch.setattr(synth, "_run", lambda *args: calls.append(args))
    again = voices.audio_for(edition, "card:ひ")
    assert again.path == first.path and calls == []
    # An edited reading is a new text: synthesised anew.
    edition.cards.filter(head_kana="ひ").update(furigana="ひたちこう せかいにひらく うみのげんかん")
    monkeypatch.undo()
    edited = voices.audio_for(edition, "card:ひ")
    assert edited.path != first.path and edited.path.is_file()


@needs_voice
def test_the_phrases_are_spoken(tmp_path):
    out = tmp_path / "start.wav"
    call_command("reader_audio", "hitachi", "--phrase", "start", "-o", str(out))
    seconds, rms, _loud = measure(out)
    assert 0.8 <= seconds <= 6 and rms > 1000


def test_the_text_goes_on_stdin_never_on_the_command_line(monkeypatch, settings, tmp_path):
    seen = {}

    def fake_run(command, **kwargs):
        seen["command"], seen["input"] = command, kwargs["input"]
        out = command[command.index("-ow") + 1]
        Path(out).write_bytes(wav_bytes(1.0))

        class Done:
            returncode, stderr = 0, b""

        return Done()

    monkeypatch.setattr(synth, "voice_status", lambda: synth.VoiceStatus(True, ""))
    monkeypatch.setattr(synth, "_binary", lambda: "/usr/bin/open_jtalk")
    monkeypatch.setattr(synth.subprocess, "run", fake_run)
    text = "$(rm -rf /); `x` -ow /etc/passwd"
    path = synth.synthesize(text)
    assert path.is_file() and text.encode() in seen["input"]
    assert not any(text in part for part in seen["command"])


def test_without_the_voice_a_recording_still_plays_and_the_command_says_what_is_missing(settings, tmp_path):
    settings.READER_OPEN_JTALK = "no-such-open-jtalk"
    with pytest.raises(CommandError, match="open_jtalk"):
        call_command("reader_audio", "hitachi", "--card", "す", "-o", str(tmp_path / "x.wav"))
    edition = DeckEdition.objects.get(slug="hitachi")
    data = wav_bytes(1.0)
    edition.recordings.create(
        key="card:す",
        audio=data,
        content_type="audio/wav",
        extension="wav",
        duration_ms=1000,
        size=len(data),
        sha256="0" * 64,
    )
    call_command("reader_audio", "hitachi", "--card", "す", "-o", str(tmp_path / "su.wav"))
    assert (tmp_path / "su.wav").read_bytes() == data


def test_the_command_refuses_unknown_editions_and_cards(tmp_path):
    with pytest.raises(CommandError, match="hitachi"):
        call_command("reader_audio", "nope", "--card", "す", "-o", str(tmp_path / "x.wav"))
    with pytest.raises(CommandError):
        call_command("reader_audio", "hitachi", "--card", "ん", "-o", str(tmp_path / "x.wav"))
    with pytest.raises(CommandError, match="録音もありません|neither"):
        call_command("reader_audio", "hitachi", "--card", "り", "-o", str(tmp_path / "x.wav"))
