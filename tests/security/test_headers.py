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
