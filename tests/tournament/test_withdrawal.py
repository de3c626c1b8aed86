"""Withdrawals (棄権) before, during and after the group stage: what is annulled, what becomes a
walkover, the slots after the groups, the preview that equals what is saved, the page and the
command (issue 15, item 4)."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Q
from django.urls import reverse
from django.utils import translation

from common.errors import UserError
from judging.engine import rules
from judging.models import HistoryEntry
from judging.services import record_confirmed_result
from tests import factories
from tournament.models import Match, Team
from tournament.reports import stages
from tournament.reports.standings import division_standings, group_standings
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule
from tournament.services.withdrawal import withdraw_team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def play(match, winner_side, cards_winner=30, cards_loser=26):
    a, b = (cards_winner, cards_loser) if winner_side == "A" else (cards_loser, cards_winner)
    return record_confirmed_result(match, rules.SheetValues(a, b, 56 - a - b, rules.JokerHolder(winner_side)))


def play_groups(event):
    """The lower group seat always wins, by a margin growing with the seat gap: no ties."""
    for match in Match.objects.filter(event=event, stage=Match.Stage.GROUP).select_related("team_a", "team_b", "group"):
        gap = abs(match.team_a.group_seat - match.team_b.group_seat)
        side = "A" if match.team_a.group_seat < match.team_b.group_seat else "B"
        play(match, side, 28 + gap, 28 - gap - match.group.order)


def group_of_three(**division_fields):
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1], **division_fields)
    teams = [factories.make_team(division, name) for name in ("ひたちA", "ひたちB", "ひたちC")]
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division, teams


def games_of(team):
    return [
        m
        for m in Match.objects.filter(stage=Match.Stage.GROUP).order_by("match_number")
        if team.pk in (m.team_a_id, m.team_b_id)
    ]


def seeded_day(groups, qualifiers, withdrawal="annul", seed=True):
    """``groups`` groups of three on as many courts, played, and (``seed``) the knockout seeded."""
    event = factories.make_event(courts=groups)
    division = factories.make_division(
        event, courts=range(1, groups + 1), qualifiers_per_group=qualifiers, withdrawal=withdrawal
    )
    factories.make_teams(division, 3 * groups)
    draw_groups(event, seed=1)
    make_schedule(event)
    play_groups(event)
    if seed:
        seed_knockout(event)
    return event, division


def winner_of(division, group_index, place=1):
    table = division_standings(division)[group_index]
    return table.teams[table.rows[place - 1].team]


# --- before and during the group stage: the division's setting ---------------------------------


def test_before_any_result_annul_voids_every_game_of_the_team():
    event, division, teams = group_of_three(withdrawal="annul")
    report = withdraw_team(teams[0])
    assert report.policy == "annul" and not report.after_groups
    assert [g.kind for g in report.games] == ["voided", "voided"]
    assert {g.opponent for g in report.games} == {"ひたちB", "ひたちC"}
    assert all(m.status == Match.Status.VOID for m in games_of(teams[0]))
    assert "2 unplayed games voided." in report.summary()
    [table] = division_standings(division)
    assert teams[0].pk not in [row.team for row in table.rows]


def test_during_the_group_stage_annul_annuls_the_played_game_and_the_message_says_so():
    event, division, teams = group_of_three(withdrawal="annul")
    first, second = games_of(teams[0])
    play(first, "A" if first.team_a_id == teams[0].pk else "B", 30, 25)
    report = withdraw_team(teams[0])
    kinds = {g.number: g.kind for g in report.games}
    assert kinds == {first.match_number: "annulled", second.match_number: "voided"}
    annulled = next(g for g in report.games if g.kind == "annulled")
    assert annulled.score == "30–25"
    summary = report.summary()
    assert "1 unplayed game voided." in summary
    assert "1 played game annulled (it leaves the standings)." in summary
    assert "0 " not in summary
    # The team left the table: its former place is taken by the next team.
    assert report.places and report.places[0].place == 1 and report.places[0].before == "ひたちA"


def test_during_the_group_stage_walkover_keeps_played_games_and_scores_the_rest():
    event, division, teams = group_of_three(withdrawal="walkover")
    first, second = games_of(teams[0])
    play(first, "A" if first.team_a_id == teams[0].pk else "B")
    report = withdraw_team(teams[0])
    assert [(g.number, g.kind) for g in report.games] == [(second.match_number, "walkover")]
    second.refresh_from_db()
    assert second.status == Match.Status.WALKOVER and second.winner_id != teams[0].pk
    [table] = division_standings(division)
    row = next(r for r in table.rows if r.team == teams[0].pk)
    assert (row.played, row.wins, row.walkover_losses) == (2, 1, 1)
    [group] = group_standings(division)
    assert next(line for line in group.lines if line.team.pk == teams[0].pk).withdrawn


def test_a_second_withdrawal_of_the_same_team_is_refused():
    event, division, teams = group_of_three()
    withdraw_team(teams[0])
    with pytest.raises(UserError, match="has already withdrawn"):
        withdraw_team(teams[0])


# --- after the group stage: the group results stand -------------------------------------------


def test_after_its_group_is_complete_the_team_keeps_its_results_and_its_drawn_semifinal_is_a_walkover():
    event, division = seeded_day(groups=4, qualifiers=1, withdrawal="annul")
    champion_a = winner_of(division, 0)
    semi = Match.objects.get(Q(team_a=champion_a) | Q(team_b=champion_a), stage=Match.Stage.SEMIFINAL)
    opponent_id = semi.team_b_id if semi.team_a_id == champion_a.pk else semi.team_a_id
    report = withdraw_team(champion_a)
    champion_a.refresh_from_db()
    assert champion_a.withdrawn and champion_a.withdrawn_after_groups and champion_a.withdrawn_keeps_slots
    assert report.after_groups and report.policy == "after_groups"
    assert report.places == []
    assert [(g.number, g.kind) for g in report.games] == [(semi.match_number, "walkover")]
    # The walkover moves on: its opponent to the final, the team itself to the third-place game
    # (a walkover too, once its opponent there is known).
    assert sorted(s.stage for s in report.slots) == ["Final", "Third-place game"]
    assert not any(s.frozen for s in report.slots)
    # The team keeps its row and its results, marked withdrawn.
    table = division_standings(division)[0]
    assert table.rows[0].team == champion_a.pk and table.rows[0].played == 2
    # Drawn into the semifinal already, it keeps its slot: its opponent wins by walkover.
    semi.refresh_from_db()
    assert semi.status == Match.Status.WALKOVER and semi.winner_id == opponent_id
    assert not stages.out_of_date(division)


def test_a_team_withdrawing_after_its_group_but_before_the_draw_takes_no_qualifying_place():
    event, division = seeded_day(groups=4, qualifiers=1, withdrawal="annul", seed=False)
    champion_a = winner_of(division, 0)
    runner_up_a = winner_of(division, 0, place=2)
    report = withdraw_team(champion_a)
    champion_a.refresh_from_db()
    assert champion_a.withdrawn_after_groups and not champion_a.withdrawn_keeps_slots
    assert report.games == []
    seed_knockout(event)
    semi = Match.objects.get(Q(team_a=runner_up_a) | Q(team_b=runner_up_a), stage=Match.Stage.SEMIFINAL)
    assert champion_a.pk not in (semi.team_a_id, semi.team_b_id)
    assert division_standings(division)[0].rows[0].team == champion_a.pk  # its row and results stay


def test_a_quarterfinal_winner_who_withdraws_gives_the_semifinal_as_a_walkover():
    event, division = seeded_day(groups=4, qualifiers=2)
    quarters = list(Match.objects.filter(stage=Match.Stage.QUARTERFINAL).order_by("bracket_position"))
    assert len(quarters) == 4
    for match in quarters:
        play(match, "A")
    first = quarters[0]
    first.refresh_from_db()
    leaving = first.winner
    semi = Match.objects.get(stage=Match.Stage.SEMIFINAL, pk__in=[first.feeds_id])
    semi.refresh_from_db()
    opponent = semi.team_b if semi.team_a_id == leaving.pk else semi.team_a
    report = withdraw_team(leaving)
    semi.refresh_from_db()
    assert semi.status == Match.Status.WALKOVER and semi.winner_id == opponent.pk
    assert (semi.match_number, "walkover", opponent.name) in [(g.number, g.kind, g.opponent) for g in report.games]
    # The played quarterfinals keep their teams and stay true: nothing is out of date.
    assert not stages.out_of_date(division)
    assert not [s for s in report.slots if s.frozen]
    # The final waits for the other semifinal; the withdrawn team is in no open game.
    final = Match.objects.get(stage=Match.Stage.FINAL)
    assert leaving.pk not in (final.team_a_id, final.team_b_id)


def test_the_preview_changes_nothing_and_equals_what_is_saved():
    event, division = seeded_day(groups=4, qualifiers=2, withdrawal="walkover")
    quarters = list(Match.objects.filter(stage=Match.Stage.QUARTERFINAL).order_by("bracket_position"))
    for match in quarters:
        play(match, "B")
    leaving = Match.objects.get(pk=quarters[1].pk).winner
    state = (
        list(Match.objects.order_by("pk").values_list("status", "team_a", "team_b", "winner")),
        HistoryEntry.objects.count(),
    )
    preview = withdraw_team(leaving, preview=True)
    assert preview.games or preview.slots
    leaving.refresh_from_db()
    assert not leaving.withdrawn
    assert state == (
        list(Match.objects.order_by("pk").values_list("status", "team_a", "team_b", "winner")),
        HistoryEntry.objects.count(),
    )
    saved = withdraw_team(leaving)
    assert saved.changes == preview.changes


def test_the_preview_during_the_group_stage_equals_what_is_saved():
    event, division, teams = group_of_three(withdrawal="annul")
    first, _second = games_of(teams[1])
    play(first, "A")
    preview = withdraw_team(teams[1], preview=True)
    assert Match.objects.filter(status=Match.Status.VOID).count() == 0
    assert withdraw_team(teams[1]).changes == preview.changes


# --- the page and the command ----------------------------------------------------------------


@pytest.fixture
def organiser(client, django_user_model):
    def login(event):
        user = django_user_model.objects.create_user("org")
        event.organisers.add(user)
        client.force_login(user)
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
        return client

    return login


def test_the_confirmation_page_lists_the_changes_and_saving_says_the_counts(organiser):
    event, division, teams = group_of_three(withdrawal="annul")
    first, second = games_of(teams[0])
    play(first, "A" if first.team_a_id == teams[0].pk else "B", 30, 25)
    client = organiser(event)
    url = reverse("tournament:team_withdraw", args=[event.slug, teams[0].pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert page.status_code == 200
    assert f"Game {second.match_number} (Group stage) against" in text and "is voided" in text
    assert f"Game {first.match_number} (Group stage) against" in text and "30–25, is annulled" in text
    teams[0].refresh_from_db()
    assert not teams[0].withdrawn
    digest = page.context["digest"]
    response = client.post(url, {"digest": digest}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    teams[0].refresh_from_db()
    assert teams[0].withdrawn
    message = [str(m) for m in response.context["messages"]][0]
    assert "1 unplayed game voided." in message and "1 played game annulled" in message


def test_a_post_after_results_changed_shows_the_page_again(organiser):
    event, division, teams = group_of_three(withdrawal="annul")
    client = organiser(event)
    url = reverse("tournament:team_withdraw", args=[event.slug, teams[0].pk])
    digest = client.get(url).context["digest"]
    first, _second = games_of(teams[0])
    play(first, "A")  # a result arrives while the organiser reads the page
    response = client.post(url, {"digest": digest}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200 and response.context["stale"]
    teams[0].refresh_from_db()
    assert not teams[0].withdrawn


def test_the_command_withdraws_a_team_named_as_in_the_forms():
    event, division, teams = group_of_three(withdrawal="walkover")
    out = StringIO()
    call_command("withdraw_team", event.slug, "ひたちＡ ", stdout=out)
    teams[0].refresh_from_db()
    assert teams[0].withdrawn
    text = out.getvalue()
    assert "walkover win for" in text and "2 games scored as walkovers for the opponents." in text


def test_the_command_refuses_an_unknown_team_and_a_second_withdrawal():
    event, division, teams = group_of_three()
    with pytest.raises(CommandError, match="No team called “ひたちZ”"):
        call_command("withdraw_team", event.slug, "ひたちZ", stdout=StringIO())
    call_command("withdraw_team", event.slug, "ひたちB", stdout=StringIO())
    with pytest.raises(CommandError, match="already withdrawn"):
        call_command("withdraw_team", event.slug, "ひたちB", stdout=StringIO())
    assert Team.objects.filter(withdrawn=True).count() == 1


def test_the_command_names_the_division_when_a_team_name_recurs_in_two_divisions():
    """The re-check's N4: a club enters 「宮田台子ども会A」 in two divisions."""
    event, division, teams = group_of_three()
    other = factories.make_division(event, name="小学生高学年の部")
    twin = factories.make_team(other, teams[0].name)
    with pytest.raises(CommandError, match="Name the division with --division"):
        call_command("withdraw_team", event.slug, teams[0].name, stdout=StringIO())
    with pytest.raises(CommandError, match="No division called “中学生の部”"):
        call_command("withdraw_team", event.slug, teams[0].name, "--division", "中学生の部", stdout=StringIO())
    call_command("withdraw_team", event.slug, teams[0].name, "--division", other.name, stdout=StringIO())
    twin.refresh_from_db()
    teams[0].refresh_from_db()
    assert twin.withdrawn and not teams[0].withdrawn
