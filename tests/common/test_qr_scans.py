"""Every QR code the product prints scans back to its URL (issue 27 item 3): the recording
sheets, the clubs' link cards, the hall screen's SVG and the address ``serve`` prints in the
terminal. The pages' QR codes are read in the browser: tests/browser/test_qr_scan_browser.py."""

import io
import re

import pytest
from django.urls import reverse
from PIL import Image

from club_entry import services as club_services
from club_entry.link import link_url
from common.qr_svg import QUIET_ZONE, qr_svg
from ops.management.commands.serve import qr_text
from tests import factories
from tests.qr_scan import decode_pdf, decode_png, needs_zbar
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

pytestmark = needs_zbar

BASE = "http://testserver"


@pytest.fixture
def day(db, django_user_model):
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 4)
    draw_groups(event, seed=1)
    make_schedule(event)
    user = django_user_model.objects.create_user("qr-organiser")
    event.organisers.add(user)
    return event, user


def test_every_recording_sheet_scans_to_its_games_court_link(client, day):
    event, user = day
    client.force_login(user)
    response = client.get(reverse("tournament:recording_sheets", args=[event.slug]))
    assert response.status_code == 200
    pages = decode_pdf(b"".join(response.streaming_content) if response.streaming else response.content)
    matches = list(event.matches.order_by("match_number"))
    found = [url for page in pages for url in page]
    assert len(found) >= len(matches), found
    for match in matches:
        link = BASE + match.court.get_link_path()
        assert any(url.startswith(link) and url.rstrip("/").endswith(str(match.match_number)) for url in found), (
            match.match_number,
            found,
        )


def test_every_club_link_card_scans_to_its_link(client, day):
    event, user = day
    links = [club_services.create_link(event, club) for club in ("港かるた会", "日立南クラブ", "十王かるた少年団")]
    client.force_login(user)
    response = client.get(reverse("club_entry:links_pdf", args=[event.slug]))
    assert response.status_code == 200
    content = b"".join(response.streaming_content) if response.streaming else response.content
    found = sorted(url for page in decode_pdf(content) for url in page)
    assert found == sorted(link_url(BASE, link) for link in links)


def _svg_png(svg: str, module_px: int = 4) -> bytes:
    """The SVG of ``common.qr_svg`` drawn as a PNG (its squares read back from the path)."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))
    image = Image.new("L", (size * module_px, size * module_px), 255)
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg):
        x, y = int(x), int(y)
        assert QUIET_ZONE <= x < size - QUIET_ZONE and QUIET_ZONE <= y < size - QUIET_ZONE  # the quiet zone is light
        image.paste(0, (x * module_px, y * module_px, (x + 1) * module_px, (y + 1) * module_px))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_the_hall_screens_qr_scans_to_the_public_timetable(client, day):
    event, _user = day
    response = client.get(reverse("tournament:display_qr", args=[event.slug]))
    svg = response.content.decode()
    assert "viewBox" in svg and "width=" not in svg.split(">")[0]
    assert decode_png(_svg_png(svg)) == [BASE + reverse("tournament:public_timetable", args=[event.slug])]


def test_the_page_svg_has_a_viewbox_a_quiet_zone_and_a_name():
    url = "http://192.168.1.20:8000/court/abcdefghijklmnopqrstuv/"
    svg = qr_svg(url, "QRコード")
    head = svg.split(">")[0]
    assert 'viewBox="0 0 ' in head and " width=" not in head and " height=" not in head
    assert 'aria-label="QRコード"' in head
    assert decode_png(_svg_png(svg)) == [url]


def test_the_address_serve_prints_scans_in_a_dark_terminal():
    """``serve`` prints the LAN address as half blocks: a block is a light module (a dark
    terminal's text colour), a space a dark one; four modules of quiet zone around."""
    url = "http://192.168.1.20:8000/"
    lines = [line for line in qr_text(url).splitlines() if line]
    px = 4
    image = Image.new("L", (len(lines[0]) * px, len(lines) * 2 * px), 0)
    halves = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
    for row, line in enumerate(lines):
        for col, char in enumerate(line):
            for half, light in enumerate(halves[char]):
                if light:
                    top = (2 * row + half) * px
                    image.paste(255, (col * px, top, (col + 1) * px, top + px))
    out = io.BytesIO()
    image.save(out, "PNG")
    assert decode_png(out.getvalue()) == [url]
