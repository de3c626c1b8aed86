"""A new user keeps score of a 12-round Musashino-bana evening on a tablet (768×1024, Chromium).

Log in, create a 3-player session, enter 12 rounds by tapping the 48-card grid (with the
"remaining cards" shortcut, an insta-win round and rounds with several dekiyaku), correct
an earlier round, and check that the settlement on the page is the engine's ``settle()``
of the same captures. Skipped where Chromium or Playwright is missing, except under
CI=true. Screenshots go to test-artifacts/screenshots/hanafuda-*.png.
"""

from hanafuda import services
from hanafuda.engine.deck import CARD_BY_ID
from hanafuda.engine.options import Options
from hanafuda.engine.scoring import score_round
from hanafuda.engine.settlement import settle
from hanafuda.models import Round
from tests.browser.support import go_back, log_in, shot
from tests.hanafuda.helpers import months, new_session
from tests.hanafuda.test_capture_order import CRANE_FIRST, MB4, STORM_FIRST, SUN_AFTER, engine

PASSWORD = "hanafuda-test-pw"
PLAYERS = ["あき", "ふゆ", "なつ"]
# Per round: the cards tapped for each side, then the side that gets the remaining cards.
PLAN = [
    ({0: months(1, 3, 8, 12), 1: months(2, 4, 11)}, 2),  # Three Brights, Large Birds, Small Birds, pots
    ({0: months(6, 7, 10), 1: months(1, 2)}, 2),
    ({1: months(1, 3, 5, 7), 2: months(6, 9, 10, 11)}, 0),
    # Seven Red Ribbons for ふゆ stops the round: only the cards captured so far are tapped.
    ({0: [10, 12], 1: [11, 13, 21, 22, 31, 32, 41, 42, 51, 52, 71, 72, 112, 113], 2: [20, 23]}, None),
    ({2: months(1, 8, 12)}, 1),
    ({0: months(1, 6, 9), 1: months(4, 5)}, 2),
    ({1: months(2, 4, 11, 7)}, 0),
    ({0: [10, 11, 80, 81, 120, 121], 1: months(3, 9)}, 2),
    ({2: months(1, 3, 8, 11, 12)}, 0),  # Five Kings for なつ
    ({0: months(5, 6, 7), 1: months(8, 9, 10)}, 2),
    ({1: months(1, 2, 3)}, 0),
    ({0: months(10, 12), 2: months(4, 6)}, 1),
]
# The correction of round 2: the piles of あき and ふゆ were swapped.
CORRECTED_ROUND = 2
CORRECTION = ({1: months(6, 7, 10), 0: months(1, 2)}, 2)


def piles(plan):
    taps, rest = plan
    out = [sorted(taps.get(i, [])) for i in range(3)]
    if rest is not None:
        given = {c for p in out for c in p}
        out[rest] = sorted(out[rest] + [c for c in CARD_BY_ID if c not in given])
    return out


def tap_round(page, plan):
    taps, rest = plan
    for side, cards in taps.items():
        page.click(f".round-form .side-button[data-side='{side}']")
        for card in cards:
            page.click(f".round-form .hcard[data-card='{card}'] .face")
    if rest is not None:
        page.click(f".round-form .rest-button[data-side='{rest}']")


def wait_for_the_servers_preview(page):
    """Wait until the live summary shows the server's scoring of the taps the grid shows now.

    grid.js numbers every preview it asks for (``data-preview-asked``, set at the tap) and
    marks the number whose answer the summary shows (``data-preview-answered``); an answer
    to earlier taps does not count. Times out (Playwright's 30 s) if the server never answers.
    """
    page.wait_for_function(
        "s => s.dataset.previewAsked !== undefined && s.dataset.previewAnswered === s.dataset.previewAsked",
        arg=page.locator(".live-summary").element_handle(),
    )


def test_a_twelve_round_evening_on_a_tablet_ends_with_the_engines_settlement(
    new_page, live_server, django_user_model, transactional_db
):
    django_user_model.objects.create_user("scorer", password=PASSWORD)
    page = new_page(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    errors = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.on("pageerror", lambda e: errors.append(f"JS: {e}"))
    log_in(page, live_server, "scorer", PASSWORD, "/games/hanafuda/")
    shot(page, "hanafuda-1-list")
    with page.expect_navigation():
        page.click("a[href$='/games/hanafuda/new/']")
    page.fill("#id_title", "冬の花札会")
    for i, name in enumerate(PLAYERS, start=1):
        page.fill(f"#id_player_{i}", name)
    # The first dealer by drawing cards (the earliest month deals, docs/hanafuda.md). あき and ふゆ draw the
    # two pine chaff cards, equal cards: they draw again (musashino-bana.md l.12), and あき draws the Crane.
    page.click("details.draws summary")
    for i, card in enumerate(("12", "13", "91"), start=1):
        page.select_option(f"#id_draw_player_{i}", card)
    shot(page, "hanafuda-2-new-session")
    with page.expect_navigation():  # reading the page before the answer has loaded reads the old one
        page.click("main form .big-submit")
    assert "あき、ふゆの札は同じ月の同じ格（1月 松 ・ カス）です。" in page.inner_text(".form-error")
    assert page.locator("details.draws[open] .redraw").is_visible()
    assert page.locator("#id_draw_player_3").count() == 0  # なつ does not draw again
    page.select_option("#id_draw_player_1", "10")
    page.select_option("#id_draw_player_2", "52")
    shot(page, "hanafuda-2b-re-draw")
    with page.expect_navigation():
        page.click("main form .big-submit")
    assert "引き直し" in page.inner_text(".draws-done")
    assert "第1回を入力" in page.inner_text("main")
    assert "あきがいちばん早い札を引いた" in page.inner_text(".messages")
    session_url = page.url

    for number, plan in enumerate(PLAN, start=1):
        with page.expect_navigation():
            page.click("a.big-submit")
        assert page.locator(".hcard").count() == 48
        tap_round(page, plan)
        summary = page.inner_text(".live-summary")
        if number == 1:
            assert "三光" in summary and "大鳥" in summary  # the live preview
            shot(page, "hanafuda-3-round-1-tapped")
        if number == 4:
            assert page.locator(".live-summary .insta-banner").is_visible() and "七夕" in summary
            shot(page, "hanafuda-4-insta-win-tapped")
        with page.expect_navigation():
            page.click("button[name=save]")
        assert page.url.endswith(f"/rounds/{number}/"), page.inner_text("main")[:500]
        if number == 4:
            assert "一発勝ち" in page.inner_text(".insta-banner")
            shot(page, "hanafuda-5-insta-win-result")
        if number == 1:
            shot(page, "hanafuda-6-round-1-result")
        page.goto(session_url)
    shot(page, "hanafuda-7-session-after-12")
    assert "全回が終わりました" in page.inner_text("main")

    # A wrong entry is refused with the problem named, and the taps are kept.
    page.goto(f"{session_url}rounds/{CORRECTED_ROUND}/")
    page.click("details.correction summary")
    page.click(".round-form .side-button[data-side='1']")
    page.click(".round-form .hcard[data-card='60'] .face")  # one peony card only: an odd pile
    with page.expect_navigation():
        page.click("button[name=save]")
    assert "保存されていません" in page.inner_text(".form-error") and "牡丹" in page.inner_text(".form-error")
    assert page.get_attribute(".round-form .side-button[data-side='1']", "aria-pressed") == "true"  # side kept
    shot(page, "hanafuda-8-correction-error")

    # The correction: round 2's piles of あき and ふゆ were swapped.
    page.goto(f"{session_url}rounds/{CORRECTED_ROUND}/")
    page.click("details.correction summary")
    tap_round(page, CORRECTION)
    with page.expect_navigation():
        page.click("button[name=save]")
    assert "訂正しました" in page.inner_text(".messages")
    page.goto(f"{session_url}history/")
    assert "訂正" in page.inner_text("main table.history")
    shot(page, "hanafuda-9-history")

    # The settlement equals the engine's for the same captures (dealer = previous winner).
    played = [piles(p) for p in PLAN]
    played[CORRECTED_ROUND - 1] = piles(CORRECTION)
    options = Options()
    dealer, results = 0, []
    for captures in played:
        result = score_round(dict(enumerate(captures)), options, dealer=dealer)
        results.append(result)
        dealer = result.next_dealer
    expected = settle(results, options)
    assert expected.complete and any(r.insta_win for r in results)
    page.goto(f"{session_url}settlement/")
    shot(page, "hanafuda-10-settlement")
    rows = page.locator("table.settlement-totals tr").all_inner_texts()[1:]
    shown = {line.split("\t")[0].strip(): int(line.split("\t")[1].strip()) for line in rows}
    assert shown == {PLAYERS[u]: total for u, total in expected.totals.items()}
    transfers = page.locator("table.transfers tr").all_inner_texts()[1:]
    assert [t.split("\t") for t in transfers] == [
        [PLAYERS[t.payer], PLAYERS[t.payee], str(t.amount)] for t in expected.transfers
    ]
    # The dealer of every round is the winner of the one before, after the correction too.
    page.goto(session_url)
    dealers = page.locator("table.rounds tr td:nth-child(2)").all_inner_texts()
    assert dealers == [PLAYERS[r.dealer] for r in results]
    assert not errors, errors


def test_the_grid_in_english_and_without_javascript(new_context, live_server, django_user_model, transactional_db):
    user = django_user_model.objects.create_user("scorer", password=PASSWORD)
    session = services.create_session(user, "Club night", ["Ann", "Ben", "Cy"], Options(rounds=3))
    for locale, js in (("en-US", True), ("ja-JP", False)):
        context = new_context(viewport={"width": 768, "height": 1024}, locale=locale, java_script_enabled=js)
        page = context.new_page()
        log_in(page, live_server, "scorer", PASSWORD, "/games/hanafuda/")
        page.goto(f"{live_server.url}/games/hanafuda/{session.pk}/rounds/new/")
        if js:
            page.click(".round-form .side-button[data-side='1']")
            for card in months(1, 3):
                page.click(f".round-form .hcard[data-card='{card}'] .face")
            assert "Ben" in page.inner_text(".live-summary")
            shot(page, "hanafuda-11-grid-english")
        else:
            # Without JavaScript: one radio group per card and the "remaining cards" menu.
            assert not page.locator(".side-picker").is_visible()
            for card in months(1, 3):
                page.check(f"input[name='c{card}'][value='1']")
            page.select_option("select[name=rest]", "2")
            shot(page, "hanafuda-12-grid-no-js")
            with page.expect_navigation():
                page.click("button[name=save]")
            assert page.url.endswith("/rounds/1/") and "保存しました" in page.inner_text(".messages")
        context.close()
    assert session.round_set.get().captures == [[], months(1, 3), sorted(set(CARD_BY_ID) - set(months(1, 3)))]


def test_the_back_button_never_sends_cards_the_grid_does_not_show(
    new_page, live_server, django_user_model, transactional_db
):
    """Field report: after saving round 1, Back showed round 2 with an empty grid while the
    browser had restored round 1's radio choices; saving made round 2 a copy of round 1."""
    user = django_user_model.objects.create_user("scorer", password=PASSWORD)
    session = new_session(user, rounds=3)
    page = new_page(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    log_in(page, live_server, "scorer", PASSWORD, "/games/hanafuda/")
    page.goto(f"{live_server.url}/games/hanafuda/{session.pk}/rounds/new/")
    page.click(".round-form .rest-button[data-side='0']")
    page.click("button[name=save]")
    page.wait_for_url("**/rounds/1/")
    go_back(page)
    checked = page.evaluate(
        "Array.from(document.querySelectorAll('.round-form input[type=radio]:checked')).filter(r => r.value !== '').length"
    )
    shown = page.locator(".round-form .hcard.taken").count()
    assert checked == shown == 0  # what is sent is what is shown: nothing yet for round 2
    with page.expect_navigation():
        page.click("button[name=save]")
    assert page.locator(".form-error").is_visible()
    assert Round.objects.filter(session=session).count() == 1


def test_rules_that_depend_on_the_order_are_entered_capture_by_capture(
    new_page, live_server, django_user_model, transactional_db
):
    """M10(b): the Sun rule counts only a Crane taken after the storm card, so the grid
    records the order of the taps; a taken card tapped again leaves the order."""
    user = django_user_model.objects.create_user("scorer", password=PASSWORD)
    session = new_session(user, options=SUN_AFTER)
    page = new_page(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    errors = []
    page.on("pageerror", lambda e: errors.append(f"JS: {e}"))
    log_in(page, live_server, "scorer", PASSWORD, "/games/hanafuda/")
    page.goto(f"{live_server.url}/games/hanafuda/{session.pk}/rounds/new/")
    assert page.locator(".order-help").is_visible() and page.locator(".rest-button").count() == 0
    seat = {c: s for s, pile in enumerate(MB4) for c in pile}

    def tap(card):
        page.click(f".round-form .side-button[data-side='{seat[card]}']")
        page.click(f".round-form .hcard[data-card='{card}'] .face")

    def badge(card):
        return page.inner_text(f".round-form .hcard[data-card='{card}'] .seq")

    for card in (10, 11, 110, 113, 12):
        tap(card)
    # The badges number the captures: the two pine cards, the two storm cards, one pine card.
    assert [badge(c) for c in (10, 11, 110, 113, 12)] == ["1", "1", "2", "2", "3"]
    tap(110)  # tapped again for its side: out of the order
    tap(113)
    assert badge(110) == "" and [badge(c) for c in (10, 11, 12)] == ["1", "1", "1"]
    page.on("dialog", lambda dialog: dialog.accept())  # "Clear every tap of this round?"
    page.click(".round-form .clear-button")
    assert page.input_value("input[name=order]") == ""
    for card in CRANE_FIRST:
        tap(card)
    assert page.input_value("input[name=order]") == " ".join(map(str, CRANE_FIRST))
    assert badge(110) == "2"  # the capture after the four pine cards
    # The preview is the server's scoring of the taps: the storm stands (the Crane came first).
    wait_for_the_servers_preview(page)
    assert "嵐：" in page.inner_text(".live-summary .sum-line.side-1")
    assert "すべての取り決めで計算しました" in page.inner_text(".live-summary")
    # Giving a card to another side keeps its place in the order.
    page.click(".round-form .side-button[data-side='2']")
    page.click(".round-form .hcard[data-card='110'] .face")
    assert page.input_value("input[name=order]") == " ".join(map(str, CRANE_FIRST)) and badge(110) == "2"
    page.click(".round-form .side-button[data-side='0']")
    page.click(".round-form .hcard[data-card='110'] .face")
    # The order can also be typed as card numbers, e.g. to put a forgotten card back in place.
    page.click("details.order-row summary")
    page.fill("input[name=order]", " ".join(map(str, STORM_FIRST)))
    page.dispatch_event("input[name=order]", "change")
    assert badge(110) == "1" and badge(10) == "2"
    page.fill("input[name=order]", " ".join(map(str, CRANE_FIRST)))
    page.dispatch_event("input[name=order]", "change")
    assert badge(110) == "2" and badge(10) == "1"
    assert not page.locator(".order-note").is_visible()
    tap(83)  # untapped, then typed back in its place: left out, and said so
    page.fill("input[name=order]", " ".join(map(str, CRANE_FIRST)))
    page.dispatch_event("input[name=order]", "change")
    assert page.locator(".order-note").is_visible() and "83" in page.inner_text(".order-note")
    tap(83)
    page.fill("input[name=order]", " ".join(map(str, CRANE_FIRST)))
    page.dispatch_event("input[name=order]", "change")
    assert not page.locator(".order-note").is_visible()
    shot(page, "hanafuda-13-capture-order")
    with page.expect_navigation():
        page.click("button[name=save]")
    assert page.url.endswith("/rounds/1/"), page.inner_text("main")[:500]
    row = Round.objects.get(session=session)
    assert row.capture_order[:2] == [[1, [10, 11, 12, 13]], [0, [110, 113]]]
    scores = engine(CRANE_FIRST).scores
    assert [int(t) for t in page.locator(".side-card .score strong").all_inner_texts()] == [scores[s] for s in range(3)]
    assert page.locator(".capture-order li").count() == len(row.capture_order)
    assert not errors, errors


def test_taps_not_yet_saved_survive_a_reload_and_are_forgotten_once_saved(
    new_page, live_server, django_user_model, transactional_db
):
    """A tablet that reloads, loses the connection or has its tab discarded mid-round keeps
    the taps (and their order) until the round is saved."""
    user = django_user_model.objects.create_user("scorer", password=PASSWORD)
    session = new_session(user, options=SUN_AFTER)
    page = new_page(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    log_in(page, live_server, "scorer", PASSWORD, "/games/hanafuda/")
    entry = f"{live_server.url}/games/hanafuda/{session.pk}/rounds/new/"
    page.goto(entry)
    assert not page.locator(".draft-note").is_visible()
    seat = {c: s for s, pile in enumerate(MB4) for c in pile}
    half = CRANE_FIRST[:20]
    for card in half:
        page.click(f".round-form .side-button[data-side='{seat[card]}']")
        page.click(f".round-form .hcard[data-card='{card}'] .face")
    page.reload()
    assert page.locator(".draft-note").is_visible()
    assert page.input_value("input[name=order]") == " ".join(map(str, half))
    assert page.inner_text(".round-form .hcard[data-card='110'] .seq") == "2"
    assert page.locator(".round-form .hcard.taken").count() == len(half)
    for card in CRANE_FIRST[20:]:
        page.click(f".round-form .side-button[data-side='{seat[card]}']")
        page.click(f".round-form .hcard[data-card='{card}'] .face")
    with page.expect_navigation():
        page.click("button[name=save]")
    assert Round.objects.filter(session=session).count() == 1
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('hanafuda-draft:'))") == []
    page.goto(entry)  # round 2: nothing to restore
    assert not page.locator(".draft-note").is_visible() and page.locator(".round-form .hcard.taken").count() == 0
