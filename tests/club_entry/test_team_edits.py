"""A club's teams through later edits (issue 20 item 4, the first build's two gaps): an absence
a club reported survives an edit of the team while the player is still in it (by the name key)
and is closed, with a line in the change log, when the player was removed; a team a club entered
stays the club's when the organiser respells its affiliation, and moves, said on the organiser's
page and in the change log, when the organiser gives it another club's affiliation."""

import datetime
import importlib

import pytest
from django.apps import apps as django_apps
from django.utils import timezone, translation

from club_entry import services
from club_entry.models import AbsenceReport, ChangeLog, EnteredTeam
from tests import factories
from tests.club_entry.conftest import CLUB, OTHER, four
from tests.club_entry.test_views import team_post
from tournament.models import Player, Team
from tournament.services.registration import PlayerData


@pytest.fixture
def on_the_day(event):
    """The event's day, with a deadline at its end: club edits stay open that day (without a
    deadline they close at its start: ``test_closing.py``)."""
    event.date = timezone.localdate()
    event.save()
    settings = services.entry_settings(event)
    settings.deadline = timezone.make_aware(datetime.datetime.combine(event.date, datetime.time(23, 59, 59)))
    settings.save()
    return timezone.now()


def organiser_post(team, low, affiliation=CLUB, **extra):
    data = team_post(low, name=team.name, affiliation=affiliation, seed="", version=team.version)
    data.update(extra)
    return data


def edit_url(event, team):
    return f"/manage/{event.slug}/teams/{team.pk}/"


def absent(link, team, name, now):
    player = team.players.get(name=name)
    services.report_absence(link, player, True, now=now)
    return player


def test_an_absence_survives_the_organisers_edit_while_the_player_is_in_the_team(
    client, link, event, low, organiser, on_the_day
):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    player = absent(link, team, "港三郎", on_the_day)
    # The organiser swaps the leader and the substitute's grade, keeps 港三郎 (spelled with a space).
    data = organiser_post(team, low, leader="1", p3_name="港 三郎", p4_grade="小2")
    answer = client.post(edit_url(event, team), data)
    assert answer.status_code == 302, answer.content.decode()
    kept = Player.objects.get(team=team, name="港 三郎")
    assert kept.pk == player.pk and kept.absence_report.link == link
    assert [p.name for p in Player.objects.filter(team=team, is_leader=True)] == ["港一郎"]
    assert not ChangeLog.objects.filter(what=ChangeLog.CLOSED).exists()
    listing = client.get(f"/manage/{event.slug}/teams/").content.decode()
    assert "港 三郎（欠席）" in listing.replace('<strong class="warning">', "").replace("</strong>", "")


def test_an_absence_survives_the_clubs_own_edit(client, link, event, low, on_the_day):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    player = absent(link, team, "港一郎", on_the_day)
    answer = client.post(f"/club/{link.token}/team/{team.pk}/", team_post(low, name="港B", version=team.version))
    assert answer.status_code == 302
    assert AbsenceReport.objects.get().player_id == player.pk
    assert "欠席" in client.get(f"/club/{link.token}/").content.decode()


def test_the_organiser_removes_an_absent_player_the_report_is_closed_and_logged(
    client, link, event, low, organiser, on_the_day
):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    absent(link, team, "港四郎", on_the_day)
    answer = client.post(edit_url(event, team), organiser_post(team, low, p4_name="", p4_furigana="", p4_grade=""))
    assert answer.status_code == 302
    assert not AbsenceReport.objects.exists()
    closed = ChangeLog.objects.get(what=ChangeLog.CLOSED)
    assert (closed.link, closed.team, closed.detail, closed.by_organiser) == (link, team, "港四郎", True)
    page = client.get(f"/manage/{event.slug}/clubs/").content.decode()
    assert "欠席の報告を閉じました" in page and "大会本部" in page


def test_the_club_replaces_an_absent_player_the_report_is_closed_and_logged(link, event, low, on_the_day):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    absent(link, team, "港二郎", on_the_day)
    players = four()
    players[1] = PlayerData("港五郎", "ごろう", "小3", is_leader=True)
    services.save_club_team(link, division=low, name="港A", players=players, team=team, base_version=team.version)
    assert not AbsenceReport.objects.exists()
    closed = ChangeLog.objects.get(what=ChangeLog.CLOSED)
    assert (closed.detail, closed.by_organiser) == ("港二郎", False)


def test_a_respelled_affiliation_keeps_the_team_on_its_clubs_link(client, link, event, low, organiser):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    answer = client.post(edit_url(event, team), organiser_post(team, low, affiliation="港子ども会"))
    assert answer.status_code == 302
    assert list(link.teams()) == [team]
    assert client.get(f"/club/{link.token}/team/{team.pk}/").status_code == 200
    renamed = ChangeLog.objects.get(what=ChangeLog.RENAMED)
    assert renamed.by_organiser and renamed.detail == f"{CLUB} → 港子ども会"
    # The club's own edit keeps the organiser's spelling.
    team.refresh_from_db()
    services.save_club_team(link, division=low, name="港B", players=four(), team=team, base_version=team.version)
    assert Team.objects.get().affiliation == "港子ども会"
    # No link is made for the respelled affiliation: it is this club's.
    assert services.create_links_for_affiliations(event) == []


def test_another_clubs_affiliation_moves_the_team_and_says_so(client, link, other_link, event, low, organiser):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    answer = client.post(edit_url(event, team), organiser_post(team, low, affiliation=f" {OTHER} "))
    assert answer.status_code == 302
    assert list(link.teams()) == [] and list(other_link.teams()) == [team]
    assert EnteredTeam.objects.get().link == other_link
    assert client.get(f"/club/{link.token}/team/{team.pk}/").status_code == 404
    assert client.get(f"/club/{other_link.token}/team/{team.pk}/").status_code == 200
    out = ChangeLog.objects.get(what=ChangeLog.MOVED_OUT)
    came = ChangeLog.objects.get(what=ChangeLog.MOVED_IN)
    assert (out.link, came.link, out.by_organiser) == (link, other_link, True)
    assert [c.team_name for c in services.moved_away(link)] == ["港A"]
    page = client.get(f"/manage/{event.slug}/clubs/").content.decode()
    assert "別のクラブへ移動" in page and "港A" in page
    assert "大会本部が「港A」を別のクラブへ移しました" in client.get(f"/club/{link.token}/").content.decode()
    assert "港A" in client.get(f"/club/{other_link.token}/").content.decode()


def test_a_team_the_organiser_typed_follows_its_affiliation(link, other_link, event, low):
    team = factories.make_team(low, "港Z", affiliation=CLUB)
    assert list(link.teams()) == [team]
    services.organiser_edits_team(team, affiliation=OTHER, players=[])
    team.affiliation = OTHER
    team.save()
    assert list(link.teams()) == [] and list(other_link.teams()) == [team]
    assert ChangeLog.objects.filter(what=ChangeLog.MOVED_OUT, link=link).exists()
    # Back to a club with no link: out of every link, said on the one it left.
    services.organiser_edits_team(team, affiliation="ひがし子ども会", players=[])
    assert ChangeLog.objects.filter(what=ChangeLog.MOVED_OUT, link=other_link).exists()


def test_teams_entered_before_this_change_are_recorded_by_the_migration(link, other_link, low):
    """club_entry 0002 reads the change log: the first link that added or edited a team gets it."""
    first = services.save_club_team(link, division=low, name="港A", players=four())
    second = services.save_club_team(other_link, division=low, name="大和A", players=four("大和"))
    EnteredTeam.objects.all().delete()
    ChangeLog.objects.create(link=other_link, team=first, team_name="港A", what=ChangeLog.EDITED)  # later
    migration = importlib.import_module("club_entry.migrations.0002_entered_teams")
    migration.record_entered_teams(django_apps, None)
    assert dict(EnteredTeam.objects.values_list("team_id", "link_id")) == {
        first.pk: link.pk,
        second.pk: other_link.pk,
    }


@pytest.fixture(autouse=True)
def _japanese():
    with translation.override("ja"):
        yield


def test_an_old_report_is_not_touched_by_an_edit_of_another_team(link, event, low, on_the_day):
    mine = services.save_club_team(link, division=low, name="港A", players=four())
    other = services.save_club_team(link, division=low, name="港B", players=four("浜"))
    absent(link, mine, "港一郎", on_the_day)
    services.save_club_team(
        link, division=low, name="港B", players=four("浜")[:3], team=other, base_version=other.version
    )
    assert AbsenceReport.objects.count() == 1
    assert on_the_day - datetime.timedelta(minutes=1) < AbsenceReport.objects.get().reported_at
