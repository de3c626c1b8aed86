"""The pages pass their Content-Security-Policy (issue 18, item 4): no page of the day, public,
hall display, court or organiser, makes the browser refuse a script, a style or an image,
and the behaviours that were inline handlers (data-ask, auto-send, go to) still work."""

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command

from tests.browser.support import log_in
from tournament.models import Court, Division, Event, Match, Team

WATCH = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI + " " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


@pytest.fixture
def day(django_user_model, transactional_db):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    user = django_user_model.objects.create_user("organiser-csp", password="karuta-test-pw")
    user.user_permissions.add(Permission.objects.get(codename="add_event"))
    Event.objects.get(slug="demo").organisers.add(user)
    return Event.objects.get(slug="demo")


def watched_page(new_page):
    page = new_page(viewport={"width": 1280, "height": 800}, locale="ja-JP")
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
    page.on("pageerror", lambda e: refused.append(f"script error: {e}"))
    page.add_init_script(WATCH)
    return page, refused


def visit(page, url, refused):
    page.goto(url)
    page.wait_for_load_state("load")
    refused += [f"{url}: {v}" for v in page.evaluate("window.__csp || []")]


def test_no_main_page_violates_the_content_security_policy(new_page, live_server, day):
    call_command("simulate_results", "demo", "--seed", "2")
    page, refused = watched_page(new_page)
    court = Court.objects.filter(event=day).order_by("order").first()
    match = Match.objects.filter(event=day, court=court).order_by("match_number").first()
    team = Team.objects.filter(division__event=day).first()
    division = Division.objects.filter(event=day).first()
    base = live_server.url
    public = [
        "/",
        "/e/demo/",
        f"/e/demo/team/{team.pk}/",
        "/e/demo/results/",
        "/e/demo/standings/",
        "/e/demo/bracket/",
        f"/e/demo/display/division/{division.pk}/",
        f"/e/demo/display/court/{court.pk}/",
        f"/court/{court.token}/",
        f"/court/{court.token}/game/{match.match_number}/",
        f"/court/{court.token}/game/{match.match_number}/dispute/",
        f"/court/{court.token}/rules/",
        "/accounts/login/",
    ]
    for path in public:
        visit(page, base + path, refused)
    log_in(page, live_server, "organiser-csp", "karuta-test-pw", "/manage/")
    manage = [
        "/manage/",
        "/manage/demo/",
        "/manage/demo/edit/",
        "/manage/demo/teams/",
        "/manage/demo/teams/add/",
        "/manage/demo/teams/import/",
        "/manage/demo/groups/",
        "/manage/demo/schedule/",
        "/manage/demo/standings/",
        "/manage/demo/knockout/",
        "/manage/demo/print/",
        "/manage/demo/courts/",
        "/manage/demo/people/",
        "/manage/demo/confirm/",
        "/manage/demo/board/",
        f"/manage/demo/games/{match.match_number}/",
        f"/manage/demo/games/{match.match_number}/dispute/",
        "/games/",
        "/games/hanafuda/",
        "/games/dosai/",
    ]
    for path in manage:
        visit(page, base + path, refused)
    assert refused == [], "\n".join(refused)


def test_the_former_inline_handlers_work_under_the_policy(new_page, live_server, day):
    page, refused = watched_page(new_page)
    log_in(page, live_server, "organiser-csp", "karuta-test-pw", "/manage/demo/schedule/")
    games = Match.objects.filter(event=day).count()
    # data-confirm: "Cancel" sends nothing.
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("form[action$='/schedule/clear/'] button")
    page.wait_for_load_state("load")
    assert Match.objects.filter(event=day).count() == games and page.url.endswith("/manage/demo/schedule/")
    # data-ask: "OK" sends the form.
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.click("form[action$='/schedule/clear/'] button")
    assert Match.objects.filter(event=day).count() == 0
    call_command("make_schedule", "demo")
    page.reload()
    # data-autosubmit: choosing a court sends the filter.
    with page.expect_navigation():
        page.select_option("select[name=court][data-autosubmit]", index=1)
    assert "court=" in page.url
    # The language switch in every page's header: a link (no form, no CSRF cookie).
    with page.expect_navigation():
        page.click("header nav.languages a[hreflang=en]")
    assert page.locator("html").get_attribute("lang") == "en"
    # data-autosubmit on the public timetable: choosing a team opens its page.
    team = Team.objects.filter(division__event=day).order_by("pk").first()
    page.goto(f"{live_server.url}/e/demo/")
    with page.expect_navigation():
        page.select_option("select[name=team]", value=str(team.pk))
    page.wait_for_url(f"**/e/demo/team/{team.pk}/")
    assert page.url.endswith(f"/e/demo/team/{team.pk}/")
    refused += page.evaluate("window.__csp || []")
    assert refused == []


def test_a_refused_form_comes_back_into_the_same_form_not_sent(new_page, live_server, day):
    page, refused = watched_page(new_page)
    people = "/manage/demo/people/"
    log_in(page, live_server, "organiser-csp", "karuta-test-pw", people)
    page.fill("#id_username", "suzuki")
    page.fill("#id_password", "Typed-secret-9")
    page.select_option("#id_role", "organiser")
    page.context.clear_cookies(name="csrftoken")  # the cookie was lost: the CSRF check refuses the form
    with page.expect_navigation():
        page.click("main form.card button")
    assert page.locator("#csrf-failure").count() == 1 and page.locator("#csrf-failure form").count() == 0
    with page.expect_navigation():
        page.click("#csrf-failure a.button")
    page.wait_for_selector("#kept-form-restored:not([hidden])")
    assert page.input_value("#id_username") == "suzuki" and page.input_value("#id_role") == "organiser"
    assert page.input_value("#id_password") == "" and "Typed-secret-9" not in page.content()
    assert not day.organisers.filter(username="suzuki").exists()  # nothing sent on its own
    refused += page.evaluate("window.__csp || []")
    assert refused == []


def test_a_refused_step_comes_back_into_its_form_on_the_schedule_page(new_page, live_server, day):
    """A step's own address answers a GET with 405 (issue 30, item 5): the CSRF page leads to
    the schedule page, whose delay form gets the values back; nothing is delayed."""
    page, refused = watched_page(new_page)
    schedule = "/manage/demo/schedule/"
    log_in(page, live_server, "organiser-csp", "karuta-test-pw", schedule)
    starts = sorted(Match.objects.filter(event=day).values_list("pk", "start_at"))
    page.fill("form[action$='/schedule/delay/'] input[name=minutes]", "25")
    page.context.clear_cookies(name="csrftoken")
    with page.expect_navigation():
        page.click("form[action$='/schedule/delay/'] button:not([formaction])")
    assert page.locator("#csrf-failure").count() == 1
    assert page.get_attribute("#csrf-failure a.button", "href") == schedule
    with page.expect_navigation():
        page.click("#csrf-failure a.button")
    page.wait_for_selector("#kept-form-restored:not([hidden])")
    assert page.input_value("form[action$='/schedule/delay/'] input[name=minutes]") == "25"
    assert sorted(Match.objects.filter(event=day).values_list("pk", "start_at")) == starts
    assert page.evaluate("window.__csp || []") == [] and refused == []
