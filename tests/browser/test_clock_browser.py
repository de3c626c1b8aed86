"""The referee's 開始 button and a moved game's old address, on a tablet (768×1024) in
Chromium (issue 15, items 8 and 9). Screenshots go to test-artifacts/screenshots/."""

import pytest
from django.core.management import call_command

from judging.models import HistoryEntry
from tests.browser.support import shot
from tournament.models import Court, Match
from tournament.services.day_changes import close_court

TABLET = {"viewport": {"width": 768, "height": 1024}, "locale": "ja-JP"}


@pytest.fixture
def court_games(transactional_db):
    """The demo event drawn and scheduled: the first court and its first two games."""
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    court = Court.objects.order_by("pk").first()
    games = [g for g in Match.objects.filter(court=court).order_by("slot", "match_number") if g.teams_known][:2]
    return court, games


def test_the_start_button_starts_the_game_and_offline_says_the_result_will(new_context, live_server, court_games):
    court, (first, second) = court_games
    context = new_context(**TABLET)
    page = context.new_page()
    page.goto(f"{live_server.url}/court/{court.token}/game/{first.match_number}/")
    first.refresh_from_db()
    assert first.actual_start is None  # opening the page starts nothing
    shot(page, "clock-768-1-court-page-start-button")
    page.click("button.start-button")
    page.wait_for_selector("#started >> text=開始済み")
    shot(page, "clock-768-2-court-page-started")
    first.refresh_from_db()
    assert first.actual_start is not None
    assert HistoryEntry.objects.filter(match=first, action=HistoryEntry.Action.STARTED).count() == 1
    page.goto(f"{live_server.url}/court/{court.token}/game/{second.match_number}/")
    context.set_offline(True)
    page.click("button.start-button")
    page.wait_for_selector(".start-note >> text=結果を保存すると開始済みになります")
    shot(page, "clock-768-3-court-page-start-offline")
    context.set_offline(False)
    second.refresh_from_db()
    assert second.actual_start is None


def test_a_moved_games_old_address_and_the_closed_courts_tablet_say_where_the_games_went(
    new_page, live_server, court_games
):
    court, (first, _second) = court_games
    moved = close_court(court)
    assert moved
    game = Match.objects.select_related("court").get(pk=moved[0].pk)
    page = new_page(**TABLET)
    page.goto(f"{live_server.url}/court/{court.token}/game/{game.match_number}/")
    text = page.inner_text("main")
    assert f"{court}は閉鎖されました。第{game.match_number}試合は{game.court}です。" in text
    assert page.locator("input[name=cards_a]").count() == 0
    shot(page, "clock-768-4-moved-game-old-address")
    page.goto(f"{live_server.url}/court/{court.token}/")
    assert f"第{game.match_number}試合 → {game.court}" in page.inner_text("#court-closed")
    shot(page, "clock-768-5-closed-court-tablet")
