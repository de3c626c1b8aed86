"""Fixtures of the clubs' entry links: an event with two divisions and two clubs' links."""

import datetime

import pytest
from django.utils import timezone

from club_entry import services
from tests import factories
from tournament.services.registration import PlayerData

CLUB = "みなと子ども会"
OTHER = "やまと子ども会"


def four(prefix="港", grade="小3"):
    """Three players (the leader in the middle) and a substitute."""
    return [
        PlayerData(f"{prefix}一郎", "いちろう", grade),
        PlayerData(f"{prefix}二郎", "じろう", grade, is_leader=True),
        PlayerData(f"{prefix}三郎", "さぶろう", grade),
        PlayerData(f"{prefix}四郎", "しろう", grade, is_substitute=True),
    ]


@pytest.fixture
def event(db):
    event = factories.make_event(courts=2, slug="clubs", date=timezone.localdate() + datetime.timedelta(days=30))
    factories.make_division(event, name="小学生低学年の部", grade_band="小1〜小3", order=1)
    factories.make_division(event, name="小学生高学年の部", grade_band="小4〜小6", order=2)
    return event


@pytest.fixture
def low(event):
    return event.divisions.get(order=1)


@pytest.fixture
def link(event):
    found = services.create_link(event, CLUB, contact_name="港 花子", contact="090-0000-0000")
    services.give_consent(found)
    return found


@pytest.fixture
def other_link(event):
    found = services.create_link(event, OTHER)
    services.give_consent(found)
    return found


@pytest.fixture
def organiser(client, event, django_user_model):
    """The event's organiser, logged in on ``client``."""
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    return user
