"""Issue 15 acceptance fixes of the schedule and the clock (items 3, 4, 5, 6, 14, 15, 18):
the schedule check sees knockout and placement games, seeding and closing a court never use
a closed court and take the earliest free court, late entries spread over free courts,
negative delays explain the games they cannot move, the status column says 開始済み, and the
"not every team" note only where it is true."""

import datetime

import pytest
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation

from common.errors import UserError
from judging.engine import rules
from judging.services import mark_started, record_confirmed_result
from tests import factories
from tournament import reports
from tournament.models import Court, Match
from tournament.services.day_changes import add_late_team, close_court, delay_court
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db
WIN = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
LOSS = rules.SheetValues(26, 30, 0, rules.JokerHolder.B)


@pytest.fixture(autouse=True)
def english():
    """Messages are matched in English, the language of the source strings."""
    with translation.override("en"):
        yield


def day_with(courts=2, teams=8, division_courts=None, rest=False, **division_fields):
    event = factories.make_event(courts=courts)
    division = factories.make_division(
        event, name="小学生高学年の部", courts=division_courts or list(range(1, courts + 1)), rest_rule=rest,
        **division_fields,
    )  # fmt: skip
    factories.make_teams(division, teams)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division


def play_groups(event):
    for match in event.matches.filter(stage=Match.Stage.GROUP):
        record_confirmed_result(match, WIN if match.team_a_id < match.team_b_id else LOSS)  # no ties


def hhmm(at):
    return timezone.localtime(at).strftime("%H:%M")


def organiser_client(client, django_user_model, event):
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    return client


def seeded(rest=False):
    """Two groups of four on two courts, two qualifiers each: the semifinals have teams."""
    event, division = day_with(rest=rest, qualifiers_per_group=2)
    play_groups(event)
    seed_knockout(event)
    semi = event.matches.filter(stage=Match.Stage.SEMIFINAL).order_by("match_number").first()
    assert semi.team_a_id is not None
    return event, division, semi


# Item 3 ------------------------------------------------------------------------------------


def test_the_check_finds_a_team_in_a_knockout_game_and_a_group_game_at_once():
    event, _division, semi = seeded()
    assert reports.schedule_checks(event)[0] == []
    group_game = event.matches.filter(stage=Match.Stage.GROUP, team_a_id=semi.team_a_id).first()
    Match.objects.filter(pk=semi.pk).update(start_at=group_game.start_at + datetime.timedelta(minutes=5))
    problems, rows = reports.schedule_checks(event)
    assert any(f"game {semi.match_number}" in p and "at once" in p for p in problems), problems
    assert any(row["games"] == 4 for row in rows)  # 3 group games and the semifinal


def test_the_check_finds_a_group_game_then_a_knockout_game_in_a_row_under_the_rest_rule():
    event, _division, semi = seeded(rest=True)
    team = semi.team_a_id
    games = event.matches.filter(stage=Match.Stage.GROUP).filter(Q(team_a_id=team) | Q(team_b_id=team))
    last = games.order_by("-start_at").first()
    right_after = last.start_at + datetime.timedelta(minutes=event.game_minutes + event.changeover_minutes)
    Match.objects.filter(pk=semi.pk).update(start_at=right_after)
    problems, _rows = reports.schedule_checks(event)
    assert any(f"game {semi.match_number}" in p and "rest rule" in p for p in problems), problems


def test_the_check_finds_a_game_left_on_a_closed_court_but_not_a_started_one():
    event, _division, semi = seeded()
    Court.objects.filter(pk=semi.court_id).update(closed=True)
    problems, _rows = reports.schedule_checks(event)
    assert any(f"Game {semi.match_number} is on" in p and "closed" in p for p in problems), problems
    mark_started(semi)
    problems, _rows = reports.schedule_checks(event)
    assert not any(f"Game {semi.match_number} is on" in p for p in problems)


def test_the_checks_page_shows_a_knockout_clash_as_a_problem(client, django_user_model):
    event, _division, semi = seeded()
    other = event.matches.filter(stage=Match.Stage.SEMIFINAL).exclude(pk=semi.pk).get()
    Match.objects.filter(pk=other.pk).update(team_a_id=semi.team_a_id, start_at=semi.start_at)
    organiser_client(client, django_user_model, event)
    page = client.get(reverse("tournament:schedule_checks", args=[event.slug]))
    text = page.content.decode()
    assert page.context["problems"] and "✘" in text and "✔ " not in text


# Item 4 ------------------------------------------------------------------------------------


def test_seeding_never_places_a_game_on_a_closed_court():
    event, division = day_with(courts=3, teams=8, qualifiers_per_group=2)
    court = event.courts.get(name="1")  # the first court the seeding would use
    close_court(court)
    play_groups(event)
    seed_knockout(event)
    after = event.matches.exclude(stage=Match.Stage.GROUP)
    assert after.exists() and not after.filter(court=court).exists()


def test_seeding_uses_the_events_open_courts_when_the_divisions_are_all_closed_or_refuses():
    event, division = day_with(courts=2, teams=8, division_courts=[1], qualifiers_per_group=2)
    close_court(event.courts.get(name="1"))
    play_groups(event)
    seed_knockout(event)
    after = event.matches.exclude(stage=Match.Stage.GROUP)
    assert after.exists() and set(after.values_list("court__name", flat=True)) == {"2"}
    after.delete()
    event.courts.update(closed=True)
    with pytest.raises(UserError) as refused:
        seed_knockout(event)
    assert "every court is closed" in str(refused.value) and division.name in str(refused.value)


# Item 15 -----------------------------------------------------------------------------------


def test_the_schedule_page_says_started_for_a_started_game(client, django_user_model):
    event, _division = day_with()
    organiser_client(client, django_user_model, event)
    url = reverse("tournament:schedule", args=[event.slug])
    with translation.override("ja"):
        assert "開始済み" not in client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        mark_started(event.matches.order_by("match_number").first())
        assert "開始済み" in client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()


# Item 18 -----------------------------------------------------------------------------------


def test_the_not_every_team_note_only_when_a_team_does_not_play_its_whole_group(client, django_user_model):
    everyone, _division = day_with(teams=8, games_per_team=3)  # groups of 4: 3 games is everyone
    assert reports.partial_divisions(everyone) == []
    organiser_client(client, django_user_model, everyone)
    page = client.get(reverse("tournament:schedule", args=[everyone.slug]))
    assert "not every team" not in page.content.decode() and "全員とは" not in page.content.decode()
    some, division = day_with(teams=16, games_per_team=3)  # groups of 8
    assert reports.partial_divisions(some) == [division]


# Items 5 and 6 -----------------------------------------------------------------------------


def starts_of(matches):
    return [(m.match_number, m.court.name, hhmm(m.start_at)) for m in matches]


def test_closing_a_court_moves_its_games_to_a_free_court_of_the_event_when_it_is_earlier():
    """rest27: the division's other court is busy all day, courts 3 and 4 are free: the closed
    court's games keep their planned times there instead of queueing after the busy court."""
    event, _division = day_with(courts=4, teams=8, division_courts=[1, 2], rest=True)
    court = event.courts.get(name="2")
    planned = {m.pk: m.start_at for m in event.matches.filter(court=court)}
    moved = close_court(court)
    assert len(moved) == len(planned)
    for match in Match.objects.filter(pk__in=planned).select_related("court"):
        assert match.court.name in ("3", "4") and match.start_at == planned[match.pk], starts_of([match])
    assert reports.schedule_checks(event)[0] == []


def test_closing_a_court_prefers_the_divisions_court_when_it_is_as_early():
    event, _division = day_with(courts=4, teams=8, division_courts=[1, 2, 3])  # court 3: the division's, free
    court = event.courts.get(name="2")
    planned = {m.pk: m.start_at for m in event.matches.filter(court=court)}
    close_court(court)
    moved = Match.objects.filter(pk__in=planned).select_related("court")
    assert {m.court.name for m in moved} == {"3"}
    assert all(m.start_at == planned[m.pk] for m in moved)


def test_a_late_team_of_a_rest_rule_division_plays_as_soon_as_the_rest_rule_allows_on_free_courts():
    event, division = day_with(courts=3, teams=4, division_courts=[1], rest=True)
    late = factories.make_team(division, "遅刻子ども会")
    made = add_late_team(late, division.groups.get())
    assert {m.court.name for m in made} >= {"2"}  # not all queued on the group's court
    length = event.game_minutes
    mine = sorted(made, key=lambda m: m.start_at)
    waits = [(b.start_at - a.start_at).total_seconds() // 60 - length for a, b in zip(mine, mine[1:])]
    assert all(wait >= length for wait in waits)  # the rest rule
    # The group plays 09:30 and 09:50 on court 1, then every team rests a game: 10:00 is the
    # first start a late game can have; then each as soon as both teams have rested.
    assert [hhmm(m.start_at) for m in mine] == ["10:00", "11:00", "12:00", "12:30"]
    assert reports.schedule_checks(event)[0] == []


# Item 14 -----------------------------------------------------------------------------------


def lunch_court():
    event = factories.make_event(
        courts=1, start_time=datetime.time(9, 30), lunch_start=datetime.time(12, 0), lunch_end=datetime.time(12, 45)
    )
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 4)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, event.courts.get()


def test_a_negative_delay_names_the_games_it_could_not_move_and_why():
    event, court = lunch_court()
    delay_court(court, 100)
    games = list(Match.objects.filter(court=court).order_by("start_at"))
    assert [hhmm(m.start_at) for m in games] == ["11:10", "11:30", "12:45", "13:05", "13:25", "13:45"]
    moved = delay_court(court, -55)
    assert moved == 2 and len(moved.held) == 4
    third, fifth, sixth = (games[i].match_number for i in (2, 4, 5))
    assert moved.held[0] == f"Game {third} starts at 12:45, not 11:50: it would be in the lunch break (12:00–12:45)."
    assert moved.held[3] == f"Game {sixth} starts at 13:45, not 12:50: it starts after game {fifth} ends."


def test_the_schedule_page_shows_why_games_did_not_move(client, django_user_model):
    event, court = lunch_court()
    delay_court(court, 100)
    organiser_client(client, django_user_model, event)
    page = client.post(
        reverse("tournament:court_delay", args=[event.slug]), {"court": court.pk, "minutes": "-55"},
        follow=True,
    )  # fmt: skip
    assert "昼休み（12:00–12:45）" in page.content.decode()


def test_closing_a_court_never_reuses_the_slot_number_of_a_void_game():
    """The re-check's 500: a withdrawal voids games on court 3 (their time is free, their
    (court, slot) still taken by the unique index); closing court 2 moves its games there."""
    event, division = day_with(courts=4, teams=8, division_courts=[1, 2], rest=False)
    court3 = event.courts.get(name="3")
    leaving = division.teams.order_by("entry_number").first()
    voided = list(event.matches.filter(Q(team_a=leaving) | Q(team_b=leaving))[:2])
    for slot, match in enumerate(voided):  # the void games sit on court 3, slots 0 and 1
        Match.objects.filter(pk=match.pk).update(court=court3, slot=slot, status=Match.Status.VOID)
    court = event.courts.get(name="2")
    planned = set(event.matches.filter(court=court).exclude(status=Match.Status.VOID).values_list("pk", flat=True))
    close_court(court)  # no IntegrityError
    moved = Match.objects.filter(pk__in=planned)
    assert not moved.filter(court=court).exists()
    taken = list(Match.objects.filter(court=court3).values_list("slot", flat=True))
    assert len(taken) == len(set(taken))
