"""The public pages on a parent's phone (390×844, Japanese), issue 17, item 1: no page scrolls
sideways, every game shows its result in view (also in the team view a QR code opens, with a
40-character team name), and a page keeps itself up to date without jumping."""

import pytest

from tests import factories
from tests.browser.support import shot
from tests.tournament.test_standings_settings import play
from tournament.models import Match, Team
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule
from tournament.views import public

PHONE = {"width": 390, "height": 844}
LONG_NAME = "ひたちなか市立かるた愛好会少年少女チーム東ブロック第二班Ａ"  # 30 + padded below
LONG_NAME = (LONG_NAME + "ジュニアクラブ")[:40]


@pytest.fixture
def day(transactional_db):
    """Two divisions on four courts, drawn and scheduled; a team with a 40-character name;
    every other game of the first division played (30-26)."""
    event = factories.make_event(courts=4)
    first = factories.make_division(event, courts=[1, 2])
    second = factories.make_division(event, name="一般の部", courts=[3, 4])
    factories.make_teams(first, 7)
    factories.make_team(first, LONG_NAME, affiliation="ひたちなか市かるた協会ジュニア部")
    factories.make_teams(second, 6, prefix="一般")
    draw_groups(event, seed=3)
    make_schedule(event)
    long_team = Team.objects.get(name=LONG_NAME)
    played = Match.objects.filter(event=event, division=first).order_by("match_number")
    for i, match in enumerate(played):
        if i % 2 == 0 or long_team.pk in (match.team_a_id, match.team_b_id):
            play(match, "A")
    return event, long_team


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def assert_result_in_view(page, number):
    """The game's result cell is on screen horizontally, shows the cards, and is not cut off."""
    score = page.locator(f'.game[data-key="{number}"] .score')
    score.scroll_into_view_if_needed()
    box = score.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert score.inner_text().strip() == "30 - 26"
    assert score.is_visible()


def test_every_public_page_fits_a_phone_and_shows_results_in_view(new_page, live_server, day):
    event, long_team = day
    court = event.courts.order_by("order").first()
    division = event.divisions.get(name="小学生の部")
    page = new_page(viewport=PHONE, locale="ja-JP")
    base = f"{live_server.url}/e/{event.slug}"
    played = Match.objects.filter(event=event, status=Match.Status.CONFIRMED).order_by("match_number")
    on_court = played.filter(court=court).first()
    of_team = played.filter(team_a=long_team).first() or played.filter(team_b=long_team).first()
    pages = {
        "timetable": (f"{base}/", played.first()),
        "timetable-all": (f"{base}/?show=all", played.last()),
        "timetable-division": (f"{base}/?division={division.pk}", played.first()),
        "court": (f"{base}/court/{court.pk}/", on_court),
        "team": (f"{base}/team/{long_team.pk}/", of_team),
        "results": (f"{base}/results/", played.first()),
        "standings": (f"{base}/standings/", None),
        "standings-full": (f"{base}/standings/?full=1", None),
        "bracket": (f"{base}/bracket/", None),
        "final": (f"{base}/final/", None),
        "home": (f"{live_server.url}/", None),
    }
    for name, (url, game) in pages.items():
        page.goto(url)
        assert no_sideways_scroll(page), name
        if game is not None:
            assert page.locator(f'.game[data-key="{game.match_number}"]').count() == 1, name
            assert_result_in_view(page, game.match_number)
        shot(page, f"public-phone-{name}-390")
    wide = new_page(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    for name in ("timetable", "team", "results", "standings", "final"):
        wide.goto(pages[name][0])
        assert no_sideways_scroll(wide), name
        shot(wide, f"public-phone-{name}-1280")
    # The team view: the long name wraps inside its card and every one of its games is there.
    page.goto(f"{base}/team/{long_team.pk}/")
    games = Match.objects.filter(event=event).filter(team_a=long_team) | Match.objects.filter(team_b=long_team)
    assert page.locator(".game").count() == games.count()
    mine = page.locator(".game .side.me").first
    box = mine.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"] and box["height"] > 30  # wrapped on two lines or more
    # The short standings: rank, team, wins and the deciding figure, linked to the team view.
    page.goto(f"{base}/standings/")
    assert page.locator(".short-standings th").count() % 4 == 0
    page.locator(".short-standings a", has_text=LONG_NAME).click()
    page.wait_for_url(f"**/team/{long_team.pk}/")
    # The team selector leads to a team's page (no inline script: public_refresh.js sends it).
    page.goto(f"{base}/")
    page.select_option("#team-picker", str(long_team.pk))
    page.wait_for_url(f"**/team/{long_team.pk}/")


def test_a_public_page_shows_a_result_confirmed_after_it_loaded_without_jumping(
    new_page, live_server, day, monkeypatch
):
    monkeypatch.setattr(public, "REFRESH_SECONDS", 0.5)
    event, _long_team = day
    waiting = list(Match.objects.filter(event=event, status=Match.Status.SCHEDULED).order_by("match_number"))
    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(f"{live_server.url}/e/{event.slug}/?show=all")
    assert page.locator("#live").get_attribute("data-seconds") == "0.5"
    # Read from the middle of the page: that game must stay where it is on screen.
    middle = page.locator(f'.game[data-key="{waiting[len(waiting) // 2].match_number}"]')
    middle.scroll_into_view_if_needed()
    page.evaluate("window.scrollBy(0, 120)")
    before = middle.bounding_box()["y"]
    # Confirmed at once (the first seconds after the page loaded) and one game higher up.
    target = waiting[0]
    play(target, "A")
    score = page.locator(f'.game[data-key="{target.match_number}"] .score')
    page.wait_for_function(
        "n => document.querySelector(`.game[data-key=\"${n}\"] .score`).textContent.trim() === '30 - 26'",
        arg=target.match_number,
        timeout=10_000,
    )
    assert score.inner_text().strip() == "30 - 26"
    assert "changed" in page.locator(f'.game[data-key="{target.match_number}"]').get_attribute("class")
    assert abs(middle.bounding_box()["y"] - before) <= 2
    shot(page, "public-phone-refreshed-390")
