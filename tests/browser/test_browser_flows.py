"""The organiser's day and the referee's flow in a real browser (Debian's Chromium, Playwright).

Skipped where Chromium or Playwright is missing, except under CI=true, where they are
required. Screenshots go to test-artifacts/screenshots/ for people to look at.
"""

from pathlib import Path

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command

from tests.browser.support import log_in, shot
from tournament.models import Match

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "entries-sample.xlsx"


@pytest.fixture
def organiser(django_user_model, transactional_db):
    user = django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    user.user_permissions.add(Permission.objects.get(codename="add_event"))
    return user


@pytest.mark.parametrize("locale", ["ja-JP", "en-US"])
def test_the_organisers_day_import_draw_schedule_print_export(new_page, live_server, organiser, locale):
    page = new_page(viewport={"width": 1280, "height": 800}, locale=locale)
    errors = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    log_in(page, live_server, "organiser", "karuta-test-pw", "/manage/")
    slug = "day-" + locale[:2]
    page.fill("#id_name", "ひたち郷土かるた大会")
    page.fill("#id_slug", slug)
    page.fill("#id_date", "2027-01-17")
    page.fill("#id_court_count", "9")
    # Each form is sent and its answer loaded before the next page is opened or read.
    with page.expect_navigation():
        page.click("main form button >> nth=-1")
    page.goto(f"{live_server.url}/manage/{slug}/teams/import/")
    page.set_input_files("#id_file", str(SAMPLE))
    with page.expect_navigation():
        page.click("main form button")
    shot(page, f"organiser-{locale}-1-preview")
    assert page.locator("input[name=token]").count() == 1
    with page.expect_navigation():
        page.click("main form button >> nth=0")
    assert "34" in page.inner_text("main h1")
    page.goto(f"{live_server.url}/manage/{slug}/groups/")
    with page.expect_navigation():
        page.click("form[action$='/groups/draw/'] button")
    shot(page, f"organiser-{locale}-2-groups")
    page.goto(f"{live_server.url}/manage/{slug}/schedule/")
    with page.expect_navigation():
        page.click("form[action$='/schedule/make/'] button")
    shot(page, f"organiser-{locale}-3-schedule")
    assert page.locator("table.schedule tbody tr").count() == 48
    pdf = page.request.get(f"{live_server.url}/manage/{slug}/print/sheets.pdf")
    assert pdf.ok and pdf.body()[:4] == b"%PDF"
    page.goto(f"{live_server.url}/manage/{slug}/print/")
    with page.expect_download() as download:
        page.click(f"a[href='/manage/{slug}/export/results.xlsx']")
    assert download.value.suggested_filename.startswith(f"{slug}-20270117")
    shot(page, f"organiser-{locale}-4-print")
    assert not errors, errors


@pytest.mark.parametrize("viewport", [(768, 1024), (1280, 800)], ids=["portrait", "landscape"])
def test_the_referee_enters_a_result_meets_a_conflict_and_a_dispute(new_page, live_server, transactional_db, viewport):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    match = Match.objects.order_by("match_number").first()
    court_url = f"{live_server.url}/court/{match.court.token}/"
    width, height = viewport
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    page.goto(court_url)
    shot(page, f"referee-{width}-1-court")
    with page.expect_navigation():
        page.click(".game-card.current")
    page.fill("#id_cards_a", "27")
    page.fill("#id_cards_b", "27")
    page.fill("#id_referee_cards", "2")
    page.check("input[name=joker_holder][value=referee]")
    page.check("input[name=rps_winner][value=B]")
    with page.expect_navigation():
        page.click("button.big-submit")
    shot(page, f"referee-{width}-2-saved")
    assert "/saved/1/" in page.url
    assert match.team_b.name in page.inner_text(".winner-line")
    # A second tablet on a stale page: refused, both values shown, nothing overwritten.
    entry = f"{court_url}game/{match.match_number}/"
    stale = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    stale.goto(entry)
    page.goto(entry)
    page.fill("#id_cards_a", "30")
    page.fill("#id_cards_b", "26")
    page.fill("#id_referee_cards", "0")
    page.check("input[name=joker_holder][value=A]")
    page.check("input[name=rps_winner][value='']")
    with page.expect_navigation():  # saved before the stale tablet sends
        page.click("button.big-submit")
    stale.fill("#id_cards_a", "20")
    stale.fill("#id_cards_b", "36")
    stale.fill("#id_referee_cards", "0")
    stale.check("input[name=joker_holder][value=B]")
    stale.check("input[name=rps_winner][value='']")
    with stale.expect_navigation():
        stale.click("button.big-submit")
    shot(stale, f"referee-{width}-3-conflict")
    assert "36" in stale.inner_text("main") and "26" in stale.inner_text("main")
    assert match.sheets.count() == 2
    # The dispute helper: both touched / neither → じゃんけん.
    page.goto(entry + "dispute/")
    page.check("input[name=underneath][value=none]")  # step one: no hand underneath
    page.check("input[name=state_a][value=both]")
    page.check("input[name=state_b][value=neither]")
    assert "じゃんけん" in page.inner_text("#verdict")
    shot(page, f"referee-{width}-4-dispute")
