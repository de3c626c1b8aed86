"""The event's version is computed once per data version and kept a few seconds (issue 31,
item 3: six aggregate queries on every phone's poll were a quarter of the server's time),
never served behind a committed write, and never kept from a transaction with writes not yet
committed."""

import pytest
from django.core.cache import cache
from django.db import transaction

from tests.tournament.test_services import drawn_day
from tests.tournament.test_standings_settings import play
from tournament.models import Match, Team
from tournament.reports import api

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: the data version is bumped


@pytest.fixture
def day():
    cache.clear()
    event, _division = drawn_day(courts=2, teams=4)
    yield event
    cache.clear()


def test_a_second_ask_costs_no_query_and_gives_the_same_version(day, django_assert_num_queries):
    first = api.event_version(day)
    with django_assert_num_queries(0):
        assert api.event_version(day) == first
    assert first == api.compute_event_version(day)


def test_a_committed_result_changes_the_version_at_once(day):
    before = api.event_version(day)
    play(Match.objects.filter(event=day).first(), "A")  # its own transaction, committed
    after = api.event_version(day)
    assert after != before and after == api.compute_event_version(day)


def test_a_write_that_bypasses_the_signals_shows_within_the_fresh_seconds(day, monkeypatch):
    before = api.event_version(day)
    Team.objects.filter(division__event=day).update(version=99)  # no signal, no data version bump
    assert api.event_version(day) == before  # kept: at most FRESH_SECONDS behind
    clock = api.page_cache.time.time() + api.page_cache.FRESH_SECONDS + 1
    monkeypatch.setattr(api.page_cache.time, "time", lambda: clock)
    assert api.event_version(day) == api.compute_event_version(day) != before


def test_writes_not_yet_committed_are_counted_and_not_kept(day, django_assert_num_queries):
    before = api.event_version(day)
    with transaction.atomic():
        team = Team.objects.filter(division__event=day).first()
        team.version += 1  # as an edit through the registration service does
        team.save()  # bumps the version only when the transaction commits
        inside = api.event_version(day)
        assert inside != before  # this transaction's own write is seen
        transaction.set_rollback(True)
    assert api.event_version(day) == before  # rolled back: the kept version is still true
    with django_assert_num_queries(0):
        api.event_version(day)


def test_the_public_event_is_kept_until_a_committed_write_and_a_draft_is_hidden_at_once(
    day, rf, django_assert_num_queries
):
    from django.contrib.auth.models import AnonymousUser
    from django.http import Http404

    from tournament.access import event_for_public
    from tournament.models import Event

    request = rf.get("/")
    request.user = AnonymousUser()
    assert event_for_public(request, day.slug) == day
    with django_assert_num_queries(0):
        assert event_for_public(request, day.slug).name == day.name
    day.visibility = Event.Visibility.DRAFT
    day.save()  # committed: the data version is bumped
    with pytest.raises(Http404):
        event_for_public(request, day.slug)
    with pytest.raises(Http404):
        event_for_public(request, "no-such-event")


def _fragment_paths(event):
    base = f"/e/{event.slug}/"
    return [base + "?fragment=1", base + "standings/?fragment=1", base + "results/?fragment=1"]


def test_a_phone_refresh_of_a_kept_fragment_asks_no_query(day, client, django_assert_num_queries):
    # The timetable's "how many games" and the results' pager count are kept per data version
    # too: a phone's refresh that finds its fragment kept reaches no database.
    for path in [*_fragment_paths(day), f"/e/{day.slug}/display/courts/?fragment=1"]:
        assert client.get(path).status_code == 200
        with django_assert_num_queries(0):
            assert client.get(path).status_code == 200, path


def test_the_kept_counts_follow_a_committed_result_at_once(day, client):
    from tournament.views import public

    results = f"/e/{day.slug}/results/"  # a page opened afresh: never a lagging fragment
    empty = client.get(results).content.decode()
    match = Match.objects.filter(event=day).order_by("match_number").first()
    play(match, "A")  # committed: the data version is bumped
    shown = client.get(results).content.decode()
    assert shown != empty
    played = day.matches.exclude(status=Match.Status.SCHEDULED)
    assert public._kept_count(day, "results", played) == played.count() == 1


def test_announcements_are_read_once_per_data_version_and_shown_by_the_clock(day, django_assert_num_queries):
    import datetime

    from django.utils import timezone

    from tournament.reports import hall
    from tournament.services.announcements import announce

    start = timezone.now()
    assert hall.announcements_now(day, start) == []
    shown = announce(day, "第1コートへ集合", 5, now=start)  # committed: seen at once
    assert hall.announcements_now(day, start) == [shown]
    with django_assert_num_queries(0):
        assert hall.announcements_now(day, start + datetime.timedelta(minutes=4)) == [shown]
        assert hall.announcements_now(day, start + datetime.timedelta(minutes=5)) == []  # ended, no write


def test_the_team_pages_of_a_group_share_its_standings_and_follow_a_committed_result(
    day, client, django_assert_max_num_queries
):
    # The group's standings, the division's stage paths, final places and open games are kept
    # per data version for every team page (issue 31 item 3: half the day shape's phones are on
    # their team's page); a result committed shows on the next page opened.
    match = Match.objects.filter(event=day).order_by("match_number").first()
    first, second = match.team_a, match.team_b
    page = f"/e/{day.slug}/team/{{}}/"
    english = {"accept-language": "en"}
    before = client.get(page.format(first.pk), headers=english).content.decode()
    assert "no game played yet" in before
    with django_assert_max_num_queries(8):  # the team, its games and sheets, its hand prizes, the page
        client.get(page.format(second.pk), headers=english)
    play(match, "A")  # committed: the data version is bumped
    after = client.get(page.format(first.pk), headers=english).content.decode()
    assert "no game played yet" not in after and "won 1, lost 0" in after
