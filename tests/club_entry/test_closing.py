"""When club links close (found by an outside tester: a leaked QR card rewrote the champions'
team name and players after the event). Without a deadline club edits close at the start of
the tournament's day (JST); in every case once the event has a group or a game; a team with a
game is never changed through a club link; absences on the day still work; the organiser's and
the club's pages say when the links close (README, "When club links close")."""

import datetime
import io

import pytest
from django.core.management import call_command
from django.utils import timezone, translation

from club_entry import services
from club_entry.models import ChangeLog
from tests import factories
from tests.club_entry.conftest import four
from tests.club_entry.test_views import team_post
from tournament.models import Match, Team
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture(autouse=True)
def _in_english():
    with translation.override("en"):
        yield


def at(event, days, hour=0):
    """An aware time ``days`` after the start of ``event``'s day (JST), at ``hour``."""
    return services.day_start(event) + datetime.timedelta(days=days, hours=hour)


def played_team(event, link, low):
    """The club's team and five others, drawn, scheduled and every game played."""
    team = services.save_club_team(link, division=low, name="港A", players=four())
    factories.make_teams(low, 5)
    draw_groups(event, seed=1)
    make_schedule(event)
    call_command("simulate_results", event.slug, "--seed", "3", stdout=io.StringIO())
    assert Match.objects.filter(winner__isnull=False).exists()
    return Team.objects.get(pk=team.pk)


def test_without_a_deadline_club_edits_close_at_the_start_of_the_day(link, event, low):
    assert services.state(link, at(event, -1, 23)).open
    for when in (at(event, 0), at(event, 0, 10), at(event, 3)):
        found = services.state(link, when)
        assert found.code == services.DAY and "day has begun" in found.sentence
    assert services.state(link, at(event, 0, 10)).event_day  # absences still reported that day
    assert not services.state(link, at(event, 1, 10)).event_day


def test_a_save_on_or_after_the_day_is_refused_and_keeps_what_was_typed(client, link, event, low):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    event.date = timezone.localdate() - datetime.timedelta(days=1)  # the event is over
    event.save()
    with pytest.raises(services.EntryClosed):
        services.save_club_team(
            link, division=low, name="乗っ取り", players=four(), team=team, base_version=team.version
        )
    answer = client.post(f"/club/{link.token}/team/{team.pk}/", team_post(low, name="乗っ取り", version=team.version))
    assert answer.status_code == 410 and "乗っ取り" in answer.content.decode()
    assert client.post(f"/club/{link.token}/team/add/", team_post(low, name="港Z")).status_code == 410
    assert client.post(f"/club/{link.token}/team/{team.pk}/remove/", {"version": team.version}).status_code == 410
    assert list(Team.objects.values_list("name", flat=True)) == ["港A"]


def test_a_deadline_on_the_day_keeps_edits_open_until_it(link, event):
    settings = services.entry_settings(event)
    settings.deadline = at(event, 0, 9)
    settings.save()
    assert services.state(link, at(event, 0, 8)).open
    assert services.state(link, at(event, 0, 9)).code == services.DEADLINE


def test_club_edits_close_once_the_groups_are_drawn_whatever_the_deadline(client, link, event, low):
    settings = services.entry_settings(event)
    settings.deadline = at(event, 0, 23)
    settings.save()
    team = services.save_club_team(link, division=low, name="港A", players=four())
    factories.make_teams(low, 5)
    draw_groups(event, seed=1)
    found = services.state(link)
    assert found.code == services.DRAWN and "drawn" in found.sentence
    answer = client.post(f"/club/{link.token}/team/{team.pk}/", team_post(low, name="乗っ取り", version=team.version))
    assert answer.status_code == 410
    team.refresh_from_db()
    assert team.name == "港A"
    assert "drawn" in client.get(f"/club/{link.token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_the_champions_cannot_be_rewritten_after_the_games(client, link, event, low):
    team = played_team(event, link, low)
    names = sorted(team.players.values_list("name", flat=True))
    answer = client.post(
        f"/club/{link.token}/team/{team.pk}/", team_post(low, name="乗っ取り", p1_name="偽名", version=team.version)
    )
    assert answer.status_code == 410
    team.refresh_from_db()
    assert team.name == "港A" and sorted(team.players.values_list("name", flat=True)) == names
    assert not ChangeLog.objects.filter(what=ChangeLog.EDITED).exists()


def test_a_team_with_games_is_never_changed_through_the_link(link, event, low, monkeypatch):
    team = played_team(event, link, low)
    monkeypatch.setattr(services, "drawn", lambda event: False)  # even if the rest were open
    found = services.team_state(link, team)
    assert found.code == services.HAS_GAMES and "has games" in found.sentence
    assert services.state(link).open  # a new team could still be entered
    with pytest.raises(services.EntryClosed):
        services.save_club_team(
            link, division=low, name="乗っ取り", players=four(), team=team, base_version=team.version
        )
    with pytest.raises(services.EntryClosed):
        services.remove_club_team(link, team, team.version)
    assert Team.objects.get(pk=team.pk).name == "港A"


def test_absences_are_still_reported_on_the_day(link, event, low):
    team = played_team(event, link, low)
    player = team.players.first()
    services.report_absence(link, player, True, now=at(event, 0, 8))
    assert ChangeLog.objects.filter(what=ChangeLog.ABSENT).exists()


def test_the_organisers_and_the_clubs_page_say_when_the_links_close(client, link, event, django_user_model):
    organiser = django_user_model.objects.create_user("organiser")
    event.organisers.add(organiser)
    club_page = client.get(f"/club/{link.token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No deadline is set" in club_page and event.date.isoformat() + " 00:00" in club_page
    client.force_login(organiser)
    page = client.get(f"/manage/{event.slug}/clubs/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="links-close"' in page and "start of the tournament" in page
    settings = services.entry_settings(event)
    settings.deadline = at(event, -2, 18)
    settings.save()
    page = client.get(f"/manage/{event.slug}/clubs/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    deadline = (event.date - datetime.timedelta(days=2)).isoformat() + " 18:00"
    assert f"at the deadline, {deadline} (JST)" in page
