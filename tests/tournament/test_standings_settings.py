"""Standings settings organisers rely on: lots, withdrawals, custom order, runners-up, hall screens."""

import pytest
from django.urls import reverse
from django.utils import translation

from common.errors import UserError
from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament import reports
from tournament.engine import standings
from tournament.models import Match, TieBreak
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.lots import record_runner_up_lot, record_tie_break
from tournament.services.schedule import make_schedule
from tournament.services.withdrawal import withdraw_team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def play(match, winner_side, cards_winner=30, cards_loser=26):
    a, b = (cards_winner, cards_loser) if winner_side == "A" else (cards_loser, cards_winner)
    referee = 56 - a - b  # extras collected by the referee belong to nobody
    return record_confirmed_result(match, rules.SheetValues(a, b, referee, rules.JokerHolder(winner_side)))


def play_in_seat_order(event):
    """The lower group seat always wins, by a margin that grows with the seat gap: no ties."""
    for match in Match.objects.filter(event=event).select_related("team_a", "team_b", "group"):
        gap = abs(match.team_a.group_seat - match.team_b.group_seat)
        # Losers in later groups take fewer cards: teams of different groups never tie.
        play(
            match,
            "A" if match.team_a.group_seat < match.team_b.group_seat else "B",
            28 + gap,
            28 - gap - match.group.order,
        )


def group_of_three(event=None, **division_fields):
    event = event or factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1], **division_fields)
    teams = [factories.make_team(division, name) for name in ("ひたちA", "ひたちB", "ひたちC")]
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division, teams


def play_perfect_cycle(event, teams):
    """A beats B, B beats C, C beats A, every game 30–26: tied on every criterion."""
    beats = {(teams[0].pk, teams[1].pk), (teams[1].pk, teams[2].pk), (teams[2].pk, teams[0].pk)}
    for match in Match.objects.filter(event=event):
        play(match, "A" if (match.team_a_id, match.team_b_id) in beats else "B")


def test_a_perfect_cycle_stays_unresolved_until_a_lot_is_recorded():
    event, division, teams = group_of_three()
    play_perfect_cycle(event, teams)
    [table] = reports.division_standings(division)
    assert all(row.tied and row.rank == 1 for row in table.rows)
    with pytest.raises(UserError, match="Place 1 of Group A is tied; record a lot or play-off"):
        seed_knockout(event)
    group = table.group
    record_tie_break(group, [teams[2], teams[0], teams[1]], "lot")
    [table] = reports.division_standings(division)
    assert [row.team for row in table.rows] == [teams[2].pk, teams[0].pk, teams[1].pk]
    assert [row.rank for row in table.rows] == [1, 2, 3]
    assert all(row.settled_by_lot for row in table.rows)
    assert table.rows[1].lot_method == "lot"


def test_the_organiser_records_a_play_off_order_on_the_standings_page(client, django_user_model):
    event, division, teams = group_of_three()
    play_perfect_cycle(event, teams)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    page = client.get(reverse("tournament:standings", args=[event.slug]))
    assert b"team_%d" % teams[0].pk in page.content
    group = division.groups.get()
    response = client.post(
        reverse("tournament:standings", args=[event.slug]),
        {
            "group": group.pk,
            f"team_{teams[0].pk}": "2",
            f"team_{teams[1].pk}": "1",
            f"team_{teams[2].pk}": "3",
            "method": "playoff",
        },
    )
    assert response.status_code == 302
    assert list(TieBreak.objects.filter(group=group).values_list("team", "position", "method")) == [
        (teams[1].pk, 1, "playoff"),
        (teams[0].pk, 2, "playoff"),
        (teams[2].pk, 3, "playoff"),
    ]
    page = client.get(reverse("tournament:standings", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="en")
    assert "settled by play-off" in page.content.decode()


def test_the_same_position_twice_is_refused_and_nothing_is_recorded(client, django_user_model):
    event, division, teams = group_of_three()
    play_perfect_cycle(event, teams)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    group = division.groups.get()
    client.post(
        reverse("tournament:standings", args=[event.slug]),
        {"group": group.pk, f"team_{teams[0].pk}": "1", f"team_{teams[1].pk}": "1", f"team_{teams[2].pk}": "2"},
    )
    assert not TieBreak.objects.exists()


def test_withdrawal_annul_voids_unplayed_matches_and_removes_the_team():
    event, division, teams = group_of_three(withdrawal="annul")
    first = Match.objects.filter(event=event).order_by("match_number").first()
    play(first, "A")
    report = withdraw_team(teams[0])
    assert report.count("voided") == 2 - (1 if teams[0].pk in (first.team_a_id, first.team_b_id) else 0)
    [table] = reports.division_standings(division)
    assert teams[0].pk not in [row.team for row in table.rows]


def test_withdrawal_walkover_keeps_played_matches_and_gives_walkovers():
    event, division, teams = group_of_three(withdrawal="walkover")
    matches = list(Match.objects.filter(event=event).order_by("match_number"))
    played = next(m for m in matches if teams[0].pk in (m.team_a_id, m.team_b_id))
    play(played, "A" if played.team_a_id == teams[0].pk else "B")  # the team won before withdrawing
    withdraw_team(teams[0])
    [table] = reports.division_standings(division)
    row = next(r for r in table.rows if r.team == teams[0].pk)
    assert (row.played, row.wins, row.losses, row.walkover_losses) == (2, 1, 1, 1)
    statuses = {m.pk: Match.objects.get(pk=m.pk).status for m in matches if teams[0].pk in (m.team_a_id, m.team_b_id)}
    assert sorted(statuses.values()) == sorted([Match.Status.CONFIRMED, Match.Status.WALKOVER])


def test_a_withdrawn_group_winner_never_qualifies_and_the_next_team_goes_through():
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], withdrawal="walkover")
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    make_schedule(event)
    play_in_seat_order(event)
    tables = reports.division_standings(division)
    winner = tables[0].teams[tables[0].rows[0].team]
    second = tables[0].teams[tables[0].rows[1].team]
    winner.withdrawn = True
    winner.save()
    seed_knockout(event)
    final = Match.objects.get(event=event, stage=Match.Stage.FINAL)
    assert winner.pk not in (final.team_a_id, final.team_b_id)
    assert second.pk in (final.team_a_id, final.team_b_id)


def test_a_custom_ranking_order_is_saved_as_data(client, django_user_model):
    event = factories.make_event(courts=2)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    response = client.post(
        reverse("tournament:division_add", args=[event.slug]),
        {
            "name": "中学生の部",
            "order": "1",
            "preset": "custom",
            "criterion_1": "wins",
            "criterion_2": "cards_taken",
            "criterion_3": "head_to_head",
            "criterion_4": "lot",
            "walkover_cards": "exclude",
            "withdrawal": "walkover",
            "layout": "one_group_per_court",
            "qualifiers_per_group": "2",
            "best_runners_up": "0",
        },
    )
    assert response.status_code == 302
    division = event.divisions.get()
    assert division.criteria == ("wins", "cards_taken", "head_to_head", "lot")
    assert division.preset == "custom"


def test_a_lot_before_another_criterion_is_refused(client, django_user_model):
    event = factories.make_event(courts=2)
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    response = client.post(
        reverse("tournament:division_add", args=[event.slug]),
        {
            "name": "中学生の部",
            "order": "1",
            "preset": "custom",
            "criterion_1": "lot",
            "criterion_2": "wins",
            "walkover_cards": "count",
            "withdrawal": "annul",
            "qualifiers_per_group": "1",
            "best_runners_up": "0",
            "layout": "one_group_per_court",
        },
    )
    assert response.status_code == 200
    assert "preset" in response.context["form"].errors
    assert not event.divisions.exists()


def test_the_best_runner_up_joins_the_group_winners():
    event = factories.make_event(courts=3)
    division = factories.make_division(event, courts=[1, 2, 3], best_runners_up=1)
    factories.make_teams(division, 9)
    draw_groups(event, seed=1)
    make_schedule(event)
    play_in_seat_order(event)
    seed_knockout(event)
    semis = Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL)
    entrants = {t for m in semis for t in (m.team_a_id, m.team_b_id)}
    tables = reports.division_standings(division)
    winners = {t.rows[0].team for t in tables}
    assert winners <= entrants and len(entrants) == 4
    for semi in semis:  # group-mates never meet in the semifinal
        team_groups = {t.group_id for t in division.teams.filter(pk__in=[semi.team_a_id, semi.team_b_id])}
        assert len(team_groups) == 2


def test_without_a_third_place_match_both_semifinal_losers_share_third(client):
    event = factories.make_event(courts=4)
    division = factories.make_division(event, courts=[1, 2, 3, 4], third_place_game=False)
    factories.make_teams(division, 12)
    draw_groups(event, seed=1)
    make_schedule(event)
    play_in_seat_order(event)
    seed_knockout(event)
    assert not Match.objects.filter(event=event, stage=Match.Stage.THIRD_PLACE).exists()
    for semi in Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL):
        play(semi, "A")
    page = client.get(
        reverse("tournament:public_bracket", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "Third place (shared)" in page


def test_the_hall_screens_show_standings_and_the_court_and_refresh_by_fragment(client):
    event, division, teams = group_of_three()
    court = event.courts.get()
    page = client.get(reverse("tournament:division_display", args=[event.slug, division.pk]))
    assert page.status_code == 200 and b"display.js" in page.content
    fragment = client.get(reverse("tournament:division_display", args=[event.slug, division.pk]) + "?fragment=1")
    assert b"<html" not in fragment.content and "ひたちA" in fragment.content.decode()
    page = client.get(reverse("tournament:court_display", args=[event.slug, court.pk]) + "?fragment=1")
    first = Match.objects.filter(court=court).order_by("match_number").first()
    assert first.team_a.name in page.content.decode()
    play(first, "A")
    page = client.get(
        reverse("tournament:court_display", args=[event.slug, court.pk]) + "?fragment=1", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Last result" in page.content.decode()


def test_the_standings_criteria_presets_are_what_the_rules_page_says():
    assert standings.PRESET_JAPANESE == ("wins", "card_diff", "cards_taken", "head_to_head", "lot")
    assert standings.PRESET_HEAD_TO_HEAD_FIRST == ("wins", "head_to_head", "card_diff", "cards_taken", "lot")


def test_the_public_timetable_shows_a_result_once_its_few_seconds_of_cache_run_out(client):
    from django.core.cache import cache

    cache.clear()
    event, division, teams = group_of_three()
    first = Match.objects.filter(event=event).order_by("match_number").first()
    url = reverse("tournament:public_timetable", args=[event.slug])
    assert "30 - 26" not in client.get(url).content.decode()
    assert "30 - 26" not in client.get(url).content.decode()  # served from the cache
    play(first, "A")
    cache.clear()  # what FRESH_SECONDS (5 s) does on its own
    assert "30 - 26" in client.get(url).content.decode()
    assert "30 - 26" in client.get(reverse("tournament:public_results", args=[event.slug])).content.decode()


def three_groups_with_runners_up_tied_across_groups():
    """Three groups of three; every game 30–26 to the lower seat: the three runners-up are
    equal on wins, card difference and cards per game."""
    event = factories.make_event(courts=3)
    division = factories.make_division(event, courts=[1, 2, 3], best_runners_up=1)
    factories.make_teams(division, 9)
    draw_groups(event, seed=1)
    make_schedule(event)
    for match in Match.objects.filter(event=event).select_related("team_a", "team_b"):
        play(match, "A" if match.team_a.group_seat < match.team_b.group_seat else "B")
    runners_up = [t.teams[t.rows[1].team] for t in reports.division_standings(division)]
    return event, division, runners_up


def test_runners_up_tied_across_groups_are_settled_by_a_lot_on_the_knockout_page(client, django_user_model):
    event, division, runners_up = three_groups_with_runners_up_tied_across_groups()
    with pytest.raises(reports.RunnerUpTie) as tie:
        seed_knockout(event)
    assert set(tie.value.teams) == {t.pk for t in runners_up}
    assert not Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).exists()

    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    url = reverse("tournament:knockout", args=[event.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert [t.pk for t in page.context["runner_up_ties"][0][1]] == sorted(t.pk for t in runners_up)
    assert 'name="division"' in page.content.decode()

    # A repeated position is refused and saves nothing.
    first, second, third = runners_up[2], runners_up[0], runners_up[1]
    bad = {
        "lot": "1",
        "division": division.pk,
        "method": "lot",
        f"team_{first.pk}": "1",
        f"team_{second.pk}": "1",
        f"team_{third.pk}": "2",
    }
    client.post(url, bad)
    assert not division.runner_up_lots.exists()

    client.post(
        url,
        {
            "lot": "1",
            "division": division.pk,
            "method": "lot",
            f"team_{first.pk}": "1",
            f"team_{second.pk}": "2",
            f"team_{third.pk}": "3",
        },
    )
    assert list(division.runner_up_lots.values_list("team_id", "position")) == [
        (first.pk, 1),
        (second.pk, 2),
        (third.pk, 3),
    ]
    assert client.get(url).context["runner_up_ties"] == []
    client.post(url, {"action": "seed_all"})
    semis = Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL)
    entrants = {t for m in semis for t in (m.team_a_id, m.team_b_id)}
    assert first.pk in entrants and second.pk not in entrants and third.pk not in entrants


def test_a_lot_between_only_some_of_the_tied_runners_up_does_not_settle_the_tie():
    event, division, runners_up = three_groups_with_runners_up_tied_across_groups()
    record_runner_up_lot(division, runners_up[:2], "lot")
    with pytest.raises(reports.RunnerUpTie, match="The best runners-up are tied across groups"):
        seed_knockout(event)
    with pytest.raises(UserError, match="Say how the order was decided: lot or play-off"):
        record_runner_up_lot(division, runners_up[:2], "coin")
