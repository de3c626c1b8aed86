"""``simulate_results`` never replaces a result a person entered (issue 27 item 3): it fills the
games without a result, says how many it left alone and which; ``--replace`` lists what it
replaces before doing so. Confirmed games are never touched."""

from io import StringIO

import pytest
from django.core.management import call_command

from judging import services
from judging.engine import rules
from tests import factories
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

TYPED = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def day(db):
    """Eight teams in two groups (12 games); a referee typed games 1–3, the desk confirmed
    game 4, and sent game 5 back to the court."""
    event = factories.make_event(courts=2, auto_confirm=False, slug="rehearsal")
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 8)
    draw_groups(event, seed=1)
    make_schedule(event)
    games = list(event.matches.order_by("match_number"))
    for game in games[:3]:
        services.submit_sheet(game, TYPED, base_version=0, court=game.court)
    sheet, _created = services.submit_sheet(games[3], TYPED, base_version=0, court=games[3].court)
    services.confirm_sheet(sheet, None)
    sheet, _created = services.submit_sheet(games[4], TYPED, base_version=0, court=games[4].court)
    services.reject_sheet(sheet, None, "数え直してください")
    return event, games


def test_games_with_a_persons_result_are_left_alone_and_counted(day):
    event, games = day
    typed = {g.pk: list(g.sheets.values_list("pk", "cards_a", "cards_b", "is_confirmed")) for g in games[:5]}
    out = run("simulate_results", "rehearsal", "--seed", "3")
    assert "7 group results entered." in out  # 12 games − 4 typed (one sent back) − 1 confirmed
    assert "4 game(s) with a result people entered left alone (replace them with --replace): " in out
    assert "No.1, No.2, No.3, No.5" in out
    for game in games[:5]:
        game.refresh_from_db()
        assert list(game.sheets.values_list("pk", "cards_a", "cards_b", "is_confirmed")) == typed[game.pk]
    assert Match.objects.get(pk=games[0].pk).status == Match.Status.SUBMITTED
    assert not event.matches.filter(status=Match.Status.SCHEDULED, sheets__isnull=True).exists()
    # run again: nothing to fill, the same four named again
    again = run("simulate_results", "rehearsal", "--seed", "3")
    assert "0 group results entered." in again and "No.1, No.2, No.3, No.5" in again


def test_replace_lists_what_it_replaces_then_replaces_only_those(day):
    event, games = day
    confirmed_before = list(games[3].sheets.values_list("pk", "cards_a", "cards_b"))
    out = run("simulate_results", "rehearsal", "--seed", "3", "--replace")
    head, _, rest = out.partition("group results entered")
    assert "replacing 4 result(s) people entered (--replace):" in head
    for number in (1, 2, 3, 5):
        assert f"  No.{number} " in head
    assert "  No.4 " not in head  # confirmed: never replaced
    assert "11 " in head.splitlines()[-1]
    assert "left alone" not in out
    assert not event.matches.exclude(status=Match.Status.CONFIRMED).exists()
    assert list(games[3].sheets.values_list("pk", "cards_a", "cards_b")) == confirmed_before
