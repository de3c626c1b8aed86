"""Acceptance fixes of issue 15 (outputs): a game annulled by a withdrawal is shown annulled
everywhere (item 7); a keeps-slots withdrawal and a correction that changes no place (item 8);
a single-qualifier champion in the public outputs (item 10); the bracket PDF's placement games
and walkovers (item 17)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from judging.models import RecordingSheet
from tests import factories
from tests.tournament.test_slot_labels import pdf_text
from tests.tournament.test_stages_services import day, members, play_groups
from tests.tournament.test_withdrawal import games_of, group_of_three, play
from tests.tournament.test_withdrawal import play_groups as withdrawal_play_groups
from tournament import exports, printing, reports
from tournament.models import Match, Team
from tournament.reports import api as api_reports
from tournament.reports import stages
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_divisions, seed_knockout
from tournament.services.schedule import make_schedule
from tournament.services.withdrawal import withdraw_team

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def annulled_game():
    """ひたちA wins its first game 30–22, then withdraws (setting "annul")."""
    event, division, (a, _b, _c) = group_of_three(withdrawal="annul")
    game = games_of(a)[0]
    play(game, "A" if game.team_a_id == a.pk else "B", 30, 22)
    withdraw_team(a)
    game.refresh_from_db()
    return event, game


def test_an_annulled_game_is_annulled_in_the_api(annulled_game):
    event, game = annulled_game
    (line,) = [g for g in api_reports.results_document(event)["games"] if g["number"] == game.match_number]
    assert line["status"] == "annulled" and line["annulled"] is True
    (line,) = [g for g in api_reports.timetable_document(event)["games"] if g["number"] == game.match_number]
    assert line["status"] == "annulled"


def test_an_annulled_game_is_annulled_in_the_workbook(annulled_game):
    event, game = annulled_game
    headers = [str(h) for h in exports.matches_headers()]
    rows = {row[0]: dict(zip(headers, row, strict=True)) for row in exports.matches_rows(event)}
    assert rows[game.match_number]["status"] == "Annulled (withdrawal)"


def test_an_annulled_game_is_annulled_on_the_schedule_and_public_results(client, annulled_game):
    event, game = annulled_game
    public = client.get(reverse("tournament:public_results", args=[event.slug]), **EN).content.decode()
    assert "Annulled (withdrawal) (" in public and "game annulled" in public
    organiser = get_user_model().objects.create_user("organiser")
    event.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournament:schedule", args=[event.slug]), **EN).content.decode()
    assert "Annulled (withdrawal)" in page and '<s class="annulled">' in page
    ja = client.get(reverse("tournament:schedule", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "無効（棄権）" in ja


# --- item 10: a division whose only qualifier is its champion --------------------------------


@pytest.fixture
def single_champion():
    event, (single,) = day([("中学生の部", [1], 4, {})])
    play_groups(single)
    return event, single, members(single.groups.get())[0]


def test_a_single_qualifier_champion_is_on_the_public_final_results_and_bracket(client, single_champion):
    event, division, champion = single_champion
    final = client.get(reverse("tournament:public_final", args=[event.slug]), **EN).content.decode()
    assert "Champion (group A, place 1)" in final and champion.name in final  # the session's language
    assert "No final has been played yet." not in final
    bracket = client.get(reverse("tournament:public_bracket", args=[event.slug]), **EN).content.decode()
    assert champion.name in bracket and "Single qualifier: the winner of Group A is the champion." in bracket
    assert "not been seeded" not in bracket


def test_a_single_qualifier_champion_is_in_the_api_and_the_final_results_pdf(single_champion):
    event, division, champion = single_champion
    (found,) = api_reports.bracket_document(event)["divisions"]
    assert found["single_qualifier"] is True and found["games"] == []
    assert found["places"] == [
        {"place": 1, "team": api_reports.team(champion), "to_confirm": False, "decided_by": "group"}
    ]
    assert reports.final_places(event) == [(division, [("Champion (group A, place 1)", champion, False)])]
    with translation.override("ja"):
        assert reports.final_places(event) == [(division, [("優勝（予選Aリーグ1位）", champion, False)])]
    assert champion.name in pdf_text(printing.final_results(event))


def test_a_single_qualifier_still_playing_has_no_champion(db):
    event, (single,) = day([("中学生の部", [1], 4, {})])
    assert reports.single_champions(event) == []
    assert api_reports.bracket_document(event)["divisions"] == []


# --- item 17: the bracket PDF's placement games and walkovers ---------------------------------


def test_the_bracket_pdf_lists_placement_games_and_prints_walkovers_and_withdrawals(db):
    event, (division,) = day([("中学生の部", [1, 2], 8, {"after_groups": "both", "qualifiers_per_group": 2})])
    play_groups(division)
    seed_divisions(event)
    semi = Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL).order_by("match_number").first()
    withdrawn = semi.team_a
    withdraw_team(withdrawn)
    semi.refresh_from_db()
    assert semi.status == Match.Status.WALKOVER
    text = pdf_text(printing.bracket(event))
    assert "中学生の部・Placement games" in text  # the paper speaks the session's language
    placement = Match.objects.filter(division=division, stage=Match.Stage.PLACEMENT).first()
    assert f"Game {placement.match_number}" in text
    assert "walkover win" in text
    assert f"{withdrawn.name} (withdrawn)" in text.replace("\n", "")
    with translation.override("ja"):
        text = pdf_text(printing.bracket(event))
    assert "中学生の部・順位決定戦" in text and f"第{placement.match_number}試合" in text and "不戦勝" in text
    assert f"{withdrawn.name}（棄権）" in text.replace("\n", "")


# --- item 8: a withdrawn best runner-up that keeps its slots, then a correction ---------------


@pytest.fixture
def withdrawn_best_runner_up():
    """3 groups of 3 ("walkovers"), 1 qualifier + the best runner-up, seeded; the best runner-up
    withdraws after seeding (it keeps its slot: its semifinal is a walkover)."""
    event = factories.make_event(courts=3)
    division = factories.make_division(
        event, courts=[1, 2, 3], qualifiers_per_group=1, best_runners_up=1, withdrawal="walkover"
    )
    factories.make_teams(division, 9)
    draw_groups(event, seed=1)
    make_schedule(event)
    withdrawal_play_groups(event)
    seed_knockout(event)
    (best,) = [s for state in stages.division_slots(division) for s in state.sides if s.reference.startswith("best")]
    team = Team.objects.get(pk=best.now)
    withdraw_team(team)
    team.refresh_from_db()
    return division, team


def _what_if(match, cards_a, cards_b):
    winner = "A" if cards_a > cards_b else "B"
    return RecordingSheet(
        match=match,
        cards_a=cards_a,
        cards_b=cards_b,
        referee_cards=56 - cards_a - cards_b,
        winner_side=winner,
        decided_by="cards",
    )


def _group_game(division, seats):
    for m in Match.objects.filter(division=division, stage=Match.Stage.GROUP).select_related("team_a", "team_b"):
        if {m.team_a.group_seat, m.team_b.group_seat} == seats and m.group.order == 0:
            return m
    raise AssertionError(seats)


def test_a_withdrawn_best_runner_up_keeps_its_place_in_the_best_ranking(withdrawn_best_runner_up):
    division, team = withdrawn_best_runner_up
    assert team.withdrawn_keeps_slots
    (state,) = [s for s in stages.division_slots(division) if any(x.reference.startswith("best") for x in s.sides)]
    (best,) = [x for x in state.sides if x.reference.startswith("best")]
    assert best.now == team.pk and best.final and not state.out_of_date
    assert state.match.status == Match.Status.WALKOVER


def test_a_correction_that_changes_no_place_and_no_cross_group_order_reports_nothing(withdrawn_best_runner_up):
    division, team = withdrawn_best_runner_up
    game = _group_game(division, {1, 3})  # group A's winner against its third: no runner-up in it
    sheet = game.sheets.get(is_confirmed=True)
    one_less = _what_if(game, sheet.cards_a - (sheet.winner_side == "B"), sheet.cards_b - (sheet.winner_side == "A"))
    assert stages.changes_if_confirmed(one_less) == []


def test_a_correction_that_lifts_another_runner_up_above_the_withdrawn_one_says_so(withdrawn_best_runner_up):
    """The tester's case: a correction changing no group place can still change the order of
    the runners-up across groups (card difference per game): that is a true change of the
    best runner-up's slot, named with its division, and its walkover semifinal is reached."""
    division, team = withdrawn_best_runner_up
    other = [g for g in division.groups.order_by("order") if g.pk != team.group_id][0]
    game = next(
        m
        for m in Match.objects.filter(group=other, stage=Match.Stage.GROUP).select_related("team_a", "team_b")
        if {m.team_a.group_seat, m.team_b.group_seat} == {2, 3}
    )
    runner_up_side = "A" if game.team_a.group_seat == 2 else "B"
    big = _what_if(game, 40 if runner_up_side == "A" else 0, 0 if runner_up_side == "A" else 40)
    sentences = stages.changes_if_confirmed(big)
    assert (
        sentences
        and f"If confirmed, {division.name}, best 1 of the teams placed 2 changes from {team.name}" in (sentences[0])
    )
