"""The leaders' sign-off and the photo of the paper sheet on a tablet and a phone (issue 16,
items 4 and 5), in Debian's Chromium. Screenshots: test-artifacts/screenshots/signoff-*."""

import io

import pytest
from django.core.management import call_command
from PIL import Image

from judging import services
from judging.engine import rules
from judging.models import RecordingSheet
from tests.browser.support import log_in, shot
from tournament.models import Match


def photo_bytes():
    out = io.BytesIO()
    Image.new("RGB", (2400, 1800), (240, 235, 220)).save(out, "JPEG")
    return out.getvalue()


@pytest.mark.parametrize("viewport", [(768, 1024), (390, 844)], ids=["tablet", "phone"])
def test_both_leaders_tap_then_the_referee_attaches_a_photo(
    new_page, live_server, transactional_db, django_user_model, viewport
):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    match = Match.objects.select_related("event", "court", "team_a", "team_b").order_by("match_number").first()
    services.submit_sheet(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), base_version=0, court=match.court)
    width, height = viewport
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    page.goto(f"{live_server.url}/court/{match.court.token}/game/{match.match_number}/saved/1/")
    taps = page.locator("button.signoff-tap")
    assert taps.count() == 2
    for i in range(2):  # large targets for a thumb: at least 64 px high, most of the column wide
        box = taps.nth(i).bounding_box()
        assert box["height"] >= 64 and box["width"] >= min(300, width * 0.4), box
    wide = page.evaluate(
        """() => [...document.querySelectorAll("#signoff, #signoff *, #photo, #photo *")].filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right) + " " + (e.textContent || "").slice(0, 30))"""
    )
    assert not wide, wide
    shot(page, f"signoff-{width}-1-before")

    page.fill("#id_name_A", "山田")
    with page.expect_navigation():
        page.click(".signoff-side[data-side=A] button.signoff-tap")
    assert "主将確認済み" in page.inner_text(".signoff-side[data-side=A]")
    assert page.locator("button.signoff-tap").count() == 1
    with page.expect_navigation():
        page.click(".signoff-side[data-side=B] button.signoff-tap")
    page.wait_for_selector(".signoff-done")
    assert "両チームの主将が確認しました" in page.inner_text("#signoff")
    shot(page, f"signoff-{width}-2-signed")

    page.set_input_files("#id_photo", {"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": photo_bytes()})
    with page.expect_navigation():
        page.click("#photo button")
    page.wait_for_selector("#photo .signed")
    shot(page, f"signoff-{width}-3-photo")
    # A file that is not a photo: a message, and the result stays saved.
    page.set_input_files("#id_photo", {"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": b"not an image"})
    with page.expect_navigation():
        page.click("#photo button")
    assert "写真ではありません" in page.inner_text(".messages")
    assert "保存されています" in page.inner_text(".messages")

    sheet = RecordingSheet.objects.get(match=match, version=1)
    assert sheet.signed_by_both and sheet.signed_a_name == "山田" and sheet.photo
    assert (sheet.cards_a, sheet.cards_b) == (30, 26)
    # Correcting after the sign-off: the tablet says the recorder must confirm it.
    page.goto(f"{live_server.url}/court/{match.court.token}/game/{match.match_number}/")
    assert "記録係の確定が必要です" in page.inner_text("main")

    # The recorder's desk shows the sign-off and the photo (served to the event's recorders only).
    recorder = django_user_model.objects.create_user("recorder", password="karuta-test-pw")
    match.event.recorders.add(recorder)
    desk = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    path = f"/manage/{match.event.slug}/games/{match.match_number}/"
    log_in(desk, live_server, "recorder", "karuta-test-pw", path)
    desk.wait_for_function("() => document.querySelector('img.sheet-photo')?.naturalWidth > 0")  # a function: CSP
    assert "山田" in desk.inner_text("#signoff")
    shot(desk, f"signoff-{width}-4-desk")
