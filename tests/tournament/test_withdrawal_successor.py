"""A withdrawal names the team that takes the withdrawn team's qualifying place (issue 29,
item 8): on the confirmation page and in the message after saving."""

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.tournament.test_stages_services import day, members, play_groups
from tournament.services.withdrawal import withdraw_team


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def groups_done(db):
    """Two groups of three on two courts, every group game played, not seeded yet."""
    event, (division,) = day([("小学生の部", [1, 2], 6, {})])
    play_groups(division)
    group = division.groups.order_by("name").first()
    return event, division, group


def test_a_group_winner_withdrawing_after_its_group_names_the_next_team(groups_done):
    _event, _division, group = groups_done
    first, second, _third = members(group)
    report = withdraw_team(first, preview=True)
    assert report.successor is not None and report.successor.after == second.name
    (line,) = report.successor_lines()
    assert first.name in line and second.name in line and "place 1" in line
    saved = withdraw_team(first)
    assert second.name in saved.summary()


def test_a_team_without_a_qualifying_place_names_nobody(groups_done):
    _event, _division, group = groups_done
    _first, _second, third = members(group)
    assert withdraw_team(third, preview=True).successor is None


def test_the_confirmation_page_names_the_team_that_takes_the_place(client, groups_done):
    event, _division, group = groups_done
    first, second, _third = members(group)
    organiser = get_user_model().objects.create_user("organiser")
    event.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(f"/manage/{event.slug}/teams/{first.pk}/withdraw/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'class="withdraw-successor"' in page and second.name in page
