"""Numbers in queries and forms never make a 500 (issue 18, item 5).

``?division=99999999999999999999`` once reached SQLite as an integer too large for it;
a posted id such as ``court=abc`` or ``²`` (a digit to ``str.isdigit`` but not to ``int``)
raised in the view. They now answer 404 (a number that names nothing) or are ignored.
"""

import pytest
from django.core.management import call_command
from django.test import Client

from tournament.access import whole_number
from tournament.models import Event

pytestmark = pytest.mark.django_db

BIG = "99999999999999999999"
ODD = [BIG, "²", "9" * 5000, "１"]
PARAMS = ["division", "court", "team", "round", "numbers", "stage", "per_page"]


@pytest.fixture
def organiser_client(django_user_model):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    user = django_user_model.objects.create_user("org", password="pw")
    Event.objects.get(slug="demo").organisers.add(user)
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


def test_the_overflowing_division_of_the_issue_answers_404(organiser_client):
    assert organiser_client.get(f"/manage/demo/teams/?division={BIG}").status_code == 404
    assert organiser_client.get(f"/manage/demo/schedule/?court={BIG}").status_code == 404
    assert organiser_client.get("/manage/demo/teams/?division=abc").status_code == 200  # ignored, as before
    assert organiser_client.get(f"/manage/demo/print/sheets.pdf?numbers=1,{BIG}&court=1").status_code == 200


def test_no_odd_number_in_a_query_makes_a_500(organiser_client):
    pages = [
        "/manage/demo/teams/",
        "/manage/demo/teams/add/",
        "/manage/demo/schedule/",
        "/manage/demo/groups/",
        "/manage/demo/standings/",
        "/e/demo/",
        "/e/demo/results/",
        "/e/demo/standings/",
    ]
    failures = [
        (page, name, value[:20], status)
        for page in pages
        for name in PARAMS
        for value in ODD
        if (status := organiser_client.get(page, {name: value}).status_code) >= 500
    ]
    assert failures == []


def test_no_odd_id_in_a_posted_form_makes_a_500(organiser_client):
    posts = [
        ("/manage/demo/schedule/delay/", {"minutes": "15"}, "court"),
        ("/manage/demo/schedule/delay/", {"court": "1"}, "minutes"),
        ("/manage/demo/schedule/close-court/", {}, "court"),
        ("/manage/demo/groups/move/", {"group": "1"}, "team"),
        ("/manage/demo/groups/move/", {"team": "1"}, "group"),
        ("/manage/demo/groups/late-team/", {"group": "1"}, "team"),
        ("/manage/demo/groups/draw/", {}, "seed"),
        ("/manage/demo/people/", {"remove": "1"}, "user"),
        ("/manage/demo/standings/", {"lot": "1"}, "division"),
        ("/manage/demo/standings/", {"tie": "1"}, "group"),
        ("/manage/demo/courts/", {"move": "1"}, "court"),
    ]
    failures = [
        (url, name, value[:20], status)
        for url, data, name in posts
        for value in [*ODD, "abc", ""]
        if (status := organiser_client.post(url, {**data, name: value}).status_code) >= 500
    ]
    assert failures == []


def test_whole_number_reads_only_plain_numbers_in_range():
    assert [whole_number(v) for v in ["7", " 7 ", "0", "-3", BIG, "²", "１", "1e3", "", None]] == [
        7,
        7,
        0,
        None,
        None,
        None,
        None,
        None,
        None,
        None,
    ]
    assert whole_number("-3", low=-10) == -3
