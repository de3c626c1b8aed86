"""An organiser publishes a draft event from its card and deletes a rehearsal event after the page
that counts what goes with it, on a phone (390 px), in a real browser (issue 27, item 3)."""

import pytest

from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tests.browser.support import log_in, shot
from tournament.models import Event, Match, Team
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture
def rehearsal(transactional_db, django_user_model):
    event = factories.make_event(slug="rehearsal", name="リハーサル大会", courts=1, visibility="draft")
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    match = event.matches.order_by("match_number").first()
    record_confirmed_result(match, rules.SheetValues(29, 27, 0, rules.JokerHolder.A))
    user = django_user_model.objects.create_user("org", password="pass-for-tests-1")
    event.organisers.add(user)
    return event


def test_publish_then_delete_a_rehearsal_on_a_phone(new_page, live_server, rehearsal):
    event = rehearsal
    anonymous = new_page(viewport={"width": 390, "height": 844}, locale="ja-JP")
    assert anonymous.goto(f"{live_server.url}/e/{event.slug}/").status == 404
    page = new_page(viewport={"width": 390, "height": 844}, locale="ja-JP")
    log_in(page, live_server, "org", "pass-for-tests-1", f"/manage/{event.slug}/")
    card = page.locator(".event-visibility")
    assert "下書き" in card.inner_text()
    with page.expect_navigation():
        card.locator("button[value=public]").click()
    assert Event.objects.get(pk=event.pk).visibility == "public"
    assert anonymous.goto(f"{live_server.url}/e/{event.slug}/").status == 200
    with page.expect_navigation():
        page.click(f"a[href='/manage/{event.slug}/delete/']")
    text = page.inner_text("main")
    assert "一緒に削除されるもの" in text
    games = Match.objects.filter(event=event).count()
    assert f"試合: {games}" in text.replace("：", ": ") and "チーム: 3" in text.replace("：", ": ")
    # Nothing sideways on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "event-delete-390-1-confirm")
    # The wrong short name deletes nothing and says what to type.
    page.fill("#id_confirm_slug", "other")
    with page.expect_navigation():
        page.click("main form button")
    assert "rehearsal" in page.inner_text("#delete-error")
    assert Event.objects.filter(pk=event.pk).exists()
    page.fill("#id_confirm_slug", event.slug)
    with page.expect_navigation():
        page.click("main form button")
    assert page.url.endswith("/manage/")
    assert "削除しました" in page.inner_text("body")
    shot(page, "event-delete-390-2-deleted")
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not Team.objects.filter(division__event_id=event.pk).exists()
    assert anonymous.goto(f"{live_server.url}/e/{event.slug}/").status == 404
