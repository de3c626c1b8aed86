"""Headers (issue 18, item 4): no-store on every page or file behind a login or a court token,
a Content-Security-Policy without inline script, robots.txt and noindex, no inline handlers."""

import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests import factories

pytestmark = pytest.mark.django_db

CODE = Path(__file__).resolve().parents[2]
TEMPLATES = CODE / "templates"


@pytest.fixture
def event():
    event = factories.make_event(courts=1, slug="karuta")
    division = factories.make_division(event)
    factories.make_teams(division, 2)
    return event


@pytest.fixture
def organiser_client(client, event):
    user = get_user_model().objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    return client


def test_private_pages_and_files_are_never_stored(organiser_client, event):
    court = event.courts.get()
    for url in [
        reverse("tournament:event_detail", args=[event.slug]),
        reverse("tournament:team_list", args=[event.slug]),
        reverse("tournament:print_paper", args=[event.slug, "reception"]),  # children's names
        reverse("tournament:export_workbook", args=[event.slug]) + "?kind=teams",
        reverse("judging:court_home", args=[court.token]),
        reverse("login"),
        reverse("games"),
    ]:
        response = organiser_client.get(url)
        assert response.status_code == 200, url
        assert response["Cache-Control"] == "no-store", url


def test_public_pages_may_be_cached_but_are_not_indexed(client, event):
    response = client.get(reverse("tournament:public_timetable", args=[event.slug]))
    assert response.status_code == 200
    assert "no-store" not in response.get("Cache-Control", "")
    assert "noindex" in response["X-Robots-Tag"]
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()
    court = event.courts.get()
    assert "noindex" in client.get(reverse("judging:court_home", args=[court.token]))["X-Robots-Tag"]


def test_robots_txt_disallows_everything_and_names_nothing(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/plain")
    assert response.content.decode().splitlines() == ["User-agent: *", "Disallow: /"]


def test_every_page_carries_a_content_security_policy_without_inline_script(client, event):
    policy = client.get(reverse("tournament:public_timetable", args=[event.slug]))["Content-Security-Policy"]
    directives = {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}
    assert directives["default-src"] == ["'self'"] and directives["script-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]


def test_no_template_or_html_in_code_has_an_inline_script_or_handler():
    found = []
    pages = [*TEMPLATES.rglob("*.html"), *CODE.glob("*/templates/**/*.html")]
    for path in pages:
        text = path.read_text(encoding="utf-8")
        tags = re.findall(r"<script\b[^>]*>", text)
        found += [(path.name, t) for t in tags if "src=" not in t and 'type="application/json"' not in t]
        found += [(path.name, h) for h in re.findall(r"\son[a-z]+\s*=", text)]
        found += [(path.name, "javascript:") for _ in re.findall(r"javascript:", text)]
    for path in CODE.rglob("*.py"):
        if ".venv" in path.parts or "tests" in path.parts:
            continue
        found += [
            (path.name, h)
            for h in re.findall(r"""(?<![\w-])on(?:click|submit|change|input|load)=["']""", path.read_text())
        ]
    assert found == []


# --- issue 34 item 5: Permissions-Policy, no cookie on public pages, gzip only where safe, static


def test_every_answer_carries_a_permissions_policy(organiser_client, event):
    from django.test import Client

    client = Client()
    for response in (
        client.get("/"),
        client.get(f"/e/{event.slug}/"),
        client.get("/api/v1/events/"),
        client.get("/static/js/public_refresh.js"),
        client.get("/no/such/page/"),
        organiser_client.get(reverse("tournament:event_detail", args=[event.slug])),
    ):
        policy = response["Permissions-Policy"]
        assert "camera=()" in policy and "geolocation=()" in policy and "microphone=(self)" in policy


def test_no_page_asks_for_the_camera_or_position():
    """camera=() and geolocation=() stay true: no script asks for them; the microphone is the reader's."""
    scripts = {p.name: p.read_text(encoding="utf-8") for p in (CODE / "static" / "js").glob("*.js")}
    assert not [n for n, text in scripts.items() if "geolocation" in text or "video:" in text]
    assert [n for n, text in scripts.items() if "getUserMedia" in text] == ["reader_record.js"]


def test_public_pages_set_no_cookie_and_the_language_link_is_a_get(client, event):
    team = event.divisions.get().teams.first()
    for url in ("/", f"/e/{event.slug}/", f"/e/{event.slug}/team/{team.pk}/", f"/e/{event.slug}/standings/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert not response.cookies, (url, response.cookies)
        assert b"csrfmiddlewaretoken" not in response.content
    page = client.get(f"/e/{event.slug}/standings/").content.decode()
    assert f'href="/lang/en/?next=/e/{event.slug}/standings/"' in page
    switched = client.get(f"/lang/en/?next=/e/{event.slug}/standings/")
    assert switched.status_code == 302 and switched["Location"] == f"/e/{event.slug}/standings/"
    cookie = switched.cookies["django_language"]
    assert cookie.value == "en" and int(cookie["max-age"]) == 24 * 60 * 60
    assert "csrftoken" not in switched.cookies
    assert "Standings" in client.get(f"/e/{event.slug}/standings/").content.decode()
    # never to another site; an unknown language is a 404
    assert client.get("/lang/ja/?next=https://evil.example/")["Location"] == "/"
    assert client.get("/lang/xx/").status_code == 404


def test_gzip_for_public_pages_and_the_api_never_for_a_page_with_a_form(organiser_client, event):
    from django.test import Client

    client = Client()
    zipped = client.get(f"/e/{event.slug}/standings/", HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip"
    assert client.get("/api/v1/events/", HTTP_ACCEPT_ENCODING="gzip")["Content-Encoding"] == "gzip"
    for response in (
        client.get("/accounts/login/", HTTP_ACCEPT_ENCODING="gzip"),  # a CSRF token in a form
        organiser_client.get(reverse("tournament:event_detail", args=[event.slug]), HTTP_ACCEPT_ENCODING="gzip"),
        organiser_client.get(reverse("tournament:court_links", args=[event.slug]), HTTP_ACCEPT_ENCODING="gzip"),
        # a public page seen by a logged-in organiser carries the log-out form's token
        organiser_client.get(f"/e/{event.slug}/standings/", HTTP_ACCEPT_ENCODING="gzip"),
    ):
        assert response.status_code == 200
        assert not response.has_header("Content-Encoding")


def test_static_files_get_hashed_names_and_a_long_cache_after_collectstatic(tmp_path, settings):
    from django.contrib.staticfiles.storage import staticfiles_storage
    from django.core.management import call_command
    from django.test import Client

    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", interactive=False, verbosity=0)
    url = staticfiles_storage.url("js/public_refresh.js")
    assert re.fullmatch(r"/static/js/public_refresh\.[0-9a-f]{12}\.js", url), url
    response = Client().get(url)
    assert response.status_code == 200
    assert "immutable" in response["Cache-Control"]
    assert int(re.search(r"max-age=(\d+)", response["Cache-Control"]).group(1)) >= 365 * 24 * 60 * 60
    assert re.search(r'href="/static/css/[\w-]+\.[0-9a-f]{12}\.css"', Client().get("/").content.decode())


def test_without_collectstatic_pages_link_plain_names_that_are_served(client):
    page = client.get("/").content.decode()
    assert "/static/css/" in page
    css = re.search(r'href="(/static/css/[^"]+)"', page).group(1)
    assert client.get(css).status_code == 200
