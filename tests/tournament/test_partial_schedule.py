"""A fixed number of games per team in a group (issue 15, item 7, first bullet), through the
services, the division form, the schedule checks and the standings: 8 teams × 3 games, the
city's school format (docs/rules/scheduling-standings-seeding.md, section 1.5)."""

import random
from collections import Counter, defaultdict
from itertools import pairwise

import pytest
from django.utils import translation

from common.errors import UserError
from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament import reports
from tournament.forms import DivisionForm
from tournament.models import Match, Team
from tournament.services.day_changes import add_late_team
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule
from tournament.services.withdrawal import withdraw_team


@pytest.fixture(autouse=True)
def english():
    """Messages are matched in English, the language of the source strings."""
    with translation.override("en"):
        yield


def school_day(seed, *, groups=2, size=8, layout="one_group_per_court", rest=False, games=3, name="小学生高学年の部"):
    """A division of ``groups`` groups of ``size`` teams, ``games`` games each, drawn with ``seed``."""
    event = factories.make_event(courts=groups)
    event.refresh_from_db()
    division = factories.make_division(
        event, name=name, courts=range(1, groups + 1), layout=layout, rest_rule=rest, games_per_team=games
    )
    factories.make_teams(division, groups * size)
    draw_groups(event, seed=seed)
    return event, division


def group_matches(division):
    return list(Match.objects.filter(division=division, stage=Match.Stage.GROUP).order_by("slot", "court__order"))


def assert_fixed_games(division, games):
    matches = group_matches(division)
    played = Counter(t for m in matches for t in (m.team_a_id, m.team_b_id))
    teams = Team.objects.filter(division=division, withdrawn=False)
    assert {t.pk: played[t.pk] for t in teams} == dict.fromkeys((t.pk for t in teams), games)
    pairs = Counter(frozenset((m.team_a_id, m.team_b_id)) for m in matches)
    assert max(pairs.values()) == 1, "a pair meets twice"
    assert all(m.team_a.group_id == m.team_b.group_id == m.group_id for m in matches)
    # nobody in two places at once: a team in one game per slot and per start time
    by_slot = Counter((m.slot, t) for m in matches for t in (m.team_a_id, m.team_b_id))
    assert max(by_slot.values()) == 1
    by_start = Counter((m.start_at, t) for m in matches for t in (m.team_a_id, m.team_b_id))
    assert max(by_start.values()) == 1
    assert max(Counter((m.slot, m.court_id) for m in matches).values()) == 1
    sides = Counter()
    for m in matches:
        sides[m.team_a_id] += 1
        sides[m.team_b_id] -= 1
    assert all(abs(v) <= 1 for v in sides.values())
    return matches


def play_all(matches, rng):
    """Enter every game with random cards (56 in all, no draw); returns the expected figures."""
    figures = defaultdict(lambda: {"played": 0, "wins": 0, "taken": 0, "conceded": 0})
    for m in matches:
        winner_cards = rng.randint(29, 45)
        a_wins = rng.random() < 0.5
        cards_a, cards_b = (winner_cards, 56 - winner_cards) if a_wins else (56 - winner_cards, winner_cards)
        joker = rules.JokerHolder.A if a_wins else rules.JokerHolder.B
        submit_result(m, rules.SheetValues(cards_a, cards_b, 0, joker, None))
        for team, taken, conceded, won in (
            (m.team_a_id, cards_a, cards_b, a_wins),
            (m.team_b_id, cards_b, cards_a, not a_wins),
        ):
            f = figures[team]
            f["played"] += 1
            f["wins"] += won
            f["taken"] += taken
            f["conceded"] += conceded
    return figures


@pytest.mark.django_db
@pytest.mark.parametrize("seed", range(1, 13))
def test_eight_teams_three_games_for_many_draws(seed):
    layout = ("one_group_per_court", "shared", "several_groups_per_court")[seed % 3]
    rest = seed % 2 == 0
    event, division = school_day(seed, layout=layout, rest=rest)
    assert make_schedule(event) == 2 * 8 * 3 // 2
    matches = assert_fixed_games(division, 3)
    if layout != "shared":
        assert all(m.court_id == m.group.court_id for m in matches)
    if rest:
        slots = defaultdict(list)
        for m in matches:
            slots[m.team_a_id].append(m.slot)
            slots[m.team_b_id].append(m.slot)
        assert all(b - a > 1 for s in slots.values() for a, b in pairwise(sorted(s)))
    problems, rows = reports.schedule_checks(event)
    assert problems == []
    assert {r["games"] for r in rows} == {3}

    figures = play_all(matches, random.Random(seed))
    tables = reports.division_standings(division)
    assert len(tables) == 2
    for table in tables:
        assert table.complete
        assert len(table.rows) == 8
        for row in table.rows:
            f = figures[row.team]
            assert (row.played, row.wins, row.losses) == (3, f["wins"], 3 - f["wins"])
            assert (row.cards_taken, row.cards_conceded, row.card_diff) == (
                f["taken"],
                f["conceded"],
                f["taken"] - f["conceded"],
            )
        # the default order: wins first, then card difference
        keys = [(-r.wins, -r.card_diff) for r in table.rows]
        assert keys == sorted(keys)
        ranks = [r.rank for r in table.rows]
        assert ranks == sorted(ranks) and ranks[0] == 1


@pytest.mark.django_db
def test_a_single_group_of_eight_on_one_court_with_rest():
    event, division = school_day(5, groups=1, rest=True)
    make_schedule(event)
    matches = assert_fixed_games(division, 3)
    assert sorted(m.slot for m in matches) == list(range(12))  # no idle slot needed
    assert reports.schedule_checks(event)[0] == []
    (row,) = [r for r in reports.layout_summary(event) if r["division"] == division]
    assert (row["slots"], row["bound"]) == (12, 12)


@pytest.mark.django_db
@pytest.mark.parametrize(("size", "games"), [(7, 2), (7, 4), (5, 2), (6, 3), (4, 1)])
def test_other_sizes(size, games):
    event, division = school_day(1, groups=1, size=size, games=games)
    make_schedule(event)
    assert_fixed_games(division, games)
    assert reports.schedule_checks(event)[0] == []


@pytest.mark.django_db
def test_a_full_round_robin_division_beside_it_is_unchanged():
    event, division = school_day(3, groups=1)
    other = factories.make_division(event, name="小学生低学年の部", courts=[1])
    factories.make_teams(other, 4, prefix="低")
    draw_groups(event, seed=3, division=other)
    make_schedule(event)
    assert_fixed_games(division, 3)
    assert_fixed_games(other, 3)  # 4 teams, full round robin: 3 games each, every pair
    assert Match.objects.filter(division=other).count() == 6
    assert reports.schedule_checks(event)[0] == []


@pytest.mark.django_db
def test_numbers_that_cannot_work_are_refused_naming_division_and_group():
    event, division = school_day(1, groups=1, size=7)
    with pytest.raises(UserError, match=r"小学生高学年の部, Group A: 7 teams cannot each play 3 games \(the total"):
        make_schedule(event)
    assert not Match.objects.exists()
    with translation.override("ja"), pytest.raises(UserError) as caught:
        make_schedule(event)
    assert str(caught.value) == "小学生高学年の部・予選Aリーグ：7チームで1チーム3試合は組めません（試合数の合計が奇数）"
    division.games_per_team = 7
    division.save()
    with pytest.raises(UserError, match="7 teams cannot each play 7 games .a team has only 6 opponents"):
        make_schedule(event)
    assert not Match.objects.exists()


@pytest.mark.django_db
def test_the_checks_count_each_teams_games_not_the_missing_pairs():
    event, division = school_day(2, groups=1)
    make_schedule(event)
    assert reports.schedule_checks(event)[0] == []
    gone = group_matches(division)[0]
    gone.delete()
    problems = reports.schedule_checks(event)[0]
    assert len(problems) == 2
    assert all("plays 2 games instead of 3" in p for p in problems)
    assert {gone.team_a.name, gone.team_b.name} == {p.split(" of ")[0] for p in problems}


@pytest.mark.django_db
def test_a_withdrawn_opponent_is_not_a_missing_game():
    event, division = school_day(4, groups=1)
    make_schedule(event)
    team = Team.objects.filter(division=division).first()
    withdraw_team(team)
    assert reports.schedule_checks(event)[0] == []


@pytest.mark.django_db
def test_a_late_entry_cannot_join_a_scheduled_group_with_fixed_games():
    event, division = school_day(6, groups=1)
    make_schedule(event)
    late = factories.make_team(division, "遅れて来たチーム")
    with pytest.raises(UserError, match="each team plays 3 games, so a late entry cannot join Group A"):
        add_late_team(late, division.groups.get())
    late.refresh_from_db()
    assert late.group_id is None
    assert Match.objects.filter(division=division).count() == 12


# --- the division form ---------------------------------------------------------------------


def form_data(division, **changes):
    """The division form's current values as posted data, with ``changes``."""
    form = DivisionForm(instance=division, event=division.event)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is None or value is False:
            continue
        if isinstance(value, (list, tuple)):
            value = [getattr(v, "pk", v) for v in value]
        data[name] = value
    data.update(changes)
    return {k: v for k, v in data.items() if v is not None}


def bound_form(division, **changes):
    return DivisionForm(data=form_data(division, **changes), instance=division, event=division.event)


@pytest.mark.django_db
def test_the_form_saves_games_per_team():
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1])
    form = bound_form(division, games_per_team="3")
    assert form.is_valid(), form.errors
    form.save()
    division.refresh_from_db()
    assert division.games_per_team == 3
    form = bound_form(division, games_per_team="")
    assert form.is_valid(), form.errors
    form.save()
    division.refresh_from_db()
    assert division.games_per_team is None
    assert "round robin" in str(form.fields["games_per_team"].help_text)


@pytest.mark.django_db
def test_the_form_refuses_zero_and_impossible_numbers():
    event, division = school_day(1, groups=2, size=7, games=None)
    form = bound_form(division, games_per_team="0")
    assert not form.is_valid()
    assert "At least 1 game per team" in str(form.errors["games_per_team"])
    form = bound_form(division, games_per_team="3")
    assert not form.is_valid()
    errors = form.errors["games_per_team"]
    assert len(errors) == 2  # both groups of 7 named
    assert "Group A: 7 teams cannot each play 3 games" in errors[0]
    assert "Group B: 7 teams cannot each play 3 games" in errors[1]
    assert bound_form(division, games_per_team="4").is_valid()


@pytest.mark.django_db
def test_the_form_keeps_the_number_once_the_games_exist():
    event, division = school_day(1, groups=1)
    make_schedule(event)
    form = bound_form(division, games_per_team="5")
    assert not form.is_valid()
    assert "clear the schedule" in str(form.errors["games_per_team"])
    assert bound_form(division, games_per_team="3").is_valid()


# --- the pages ---------------------------------------------------------------------------


@pytest.fixture
def organiser(client, django_user_model):
    def login(event):
        user = django_user_model.objects.create_user(f"organiser-{event.pk}")
        event.organisers.add(user)
        client.force_login(user)
        return client

    return login


@pytest.mark.django_db
def test_the_group_and_schedule_pages_say_each_team_plays_k_games(organiser):
    event, division = school_day(1, groups=1)
    client = organiser(event)
    page = client.get(f"/manage/{event.slug}/groups/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Each team plays 3 games in its group" in page
    page = client.get(f"/manage/{event.slug}/schedule/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "小学生高学年の部: each team plays 3 games in its group" in page
    make_schedule(event)
    page = client.get(f"/manage/{event.slug}/schedule/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "each team plays 3 games in its group" in page
    with translation.override("ja"):
        page = client.get(f"/manage/{event.slug}/groups/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "各チームはリーグ内で3試合を行います" in page


@pytest.mark.django_db
def test_the_division_form_page_shows_the_field_and_its_errors(organiser):
    event, division = school_day(1, groups=1, size=7, games=None)
    client = organiser(event)
    page = client.get(f"/manage/{event.slug}/divisions/{division.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="games_per_team"' in page
    response = client.post(
        f"/manage/{event.slug}/divisions/{division.pk}/",
        form_data(division, games_per_team="3"),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "7 teams cannot each play 3 games" in response.content.decode()
    division.refresh_from_db()
    assert division.games_per_team is None
