"""Refusals are ``UserError`` subclasses shown to the scorer; a programming error is never one.

A view catches only the service's refusals: stored data the rules refuse is a 404, a round
or a name that cannot be used is a message, and a plain ``ValueError`` (a bug) answers 500.
"""

import pytest
from django.test import Client
from django.urls import reverse

from common.errors import UserError
from common.pdf import coverage
from hanafuda import printing, services
from hanafuda.engine.options import OptionError, Options
from hanafuda.models import Round, Session
from tests.hanafuda.helpers import ROUND_A, new_session
from tests.hanafuda.test_views import NEW, grid_post

pytestmark = pytest.mark.django_db


@pytest.fixture
def raw_client(user):
    """A logged-in client that answers a view's exception with a 500 page, as in production."""
    client = Client(raise_request_exception=False)
    client.force_login(user)
    client.cookies["django_language"] = "en"
    return client


@pytest.mark.parametrize("error", [services.RoundError, services.SessionDataError, services.HouseRulesError])
def test_the_refusals_are_user_errors_and_not_value_errors(error):
    assert issubclass(error, UserError) and not issubclass(error, ValueError)


def test_the_engine_refuses_options_with_its_own_value_error():
    with pytest.raises(OptionError, match="storm"):
        Options(storm="nonsense")
    assert issubclass(OptionError, ValueError) and not issubclass(OptionError, UserError)


def test_house_rules_the_engine_refuses_are_a_translated_refusal(english):
    with pytest.raises(services.HouseRulesError, match="do not fit together.*storm"):
        services.house_rules({"storm": "nonsense"})


def test_stored_house_rules_the_engine_refuses_answer_404(client_in, user):
    s = new_session(user)
    Session.objects.filter(pk=s.pk).update(options={"storm": "nonsense"})
    with pytest.raises(services.SessionDataError, match="storm"):
        services.session_state(Session.objects.get(pk=s.pk))
    assert client_in.get(reverse("hanafuda:settlement", args=[s.pk])).status_code == 404


def test_a_stored_round_the_rules_refuse_answers_404(client_in, user, english):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    Round.objects.filter(session=s, number=1).update(captures=[[10], [], []])  # edited in the admin
    with pytest.raises(services.SessionDataError, match="Round 1"):
        services.session_state(s)
    assert client_in.get(reverse("hanafuda:settlement", args=[s.pk])).status_code == 404


def test_more_stored_rounds_than_planned_answer_404(client_in, user, english):
    s = new_session(user, options=Options(rounds=3))
    for number in range(1, 5):
        Round.objects.create(session=s, number=number, captures=ROUND_A)
    with pytest.raises(services.SessionDataError, match="4 rounds are stored"):
        services.session_state(s)
    assert client_in.get(reverse("hanafuda:settlement", args=[s.pk])).status_code == 404


def _bug(*args, **kwargs):
    raise ValueError("a programming error")


@pytest.mark.parametrize("name", ["settlement", "session_detail", "score_sheet", "session_xlsx"])
def test_a_plain_value_error_in_the_derived_state_answers_500_not_404(raw_client, user, monkeypatch, name):
    s = new_session(user)
    monkeypatch.setattr(services, "session_state", _bug)
    assert raw_client.get(reverse(f"hanafuda:{name}", args=[s.pk])).status_code == 500


def test_a_plain_value_error_in_the_preview_answers_500_not_a_problem(raw_client, user, monkeypatch):
    s = new_session(user)
    monkeypatch.setattr(services, "preview_round", _bug)
    response = raw_client.post(reverse("hanafuda:round_preview", args=[s.pk]), grid_post(ROUND_A, 1))
    assert response.status_code == 500


def test_a_plain_value_error_in_the_paper_answers_500_not_a_message(raw_client, user, monkeypatch):
    s = new_session(user)
    monkeypatch.setattr(printing, "paper_warnings", _bug)
    assert raw_client.get(reverse("hanafuda:score_sheet", args=[s.pk])).status_code == 500
    assert raw_client.get(reverse("hanafuda:reference_card", args=[s.pk])).status_code == 500


def test_a_plain_value_error_in_the_house_rules_answers_500_not_a_form_message(raw_client, monkeypatch):
    monkeypatch.setattr(services, "house_rules", _bug)
    assert raw_client.post(reverse("hanafuda:session_create"), NEW).status_code == 500
    assert not Session.objects.exists()


def test_refused_house_rules_are_shown_on_the_form(client_in, monkeypatch):
    def refuse(values):
        raise services.HouseRulesError("These house rules do not fit together: test refusal")

    monkeypatch.setattr(services, "house_rules", refuse)
    response = client_in.post(reverse("hanafuda:session_create"), NEW)
    assert response.status_code == 200 and "test refusal" in response.content.decode()
    assert not Session.objects.exists()


def test_a_title_no_font_can_print_still_prints_and_says_which_character_shows_as_a_mark(client_in, user, monkeypatch):
    monkeypatch.setattr(coverage, "unprintable_chars", lambda text: [ch for ch in text if ch == "\U0001f600"])
    s = services.create_session(user, "\U0001f600", ["A", "B", "C"], Options())
    response = client_in.get(reverse("hanafuda:reference_card", args=[s.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    page = client_in.get(reverse("hanafuda:session_detail", args=[s.pk])).content.decode()
    assert "U+1F600" in page and "〓" in page


def test_stored_rounds_the_rules_refuse_are_named_in_the_preview(client_in, user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    Round.objects.filter(session=s, number=1).update(captures=[[10], [], []])  # edited in the admin
    answer = client_in.post(reverse("hanafuda:round_preview", args=[s.pk]), grid_post(ROUND_A, 2))
    assert answer.status_code == 200 and "Round 1" in answer.json()["problem"]
