"""The tables' body rows written in Python (tournament.tables.PlainRows) are django-tables2's
own rows: the same HTML, whatever the data (results, knockout slots, a withdrawn team, a
sorted table, an empty one)."""

import difflib
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.template import Context, Template
from django.test import RequestFactory
from django_tables2 import RequestConfig

from judging.engine import rules
from judging.services import submit_sheet
from tournament import reports
from tournament.models import Event, Match, Team
from tournament.services.withdrawal import withdraw_team
from tournament.tables import MatchTable, TeamTable, standings_tables

TABLES2_TEMPLATE = "django_tables2/table.html"


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=StringIO())
    call_command("draw_groups", "demo", "--seed", "1", stdout=StringIO())
    call_command("make_schedule", "demo", stdout=StringIO())
    call_command("simulate_results", "demo", "--seed", "2", stdout=StringIO())
    call_command("seed_knockout", "demo", stdout=StringIO())
    event = Event.objects.get(slug="demo")
    match = Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).exclude(team_a=None).first()
    submit_sheet(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), court=match.court)  # waiting
    return event


def _debug_diff(a, b):
    """The rows that differ, one per line."""
    lines = [h.replace("<tr", "\n<tr").splitlines() for h in (a, b)]
    return "\n".join(difflib.unified_diff(*lines, lineterm="", n=0))


def normalised(html):
    """Whitespace next to a tag dropped (insignificant in these cells and headers)."""
    return re.sub(r"\s+<", "<", re.sub(r">\s+", ">", html)).strip()


def both(make, query=""):
    """(django-tables2's HTML, PlainRows' HTML) of the table ``make()`` builds."""
    request = RequestFactory().get("/x/" + query)
    html = {}
    for name, template in (("tables2", TABLES2_TEMPLATE), ("plain", None)):
        table = make()
        if template:
            table.template_name = template
        RequestConfig(request, paginate=False).configure(table)
        html[name] = normalised(table.as_html(request))
    return html["tables2"], html["plain"]


@pytest.mark.parametrize("query", ["", "?sort=-court", "?sort=status"])
@pytest.mark.parametrize("entry", [None, "judging:match_detail"])
def test_the_games_table_is_django_tables2s(demo, query, entry):
    def make():
        matches = reports.match_queryset(demo)
        return MatchTable(matches, entry_url_name=entry, event=demo, slots=lambda: reports.event_slots(demo))

    tables2, plain = both(make, query)
    assert "<td >" in plain and tables2 == plain, _debug_diff(tables2, plain)[:1500]


def test_an_empty_games_table_is_django_tables2s(demo):
    tables2, plain = both(lambda: MatchTable(Match.objects.none(), slots={}))
    assert tables2 == plain


def test_the_teams_table_is_django_tables2s(demo):
    withdraw_team(Team.objects.filter(division__event=demo).first())

    def make():
        teams = (
            Team.objects.filter(division__event=demo)
            .select_related("division__event", "group")
            .prefetch_related("players")
        )
        return TeamTable(teams)

    tables2, plain = both(make)
    assert "<td >" in plain and tables2 == plain, _debug_diff(tables2, plain)[:1500]


def test_the_standings_tables_are_django_tables2s(demo):
    withdraw_team(Team.objects.filter(division__event=demo).first())
    count = 0
    for _division, groups in standings_tables(demo):
        for index in range(len(groups)):
            tables2, plain = both(lambda i=index: standings_tables(demo)[0][1][i][1])
            assert tables2 == plain, _debug_diff(tables2, plain)[:1500]
            count += 1
        break
    assert count


CROSS_TEMPLATE = """<div class="scroll-x"><table class="table cross">
<tr><th></th>{% for team in t.cross.teams %}<th>{{ team.name }}</th>{% endfor %}</tr>
{% for team, cells in t.cross.grid %}<tr><th>{{ team.name }}</th>
{% for c in cells %}{% if c.is_self %}<td class="self"></td>{% elif c.played %}<td class="{% if c.won %}win{% else %}loss{% endif %}">{% if c.won %}○{% else %}●{% endif %} {{ c.score }}{% if c.mark %} <small>{{ c.mark }}</small>{% endif %}</td>{% else %}<td></td>{% endif %}{% endfor %}
</tr>{% endfor %}
</table></div>"""


def test_the_cross_tables_are_the_template_loops(demo):
    """The 星取表 written in Python is what the template loop per cell wrote."""
    withdraw_team(Team.objects.filter(division__event=demo).first())
    template = Template(CROSS_TEMPLATE)
    count = 0
    for _division, groups in standings_tables(demo):
        for group, table in groups:
            expected = normalised(template.render(Context({"t": group})))
            assert normalised(str(table.cross_html)) == expected, _debug_diff(expected, str(table.cross_html))[:1500]
            count += 1
    assert count
