"""The series pages and the archive in the browser: a staff organiser merges two spellings of a club
on the clubs page and sees the club ranking change; the archive fits a phone (390 px, Japanese)
and shows no player's name."""

import pytest

from series import services
from tests.browser.support import log_in, shot
from tests.series import support
from tournament.models import Player

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def played(transactional_db, django_user_model):
    north, final = support.two_events()
    # Staff: the clubs page is for superusers and staff only (docs/rules/series.md, "Who").
    user = django_user_model.objects.create_user("organiser", password="x" * 12, is_staff=True)
    for event in (north, final):
        event.organisers.add(user)
    series = services.create_series(user, "hitachi-2027", "日立市かるたシリーズ", 2027, "10,7,5,3,2,1")
    services.add_event(series, north, "qualifier", "北部")
    services.add_event(series, final, "final")
    return series


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def test_merging_two_spellings_on_the_clubs_page_changes_the_club_ranking(new_page, live_server, played):
    page = new_page(locale="ja-JP")
    log_in(page, live_server, "organiser", "x" * 12, f"/series/{played.slug}/")
    clubs = page.locator("table.series-ranking").last
    assert "中小路小" in clubs.inner_text()
    shot(page, "series-ranking")
    page.goto(f"{live_server.url}/series/clubs/")
    page.select_option("#id_keep", "日立市立中小路小学校")
    page.select_option("#id_other", "中小路小")
    with page.expect_navigation():
        page.click("text=1つのクラブにまとめる")
    assert "2つの表記を1つのクラブにまとめました" in page.inner_text(".messages")
    shot(page, "series-clubs-merged")
    page.goto(f"{live_server.url}/series/{played.slug}/")
    first = page.locator("table.series-ranking").last.locator("tr").nth(1).inner_text()
    assert "日立市立中小路小学校" in first and "25" in first


def test_the_archive_fits_a_phone_and_shows_no_players_name(new_page, live_server, played):
    names = list(Player.objects.values_list("name", flat=True))
    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(f"{live_server.url}/")
    with page.expect_navigation():
        page.click("text=過去の大会")
    assert no_sideways_scroll(page)
    with page.expect_navigation():
        page.click("text=第12回日立市かるた大会")
    assert "大みかA" in page.inner_text("main") and no_sideways_scroll(page)
    shot(page, "archive-edition-phone")
    page.goto(f"{live_server.url}/archive/clubs/")
    text = page.inner_text("main")
    assert "大みか子ども会" in text and no_sideways_scroll(page)
    assert not [n for n in names if n in page.content()]
    shot(page, "archive-clubs-phone")
