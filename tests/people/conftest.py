"""A scheduled day of two divisions for the people app's tests."""

import pytest
from django.contrib.auth import get_user_model

from tests.tournament.test_stages_services import day


@pytest.fixture
def event(db):
    event, _divisions = day([("小学生の部", [1, 2], 6, {}), ("中学生の部", [3], 4, {})])
    return event


@pytest.fixture
def organiser(event):
    user = get_user_model().objects.create_user("org", password="pw-org-123456")
    event.organisers.add(user)
    return user


@pytest.fixture
def receptionist(event):
    from people.access import day_settings

    user = get_user_model().objects.create_user("desk", password="pw-desk-123456")
    day_settings(event).receptionists.add(user)
    return user


@pytest.fixture
def announcer(event):
    from people.access import day_settings

    user = get_user_model().objects.create_user("mc", password="pw-mc-1234567")
    day_settings(event).announcers.add(user)
    return user


@pytest.fixture
def stranger(db):
    return get_user_model().objects.create_user("other", password="pw-other-12345")
