"""The team page reads one team's share of the division (issue 31 item 1): its group's
standings and its division's open games counted by the database. Each answers what the
division-wide read answers, with a withdrawal that annuls games and without."""

import pytest

from awards.reports import _open_games
from tests.tournament.test_stages_services import day, members, win
from tournament.models import Match, Team
from tournament.reports import is_annulled, match_queryset
from tournament.reports.standings import division_standings, standing_lines


@pytest.fixture
def three_groups(db):
    """Two divisions: three groups of four (two through each, best runner-up), and one group
    of three whose withdrawn games are annulled; a few results in each."""
    event, (league, small) = day(
        [
            ("小学生の部", [1, 2, 3], 12, {"qualifiers_per_group": 2}),
            ("中学生の部", [4], 3, {"qualifiers_per_group": 1, "withdrawal": "annul"}),
        ]
    )
    for match in Match.objects.filter(division=league, stage=Match.Stage.GROUP).order_by("match_number")[:7]:
        a, b = match.team_a, match.team_b
        win(a, b) if a.entry_number < b.entry_number else win(b, a)  # by entry: no tie to settle
    return event, league, small


def _rows(table):
    return [
        (line.team.pk, line.rank_text, line.wins, line.card_diff, line.games_left) for line in standing_lines(table)
    ]


def test_one_groups_standings_equal_that_group_in_the_whole_division(three_groups):
    _event, league, _small = three_groups
    whole = {table.group.pk: table for table in division_standings(league)}
    for group in league.groups.all():
        (table,) = division_standings(league, groups=[group])
        assert table.group == group
        assert _rows(table) == _rows(whole[group.pk])
        assert (table.complete, table.settled, table.pending) == (
            whole[group.pk].complete,
            whole[group.pk].settled,
            whole[group.pk].pending,
        )


def _open_by_building_every_game(event):
    counts = {}
    for match in match_queryset(event).not_done():
        if not is_annulled(match):
            counts[match.division_id] = counts.get(match.division_id, 0) + 1
    return counts


def test_open_games_counted_by_the_database_equal_the_games_built_one_by_one(three_groups):
    event, league, small = three_groups
    assert _open_games(event) == _open_by_building_every_game(event)
    assert _open_games(event)[league.pk] == Match.objects.filter(division=league).not_done().count()
    # A team of the "annul" division withdrew during its groups: its open games no longer count.
    gone = members(small.groups.get())[0]
    Team.objects.filter(pk=gone.pk).update(withdrawn=True)
    expected = _open_by_building_every_game(event)
    assert expected.get(small.pk, 0) < Match.objects.filter(division=small).not_done().count()
    assert _open_games(event) == expected
