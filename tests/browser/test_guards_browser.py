"""An organiser withdraws a team after its group and changes a setting results depend on, in a
real browser (Debian's Chromium, Playwright): both pages say what will change before saving
(issue 15, items 4 and 5)."""

import pytest
from django.db.models import Q

from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tests.browser.support import log_in, shot
from tournament.models import Division, Match, Team
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule


def play(match, winner, cards_winner, cards_loser):
    side = "A" if match.team_a_id == winner.pk else "B"
    a, b = (cards_winner, cards_loser) if side == "A" else (cards_loser, cards_winner)
    record_confirmed_result(match, rules.SheetValues(a, b, 56 - a - b, rules.JokerHolder(side)))


@pytest.fixture
def seeded(transactional_db, django_user_model):
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], qualifiers_per_group=1)
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    make_schedule(event)
    order = {}
    for group in division.groups.order_by("order"):
        first, second, third = Team.objects.filter(group=group).order_by("group_seat")
        for x, y, cards in ((first, second, (29, 27)), (first, third, (29, 27)), (second, third, (40, 10))):
            match = Match.objects.get(Q(team_a=x, team_b=y) | Q(team_a=y, team_b=x))
            play(match, x, *cards)
        order[group.name] = (first, second, third)
    seed_knockout(event)
    user = django_user_model.objects.create_user("org", password="pass-for-tests-1")
    event.organisers.add(user)
    return event, division, order


@pytest.mark.parametrize("width", [390, 1280])
def test_the_organiser_reads_what_a_withdrawal_and_a_setting_change_will_do(new_page, live_server, seeded, width):
    event, division, order = seeded
    leaving, _next_team, _third = order["A"]
    page = new_page(viewport={"width": width, "height": 900}, locale="ja-JP")
    teams_path = f"/manage/{event.slug}/teams/"
    log_in(page, live_server, "org", "pass-for-tests-1", teams_path)
    with page.expect_navigation():
        page.click(f"a[href='{teams_path}{leaving.pk}/withdraw/']")
    text = page.inner_text("main")
    assert "リーグ戦は終了しています" in text
    # drawn into the final already: it keeps its place there and its opponent wins by walkover
    assert "不戦勝" in text and "そこでの試合はすべて相手の不戦勝" in text
    shot(page, f"guards-{width}-1-withdraw-confirm")
    assert not Team.objects.get(pk=leaving.pk).withdrawn  # the page saved nothing
    with page.expect_navigation():
        page.click("main form button")
    assert Team.objects.get(pk=leaving.pk).withdrawn
    assert "棄権にしました" in page.inner_text("main")
    shot(page, f"guards-{width}-2-withdrawn")
    # The ranking order: a second step lists the places and slots, then saves.
    page.goto(f"{live_server.url}/manage/{event.slug}/divisions/{division.pk}/")
    page.select_option("#id_preset", "head_to_head_first")
    page.select_option("#id_walkover_cards", "exclude")
    with page.expect_navigation():
        page.click("main form button:not([type=button])")
    assert page.locator(".settings-effects").is_visible()
    shot(page, f"guards-{width}-3-settings-confirm")
    assert Division.objects.get(pk=division.pk).walkover_cards == "count"
    page.check("input[name=confirm_effects]")
    with page.expect_navigation():
        page.click("main form button:not([type=button])")
    assert Division.objects.get(pk=division.pk).walkover_cards == "exclude"
