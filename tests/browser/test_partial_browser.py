"""The organiser sets 3 games per team for a division, in Japanese, and makes the schedule
(issue 15, item 7, first bullet): the refusal when a group cannot, then the schedule."""

from collections import Counter
from io import StringIO

from django.core.management import call_command

from tests import factories
from tests.browser.support import log_in, shot
from tournament.models import Match
from tournament.services.draw import draw_groups


def test_the_organiser_sets_three_games_per_team(new_page, live_server, transactional_db, django_user_model):
    event = factories.make_event(courts=2, slug="school")
    division = factories.make_division(event, name="小学生高学年の部", courts=[1, 2])
    factories.make_teams(division, 15)
    draw_groups(event, seed=1)  # groups of 8 and 7
    user = django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    event.organisers.add(user)

    page = new_page(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    path = f"/manage/{event.slug}/divisions/{division.pk}/"
    log_in(page, live_server, "organiser", "karuta-test-pw", path)
    assert "総当たり" in page.inner_text("main")
    page.fill("#id_games_per_team", "3")
    with page.expect_navigation():
        page.click("main form button")
    shot(page, "partial-division-form-refusal")
    errors = page.inner_text("main")
    seven = next(g for g in division.groups.all() if g.teams.count() == 7)
    assert (
        f"小学生高学年の部・予選{seven.name}リーグ：7チームで1チーム3試合は組めません（試合数の合計が奇数）" in errors
    )
    division.refresh_from_db()
    assert division.games_per_team is None

    # one team more: two groups of 8
    factories.make_team(division, "チーム16")
    draw_groups(event, seed=1)
    page.goto(f"{live_server.url}{path}")
    page.fill("#id_games_per_team", "3")
    with page.expect_navigation():
        page.click("main form button")
    division.refresh_from_db()
    assert division.games_per_team == 3

    page.goto(f"{live_server.url}/manage/{event.slug}/schedule/")
    with page.expect_navigation():
        page.click("form[action$='/schedule/make/'] button")
    text = page.inner_text("main")
    assert "小学生高学年の部：各チームはリーグ内で3試合を行います（総当たりではありません）。" in text
    shot(page, "partial-schedule")
    page.goto(f"{live_server.url}/manage/{event.slug}/schedule/checks/")
    shot(page, "partial-schedule-checks")
    assert page.locator("ul.check-problems").count() == 0 and page.locator("tr.row-problem").count() == 0
    call_command("simulate_results", event.slug, "--seed", "3", stdout=StringIO())
    page.goto(f"{live_server.url}/manage/{event.slug}/standings/")
    shot(page, "partial-standings")
    played = Counter(t for m in Match.objects.filter(division=division) for t in (m.team_a_id, m.team_b_id))
    assert set(played.values()) == {3} and len(played) == 16
