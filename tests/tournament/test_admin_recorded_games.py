"""The admin never deletes a played game silently (issue 29, item 4; docs/rules/stages.md,
"A played game is never deleted"): its delete page and "delete selected" refuse and name the
game; a group or division whose deletion would take a played game with it is refused too; a
game never played can still be deleted."""

import pytest
from django.utils import translation

from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament.models import Division, Group, Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture
def day(db, client, django_user_model):
    event = factories.make_event(courts=1, auto_confirm=True)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    played, unplayed, _third = Match.objects.filter(event=event).order_by("match_number")
    submit_result(played, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    played.refresh_from_db()
    assert played.status == Match.Status.CONFIRMED
    admin = django_user_model.objects.create_superuser("root", password="x")
    client.force_login(admin)
    return event, division, played, unplayed


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_the_delete_page_of_a_played_game_refuses_and_names_it(day, client):
    _event, _division, played, _unplayed = day
    url = f"/admin/tournament/match/{played.pk}/delete/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"Game {played.match_number}" in text and "Void it on its game page instead" in text
    answer = client.post(url, {"post": "yes"})
    assert answer.status_code in (200, 403)
    assert Match.objects.filter(pk=played.pk).exists()


def test_delete_selected_with_a_played_game_deletes_nothing(day, client):
    _event, _division, played, unplayed = day
    answer = client.post(
        "/admin/tournament/match/",
        {"action": "delete_selected", "_selected_action": [played.pk, unplayed.pk], "post": "yes"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 200
    assert "Void it on its game page instead" in answer.content.decode()
    assert Match.objects.filter(pk__in=[played.pk, unplayed.pk]).count() == 2


def test_a_void_game_is_kept_too(day, client):
    _event, _division, played, _unplayed = day
    Match.objects.filter(pk=played.pk).update(status=Match.Status.VOID)
    client.post(f"/admin/tournament/match/{played.pk}/delete/", {"post": "yes"})
    assert Match.objects.filter(pk=played.pk).exists()


def test_a_group_or_division_holding_a_played_game_is_not_deleted(day, client):
    _event, division, played, _unplayed = day
    group = played.group
    client.post(f"/admin/tournament/group/{group.pk}/delete/", {"post": "yes"})
    assert Group.objects.filter(pk=group.pk).exists()
    client.post(f"/admin/tournament/division/{division.pk}/delete/", {"post": "yes"})
    assert Division.objects.filter(pk=division.pk).exists()
    assert Match.objects.filter(pk=played.pk).exists()


def test_a_game_never_played_can_still_be_deleted(day, client):
    _event, _division, _played, unplayed = day
    answer = client.post(f"/admin/tournament/match/{unplayed.pk}/delete/", {"post": "yes"})
    assert answer.status_code == 302
    assert not Match.objects.filter(pk=unplayed.pk).exists()
