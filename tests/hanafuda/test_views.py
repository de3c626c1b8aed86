"""The scorekeeper's screens: session form, round grid, corrections, undo, privacy, double submit."""

import dataclasses

import pytest
from django.urls import reverse
from django.utils import translation

from hanafuda import services
from hanafuda.engine.dekiyaku import DEKIYAKU, MONTH_READABLE
from hanafuda.engine.options import DEFAULT_OPTIONS, Options, Players, Storm, SunTiming, TeamPayment
from hanafuda.forms import rules_summary
from hanafuda.models import Round, RoundRevision, Session
from tests.hanafuda.helpers import INSTA, ROUND_A, ROUND_B, engine_game, months, new_session

pytestmark = pytest.mark.django_db


def grid_post(piles, number, rest=""):
    data = {"number": number, "rest": rest}
    for seat, pile in enumerate(piles):
        for c in pile:
            data[f"c{c}"] = str(seat)
    return data


NEW = {
    "title": "月例会",
    "kind": "three_players",
    "player_1": "A",
    "player_2": "B",
    "player_3": "C",
    "rounds": "12",
    "first_dealer": "1",
    "four_brights": "lightning",
    "lightning": "willow_chaff",
    "flower_cards": "chaff_except_yellow",
    "suppression": "four_brights_only",
    "repeats": "once",
    "storm": "off",
    "sun_timing": "any_order",
    "storm_insta_win": "not_affected",
    "insta_win_value": "8",
    "insta_win_payment": "each_side",
    "insta_win_check": "after_each_capture",
    "tie_rule": "leader",
    "team_payment": "team_ledger",
    "four_player_deal": "5+8",
}


def test_a_new_session_is_created_from_the_form(client_in, user):
    response = client_in.post(reverse("hanafuda:session_create"), NEW)
    session = Session.objects.get()
    assert response.status_code == 302 and response.url == reverse("hanafuda:session_detail", args=[session.pk])
    assert session.sides == ["A", "B", "C"] and session.first_dealer == 1 and session.owner == user
    assert session.rules().rounds == 12
    page = client_in.get(response.url).content.decode()
    assert "Enter round 1" in page and "dealer" in page


def test_a_teams_session_names_its_teams_after_the_players(client_in):
    data = {
        **NEW,
        "kind": "two_teams",
        "team_a_1": "P1",
        "team_a_2": "P3",
        "team_b_1": "P2",
        "team_b_2": "P4",
        "rounds": "6",
        "first_dealer": "0",
        "team_payment": "each_player",
    }
    client_in.post(reverse("hanafuda:session_create"), data)
    session = Session.objects.get()
    assert session.sides == ["P1・P3", "P2・P4"] and session.team_members == [["P1", "P3"], ["P2", "P4"]]
    assert session.rules().team_payment == "each_player"


@pytest.mark.parametrize(
    "change, field, message",
    [
        ({"player_2": ""}, "player_2", "Enter the name"),
        ({"player_3": "A"}, "player_3", "same name"),
        ({"rounds": "5"}, "rounds", "Select a valid choice"),
        (
            {
                "kind": "two_teams",
                "team_a_1": "a",
                "team_a_2": "b",
                "team_b_1": "c",
                "team_b_2": "d",
                "first_dealer": "2",
            },
            "first_dealer",
            "team A or team B",
        ),
        ({"payment_cap": "0"}, "payment_cap", "greater than or equal to 1"),
        # Refinements of the Storm rule without the rule they refine would be silently ignored.
        ({"sun_rule": "on"}, "sun_rule", "only with the Storm rule"),
        ({"storm": "block_cards", "sun_timing": "after_storm_card"}, "sun_timing", "only when the Sun rule is on"),
        ({"storm": "banquets", "storm_insta_win": "blocked_when_formed"}, "storm_insta_win", "only under Storm rule A"),
    ],
)
def test_a_bad_session_form_names_the_field_and_saves_nothing(client_in, change, field, message):
    response = client_in.post(reverse("hanafuda:session_create"), {**NEW, **change})
    assert response.status_code == 200
    assert message in " ".join(response.context["form"].errors.get(field, [])), response.context["form"].errors
    assert not Session.objects.exists()
    # Named at the top of the page too, with a link to the field (the rules are far below).
    top = response.content.decode().split('class="form-error"', 1)[1].split("</div>", 1)[0]
    assert f'href="#id_{field}"' in top


def test_a_round_is_entered_on_the_grid_with_the_remaining_cards_shortcut(client_in, user):
    s = new_session(user)
    page = client_in.get(reverse("hanafuda:round_entry", args=[s.pk]))
    html = page.content.decode()
    assert html.count('class="hcard') == 48 and 'name="c113"' in html and "hanafuda-grid-data" in html
    # Side 2 gets everything not tapped.
    data = grid_post([ROUND_A[0], ROUND_A[1], []], 1, rest="2")
    response = client_in.post(reverse("hanafuda:round_entry", args=[s.pk]), data)
    assert response.status_code == 302
    assert Round.objects.get().captures == ROUND_A and Round.objects.get().entered_by == user
    detail = client_in.get(response.url).content.decode()
    result, _ = engine_game([ROUND_A], s.rules())
    assert "Next dealer" in detail and f"<strong>{s.sides[result[0].next_dealer]}</strong>" in detail
    assert "Three Brights" in detail and "Large Birds" in detail


def test_a_wrong_round_names_the_problem_keeps_the_taps_and_saves_nothing(client_in, user):
    s = new_session(user)
    data = grid_post([ROUND_A[0][:-2], ROUND_A[1], ROUND_A[2]], 1)
    response = client_in.post(reverse("hanafuda:round_entry", args=[s.pk]), data)
    html = response.content.decode()
    assert response.status_code == 200 and "Nothing was saved" in html
    assert "2 card(s) are not given to any side" in html and "Paulownia chaff 2" in html
    assert response.context["form"]["c10"].value() == "0"
    assert not Round.objects.exists()


def test_an_insta_win_round_is_shown_as_such(client_in, user):
    s = new_session(user)
    response = client_in.post(reverse("hanafuda:round_entry", args=[s.pk]), grid_post(INSTA, 1), follow=True)
    html = response.content.decode()
    assert "Insta-win" in html and "Seven Red Ribbons" in html and "二郎" in html


def test_a_double_submitted_round_is_saved_once(client_in, user):
    s = new_session(user)
    url = reverse("hanafuda:round_entry", args=[s.pk])
    client_in.post(url, grid_post(ROUND_A, 1))
    response = client_in.post(url, grid_post(ROUND_B, 1), follow=True)
    assert Round.objects.count() == 1 and Round.objects.get().captures == ROUND_A
    assert "Round 1 was saved already" in response.content.decode()


def test_a_correction_changes_the_round_and_keeps_the_old_cards(client_in, user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    services.record_round(s, 2, ROUND_B)
    url = reverse("hanafuda:round_detail", args=[s.pk, 1])
    assert client_in.get(url).context["form"]["c10"].value() == "0"
    corrected = [months(2, 4, 11), months(1, 3, 8, 12), months(5, 6, 7, 9, 10)]
    response = client_in.post(url, grid_post(corrected, 1))
    assert response.status_code == 302
    assert Round.objects.get(number=1).captures == corrected
    history = client_in.get(reverse("hanafuda:history", args=[s.pk])).content.decode()
    assert "corrected" in history and "＋ Pine (all 4)" in history
    _, settlement = engine_game([corrected, ROUND_B], s.rules())
    page = client_in.get(reverse("hanafuda:settlement", args=[s.pk]))
    assert dict(page.context["totals"]) == {s.sides[u]: t for u, t in settlement.totals.items()}
    assert RoundRevision.objects.get().old_captures == ROUND_A


def test_a_correction_that_changes_nothing_says_so_and_logs_nothing(client_in, user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    url = reverse("hanafuda:round_detail", args=[s.pk, 1])
    base = client_in.get(url).context["form"].initial["base"]
    response = client_in.post(url, {**grid_post(ROUND_A, 1), "base": base}, follow=True)
    assert "Round 1: nothing was changed." in response.content.decode()
    assert not RoundRevision.objects.exists()


def test_a_bad_correction_saves_nothing(client_in, user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    response = client_in.post(
        reverse("hanafuda:round_detail", args=[s.pk, 1]),
        grid_post([ROUND_A[0] + [20], [c for c in ROUND_A[1] if c != 20], ROUND_A[2]], 1),
    )
    assert response.status_code == 200 and "Nothing was saved" in response.content.decode()
    assert Round.objects.get().captures == ROUND_A and not RoundRevision.objects.exists()


def test_undo_by_post_only(client_in, user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    url = reverse("hanafuda:round_undo", args=[s.pk])
    assert client_in.get(url).status_code == 302 and Round.objects.count() == 1
    response = client_in.post(url, follow=True)
    assert not Round.objects.exists() and "Round 1 was taken back" in response.content.decode()
    assert RoundRevision.objects.get().action == "undone"


def test_another_users_session_is_not_found_even_by_post(client, user, django_user_model):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    client.force_login(django_user_model.objects.create_user("other"))
    for name, args in [
        ("session_detail", [s.pk]),
        ("round_entry", [s.pk]),
        ("round_detail", [s.pk, 1]),
        ("round_undo", [s.pk]),
        ("settlement", [s.pk]),
        ("session_xlsx", [s.pk]),
    ]:
        assert client.get(reverse(f"hanafuda:{name}", args=args)).status_code == 404
    assert client.post(reverse("hanafuda:round_undo", args=[s.pk])).status_code == 404
    assert client.post(reverse("hanafuda:round_detail", args=[s.pk, 1]), grid_post(ROUND_B, 1)).status_code == 404
    assert Round.objects.get().captures == ROUND_A
    assert s.title not in client.get(reverse("hanafuda:session_list")).content.decode()


def test_an_unknown_round_is_not_found(client_in, user):
    s = new_session(user)
    assert client_in.get(reverse("hanafuda:round_detail", args=[s.pk, 1])).status_code == 404


def test_pages_in_japanese_by_default(client, user):
    client.force_login(user)
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    with translation.override("ja"):
        for url in (
            reverse("hanafuda:session_list"),
            reverse("hanafuda:session_create"),
            reverse("hanafuda:session_detail", args=[s.pk]),
            reverse("hanafuda:round_entry", args=[s.pk]),
            reverse("hanafuda:round_detail", args=[s.pk, 1]),
            reverse("hanafuda:history", args=[s.pk]),
            reverse("hanafuda:settlement", args=[s.pk]),
        ):
            response = client.get(url)
            assert response.status_code == 200, url
    assert "松に鶴" in client.get(reverse("hanafuda:round_entry", args=[s.pk])).content.decode()


def test_the_session_page_has_a_bounded_number_of_queries(client_in, user, django_assert_max_num_queries):
    s = new_session(user)
    for n, piles in enumerate([ROUND_A, ROUND_B, INSTA], start=1):
        services.record_round(s, n, piles)
    with django_assert_max_num_queries(8):
        assert client_in.get(reverse("hanafuda:session_detail", args=[s.pk])).status_code == 200


def test_a_correction_made_on_a_stale_page_is_refused(client_in, user):
    s = new_session(user)
    services.record_round(s, 1, ROUND_A)
    url = reverse("hanafuda:round_detail", args=[s.pk, 1])
    base = client_in.get(url).context["form"]["base"].value()
    assert base == services.captures_token(ROUND_A)
    corrected = [months(2, 4, 11), months(1, 3, 8, 12), months(5, 6, 7, 9, 10)]
    services.correct_round(s, 1, corrected)  # someone else, meanwhile
    response = client_in.post(url, {**grid_post(ROUND_B, 1), "base": base})
    assert response.status_code == 200 and "changed by someone else" in response.content.decode()
    assert Round.objects.get().captures == corrected


def test_a_teams_session_is_entered_and_settled_per_player(client_in, user):
    options = Options(players=Players.TWO_TEAMS, rounds=3, team_payment=TeamPayment.EACH_PLAYER)
    s = new_session(user, teams=True, options=options)
    html = client_in.get(reverse("hanafuda:round_entry", args=[s.pk])).content.decode()
    assert 'data-side="1"' in html and 'data-side="2"' not in html
    piles = [months(1, 2, 3, 8, 12), months(4, 5, 6, 7, 9, 10, 11)]
    response = client_in.post(reverse("hanafuda:round_entry", args=[s.pk]), grid_post([piles[0], []], 1, rest="1"))
    assert response.status_code == 302
    page = client_in.get(reverse("hanafuda:settlement", args=[s.pk]))
    _, settlement = engine_game([piles], s.rules(), teams={0: ("甲", "丙"), 1: ("乙", "丁")})
    assert dict(page.context["totals"]) == dict(settlement.totals) and len(settlement.totals) == 4


def test_the_grid_shows_the_japanese_card_names_with_the_english_ones_in_english(client_in, user):
    s = new_session(user)
    html = client_in.get(reverse("hanafuda:round_entry", args=[s.pk])).content.decode()
    assert '<span class="name" lang="ja">柳に小野道風</span>' in html and "Swallow" in html


def test_the_drawn_cards_decide_the_first_dealer(client_in):
    # Player 3 drew the earliest month (musashino-bana.md l.12): the Pine chaff beats the Cherry and the Plum.
    data = {**NEW, "first_dealer": "0", "draw_player_1": "30", "draw_player_2": "21", "draw_player_3": "13"}
    response = client_in.post(reverse("hanafuda:session_create"), data, follow=True)
    assert Session.objects.get().first_dealer == 2
    assert "C drew the earliest card and deals first" in response.content.decode()


@pytest.mark.parametrize(
    "draws, field, message",
    [
        ({"draw_player_1": "30"}, "draw_player_2", "every player drew"),
        ({"draw_player_1": "30", "draw_player_2": "30", "draw_player_3": "10"}, "draw_player_3", "same card"),
    ],
)
def test_incomplete_or_impossible_draws_are_refused(client_in, draws, field, message):
    response = client_in.post(reverse("hanafuda:session_create"), {**NEW, **draws})
    assert message in " ".join(response.context["form"].errors.get(field, []))
    assert not Session.objects.exists()


def test_teams_draw_for_the_first_dealer_too(client_in):
    data = {
        **NEW,
        "kind": "two_teams",
        "team_a_1": "P1",
        "team_a_2": "P3",
        "team_b_1": "P2",
        "team_b_2": "P4",
        "draw_team_a_1": "40",
        "draw_team_a_2": "52",
        "draw_team_b_1": "41",
        "draw_team_b_2": "120",
    }
    client_in.post(reverse("hanafuda:session_create"), data)
    assert Session.objects.get().first_dealer == 0  # 40 (Cuckoo) outranks 41 in April


@pytest.mark.parametrize(
    "data",
    [
        {"number": "abc"},
        {"number": "0"},
        {"number": "1", "c10": "5"},
        {"number": "1", "rest": "9"},
        {"number": "1", "c10": "x" * 500},
        {},
        {"number": "2", "rest": "0"},
        {"number": "1", "base": "x" * 100},
    ],
)
def test_garbage_round_posts_are_form_errors_never_500(client_in, user, data):
    s = new_session(user)
    response = client_in.post(reverse("hanafuda:round_entry", args=[s.pk]), data)
    assert response.status_code == 200 and "Nothing was saved" in response.content.decode()
    assert not Round.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"kind": "four"},
        {"rounds": "x"},
        {"storm": "hurricane"},
        {"title": ""},
        {"any_card_of_month": ["three_red_flowers"]},
        {"insta_win_value": "-1"},
    ],
)
def test_garbage_session_posts_are_form_errors_never_500(client_in, change):
    response = client_in.post(reverse("hanafuda:session_create"), {**NEW, **change})
    assert response.status_code == 200 and response.context["form"].errors
    assert not Session.objects.exists()


def test_back_and_send_the_new_session_form_again_creates_one_session(client_in):
    form = client_in.get(reverse("hanafuda:session_create"))
    key = form.context["creation_key"]
    assert f'name="creation_key" value="{key}"' in form.content.decode()
    first = client_in.post(reverse("hanafuda:session_create"), {**NEW, "creation_key": key})
    again = client_in.post(reverse("hanafuda:session_create"), {**NEW, "creation_key": key})
    assert Session.objects.count() == 1
    assert again.status_code == 302 and again.url == first.url
    client_in.post(
        reverse("hanafuda:session_create"),
        {**NEW, "creation_key": client_in.get(reverse("hanafuda:session_create")).context["creation_key"]},
    )
    assert Session.objects.count() == 2  # a new form is a new session


def test_the_any_card_of_the_month_choices_follow_the_page_language(client_in):
    readable = [d for d in DEKIYAKU if d.code in MONTH_READABLE]
    page = client_in.get(reverse("hanafuda:session_create")).content.decode()
    assert all(f"{d.name_en} {d.name_ja}" in page for d in readable)


def test_team_choices_are_kept_for_three_players_and_left_out_of_the_summary(client_in):
    """The team choices set at a table of three are kept as chosen (issue 27: a form keeps what
    it offers), mean nothing there, and the session page's rules summary leaves them out."""
    client_in.post(
        reverse("hanafuda:session_create"), {**NEW, "team_payment": "each_player", "four_player_deal": "6+0"}
    )
    session = Session.objects.get()
    rules = session.rules()
    assert rules.team_payment.value == "each_player"
    assert rules.four_player_deal.value == "6+0"
    plain = dataclasses.replace(
        rules, team_payment=DEFAULT_OPTIONS.team_payment, four_player_deal=DEFAULT_OPTIONS.four_player_deal
    )
    assert rules_summary(rules) == rules_summary(plain)


def test_the_rules_summary_lists_the_sun_rule_before_its_timing():
    with translation.override("en"):
        lines = rules_summary(Options(storm=Storm.A, sun_rule=True, sun_timing=SunTiming.CRANE_HOLDER_ONLY))
    sun = lines.index("Sun rule: on (an opponent who takes the Crane cancels the Rain man or the Lightning)")
    assert lines[sun + 1].startswith("Sun rule timing")
