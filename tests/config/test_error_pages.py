"""The error pages are the site's own, in the page's language: never Django's bare English
"Not Found" on a tablet at the court."""

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.views import defaults

from tests import factories


@pytest.mark.django_db
def test_a_page_that_does_not_exist_is_explained_in_japanese_and_in_english(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("reader"))
    page = client.get("/games/dosai/sessions/999/hands/1/")  # e.g. deleted on another tablet
    assert page.status_code == 404
    body = page.content.decode()
    assert "このページはありません" in body and 'id="not-found"' in body and "Not Found" not in body
    client.cookies["django_language"] = "en"
    assert "This page does not exist" in client.get("/no-such-page/").content.decode()


@pytest.mark.django_db
def test_a_page_that_is_not_allowed_says_so(client, django_user_model):
    event = factories.make_event(courts=1, slug="karuta")
    client.force_login(django_user_model.objects.create_user("stranger"))
    page = client.get(reverse("tournament:event_detail", args=[event.slug]))
    assert page.status_code == 403 and "このページは開けません" in page.content.decode()


def test_the_server_error_page_needs_nothing_and_speaks_both_languages():
    response = defaults.server_error(RequestFactory().get("/"))
    body = response.content.decode()
    assert response.status_code == 500 and "エラーが起きました" in body and "Server error" in body
