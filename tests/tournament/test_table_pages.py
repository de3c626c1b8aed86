"""The organiser tables are django-tables2's, paged the way the desk uses them (issue 30
item 4, issue 31 item 1): the schedule shows 50 games a page with the coming games first,
filtered by court or division (the filters kept in the page links), every game with
``?show=all``; the teams 50 a page; the standings five groups a page, one division or all;
a page number out of range or not a number still answers. The 星取表 written in Python is
the template loop it replaced."""

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.template import Context, Template
from django.urls import reverse

from judging import services as judging_services
from judging.engine import rules
from tests import factories
from tournament.models import Match, Team
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule
from tournament.services.withdrawal import withdraw_team
from tournament.tables import GROUPS_PER_PAGE, PER_PAGE, MatchTable, StandingsTable, TeamTable, standings_tables

TEAMS = 60  # 15 groups of four on 15 courts: 90 group games
CONFIRMED = 45


@pytest.fixture
def big(db):
    event = factories.make_event(courts=15, slug="paged")
    division = factories.make_division(event, courts=list(range(1, 16)))
    factories.make_division(event, name="一般の部")  # a second division, without teams
    factories.make_teams(division, TEAMS)
    draw_groups(event, seed=3)
    make_schedule(event)
    for match in Match.objects.filter(event=event).select_related("event").order_by("match_number")[:CONFIRMED]:
        judging_services.record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    user = get_user_model().objects.create_user("paged-organiser")
    event.organisers.add(user)
    return event, division, user


@pytest.fixture
def desk(client, big):
    client.force_login(big[2])
    return client


def body_rows(html):
    """The ``class`` of every body row of the page's first django-tables2 table."""
    tbody = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r'<tr class="([^"]*)"', tbody)


def numbers(html):
    """The game numbers of the schedule's rows, in order."""
    tbody = html.split("<tbody", 1)[1].split("</tbody>", 1)[0]
    return [int(n) for n in re.findall(r"<tr[^>]*>\s*<td\s*>(\d+)</td>", tbody)]


def schedule(desk, event, query=""):
    response = desk.get(reverse("tournament:schedule", args=[event.slug]) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_the_schedule_shows_a_page_of_games_the_coming_ones_first(desk, big):
    event = big[0]
    html = schedule(desk, event)
    rows = body_rows(html)
    assert len(rows) == PER_PAGE
    # 45 games without a result first, then the first finished ones
    done = ["done" in r.split() for r in rows]
    assert done == [False] * (90 - CONFIRMED) + [True] * (PER_PAGE - 90 + CONFIRMED)
    coming = Match.objects.filter(event=event, status=Match.Status.SCHEDULED)
    expected = list(coming.order_by("start_at", "court__order", "match_number").values_list("match_number", flat=True))
    assert numbers(html)[: len(expected)] == expected


def test_the_second_page_has_the_rest_and_show_all_every_game(desk, big):
    event = big[0]
    second = schedule(desk, event, "?page=2")
    assert len(body_rows(second)) == 90 - PER_PAGE
    everything = schedule(desk, event, "?show=all")
    assert sorted(numbers(everything)) == list(range(1, 91))
    assert 'aria-current="page"' not in everything  # no pages when every game is shown
    assert "?page=" not in everything


def test_the_filters_are_kept_in_the_page_links(desk, big):
    event, division, _user = big
    html = schedule(desk, event, f"?division={division.pk}")
    links = [unescape(h) for h in re.findall(r'href="(\?[^"]*)"', html)]
    assert f"?division={division.pk}&page=2" in links
    assert any("show=all" in link and f"division={division.pk}" in link for link in links)


def test_the_court_filter_shows_that_courts_games_only(desk, big):
    event = big[0]
    court = event.courts.order_by("order").first()
    html = schedule(desk, event, f"?court={court.pk}")
    expected = set(Match.objects.filter(event=event, court=court).values_list("match_number", flat=True))
    assert set(numbers(html)) == expected and expected


def test_a_sorted_schedule_is_paged_too(desk, big):
    event = big[0]
    html = schedule(desk, event, "?sort=-match_number")
    assert numbers(html) == list(range(90, 90 - PER_PAGE, -1))


@pytest.mark.parametrize("query", ["?page=abc", "?page=0", "?page=999", "?page=99999999999999999999", "?per_page=0"])
def test_a_page_number_out_of_range_or_not_a_number_still_answers(desk, big, query):
    html = schedule(desk, big[0], query)
    assert len(body_rows(html)) in (PER_PAGE, 90 - PER_PAGE)


def test_the_teams_are_paged_and_all_on_request(desk, big):
    event = big[0]
    url = reverse("tournament:team_list", args=[event.slug])
    assert len(body_rows(desk.get(url).content.decode())) == PER_PAGE
    assert len(body_rows(desk.get(url + "?page=2").content.decode())) == TEAMS - PER_PAGE
    assert len(body_rows(desk.get(url + "?show=all").content.decode())) == TEAMS


def _groups_shown(html):
    return html.count('<table class="table standings">')


def test_the_standings_show_five_groups_a_page_one_division_or_all(desk, big):
    event, division, _user = big
    url = reverse("tournament:standings", args=[event.slug])
    first = desk.get(url).content.decode()
    assert _groups_shown(first) == GROUPS_PER_PAGE
    assert _groups_shown(desk.get(url + "?page=3").content.decode()) == 15 - 2 * GROUPS_PER_PAGE
    assert _groups_shown(desk.get(url + "?show=all").content.decode()) == 15
    assert _groups_shown(desk.get(url + f"?division={division.pk}&show=all").content.decode()) == 15
    # the hall screens of every division are offered whatever the page
    for d in event.divisions.all():
        assert reverse("tournament:division_display", args=[event.slug, d.pk]) in first
    other = event.divisions.exclude(pk=division.pk).get()
    assert _groups_shown(desk.get(url + f"?division={other.pk}").content.decode()) == 0


def test_standings_tables_pages_the_groups(big):
    event = big[0]
    shown, page = standings_tables(event, page="2", per_page=4)
    assert page.number == 2 and sum(len(tables) for _d, tables in shown) == 4
    everything, none = standings_tables(event)
    assert none is None and sum(len(tables) for _d, tables in everything) == 15


@pytest.mark.parametrize("table_class", [MatchTable, TeamTable, StandingsTable])
def test_no_column_sets_cell_attributes_or_localize(table_class):
    """The row block of includes/paged_table.html writes bare cells: a column with ``td``
    attributes or ``localize`` would lose them there."""
    for name, column in table_class.base_columns.items():
        assert not column.attrs.get("td"), name
        assert column.localize is None, name


CROSS_TEMPLATE = """<div class="scroll-x"><table class="table cross">
<tr><th></th>{% for team in t.cross.teams %}<th>{{ team.name }}</th>{% endfor %}</tr>
{% for team, cells in t.cross.grid %}<tr><th>{{ team.name }}</th>
{% for c in cells %}{% if c.is_self %}<td class="self"></td>{% elif c.played %}<td class="{% if c.won %}win{% else %}loss{% endif %}">{% if c.won %}○{% else %}●{% endif %} {{ c.score }}{% if c.mark %} <small>{{ c.mark }}</small>{% endif %}</td>{% else %}<td></td>{% endif %}{% endfor %}
</tr>{% endfor %}
</table></div>"""


def normalised(html):
    """Whitespace next to a tag dropped (insignificant in these cells and headers)."""
    return re.sub(r"\s+<", "<", re.sub(r">\s+", ">", html)).strip()


def test_the_cross_tables_are_the_template_loops(big):
    """The 星取表 written in Python is what the template loop per cell wrote."""
    withdraw_team(Team.objects.filter(division__event=big[0]).first())
    template = Template(CROSS_TEMPLATE)
    count = 0
    for _division, groups in standings_tables(big[0])[0]:
        for group, table in groups:
            expected = normalised(template.render(Context({"t": group})))
            assert normalised(str(table.cross_html)) == expected
            count += 1
    assert count == 15


def test_a_lot_sent_from_a_page_of_groups_comes_back_to_that_page(desk, big):
    """The lot form posts to the page's own address; the answer leads back to the same division
    and page of groups (not to the first page), and only the page's own parameters are kept."""
    event, division, _user = big
    group = division.groups.order_by("name").last()
    url = reverse("tournament:standings", args=[event.slug])
    teams = list(group.teams.order_by("pk"))
    post = {"group": group.pk, "method": "lot"} | {f"team_{t.pk}": str(i) for i, t in enumerate(teams, 1)}
    response = desk.post(f"{url}?division={division.pk}&page=2&next=https://evil.example/", post)
    assert response.status_code == 302
    assert response["Location"] == f"{url}?division={division.pk}&page=2"
    assert desk.post(url, post)["Location"] == url
