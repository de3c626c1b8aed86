"""The team page's version (``reports.versions.team_version``, issue 31 item 3): a result in
another group leaves a team's page current, so under a full hall one result makes only its
group's team pages render again; whatever the page shows still changes it: its group's games
and play-offs, its division's teams and lots, a group it has games in, and every group of its
division once the games after the groups exist or the division is finished."""

import datetime

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from awards.models import HandPrize
from common import page_cache
from tests.tournament.test_stages_services import between, day, members, play, play_groups, win
from tournament.models import Court, Match, RunnerUpLot, TieBreak
from tournament.reports.api import event_version
from tournament.reports.versions import compute_event_scopes, team_version
from tournament.services.knockout import seed_divisions
from tournament.views import public

pytestmark = pytest.mark.django_db(transaction=True)  # real commits: the data version is bumped


@pytest.fixture
def event():
    """Two divisions: four groups of three (the group winners to a knockout), and one group of three."""
    cache.clear()
    made, _divisions = day([("小学生の部", [1, 2, 3, 4], 12, {}), ("中学生の部", [5], 3, {})])
    yield made
    cache.clear()


def _groups(event):
    league, small = event.divisions.order_by("order")
    return league, small, [members(g) for g in league.groups.order_by("name")], members(small.groups.get())


def _moved(match):
    """A game moved (its time changed): a write to its group's part."""
    match.changed_at = timezone.now()
    match.save(update_fields=["changed_at"])


def test_a_result_in_another_group_leaves_the_version_and_changes_its_own_groups(event):
    _league, _small, (a, b, *_rest), other = _groups(event)
    before = {t.pk: team_version(event, t) for t in (a[0], b[0], other[0])}
    shown = event_version(event)
    win(b[0], b[1])
    assert event_version(event) != shown  # every other public page follows the result
    assert team_version(event, a[0]) == before[a[0].pk]
    assert team_version(event, other[0]) == before[other[0].pk]
    assert team_version(event, b[0]) != before[b[0].pk]


def test_a_play_off_changes_its_groups_teams_and_a_runners_up_lot_its_divisions(event):
    _league, _small, (a, b, *_rest), other = _groups(event)
    first = {t.pk: team_version(event, t) for t in (a[0], b[0], other[0])}
    TieBreak.objects.create(group=b[0].group, team=b[0], position=1, method="lot")
    second = {t.pk: team_version(event, t) for t in (a[0], b[0], other[0])}
    assert second[a[0].pk] == first[a[0].pk] and second[b[0].pk] != first[b[0].pk]
    RunnerUpLot.objects.create(division=a[0].division, team=a[1], position=1, method="lot")
    third = {t.pk: team_version(event, t) for t in (a[0], b[0], other[0])}
    assert third[a[0].pk] != second[a[0].pk] and third[b[0].pk] != second[b[0].pk]
    assert third[other[0].pk] == first[other[0].pk]


def test_a_team_renamed_or_two_teams_swapped_change_every_page_of_the_division(event):
    _league, _small, (a, b, c, _d), other = _groups(event)
    first = team_version(event, c[0]), team_version(event, other[0])
    b[2].name = "改名チーム"
    b[2].version += 1
    b[2].save()
    second = team_version(event, c[0]), team_version(event, other[0])
    assert second[0] != first[0] and second[1] == first[1]
    group_a, group_b = a[2].group, b[2].group
    a[2].group, b[2].group = group_b, group_a  # the same teams per group size: a swap
    a[2].save(update_fields=["group"])
    b[2].save(update_fields=["group"])
    assert team_version(event, c[0]) != second[0]


def test_a_game_in_a_group_the_team_has_left_still_changes_its_version(event):
    _league, _small, (a, b, *_rest), _other = _groups(event)
    moving, stayed = a[0], a[1]
    game, left = between(moving, stayed), moving.group_id
    moving.group = b[0].group
    moving.save(update_fields=["group"])
    assert ("group", left) in compute_event_scopes(event).plays_in[moving.pk]
    before = team_version(event, moving)
    _moved(game)
    assert team_version(event, moving) != before


def test_every_group_counts_once_the_division_is_finished_or_has_games_after_the_groups(event):
    league, _small, (a, b, *_rest), _other = _groups(event)
    game_in_b = between(b[0], b[1])
    before = team_version(event, a[0]), team_version(event, a[0], finished=True)
    _moved(game_in_b)
    assert team_version(event, a[0]) == before[0]
    assert team_version(event, a[0], finished=True) != before[1]  # the places read every group

    play_groups(league)
    seed_divisions(event)
    assert Match.objects.filter(division=league).after_groups().exists()
    seeded = team_version(event, a[0])
    _moved(game_in_b)  # the knockout's slots come from every group's standings
    assert team_version(event, a[0]) != seeded


def test_a_team_page_stays_cached_through_another_groups_result_and_carries_the_new_version(event, client, monkeypatch):
    _league, _small, (a, b, *_rest), _other = _groups(event)
    monkeypatch.setattr(public, "LIVE_LAG_SECONDS", 0)  # a polled fragment may lag 5 s: not here
    renders = []
    real = public.render_to_string
    monkeypatch.setattr(
        public, "render_to_string", lambda name, *args, **kw: renders.append(name) or real(name, *args, **kw)
    )
    english = {"accept-language": "en"}
    fragment = f"/e/{event.slug}/team/{{}}/?fragment=1"
    client.get(fragment.format(a[0].pk), headers=english)
    client.get(fragment.format(b[0].pk), headers=english)
    renders[:] = [name for name in renders if name.endswith("team_live.html")]
    assert len(renders) == 2
    play(between(b[0], b[1]), 30, 20)
    kept = client.get(fragment.format(a[0].pk), headers=english).content.decode()
    renders[:] = [name for name in renders if name.endswith("team_live.html")]
    assert len(renders) == 2  # served from the cache: nothing it shows changed
    assert kept.startswith(f'<div class="live-body" data-version="{event_version(event)}">')
    fresh = client.get(fragment.format(b[0].pk), headers=english).content.decode()
    renders[:] = [name for name in renders if name.endswith("team_live.html")]
    assert len(renders) == 3 and "30 - 20" in fresh and f'data-version="{event_version(event)}"' in fresh


def test_the_minutes_to_the_next_game_follow_the_clock_without_a_new_render(event, client, monkeypatch):
    _league, _small, (a, *_rest), _other = _groups(event)
    team = a[0]
    game = Match.objects.filter(Q(team_a=team) | Q(team_b=team)).order_by("start_at", "match_number").first()
    now = timezone.now()
    game.start_at = now + datetime.timedelta(minutes=42, seconds=30)  # still its first game (the day is ahead)
    game.save(update_fields=["start_at"])
    cache.clear()
    renders = []
    real = public.render_to_string
    monkeypatch.setattr(
        public, "render_to_string", lambda name, *args, **kw: renders.append(name) or real(name, *args, **kw)
    )
    fragment = f"/e/{event.slug}/team/{team.pk}/?fragment=1"
    assert "in 42 minutes" in client.get(fragment, headers={"accept-language": "en"}).content.decode()
    later = now + datetime.timedelta(minutes=40)
    monkeypatch.setattr(public.timezone, "now", lambda: later)
    html = client.get(fragment, headers={"accept-language": "en"}).content.decode()
    assert "in 2 minutes" in html and 'role="alert"' in html  # due: the banner, from the clock alone
    assert renders.count("public/includes/team_live.html") == 1
    assert renders.count("public/includes/team_next.html") == 2


def test_a_court_renamed_changes_the_version_and_a_tablets_report_does_not(event):
    _league, _small, (a, *_rest), _other = _groups(event)
    before = team_version(event, a[0])
    court = event.courts.order_by("pk").first()
    parts = compute_event_scopes(event).parts
    Court.objects.filter(pk=court.pk).update(tablet_heard_at=timezone.now(), tablet_unsent=2)  # every minute
    assert compute_event_scopes(event).parts == parts
    cache.clear()
    assert team_version(event, a[0]) == before
    court.refresh_from_db()
    court.name = "第9コート"
    court.save()
    assert team_version(event, a[0]) != before


def test_a_prize_added_by_hand_shows_on_the_team_page_within_the_fresh_seconds(event, client, monkeypatch):
    _league, _small, (a, *_rest), _other = _groups(event)
    team = a[0]
    fragment = f"/e/{event.slug}/team/{team.pk}/?fragment=1"
    english = {"accept-language": "en"}
    assert "敢闘賞" not in client.get(fragment, headers=english).content.decode()
    HandPrize.objects.create(event=event, division=team.division, name="敢闘賞", team=team)  # no data version
    later = page_cache.time.time() + page_cache.FRESH_SECONDS + 1
    monkeypatch.setattr(page_cache.time, "time", lambda: later)
    monkeypatch.setattr(public, "LIVE_LAG_SECONDS", 0)
    assert "敢闘賞" in client.get(fragment, headers=english).content.decode()


def test_a_refresh_of_a_kept_team_fragment_asks_no_query_and_another_events_team_is_a_404(
    event, client, django_assert_num_queries
):
    _league, _small, (a, *_rest), _other = _groups(event)
    fragment = f"/e/{event.slug}/team/{a[0].pk}/?fragment=1"
    assert client.get(fragment).status_code == 200
    with django_assert_num_queries(0):  # the team's place, versions and fragment: all kept
        assert client.get(fragment).status_code == 200
    stranger, _divisions = day([("一般の部", [6], 3, {})])
    foreign = stranger.divisions.get().teams.first()
    assert client.get(f"/e/{event.slug}/team/{foreign.pk}/").status_code == 404
    assert client.get(f"/e/{event.slug}/team/{foreign.pk}/?fragment=1").status_code == 404
    assert client.get(f"/e/{stranger.slug}/team/{foreign.pk}/").status_code == 200
