"""The standings say that a team which withdrew before finishing its games is left out of the
head-to-head (issue 29, item 5; docs/rules/scheduling-standings-seeding.md, section 3.9), under
both withdrawal settings, through the read side every page, PDF and the API use."""

import pytest
from django.utils import translation

from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament.models import Match, Team
from tournament.reports.standings import division_standings, standing_lines
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule
from tournament.services.withdrawal import withdraw_team


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def play(a, b, cards_a, cards_b):
    """The game of ``a`` and ``b``: ``a`` takes ``cards_a``."""
    match = Match.objects.get(stage=Match.Stage.GROUP, team_a__in=[a, b], team_b__in=[a, b])
    if match.team_a_id != a.pk:
        cards_a, cards_b = cards_b, cards_a
    joker = rules.JokerHolder.A if cards_a > cards_b else rules.JokerHolder.B
    submit_result(match, rules.SheetValues(cards_a, cards_b, 56 - cards_a - cards_b, joker))


def group_of_four(setting):
    """A beats everyone; B beat C by 1; W beat B by 10 and lost to C by 10, then withdrew."""
    event = factories.make_event(courts=1, auto_confirm=True)
    division = factories.make_division(
        event, courts=[1], withdrawal=setting, criteria_codes="wins,head_to_head,card_diff,cards_taken,lot"
    )
    a, b, c, w = (factories.make_team(division, name) for name in ("Aチーム", "Bチーム", "Cチーム", "Wチーム"))
    draw_groups(event, seed=1)
    make_schedule(event)
    play(a, b, 15, 10)
    play(a, c, 15, 10)
    play(b, c, 11, 10)
    play(w, b, 20, 10)
    play(c, w, 20, 10)
    withdraw_team(Team.objects.get(pk=w.pk))
    return division, a, b, c, w


def test_under_walkovers_the_withdrawn_team_is_left_out_of_the_mini_league_and_the_rows_say_so(db):
    division, a, b, c, w = group_of_four("walkover")
    (table,) = division_standings(division)
    lines = standing_lines(table)
    assert [line.team.pk for line in lines] == [a.pk, b.pk, c.pk, w.pk]
    by_team = {line.team.pk: line for line in lines}
    assert by_team[c.pk].decided_by == "h2h_finished"
    assert "withdrawn team left out" in by_team[c.pk].decided_by_text
    assert by_team[w.pk].decided_by == "withdrawn_h2h" and by_team[w.pk].withdrawn
    assert "left out of the head-to-head" in by_team[w.pk].decided_by_text


def test_under_annul_the_withdrawn_team_has_left_the_table_and_b_stays_above_c(db):
    division, a, b, c, w = group_of_four("annul")
    (table,) = division_standings(division)
    lines = standing_lines(table)
    assert [line.team.pk for line in lines] == [a.pk, b.pk, c.pk, w.pk]
    assert lines[-1].annulled and lines[-1].decided_by == "withdrawn"
    assert lines[2].decided_by == "wins"  # W's games gone, B's win over C is its only win
