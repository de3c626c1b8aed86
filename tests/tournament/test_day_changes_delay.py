"""A delayed court is unavailable until its new start: closed-court moves, late teams and
clock changes never place a game inside the delay, and the checks flag one that is."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone, translation

from tests import factories
from tournament import reports
from tournament.models import Match
from tournament.services.day_changes import add_late_team, close_court, delay_court
from tournament.services.draw import draw_groups
from tournament.services.schedule import clear_schedule, make_schedule

pytestmark = pytest.mark.django_db


def day(courts=3, teams=12):
    event = factories.make_event(courts=courts)
    division = factories.make_division(event, courts=list(range(1, courts + 1)), layout="one_group_per_court")
    factories.make_teams(division, teams)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division


def minutes(dt):
    local = timezone.localtime(dt)
    return local.hour * 60 + local.minute


def test_closing_a_court_puts_no_game_inside_another_courts_delay():
    event, _division = day()
    delayed = event.courts.get(name="2")
    first = minutes(event.matches.filter(court=delayed).order_by("start_at").first().start_at)
    delay_court(delayed, 40)
    close_court(event.courts.get(name="3"))
    on_delayed = [minutes(m.start_at) for m in event.matches.filter(court=delayed)]
    assert min(on_delayed) >= first + 40
    assert reports.schedule_checks(event)[0] == []


def test_a_late_team_does_not_play_inside_a_courts_delay():
    event, division = day(courts=2, teams=6)
    for court in event.courts.all():
        delay_court(court, 30)
    until = {c.pk: c.delayed_until for c in event.courts.all()}
    team = factories.make_team(division, "遅参チーム")
    created = add_late_team(team, division.groups.order_by("pk").first())
    assert created
    for m in created:
        t = until[m.court_id]
        assert minutes(m.start_at) >= t.hour * 60 + t.minute


def test_a_negative_delay_shortens_the_courts_delay():
    event, _division = day(courts=2, teams=8)
    court = event.courts.get(name="1")
    delay_court(court, 30)
    court.refresh_from_db()
    assert court.delayed_until == datetime.time(10, 0)
    delay_court(court, -30)  # back: refused before the fix (the court "opened" at 10:00)
    court.refresh_from_db()
    assert court.delayed_until is None


def test_the_checks_flag_a_game_inside_a_courts_delay():
    event, _division = day(courts=2, teams=8)
    court = event.courts.get(name="1")
    delay_court(court, 30)
    game = event.matches.filter(court=event.courts.get(name="2")).order_by("start_at").first()
    Match.objects.filter(court=court).update(slot=None)
    Match.objects.filter(pk=game.pk).update(court=court, slot=99)
    with translation.override("en"):
        problems, _rows = reports.schedule_checks(event)
    assert any(str(game.match_number) in p and "delay" in p for p in problems), problems


def test_the_games_after_the_groups_wait_for_a_delayed_court():
    event = factories.make_event(courts=2, slug="delayed-ko")
    division = factories.make_division(event, courts=[1, 2], after_groups="knockout")
    factories.make_teams(division, 8)
    draw_groups(event, seed=1)
    make_schedule(event)
    call_command("simulate_results", "delayed-ko", "--seed", "3", stdout=StringIO())
    last = max(minutes(m.start_at) for m in event.matches.all())
    court = event.courts.get(name="1")
    court.delayed_until = datetime.time((last + 120) // 60, (last + 120) % 60)
    court.save(update_fields=["delayed_until"])
    call_command("seed_knockout", "delayed-ko", stdout=StringIO())
    games = list(event.matches.exclude(stage=Match.Stage.GROUP))
    assert games
    for m in games:
        if m.court_id == court.pk:
            assert minutes(m.start_at) >= last + 120


def test_clearing_the_schedule_clears_the_courts_delays():
    event, _division = day()
    delayed = event.courts.get(name="2")
    first = minutes(event.matches.filter(court=delayed).order_by("start_at").first().start_at)
    delay_court(delayed, 40)
    delayed.refresh_from_db()
    assert delayed.delayed_until is not None
    clear_schedule(event)
    delayed.refresh_from_db()
    assert delayed.delayed_until is None
    make_schedule(event)
    assert minutes(event.matches.filter(court=delayed).order_by("start_at").first().start_at) == first
