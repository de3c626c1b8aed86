"""Results that survive a dropped connection, in a real browser (issue 16, item 2).

The tablet loses the Wi-Fi (Playwright's ``set_offline``), the referee saves two games, the
page is reloaded, the network comes back: both results arrive exactly once and the
"この端末に保存済み・未送信" notice goes away. Screenshots go to test-artifacts/screenshots/.
"""

import pytest
from django.core.management import call_command

from judging.models import RecordingSheet
from tests.browser.support import shot
from tournament.models import Court, Match

VIEWPORTS = [(768, 1024), (390, 844)]


@pytest.fixture
def court_games(transactional_db):
    """The demo event drawn and scheduled: the first court's first two games."""
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    court = Court.objects.order_by("pk").first()
    games = [g for g in Match.objects.filter(court=court).order_by("slot", "match_number") if g.teams_known][:2]
    return court, games


def fill(page, a, b):
    page.fill("#id_cards_a", str(a))
    page.fill("#id_cards_b", str(b))
    page.fill("#id_referee_cards", "0")
    page.check("input[name=joker_holder][value=A]" if a >= b else "input[name=joker_holder][value=B]")


def saved(match):
    return list(RecordingSheet.objects.filter(match=match).values_list("version", "cards_a", "cards_b"))


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_two_results_saved_offline_survive_a_reload_and_arrive_exactly_once(
    new_context, live_server, court_games, viewport
):
    court, (first, second) = court_games
    width, height = viewport
    context = new_context(viewport={"width": width, "height": height}, locale="ja-JP")
    base = f"{live_server.url}/court/{court.token}/"
    tab_1, tab_2 = context.new_page(), context.new_page()
    tab_1.goto(f"{base}game/{first.match_number}/")
    tab_2.goto(f"{base}game/{second.match_number}/")

    context.set_offline(True)
    fill(tab_1, 30, 26)
    tab_1.click("button.big-submit")
    tab_1.wait_for_selector("#unsent:not([hidden]) >> text=この端末に保存済み・未送信 1件")
    assert "A 30 – B 26" in tab_1.inner_text("#unsent")
    assert tab_1.url.endswith(f"/game/{first.match_number}/")  # still on the form, values kept
    fill(tab_2, 20, 36)
    tab_2.click("button.big-submit")
    tab_2.wait_for_selector("text=この端末に保存済み・未送信 2件")
    tab_1.wait_for_selector("text=この端末に保存済み・未送信 2件")  # every tab of the tablet knows
    shot(tab_2, f"offline-{width}-1-unsent")
    tries = (
        "Object.keys(localStorage).filter(k => k.startsWith('karuta.outbox:court:'))"
        ".reduce((n, k) => n + JSON.parse(localStorage.getItem(k)).tries, 0)"
    )
    before = tab_2.evaluate(tries)
    tab_2.click("#unsent button[data-send]")  # a tap (or the back-off) tries again: still no network, still kept
    tab_2.wait_for_function(f"() => {tries} > {before}")  # a function: the CSP forbids eval
    assert "未送信 2件" in tab_2.inner_text("#unsent")
    assert saved(first) == [] and saved(second) == []

    # The tablet is restarted while still offline: nothing is lost.
    tab_1.close()
    with pytest.raises(Exception, match="ERR_INTERNET_DISCONNECTED"):
        tab_2.reload()
    context.set_offline(False)
    tab_2.reload()
    tab_2.wait_for_selector("#unsent >> text=1回目の入力", timeout=15000)
    tab_2.wait_for_function("() => !document.body.innerText.includes('未送信')")
    shot(tab_2, f"offline-{width}-2-sent")
    assert saved(first) == [(1, 30, 26)]
    assert saved(second) == [(1, 20, 36)]
    assert tab_2.evaluate("Object.keys(localStorage).filter(k => k.startsWith('karuta.outbox:court:')).length") == 0
    court.refresh_from_db()
    assert court.tablet_heard_at is not None


@pytest.mark.parametrize("viewport", VIEWPORTS[:1], ids=lambda v: f"{v[0]}x{v[1]}")
def test_a_lost_answer_is_sent_again_and_makes_no_second_version(new_context, live_server, court_games, viewport):
    """The request reached the server but its answer was lost: the retry is the same version."""
    court, (first, _second) = court_games
    width, height = viewport
    context = new_context(viewport={"width": width, "height": height}, locale="ja-JP")
    page = context.new_page()
    entry = f"{live_server.url}/court/{court.token}/game/{first.match_number}/"
    page.goto(entry)
    lost = []

    def lose_answer(route):
        if route.request.method == "POST" and not lost:
            route.fetch()  # the server saves the result …
            lost.append(1)
            route.abort()  # … and the tablet never hears back
        else:
            route.continue_()

    page.route(entry, lose_answer)
    fill(page, 29, 27)
    with page.expect_navigation(url="**/saved/1/", timeout=15000):
        page.click("button.big-submit")
    assert lost and saved(first) == [(1, 29, 27)]
    assert "✔" in page.inner_text("main")


@pytest.mark.parametrize("viewport", VIEWPORTS[:1], ids=lambda v: f"{v[0]}x{v[1]}")
def test_an_unsent_result_whose_game_was_voided_says_so_and_is_kept(new_context, live_server, court_games, viewport):
    court, (first, _second) = court_games
    width, height = viewport
    context = new_context(viewport={"width": width, "height": height}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/court/{court.token}/")
    entry = f"{live_server.url}/court/{court.token}/game/{first.match_number}/"
    page.goto(entry)
    context.set_offline(True)
    fill(page, 30, 26)
    page.click("button.big-submit")
    page.wait_for_selector("text=この端末に保存済み・未送信 1件")
    Match.objects.filter(pk=first.pk).update(status=Match.Status.VOID)
    page.close()
    home = context.new_page()
    context.set_offline(False)
    home.goto(f"{live_server.url}/court/{court.token}/")
    home.wait_for_selector("#unsent .error", timeout=15000)
    text = home.inner_text("#unsent")
    shot(home, f"offline-{width}-3-void")
    assert "未送信 1件" in text and "A 30 – B 26" in text and "無効" in text
    assert saved(first) == []


@pytest.mark.parametrize("viewport", VIEWPORTS[1:], ids=lambda v: f"{v[0]}x{v[1]}")
def test_a_result_kept_offline_meets_the_conflict_page_when_someone_else_saved_meanwhile(
    new_context, live_server, court_games, viewport
):
    court, (first, _second) = court_games
    width, height = viewport
    entry = f"{live_server.url}/court/{court.token}/game/{first.match_number}/"
    tablet = new_context(viewport={"width": width, "height": height}, locale="ja-JP")
    page = tablet.new_page()
    page.goto(entry)
    tablet.set_offline(True)
    fill(page, 20, 36)
    page.click("button.big-submit")
    page.wait_for_selector("text=この端末に保存済み・未送信 1件")
    # Meanwhile the desk's second tablet saves the same game.
    other = new_context(viewport={"width": width, "height": height}, locale="ja-JP").new_page()
    other.goto(entry)
    fill(other, 30, 26)
    with other.expect_navigation(url="**/saved/1/"):
        other.click("button.big-submit")
    with page.expect_navigation(timeout=15000):
        tablet.set_offline(False)  # the script retries on "online" and shows the server's conflict page
    shot(page, f"offline-{width}-4-conflict")
    text = page.inner_text("main")
    assert "36" in text and "26" in text
    assert saved(first) == [(1, 30, 26)]  # nothing overwritten
    # The conflict page now shows the values: the tablet no longer holds them as unsent.
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('karuta.outbox:court:')).length") == 0


def test_without_javascript_the_form_posts_as_before(new_context, live_server, court_games):
    court, (first, _second) = court_games
    page = new_context(viewport={"width": 768, "height": 1024}, locale="ja-JP", java_script_enabled=False).new_page()
    page.goto(f"{live_server.url}/court/{court.token}/game/{first.match_number}/")
    assert page.locator("#unsent").is_hidden()
    fill(page, 30, 26)
    with page.expect_navigation(url="**/saved/1/"):
        page.click("button.big-submit")
    assert saved(first) == [(1, 30, 26)]


def test_an_unsent_result_whose_game_moved_to_another_court_says_so_and_is_kept(new_context, live_server, court_games):
    court, (first, _second) = court_games
    context = new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/court/{court.token}/game/{first.match_number}/")
    context.set_offline(True)
    fill(page, 30, 26)
    page.click("button.big-submit")
    page.wait_for_selector("text=この端末に保存済み・未送信 1件")
    elsewhere = Court.objects.exclude(pk=court.pk).filter(event=court.event).first()
    Match.objects.filter(pk=first.pk).update(court=elsewhere, slot=999)  # moved to a free slot of another court
    context.set_offline(False)  # the script sends again as soon as the network is back
    page.wait_for_selector("#unsent >> text=本部に見せてください", timeout=15000)
    shot(page, "offline-390-5-moved")
    text = page.inner_text("#unsent")
    assert "未送信 1件" in text and "A 30 – B 26" in text and "別のコート" in text
    assert saved(first) == []


# --- A tablet reused from another event (issue 29, item 6) ---------------------------------


@pytest.fixture
def rehearsal(court_games):
    """A rehearsal event with one court, drawn and scheduled, beside the demo event."""
    from tests import factories
    from tournament.services.draw import draw_groups
    from tournament.services.schedule import make_schedule

    event = factories.make_event(courts=1, name="リハーサル大会")
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3, prefix="リハ")
    draw_groups(event, seed=1)
    make_schedule(event)
    court = event.courts.get()
    game = Match.objects.filter(court=court).order_by("match_number").first()
    return court, game


def keep_unsent_on(context, live_server, court, game):
    """Type a result on ``court``'s link while offline, then close the page: it stays unsent."""
    page = context.new_page()
    page.goto(f"{live_server.url}/court/{court.token}/game/{game.match_number}/")
    context.set_offline(True)
    fill(page, 30, 26)
    page.click("button.big-submit")
    page.wait_for_selector("text=この端末に保存済み・未送信 1件")
    page.close()
    context.set_offline(False)


def test_a_result_of_another_event_is_shown_apart_never_counted_and_sent_to_its_own_link(
    new_context, live_server, court_games, rehearsal
):
    court, _games = court_games
    old_court, old_game = rehearsal
    context = new_context(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    keep_unsent_on(context, live_server, old_court, old_game)
    page = context.new_page()
    page.goto(f"{live_server.url}/court/{court.token}/")
    page.wait_for_selector("#unsent .unsent-elsewhere")
    text = page.inner_text("#unsent")
    shot(page, "offline-768-6-another-event")
    assert "別の大会・別のコート" in text and "リハーサル大会" in text and "A 30 – B 26" in text
    assert str(old_court) in text and f"第{old_game.match_number}試合" in text
    assert "この端末に保存済み・未送信" not in text  # not this court's own queue
    page.wait_for_timeout(3000)  # the script would have sent it by now if it were this court's
    assert saved(old_game) == []
    court.refresh_from_db()
    assert court.tablet_heard_at is not None and court.tablet_unsent == 0  # never counted here
    with page.expect_navigation():
        page.click("#unsent button[data-elsewhere-send]")
    assert f"/court/{old_court.token}/game/{old_game.match_number}/saved/1/" in page.url
    assert saved(old_game) == [(1, 30, 26)]
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('karuta.outbox:court:')).length") == 0


def test_a_result_of_another_court_link_is_discarded_only_after_a_question_naming_it(
    new_context, live_server, court_games, rehearsal
):
    court, _games = court_games
    old_court, old_game = rehearsal
    context = new_context(viewport={"width": 390, "height": 844}, locale="ja-JP")
    keep_unsent_on(context, live_server, old_court, old_game)
    page = context.new_page()
    page.goto(f"{live_server.url}/court/{court.token}/")
    page.wait_for_selector("#unsent .unsent-elsewhere")
    questions = []

    def answer(dialog, accept):
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.click("#unsent .unsent-elsewhere button[data-discard]")
    assert "リハーサル大会" in questions[0] and f"第{old_game.match_number}試合" in questions[0]
    assert page.locator("#unsent .unsent-elsewhere").count() == 1  # "no": still kept
    page.once("dialog", lambda dialog: answer(dialog, True))
    page.click("#unsent .unsent-elsewhere button[data-discard]")
    page.wait_for_selector("#unsent .unsent-elsewhere", state="detached")
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('karuta.outbox:court:')).length") == 0
    assert saved(old_game) == []


# --- The one outbox (issue 30, item 3) -----------------------------------------------------

MOVE_BACK = """() => {
  // What the version before kept: the same result under its own key, "karuta.unsent.v1:<key>".
  for (const name of Object.keys(localStorage).filter(k => k.startsWith('karuta.outbox:court:'))) {
    localStorage.setItem('karuta.unsent.v1:' + name.split(':').pop(), localStorage.getItem(name));
    localStorage.removeItem(name);
  }
  return Object.keys(localStorage).filter(k => k.startsWith('karuta.unsent.v1:')).length;
}"""


def test_a_result_kept_by_the_version_before_is_sent_after_the_upgrade(new_context, live_server, court_games):
    """A tablet holding an unsent result under the old key when the server is upgraded: the
    page moves it into the outbox and sends it, exactly once; nothing is left under the old key."""
    court, (game, _second) = court_games
    context = new_context(viewport={"width": 768, "height": 1024}, locale="ja-JP")
    page = context.new_page()
    page.goto(f"{live_server.url}/court/{court.token}/game/{game.match_number}/")
    context.set_offline(True)
    fill(page, 30, 26)
    page.click("button.big-submit")
    page.wait_for_selector("text=この端末に保存済み・未送信 1件")
    page.close()
    context.set_offline(False)
    old = context.new_page()
    old.goto(f"{live_server.url}/no-such-page/")  # the same origin, no outbox on the page
    assert old.evaluate(MOVE_BACK) == 1
    old.goto(f"{live_server.url}/court/{court.token}/")
    old.wait_for_function("() => !document.body.innerText.includes('未送信')", timeout=15000)
    assert saved(game) == [(1, 30, 26)]
    keys = old.evaluate("() => Object.keys(localStorage).filter(k => k.startsWith('karuta.'))")
    assert not [k for k in keys if k.startswith(("karuta.unsent.v1:", "karuta.outbox:court:"))], keys
