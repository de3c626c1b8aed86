"""A closed court says so wherever it is listed: the public court page, the court picker, the
organiser's court links page and the groups page."""

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tournament.services.day_changes import close_court
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db
CLOSED = "このコートは閉鎖しました（試合は他のコートへ移動）。"


@pytest.fixture
def closed(django_user_model):
    event = factories.make_event(courts=3, slug="closing")
    division = factories.make_division(event, courts=[1, 2, 3], layout="one_group_per_court")
    factories.make_teams(division, 12)
    draw_groups(event, seed=1)
    make_schedule(event)
    court = event.courts.get(name="3")
    close_court(court)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    organiser = Client(HTTP_ACCEPT_LANGUAGE="ja")
    organiser.force_login(user)
    return event, court, organiser


def test_the_public_court_page_and_the_picker_say_the_court_is_closed(closed):
    event, court, _organiser = closed
    public = Client(HTTP_ACCEPT_LANGUAGE="ja")
    page = public.get(reverse("tournament:public_court", args=[event.slug, court.pk])).content.decode()
    assert CLOSED in page
    open_page = public.get(reverse("tournament:public_court", args=[event.slug, event.courts.get(name="1").pk]))
    body = open_page.content.decode()
    assert CLOSED not in body
    picker = body.split('class="pickers"', 1)[1].split("</details>", 1)[0]
    assert picker.count("（閉鎖）") == 0 and picker.count("(閉鎖)") == 1


def test_the_court_links_and_groups_pages_say_the_court_is_closed(closed):
    event, _court, organiser = closed
    links = organiser.get(reverse("tournament:court_links", args=[event.slug])).content.decode()
    assert links.count(CLOSED) == 1
    groups = organiser.get(reverse("tournament:groups", args=[event.slug])).content.decode()
    assert groups.count("閉鎖：試合は他のコートへ移動") == 1
