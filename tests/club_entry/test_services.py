"""The services of the clubs' entry links: links, settings, a club's teams within the limits,
warnings, the deadline, the lock, revoking, the change log, absences (issue 20 item 4)."""

import datetime

import pytest
from django.utils import timezone, translation

from club_entry import services
from club_entry.models import AbsenceReport, ChangeLog, ClubLink
from common.errors import UserError
from tests import factories
from tests.club_entry.conftest import CLUB, four
from tournament.models import Team
from tournament.services import versions


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def save(link, division, name="港A", players=None, **kwargs):
    return services.save_club_team(link, division=division, name=name, players=players or four(), **kwargs)


def test_a_club_enters_a_team_of_its_affiliation_with_a_substitute(link, low):
    team = save(link, low, chaperone="港 太郎")
    assert team.affiliation == CLUB and team.chaperone == "港 太郎"
    assert [(p.name, p.is_leader, p.is_substitute) for p in team.players.all()] == [
        ("港一郎", False, False),
        ("港二郎", True, False),
        ("港三郎", False, False),
        ("港四郎", False, True),
    ]
    assert list(link.teams()) == [team]
    log = ChangeLog.objects.get(what=ChangeLog.ADDED)
    assert (log.link, log.team, log.team_name) == (link, team, "港A")
    assert "◎港二郎" in log.detail
    link.refresh_from_db()
    assert link.last_activity is not None


def test_the_same_name_key_is_refused_as_in_the_import(link, low):
    factories.make_team(low, "みなとＡ")
    with pytest.raises(UserError, match="already registered"):
        save(link, low, name="みなと A")
    assert Team.objects.count() == 1


def test_a_grade_outside_the_band_needs_the_tick(link, low):
    with pytest.raises(services.WarningsNotAccepted) as refused:
        save(link, low, players=four(grade="小5"))
    assert len(refused.value.warnings) == 4 and "小1〜小3" in refused.value.warnings[0]
    assert not Team.objects.exists()
    save(link, low, players=four(grade="小5"), accept_warnings=True)
    assert Team.objects.count() == 1


def test_a_player_already_in_the_clubs_team_and_its_name_in_another_division_are_warnings(link, event, low):
    high = event.divisions.get(order=2)
    taken = factories.make_team(high, "港A", affiliation=link.club)  # the club's own team
    warnings = services.team_warnings(link, low, "港A", four(prefix="選") + [taken.players.first()])
    assert any("小学生高学年の部" in w for w in warnings)
    assert any(taken.players.first().name in w for w in warnings)


def test_another_clubs_team_and_child_are_never_named_to_the_club(link, event, low):
    high = event.divisions.get(order=2)
    theirs = factories.make_team(high, "港A", affiliation="ひたち子ども会")
    warnings = services.team_warnings(link, low, "港A", four(prefix="選") + [theirs.players.first()])
    assert warnings == []


def test_an_edit_under_the_optimistic_lock(link, low):
    team = save(link, low)
    version = team.version
    organiser_copy = Team.objects.get(pk=team.pk)
    organiser_copy.chaperone = "本部"
    versions.claim(organiser_copy, version)
    organiser_copy.save()
    with pytest.raises(versions.StaleEdit):
        save(link, low, name="港B", team=Team.objects.get(pk=team.pk), base_version=version)
    assert Team.objects.get(pk=team.pk).name == "港A"
    saved = save(link, low, name="港B", team=Team.objects.get(pk=team.pk), base_version=version + 1)
    assert saved.name == "港B" and ChangeLog.objects.filter(what=ChangeLog.EDITED).count() == 1


def test_nothing_is_saved_after_the_deadline_or_the_lock(link, event, low):
    team = save(link, low)
    services.save_settings(
        event, deadline=timezone.now() - datetime.timedelta(minutes=1), locked=False, consent_note="同意"
    )
    with pytest.raises(services.EntryClosed, match="deadline"):
        save(link, low, name="港C")
    with pytest.raises(services.EntryClosed):
        services.remove_club_team(link, team)
    services.save_settings(event, deadline=None, locked=True, consent_note="同意")
    with pytest.raises(services.EntryClosed, match="locked"):
        save(link, low, name="港C")
    services.save_settings(event, deadline=None, locked=False, consent_note="同意")
    save(link, low, name="港C", players=four(prefix="浜"))
    assert Team.objects.count() == 2


def test_a_revoked_link_saves_nothing_and_a_renewed_one_works_with_a_new_token(link, low):
    services.revoke(link)
    assert services.state(link).code == services.REVOKED
    with pytest.raises(services.EntryClosed):
        save(link, low)
    old = link.token
    services.renew(link)
    assert link.token != old and link.previous_token == old and len(link.token) >= 32
    save(link, low)


def test_a_club_removes_its_team_before_the_draw_only(link, low):
    team = save(link, low)
    services.remove_club_team(link, team, team.version)
    assert not Team.objects.exists()
    assert ChangeLog.objects.filter(what=ChangeLog.REMOVED, team_name="港A").exists()


def test_links_for_the_registered_affiliations_once_each(event, low):
    factories.make_team(low, "甲", affiliation="ひがし子ども会")
    factories.make_team(low, "乙", affiliation="ひがし 子ども会")
    factories.make_team(low, "丙", affiliation="")
    made = services.create_links_for_affiliations(event)
    assert [link.club for link in made] == ["ひがし子ども会"]
    assert services.create_links_for_affiliations(event) == []
    with pytest.raises(UserError):
        services.create_link(event, "ひがし　子ども会")
    with pytest.raises(UserError):
        services.create_link(event, "  ")
    assert ClubLink.objects.count() == 1
    assert [t.name for t in made[0].teams()] == ["甲", "乙"]


def test_the_consent_note_may_not_be_empty(event):
    with pytest.raises(UserError, match="Consent"):
        services.save_settings(event, deadline=None, locked=False, consent_note="  ")
    assert "保護者" in services.entry_settings(event).consent_note


def test_absences_on_the_day_only(link, event, low):
    team = save(link, low)
    player = team.players.first()
    with pytest.raises(UserError, match="day"):
        services.report_absence(link, player, True)
    day = timezone.make_aware(datetime.datetime.combine(event.date, datetime.time(8, 30)))
    services.report_absence(link, player, True, now=day)
    assert services.absent_players(event).keys() == {player.pk}
    services.report_absence(link, player, False, now=day)
    assert not AbsenceReport.objects.exists()
    assert [c.what for c in ChangeLog.objects.order_by("pk")][-2:] == [ChangeLog.ABSENT, ChangeLog.PRESENT]
