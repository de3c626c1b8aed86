"""Sanjô Dôsai as a new user tries it, in a real browser at tablet size (768×1024).

Make an edition from Matsui Tengudô and fill in the missing values through the page, make a
six-player session, let the app deal and read a full hand (50 × "read next"), undo one call
and read it again, and check that the ledger on the page equals the engine's replay of the
stored calls. Skipped where Chromium or Playwright is missing, except under CI=true
(tests/browser/conftest.py). Screenshots go to test-artifacts/screenshots/.
"""

from dosai import services
from dosai.engine.calls import call_sequence
from dosai.engine.facts import IN_PLAY
from dosai.engine.hand import House, new_hand
from dosai.engine.options import Options, options_from_dict
from dosai.engine.settlement import net_by_player, settle_hand, total_payments
from dosai.models import ClubEdition, Hand, Session
from tests.browser import support
from tests.browser.support import go_back, shot
from tests.dosai.factories import PLAYERS6, club_values, make_session


def submit(page, selector):
    """Click a submit button and wait for the page it leads to (POST, redirect, GET)."""
    with page.expect_navigation():
        # Enter on the focused button: a click right after a full-page screenshot can land
        # on stale coordinates in headless Chromium.
        page.locator(selector).focus()
        page.keyboard.press("Enter")


def engine_ledger(hand):
    """House and player totals of the stored hand, computed with the engine directly."""
    options = options_from_dict(hand.session.options)
    houses = [House(h["name"], h["head"], h["upper"], h["middle"], h["lower"]) for h in hand.houses]
    points = {int(k): v for k, v in hand.points.items()}
    state = new_hand(houses, points, options, holdings=hand.holdings)
    results = call_sequence(state, hand.calls, options)
    settlement = settle_hand(results[-1].state, options)
    totals = total_payments([*results, settlement])
    return totals, net_by_player(totals, hand.holdings)


def page_totals(page, table, key):
    rows = page.locator(f"#{table} tr[data-{key}]")
    return {
        rows.nth(i).get_attribute(f"data-{key}"): int(rows.nth(i).locator("td.total").inner_text())
        for i in range(rows.count())
    }


def test_a_new_user_reads_a_full_hand_with_six_players(new_page, live_server, django_user_model, transactional_db):
    django_user_model.objects.create_user("reader", password="karuta-test-pw")
    page = new_page(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    errors = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, live_server, "/games/dosai/")
    shot(page, "dosai-1-home")

    page.goto(live_server.url + "/games/dosai/editions/new/")
    page.check("input[name=base][value=matsui]")
    submit(page, "main form button")
    assert "/games/dosai/editions/" in page.url
    for number, points in club_values().items():
        page.fill(f"input[name=n_{number}]", str(points))
    assert page.locator("#classes tr.short, #classes tr.over").count() == 0  # the live counts
    shot(page, "dosai-2-edition-filled")
    submit(page, "#values button.big-submit")
    shot(page, "dosai-2b-edition-saved")
    assert page.locator("#status.dosai-ready").count() == 1

    page.goto(live_server.url + "/games/dosai/sessions/new/")
    page.fill("#id_title", "初めての道才")
    for i, name in enumerate(PLAYERS6, start=1):
        page.fill(f"#id_player_{i}", name)
    page.click("details summary")
    shot(page, "dosai-3-session-new")
    submit(page, "main form button.big-submit")
    assert "/games/dosai/sessions/" in page.url
    page.check("input[name=dealing][value=app]")
    page.check("input[name=reader][value=app]")
    submit(page, "#deal button")
    assert "/hands/1/" in page.url
    shot(page, "dosai-4-dealt")

    eat_shot = False
    for k in range(1, 51):
        number = int(page.inner_text("#next-number"))
        submit(page, "#read-next")
        assert page.inner_text("#last-call h2").startswith(f"{k}") or f"{number}" in page.inner_text("#last-call h2")
        if not eat_shot and page.locator("#now .dosai-announce.eat").count():
            eat_shot = True
            shot(page, "dosai-5b-eat-pending")
        if k == 5:
            assert page.locator("#last-call .dosai-announce.hako").count() == 1
            shot(page, "dosai-5-hako")
    assert page.locator("#settlement").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 768  # nothing sticks out at tablet size
    shot(page, "dosai-6-end")

    hand = Hand.objects.get()
    last = hand.calls[-1]
    submit(page, "#undo")
    assert page.locator("#settlement").count() == 0
    assert int(page.inner_text("#next-number")) == last
    assert len(Hand.objects.get().calls) == 49
    submit(page, "#read-next")
    assert page.locator("#settlement").count() == 1

    hand = Hand.objects.select_related("session").get()
    assert len(hand.calls) == 50 and hand.calls[-1] == last
    houses, players = engine_ledger(hand)
    assert page_totals(page, "ledger-houses", "house") == houses
    assert page_totals(page, "ledger-players", "player") == players
    assert sum(players.values()) == 0
    page.goto(live_server.url + f"/games/dosai/sessions/{hand.session_id}/")
    assert page.locator("#deal").count() == 1  # the next hand may be dealt
    shot(page, "dosai-6b-session")
    go_back(page)
    page.set_viewport_size({"width": 390, "height": 844})
    shot(page, "dosai-7-end-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert not errors, errors


def test_a_person_reads_and_the_reader_taps_the_numbers(new_page, live_server, django_user_model, transactional_db):
    user = django_user_model.objects.create_user("reader", password="karuta-test-pw")
    session = make_session(user, players=PLAYERS6[:4])
    services.start_hand(session, dealing="app", reader="human")
    page = new_page(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, live_server, f"/games/dosai/sessions/{session.pk}/hands/1/")
    for number in (30, 5, 2):
        submit(page, f"button.dosai-key[value='{number}']")
    assert page.locator("button.dosai-key[value='30']").count() == 0
    shot(page, "dosai-8-human-reader")
    assert Hand.objects.get().calls == [30, 5, 2]
    text = page.inner_text("#last-call")
    assert "2" in text
    page.goto(live_server.url + f"/games/dosai/sessions/{session.pk}/deal/?dealing=entered")
    numbers = sorted(IN_PLAY)
    for h in range(1, 7):
        c = numbers[(h - 1) * 10 : h * 10]
        page.select_option(f"#id_{h}_holder", PLAYERS6[(h - 1) % 4])
        for row, cards in (("head", c[:1]), ("upper", c[1:4]), ("middle", c[4:7]), ("lower", c[7:])):
            page.fill(f"#id_{h}_{row}", " ".join(map(str, cards)))
    page.fill("#id_2_upper", "12 13 8")  # no. 8 is not dealt, and no. 14 is then missing
    submit(page, "main form button.big-submit")
    assert page.locator(".errorlist").count() > 0  # refused, named, nothing saved
    assert Hand.objects.count() == 1
    shot(page, "dosai-9-layout-errors")
    assert page.evaluate("document.documentElement.scrollWidth") <= 768


def log_in(page, live_server, path):
    support.log_in(page, live_server, "reader", "karuta-test-pw", path)


def hand_and_tablets(new_context, django_user_model, players=4, reader="app", **kwargs):
    """A dealt hand of a new session of the "reader" user, the path of its reader screen and
    a browser context (tablets sharing one login) at 768×1024 in Japanese."""
    user = django_user_model.objects.create_user("reader", password="karuta-test-pw")
    session = make_session(user, players=PLAYERS6[:players], **kwargs)
    hand = services.start_hand(session, dealing="app", reader=reader)
    context = new_context(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    return hand, f"/games/dosai/sessions/{session.pk}/hands/1/", context


def test_a_second_tablet_shows_the_call_recorded_on_the_first(
    new_context, live_server, django_user_model, transactional_db
):
    _hand, path, context = hand_and_tablets(new_context, django_user_model)
    first, second = context.new_page(), context.new_page()
    errors = []
    for page in (first, second):
        page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    log_in(first, live_server, path)
    second.goto(live_server.url + path)
    assert second.locator("#last-call").count() == 0
    submit(first, "#read-next")
    recorded = Hand.objects.get().calls
    assert len(recorded) == 1
    # Within a few seconds the second tablet reloads on its own and says why.
    second.locator("#last-call").wait_for(timeout=10_000)
    second.locator("#dosai-live").wait_for(state="visible", timeout=5_000)  # shown by the script after the reload
    assert "別のタブレットで読みが記録されました" in second.inner_text("#dosai-live")
    assert second.inner_text("#next-number") == first.inner_text("#next-number")
    assert f"{recorded[0]}番" in second.inner_text("#last-call h2")
    shot(second, "dosai-10-second-tablet")
    # Its next tap records the next yomifuda, not a refused stale one.
    submit(second, "#read-next")
    assert len(Hand.objects.get().calls) == 2
    assert second.locator("#dosai-live").is_hidden()
    assert not errors, errors
    context.close()


def test_a_second_tablet_keeps_asking_after_the_wifi_drops(
    new_context, live_server, django_user_model, transactional_db
):
    _hand, path, context = hand_and_tablets(new_context, django_user_model)
    page = context.new_page()
    log_in(page, live_server, path)
    asked = []

    def no_network(route):
        asked.append(route.request.url)
        route.abort("internetdisconnected")

    # The page asks every 4 s: wait for the first question that gets no answer.
    with page.expect_event("requestfailed", lambda request: "state.json" in request.url, timeout=15_000):
        page.route("**/state.json", no_network)
    assert asked  # it asked, and got no answer
    page.unroute("**/state.json")
    other = context.new_page()  # another tablet records a call
    other.goto(live_server.url + path)
    submit(other, "#read-next")
    assert len(Hand.objects.get().calls) == 1
    page.locator("#last-call").wait_for(timeout=20_000)  # asked again after the drop, and reloaded
    page.locator("#dosai-live").wait_for(state="visible", timeout=5_000)
    assert "別のタブレットで読みが記録されました" in page.inner_text("#dosai-live")
    context.close()


def test_a_tablet_says_so_when_its_hand_was_deleted_on_another(
    new_context, live_server, django_user_model, transactional_db
):
    hand, path, context = hand_and_tablets(new_context, django_user_model)
    page = context.new_page()
    log_in(page, live_server, path)
    services.delete_session(hand.session, hands=1, calls=0)  # on another tablet
    live = page.locator("#dosai-live")
    live.wait_for(state="visible", timeout=10_000)
    assert "この回はもうありません" in live.inner_text()
    assert page.locator("#read-next").is_disabled()  # no tap meets a 404
    context.close()


def test_a_second_tablet_keeps_a_choice_being_made_and_offers_the_latest(
    new_context, live_server, django_user_model, transactional_db
):
    hand, path, context = hand_and_tablets(
        new_context, django_user_model, players=3, reader="human", options=Options(end_free_turn="choice")
    )
    for k, n in enumerate([n for n in sorted(IN_PLAY) if n not in (46, 50)][:50]):
        services.record_call(hand, n, k)
    first, second = context.new_page(), context.new_page()
    log_in(first, live_server, path)
    second.goto(live_server.url + path)
    second.check("input[name=turn][value='46']")  # a choice being made on the second tablet
    second.evaluate("window.notReloaded = true")
    first.check("input[name=turn][value='50']")
    submit(first, "#settlement form[action$='/turn-free/'] button")
    assert Hand.objects.get().turn_free == [50]
    live = second.locator("#dosai-live")
    live.wait_for(state="visible", timeout=10_000)
    assert "この画面は古くなっています" in live.inner_text()
    assert second.evaluate("window.notReloaded") is True  # not reloaded under the person's finger
    assert second.is_checked("input[name=turn][value='46']")
    shot(second, "dosai-11-second-tablet-busy")
    with second.expect_navigation():
        live.locator("button").click()
    assert second.is_checked("input[name=turn][value='50']") and not second.is_checked("input[name=turn][value='46']")
    context.close()


def test_rename_and_delete_a_session_and_its_edition(new_page, live_server, django_user_model, transactional_db):
    user = django_user_model.objects.create_user("reader", password="karuta-test-pw")
    session = make_session(user, players=PLAYERS6[:4])
    hand = services.start_hand(session, dealing="app", reader="app")
    for k in range(7):
        services.record_call(hand, None, k)
    edition = session.edition
    page = new_page(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    page.on("dialog", lambda dialog: dialog.accept())
    errors = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    log_in(page, live_server, f"/games/dosai/sessions/{session.pk}/")

    page.click("#manage summary")
    page.fill("#rename_title", "   ")  # blank passes the browser's own check, not the server's
    submit(page, "#manage form button")
    assert (
        page.locator("#rename .errorlist").inner_text() == "対局名：対局名を入力してください。"
    )  # Japanese punctuation (issue 22)
    shot(page, "dosai-12-rename-refused")
    page.fill("#id_title", "火曜の会")
    submit(page, "#rename button")
    assert page.inner_text("h1") == "火曜の会"

    page.goto(live_server.url + f"/games/dosai/editions/{edition.pk}/delete/")
    assert page.locator("#in-use").count() == 1 and page.locator("#delete-now").count() == 0
    shot(page, "dosai-13-edition-in-use")

    page.goto(live_server.url + f"/games/dosai/sessions/{session.pk}/")
    page.click("#manage summary")
    shot(page, "dosai-14-session-manage")
    with page.expect_navigation():
        page.click("#delete")
    assert "読み7回" in page.inner_text("#losses")
    shot(page, "dosai-15-session-delete")
    submit(page, "#delete-now")
    assert page.url == live_server.url + "/games/dosai/"
    assert "対局「火曜の会」を削除しました。" in page.inner_text(".messages")
    assert not Session.objects.exists()

    page.goto(live_server.url + f"/games/dosai/editions/{edition.pk}/")
    page.click("#manage summary")
    with page.expect_navigation():
        page.click("#delete")
    shot(page, "dosai-16-edition-delete")
    submit(page, "#delete-now")
    assert "版「Matsui Tengudô」を削除しました。" in page.inner_text(".messages")
    assert not ClubEdition.objects.exists()
    assert page.evaluate("document.documentElement.scrollWidth") <= 768
    assert not errors, errors
