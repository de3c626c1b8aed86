"""The court pages refresh themselves and a revoked link keeps what was typed (issue 16, item 7),
in a real browser at tablet and phone sizes (Debian's Chromium, Playwright)."""

import pytest
from django.core.management import call_command

from judging import services
from judging.engine import rules
from tests.browser.support import log_in, shot
from tournament.models import Court, Match

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
# The pages poll every 20 s; the tests make it 1 s.
FAST_POLL = "window.courtRefreshSeconds = 1;"


@pytest.fixture
def court_games(transactional_db):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    first = Match.objects.order_by("slot", "match_number").first()
    games = list(Match.objects.filter(court=first.court).order_by("slot", "match_number"))
    return games


def tablet(new_context, viewport):
    width, height = viewport
    context = new_context(viewport={"width": width, "height": height}, locale="ja-JP")
    context.add_init_script(FAST_POLL)
    return context.new_page()


@pytest.mark.parametrize("viewport", [(768, 1024), (390, 844)], ids=["tablet", "phone"])
def test_the_court_page_moves_on_by_itself_and_a_typed_form_is_never_reloaded(
    new_context, live_server, court_games, viewport
):
    first, second = court_games[0], court_games[1]
    court = first.court
    home = f"{live_server.url}/court/{court.token}/"
    page = tablet(new_context, viewport)
    page.goto(home)
    assert f"第{first.match_number}試合" in page.inner_text(".game-card.current")
    # Another tablet saves the current game: the court page shows the next one on its own.
    services.submit_sheet(first, A_WINS, base_version=0, court=court)
    page.wait_for_function(
        "n => document.querySelector('.game-card.current') && "
        "document.querySelector('.game-card.current').innerText.includes('第' + n + '試合')",
        arg=second.match_number,
        timeout=15000,
    )
    shot(page, f"desk-{viewport[0]}-1-court-moved-on")
    # The referee starts typing the next game; then the court's games change again.
    page.goto(f"{home}game/{second.match_number}/")
    # A tap on + sets the count without an input event: it still counts as typed.
    page.click(".stepper:has(#id_cards_a) button[data-step='1']")
    services.submit_sheet(first, rules.SheetValues(29, 27, 0, rules.JokerHolder.A), base_version=1, court=court)
    services.void_match(court_games[-1], None)
    page.wait_for_selector("#court-refresh:not([hidden])", timeout=15000)
    assert page.input_value("#id_cards_a") == "1"  # not reloaded: nothing typed is lost
    assert "このコートの試合が変わりました" in page.inner_text("#court-refresh")
    shot(page, f"desk-{viewport[0]}-2-entry-notice")


@pytest.mark.parametrize("viewport", [(768, 1024), (390, 844)], ids=["tablet", "phone"])
def test_a_revoked_link_says_so_and_keeps_the_typed_values(new_context, live_server, court_games, viewport):
    game = court_games[0]
    court = game.court
    page = tablet(new_context, viewport)
    page.goto(f"{live_server.url}/court/{court.token}/game/{game.match_number}/")
    page.fill("#id_cards_a", "30")
    page.fill("#id_cards_b", "26")
    page.fill("#id_referee_cards", "0")
    page.check("input[name=joker_holder][value=A]")
    Court.objects.filter(pk=court.pk).update(link_enabled=False)
    page.wait_for_selector("#court-refresh:not([hidden])", timeout=15000)
    assert "このリンクは無効になりました。本部に新しいリンクをもらってください" in page.inner_text("#court-refresh")
    assert page.input_value("#id_cards_a") == "30"
    # The tablet keeps the result (static/js/offline.js) and says the game is no longer on this
    # link; the page stays, with the typed values and the notice of the revoked link.
    page.click("button.big-submit")
    # An arrow function, not an expression: the page's CSP forbids eval (issue 18, item 4).
    page.wait_for_function(
        "() => document.querySelector('.unsent') && "
        "document.querySelector('.unsent').innerText.includes('本部に見せてください')"
    )
    kept = page.inner_text(".unsent")
    assert "30" in kept and "26" in kept
    assert "このリンクは無効になりました。本部に新しいリンクをもらってください" in page.inner_text("main")
    assert not game.sheets.exists()
    shot(page, f"desk-{viewport[0]}-3-revoked-kept")


def test_a_one_person_desk_sends_back_with_a_reason_and_confirms_its_own_correction(
    new_context, live_server, court_games, django_user_model
):
    game = court_games[0]
    court = game.court
    event = game.event
    organiser = django_user_model.objects.create_user("solo", password="karuta-test-pw")
    event.organisers.add(organiser)
    sheet, _created = services.submit_sheet(game, A_WINS, base_version=0, court=court)
    desk = new_context(viewport={"width": 1024, "height": 768}, locale="ja-JP").new_page()
    game_path = f"/manage/{event.slug}/games/{game.match_number}/"
    log_in(desk, live_server, "solo", "karuta-test-pw", game_path)
    desk.fill("#id_reason", "Bの枚数を数え直してください")
    with desk.expect_navigation():
        desk.click(f"form[action='{game_path}reject/'] button")
    assert desk.locator(f"form[action='{game_path}confirm/']").count() == 0  # nothing to confirm after a send-back
    shot(desk, "desk-1024-4-sent-back")
    referee = tablet(new_context, (768, 1024))
    referee.goto(f"{live_server.url}/court/{court.token}/")
    assert "Bの枚数を数え直してください" in referee.inner_text(".game-card.current")
    shot(referee, "desk-768-5-court-reason")
    # The organiser, alone at the desk, types the correction and confirms it in a second step.
    desk.fill("#id_cards_a", "29")
    desk.fill("#id_cards_b", "27")
    desk.fill("#id_referee_cards", "0")
    desk.check("input[name=joker_holder][value=A]")
    with desk.expect_navigation():
        desk.click("button.big-submit")
    with desk.expect_navigation():
        desk.click(f"a[href='{game_path}confirm-alone/']")
    assert "一人での確定" in desk.inner_text("main")
    shot(desk, "desk-1024-6-one-person-step")
    with desk.expect_navigation():
        desk.click("main form button")
    assert "一人で確定（自分の入力）" in desk.inner_text("main")
    game.refresh_from_db()
    assert game.sheets.get(is_confirmed=True).version == 2
    shot(desk, "desk-1024-7-history")
    # Renewing the court's link: a confirmation page first, then the court's sheets to print.
    desk.goto(f"{live_server.url}/manage/{event.slug}/courts/")
    with desk.expect_navigation():
        desk.click(f"a[href='/manage/{event.slug}/courts/{court.pk}/link/renew/']")
    assert "印刷済みのQRコード" in desk.inner_text("main")
    shot(desk, "desk-1024-8-renew-confirm")
    with desk.expect_navigation():
        desk.click("main form button")
    assert desk.locator(f"a[href='/manage/{event.slug}/print/sheets.pdf?court={court.pk}']").count() >= 1
    shot(desk, "desk-1024-9-renewed-print")
    court.refresh_from_db()
    assert court.previous_token and court.link_enabled
