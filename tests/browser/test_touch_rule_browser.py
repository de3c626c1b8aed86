"""The whole touch rule on the court tablet (issue 16, item 6), in Chromium at tablet and
phone sizes: a lower-hand touch is settled without じゃんけん; at three じゃんけん the helper
says so before the tap and records the referee leader's decision; the result form takes
"じゃんけん used" from the helper's log and says so. Screenshots in test-artifacts/screenshots/.
"""

import pytest
from django.core.management import call_command

from judging import disputes
from judging.models import Dispute
from tests.browser.support import shot
from tournament.models import Match

VIEWPORTS = [(768, 1024), (390, 844)]


@pytest.fixture
def match(transactional_db):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    return Match.objects.select_related("court", "team_a", "team_b").order_by("match_number").first()


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["tablet", "phone"])
def test_a_lower_hand_touch_is_settled_without_janken(new_page, live_server, match, viewport):
    width, height = viewport
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = f"{live_server.url}/court/{match.court.token}/game/{match.match_number}/dispute/"
    page.goto(url)
    # Step one comes first; the table waits until no hand was underneath.
    assert page.is_visible("#step-underneath") and page.is_hidden("#step-table")
    assert page.is_visible("#raise-hand") and page.is_visible("#last-two")
    shot(page, f"touchrule-{width}-1-step-one")
    page.check("input[name=underneath][value=B]")
    assert page.inner_text("#verdict .verdict-text").strip() == match.team_b.name
    assert page.is_visible("#note-underneath") and "じゃんけんなし" in page.inner_text("#note-underneath")
    assert page.is_hidden("#rps-row") and page.is_hidden("#step-table") and page.is_hidden("#note-limit")
    assert no_sideways_scroll(page)
    shot(page, f"touchrule-{width}-2-underneath")
    with page.expect_navigation():
        page.click("#log-form button")
    assert match.team_b.name in page.inner_text(".messages") and "下の手" in page.inner_text(".messages")
    dispute = Dispute.objects.get(match=match)
    assert (dispute.underneath, dispute.settlement, dispute.taken_by, dispute.rps_winner) == (
        "B",
        "underneath",
        "B",
        "",
    )
    assert disputes.rps_logged(match) == 0
    # The same touches without a hand underneath go to the table: じゃんけん.
    page.check("input[name=underneath][value=none]")
    page.check("input[name=state_a][value=correct_only]")
    page.check("input[name=state_b][value=correct_only]")
    assert page.inner_text("#verdict .verdict-text").strip() == "じゃんけん"
    assert page.is_visible("#rps-row") and page.is_hidden("#note-underneath")
    assert not errors, errors


@pytest.mark.parametrize("viewport", VIEWPORTS, ids=["tablet", "phone"])
def test_at_three_janken_the_helper_warns_before_the_tap_and_the_form_takes_the_count(
    new_page, live_server, match, viewport
):
    width, height = viewport
    for _ in range(3):
        disputes.log_dispute(match, "both", "both", rps_winner="A", court=match.court)
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    entry = f"{live_server.url}/court/{match.court.token}/game/{match.match_number}/"
    page.goto(entry + "dispute/")
    page.check("input[name=underneath][value=none]")
    page.check("input[name=state_a][value=both]")
    page.check("input[name=state_b][value=both]")
    assert page.inner_text("#verdict .verdict-text").strip() == "審判長が決める"
    assert page.is_visible("#note-limit") and "審判長" in page.inner_text("#note-limit")
    assert page.is_visible("#referee-row") and page.is_hidden("#rps-row")
    shot(page, f"touchrule-{width}-3-limit")
    page.check("input[name=referee_choice][value=A]")
    with page.expect_navigation():
        page.click("#log-form button")
    latest = Dispute.objects.latest("pk")
    assert (latest.settlement, latest.taken_by, latest.rps_winner) == ("referee", "A", "")
    # "First to touch the correct card" asks which team.
    page.check("input[name=underneath][value=none]")
    page.check("input[name=state_a][value=neither]")
    page.check("input[name=state_b][value=neither]")
    assert page.is_visible("#first-row")
    page.check("input[name=first_team][value=B]")
    with page.expect_navigation():
        page.click("#log-form button")
    assert Dispute.objects.latest("pk").taken_by == "B"
    # The result form: じゃんけん used = 3, from the helper's log, and it says so.
    page.goto(entry)
    assert page.is_checked("input[name=rps_used][value='3']")
    assert "判定の記録から入力しました" in page.inner_text("#rps-source")
    assert no_sideways_scroll(page)
    shot(page, f"touchrule-{width}-4-result-form")
