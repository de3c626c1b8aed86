"""The clock after the groups (issue 29, items 1 and 2): every game after the groups is timed
after every game it depends on, whatever the day did to the courts."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament import reports
from tournament.clock import event_clock, event_midnight
from tournament.forms import EventForm
from tournament.management.commands.configure_division import form_data
from tournament.models import Match
from tournament.reports.sheets import moved_since_printed
from tournament.services.day_changes import add_late_team, close_court, delay_court, moved_lines
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule
from tournament.services.sheets import mark_sheets_printed

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


@pytest.fixture
def organiser(client, django_user_model):
    def login(event):
        user = django_user_model.objects.create_user("org")
        event.organisers.add(user)
        client.force_login(user)
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
        return client

    return login


def event_post(event, **changes):
    data = form_data(EventForm(instance=event))
    data.update(changes)
    return data


def in_lunch(event):
    clock = event_clock(event)
    day = event_midnight(event)
    starts = [int((m.start_at - day).total_seconds() // 60) for m in event.matches.all()]
    return [s for s in starts if clock.fit(s) != s]


def test_a_lunch_set_after_the_schedule_names_the_games_it_touches_and_moves_them_once_confirmed(organiser):
    """Issue 27: the lunch typed after the schedule exists used to say 「保存しました。」 and leave
    nine games inside it."""
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], rest_rule=True)
    factories.make_teams(division, 10)
    draw_groups(event, seed=1)
    make_schedule(event)
    record_confirmed_result(event.matches.order_by("start_at", "match_number").first(), WIN_A)
    mark_sheets_printed(event.matches.all())
    before = {m.pk: (m.court_id, m.start_at) for m in event.matches.all()}
    client = organiser(event)
    url = reverse("tournament:event_edit", args=[event.slug])
    lunch = {"lunch_start": "10:30", "lunch_end": "11:15"}
    preview = client.post(url, event_post(event, **lunch))
    assert preview.status_code == 200  # nothing saved yet: the games it touches are named
    effects = preview.context["effects"]
    assert effects.needs_confirmation and effects.moves
    text = preview.content.decode()
    assert "This change moves games already scheduled" in text
    assert "would be in the lunch break (10:30–11:15)" in text
    event.refresh_from_db()
    assert event.lunch_start is None
    assert {m.pk: (m.court_id, m.start_at) for m in event.matches.all()} == before
    done = client.post(url, event_post(event, **lunch, confirm_effects="1", effects_digest=effects.digest))
    assert done.status_code == 302 and "moved=" in done["Location"]
    event.refresh_from_db()
    assert event.lunch_start == datetime.time(10, 30)
    assert in_lunch(event) == []
    problems, _rows = reports.schedule_checks(event)
    assert problems == []
    moved = list(moved_since_printed(event.matches.all()))
    assert moved and all(before[m.pk] != (m.court_id, m.start_at) for m in moved)
    played = event.matches.exclude(status=Match.Status.SCHEDULED).get()
    assert (played.court_id, played.start_at) == before[played.pk]  # a played game never moves


def test_longer_games_after_the_schedule_push_the_games_after_them_and_a_knockout_after_its_groups(organiser):
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], qualifiers_per_group=2, after_groups="knockout")
    factories.make_teams(division, 8)
    draw_groups(event, seed=1)
    make_schedule(event)
    play_groups(event)
    seed_knockout(event)
    # As if the groups had not started: their games may move.
    Match.objects.filter(stage=Match.Stage.GROUP).update(status=Match.Status.SCHEDULED, actual_start=None)
    client = organiser(event)
    url = reverse("tournament:event_edit", args=[event.slug])
    preview = client.post(url, event_post(event, game_minutes=25))
    effects = preview.context["effects"]
    assert effects.moves
    client.post(url, event_post(event, game_minutes=25, confirm_effects="1", effects_digest=effects.digest))
    event.refresh_from_db()
    assert event.game_minutes == 25
    problems, _rows = reports.schedule_checks(event)
    assert problems == []
    groups_end = max(ends(event, event.matches.filter(stage=Match.Stage.GROUP)))
    semis = event.matches.filter(stage=Match.Stage.SEMIFINAL)
    assert all(m.start_at >= groups_end for m in semis)


def test_a_lunch_change_that_touches_no_game_saves_at_once(organiser):
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    make_schedule(event)
    client = organiser(event)
    url = reverse("tournament:event_edit", args=[event.slug])
    done = client.post(url, event_post(event, lunch_start="15:00", lunch_end="15:45"))
    assert done.status_code == 302
    event.refresh_from_db()
    assert event.lunch_start == datetime.time(15, 0)


def test_a_late_team_takes_the_earliest_free_court_not_the_time_after_every_game_under_way():
    """Issue 29 item 2: a game under way on another division's court used to push every game
    of a late team after it (after the group's own games), although courts were free earlier."""
    event = factories.make_event(courts=3)
    division = factories.make_division(event, name="低学年の部", courts=[1, 2], rest_rule=True)
    factories.make_teams(division, 8)
    other = factories.make_division(event, name="高学年の部", courts=[3])
    factories.make_teams(other, 5, prefix="高")
    draw_groups(event, seed=1)
    make_schedule(event)
    last_on_3 = event.matches.filter(division=other).order_by("-start_at").first()
    record_confirmed_result(last_on_3, WIN_A)  # entered early, out of order: it is under way
    late = factories.make_team(division, "遅刻かるた会")
    added = add_late_team(late, division.groups.order_by("order").first())
    assert len(added) == 4
    assert min(m.start_at for m in added) < last_on_3.start_at  # not after every game under way
    court_3 = [m for m in added if m.court.name == "3"]
    assert all(m.start_at >= ends(event, [last_on_3])[0] for m in court_3)  # never before it on its court
    problems, _rows = reports.schedule_checks(event)
    assert problems == []
    lines = moved_lines(added)
    assert len(lines) == 4 and all("→" in line for line in lines)


def seeded_day():
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], qualifiers_per_group=2, after_groups="knockout")
    factories.make_teams(division, 8)
    draw_groups(event, seed=1)
    make_schedule(event)
    play_groups(event)
    seed_knockout(event)
    return event


def test_a_delay_after_seeding_moves_the_final_after_its_semifinal_and_lists_its_sheet():
    event = seeded_day()
    mark_sheets_printed(event.matches.all())
    semis = list(event.matches.filter(stage=Match.Stage.SEMIFINAL).select_related("court"))
    final = event.matches.get(stage=Match.Stage.FINAL)
    late = max(semis, key=lambda m: m.court_id != final.court_id)  # a semifinal on the other court if any
    moved = delay_court(late.court, 60)
    late.refresh_from_db()
    final.refresh_from_db()
    assert final.start_at >= late.start_at + datetime.timedelta(minutes=event.game_minutes)
    assert final.pk in {m.pk for m in moved_since_printed(event.matches.all())}
    assert moved >= 2
    problems, _rows = reports.schedule_checks(event)
    assert problems == []


def test_closing_the_court_of_a_semifinal_moves_it_to_the_divisions_other_court():
    event = seeded_day()
    semi = event.matches.filter(stage=Match.Stage.SEMIFINAL).select_related("court").first()
    court = semi.court
    moved = close_court(court)
    semi.refresh_from_db()
    assert semi.pk in {m.pk for m in moved}
    assert semi.court_id != court.pk and semi.moved_from_id == court.pk
    assert not event.matches.filter(court=court, status=Match.Status.SCHEDULED).exists()
    problems, _rows = reports.schedule_checks(event)
    assert problems == []


def test_the_check_names_a_game_timed_before_a_game_that_decides_its_teams():
    event = seeded_day()
    semi = event.matches.filter(stage=Match.Stage.SEMIFINAL).first()
    first = event.matches.order_by("start_at").first()
    Match.objects.filter(pk=semi.pk).update(start_at=first.start_at)
    with translation.override("en"):
        problems, _rows = reports.schedule_checks(event)
    assert any(f"Game {semi.match_number} starts at" in p and "at the earliest" in p for p in problems)
