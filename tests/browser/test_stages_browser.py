"""Issue 15 in a real browser (Debian's Chromium, Playwright): the organiser corrects a group
result after the semifinal was played, is told before confirming what it changes, sees the
semifinal out of date on the knockout page and on the game's page, and replays it."""

import pytest

from judging.models import HistoryEntry
from tests.browser.support import log_in, shot
from tests.tournament.test_stages_services import between, day, members, play, play_groups, semifinal_of
from tournament.models import Event, Match
from tournament.services.knockout import seed_divisions

PASSWORD = "karuta-test-pw"


@pytest.fixture
def played_semifinal(django_user_model, transactional_db):
    """One division of 4 groups of 3, every group game and group A's semifinal played (auto
    confirmed), then the event back to the recorder's check; an organiser."""
    event, (division,) = day([("小学生の部", [1, 2, 3, 4], 12, {})])
    user = django_user_model.objects.create_user("organiser", password=PASSWORD)
    event.organisers.add(user)
    play_groups(division)
    seed_divisions(event)
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    Event.objects.filter(pk=event.pk).update(auto_confirm=False)
    first, second, _third = members(group)
    return event, division, semi, between(first, second), first, second


@pytest.mark.parametrize("viewport", [(1280, 900), (768, 1024)], ids=["1280", "768"])
def test_a_correction_after_the_semifinal_warns_before_and_after_and_the_semifinal_is_replayed(
    new_page, live_server, played_semifinal, viewport
):
    event, division, semi, game, first, second = played_semifinal
    width, height = viewport
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    game_path = f"/manage/{event.slug}/games/{game.match_number}/"
    log_in(page, live_server, "organiser", PASSWORD, game_path)
    # The group game's page already says a correction can reach the played semifinal.
    assert f"第{semi.match_number}試合" in page.inner_text(".frozen-after")
    # The organiser types the corrected sheet: the first team now loses 26–30.
    a_is_first = game.team_a_id == first.pk
    page.fill("#id_cards_a", "26" if a_is_first else "30")
    page.fill("#id_cards_b", "30" if a_is_first else "26")
    page.fill("#id_referee_cards", "0")
    page.check(f"input[name=joker_holder][value={'B' if a_is_first else 'A'}]")
    with page.expect_navigation():
        page.click("button.big-submit")
    # Before confirming: the page names the place that changes and the played semifinal.
    warning = page.inner_text(".slot-changes")
    assert f"確定すると{division.name}・予選Aリーグ1位が{first.name}から{second.name}に変わります。" in warning
    assert f"第{semi.match_number}試合（準決勝）はすでに結果があります。" in warning
    shot(page, f"stages-{width}-1-game-before-confirming")
    with page.expect_navigation():
        page.click(f"a[href$='/games/{game.match_number}/confirm-alone/']")
    assert f"{first.name}から{second.name}に変わります" in page.inner_text(".slot-changes")
    with page.expect_navigation():
        page.click("form.filters button")
    # After: the knockout page lists the semifinal as out of date, naming the place.
    page.goto(f"{live_server.url}/manage/{event.slug}/knockout/")
    stale = page.locator(f"#stale-{semi.match_number}")
    assert f"{division.name}・予選Aリーグ1位：前は{first.name}、今は{second.name}" in stale.inner_text()
    shot(page, f"stages-{width}-2-knockout-out-of-date")
    # The semifinal's own page says so too.
    page.goto(f"{live_server.url}/manage/{event.slug}/games/{semi.match_number}/")
    assert "見直しが必要です" in page.inner_text(".stale-notice")
    shot(page, f"stages-{width}-3-semifinal-out-of-date")
    # The court board and the hall display mark it too.
    page.goto(f"{live_server.url}/manage/{event.slug}/board/")
    assert f"第{semi.match_number}試合" in page.inner_text(".board-stale")
    shot(page, f"stages-{width}-3b-board-out-of-date")
    page.goto(f"{live_server.url}/e/{event.slug}/display/division/{division.pk}/")
    assert "結果の訂正により確認中" in page.inner_text(".display-stale")
    shot(page, f"stages-{width}-3c-display-out-of-date")
    # The organiser replays it (the browser's confirmation accepted).
    page.goto(f"{live_server.url}/manage/{event.slug}/knockout/#stale-{semi.match_number}")
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click(f"#stale-{semi.match_number} button[value=replay]")
    assert "再試合します" in page.inner_text(".messages")
    assert page.locator(".stale-game").count() == 0
    shot(page, f"stages-{width}-4-knockout-replayed")
    semi.refresh_from_db()
    assert semi.status == Match.Status.SCHEDULED
    assert second.pk in (semi.team_a_id, semi.team_b_id) and first.pk not in (semi.team_a_id, semi.team_b_id)
    assert semi.history.filter(action=HistoryEntry.Action.REPLAYED).exists()


@pytest.mark.parametrize("viewport", [(1280, 900), (768, 1024)], ids=["1280", "768"])
def test_the_knockout_page_seeds_one_division_while_the_others_wait(
    new_page, live_server, django_user_model, transactional_db, viewport
):
    event, (low, high, single) = day(
        [("小学生低学年の部", [1, 2], 6, {}), ("小学生高学年の部", [3, 4], 6, {}), ("中学生の部", [5], 4, {})]
    )
    django_user_model.objects.create_user("organiser", password=PASSWORD)
    event.organisers.add(django_user_model.objects.get(username="organiser"))
    play_groups(high)
    play_groups(single)
    width, height = viewport
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    path = f"/manage/{event.slug}/knockout/"
    log_in(page, live_server, "organiser", PASSWORD, path)
    assert "残り" in page.inner_text(f"#division-{low.pk}")
    assert "優勝" in page.inner_text(f"#division-{single.pk}")
    shot(page, f"stages-{width}-5-knockout-divisions")
    with page.expect_navigation():
        page.click(f"#division-{high.pk} button[value=seed]")
    assert "小学生高学年の部：トーナメント表を作成しました" in page.inner_text(".messages")
    assert page.get_attribute(f"#division-{high.pk}", "data-state") == "seeded"
    assert page.get_attribute(f"#division-{low.pk}", "data-state") == "playing"
    assert not Match.objects.filter(division__in=[low, single]).exclude(stage=Match.Stage.GROUP).exists()
    shot(page, f"stages-{width}-6-knockout-one-seeded")
