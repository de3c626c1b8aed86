"""Acceptance findings on issue 20 (brief fix20) in the clubs' entry: the change log and the
clubs list name the division and what changed field by field (item 3); the kept values after a
lock or a revocation read as labels, not ids (item 4); the club form's labels (item 8)."""

import datetime

import pytest
from django.utils import timezone, translation

from club_entry import services
from club_entry.models import ChangeLog
from club_entry.services import describe_change as describe
from club_entry.services import snapshot
from club_entry.services import typed_values as typed
from tests.club_entry.conftest import four
from tests.club_entry.test_views import team_post
from tournament.forms import EventForm
from tournament.models import Event
from tournament.services.registration import PlayerData


def test_an_edit_is_logged_field_by_field_with_its_division(link, low):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    players = four()
    players[0] = PlayerData("港一郎", "いちろ", "小2")  # furigana and grade changed
    players[3] = PlayerData("港五郎", "ごろう", "小3", is_substitute=True)  # substitute replaced
    services.save_club_team(
        link, division=low, name="港A", players=players, chaperone="港 次郎", team=team, base_version=team.version
    )
    line = ChangeLog.objects.filter(what=ChangeLog.EDITED).get()
    assert line.division_name == low.name
    assert "いちろう → いちろ" in line.detail and "小3 → 小2" in line.detail
    assert "港五郎" in line.detail and "港四郎" in line.detail
    assert "— → 港 次郎" in line.detail


def test_a_change_without_difference_says_so_and_the_leader_moves():
    class Division:
        name = "低学年の部"

    before = typed(Division, "港A", "", four())
    players = four()
    players[1] = PlayerData("港二郎", "じろう", "小3")
    players[0] = PlayerData("港一郎", "いちろう", "小3", is_leader=True)
    with translation.override("en"):
        assert describe(before, before) == "no change"
        assert "leader: 港二郎 → 港一郎" in describe(before, typed(Division, "港A", "", players))


@pytest.mark.django_db
def test_the_organisers_page_names_the_division_of_each_team_and_change(client, link, event, low, organiser):
    high = event.divisions.get(order=2)
    services.save_club_team(link, division=low, name="港A", players=four())
    services.save_club_team(link, division=high, name="港A", players=four("湊", "小5"), accept_warnings=True)
    page = client.get(f"/manage/{event.slug}/clubs/").content.decode()
    assert f"{low.name}</span> ・ 港A" in page and f"{high.name}</span> ・ 港A" in page
    assert f"<td>{high.name}</td><td>港A</td>" in page
    assert snapshot(None) is None


def test_kept_values_read_as_labels_after_a_lock_and_a_revocation(client, link, event, low):
    services.save_settings(event, deadline=None, locked=True, consent_note="同意")
    text = client.post(f"/club/{link.token}/team/add/", team_post(low, name="港Z")).content.decode()
    assert f"<td>{low.name}</td>" in text and "<td>港二郎</td>" in text  # the leader by name
    assert f"<td>{low.pk}</td>" not in text and "<td>2</td>" not in text
    services.revoke(link)
    text = client.post(f"/club/{link.token}/team/add/", team_post(low, name="港Q")).content.decode()
    assert f"<td>{low.name}</td>" in text and "<td>港二郎</td>" in text


def test_the_club_forms_english_labels_are_capitalised_without_a_colon(client, link):
    with translation.override("en"):
        page = client.get(f"/club/{link.token}/team/add/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">Division</label>" in page and ">Furigana</label>" in page
    assert "division:" not in page.lower()


def event_form(event, date):
    form = EventForm(instance=event)
    data = {name: form[name].value() for name in form.fields}
    data = {name: value for name, value in data.items() if value is not None and value is not False}
    data["date"] = date.isoformat()
    return EventForm(data, instance=Event.objects.get(pk=event.pk))


def test_moving_the_date_before_the_entry_deadline_is_refused_naming_it(event):
    deadline = timezone.make_aware(
        datetime.datetime.combine(event.date - datetime.timedelta(days=2), datetime.time(18))
    )
    services.save_settings(event, deadline=deadline, locked=False, consent_note="同意")
    earlier = event_form(event, event.date - datetime.timedelta(days=20))
    assert not earlier.is_valid()
    assert f"{deadline.astimezone(timezone.get_current_timezone()):%Y-%m-%d %H:%M}" in str(earlier.errors["date"])
    assert event_form(event, event.date - datetime.timedelta(days=2)).is_valid()  # the deadline's own day
    services.save_settings(event, deadline=None, locked=False, consent_note="同意")
    assert event_form(event, event.date - datetime.timedelta(days=20)).is_valid()  # no deadline: free
