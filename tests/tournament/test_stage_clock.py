"""The clock after the groups (issue 29, items 1 and 2): every game after the groups is timed
after every game it depends on, whatever the day did to the courts."""

import datetime

import pytest
from django.utils import timezone

from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament import reports
from tournament.models import Match
from tournament.services.day_changes import delay_court
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db

WIN_A = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
WIN_B = rules.SheetValues(26, 30, 0, rules.JokerHolder.B)


def local(dt):
    return timezone.localtime(dt).strftime("%H:%M")


def play_groups(event):
    for match in event.matches.filter(stage=Match.Stage.GROUP).order_by("match_number"):
        # The team registered first wins: every place of a group is clear (no tie).
        record_confirmed_result(match, WIN_A if match.team_a_id < match.team_b_id else WIN_B)


def ends(event, matches):
    length = datetime.timedelta(minutes=event.game_minutes)
    return [m.start_at + length for m in matches]


def test_a_semifinal_waits_for_the_group_stage_of_a_court_running_late():
    """The reported day: 9 teams on courts 1 and 2, two groups, 2 qualifiers; court 1 runs 40
    minutes late; after the group results, seeding put a semifinal on court 2 at the time one
    of its teams still played a group game on court 1."""
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], qualifiers_per_group=2, after_groups="knockout")
    factories.make_teams(division, 9)
    draw_groups(event, seed=1)
    make_schedule(event)
    court_1 = event.courts.get(name="1")
    delay_court(court_1, 40)
    play_groups(event)
    seed_knockout(event)
    groups_end = max(ends(event, event.matches.filter(stage=Match.Stage.GROUP)))
    for game in event.matches.exclude(stage=Match.Stage.GROUP):
        assert game.start_at >= groups_end, (game.match_number, local(game.start_at), local(groups_end))
    problems, _rows = reports.schedule_checks(event)
    assert problems == []
