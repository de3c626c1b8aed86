"""Placement games (順位決定戦) in the browser: the organiser sets the format and the pairs on the
division form (a bad pair text is named, nothing lost), seeds the division on the knockout page,
and reads the games by place there and on the public bracket (390 px wide)."""

from django.core.management import call_command

from tests import factories
from tests.browser.support import log_in, shot
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


def test_the_organiser_sets_placement_games_and_reads_them_by_place(
    new_page, live_server, transactional_db, django_user_model
):
    event = factories.make_event(courts=4, slug="place")
    division = factories.make_division(event, courts=[1, 2, 3, 4])
    factories.make_teams(division, 12)
    draw_groups(event, seed=2)
    make_schedule(event)
    django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    event.organisers.add(django_user_model.objects.get(username="organiser"))
    page = new_page(viewport={"width": 1024, "height": 900}, locale="ja-JP")
    errors = []
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 500 else None)
    path = f"/manage/place/divisions/{division.pk}/"
    log_in(page, live_server, "organiser", "karuta-test-pw", path)

    page.select_option("#id_after_groups", "placement")
    page.fill("#id_placement_pairs", "A-C, B-X")
    with page.expect_navigation():
        page.click("main form button:not(.secondary)")
    assert "「X」というリーグはありません" in page.inner_text("main")
    assert page.input_value("#id_placement_pairs") == "A-C, B-X"  # nothing lost
    page.fill("#id_placement_pairs", "A-C, B-D")
    with page.expect_navigation():
        page.click("main form button:not(.secondary)")
    # four groups in two pairs: two teams 第1位; the form says so before saving (issue 27)
    assert "同順位ができます（第1位 2チーム" in page.inner_text("main")
    page.check("#id_shared_places_ok")
    with page.expect_navigation():
        page.click("main form button:not(.secondary)")
    page.goto(f"{live_server.url}{path}")
    following = page.inner_text("#following-games")
    assert "1位決定戦（A-C）" in following and "1位決定戦（B-D）" in following
    shot(page, "placement-1-division-form")

    call_command("simulate_results", "place", "--seed", "3")
    page.goto(f"{live_server.url}/manage/place/knockout/")
    with page.expect_navigation():
        page.click(f"#division-{division.pk} button[value=seed]")  # the division's own seed button
    section = page.locator(f"#placement-{division.pk}")
    text = section.inner_text()
    assert "1位決定戦（A-C）" in text and "勝者1位・敗者3位（2試合で同順位）" in text
    assert Match.objects.filter(division=division, stage=Match.Stage.PLACEMENT).count() == 6
    shot(page, "placement-2-knockout-page")

    call_command("simulate_results", "place", "--stage", "placement", "--seed", "4")
    phone = new_page(viewport={"width": 390, "height": 844}, locale="ja-JP")
    phone.goto(f"{live_server.url}/e/place/bracket/")
    assert "3位決定戦（B-D）" in phone.inner_text(f"#placement-{division.pk}")
    shot(phone, "placement-3-public-bracket-390")
    phone.goto(f"{live_server.url}/e/place/final/")
    assert "第1位" in phone.inner_text("main")
    shot(phone, "placement-4-final-results-390")
    assert not errors, errors
