"""The public JSON API v1 (docs/api.md): every document, conditional GET, no personal
data, a JSON 404 for an unknown event, and a query count that does not grow with the event."""

from io import BytesIO, StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from judging.engine import rules
from judging.services import record_confirmed_result, submit_sheet
from tests import factories
from tournament.models import Event, Match, Player
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule

DOCUMENTS = ("timetable", "results", "standings", "bracket")


def urls(slug):
    return ["/api/v1/events/"] + [f"/api/v1/events/{slug}/{kind}" for kind in DOCUMENTS]


def play_groups(event):
    """Every group game confirmed: the lower entry number wins 30–26."""
    for match in Match.objects.filter(event=event, stage=Match.Stage.GROUP).select_related("event", "team_a", "team_b"):
        a_wins = match.team_a.entry_number < match.team_b.entry_number
        values = (30, 26, 0, rules.JokerHolder.A) if a_wins else (26, 30, 0, rules.JokerHolder.B)
        record_confirmed_result(match, rules.SheetValues(*values))


def build(slug, teams):
    """An event of ``teams`` teams in groups of four (one per court), the groups played and
    the knockout seeded."""
    courts = teams // 4
    event = factories.make_event(courts=courts, slug=slug)
    division = factories.make_division(event, courts=list(range(1, courts + 1)))
    factories.make_teams(division, teams)
    draw_groups(event, seed=7)
    make_schedule(event)
    play_groups(event)
    seed_knockout(event)
    return event


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=StringIO())
    call_command("draw_groups", "demo", "--seed", "1", stdout=StringIO())
    call_command("make_schedule", "demo", stdout=StringIO())
    call_command("simulate_results", "demo", "--seed", "2", stdout=StringIO())
    call_command("seed_knockout", "demo", stdout=StringIO())
    return Event.objects.get(slug="demo")


def test_the_events_list_names_each_event_and_links_its_documents(client, demo):
    response = client.get("/api/v1/events/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    [event] = response.json()["events"]
    assert event["slug"] == "demo"
    assert event["links"] == {kind: f"/api/v1/events/demo/{kind}" for kind in DOCUMENTS}


def test_the_timetable_lists_every_match_with_a_japan_time_and_results_only_when_confirmed(client, demo):
    match = Match.objects.filter(event=demo).exclude(stage=Match.Stage.GROUP).exclude(team_a=None).first()
    submit_sheet(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), court=match.court)  # waiting
    matches = client.get("/api/v1/events/demo/timetable").json()["games"]
    assert [g["number"] for g in matches] == sorted(
        Match.objects.filter(event=demo).values_list("match_number", flat=True)
    )
    first = matches[0]
    assert first["start"] == "2027-01-17T09:30:00+09:00"
    assert set(first) >= {"court", "division", "stage", "group", "team_a", "team_b", "status", "result"}
    assert set(first["team_a"]) == {"id", "name", "affiliation"}
    assert first["result"]["winner"] in ("A", "B")
    waiting = next(g for g in matches if g["number"] == match.match_number)
    assert waiting["status"] == "submitted"
    assert waiting["result"] is None


def test_the_results_hold_only_matches_with_a_confirmed_result_newest_first(client, demo):
    matches = client.get("/api/v1/events/demo/results").json()["games"]
    confirmed = Match.objects.filter(event=demo, status__in=("confirmed", "walkover"))
    assert [g["number"] for g in matches] == sorted(confirmed.values_list("match_number", flat=True), reverse=True)
    assert all(g["result"] is not None for g in matches)


def test_the_standings_give_per_division_and_group_the_ranked_rows(client, demo):
    divisions = client.get("/api/v1/events/demo/standings").json()["divisions"]
    assert [d["name"] for d in divisions] == list(demo.divisions.values_list("name", flat=True))
    group = divisions[0]["groups"][0]
    assert group["complete"] is True
    row = group["rows"][0]
    assert set(row) >= {"rank", "rank_text", "tied", "team", "played", "wins", "losses", "cards_taken"}
    assert set(row) >= {"decided_by", "decided_by_text", "withdrawn"}
    assert [r["rank"] for r in group["rows"]] == sorted(r["rank"] for r in group["rows"])


def test_the_bracket_names_where_each_side_comes_from(client, demo):
    divisions = client.get("/api/v1/events/demo/bracket").json()["divisions"]
    assert divisions
    for division in divisions:
        matches = division["games"]
        for match in matches:
            assert set(match) >= {"number", "round", "position", "stage", "sources", "team_a", "team_b", "result"}
        numbers = {g["number"] for g in matches}
        final = next(g for g in matches if g["stage"] == "final")
        feeders = {
            f"W{g['number']}" for g in matches if g["round"] == final["round"] - 1 and g["stage"] != "third_place"
        }
        # The final is fed by the winners of the round before, or a seed with a bye ("B1").
        assert feeders <= {final["sources"]["a"], final["sources"]["b"]}
        for match in matches:
            assert match["out_of_date"] is False and match["out_of_date_places"] == []
            for side in ("a", "b"):
                source = match["sources"][side]
                slot = match["sides"][side]
                assert slot["short"] == source and slot["changed"] is False
                if source is None:  # a team fixed by hand
                    assert slot["slot"] is None
                elif source[0] in "WL":
                    assert int(source[1:]) in numbers and slot["slot"]
                else:  # a group place ("A1") or a best-of place ("2-1"): its team once final
                    assert source[-1].isdigit() and slot["slot"]
                    assert (match[f"team_{side}"] is not None) == slot["slot_final"]


def test_a_repeated_request_with_the_etag_is_answered_304(client, demo):
    for url in urls("demo"):
        first = client.get(url)
        assert first["Cache-Control"] == "no-cache", url
        assert first["Last-Modified"], url
        etag = first["ETag"]
        again = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304, url
        assert again.content == b""
        assert again["ETag"] == etag


def test_a_new_result_changes_the_etag_at_once(client, demo):
    """The shared cache keys an event's documents on its version: never behind a result."""
    etag = client.get("/api/v1/events/demo/results")["ETag"]
    assert client.get("/api/v1/events/demo/results", HTTP_IF_NONE_MATCH=etag).status_code == 304
    match = Match.objects.filter(event=demo, status="scheduled").exclude(team_a=None).exclude(team_b=None).first()
    record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    response = client.get("/api/v1/events/demo/results", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_an_unknown_query_parameter_is_answered_from_the_shared_cache(client, demo):
    client.get("/api/v1/events/demo/timetable")
    with CaptureQueriesContext(connection) as first:
        client.get("/api/v1/events/demo/timetable?x=1")
    with CaptureQueriesContext(connection) as second:
        client.get("/api/v1/events/demo/timetable?x=2")
    cache.clear()
    with CaptureQueriesContext(connection) as cold:
        client.get("/api/v1/events/demo/timetable?x=3")
    assert len(first) == len(second) < len(cold)


def test_no_answer_carries_a_players_name(client, demo):
    names = list(Player.objects.values_list("name", flat=True))
    furigana = [f for f in Player.objects.values_list("furigana", flat=True) if f]
    assert names
    for url in urls("demo"):
        text = client.get(url).content.decode()
        leaked = [n for n in names + furigana if n in text]
        assert not leaked, (url, leaked[:3])


def test_an_unknown_event_is_a_json_404(client, db):
    for kind in DOCUMENTS:
        response = client.get(f"/api/v1/events/nobody/{kind}")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]


def test_another_path_under_the_api_is_a_json_404(client, db):
    for path in ("/api/v1/events/demo/timetable/", "/api/v1/nothing", "/api/v1/events/demo/players"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json() == {"error": "unknown path", "status": 404, "path": path}


def test_a_post_is_refused_as_not_allowed_whatever_the_cookies(db):
    client = Client(enforce_csrf_checks=True)
    response = client.post("/api/v1/events/demo/standings", {"x": "1"})
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD"


def test_the_paths_answer_as_written_without_a_redirect(client, demo):
    for url in urls("demo"):
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db
def test_the_query_count_does_not_grow_with_the_number_of_teams(client):
    events = {label: build(f"size-{label}", teams) for label, teams in (("small", 8), ("big", 32))}
    counts = {}
    for label, event in events.items():
        for url in urls(event.slug):
            cache.clear()  # cold renders: the shared cache would answer /events/ the second time
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.setdefault(url.replace(event.slug, "<slug>"), {})[label] = len(queries)
    grown = {url: c for url, c in counts.items() if c["small"] != c["big"]}
    assert not grown, grown


def test_the_demo_events_standings_agree_with_the_results_workbook(client, demo, django_user_model):
    """After simulate_results, every group's ranks and teams in the API are those of its sheet
    in the organiser's workbook (the rank as text, "1=" for a shared rank)."""
    organiser = django_user_model.objects.create_user("organiser-api")
    demo.organisers.add(organiser)
    api_groups = [
        [(row["rank_text"], row["team"]["name"]) for row in group["rows"]]
        for division in client.get("/api/v1/events/demo/standings").json()["divisions"]
        for group in division["groups"]
    ]
    client.force_login(organiser)
    workbook = load_workbook(BytesIO(client.get("/manage/demo/export/results.xlsx").content))
    sheets = workbook.worksheets[1 : 1 + len(api_groups)]
    # + the final ranking first, the games sheet and the knockout sheet (the demo's bracket is seeded)
    assert len(api_groups) == 9 and len(workbook.worksheets) == len(api_groups) + 3
    for sheet, rows in zip(sheets, api_groups, strict=True):
        in_workbook = []
        for rank, name, *_ in sheet.iter_rows(min_row=3, values_only=True):
            if rank is None and name is None:
                break
            in_workbook.append((str(rank), name))
        assert in_workbook == rows, sheet.title
