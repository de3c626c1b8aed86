"""Provisional standings (暫定) and a withdrawn team (棄権) on the organiser's and the
public standings pages, at 390 and 1280 px: the marks are visible, no group with games left
asks for a lot, and the page itself never scrolls sideways (the tables do)."""

import pytest
from django.core.management import call_command

from judging.engine import rules
from judging.services import record_confirmed_result
from tests.browser.support import SHOTS, log_in, shot
from tournament.models import Event, Match
from tournament.services.withdrawal import withdraw_team


def _half_a_morning():
    """The demo event drawn and scheduled; about half the games confirmed; in the first
    division the first group's first team withdraws with its games annulled."""
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    event = Event.objects.get(slug="demo")
    matches = list(Match.objects.filter(event=event).order_by("match_number"))
    for match in matches[: len(matches) // 2]:
        record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    division = event.divisions.order_by("order", "pk").first()
    division.withdrawal = "annul"
    division.save(update_fields=["withdrawal"])
    team = division.groups.order_by("order", "pk").first().teams.order_by("group_seat", "pk").first()
    withdraw_team(team)
    return event, team


@pytest.mark.parametrize("width", [390, 1280], ids=["phone", "desktop"])
def test_the_standings_pages_mark_provisional_rows_and_the_withdrawn_team(
    new_page, live_server, transactional_db, django_user_model, width
):
    event, withdrawn = _half_a_morning()
    django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    event.organisers.add(django_user_model.objects.get(username="organiser"))
    page = new_page(viewport={"width": width, "height": 900}, locale="ja-JP")
    errors = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    log_in(page, live_server, "organiser", "karuta-test-pw", "/manage/demo/standings/")
    for where in ("organiser", "public"):
        if where == "public":
            page.goto(f"{live_server.url}/e/demo/standings/")
        badge = page.locator(".badge.provisional").first
        badge.wait_for()
        assert badge.is_visible() and badge.inner_text() == "暫定"
        row = page.locator("tr.withdrawn.annulled", has_text=withdrawn.name)
        assert row.count() == 1 and "棄権" in row.inner_text()
        assert page.locator(".mark.withdrawn-mark").first.is_visible()
        provisional = page.locator("div.card", has=page.locator(".badge.provisional"))
        assert provisional.count() >= 1
        for i in range(provisional.count()):
            group = provisional.nth(i)
            assert "抽選か代表戦が必要です" not in group.inner_text()
            assert group.locator("input[name^=team_]").count() == 0
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, f"{where} page scrolls sideways by {overflow}px at {width}px"
        shot(page, f"standings-provisional-{where}-{width}")
        if where == "public":  # the short standings fit the screen: no table scrolls sideways
            continue
        container = page.locator(".table-container").first
        container.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
        container.screenshot(path=str(SHOTS / f"standings-provisional-{where}-{width}-table-right.png"))
    assert not errors, errors
