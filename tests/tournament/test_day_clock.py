"""The clock keeps its promises (issue 15, item 8): delays never move a game before the game
before it, before the court opens or into lunch; started games never move; delays, closed
courts and late entries keep a division's rest rule or name the teams before saving;
knockout games are placed after lunch and after the games before them."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from common.errors import UserError
from judging.engine import rules
from judging.services import mark_started, record_confirmed_result
from tests import factories
from tournament import reports
from tournament.models import Match
from tournament.services.day_changes import add_late_team, close_court, delay_court
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule
from tournament.services.timeline import BackToBack, Timeline

pytestmark = pytest.mark.django_db
WIN = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
LOSS = rules.SheetValues(26, 30, 0, rules.JokerHolder.B)


def day_with(courts=2, teams=8, layout="one_group_per_court", rest=False, **event_fields):
    event = factories.make_event(courts=courts, **event_fields)
    division = factories.make_division(
        event, name="小学生低学年の部", courts=list(range(1, courts + 1)), layout=layout, rest_rule=rest
    )
    factories.make_teams(division, teams)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division


def hhmm(at):
    return timezone.localtime(at).strftime("%H:%M")


def starts(court):
    return [hhmm(m.start_at) for m in Match.objects.filter(court=court).order_by("slot")]


def in_lunch(match, event):
    start = timezone.localtime(match.start_at).time()
    end = timezone.localtime(match.start_at + datetime.timedelta(minutes=event.game_minutes)).time()
    return start < event.lunch_end and end > event.lunch_start


def test_a_negative_delay_before_the_court_opens_is_refused_naming_the_game_and_moves_nothing():
    event, _division = day_with()
    court = event.courts.get(name="1")
    before = starts(court)
    first = Match.objects.filter(court=court).order_by("slot").first()
    with pytest.raises(UserError) as refused:
        delay_court(court, -90)
    assert f"第{first.match_number}試合" in str(refused.value) and "09:30" in str(refused.value)
    assert starts(court) == before


def test_a_negative_delay_before_the_end_of_the_started_game_before_it_is_refused():
    event, _division = day_with()
    court = event.courts.get(name="1")
    first, second = Match.objects.filter(court=court).order_by("slot")[:2]
    mark_started(first)
    delay_court(court, 20)  # the games after the started one: a 20-minute gap to take back
    before = starts(court)
    with pytest.raises(UserError) as refused:
        delay_court(court, -40)
    text = str(refused.value)
    assert f"第{second.match_number}試合" in text and f"第{first.match_number}試合" in text
    assert starts(court) == before
    assert delay_court(court, -20) == len(before) - 1  # back into the gap: allowed
    assert Match.objects.get(pk=first.pk).start_at == first.start_at


def test_a_started_game_never_moves_with_a_delay():
    event, _division = day_with()
    court = event.courts.get(name="1")
    first = Match.objects.filter(court=court).order_by("slot").first()
    mark_started(first)
    delay_court(court, 15)
    first_after = Match.objects.get(pk=first.pk)
    assert first_after.start_at == first.start_at and first_after.changed_at is None


def test_a_delay_never_moves_a_game_into_lunch_and_the_games_after_keep_order_and_changeover():
    event, _division = day_with(
        courts=1, teams=4, start_time=datetime.time(10, 30), lunch_start=datetime.time(11, 30),
        lunch_end=datetime.time(12, 30),
    )  # fmt: skip
    court = event.courts.get()
    # 15-minute games, 5-minute changeover: 10:30, 10:50, 11:10 (ends 11:25), then 12:30 …
    assert starts(court)[:4] == ["10:30", "10:50", "11:10", "12:30"]
    delay_court(court, 10)
    after = list(Match.objects.filter(court=court).order_by("slot"))
    assert [hhmm(m.start_at) for m in after][:5] == ["10:40", "11:00", "12:30", "12:50", "13:10"]
    assert not any(in_lunch(m, event) for m in after)
    gaps = [(b.start_at - a.start_at).total_seconds() / 60 for a, b in zip(after, after[1:])]
    assert min(gaps) >= event.game_minutes + event.changeover_minutes


def rest_day():
    """A rest-rule division on two shared courts: no team plays twice in a row."""
    return day_with(courts=2, teams=8, layout="shared", rest=True)


def test_a_delay_that_makes_teams_play_twice_in_a_row_names_them_and_saves_only_when_confirmed():
    event, _division = rest_day()
    court = event.courts.get(name="1")
    before = starts(court)
    with pytest.raises(BackToBack) as refused:
        delay_court(court, 20)  # one slot: a team's game now ends just before its next one
    assert refused.value.lines and all("（小学生低学年の部・" in line for line in refused.value.lines)
    assert all("に続けて第" in line for line in refused.value.lines)
    assert starts(court) == before
    assert delay_court(court, 20, allow_back_to_back=True) == len(before)
    assert starts(court) != before


def test_closing_a_court_keeps_the_rest_rule_and_names_the_started_game_that_stays():
    event, _division = rest_day()
    court = event.courts.get(name="2")
    first, second = Match.objects.filter(court=court).order_by("slot")[:2]
    record_confirmed_result(first, WIN)
    mark_started(second)
    moved = close_court(court)
    assert [m.pk for m in moved.stayed] == [second.pk]
    assert Match.objects.filter(court=court).count() == 2  # the played and the started game
    assert all(m.moved_from_id == court.pk for m in Match.objects.filter(pk__in=[m.pk for m in moved]))
    assert Timeline(event).too_close() == set()


def test_a_late_entry_in_a_rest_rule_division_never_plays_twice_in_a_row():
    event, division = day_with(courts=2, teams=7, layout="shared", rest=True)
    group = min(division.groups.all(), key=lambda g: g.teams.count())
    late = factories.make_team(division, "遅刻かるた会")
    added = add_late_team(late, group)
    assert len(added) == group.teams.count() - 1
    assert Timeline(event).too_close() == set()


def test_a_late_entry_is_never_placed_in_lunch():
    event, division = day_with(
        courts=1, teams=3, start_time=datetime.time(10, 30), lunch_start=datetime.time(11, 30),
        lunch_end=datetime.time(12, 30),
    )  # fmt: skip
    late = factories.make_team(division, "遅刻かるた会")
    added = add_late_team(late, division.groups.first())
    assert added and not any(in_lunch(m, event) for m in added)


def test_knockout_games_start_after_lunch_and_after_the_delayed_games_before_them():
    event, division = day_with(
        courts=2, teams=6, start_time=datetime.time(10, 0), lunch_start=datetime.time(11, 0),
        lunch_end=datetime.time(12, 0),
    )  # fmt: skip
    for court in event.courts.all():
        delay_court(court, 25)
    for match in event.matches.all():
        record_confirmed_result(match, WIN if match.team_a_id < match.team_b_id else LOSS)  # no ties
    seed_knockout(event)
    last_group_end = max(m.start_at for m in event.matches.filter(stage=Match.Stage.GROUP)) + datetime.timedelta(
        minutes=event.game_minutes
    )
    knockout = list(event.matches.exclude(stage=Match.Stage.GROUP))
    assert knockout
    for match in knockout:
        assert not in_lunch(match, event)
        assert match.start_at >= last_group_end


def organiser_client(client, django_user_model, event):
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    return client


def test_the_schedule_page_asks_before_a_delay_that_breaks_the_rest_rule_and_saves_when_confirmed(
    client, django_user_model
):
    event, _division = rest_day()
    organiser_client(client, django_user_model, event)
    court = event.courts.get(name="1")
    before = starts(court)
    url = reverse("tournament:court_delay", args=[event.slug])
    page = client.post(url, {"court": court.pk, "minutes": "20"})
    assert page.status_code == 200 and page.context["lines"]
    text = page.content.decode()
    assert "続けて試合をするチームがあります" in text and "小学生低学年の部・" in text
    assert 'name="allow_back_to_back" value="1"' in text and 'name="minutes" value="20"' in text
    assert f'action="{url}"' in text  # "save anyway" sends the same step again
    assert f'href="{reverse("tournament:schedule", args=[event.slug])}"' in text  # "cancel": the page
    assert starts(court) == before
    saved = client.post(url, {"court": court.pk, "minutes": "20", "allow_back_to_back": "1"})
    assert saved.status_code == 302 and starts(court) != before


def test_the_schedule_page_refuses_a_delay_before_the_court_opens_with_the_game(client, django_user_model):
    event, _division = day_with()
    organiser_client(client, django_user_model, event)
    court = event.courts.get(name="1")
    page = client.post(
        reverse("tournament:court_delay", args=[event.slug]), {"court": court.pk, "minutes": "-90"},
        follow=True,
    )  # fmt: skip
    assert "開始時刻（09:30）より前になります" in page.content.decode()


def test_closing_a_court_names_the_started_game_that_stays(client, django_user_model):
    event, _division = day_with()
    organiser_client(client, django_user_model, event)
    court = event.courts.get(name="2")
    started = Match.objects.filter(court=court).order_by("slot").first()
    mark_started(started)
    page = client.post(reverse("tournament:court_close", args=[event.slug]), {"court": court.pk}, follow=True)
    assert f"開始済みの第{started.match_number}試合は、結果が出るまで第2コートに残ります" in page.content.decode()


def test_the_schedule_check_counts_games_in_a_row_of_a_rest_rule_division_as_problems(client, django_user_model):
    event, _division = rest_day()
    organiser_client(client, django_user_model, event)
    url = reverse("tournament:schedule_checks", args=[event.slug])
    clean = client.get(url)
    assert (
        clean.context["problems"] == []
        and "連戦なしの部門で続けて試合をするチームはありません" in clean.content.decode()
    )
    assert all("（小学生低学年の部・" in row["team"] for row in clean.context["rows"])
    delay_court(event.courts.get(name="1"), 20, allow_back_to_back=True)
    page = client.get(url)
    problems = page.context["problems"]
    assert problems and all("この部門は連戦なしの設定です" in p and "（小学生低学年の部・" in p for p in problems)
    text = page.content.decode()
    assert "✘" in text and "✔" not in text
    flagged = [row for row in page.context["rows"] if row["problem"]]
    assert flagged and all(row["in_a_row"] >= 2 for row in flagged)


def test_the_schedule_check_does_not_flag_games_in_a_row_without_the_rest_rule():
    event, _division = day_with(courts=1, teams=4, layout="shared")
    problems, rows = reports.schedule_checks(event)
    assert problems == [] and any(row["in_a_row"] >= 2 for row in rows)
    assert not any(row["problem"] for row in rows)


def test_the_layout_summary_says_what_both_numbers_are(client, django_user_model):
    event, _division = day_with()
    organiser_client(client, django_user_model, event)
    text = client.get(reverse("tournament:schedule", args=[event.slug])).content.decode()
    assert "使う時間帯：" in text and "どう組んでも最低" in text


def test_the_groups_page_asks_before_a_late_entry_that_cannot_keep_the_rest_rule(
    client, django_user_model, monkeypatch
):
    event, division = day_with(courts=2, teams=7, layout="shared", rest=True)
    organiser_client(client, django_user_model, event)
    real = add_late_team

    def crowded(team, group, *, allow_back_to_back=False):  # a day with no room to keep the rest
        if not allow_back_to_back:
            raise BackToBack([f"{team.name}（小学生低学年の部・Aリーグ）：第3試合（10:10）に続けて第10試合（10:30）"])
        return real(team, group, allow_back_to_back=True)

    monkeypatch.setattr("tournament.views.draw_schedule.add_late_team", crowded)
    group = min(division.groups.all(), key=lambda g: g.teams.count())
    late = factories.make_team(division, "遅刻かるた会")
    url = reverse("tournament:late_team", args=[event.slug])
    count = event.matches.count()
    page = client.post(url, {"team": late.pk, "group": group.pk})
    text = page.content.decode()
    assert page.status_code == 200 and "遅刻かるた会（小学生低学年の部・Aリーグ）" in text
    assert f'name="team" value="{late.pk}"' in text and 'name="allow_back_to_back" value="1"' in text
    late.refresh_from_db()
    assert late.group is None and event.matches.count() == count  # nothing saved yet
    assert f'action="{url}"' in text and f'href="{reverse("tournament:groups", args=[event.slug])}"' in text
    saved = client.post(url, {"team": late.pk, "group": group.pk, "allow_back_to_back": "1"})
    assert saved.status_code == 302
    late.refresh_from_db()
    assert late.group == group and event.matches.count() == count + group.teams.count() - 1
