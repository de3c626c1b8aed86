"""The 星取表 marks a result that waits for the recorder (issue 29, item 8): the page, the PDF's
and the workbook's cell text say 「確認待ち」 for it, as the standings mark the group provisional;
a confirmed result shows its score, a game not entered stays empty."""

import pytest
from django.utils import translation

from judging import services
from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament.models import Match
from tournament.reports.standings import group_standings
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule


@pytest.fixture
def group_of_three(db):
    event = factories.make_event(courts=1, auto_confirm=False)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    waiting, open_game, _third = Match.objects.filter(event=event).order_by("match_number")
    submit_result(waiting, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))  # not confirmed: a recorder checks
    waiting.refresh_from_db()
    assert waiting.status == Match.Status.SUBMITTED
    return event, division, waiting, open_game


def cell(group, row_team_id, col_team_id):
    order = [t.pk for t in group.cross.teams]
    for team, cells in group.cross.grid:
        if team.pk == row_team_id:
            return cells[order.index(col_team_id)]
    raise AssertionError("no such row")


def test_a_result_waiting_for_the_recorder_is_marked_both_ways_and_counts_for_nobody(group_of_three):
    _event, division, waiting, open_game = group_of_three
    (group,) = group_standings(division)
    with translation.override("ja"):
        for a, b in ((waiting.team_a_id, waiting.team_b_id), (waiting.team_b_id, waiting.team_a_id)):
            c = cell(group, a, b)
            assert c.pending and not c.played and c.text == "確認待ち"
        assert cell(group, open_game.team_a_id, open_game.team_b_id).text == ""
    with translation.override("en"):
        assert cell(group, waiting.team_a_id, waiting.team_b_id).text == "waiting"
    assert all(line.played == 0 for line in group.lines)  # not counted until confirmed


def test_once_confirmed_the_cell_shows_the_score(group_of_three, django_user_model):
    _event, division, waiting, _open_game = group_of_three
    recorder = django_user_model.objects.create_user("recorder")
    services.confirm_sheet(waiting.sheets.get(), recorder)
    (group,) = group_standings(division)
    c = cell(group, waiting.team_a_id, waiting.team_b_id)
    assert c.played and not c.pending and c.text.startswith("○ 30-26")


def test_the_public_standings_page_shows_the_mark(client, group_of_three):
    event, division, waiting, _open_game = group_of_three
    page = client.get(f"/e/{event.slug}/standings/?full=1&division={division.pk}", HTTP_ACCEPT_LANGUAGE="ja")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<td class="pending muted small">確認待ち</td>' in html
