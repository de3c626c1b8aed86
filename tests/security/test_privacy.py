"""Players' names reach only organisers and recorders, unless the event publishes them."""

import io

import pytest
from django.core.management import call_command
from openpyxl import load_workbook
from pypdf import PdfReader

from tournament.models import Event, Player

pytestmark = pytest.mark.django_db

PUBLIC_URLS = [
    "/",
    "/e/demo/",
    "/e/demo/results/",
    "/e/demo/standings/",
    "/e/demo/bracket/",
    "/e/demo/final/",
]
# The JSON API v1: never players' names, whatever the event publishes.
API_URLS = [
    "/api/v1/events/",
    "/api/v1/events/demo/timetable",
    "/api/v1/events/demo/results",
    "/api/v1/events/demo/standings",
    "/api/v1/events/demo/bracket",
]


@pytest.fixture
def finished_day():
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    call_command("simulate_results", "demo", "--seed", "1")
    call_command("seed_knockout", "demo")
    call_command("simulate_results", "demo", "--stage", "knockout", "--seed", "1")
    return Event.objects.get(slug="demo")


def names():
    return [p.name for p in Player.objects.filter(team__division__event__slug="demo")]


def text_of(response):
    kind = response["Content-Type"]
    if kind.startswith("application/pdf"):
        return "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    if "spreadsheet" in kind:
        wb = load_workbook(io.BytesIO(response.content))
        return " ".join(str(c) for ws in wb for row in ws.iter_rows(values_only=True) for c in row if c)
    return response.content.decode()


def test_public_pages_and_files_carry_no_players_names(client, finished_day):
    everything = [client.get(url) for url in PUBLIC_URLS + API_URLS]
    everything += [client.get("/e/demo/results.xlsx"), client.get("/e/demo/final/?format=pdf")]
    everything += [client.get(f"/e/demo/display/division/{d.pk}/") for d in finished_day.divisions.all()]
    everything += [client.get(f"/e/demo/display/podium/{d.pk}/") for d in finished_day.divisions.all()]
    everything += [client.get(f"/e/demo/team/{p.team_id}/") for p in Player.objects.all()[:5]]
    for response in everything:
        assert response.status_code == 200
        text = text_of(response).replace("\n", "")
        leaked = [n for n in names() if n in text]
        assert not leaked, (response.request["PATH_INFO"], leaked[:3])


def test_the_final_results_show_names_only_when_the_event_publishes_them(client, finished_day):
    final = finished_day.matches.get(stage="final", division__name="中学生の部")
    leader = final.winner.players.get(is_leader=True).name
    assert leader not in client.get("/e/demo/final/").content.decode()
    finished_day.publish_names = True
    finished_day.save()
    assert leader in client.get("/e/demo/final/").content.decode()
    assert leader in text_of(client.get("/e/demo/final/?format=pdf")).replace("\n", "")


def test_the_json_api_shows_no_names_even_when_the_event_publishes_them(client, finished_day):
    finished_day.publish_names = True
    finished_day.save()
    for url in API_URLS:
        response = client.get(url)
        assert response.status_code == 200
        leaked = [n for n in names() if n in response.content.decode()]
        assert not leaked, (url, leaked[:3])


def test_dates_follow_the_japanese_era_setting(client, finished_day):
    page = client.get("/e/demo/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "2027年1月17日(日)" in page
    finished_day.japanese_era = True
    finished_day.save()
    page = client.get("/e/demo/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "令和9年1月17日(日)" in page
    page = client.get("/e/demo/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sun 17 Jan 2027" in page
