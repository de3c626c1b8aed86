"""The API as a published contract (issue 34 item 5): ``/api/v1/openapi.json`` is a valid
OpenAPI 3.1 document and every real answer of a played event validates against it; every
error under /api/ is JSON; ``/api/v1/events`` is sent on to the slash form; answers are
gzipped for a client that asks and still answer 304."""

import gzip
from io import StringIO

import jsonschema
import pytest
from django.core.management import call_command
from django.test import Client
from openapi_spec_validator import validate

from tests.api.test_api import DOCUMENTS
from tournament.models import Event, Match


@pytest.fixture
def played(db):
    """The demo, every group played, the knockout seeded and half of it played."""
    call_command("load_demo", stdout=StringIO())
    call_command("draw_groups", "demo", "--seed", "1", stdout=StringIO())
    call_command("make_schedule", "demo", stdout=StringIO())
    call_command("simulate_results", "demo", "--seed", "2", stdout=StringIO())
    call_command("seed_knockout", "demo", stdout=StringIO())
    call_command("simulate_results", "demo", "--seed", "3", "--stage", "knockout", stdout=StringIO())
    return Event.objects.get(slug="demo")


def spec():
    response = Client().get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()


def schema_of(document, path):
    answer = document["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **answer, "components": document["components"]}


def test_the_document_is_valid_openapi_3_1(db):
    document = spec()
    assert document["openapi"].startswith("3.1")
    validate(document)
    assert set(document["paths"]) == {"/events/"} | {f"/events/{{slug}}/{kind}" for kind in DOCUMENTS}
    assert document["servers"] == [{"url": "/api/v1"}]


def test_every_answer_of_a_played_event_validates(played):
    document = spec()
    client = Client()
    assert Match.objects.filter(event=played).exclude(stage=Match.Stage.GROUP).filter(status="confirmed").exists()
    checked = 0
    for path in document["paths"]:
        url = "/api/v1" + path.replace("{slug}", played.slug)
        body = client.get(url).json()
        validator = jsonschema.Draft202012Validator(schema_of(document, path))
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(body)]
        assert errors == [], url
        checked += 1
    assert checked == 5


def test_the_schema_refuses_a_wrong_answer(played):
    """Not a schema that accepts anything: a missing field, a number as text, an extra field."""
    document = spec()
    body = Client().get(f"/api/v1/events/{played.slug}/timetable").json()
    validator = jsonschema.Draft202012Validator(schema_of(document, "/events/{slug}/timetable"))
    game = body["games"][0]
    for broken in (
        {**game, "number": str(game["number"])},
        {**game, "secret": 1},
        {k: v for k, v in game.items() if k != "court"},
    ):
        assert not validator.is_valid({**body, "games": [broken]})
    bracket = Client().get(f"/api/v1/events/{played.slug}/bracket").json()
    bracket_validator = jsonschema.Draft202012Validator(schema_of(document, "/events/{slug}/bracket"))
    division = bracket["divisions"][0]
    game = {**division["games"][0], "players": ["x"]}
    assert not bracket_validator.is_valid({**bracket, "divisions": [{**division, "games": [game]}]})


def test_errors_are_json_for_every_status(played, settings):
    client = Client(raise_request_exception=False)
    cases = {
        "/api/v1/events/nope/timetable": 404,
        "/api/v1/whatever": 404,
        f"/api/v1/events/{played.slug}/timetable?post": 405,
    }
    for url, status in cases.items():
        response = client.post(url) if url.endswith("?post") else client.get(url)
        assert response.status_code == status, url
        assert response["Content-Type"].startswith("application/json"), url
        assert response.json()["status"] == status
    assert client.post("/api/v1/openapi.json")["Allow"] == "GET, HEAD"
    # 400: a Host the site does not serve
    settings.ALLOWED_HOSTS = ["testserver"]
    bad = client.get("/api/v1/events/", HTTP_HOST="evil.example")
    assert bad.status_code == 400 and bad.json() == {"error": "bad request", "status": 400}
    # 500: a bug in a document's builder
    from tournament.reports import api as reports_api

    original = reports_api.timetable_document
    reports_api.timetable_document = lambda event: 1 / 0
    try:
        broken = client.get(f"/api/v1/events/{played.slug}/timetable")
    finally:
        reports_api.timetable_document = original
    assert broken.status_code == 500 and broken.json() == {"error": "internal server error", "status": 500}
    assert b"Traceback" not in broken.content


def test_no_slash_events_is_redirected(db):
    response = Client().get("/api/v1/events?x=1")
    assert response.status_code == 301
    assert response["Location"] == "/api/v1/events/?x=1"


def test_answers_are_gzipped_and_still_conditional(played):
    client = Client()
    url = f"/api/v1/events/{played.slug}/timetable"
    plain = client.get(url)
    zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert zipped["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in zipped["Vary"]
    assert gzip.decompress(zipped.content) == plain.content
    assert len(zipped.content) < len(plain.content) / 3
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=zipped["ETag"])
    assert again.status_code == 304
