"""Records across editions (issue 35, item 3): the public club records and the MC's 「記録」 agree
with the archive and the events they come from; no player is named on them; the player history
is for organisers only, of their own events, and a player's history can be removed."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from judging.engine import rules
from series.archive import edition_places
from series.models import ForgottenPlayer, ImportedPlacing, Series, player_key
from series.records import club_rows, tournament_records
from tests.factories import submit_result
from tests.series.support import play_event
from tournament.models import Event, Match, Player

TEAMS = [
    ("赤A", "赤坂子ども会"),
    ("青A", "青葉小"),
    ("赤B", "赤坂子ども会"),
    ("白A", "白鳥小"),
    ("黄A", "黄金子ども会"),
    ("緑A", "緑小"),
]


@pytest.fixture
def editions(db):
    """Editions 38, 39 and 40 of one tournament, 赤坂子ども会's 赤A the champion each time."""
    return [
        play_event(f"ed{n}", datetime.date(1987 + n, 1, 17), TEAMS, name="日立市郷土かるた大会", edition=n)
        for n in (38, 39, 40)
    ]


def row_of(rows, name):
    return next(r for r in rows if r.name == name)


def test_club_records_agree_with_the_archive(editions):
    with translation.override("ja"):
        rows = club_rows()
        red = row_of(rows, "赤坂子ども会")
        assert (red.record.editions, red.record.titles, red.record.best) == (3, 3, {"小学生の部": 1})
        # each edition's places in the archive are the club's places here
        for event in editions:
            ((_division, places),) = edition_places(event)
            for place, _team, club, _check in places:
                row = row_of(rows, club)
                assert (str(event.title), place) in row.divisions[0][1]
    assert rows[0].name == "赤坂子ども会"  # most titles first


def test_joker_and_rps_wins_count_for_the_winner_s_club(editions):
    event = editions[-1]
    final = Match.objects.get(event=event, stage=Match.Stage.FINAL)
    a_club = final.team_a.affiliation
    submit_result(final, rules.SheetValues(28, 28, 0, rules.JokerHolder.A))
    with translation.override("ja"):
        row = row_of(club_rows(), a_club)
    assert row.record.joker_wins == 1


def test_imported_places_count_and_drafts_do_not(editions):
    series = Series.objects.create(slug="s", name="S", season=2027)
    ImportedPlacing.objects.create(
        series=series, source_key="x1", source="第5回 南部地区予選", event_date=datetime.date(2027, 1, 3),
        division="小学生の部", place=1, team="青X", club="青葉小",
    )  # fmt: skip
    Event.objects.filter(pk=editions[0].pk).update(visibility=Event.Visibility.DRAFT)
    with translation.override("ja"):
        rows = club_rows()
    blue = row_of(rows, "青葉小")
    assert blue.record.titles == 1 and blue.record.editions == 3  # two stored editions + the imported one
    assert row_of(rows, "赤坂子ども会").record.titles == 2


def test_the_mc_records_say_runs_appearances_and_the_anniversary(editions, client):
    with translation.override("ja"):
        (t,) = tournament_records()
    assert t.editions == 3 and t.anniversary.is_anniversary and t.anniversary.count == 4
    (streak, name, first, last) = t.streaks[0]
    assert (name, streak.length, streak.current) == ("赤坂子ども会", 3, True)
    assert first.startswith("第38回") and last.startswith("第40回")
    page = client.get("/archive/records/mc/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "第40回は4回目の記念大会です。" in page
    assert "3連覇" in page


def test_the_public_records_pages_name_no_player(editions, client):
    names = list(Player.objects.values_list("name", flat=True))
    for url in ("/archive/records/", "/archive/records/mc/"):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="ja")
        assert response.status_code == 200
        page = response.content.decode()
        assert "赤坂子ども会" in page
        assert not any(name in page for name in names), url


@pytest.fixture
def organiser(editions):
    user = get_user_model().objects.create_user("records-organiser")
    editions[0].organisers.add(user)
    return user


def test_the_player_history_is_for_organisers_of_the_events(editions, organiser, client):
    assert client.get("/series/players/").status_code == 302  # to the login
    recorder = get_user_model().objects.create_user("records-recorder")
    editions[1].recorders.add(recorder)
    client.force_login(recorder)
    assert client.get("/series/players/").status_code == 403
    client.force_login(organiser)
    page = client.get("/series/players/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    player = Player.objects.filter(team__division__event=editions[0]).first()
    assert player.name in page and "第38回" in page
    assert "第39回" not in page  # only the events this organiser organises


def test_a_player_is_matched_across_editions_by_name_and_furigana(editions):
    from series.players import histories

    with translation.override("ja"):
        found = histories(Event.objects.all())
    first = Player.objects.filter(team__division__event=editions[0]).first()
    mine = next(h for h in found if h.key == player_key(first.name, first.furigana))
    assert mine.editions == 3  # the same name and furigana in the three editions


def test_removing_a_history_keeps_only_its_hash_and_hides_it(editions, organiser, client):
    client.force_login(organiser)
    player = Player.objects.filter(team__division__event=editions[0]).first()
    key = player_key(player.name, player.furigana)
    response = client.post("/series/players/", {"remove": key}, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 302
    (forgotten,) = ForgottenPlayer.objects.all()
    assert forgotten.key == key and player.name not in forgotten.key
    page = client.get("/series/players/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f'value="{key}"' not in page
    assert Player.objects.filter(pk=player.pk).exists()  # the event's own records stay
    response = client.post("/series/players/", {"remove": "nonsense"}, HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    assert "見つかりません" in response.content.decode()
