"""The hall screens in a browser (issue 17, item 2): at 1920×1080 and 1280×720 a 4-group
division is seen whole within one rotation of its pages, in type readable from 10 m, never
cut off; an announcement and a result confirmed in the first second after loading appear
within 10 s; the overview flags a late court. Screenshots in test-artifacts/screenshots/."""

import datetime

import pytest
from django.core.management import call_command
from django.utils import timezone

from judging.engine import rules
from judging.services import record_confirmed_result
from tests.browser.support import shot
from tests.factories import make_division, make_event, make_team
from tournament.models import Event, Match
from tournament.services.announcements import announce
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

SIZES = {"1080p": (1920, 1080), "720p": (1280, 720)}
LONG = "ひたちなか市立さくら台小学校かるた部ゆうやけチーム"  # a long name wraps, never cut off


def _four_groups():
    """One division of 20 teams drawn into 4 groups on 4 courts, scheduled, a few results."""
    event = make_event(courts=4, slug="hall")
    division = make_division(event, name="小学生の部")
    for i in range(1, 21):
        make_team(division, LONG + str(i) if i % 5 == 0 else f"チーム{i}", affiliation=f"子ども会{i % 4}")
    draw_groups(event, seed=1)
    make_schedule(event)
    for match in event.matches.order_by("match_number")[:6]:
        record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    return event, division


def _visible_groups_on_page(page, number):
    """Names of the groups whose block is shown and lies wholly inside the window while the
    screen shows page `number`, read in the same turn of the browser's event loop as the page
    number: with a page a second, a read after the wait could see the next page."""
    handle = page.wait_for_function(
        """(number) => {
            if (document.getElementById('display').dataset.page !== String(number)) return null;
            return Array.from(document.querySelectorAll('.hall-group')).filter(g => {
                if (g.hidden) return false;
                const r = g.getBoundingClientRect();
                return r.height > 0 && r.top >= 0 && r.left >= 0
                    && r.bottom <= window.innerHeight + 1 && r.right <= window.innerWidth + 1;
            }).map(g => g.dataset.group);
        }""",
        arg=number,
        timeout=5000,
    )
    return handle.json_value()


@pytest.mark.parametrize("size", list(SIZES))
def test_every_group_of_a_4_group_division_is_seen_within_one_rotation(new_page, live_server, transactional_db, size):
    event, division = _four_groups()
    width, height = SIZES[size]
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/{event.slug}/display/division/{division.pk}/?seconds=1")
    page.wait_for_function("() => document.getElementById('display').dataset.pages")
    pages = int(page.get_attribute("#display", "data-pages"))
    seen = set()
    for step in range(pages):
        seen.update(_visible_groups_on_page(page, step + 1))
        shot(page, f"hall_division_{size}_page{step + 1}")
    assert seen == {g.name for g in division.groups.all()}, f"{size}: seen {sorted(seen)} in {pages} pages"
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight + 1")
    name_px = page.evaluate(
        "Math.min(...Array.from(document.querySelectorAll('.hall-group:not([hidden]) td.team'))"
        ".map(t => parseFloat(getComputedStyle(t).fontSize) * (parseFloat(t.closest('.hall-item').style.zoom) || 1)))"
    )
    if size == "1080p":
        assert name_px >= 32, f"team names {name_px}px at 1080p"
    else:
        assert name_px >= 21, f"team names {name_px}px at 720p"


def test_an_announcement_and_a_result_in_the_first_second_appear_within_10_seconds(
    new_page, live_server, transactional_db
):
    event, division = _four_groups()
    court = event.courts.order_by("order").first()
    waiting = Match.objects.filter(court=court, status=Match.Status.SCHEDULED).order_by("slot")
    current, following = waiting[0], waiting[1]
    page = new_page(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    polls = []

    def first_poll(route):
        # the result is confirmed after the page was rendered and before its first poll answers:
        # the poll that used to become the baseline
        if not polls:
            record_confirmed_result(current, rules.SheetValues(28, 26, 2, rules.JokerHolder.A))
        polls.append(route.request.url)
        route.continue_()

    page.route("**/display/state.json", first_poll)
    page.goto(f"{live_server.url}/e/{event.slug}/display/courts/")
    page.wait_for_function(
        f"() => document.querySelector(\".hall-court[data-court='{court.pk}'] .hall-now\")"
        f".textContent.includes('第{following.match_number}試合 ')",
        timeout=10000,
    )
    page.locator(".hall-tick", has_text=f"第{current.match_number}試合 ").wait_for(timeout=10000)
    announce(event, "第3コートへ集合：チーム7", 5)
    page.locator("#hall-announce", has_text="第3コートへ集合：チーム7").wait_for(timeout=10000)
    assert page.locator("#hall-announce").evaluate("e => parseFloat(getComputedStyle(e).fontSize)") >= 48
    shot(page, "hall_courts_1080p_announcement")
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_timeout(300)  # the resize handler repacks (a layout, not a wait on the server)
    shot(page, "hall_courts_720p_announcement")


def test_the_overview_flags_a_late_court(new_page, live_server, transactional_db):
    event, division = _four_groups()
    court = event.courts.order_by("order").last()
    game = Match.objects.filter(court=court, status=Match.Status.SCHEDULED).order_by("slot").first()
    Match.objects.filter(pk=game.pk).update(start_at=timezone.now() - datetime.timedelta(minutes=12))
    page = new_page(viewport={"width": 1920, "height": 1080}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/{event.slug}/display/rotate/?screens=courts,division:{division.pk}&seconds=2")
    late = page.locator(f".hall-court.late[data-court='{court.pk}'] .hall-late")
    late.wait_for(timeout=5000)
    assert "12" in late.inner_text()
    shot(page, "hall_rotation_courts_1080p")
    page.locator(".hall-group").first.wait_for(timeout=10000)  # the rotation moves on to the division
    shot(page, "hall_rotation_division_1080p")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_division_with_its_bracket_is_never_cut_off(new_page, live_server, transactional_db, size):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    call_command("simulate_results", "demo")
    call_command("seed_knockout", "demo")
    event = Event.objects.get(slug="demo")
    division = max(event.divisions.all(), key=lambda d: d.groups.count())
    width, height = SIZES[size]
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/demo/display/division/{division.pk}/?seconds=1")
    page.wait_for_function("() => document.getElementById('display').dataset.pages")
    pages = int(page.get_attribute("#display", "data-pages"))
    for step in range(pages):
        page.wait_for_function(f"() => document.getElementById('display').dataset.page === '{step + 1}'", timeout=5000)
        outside = page.evaluate(
            """() => Array.from(document.querySelectorAll('.hall-item:not([hidden])')).filter(i => {
                const r = i.getBoundingClientRect();
                return r.bottom > window.innerHeight + 1 || r.right > window.innerWidth + 1;
            }).length"""
        )
        assert outside == 0, f"{size} page {step + 1}: {outside} blocks cut off"
        shot(page, f"hall_demo_division_{size}_page{step + 1}")
    assert page.locator(".hall-bracket").count() == 1
