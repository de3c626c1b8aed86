"""The public pages phone first (issue 17, items 1 and 5): games as cards from the read side,
a big timetable split by default, results paged, the short standings, the live fragment and
the version it is compared with, the cache keyed on known parameters, the final places in the
session's language."""

import re

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from tests.tournament.test_services import drawn_day, play_groups_by_strength
from tests.tournament.test_standings_settings import play
from tournament.models import Match, Team
from tournament.reports.api import event_version
from tournament.services.knockout import seed_knockout
from tournament.views import public

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def day():
    event, _division = drawn_day(courts=2, teams=8)
    return event


def shown(html):
    return [int(n) for n in re.findall(r'class="game[^"]*" data-key="(\d+)"', html)]


def test_every_game_is_a_card_with_number_time_court_teams_and_result(client, day):
    first = Match.objects.filter(event=day).order_by("match_number").first()
    play(first, "A")
    html = client.get(reverse("tournament:public_timetable", args=[day.slug])).content.decode()
    assert shown(html) == sorted(Match.objects.filter(event=day).values_list("match_number", flat=True))
    card = html.split(f'data-key="{first.match_number}"', 1)[1].split("</li>", 1)[0]
    assert f"第{first.match_number}試合" in card and "09:30" in card and str(first.court) in card
    assert first.team_a.name in card and first.team_b.name in card and "30 - 26" in card
    assert "<table" not in html.split('id="live"', 1)[1]  # no wide table


def test_a_big_timetable_shows_the_coming_games_by_default_and_everything_one_tap_away(client, day, monkeypatch):
    monkeypatch.setattr(public, "SPLIT_ABOVE", 5)
    monkeypatch.setattr(public, "COMING", 4)
    games = list(Match.objects.filter(event=day).order_by("start_at", "match_number"))
    play(games[0], "A")
    url = reverse("tournament:public_timetable", args=[day.slug])
    default = client.get(url).content.decode()
    assert shown(default) == [g.match_number for g in games[1:5]]
    assert "?show=all" in default
    everything = client.get(url + "?show=all").content.decode()
    assert len(shown(everything)) == len(games)
    division = day.divisions.get()
    assert len(shown(client.get(f"{url}?division={division.pk}").content.decode())) == len(games)


def test_the_team_view_and_its_selector(client, day):
    team = Team.objects.order_by("pk").first()
    url = reverse("tournament:public_timetable", args=[day.slug])
    response = client.get(f"{url}?team={team.pk}")
    assert response.status_code == 302 and response["Location"] == reverse(
        "tournament:public_team", args=[day.slug, team.pk]
    )
    assert client.get(f"{url}?team=abc").status_code == 404
    assert client.get(f"{url}?team=").status_code == 200  # "—" chosen: the timetable
    assert client.get(f"{url}?team=999999").status_code == 404
    html = client.get(response["Location"]).content.decode()
    mine = Match.objects.filter(event=day, team_a=team) | Match.objects.filter(event=day, team_b=team)
    assert sorted(shown(html)) == sorted(m.match_number for m in mine)
    assert 'class="side me"' in html or 'class="side winner me"' in html
    content = html.split("<main>", 1)[1]
    assert "onchange" not in content and "onsubmit" not in content and "<script>" not in content


def test_the_court_and_team_pages_do_not_share_a_cached_fragment(client, day):
    court = day.courts.order_by("order").first()
    team = Team.objects.exclude(group__court=court).first()
    court_html = client.get(reverse("tournament:public_court", args=[day.slug, court.pk])).content.decode()
    team_html = client.get(reverse("tournament:public_team", args=[day.slug, team.pk])).content.decode()
    assert set(shown(court_html)) == set(Match.objects.filter(court=court).values_list("match_number", flat=True))
    assert team.name in team_html and shown(team_html) != shown(court_html)


def test_unknown_query_parameters_are_served_from_the_cache(client, day, django_assert_max_num_queries):
    play(Match.objects.filter(event=day).first(), "A")
    url = reverse("tournament:public_results", args=[day.slug])
    client.get(url)
    with django_assert_max_num_queries(8) as captured:
        client.get(url + "?x=12345")
    fresh = len(captured)
    cache.clear()
    with django_assert_max_num_queries(20) as captured:
        client.get(url + "?x=67890")
    assert fresh < len(captured)


def test_results_are_paged_newest_first_and_a_bad_page_is_the_first(client, day, monkeypatch):
    monkeypatch.setattr(public, "RESULTS_PER_PAGE", 3)
    for match in Match.objects.filter(event=day)[:5]:
        play(match, "A")
    url = reverse("tournament:public_results", args=[day.slug])
    first = shown(client.get(url).content.decode())
    second = shown(client.get(url + "?page=2").content.decode())
    assert len(first) == 3 and len(second) == 2 and first == sorted(first, reverse=True) and max(second) < min(first)
    assert shown(client.get(url + "?page=abc").content.decode()) == first
    assert shown(client.get(url + "?page=99").content.decode()) == second


def test_the_fragment_is_the_live_part_with_the_version_it_was_made_from(client, day):
    url = reverse("tournament:public_timetable", args=[day.slug])
    page = client.get(url).content.decode()
    version = event_version(day)
    assert f'data-version="{version}"' in page and 'data-api="/api/v1/events/"' in page
    # hashed after a collectstatic (make serve, the benches), plain before
    assert f'src="{staticfiles_storage.url("js/public_refresh.js")}"' in page
    fragment = client.get(url + "?show=all&fragment=1").content.decode()
    assert fragment.startswith('<div class="live-body"') and "<html" not in fragment


def test_the_events_document_carries_a_version_that_changes_with_a_result(
    client, day, django_capture_on_commit_callbacks
):
    def version():
        return client.get("/api/v1/events/").json()["events"][0]["version"]

    before = version()
    assert before == event_version(day) and version() == before
    with django_capture_on_commit_callbacks(execute=True):  # the result's transaction commits
        play(Match.objects.filter(event=day).first(), "A")
    after = version()
    assert after != before and after == event_version(day)


def test_a_page_shows_a_result_confirmed_after_it_was_rendered(client, day):
    url = reverse("tournament:public_timetable", args=[day.slug])
    assert "30 - 26" not in client.get(url).content.decode()
    play(Match.objects.filter(event=day).first(), "A")
    assert "30 - 26" in client.get(url).content.decode()  # a page opened afresh: no wait for the cache


def test_a_polled_fragment_is_rendered_at_most_once_per_lag_and_carries_the_version_it_shows(client, day, monkeypatch):
    url = reverse("tournament:public_timetable", args=[day.slug])
    first = client.get(url + "?fragment=1")
    old_version = event_version(day)
    play(Match.objects.filter(event=day).first(), "A")
    behind = client.get(url + "?fragment=1")  # within LIVE_LAG_SECONDS of the last render
    html = behind.content.decode()
    assert "30 - 26" not in html and f'data-version="{old_version}"' in html
    assert behind["ETag"] == first["ETag"]  # the answer's ETag is the version it shows
    monkeypatch.setattr(public, "LIVE_LAG_SECONDS", 0)  # the lag is over
    fresh = client.get(url + "?fragment=1")
    assert "30 - 26" in fresh.content.decode() and f'data-version="{event_version(day)}"' in fresh.content.decode()
    assert fresh["ETag"] != first["ETag"]


def test_while_another_request_renders_the_new_version_the_newest_fragment_is_served(client, day, monkeypatch):
    url = reverse("tournament:public_timetable", args=[day.slug])
    old_version = event_version(day)
    client.get(url)
    play(Match.objects.filter(event=day).first(), "A")
    monkeypatch.setattr(public, "cache_add", lambda *args: False)  # the render lock is someone else's
    html = client.get(url).content.decode()
    assert "30 - 26" not in html and html.count(f'data-version="{old_version}"') == 2  # page and fragment agree
    monkeypatch.undo()
    assert "30 - 26" in client.get(url).content.decode()


def test_the_short_standings_show_rank_team_wins_and_the_deciding_figure(client, day):
    for match in Match.objects.filter(event=day):
        play(match, "A")
    url = reverse("tournament:public_standings", args=[day.slug])
    with translation.override("ja"):
        html = client.get(url).content.decode()
    head = html.split('class="table short-standings"', 1)[1].split("</thead>", 1)[0]
    assert re.findall(r"<th>([^<]*)</th>", head) == ["順位", "チーム", "勝", "枚数差"]
    assert "cross" not in html and "?full=1" in html
    full = client.get(url + "?full=1").content.decode()
    assert 'class="table standings"' in full and 'class="table cross"' in full
    division = day.divisions.get()
    assert client.get(f"{url}?full=1&division={division.pk}").status_code == 200
    assert client.get(f"{url}?division=999999").status_code == 404


def finals_played():
    """Four groups of three played by strength, the knockout seeded and played (side A wins)."""
    event, _division = drawn_day(4, 12)
    play_groups_by_strength(event)
    seed_knockout(event)
    for match in Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).order_by("match_number"):
        match.refresh_from_db()
        if match.team_a_id and match.team_b_id:
            play(match, "A")
    return event


def test_the_final_places_are_in_the_sessions_language(client):
    event = finals_played()
    url = reverse("tournament:public_final", args=[event.slug])
    japanese = client.get(url, headers={"accept-language": "ja"}).content.decode()
    assert "優勝" in japanese and "準優勝" in japanese and "（敬称略）" in japanese
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert "Champion" in english and "Runner-up" in english and "(honorifics omitted)" in english
    assert "優勝" not in english and "敬称略" not in english


def test_place_text_names_every_place():
    with translation.override("en"):
        assert [str(public.place_text(p)) for p in ("優勝", "準優勝", "第3位", "第12位", "特別賞")] == [
            "Champion",
            "Runner-up",
            "3rd place",
            "12th place",
            "特別賞",
        ]
    with translation.override("ja"):
        assert [str(public.place_text(p)) for p in ("優勝", "準優勝", "第3位")] == ["優勝", "準優勝", "第3位"]


@pytest.mark.parametrize("name", ["public_timetable", "public_results", "public_standings"])
def test_public_pages_answer_304_while_nothing_changed_and_200_after_a_result(client, day, name):
    """Conditional GET on the public pages (issue 17, item 3): a phone's copy is current until the
    event's version changes."""
    url = reverse(f"tournament:{name}", args=[day.slug])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    fragment = client.get(url + "?fragment=1", HTTP_IF_NONE_MATCH=first["ETag"])
    assert fragment.status_code == 200  # the fragment is another answer
    play(Match.objects.filter(event=day).order_by("match_number").first(), "A")
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
