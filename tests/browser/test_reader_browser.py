"""The reader in a real browser (issue 21, item 5): a reading started on a court's reader link
plays its first cards in the engine's order through the <audio> element, with fast timing
(``?fast=1``), at tablet sizes; the log reaches the server, also after the Wi-Fi dropped."""

import time

import pytest

from reader import sessions
from reader.engine import sequence
from reader.models import ReadingLogEntry
from tests.browser.support import log_in, shot
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
        if s.kind not in (sequence.PAUSE, sequence.WAIT)
    ]


def wait_state(page, state):
    page.wait_for_function(f"() => document.getElementById('reader').dataset.state === '{state}'", timeout=60000)


def to_the_end(page):
    """Play on to the end: at the last two cards the reader waits for 「続ける」 (issue 33)."""
    wait_state(page, "waiting")
    page.click("button[data-act=placed]")
    wait_state(page, "finished")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_a_reading_plays_in_order_and_its_log_reaches_the_server(new_context, live_server, reading, viewport):
    session, token = reading
    width, height = viewport
    page = new_context(viewport={"width": width, "height": height}, locale="ja-JP").new_page()
    refused = []
    page.on("console", lambda message: "Content Security Policy" in message.text and refused.append(message.text))
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.click("button[data-act=start]")
    to_the_end(page)
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
    to_the_end(page)
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
    to_the_end(page)
    played = page.eval_on_selector("#reader", "el => el.dataset.played").split()
    assert played == [
        s["key"] if s["kind"] == "phrase" else f"{s['card']}:{s['reading']}"
        for s in steps
        if s["kind"] not in ("pause", "wait")
    ]
    assert page.eval_on_selector("#reader", "el => el.dataset.queued") == "0"  # nothing to send
    assert not ReadingLogEntry.objects.exists()


def dataset(page, name):
    return page.eval_on_selector("#reader", f"el => el.dataset.{name} || ''")


def lines(session):
    return list(ReadingLogEntry.objects.filter(session=session).order_by("seq").values_list("kind", "card", "reading"))


def wait_sent(page):
    page.wait_for_function("() => document.getElementById('reader').dataset.queued === '0'", timeout=30000)


def test_a_page_opened_again_continues_from_the_next_card_and_says_so(new_context, live_server, reading):
    session, token = reading
    page = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP").new_page()
    url = f"{live_server.url}/reader/{token}/{session.pk}/"
    page.goto(url)  # normal timing: 4 s between cards
    page.click("button[data-act=start]")
    first, second = session.order[:2]
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{first}:second')")
    page.reload()  # the tablet slept / the page was swiped
    button = page.locator("button[data-act=continue]")
    button.wait_for(state="visible")
    assert page.is_hidden("button[data-act=start]")
    assert second in button.inner_text() and "2" in button.inner_text()
    assert page.inner_text("#reader-kana") == first  # still shown large
    button.click()
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{second}:first')")
    wait_sent(page)
    logged = lines(session)
    assert ("reopened", second, "") in logged
    assert [line for line in logged if line[1] == first and line[0] == "read"] == [
        ("read", first, "first"),
        ("read", first, "second"),
    ]
    assert [line[0] for line in logged].count("phrase") == 2  # では、始めます once, then 次、読みます


def test_a_page_opened_on_another_device_continues_from_the_servers_log(new_context, live_server, reading):
    session, token = reading
    first, second = session.order[:2]
    sessions.record_lines(
        session,
        [
            {"seq": 1, "kind": "phrase", "key": "phrase:start", "at": int(time.time() * 1000)},
            {"seq": 2, "kind": "read", "card": first, "reading": "first", "at": int(time.time() * 1000)},
        ],
    )
    page = new_context(viewport={"width": 800, "height": 1280}, locale="ja-JP").new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.click("button[data-act=continue]")
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{second}:first')")
    assert dataset(page, "played").split()[0] == f"{first}:second"  # its 2nd reading, not the 1st again


def test_skip_between_cards_names_the_card_first_and_pause_cuts_a_reading(new_context, live_server, reading):
    session, token = reading
    first, second, third = session.order[:3]
    page = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP").new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/")
    page.click("button[data-act=start]")
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{first}:second')")
    page.click("button[data-act=pause]")  # between cards: nothing was cut
    page.click("button[data-act=skip]")
    assert dataset(page, "skipPending") == second  # named first, not skipped
    assert second in page.inner_text("button[data-act=skip]")
    page.click("button[data-act=skip]")  # the second press skips it
    assert dataset(page, "skipPending") == ""
    page.click("button[data-act=resume]")
    page.wait_for_function(
        f"() => document.getElementById('reader').dataset.state === 'playing' && "
        f"document.getElementById('reader-kana').textContent === '{third}'",
        timeout=30000,
    )
    page.click("button[data-act=pause]")  # the 1st reading of the third card under way: cut
    page.click("button[data-act=resume]")
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{third}:first')")
    wait_sent(page)
    logged = lines(session)
    assert ("skip", second, "") in logged
    assert ("cut", third, "first") in logged
    assert logged.count(("read", third, "first")) == 1  # counted once, when read whole
    assert not [line for line in logged if line[1] == second and line[0] != "skip"]


def test_a_refused_line_is_dropped_with_a_note_and_a_revoked_link_is_said(new_context, live_server, reading):
    session, token = reading
    page = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP").new_page()

    def refuse_the_end(route):
        if '"end"' in (route.request.post_data or ""):
            route.fulfill(status=400, content_type="application/json", body='{"error": "Log line 1: wrong."}')
        else:
            route.continue_()

    page.route("**/lines/", refuse_the_end)
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.click("button[data-act=start]")
    to_the_end(page)
    wait_sent(page)  # not jammed: the refused line left the queue
    assert dataset(page, "refused") == "1"
    assert page.locator("#reader-read li[data-kind=refused]").count() == 1
    assert ReadingLogEntry.objects.filter(session=session, kind="read").exists()
    assert not ReadingLogEntry.objects.filter(session=session, kind="end").exists()

    # The link is revoked while a reading page is open: its next lines get 410.
    other = sessions.start_reading(
        session.edition, session.event, unreadable=[], pauses=sequence.Timing(2, 4), court=session.court, seed=3
    )
    page2 = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP").new_page()
    page2.goto(f"{live_server.url}/reader/{token}/{other.pk}/?fast=1")
    sessions.change_link(session.court, "revoke")
    page2.click("button[data-act=start]")
    to_the_end(page2)  # the reading goes on locally
    page2.wait_for_function("() => document.getElementById('reader').dataset.revoked === '1'", timeout=30000)
    assert "本部" in page2.inner_text("#reader-status") or "desk" in page2.inner_text("#reader-status")


def test_the_reader_page_of_an_event_fits_1024_and_prints_whole_cards(
    new_page, live_server, reading, django_user_model
):
    session, _token = reading
    event = session.event
    for _ in range(3):
        event.courts.create(name=f"第{event.courts.count() + 1}コート")
    event.organisers.add(django_user_model.objects.create_user("organiser", password="karuta-test-pw"))
    page = new_page(viewport={"width": 1024, "height": 768}, locale="ja-JP")
    log_in(page, live_server, "organiser", "karuta-test-pw", f"/manage/{event.slug}/reader/")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    page.emulate_media(media="print")
    assert page.evaluate(
        "() => [...document.querySelectorAll('.reader-url')].every(p => p.scrollWidth <= p.clientWidth + 1)"
    )
    assert page.evaluate(
        "() => [...document.querySelectorAll('.grid > .card')].every(c => getComputedStyle(c).breakInside === 'avoid')"
    )


def test_while_paused_again_is_read_once_on_resume_and_skip_skips_each_card_once(new_context, live_server, reading):
    """docs/rules/reader.md, "While paused": もう一度 pressed twice is one extra reading on
    resume (said in the list); とばす pressed twice skips the card once, then names the next."""
    session, token = reading
    first, second, third = session.order[:3]
    page = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP").new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/")  # normal timing: 2 s between readings
    page.click("button[data-act=start]")
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{first}:first')")
    page.click("button[data-act=pause]")
    wait_state(page, "paused")
    page.click("button[data-act=again]")
    page.click("button[data-act=again]")
    assert page.locator("#reader-read li[data-kind=again-queued]").count() == 1
    page.click("button[data-act=resume]")
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{second}:first')")
    page.click("button[data-act=pause]")
    wait_state(page, "paused")
    page.click("button[data-act=skip]")  # skips the second card (its 2nd reading is left)
    page.click("button[data-act=skip]")  # names the third card, skips nothing
    assert dataset(page, "skipPending") == third
    wait_sent(page)
    logged = lines(session)
    assert logged.count(("again", first, "again")) == 1
    assert dataset(page, "played").split().count(f"{first}:again") == 1
    assert [line for line in logged if line[0] == "skip"] == [("skip", second, "")]


def test_a_second_device_lists_the_cards_the_first_one_read(new_context, live_server, reading):
    session, token = reading
    first, second = session.order[:2]
    now = int(time.time() * 1000)
    sessions.record_lines(
        session,
        [
            {"seq": 1, "kind": "phrase", "key": "phrase:start", "at": now},
            {"seq": 2, "kind": "read", "card": first, "reading": "first", "at": now},
            {"seq": 3, "kind": "read", "card": first, "reading": "second", "at": now},
            {"seq": 4, "kind": "skip", "card": second, "at": now},
        ],
    )
    page = new_context(viewport={"width": 800, "height": 1280}, locale="ja-JP").new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.locator("button[data-act=continue]").wait_for(state="visible")
    listed = page.eval_on_selector_all(
        "#reader-read li",
        "items => items.map(li => [li.dataset.card || '', li.dataset.reading || '', li.dataset.kind || ''])",
    )
    assert listed == [["", "", "skip"], [first, "second", ""], [first, "first", ""]]  # newest first
    assert second in page.inner_text("#reader-read")


def test_a_practice_game_reloaded_continues_with_its_order_and_list(new_page, live_server, transactional_db):
    """The tablet slept: the practice game's order, position and list are kept in this browser;
    "continue" goes on with the same order, Start begins a new game."""
    make_deck("かきくけこ", slug="school")
    page = new_page(viewport={"width": 800, "height": 1280}, locale="ja-JP")
    url = f"{live_server.url}/reader/practice/?edition=school"  # normal timing: 4 s between cards
    page.goto(url)
    order = page.evaluate("() => JSON.parse(document.getElementById('reader-plan').textContent).order")
    first, second = order[:2]
    page.click("button[data-act=start]")
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{first}:second')")
    page.reload()
    button = page.locator("button[data-act=continue]")
    button.wait_for(state="visible")
    assert second in button.inner_text() and "2" in button.inner_text()
    assert page.locator(f"#reader-read li[data-card='{first}']").count() == 2  # its two readings
    button.click()
    page.wait_for_function(f"() => document.getElementById('reader').dataset.played.includes('{second}:first')")
    assert dataset(page, "played").split()[0] == "phrase:next"  # on from 次、読みます, not from the start
    page.reload()
    page.locator("button[data-act=continue]").wait_for(state="visible")
    page.click("button[data-act=start]")  # a new game: the kept one is dropped
    page.wait_for_function("() => document.getElementById('reader').dataset.played.includes('phrase:start')")
    assert page.is_hidden("button[data-act=continue]")
    assert page.locator("#reader-read li[data-card]").count() <= 2


def test_the_reader_waits_at_the_last_two_cards_until_continue_is_tapped(new_context, live_server, reading):
    """Issue 33 item 2: after 「札の確認をします」 and the two confirming readings the reader
    stops and shows 「2枚を中央に30cm離して置いたら『続ける』」 with the three mismatch cases;
    nothing plays (not even after a long while) until 「続ける」 is tapped; a case tapped says
    what the referee does, is logged, and the reader keeps waiting."""
    session, token = reading
    page = new_context(viewport={"width": 800, "height": 1280}, locale="ja-JP").new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.click("button[data-act=start]")
    wait_state(page, "waiting")
    last_a, last_b = session.order[-2:]
    played = dataset(page, "played").split()
    assert played[-3:] == ["phrase:check", f"{last_a}:check", f"{last_b}:check"]
    box = page.locator("#reader-wait")
    assert box.is_visible()
    assert "2枚を中央に30cm離して置いたら『続ける』" in page.inner_text("#reader-wait-title")
    assert page.inner_text("button[data-act=placed]") == "続ける"
    cases = page.locator("button[data-act=mismatch]")
    assert cases.count() == 3
    assert "余分な札は審判が回収" in cases.nth(0).inner_text()
    assert "足りない札は審判が用意" in cases.nth(1).inner_text()
    assert "正しい札を用意" in cases.nth(2).inner_text()
    time.sleep(3)  # fast timing: every pause is ~5 ms, yet nothing plays while waiting
    assert dataset(page, "played").split() == played and dataset(page, "state") == "waiting"
    assert page.locator("button[data-act=pause]").is_disabled()
    cases.nth(0).click()
    assert "余分な札は審判が回収" in page.inner_text("#reader-wait-action")
    time.sleep(1)
    assert dataset(page, "state") == "waiting" and dataset(page, "played").split() == played
    shot(page, "reader-last-two-waiting")
    page.click("button[data-act=placed]")
    wait_state(page, "finished")
    assert box.is_hidden()
    assert dataset(page, "played").split()[len(played) :] == ["phrase:next", f"{last_a}:first", f"{last_a}:second"]
    wait_sent(page)
    kinds = list(ReadingLogEntry.objects.filter(session=session).values_list("kind", "reading"))
    at = kinds.index(("mismatch", "more"))
    assert kinds[at + 1] == ("placed", "") and kinds[at + 2] == ("phrase", "")


# What the version before the one outbox (issue 30) kept: the reading's lines under its own key,
# "reader-log:<reading>:<seed>" = {seq, queue: [line …]}.
MOVE_BACK = """(store) => {
  const names = Object.keys(localStorage).filter(k => k.startsWith('karuta.outbox:' + store + ':'));
  const queue = names.map(k => JSON.parse(localStorage.getItem(k)).line).sort((a, b) => a.seq - b.seq);
  names.forEach(k => localStorage.removeItem(k));
  localStorage.setItem(store, JSON.stringify({ seq: queue[queue.length - 1].seq, queue: queue }));
  return queue.length;
}"""


def test_log_lines_kept_by_the_version_before_reach_the_server_after_the_upgrade(new_context, live_server, reading):
    session, token = reading
    context = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    page.wait_for_function(
        "() => { const d = document.getElementById('reader').dataset; return d.cached === d.audioTotal; }"
    )
    store = dataset(page, "store")
    context.set_offline(True)
    page.click("button[data-act=start]")
    to_the_end(page)
    held = int(dataset(page, "queued"))
    page.close()
    context.set_offline(False)
    other = context.new_page()
    other.goto(f"{live_server.url}/no-such-page/")  # the same origin, no reader on the page
    assert other.evaluate(MOVE_BACK, store) == held > 10
    assert not ReadingLogEntry.objects.filter(session=session).exists()
    other.goto(f"{live_server.url}/reader/{token}/{session.pk}/?fast=1")
    wait_sent(other)
    assert len(lines(session)) == held and lines(session)[-1] == ("end", "", "")
    assert other.evaluate(f"() => localStorage.getItem('{store}')") is None
