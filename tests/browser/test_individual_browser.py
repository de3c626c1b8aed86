"""Individual card counts on a tablet (issue 16, item 8): the referee types each player's
cards, a side that does not add up is named and nothing is lost, then the organiser sees
the individual table. At 768×1024 and 390×844."""

import pytest
from django.core.management import call_command

from tests.browser.support import log_in, shot
from tournament.models import Event, Match


@pytest.mark.parametrize("viewport", [(768, 1024), (390, 844)], ids=["tablet", "phone"])
def test_the_referee_enters_each_players_cards(new_page, live_server, transactional_db, django_user_model, viewport):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    Event.objects.filter(slug="demo").update(individual_counts=True, auto_confirm=True)
    match = Match.objects.order_by("match_number").first()
    a = list(match.team_a.players.order_by("order", "pk"))
    b = list(match.team_b.players.order_by("order", "pk"))
    width, height = viewport
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    errors = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    page.goto(f"{live_server.url}/court/{match.court.token}/game/{match.match_number}/")
    assert page.locator("#player-cards").is_visible()
    page.fill("#id_cards_a", "30")
    page.fill("#id_cards_b", "26")
    page.fill("#id_referee_cards", "0")
    page.check("input[name=joker_holder][value=A]")
    for player, cards in zip(a, ["12", "10", "7"], strict=False):
        page.fill(f"#id_player_{player.pk}", cards)
    for player, cards in zip(b, ["9", "9", "8"], strict=False):
        page.fill(f"#id_player_{player.pk}", cards)
    # the live sum per side, before sending (the server checks again)
    assert "29" in page.inner_text(".player-side[data-side=A] .player-sum")
    assert page.locator(".player-side[data-side=A] .player-sum.bad").count() == 1
    assert page.locator(".player-side[data-side=B] .player-sum.good").count() == 1
    with page.expect_navigation():
        page.click("button.big-submit")
    shot(page, f"individual-{width}-1-sum-error")
    side_a = page.locator(".player-side[data-side=A] .errorlist")
    assert "個人枚数の合計（29）がチームの枚数（30）と合いません" in side_a.inner_text()
    assert page.locator(".player-side[data-side=B] .errorlist").count() == 0
    assert page.input_value(f"#id_player_{a[2].pk}") == "7"  # nothing lost
    assert not match.sheets.exists()
    page.fill(f"#id_player_{a[2].pk}", "8")
    with page.expect_navigation():
        page.click("button.big-submit")
    assert "/saved/1/" in page.url
    assert match.sheets.get().player_cards.count() == len(a) + len(b)
    shot(page, f"individual-{width}-2-saved")
    django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    Event.objects.get(slug="demo").organisers.add(django_user_model.objects.get(username="organiser"))
    log_in(page, live_server, "organiser", "karuta-test-pw", "/manage/demo/standings/")
    table = page.locator("#individual")
    table.scroll_into_view_if_needed()
    assert a[0].name in table.inner_text() and "12" in table.inner_text()
    shot(page, f"individual-{width}-3-standings")
    assert not errors, errors
