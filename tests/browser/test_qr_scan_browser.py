"""Every QR code on a page scans at the size it is shown, on a phone (390 px) and a laptop
(1366 px), and as it prints (issue 27 item 3): the court links, the reader links, the clubs'
links and the hall screen. Each code is photographed as an element screenshot and read back
with zbarimg; the text must be the link the page names."""

import pytest
from django.urls import reverse

from club_entry import services as club_services
from club_entry.link import link_url
from reader import sessions
from tests import factories
from tests.browser.support import log_in, shot
from tests.qr_scan import decode_png, needs_zbar

pytestmark = needs_zbar

WIDTHS = (390, 1366)


@pytest.fixture
def linked_event(transactional_db, django_user_model):
    event = factories.make_event(courts=3)
    factories.make_division(event, courts=[1, 2, 3])
    club_services.create_link(event, "港かるた会")
    club_services.create_link(event, "日立南クラブ")
    user = django_user_model.objects.create_user("qr-organiser", password="karuta-test-pw")
    event.organisers.add(user)
    return event


def _expected(event, base):
    courts = list(event.courts.order_by("order"))
    return {
        "court_links": [base + court.get_link_path() for court in courts],
        "reader": [base + reverse("reader:link_home", args=[sessions.reader_link(c).token]) for c in courts],
        "clubs": [link_url(base, link) for link in event.club_links.order_by("pk")],
    }


def _scan_all(page, selector):
    codes = page.locator(selector)
    assert codes.count() > 0, selector
    found = []
    for i in range(codes.count()):
        code = codes.nth(i)
        code.scroll_into_view_if_needed()
        box = code.bounding_box()
        assert box["width"] >= 100 and abs(box["width"] - box["height"]) < 1, box  # square, big enough
        decoded = decode_png(code.screenshot())
        assert len(decoded) == 1, (selector, i, decoded)
        found.append(decoded[0])
    return found


@pytest.mark.parametrize("width", WIDTHS)
def test_every_link_qr_scans_to_its_link_on_screen_and_printed(new_page, live_server, linked_event, width):
    event = linked_event
    page = new_page(viewport={"width": width, "height": 900}, locale="ja-JP")
    log_in(page, live_server, "qr-organiser", "karuta-test-pw", f"/manage/{event.slug}/courts/")
    expected = _expected(event, live_server.url)
    pages = {
        "court_links": f"/manage/{event.slug}/courts/",
        "reader": f"/manage/{event.slug}/reader/",
        "clubs": f"/manage/{event.slug}/clubs/",
    }
    for name, path in pages.items():
        page.emulate_media(media="screen")
        page.goto(live_server.url + path)
        assert sorted(_scan_all(page, ".qr svg")) == sorted(expected[name]), name
        shot(page, f"qr-{name}-{width}")
        page.emulate_media(media="print")  # the page as its print button prints it
        assert sorted(_scan_all(page, ".qr svg")) == sorted(expected[name]), (name, "print")


@pytest.mark.parametrize("width", (390, 1366, 1920))
def test_the_hall_screens_qr_scans_to_the_public_timetable(new_page, live_server, linked_event, width):
    event = linked_event
    page = new_page(viewport={"width": width, "height": max(600, width * 9 // 16)}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/{event.slug}/display/courts/")
    code = page.locator(".hall-qr img")
    code.wait_for()
    page.wait_for_function("document.querySelector('.hall-qr img').complete")
    timetable = live_server.url + reverse("tournament:public_timetable", args=[event.slug])
    # the hall is read from across the room: a screenshot at twice the pixels, as a phone's zoom
    decoded = decode_png(code.screenshot(scale="device")) or decode_png(page.screenshot(full_page=False))
    assert decoded == [timetable]
