"""The public short standings a page of groups at a time (issue 31 item 4: a phone's default
view stays the same size however big the event): ``GROUPS_PER_PAGE`` groups a page in
division order, every group on exactly one page, links to every group's page, the comparison
of the best runners-up after its division's last group, a division not drawn yet in its
place, and a page number out of range answered with the nearest page."""

import re

import pytest
from django.urls import reverse

from tests import factories
from tests.tournament.test_stages_services import day
from tournament.models import Group
from tournament.views import public

pytestmark = pytest.mark.django_db


@pytest.fixture
def twelve_groups():
    """8 groups in the first division, 4 in the second (best runner-up compared), then a
    third division not drawn yet."""
    event, (first, second) = day(
        [
            ("小学生の部", list(range(1, 9)), 24, {}),
            ("中学生の部", [9, 10, 11, 12], 12, {"qualifiers_per_group": 1, "best_runners_up": 1}),
        ]
    )
    late = factories.make_division(event, name="一般の部")
    return event, first, second, late


def cards(html):
    """Group pks of the group cards shown, in order."""
    return [int(pk) for pk in re.findall(r'class="card group-card" data-key="g(\d+)"', html)]


def get(client, event, query=""):
    url = reverse("tournament:public_standings", args=[event.slug]) + query
    return client.get(url, headers={"accept-language": "en"}).content.decode()


def test_ten_groups_a_page_in_division_order_each_on_exactly_one_page(client, twelve_groups):
    event, first, second, _late = twelve_groups
    assert public.GROUPS_PER_PAGE == 10
    order = [g.pk for g in Group.objects.filter(division=first)] + [g.pk for g in Group.objects.filter(division=second)]
    page_1, page_2 = get(client, event), get(client, event, "?page=2")
    assert cards(page_1) == order[:10]
    assert cards(page_2) == order[10:]
    assert "Page 1 of 2" in page_1 and "?page=2" in page_1
    assert "Page 2 of 2" in page_2 and "?page=1" in page_2


def test_every_group_is_linked_to_its_page(client, twelve_groups):
    event, first, second, _late = twelve_groups
    html = get(client, event)
    jump = html.split('class="group-jump', 1)[1].split("</details>", 1)[0]
    links = re.findall(r'href="\?page=(\d+)#group-(\d+)"', jump)
    groups = list(Group.objects.filter(division=first)) + list(Group.objects.filter(division=second))
    assert [(int(page), int(pk)) for page, pk in links] == [(1 if i < 10 else 2, g.pk) for i, g in enumerate(groups)]
    assert first.name in jump and second.name in jump  # several divisions: each named
    for g in groups[:10]:
        assert f'id="group-{g.pk}"' in html


def test_the_best_runners_up_come_after_their_divisions_last_group(client, twelve_groups):
    event, _first, second, _late = twelve_groups
    assert f'id="best-{second.pk}"' not in get(client, event)  # page 1 holds two of its four groups
    page_2 = get(client, event, "?page=2")
    assert f'id="best-{second.pk}"' in page_2
    assert page_2.index(f'id="best-{second.pk}"') > max(page_2.index(f'data-key="g{pk}"') for pk in cards(page_2))


def test_a_division_not_drawn_yet_keeps_its_place(client, twelve_groups):
    event, _first, _second, late = twelve_groups
    page_2 = get(client, event, "?page=2")
    assert page_2.index(f"<h2>{late.name}</h2>") > page_2.index(f"<h2>{_second.name}</h2>")
    assert "Not drawn yet." in page_2.split(f"<h2>{late.name}</h2>", 1)[1]
    assert f"<h2>{late.name}</h2>" not in get(client, event)


def test_a_page_number_out_of_range_or_not_a_number_is_the_nearest_page(client, twelve_groups):
    event, *_ = twelve_groups
    assert cards(get(client, event, "?page=99")) == cards(get(client, event, "?page=2"))
    assert cards(get(client, event, "?page=abc")) == cards(get(client, event))
    assert cards(get(client, event, "?page=0")) == cards(get(client, event))


def test_one_division_is_paged_on_its_own_and_its_links_keep_it(client, twelve_groups):
    event, first, _second, _late = twelve_groups
    html = get(client, event, f"?division={first.pk}")
    assert cards(html) == [g.pk for g in Group.objects.filter(division=first)]
    assert "group-jump" not in html and "Page 1 of" not in html  # eight groups: one page


def test_a_small_event_has_one_page_and_no_links(client):
    event, _divisions = day([("小学生の部", [1, 2], 6, {})])
    html = get(client, event)
    assert len(cards(html)) == 2
    assert "group-jump" not in html and "pager" not in html
