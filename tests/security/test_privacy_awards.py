"""Certificates and the MC's list hold children's names (issue 19, "Privacy"): organisers of
the event only, answered no-store, never linked from a public page."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from pypdf import PdfReader

from tournament.models import Event, Player

pytestmark = pytest.mark.django_db

AWARDS_GETS = ["/manage/demo/awards/", "/manage/demo/awards/mc/", "/manage/demo/awards/mc/?format=pdf"]
PUBLIC_URLS = ["/", "/e/demo/", "/e/demo/results/", "/e/demo/standings/", "/e/demo/bracket/", "/e/demo/final/"]


@pytest.fixture
def finished_day():
    for args in (
        ("load_demo",),
        ("draw_groups", "demo", "--seed", "1"),
        ("make_schedule", "demo"),
        ("simulate_results", "demo", "--seed", "1"),
        ("seed_knockout", "demo"),
        ("simulate_results", "demo", "--stage", "knockout", "--seed", "1"),
    ):
        call_command(*args, stdout=io.StringIO())
    event = Event.objects.get(slug="demo")
    users = {name: get_user_model().objects.create_user(name) for name in ("recorder", "organiser", "stranger")}
    event.recorders.add(users["recorder"])
    event.organisers.add(users["organiser"])
    return event, users


def text_of(response):
    if response["Content-Type"].startswith("application/pdf"):
        return "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    return response.content.decode()


def test_only_the_events_organisers_see_the_names_and_never_from_a_cache(client, finished_day):
    event, users = finished_day
    names = list(Player.objects.filter(team__division__event=event).values_list("name", flat=True))
    for who in (None, "stranger", "recorder"):
        if who:
            client.force_login(users[who])
        for url in AWARDS_GETS:
            response = client.get(url)
            assert response.status_code in (302, 403), (who, url)
            assert not [n for n in names if n in response.content.decode()]
        response = client.post("/manage/demo/awards/print/", {"which": "all"})
        assert response.status_code in (302, 403) and response["Content-Type"] != "application/pdf"
    client.force_login(users["organiser"])
    for url in AWARDS_GETS:
        response = client.get(url)
        assert response.status_code == 200 and response["Cache-Control"] == "no-store"
        assert [n for n in names if n in text_of(response).replace("\n", "")]
    printed = client.post("/manage/demo/awards/print/", {"which": "all"})
    assert printed["Content-Type"] == "application/pdf" and printed["Cache-Control"] == "no-store"


def test_no_public_page_links_to_the_awards_desk(client, finished_day):
    for url in PUBLIC_URLS:
        assert "/awards/" not in client.get(url).content.decode(), url
