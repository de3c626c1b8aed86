"""Shared fixtures of the referee-side tests: a scheduled day whose results wait for a recorder."""

import pytest

from tests import factories
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture
def day(db):
    """Results wait for a recorder: two courts, six teams in two groups of three, six games."""
    event = factories.make_event(courts=2, auto_confirm=False)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event


@pytest.fixture
def recorder(day, django_user_model):
    """A recorder of the event who does not organise it."""
    user = django_user_model.objects.create_user("recorder")
    day.recorders.add(user)
    return user


@pytest.fixture
def second_recorder(day, django_user_model):
    user = django_user_model.objects.create_user("recorder2")
    day.recorders.add(user)
    return user


@pytest.fixture
def organiser(day, django_user_model):
    user = django_user_model.objects.create_user("organiser")
    day.organisers.add(user)
    return user
