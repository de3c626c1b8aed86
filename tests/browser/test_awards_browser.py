"""The awards desk at 1280 px (issue 19, items 3 and 4): the organiser prints every certificate
not yet printed from the page, the list then says printed; the MC's list shows the names with
their furigana in large type. No 500, no CSP refusal, no sideways scrolling."""

import pytest
from django.core.management import call_command

from awards.models import PrintLog
from awards.reports import all_certificates, event_awards
from tests.browser.support import log_in, shot
from tournament.models import Event


@pytest.fixture
def finished(transactional_db, django_user_model):
    for args in (
        ("load_demo",),
        ("draw_groups", "demo", "--seed", "1"),
        ("make_schedule", "demo"),
        ("simulate_results", "demo", "--seed", "3"),
        ("seed_knockout", "demo"),
        ("simulate_results", "demo", "--stage", "knockout", "--seed", "4"),
    ):
        call_command(*args)
    event = Event.objects.get(slug="demo")
    event.organisers.add(django_user_model.objects.create_user("organiser", password="karuta-test-pw"))
    return event


def test_the_organiser_prints_the_certificates_and_reads_the_mc_list(new_page, live_server, finished):
    page = new_page(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    problems = []
    page.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    log_in(page, live_server, "organiser", "karuta-test-pw", "/manage/demo/awards/")
    count = len(all_certificates(event_awards(finished)))
    assert page.locator("tr.status-not_printed").count() == count
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "awards-1280-1-desk")
    printed = lambda r: r.url.endswith("/awards/print/") and r.request.method == "POST"  # noqa: E731
    asked = []
    # No presenter is set in the demo: the desk asks before printing certificates without one.
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    with page.context.expect_event("response", printed) as answer:
        page.click("button[name=which][value=pending]")  # the PDF opens in a new tab
    assert len(asked) == 1 and "授与者" in asked[0]
    assert answer.value.status == 200 and answer.value.headers["content-type"] == "application/pdf"
    assert PrintLog.objects.count() == count
    # Back from the PDF's tab the desk reloads itself (static/js/awards.js). Headless Chromium
    # fires no focus or visibility event on a tab switch, so the test sends the window's focus.
    with page.expect_navigation():
        page.evaluate("() => window.dispatchEvent(new Event('focus'))")
    page.wait_for_function(f"() => document.querySelectorAll('tr.status-printed').length === {count}")
    assert page.locator("button[name=which][value=pending]").is_disabled()
    shot(page, "awards-1280-2-printed")
    page.click("text=読み上げ原稿")
    page.wait_for_selector(".mc-call ruby rt")
    champion = event_awards(finished)[0].prizes[0].team.players.order_by("order").first()
    assert champion.furigana in page.inner_text(".mc-division")
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, "awards-1280-3-mc-list")
    assert not problems, problems
