"""Acceptance fixes of issue 15 (outputs): a game annulled by a withdrawal is shown annulled
everywhere (item 7); a keeps-slots withdrawal and a correction that changes no place (item 8);
a single-qualifier champion in the public outputs (item 10); the bracket PDF's placement games
and walkovers (item 17)."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.tournament.test_slot_labels import pdf_text
from tests.tournament.test_stages_services import day, members, play_groups
from tests.tournament.test_withdrawal import games_of, group_of_three, play
from tournament import exports, printing, reports
from tournament.models import Match
from tournament.reports import api as api_reports
from tournament.services.knockout import seed_divisions
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
    assert "Annulled (withdrawal)" in public and '<s class="annulled">' in public
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
    assert "優勝（Aリーグ1位）" in final and champion.name in final
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
    assert reports.final_places(event) == [(division, [("優勝（Aリーグ1位）", champion, False)])]
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
    assert "中学生の部・順位決定戦" in text
    placement = Match.objects.filter(division=division, stage=Match.Stage.PLACEMENT).first()
    assert f"第{placement.match_number}試合" in text
    assert "不戦勝" in text
    assert f"{withdrawn.name}（棄権）" in text.replace("\n", "")
