"""The hall screens' server side (issue 17, item 2; docs/hall-screens.md): announcements and
their organiser page, the overview's late flag, the ticker, the version the screens compare
(a result, a kept out-of-date game, an announcement change it), the rotation's bad input
and the QR code."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from common.errors import UserError
from judging.engine import rules
from judging.services import record_confirmed_result, submit_sheet
from tests import factories
from tests.tournament.test_stages_views import knockout_url, organiser, stale  # noqa: F401 (fixtures)
from tournament.models import Announcement, Match
from tournament.reports import api, hall
from tournament.services.announcements import announce, end_announcement
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def day():
    event = factories.make_event(courts=2)
    division = factories.make_division(event)
    factories.make_teams(division, 8)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division


def confirm(match):
    return record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))


def version(event):
    return hall.hall_version(event, timezone.now(), api.event_version(event))


@pytest.mark.parametrize(
    ("text", "minutes", "field"),
    [
        ("   ", 5, "Announcement"),
        ("あ" * 201, 5, "at most 200"),
        ("集合", 0, "Minutes shown"),
        ("集合", 241, "Minutes"),
    ],
)
def test_a_bad_announcement_is_refused_naming_the_field_and_nothing_is_written(day, text, minutes, field):
    event, _division = day
    with pytest.raises(UserError, match=field):
        announce(event, text, minutes)
    assert not Announcement.objects.exists()


def test_an_announcement_is_shown_for_its_minutes_and_can_be_ended(day, client, django_capture_on_commit_callbacks):
    event, _division = day
    start = timezone.now()
    a = announce(event, " 第3コートへ集合：\nチーム7 ", 5, now=start)
    assert a.text == "第3コートへ集合： チーム7" and a.shown_until - a.shown_from == datetime.timedelta(minutes=5)
    assert hall.announcements_now(event, start + datetime.timedelta(minutes=4)) == [a]
    assert hall.announcements_now(event, start + datetime.timedelta(minutes=5)) == []
    state = client.get(reverse("tournament:display_state", args=[event.slug])).json()
    assert [x["text"] for x in state["announcements"]] == [a.text]
    with django_capture_on_commit_callbacks(execute=True):  # committed, as by the organiser's page
        end_announcement(event, a.pk)
    assert client.get(reverse("tournament:display_state", args=[event.slug])).json()["announcements"] == []
    with pytest.raises(UserError):
        end_announcement(factories.make_event(), a.pk)  # another event's announcement


def test_the_organiser_page_makes_and_ends_announcements_and_keeps_a_refused_text(day, client, django_user_model):
    event, _division = day
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    url = reverse("tournament:announcements", args=[event.slug])
    long = "長" * 201
    page = client.post(url, {"text": long, "minutes": "5"}, **EN)
    assert page.status_code == 200 and long in page.content.decode() and not Announcement.objects.exists()
    assert page.context["form"].errors["text"]
    assert client.post(url, {"text": "第3コートへ集合", "minutes": "3"}).status_code == 302
    a = Announcement.objects.get()
    html = client.get(url, **EN).content.decode()
    assert "第3コートへ集合" in html and "End now" in html and "Rotation between screens" in html
    client.post(url, {"end": str(a.pk)})
    a.refresh_from_db()
    assert a.shown_until <= timezone.now()
    assert client.post(url, {"end": "abc"}).status_code == 302  # a bad id: a message, never a 500


def test_the_overview_flags_a_late_game_and_not_a_started_one(day, client):
    event, _division = day
    court = event.courts.order_by("order").first()
    first = Match.objects.filter(court=court).order_by("slot").first()
    Match.objects.filter(pk=first.pk).update(start_at=timezone.now() - datetime.timedelta(minutes=7, seconds=5))
    url = reverse("tournament:courts_display", args=[event.slug]) + "?fragment=1"
    html = client.get(url, **EN).content.decode()
    assert html.count("hall-court late") == 1 and "late 7 min" in html
    Match.objects.filter(pk=first.pk).update(actual_start=timezone.now())  # the referee pressed 開始
    html = client.get(url, **EN).content.decode()
    assert "hall-court late" not in html and "Now" in html


def test_the_ticker_lists_the_newest_confirmed_results_first(day, client):
    event, _division = day
    games = list(event.matches.order_by("match_number")[:3])
    for g in (games[2], games[0]):
        confirm(g)
    ticker = client.get(reverse("tournament:display_state", args=[event.slug]), **EN).json()["ticker"]
    assert [t["number"] for t in ticker] == [games[0].match_number, games[2].match_number]
    assert "30-26" in ticker[0]["text"] and games[0].team_a.name in ticker[0]["text"]


def test_a_level_game_on_the_ticker_says_how_it_was_decided_and_who_won(day, client):
    event, _division = day
    game = event.matches.order_by("match_number").first()
    record_confirmed_result(game, rules.SheetValues(28, 28, 0, rules.JokerHolder.B))
    (item,) = client.get(reverse("tournament:display_state", args=[event.slug]), **EN).json()["ticker"]
    assert f"28-28 (り) winner: {game.team_b.name}" in item["text"]


def test_the_version_changes_with_a_result_and_an_announcement_and_the_page_embeds_it(day, client):
    event, division = day
    before = version(event)
    page = client.get(reverse("tournament:division_display", args=[event.slug, division.pk])).content.decode()
    assert f'data-version="{before}"' in page and 'data-state="/e/' in page
    confirm(event.matches.order_by("match_number").first())
    after = version(event)
    assert after != before
    announce(event, "集合", 5)
    assert version(event) != after


def test_keeping_an_out_of_date_game_changes_the_version(client, organiser, stale):  # noqa: F811
    event, division, semi, first, second = stale
    before = version(event)
    client.force_login(organiser)
    client.post(knockout_url(event), {"action": "keep", "match": semi.match_number, "note": "了承"})
    assert version(event) != before
    html = client.get(reverse("tournament:division_display", args=[event.slug, division.pk]) + "?fragment=1", **EN)
    assert "Under review" not in html.content.decode()


def test_a_rotation_names_its_bad_input_and_shows_the_chosen_screens(day, client):
    event, division = day
    url = reverse("tournament:display_rotation", args=[event.slug])
    page = client.get(url + "?screens=courts,division:999,bogus&seconds=0", **EN)
    html = page.content.decode()
    assert page.status_code == 400 and "division:999, bogus" in html and "Seconds" in html
    court = event.courts.first()
    page = client.get(url + f"?screen=courts&screen=court:{court.pk}&seconds=20")
    assert page.status_code == 200 and 'data-seconds="20"' in page.content.decode()
    assert f"/e/{event.slug}/display/courts/ /e/{event.slug}/display/court/{court.pk}/" in page.content.decode()
    default = client.get(url).content.decode()
    assert f"/display/division/{division.pk}/" in default


def test_the_qr_code_is_an_svg_served_here(day, client):
    event, _division = day
    answer = client.get(reverse("tournament:display_qr", args=[event.slug]))
    assert answer["Content-Type"] == "image/svg+xml" and answer.content.startswith(b"<svg")
    assert b"<path" in answer.content


@pytest.mark.parametrize("teams", [8, 32])
def test_the_poll_costs_a_fixed_number_of_queries(client, teams, django_assert_max_num_queries):
    event = factories.make_event(courts=4)
    division = factories.make_division(event)
    factories.make_teams(division, teams)
    draw_groups(event, seed=1)
    make_schedule(event)
    for match in event.matches.order_by("match_number")[:6]:
        confirm(match)
    announce(event, "集合", 5)
    with django_assert_max_num_queries(11):
        client.get(reverse("tournament:display_state", args=[event.slug]))


def test_a_game_whose_result_waits_for_the_recorder_is_not_shown_as_now(day, client):
    event, _division = day
    event.auto_confirm = False
    event.save(update_fields=["auto_confirm"])
    court = event.courts.order_by("order").first()
    first, second = Match.objects.filter(court=court).order_by("slot")[:2]
    Match.objects.filter(pk=first.pk).update(actual_start=timezone.now())
    first.refresh_from_db()
    submit_sheet(first, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), base_version=0, court=court)
    url = reverse("tournament:courts_display", args=[event.slug]) + "?fragment=1"
    html = client.get(url, **EN).content.decode()
    section = html.split(f'data-court="{court.pk}"', 1)[1].split("</section>", 1)[0]
    assert "Waiting for the recorder" in section and f"Game {first.match_number}" in section
    now = section.split('class="hall-now"', 1)[1].split("</p>", 1)[0]
    assert "Now" not in now and f"Game {second.match_number}" in now


def test_the_overview_shapes_only_the_games_it_shows_and_keeps_a_court_that_is_done(monkeypatch):
    event = factories.make_event(courts=3)
    division = factories.make_division(event)
    factories.make_teams(division, 12)
    draw_groups(event, seed=1)
    make_schedule(event)
    done_court = event.courts.order_by("order").first()
    for match in event.matches.filter(court=done_court):
        confirm(match)
    shaped = []
    real_line = hall.match_line
    monkeypatch.setattr(hall, "match_line", lambda match, slots: shaped.append(match.pk) or real_line(match, slots))
    overview = hall.courts_overview(event, timezone.now())
    assert [c.court for c in overview] == list(event.courts.order_by("order"))
    assert overview[0].current is None and overview[0].following is None  # every game of it played
    shown = [line.match.pk for c in overview for line in (c.current, c.following) if line is not None]
    assert sorted(shaped) == sorted(shown) and len(shown) == 4  # two per open court, not the court's every game
    for court_now in overview[1:]:
        games = list(event.matches.filter(court=court_now.court).order_by("slot", "match_number"))
        assert [court_now.current.match, court_now.following.match] == games[:2]
