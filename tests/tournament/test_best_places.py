"""A place decided across groups ("the best 2nd") shows the comparison it came from, on the
public standings page and in the API (issue 29, item 8; docs/rules/scheduling-standings-
seeding.md, section 3.5: per-game values, groups of different sizes)."""

import json

import pytest
from django.utils import translation

from tests import factories
from tests.tournament.test_stages_services import play_groups
from tournament.reports.standings import best_places, division_standings
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def two_groups(db):
    """7 teams on 2 courts (groups of 4 and 3), 1 qualifier per group and the best runner-up."""
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], qualifiers_per_group=1, best_runners_up=1)
    factories.make_teams(division, 7)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division


def test_before_the_groups_end_the_comparison_is_provisional(two_groups):
    _event, division = two_groups
    best = best_places(division)
    assert best.place == 2 and best.count == 1 and not best.final


def test_the_runner_up_of_the_bigger_group_goes_through_on_wins_per_game(two_groups):
    _event, division = two_groups
    play_groups(division)  # the team registered earlier wins every game
    tables = division_standings(division)
    sizes = {t.group.pk: len(t.rows) for t in tables}
    best = best_places(division, tables)
    assert best.final
    first, second = best.lines
    assert sizes[first.group.pk] == 4 and sizes[second.group.pk] == 3
    assert (first.wins_per_game, second.wins_per_game) == ("0.67", "0.50")
    assert first.qualifies and not second.qualifies
    assert second.decided_by == "wins" and second.decided_by_text == "wins per game"
    assert "per game" in best.text


def test_the_page_and_the_api_show_it(client, two_groups):
    event, division = two_groups
    play_groups(division)
    page = client.get(f"/e/{event.slug}/standings/?full=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'id="best-{division.pk}"' in page and "Best of the teams placed 2" in page and "goes through" in page
    short = client.get(f"/e/{event.slug}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'id="best-{division.pk}"' in short
    data = json.loads(client.get(f"/api/v1/events/{event.slug}/standings").content)
    (d,) = data["divisions"]
    rows = d["best_places"]["rows"]
    assert [r["qualifies"] for r in rows] == [True, False]
    assert rows[0]["wins_per_game"] == "0.67" and rows[1]["decided_by"] == "wins"


def test_a_division_without_best_runners_up_has_none(db, client):
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    assert best_places(division) is None
    data = json.loads(client.get(f"/api/v1/events/{event.slug}/standings").content)
    assert data["divisions"][0]["best_places"] is None
