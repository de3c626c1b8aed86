"""The deck page in a real browser: the synthetic voice plays in a plain <audio> element, and
a card is recorded with the browser's microphone (Chromium's fake device), encoded as WAV by
static/js/reader_record.js, checked by the server and then played instead of the voice.

Skipped where Chromium or Playwright is missing, except under CI=true.
"""

import importlib
import os
import shutil

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from reader import synth
from reader.models import Recording
from tests.browser.support import ARGS, AVAILABLE, CHROMIUM, log_in, sync_playwright
from tournament.models import Event

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not AVAILABLE and os.environ.get("CI") != "true", reason="Chromium or Playwright is not installed"
    ),
]

FAKE_MICROPHONE = [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    "--autoplay-policy=no-user-gesture-required",
]


@pytest.fixture
def page():
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS + FAKE_MICROPHONE)
        context = browser.new_context(viewport={"width": 1024, "height": 900})
        yield context.new_page()
        context.close()
        browser.close()


@pytest.fixture
def editor_login():
    # A transactional test earlier in the run may have emptied the tables: ship the deck again
    # (the data migration's own step, get_or_create).
    importlib.import_module("reader.migrations.0003_hitachi_deck").ship(apps, None)
    user = get_user_model().objects.create_user("deck", password="karuta-deck-1", is_staff=True)  # edits hitachi
    Event.objects.create(slug="club", name="練習会", date="2027-01-17").organisers.add(user)
    return "deck", "karuta-deck-1"


def test_a_card_recorded_in_the_browser_is_kept_and_played(page, live_server, editor_login):
    path = "/reader/decks/hitachi/"
    log_in(page, live_server, *editor_login, path)
    if shutil.which("open_jtalk") and (synth.DEFAULT_DIC / "sys.dic").is_file():
        # The synthetic voice of す plays in a plain <audio> element.
        page.evaluate(
            "() => { const a = document.querySelector('audio[src*=\"/card/\"]'); a.preload = 'auto'; a.load(); }"
        )
        page.wait_for_function("() => document.querySelector('audio[src*=\"/card/\"]').readyState >= 1")
        assert page.evaluate("() => document.querySelector('audio[src*=\"/card/\"]').duration") > 1.5
    button = page.locator('[data-record="card:ぴ"]')
    button.wait_for(state="visible")  # localhost is a secure context: the recorder is offered
    button.click()
    page.wait_for_function("() => !!document.querySelector('[data-record=\"card:ぴ\"]').readerStop")
    page.evaluate("() => { window.recordingSince = performance.now(); }")
    page.wait_for_function("() => performance.now() - window.recordingSince > 1200")  # a second of tone
    with page.expect_navigation():
        button.click()  # Stop: encoded, sent, the page reloads with the recording
    recording = Recording.objects.get(edition__slug="hitachi", key="card:ぴ")
    assert recording.content_type == "audio/wav" and recording.duration_ms >= 800
    assert page.locator('form[action$="/recordings/delete/"] input[value="card:ぴ"]').count() == 1
