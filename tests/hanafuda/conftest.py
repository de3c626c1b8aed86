"""Fixtures of the hanafuda app tests: the scorer, logged in with English pages, and English
messages for the services (the catalogue translates them to Japanese)."""

import pytest
from django.utils import translation


@pytest.fixture
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("scorer")


@pytest.fixture
def client_in(client, user):
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client
