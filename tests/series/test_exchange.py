"""Results files between laptops (issue 20 item 1): export, signed; preview and import into the
final; the round trip played to the end."""

import json

import pytest

from series.exchange import signing
from series.models import ImportedFile, ImportedPlacing, SeriesEvent
from tests import factories
from tests.series.exchange_support import district, exported, final, make_series, run
from tournament.models import Match, Team


@pytest.fixture
def series_day(db):
    series = make_series()
    north = district(series, "north", "北部地区", seed=1)
    south = district(series, "south", "南部地区", seed=2)
    return series, north, south, final(series)


def test_the_round_trip_two_districts_into_a_played_final(series_day, tmp_path):
    series, north, south, the_final = series_day
    for event in (north, south):
        path = tmp_path / f"{event.slug}.karuta"
        out = run("export_results", event.slug, "-o", str(path))
        assert "results file written" in out
        out = run("import_results", the_final.slug, str(path))
        assert "imported 4 qualifying teams" in out
    teams = Team.objects.filter(division__event=the_final)
    assert teams.count() == 8
    for team in teams:
        assert team.players.count() == 3
        assert team.players.filter(is_leader=True).count() == 1
        assert team.qualification.place in (1, 2)
    north_champion = north.matches.get(stage=Match.Stage.FINAL, division__name="小学生の部").winner
    copy = teams.get(division__name="小学生の部", name=north_champion.name)
    assert copy.affiliation == north_champion.affiliation
    assert [p.name for p in copy.players.all()] == [p.name for p in north_champion.players.all()]
    assert str(copy.qualification) == "北部地区予選 1位"
    assert ImportedFile.objects.count() == 2
    assert ImportedPlacing.objects.filter(district="北部地区", place=1).count() == 2
    assert ImportedPlacing.objects.filter(series=series).count() == 2 * 2 * 3  # 2 districts × 2 divisions × 3 places
    run("draw_groups", the_final.slug, "--seed", "7")
    run("make_schedule", the_final.slug)
    run("simulate_results", the_final.slug, "--seed", "7")
    run("seed_knockout", the_final.slug)
    run("simulate_results", the_final.slug, "--stage", "knockout", "--seed", "7")
    assert the_final.matches.filter(stage=Match.Stage.FINAL).exclude(winner=None).count() == 2


def test_the_file_holds_the_event_and_signs_canonical_bytes(series_day):
    series, north, _south, _final = series_day
    data = exported(north)
    header, _newline, contents = data.partition(b"\n")
    header = json.loads(header)
    assert (header["format"], header["version"], header["series"]) == ("karuta-results", 1, series.slug)
    payload = json.loads(contents)
    assert signing.canonical(payload) == contents
    assert payload["event"]["district"] == "北部地区"
    assert payload["event"]["venue"] == "交流センター"
    division = payload["divisions"][0]
    assert {"teams", "groups", "games", "places", "qualifiers"} <= set(division)
    assert [q["place"] for q in division["qualifiers"]] == [1, 2]
    assert division["teams"][0]["players"][0].keys() == {"name", "furigana", "grade", "leader", "substitute"}


def test_the_key_file_commands_carry_the_series_to_a_district_laptop(db, tmp_path):
    series = make_series()
    path = tmp_path / "hitachi.karuta-key"
    assert "key file written" in run("series_key", series.slug, "-o", str(path))
    secret = series.secret
    series.delete()  # the district's laptop: no series yet
    event = factories.make_event(slug="north27")
    out = run("load_series_key", str(path), "--event", "north27", "--district", "北部地区")
    assert "key loaded" in out
    assert event.series_member.series.secret == secret
    assert event.series_member.district == "北部地区"
    assert "already loaded" in run("load_series_key", str(path))


@pytest.mark.parametrize("after_groups", ["none", "placement", "both"])
def test_every_kind_of_division_gives_its_places(db, after_groups):
    series = make_series()
    event = factories.make_event(courts=2, slug="west")
    division = factories.make_division(event, "小学生の部", courts=[1, 2], after_groups=after_groups)
    factories.make_teams(division, 5 if after_groups == "none" else 8)
    if after_groups == "none":
        division.courts.set(event.courts.filter(name="1"))
    SeriesEvent.objects.create(series=series, event=event, role="qualifier", district="西部地区")
    run("draw_groups", "west", "--seed", "3")
    run("make_schedule", "west")
    run("simulate_results", "west", "--seed", "3")
    run("seed_knockout", "west")
    for stage in ("knockout", "placement"):
        run("simulate_results", "west", "--stage", stage, "--seed", "3")
    payload = signing.open_signed(exported(event, qualifiers=3)).payload
    places = payload["divisions"][0]["places"]
    assert places and places[0]["place"] == 1
    assert [q["place"] for q in payload["divisions"][0]["qualifiers"]] == [
        p["place"] for p in places if p["place"] <= 3
    ]
