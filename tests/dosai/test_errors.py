"""Refusals are ``DosaiError`` (a ``UserError``) shown on the screen; a programming error is never one.

The views catch only ``DosaiError``: a plain ``ValueError`` raised by a service (a bug) answers
500 instead of becoming a message.
"""

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from dosai import services
from dosai.engine.options import OptionError, Options, options_as_dict
from dosai.models import ClubEdition, Hand, Session
from tests.dosai.factories import make_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("owner")


@pytest.fixture
def raw_client(user):
    """A logged-in client that answers a view's exception with a 500 page, as in production."""
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def session_form(edition):
    data = {"title": "t", "edition": edition.pk, "player_1": "A", "player_2": "B", "player_3": "C"}
    data.update(
        {f"opt_{k}": ("1" if v else "0") if isinstance(v, bool) else v for k, v in options_as_dict(Options()).items()}
    )
    return data


@pytest.mark.parametrize("error", [services.DosaiError, services.StaleForm])
def test_the_refusals_are_user_errors_and_not_value_errors(error):
    assert issubclass(error, UserError) and not issubclass(error, ValueError)


def test_options_the_engine_refuses_are_a_refusal_naming_the_option():
    with pytest.raises(OptionError, match="hako_every"):
        Options(hako_every=0)
    assert issubclass(OptionError, ValueError) and not issubclass(OptionError, UserError)
    with pytest.raises(services.DosaiError, match="hako_every"):
        services.options_from_form({"hako_every": 0})


def _bug(*args, **kwargs):
    raise ValueError("a programming error")


def test_a_plain_value_error_in_the_options_answers_500_not_a_form_message(raw_client, user, monkeypatch):
    edition = ClubEdition.objects.create(owner=user, name="m", base="matsui")
    monkeypatch.setattr(services, "options_from_form", _bug)
    assert raw_client.post(reverse("dosai:session_new"), session_form(edition)).status_code == 500
    assert not Session.objects.exists()


def test_refused_options_are_shown_on_the_form(raw_client, user, monkeypatch):
    edition = ClubEdition.objects.create(owner=user, name="m", base="matsui")

    def refuse(values):
        raise services.DosaiError("test refusal")

    monkeypatch.setattr(services, "options_from_form", refuse)
    response = raw_client.post(reverse("dosai:session_new"), session_form(edition))
    assert response.status_code == 200 and "test refusal" in response.content.decode()
    assert not Session.objects.exists()


def test_a_plain_value_error_in_a_call_answers_500_and_a_refusal_shows_its_message(raw_client, user, monkeypatch):
    session = make_session(user)
    raw_client.post(reverse("dosai:hand_new", args=[session.pk]), {"dealing": "app", "reader": "app"})
    url = reverse("dosai:hand_call", args=[session.pk, 1])
    stale = raw_client.post(url, {"expected": 5}, follow=True)
    assert stale.status_code == 200 and "out of date" in stale.content.decode()
    monkeypatch.setattr(services, "record_call", _bug)
    assert raw_client.post(url, {"expected": 0}).status_code == 500
    assert Hand.objects.get().calls == []
