"""Results that survive a dropped connection: what the court page's script reports and the
court board shows (issue 16, item 2). The script itself is tried in tests/browser/test_offline.py."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournament.models import Court


@pytest.fixture
def court(day):
    return day.courts.order_by("order").first()


def heard_url(court):
    return reverse("judging:court_heard", args=[court.token])


def test_the_tablet_reports_it_is_there_and_how_many_results_it_holds_unsent(client, court):
    before = timezone.now()
    response = client.post(heard_url(court), {"unsent": "2"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]  # court pages are never stored (issue 18)
    assert response.json()["unsent"] == 2
    court.refresh_from_db()
    assert court.tablet_unsent == 2 and court.tablet_heard_at >= before
    client.post(heard_url(court), {"unsent": "0"})
    court.refresh_from_db()
    assert court.tablet_unsent == 0


@pytest.mark.parametrize("bad", ["", "-1", "1000", "two", "1.5"])
def test_a_bad_count_is_refused_naming_the_field_and_changes_nothing(client, court, bad):
    response = client.post(heard_url(court), {"unsent": bad})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["unsent"]
    court.refresh_from_db()
    assert court.tablet_heard_at is None and court.tablet_unsent == 0


def test_a_revoked_or_unknown_link_is_not_heard_and_a_get_is_refused(client, court):
    assert client.get(heard_url(court)).status_code == 405
    Court.objects.filter(pk=court.pk).update(link_enabled=False)
    assert client.post(heard_url(court), {"unsent": "1"}).status_code == 404
    assert client.post(reverse("judging:court_heard", args=["x" * 32]), {"unsent": "1"}).status_code == 404
    court.refresh_from_db()
    assert court.tablet_heard_at is None


def test_the_endpoint_needs_the_pages_csrf_token(court):
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(heard_url(court), {"unsent": "1"}).status_code == 403
    page = strict.get(reverse("judging:court_home", args=[court.token]))
    token = page.cookies["csrftoken"].value
    assert strict.post(heard_url(court), {"unsent": "1"}, HTTP_X_CSRFTOKEN=token).status_code == 200


def test_the_court_pages_carry_the_unsent_box_and_only_the_entry_page_keeps_its_form(client, day, court):
    match = day.matches.filter(court=court).order_by("match_number").first()
    entry = client.get(reverse("judging:court_entry", args=[court.token, match.match_number])).content.decode()
    home = client.get(reverse("judging:court_home", args=[court.token])).content.decode()
    for page in (entry, home):
        assert 'id="unsent"' in page and "js/offline.js" in page and heard_url(court) in page
    assert "data-intercept" in entry and "data-intercept" not in home
    # Without the script the form posts as before.
    assert '<form method="post" novalidate class="card">' in entry


def test_the_court_board_shows_when_each_tablet_was_last_heard_from_and_its_unsent_results(
    client, day, recorder, court
):
    heard = timezone.now() - datetime.timedelta(minutes=3)
    Court.objects.filter(pk=court.pk).update(tablet_heard_at=heard, tablet_unsent=2)
    client.force_login(recorder)
    page = client.get(reverse("judging:status_board", args=[day.slug]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    local = timezone.localtime(heard).strftime("%H:%M")
    assert f"heard {local}" in page
    assert "2 results unsent on the tablet" in page
    assert "3\xa0minutes ago" in page
    # A court whose tablet was never heard from shows a dash, and no unsent results.
    assert page.count("unsent on the tablet") == 1
