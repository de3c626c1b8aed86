"""Fixtures of the series tests: two played events (``support.two_events``)."""

import pytest

from tests.series import support


@pytest.fixture
def two_events(db):
    return support.two_events()
