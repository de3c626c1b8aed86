"""The first dealer on the session form: equal drawn cards are drawn again (musashino-bana.md
l.12), every draw is kept and shown; with teams, the house rule M17 names the partner who deals."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from hanafuda import services
from hanafuda.engine.options import Options, Players, TeamDealer
from hanafuda.forms import rules_summary
from hanafuda.models import Session
from tests.hanafuda.helpers import months
from tests.hanafuda.test_views import NEW

pytestmark = pytest.mark.django_db

URL = "hanafuda:session_create"
# 一郎 and 二郎 draw the two pine chaff cards (shown alike: 「1月 松 ・ 松のカス」), 三郎 a plum card.
TIED = {**NEW, "player_1": "一郎", "player_2": "二郎", "player_3": "三郎", "first_dealer": "0"}
TIED_DRAW = {"draw_player_1": "12", "draw_player_2": "13", "draw_player_3": "20"}


def redraw(response, **cards):
    """The form as the page shows it after a tie (hidden record included), with the new cards."""
    form = response.context["form"]
    return {**form.data.dict(), **cards}


def test_two_equal_pine_chaff_cards_are_drawn_again_not_settled_by_a_hidden_number(client_in):
    response = client_in.post(reverse(URL), {**TIED, **TIED_DRAW})
    assert response.status_code == 200 and not Session.objects.exists()
    form = response.context["form"]
    assert form.redraw == ("draw_player_1", "draw_player_2")
    page = response.content.decode()
    assert "一郎, 二郎 drew equal cards (Pine (1), chaff): they draw again." in page
    assert 'name="draw_player_3"' not in page  # 三郎 does not draw again
    assert json.loads(form.data["draw_history"]) == [{"draw_player_1": 12, "draw_player_2": 13, "draw_player_3": 20}]
    assert "First draw" in page and "一郎: Pine (1) ・ Pine chaff 1" in page

    response = client_in.post(reverse(URL), redraw(response, draw_player_1="50", draw_player_2="31"), follow=True)
    session = Session.objects.get()
    assert session.first_dealer == 1
    assert session.first_draws == [[["一郎", 12], ["二郎", 13], ["三郎", 20]], [["一郎", 50], ["二郎", 31]]]
    page = response.content.decode()
    assert "二郎 drew the earliest card and deals first." in page
    assert "First dealer: 二郎, by the cards drawn" in page and "Re-draw" in page
    assert "二郎: Cherry (3) ・ Cherry poetry ribbon (mi-yoshino)" in page


def test_the_tied_players_draw_again_as_long_as_they_tie(client_in):
    first = client_in.post(reverse(URL), {**TIED, **TIED_DRAW})
    second = client_in.post(reverse(URL), redraw(first, draw_player_1="42", draw_player_2="43"))
    assert second.context["form"].redraw == ("draw_player_1", "draw_player_2") and not Session.objects.exists()
    assert len(second.context["form"].draw_record) == 2
    client_in.post(reverse(URL), redraw(second, draw_player_1="12", draw_player_2="90"))
    session = Session.objects.get()
    assert session.first_dealer == 0 and len(session.first_draws) == 3


def test_a_re_draw_needs_the_card_of_each_tied_player(client_in):
    first = client_in.post(reverse(URL), {**TIED, **TIED_DRAW})
    again = client_in.post(reverse(URL), redraw(first, draw_player_1="40"))
    form = again.context["form"]
    assert "Enter the card this player drew again." in form.errors["draw_player_2"]
    assert form.redraw == ("draw_player_1", "draw_player_2") and not Session.objects.exists()
    same = client_in.post(reverse(URL), redraw(first, draw_player_1="40", draw_player_2="40"))
    assert "Two players cannot draw the same card." in same.context["form"].errors["draw_player_2"]


def test_a_record_of_draws_that_does_not_fit_starts_the_draw_again(client_in):
    data = {**TIED, **TIED_DRAW, "draw_history": '[{"draw_player_1": 10}]'}
    client_in.post(reverse(URL), {**data, "draw_player_1": "10"})
    assert Session.objects.get().first_dealer == 0  # a fresh draw: the Crane is the earliest card


def test_the_tie_is_told_in_japanese(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("ja-scorer"))
    client.cookies["django_language"] = "ja"
    page = client.post(reverse(URL), {**TIED, **TIED_DRAW}).content.decode()
    assert "一郎、二郎の札は同じ月の同じ格（1月 松 ・ カス）です。" in page
    assert "最初の引き" in page


TEAMS = {
    **NEW,
    "kind": "two_teams",
    "team_a_1": "甲",
    "team_a_2": "丙",
    "team_b_1": "乙",
    "team_b_2": "丁",
    "rounds": "6",
}


def test_partners_who_tie_draw_again_and_the_drawer_deals_first(client_in):
    first = client_in.post(
        reverse(URL),
        {**TEAMS, "draw_team_a_1": "82", "draw_team_a_2": "83", "draw_team_b_1": "90", "draw_team_b_2": "100"},
    )
    assert first.context["form"].redraw == ("draw_team_a_1", "draw_team_a_2")
    client_in.post(reverse(URL), redraw(first, draw_team_a_1="30", draw_team_a_2="10"))
    session = Session.objects.get()
    assert (session.first_dealer, session.first_partner) == (0, 1)
    assert services.session_state(session).next_dealer_name == "丙"


WON_BY_A = [months(1, 3, 8, 12, 2, 4), months(5, 6, 7, 9, 10, 11)]


@pytest.mark.parametrize(
    "rule, dealers",
    [(TeamDealer.PARTNERS_TAKE_TURNS, ("丙", "甲", "丙", "甲")), (TeamDealer.SAME_PLAYER, ("丙", "丙", "丙", "丙"))],
)
def test_the_scorer_names_the_partner_who_deals(user, rule, dealers):
    options = Options(players=Players.TWO_TEAMS, rounds=6, team_dealer=rule)
    session = services.create_session(
        user, "組", ["甲・丙", "乙・丁"], options, team_members=[["甲", "丙"], ["乙", "丁"]], first_partner=1
    )
    for n in (1, 2, 3):
        services.record_round(session, n, WON_BY_A)
    state = services.session_state(session)
    assert [r.result.next_dealer for r in state.rounds] == [0, 0, 0]
    assert state.dealer_names == dealers


def test_the_team_dealer_rule_is_on_the_form_and_in_the_rules_summary(client_in, user):
    page = client_in.get(reverse(URL)).content.decode()
    assert "Dealer in team play" in page and "the partners take turns each time their team deals (default)" in page
    client_in.post(reverse(URL), {**TEAMS, "team_dealer": "same_player", "first_dealer": "0", "first_partner": "1"})
    session = Session.objects.get()
    assert session.rules().team_dealer is TeamDealer.SAME_PLAYER and session.first_partner == 1
    page = client_in.get(reverse("hanafuda:session_detail", args=[session.pk])).content.decode()
    assert "Dealer in team play: the partner who dealt first always deals for the team" in page
    assert "dealer: <strong>丙</strong>" in page
    with translation.override("en"):
        assert rules_summary(Options()) == []  # three players: nothing about partners
        assert rules_summary(Options(players=Players.TWO_TEAMS)) == [
            "Dealer in team play: the partners take turns each time their team deals (default)"
        ]
