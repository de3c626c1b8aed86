"""Scheduling across courts and the clock, as the organiser uses it on the day."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from common.errors import UserError
from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament import reports
from tournament.engine import scheduling
from tournament.models import Court, Match
from tournament.services.day_changes import add_late_team, close_court, delay_court
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db


def day_with(layout="one_group_per_court", courts=2, teams=8, groups_courts=None, rest=False, **event_fields):
    event = factories.make_event(courts=courts, **event_fields)
    division = factories.make_division(
        event, courts=groups_courts or list(range(1, courts + 1)), layout=layout, rest_rule=rest
    )
    factories.make_teams(division, teams)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division


def local(dt):
    return timezone.localtime(dt).strftime("%H:%M")


def test_the_shared_layout_finishes_at_the_lower_bound():
    event, division = day_with(layout="shared", courts=3, teams=12, groups_courts=[1, 2, 3])
    # Three groups of four on three shared courts: 18 games, 3 rounds a group → 6 slots.
    sizes = [g.teams.count() for g in division.groups.all()]
    slots = {m.slot for m in event.matches.all()}
    assert len(slots) == scheduling.lower_bound(sizes, 3)
    problems, _rows = reports.schedule_checks(event)
    assert problems == []


def test_the_rest_rule_keeps_every_team_from_playing_twice_in_a_row():
    event, division = day_with(layout="shared", courts=2, teams=8, rest=True)
    for team in division.teams.all():
        slots = sorted(m.slot for m in event.matches.all() if team.pk in (m.team_a_id, m.team_b_id))
        assert all(b - a >= 2 for a, b in zip(slots, slots[1:]))


def test_the_lunch_break_pushes_matches_after_it():
    event, _division = day_with(
        courts=1,
        teams=4,
        start_time=datetime.time(11, 0),
        lunch_start=datetime.time(11, 30),
        lunch_end=datetime.time(12, 30),
    )
    starts = [local(m.start_at) for m in event.matches.order_by("slot")]
    # 15-minute games + 5-minute changeover: 11:00, 11:20 would end 11:35 in lunch → 12:30.
    assert starts[:3] == ["11:00", "12:30", "12:50"]


def test_a_court_that_starts_late_starts_its_matches_late():
    event = factories.make_event(courts=2)
    Court.objects.filter(event=event, name="2").update(start_time=datetime.time(10, 0))
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 8)
    draw_groups(event, seed=1)
    make_schedule(event)
    first = {m.court.name: local(m.start_at) for m in event.matches.filter(slot=0).select_related("court")}
    assert first == {"1": "09:30", "2": "10:00"}


def test_a_delay_moves_only_the_courts_matches_that_have_not_started():
    event, _division = day_with(courts=2, teams=8)
    court = event.courts.get(name="1")
    matches = list(event.matches.filter(court=court).order_by("slot"))
    record_confirmed_result(matches[0], rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    before = {m.pk: m.start_at for m in event.matches.all()}
    moved = delay_court(court, 15)
    assert moved == len(matches) - 1
    for m in event.matches.all():
        expected = (
            before[m.pk] + datetime.timedelta(minutes=15)
            if (m.court_id == court.pk and m.pk != matches[0].pk)
            else before[m.pk]
        )
        assert m.start_at == expected


def test_closing_a_court_moves_its_unplayed_matches_without_double_booking_and_keeps_numbers():
    event, _division = day_with(courts=3, teams=12, groups_courts=[1, 2, 3])
    court = event.courts.get(name="2")
    played = event.matches.filter(court=court).order_by("slot").first()
    record_confirmed_result(played, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    numbers = {m.pk: m.match_number for m in event.matches.all()}
    moved = close_court(court)
    assert len(moved) == 5
    assert event.matches.filter(court=court).count() == 1  # the played game stays
    assert {m.pk: m.match_number for m in event.matches.all()} == numbers
    problems, _rows = reports.schedule_checks(event)
    assert problems == []
    slots = [(m.court_id, m.slot) for m in event.matches.all()]
    assert len(slots) == len(set(slots))


def a_team_in_two_places(client, django_user_model):
    """Two courts; a team of court 2's first game also plays court 1's, 5 minutes later.
    The organiser is logged in. Returns the event and the two games."""
    event, _division = day_with(courts=2, teams=8)
    a, b = event.matches.filter(slot=0).order_by("court__order")[:2]
    b.team_a_id = a.team_a_id
    b.start_at = a.start_at + datetime.timedelta(minutes=5)
    b.save()
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    return event, a, b


def test_the_checks_page_catches_a_team_in_two_places(client, django_user_model):
    event, a, _b = a_team_in_two_places(client, django_user_model)
    page = client.get(reverse("tournament:schedule_checks", args=[event.slug]))
    assert page.status_code == 200
    assert page.context["problems"]
    assert a.team_a.name in " ".join(page.context["problems"])


def test_the_checks_name_matches_by_number_and_times_by_the_clock_in_japanese(client, django_user_model):
    event, a, b = a_team_in_two_places(client, django_user_model)
    with translation.override("ja"):
        page = client.get(reverse("tournament:schedule_checks", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="ja")
    first, second = sorted([a, b], key=lambda m: m.start_at)
    where = f"{a.division.name}・予選{a.team_a.group.name}リーグ"
    expected = (
        f"{a.team_a.name}（{where}）が第{first.match_number}試合（{local(first.start_at)}–{local(first.start_at + datetime.timedelta(minutes=event.game_minutes))}）"
        f"と第{second.match_number}試合"
    )
    assert any(expected in p for p in page.context["problems"]), page.context["problems"]


def test_opening_a_match_does_not_start_it_but_the_start_button_and_submitting_record_its_actual_times(client):
    event, _division = day_with(courts=2, teams=8)
    match = event.matches.order_by("match_number").first()
    url = reverse("judging:court_entry", args=[match.court.token, match.match_number])
    client.get(url)
    match.refresh_from_db()
    assert match.actual_start is None
    client.post(reverse("judging:court_start", args=[match.court.token, match.match_number]))
    match.refresh_from_db()
    assert match.actual_start is not None and match.actual_end is None
    client.post(
        url,
        {
            "cards_a": "30",
            "cards_b": "26",
            "referee_cards": "0",
            "joker_holder": "A",
            "rps_used": "0",
            "base_version": "0",
        },
    )
    match.refresh_from_db()
    assert match.actual_end is not None and match.actual_end >= match.actual_start


def test_the_schedule_page_offers_delay_and_close_and_they_work(client, django_user_model):
    event, _division = day_with(courts=2, teams=8)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    court = event.courts.get(name="1")
    page = client.get(reverse("tournament:schedule", args=[event.slug]))
    delay, close = (reverse(name, args=[event.slug]) for name in ("tournament:court_delay", "tournament:court_close"))
    assert f'action="{delay}"'.encode() in page.content and f'formaction="{close}"'.encode() in page.content
    assert page.context["layouts"]
    client.post(delay, {"court": court.pk, "minutes": "10"})
    first = event.matches.filter(court=court).order_by("slot").first()
    assert local(first.start_at) == "09:40"
    client.post(close, {"court": court.pk, "minutes": "10"})  # the same form, its other button
    assert not Match.objects.filter(court=court).exists()


def test_closing_a_court_offers_to_reprint_only_the_moved_matches(client, django_user_model):
    from io import BytesIO

    from pypdf import PdfReader

    event, _division = day_with(courts=2, teams=8)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    court = event.courts.get(name="2")
    moved = set(event.matches.filter(court=court).values_list("match_number", flat=True))
    response = client.post(reverse("tournament:court_close", args=[event.slug]), {"court": court.pk}, follow=True)
    link = response.context["moved"]
    assert set(map(int, link.split(","))) == moved
    pdf = client.get(reverse("tournament:recording_sheets", args=[event.slug]) + f"?numbers={link}")
    assert len(PdfReader(BytesIO(pdf.content)).pages) == len(moved)


@pytest.mark.parametrize("kind", ["sheets", "timetables"])
def test_the_events_era_setting_reaches_the_printed_paper(client, django_user_model, kind):
    from io import BytesIO

    from pypdf import PdfReader

    event, _division = day_with(courts=2, teams=8)
    event.date, event.japanese_era = datetime.date(2027, 1, 17), True
    event.save()
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    url = (
        reverse("tournament:recording_sheets", args=[event.slug])
        if kind == "sheets"
        else reverse("tournament:print_paper", args=[event.slug, kind])
    )
    pdf = client.get(url)
    assert pdf.status_code == 200
    assert "令和9年1月17日(日)" in PdfReader(BytesIO(pdf.content)).pages[0].extract_text()


def test_a_late_entry_joins_a_group_and_plays_everyone_after_the_matches_under_way_without_double_booking():
    event, division = day_with(courts=2, teams=7)  # groups of 4 and 3 on two courts
    group = min(division.groups.all(), key=lambda g: g.teams.count())
    first_round = event.matches.filter(slot=0)
    for match in first_round:
        record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    before = {m.pk: (m.court_id, m.slot, m.match_number) for m in event.matches.all()}
    late = factories.make_team(division, "遅刻かるた会")
    added = add_late_team(late, group)
    late.refresh_from_db()
    assert late.group == group
    assert len(added) == 3 and {m.team_a_id for m in added} == set(
        group.teams.exclude(pk=late.pk).values_list("pk", flat=True)
    )
    assert all(m.team_b_id == late.pk and m.slot >= 1 for m in added)
    assert sorted(m.match_number for m in added) == [len(before) + 1, len(before) + 2, len(before) + 3]
    assert {
        m.pk: (m.court_id, m.slot, m.match_number) for m in event.matches.exclude(pk__in=[m.pk for m in added])
    } == before
    problems, _rows = reports.schedule_checks(event)
    assert problems == []  # nobody in two places, every pair of the group meets once
    slots = [(m.court_id, m.slot) for m in event.matches.all()]
    assert len(slots) == len(set(slots))


def test_a_late_entry_is_refused_once_the_knockout_is_seeded_or_for_another_division():
    event, division = day_with(courts=2, teams=8)
    other = factories.make_division(event, name="一般の部", courts=[1])
    stranger = factories.make_team(other, "よその部のチーム")
    group = division.groups.first()
    with pytest.raises(UserError, match="チームは自分の部門のグループにのみ追加できます"):
        add_late_team(stranger, group)
    with pytest.raises(UserError, match="チーム3はすでに予選Aリーグに入っています"):
        add_late_team(group.teams.first(), group)  # already in a group
    for match in event.matches.all():
        record_confirmed_result(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    seed_knockout(event)
    late = factories.make_team(division, "遅刻かるた会")
    count = event.matches.count()
    with pytest.raises(UserError, match="決勝トーナメントは組み合わせ済みのため、リーグに追加できません"):
        add_late_team(late, group)
    late.refresh_from_db()
    assert late.group is None and event.matches.count() == count


def test_the_groups_page_adds_a_late_entry_and_offers_its_sheets(client, django_user_model):
    event, division = day_with(courts=2, teams=8)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    late = factories.make_team(division, "遅刻かるた会")
    group = division.groups.first()
    page = client.get(reverse("tournament:groups", args=[event.slug]))
    url = reverse("tournament:late_team", args=[event.slug])
    assert late.name in page.content.decode() and f'action="{url}"' in page.content.decode()
    response = client.post(url, {"team": late.pk, "group": group.pk})
    added = ",".join(
        str(n)
        for n in event.matches.filter(team_b=late).order_by("match_number").values_list("match_number", flat=True)
    )
    assert response["Location"].endswith(f"?added={added}")
    schedule = client.get(response["Location"])
    assert f"?numbers={added}" in schedule.content.decode()
