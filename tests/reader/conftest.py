import wave
from io import BytesIO

import pytest

from tests.factories import make_event
from tournament.models import Event


def wav_bytes(seconds=1.0, rate=8000, amplitude=8000):
    """A mono 16-bit WAV of a square-ish tone (``amplitude`` 0: silence)."""
    out = BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        frames = bytearray()
        for i in range(int(seconds * rate)):
            value = amplitude if (i // 20) % 2 else -amplitude
            frames += value.to_bytes(2, "little", signed=True)
        w.writeframes(bytes(frames))
    return out.getvalue()


@pytest.fixture
def editor(django_user_model):
    """A staff user who also organises an event: edits every deck, the shipped one too
    (reader.access; the owners' rules are in test_deck_owners.py)."""
    user = django_user_model.objects.create_user("deck-editor", is_staff=True)
    event = Event.objects.create(slug="club", name="練習会", date="2027-01-17")
    event.organisers.add(user)
    return user


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("organiser")


@pytest.fixture
def event(organiser):
    """An event of two courts organised by ``organiser``."""
    event = make_event(courts=2)
    event.organisers.add(organiser)
    return event
