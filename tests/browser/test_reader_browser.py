"""The reader in a real browser (issue 21, item 5): a reading started on a court's reader link
plays its first cards in the engine's order through the <audio> element, with fast timing
(``?fast=1``), at tablet sizes; the log reaches the server, also after the Wi-Fi dropped."""

import pytest

from reader import sessions
from reader.engine import sequence
from reader.models import ReadingLogEntry
from tests.browser.support import shot
from tests.factories import make_event
from tests.reader.test_reading import make_deck

VIEWPORTS = [(1024, 768), (800, 1280)]


@pytest.fixture
def reading(transactional_db):
    event = make_event(courts=1)
    court = event.courts.get()
    edition = make_deck("あいうえお")
    started = sessions.start_reading(edition, event, unreadable=[], pauses=sequence.Timing(2, 4), court=court, seed=11)
    return started, sessions.reader_link(court).token


def expected(order):
    return [
        s.key if s.kind == sequence.PHRASE else f"{s.card}:{s.reading}"
        for s in sequence.plan(order)
        if s.kind != sequence.PAUSE
    ]


def wait_state(page, state):
    page.wait_for_function(f"() => document.getElementById('reader').dataset.state === '{state}'", timeout=30000)


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_a_reading_plays_in_order_and_its_log_reaches_the_server(new_context, live_server, reading, viewport):
    session, token = reading
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}, locale="ja-JP").new_page()
    refused = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.click("button[data-act=start]")
    wait_state(page, "finished")
    played = page.eval_on_selector("#reader", "el => el.dataset.played").split()
    assert played == expected(session.order)
    assert played[:3] == ["phrase:start", f"{session.order[0]}:first", f"{session.order[0]}:second"]
    assert page.inner_text("#reader-kana") == session.order[3]  # the game's last read
    page.wait_for_function("() => document.getElementById('reader').dataset.queued === '0'", timeout=30000)
    kinds = list(ReadingLogEntry.objects.filter(session=session).values_list("kind", "card", "reading"))
    assert kinds[0] == ("phrase", "", "") and kinds[-1] == ("end", "", "")
    assert [k for k in kinds if k[0] == "read"][:2] == [
        ("read", session.order[0], "first"),
        ("read", session.order[0], "second"),
    ]
    session.refresh_from_db()
    assert session.ended_at is not None
    assert not refused  # the page's script and styles pass the Content-Security-Policy
    shot(page, f"reader-{width}x{height}")


def test_pause_skip_and_again_are_logged_and_the_log_waits_for_the_wifi(new_context, live_server, reading):
    session, token = reading
    context = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/")  # normal timing: 2 s between readings
    page.click("button[data-act=start]")
    first = session.order[0]
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{first}:first')")
    context.set_offline(True)
    page.click("button[data-act=pause]")
    wait_state(page, "paused")
    page.click("button[data-act=again]")
    page.click("button[data-act=skip]")  # the rest of the first card: its second reading
    page.wait_for_function("() => Number(document.getElementById('reader').dataset.queued) >= 2")
    assert not ReadingLogEntry.objects.filter(session=session, kind="skip").exists()
    context.set_offline(False)
    page.wait_for_function("() => document.getElementById('reader').dataset.queued === '0'", timeout=30000)
    kinds = [k for k in ReadingLogEntry.objects.filter(session=session).values_list("kind", flat=True)]
    assert kinds[-2:] == ["pause", "skip"]
    assert ReadingLogEntry.objects.get(session=session, kind="skip").card == first


def test_the_reading_goes_on_when_the_wifi_drops_before_it_starts(new_context, live_server, reading):
    session, token = reading
    context = new_context(viewport={"width": 800, "height": 1280}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.wait_for_function(
        "() => { const d = document.getElementById('reader').dataset; return d.cached === d.audioTotal; }"
    )
    context.set_offline(True)
    page.click("button[data-act=start]")
    wait_state(page, "finished")
    assert page.eval_on_selector("#reader", "el => el.dataset.played").split() == expected(session.order)
    assert int(page.eval_on_selector("#reader", "el => el.dataset.queued")) > 10
    assert not ReadingLogEntry.objects.filter(session=session).exists()
    context.set_offline(False)
    page.wait_for_function("() => document.getElementById('reader').dataset.queued === '0'", timeout=40000)
    assert ReadingLogEntry.objects.filter(session=session, kind="end").exists()


def test_a_practice_game_on_a_tablet_without_login(new_page, live_server, transactional_db):
    make_deck("かきくけこ", slug="school")
    page = new_page(viewport={"width": 800, "height": 1280}, locale="ja-JP")
    page.goto(f"{live_server.url}/reader/practice/?edition=school&fast=1")
    steps = page.evaluate("() => JSON.parse(document.getElementById('reader-plan').textContent).steps")
    page.click("button[data-act=start]")
    wait_state(page, "finished")
    played = page.eval_on_selector("#reader", "el => el.dataset.played").split()
    assert played == [
        s["key"] if s["kind"] == "phrase" else f"{s['card']}:{s['reading']}" for s in steps if s["kind"] != "pause"
    ]
    assert page.eval_on_selector("#reader", "el => el.dataset.queued") == "0"  # nothing to send
    assert not ReadingLogEntry.objects.exists()
