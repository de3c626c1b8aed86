"""Small played events for the series tests: one division 「小学生の部」 of six teams in two
groups, two qualifiers per group, semifinals and a final without a third-place game (joint
third). The stronger team (earlier in the list) wins every game."""

import datetime

from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_divisions
from tournament.services.schedule import make_schedule


def _win(match, strength):
    a_wins = strength[match.team_a.name] < strength[match.team_b.name]
    cards = (30, 26) if a_wins else (26, 30)
    joker = rules.JokerHolder.A if a_wins else rules.JokerHolder.B
    submit_result(match, rules.SheetValues(cards[0], cards[1], 0, joker))


def _play(event, stage_filter, strength):
    while True:
        open_games = [
            m
            for m in Match.objects.filter(event=event, status=Match.Status.SCHEDULED, **stage_filter)
            .select_related("team_a", "team_b")
            .order_by("round", "match_number")
            if m.team_a_id and m.team_b_id
        ]
        if not open_games:
            return
        for match in open_games:
            _win(match, strength)


def play_event(slug, date, teams, *, name="日立市かるた大会", edition=None, division="小学生の部"):
    """An event with ``teams`` ((name, affiliation), strongest first) played to its final."""
    event = factories.make_event(courts=2, slug=slug, date=date, name=name, edition=edition)
    d = factories.make_division(event, name=division, courts=[1, 2], qualifiers_per_group=2, third_place_game=False)
    for team, club in teams:
        factories.make_team(d, team, affiliation=club)
    draw_groups(event, seed=1)
    make_schedule(event)
    strength = {team: i for i, (team, _club) in enumerate(teams)}
    _play(event, {"stage": Match.Stage.GROUP}, strength)
    seed_divisions(event)
    _play(event, {}, strength)
    event.refresh_from_db()
    return event


NORTH = [
    ("中小路A", "日立市立中小路小学校"),
    ("大みかA", "大みか子ども会"),
    ("中小路B", "中小路小"),
    ("助川A", "助川小"),
    ("宮田A", "宮田子ども会"),
    ("会瀬A", "会瀬小"),
]
FINAL = [
    ("大みかA", "大みか子ども会"),
    ("助川A", "助川小"),
    ("中小路A", "日立市立中小路小学校"),
    ("中小路B", "中小路小"),
    ("宮田A", "宮田子ども会"),
    ("会瀬A", "会瀬小"),
]


def two_events():
    """The north qualifier (3rd edition) and the city final (12th) of 2027, played."""
    north = play_event("north", datetime.date(2027, 1, 10), NORTH, name="北部地区予選", edition=3)
    final = play_event("final", datetime.date(2027, 2, 14), FINAL, name="日立市かるた大会", edition=12)
    return north, final
