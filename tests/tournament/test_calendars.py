"""Calendars of an event and of a team (issue 34 item 2): the ``.ics`` parses with the
``icalendar`` package, its times are Japan times, a delay changes the times and keeps the
UIDs, players' names appear only where the event publishes them, and a draft is a 404."""

import datetime
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.db.models import Q
from django.test import Client
from django.utils import timezone

from tests import factories
from tournament.models import Event, Match
from tournament.services.day_changes import delay_court
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

JST = ZoneInfo("Asia/Tokyo")


@pytest.fixture
def event(db):
    event = factories.make_event(courts=2, slug="cal", venue="多賀市民プラザ")
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 8)
    draw_groups(event, seed=3)
    make_schedule(event)
    return event


def games(data):
    calendar = icalendar.Calendar.from_ical(data)
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


def test_event_calendar_parses_with_japan_times_and_courts(event):
    response = Client().get(f"/e/{event.slug}/calendar.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(response.content)
    assert [str(tz["TZID"]) for tz in calendar.walk("VTIMEZONE")] == ["Asia/Tokyo"]
    found = games(response.content)
    matches = list(event.matches.select_related("court").order_by("match_number"))
    assert len(found) == len(matches) > 0
    for match in matches:
        game = found[f"match-{event.slug}-{match.match_number}@testserver"]
        start = game.decoded("DTSTART")
        assert start.utcoffset() == datetime.timedelta(hours=9)
        assert start == match.start_at
        assert start.astimezone(JST).hour == match.start_at.astimezone(JST).hour
        assert game.decoded("DTEND") - start == datetime.timedelta(minutes=event.game_minutes)
        assert str(game["LOCATION"]) == f"{match.court.name} 多賀市民プラザ"
        assert f"第{match.match_number}試合 " in str(game["SUMMARY"])


def test_delay_moves_the_games_and_keeps_their_uids(event):
    # The schedule was made ten minutes after the event, the delay comes now: SEQUENCE counts
    # seconds, so the test does not depend on how fast the machine runs it.
    now = timezone.now()
    Event.objects.filter(pk=event.pk).update(created_at=now - datetime.timedelta(minutes=20))
    Match.objects.filter(event=event).update(changed_at=now - datetime.timedelta(minutes=10))
    event.refresh_from_db()
    client = Client()
    before = games(client.get(f"/e/{event.slug}/calendar.ics").content)
    court = event.courts.get(name="1")
    delay_court(court, 15, allow_back_to_back=True)
    after = games(client.get(f"/e/{event.slug}/calendar.ics").content)
    assert before.keys() == after.keys()
    moved = {f"match-{event.slug}-{n}@testserver" for n in court.matches.values_list("match_number", flat=True)}
    assert moved
    for uid, game in after.items():
        old = before[uid]
        shift = game.decoded("DTSTART") - old.decoded("DTSTART")
        if uid in moved:
            assert shift == datetime.timedelta(minutes=15)
            assert int(game["SEQUENCE"]) > int(old["SEQUENCE"])
            assert game.decoded("LAST-MODIFIED") > old.decoded("LAST-MODIFIED")
            assert game.decoded("DTSTAMP") > old.decoded("DTSTAMP")
        else:
            assert shift == datetime.timedelta(0)
            assert int(game["SEQUENCE"]) == int(old["SEQUENCE"])


def test_team_calendar_has_its_games_only_and_names_only_when_published(event):
    team = event.matches.first().team_a
    client = Client()
    url = f"/e/{event.slug}/team/{team.pk}/calendar.ics"
    found = games(client.get(url).content)
    numbers = set(
        Match.objects.filter(Q(team_a=team) | Q(team_b=team), event=event, start_at__isnull=False).values_list(
            "match_number", flat=True
        )
    )
    assert {f"match-{event.slug}-{n}@testserver" for n in numbers} == set(found)
    player = team.players.first().name
    assert player.encode() not in client.get(url).content
    Event.objects.filter(pk=event.pk).update(publish_names=True)
    text = icalendar.Calendar.from_ical(client.get(url).content)
    assert any(player in str(e["DESCRIPTION"]) for e in text.walk("VEVENT"))
    # the event's calendar never names players
    assert player.encode() not in client.get(f"/e/{event.slug}/calendar.ics").content
    # the team page links its calendar
    assert url.encode() in client.get(f"/e/{event.slug}/team/{team.pk}/").content


def test_draft_and_unknown_team_are_404(event):
    client = Client()
    other = factories.make_event(courts=1, slug="other")
    stranger = factories.make_team(factories.make_division(other), "よそ")
    assert client.get(f"/e/{event.slug}/team/{stranger.pk}/calendar.ics").status_code == 404
    Event.objects.filter(pk=event.pk).update(visibility=Event.Visibility.DRAFT)
    assert client.get(f"/e/{event.slug}/calendar.ics").status_code == 404
    assert client.get(f"/e/{event.slug}/team/{event.matches.first().team_a_id}/calendar.ics").status_code == 404


def test_long_and_special_text_is_escaped_and_folded(event):
    from tournament.calendars import escape, fold

    assert escape("a,b;c\\d\ne") == "a\\,b\\;c\\\\d\\ne"
    line = "SUMMARY:" + "ひたち郷土かるた" * 10
    folded = fold(line)
    assert all(len(part.encode()) <= 75 for part in folded.split("\r\n"))
    assert folded.replace("\r\n ", "") == line
