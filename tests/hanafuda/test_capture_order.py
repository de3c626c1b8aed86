"""House rules that depend on when cards were captured (M9(b), M10(b), musashino-bana.md s.2.4): each round
is entered capture by capture, the order is stored with the round and scored by the engine."""

import re
from io import BytesIO

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from hanafuda import services
from hanafuda.engine.dekiyaku import DEKIYAKU_BY_CODE
from hanafuda.engine.options import Options, Storm, StormOnInstaWin, SunTiming
from hanafuda.engine.scoring import score_round
from hanafuda.models import Round, RoundRevision
from tests.hanafuda.helpers import INSTA, full_round, months, new_session
from tests.hanafuda.test_views import NEW

pytestmark = pytest.mark.usefixtures("english")

SUN_AFTER = Options(storm=Storm.A, sun_rule=True, sun_timing=SunTiming.AFTER_STORM_CARD)
BLOCK_AT_FORMATION = Options(storm=Storm.A, storm_insta_win=StormOnInstaWin.BLOCKED_WHEN_FORMED)

# MB-4 as a complete round: 一郎 (seat 0) holds both storm cards, 二郎 (seat 1) the Crane with
# takasago, moon and flower banquet, cuckoo moon and butterflies, 三郎 (seat 2) the rest.
MB4 = full_round([110, 113, *months(10, 12)], months(1, 3, 4, 6, 8, 9), [], rest=2)
REST = sorted(MB4[2])  # 三郎's cards, captured in month order after the others


def tapped(*captures):
    return [c for cards in captures for c in cards]


LATER = tapped(months(3, 4, 6, 8, 9), months(10, 12), REST)
CRANE_FIRST = tapped([10, 11], [12, 13], [110, 113], LATER)
STORM_FIRST = tapped([110, 113], [10, 11], [12, 13], LATER)


def engine(order_taps, options=SUN_AFTER, piles=MB4, dealer=0):
    seat = {c: s for s, pile in enumerate(piles) for c in pile}
    events = []
    for c in order_taps:
        if events and events[-1][0] == seat[c] and events[-1][1][0] // 10 == c // 10:
            events[-1][1].append(c)
        else:
            events.append((seat[c], [c]))
    return score_round(dict(enumerate(piles)), options, dealer=dealer, capture_order=events)


def test_sessions_with_rules_that_need_the_order_can_be_created(user):
    for options in (SUN_AFTER, BLOCK_AT_FORMATION):
        assert new_session(user, options=options).rules().needs_capture_order


@pytest.mark.parametrize("order, storm_stands", [(CRANE_FIRST, True), (STORM_FIRST, False)])
def test_the_order_of_captures_decides_the_sun_rule_M10b(user, order, storm_stands):
    session = new_session(user, options=SUN_AFTER)
    row = services.record_round(session, 1, MB4, tapped=order)
    result = services.session_state(session).rounds[0].result
    assert result.scores == engine(order).scores
    # MB-4: the storm stands when the Crane was taken before the storm cards: A +5, B −2, C −3
    # there; here 二郎's Full moon and Curtain are blocked, so his score drops.
    blocked = engine(CRANE_FIRST).scores[1]
    free = engine(STORM_FIRST).scores[1]
    assert blocked < free
    assert result.scores[1] == (blocked if storm_stands else free)
    assert row.capture_order[0] == ([1, [10, 11, 12, 13]] if order is CRANE_FIRST else [0, [110, 113]])
    assert all(len(cards) in (2, 4) for _seat, cards in row.capture_order)


def test_taps_of_one_side_and_one_month_in_a_row_are_one_capture(user):
    session = new_session(user, options=SUN_AFTER)
    events = services.order_of_captures(session, MB4, CRANE_FIRST)
    assert events[:4] == [[1, [10, 11, 12, 13]], [0, [110, 113]], [1, [30, 31, 32, 33]], [1, [40, 41, 42, 43]]]


@pytest.mark.parametrize(
    "order, message",
    [
        (CRANE_FIRST[1:] + CRANE_FIRST[:1], re.escape("Capture 1 (二郎, ")),
        (CRANE_FIRST[:-1], "leaves out"),
        (CRANE_FIRST + [10], "twice"),
        ([999] + CRANE_FIRST, "999 is not a card number"),
        ([1] + CRANE_FIRST, "1 is not a card number"),
        ([], "order they happened"),
    ],
)
def test_a_wrong_order_names_the_problem_and_saves_nothing(user, order, message):
    session = new_session(user, options=SUN_AFTER)
    with pytest.raises(services.RoundError, match=message):
        services.record_round(session, 1, MB4, tapped=order)
    assert not Round.objects.exists()


def test_cards_in_messages_carry_their_number_since_two_cards_may_share_a_name(user):
    session = new_session(user, options=SUN_AFTER)
    with pytest.raises(services.RoundError, match=re.escape("Pine chaff 1 (12), which no side captured")):
        services.order_of_captures(session, [[10, 11], [], []], [10, 11, 12])
    with translation.override("ja"), pytest.raises(services.RoundError, match=re.escape("芒のカス（83）")):
        services.order_of_captures(session, MB4, [c for c in CRANE_FIRST if c != 83])


def test_captures_entered_after_an_insta_win_are_refused_M9b(user):
    session = new_session(user, options=BLOCK_AT_FORMATION)
    ribbons_last = tapped([11, 13], [20, 23], [21, 22], [31, 32], [41, 42], [51, 52], [71, 72], [112, 113], [10, 12])
    with pytest.raises(services.RoundError, match="formed .* with capture 8 and the round stopped"):
        services.record_round(session, 1, INSTA, tapped=ribbons_last)
    ok = tapped([10, 12], [11, 13], [20, 23], [21, 22], [31, 32], [41, 42], [51, 52], [71, 72], [112, 113])
    services.record_round(session, 1, INSTA, tapped=ok)
    result = services.session_state(session).rounds[0].result
    assert result.insta_win is not None and result.insta_win.side == 1 and result.insta_win.capture_index == 8


def test_rules_that_do_not_need_the_order_store_none(user):
    session = new_session(user)
    row = services.record_round(session, 1, MB4, tapped=[10])  # ignored: the order does not matter
    assert row.capture_order == []


def test_a_correction_of_the_order_alone_is_kept_in_the_history(user):
    session = new_session(user, options=SUN_AFTER)
    row = services.record_round(session, 1, MB4, tapped=CRANE_FIRST)
    token = services.captures_token(row.captures, row.capture_order)
    services.correct_round(session, 1, MB4, tapped=STORM_FIRST, base=token)
    rev = RoundRevision.objects.get()
    assert rev.old_captures == rev.new_captures == MB4
    assert rev.old_order[0] == [1, [10, 11, 12, 13]] and rev.new_order[0] == [0, [110, 113]]
    assert services.session_state(session).rounds[0].result.scores == engine(STORM_FIRST).scores
    with pytest.raises(services.RoundError, match="changed by someone else"):  # the old page's token
        services.correct_round(session, 1, MB4, tapped=CRANE_FIRST, base=token)
    services.undo_last_round(session)
    assert RoundRevision.objects.filter(action="undone").get().old_order[0] == [0, [110, 113]]


# --- the pages ---------------------------------------------------------------------------


def post(piles, number, order, **extra):
    data = {"number": number, "rest": "", "order": " ".join(str(c) for c in order), **extra}
    for seat, pile in enumerate(piles):
        for c in pile:
            data[f"c{c}"] = str(seat)
    return data


def test_the_session_form_accepts_the_rules_and_the_grid_asks_for_the_order(client_in, user):
    response = client_in.post(
        reverse("hanafuda:session_create"),
        {**NEW, "storm": "block_cards", "sun_rule": "on", "sun_timing": "after_storm_card"},
    )
    session = services.sessions_for(user).get()
    assert response.status_code == 302 and session.rules().needs_capture_order
    page = client_in.get(reverse("hanafuda:round_entry", args=[session.pk])).content.decode()
    assert "Enter the captures as they happen." in page and 'name="order"' in page
    assert "Remaining cards" not in page  # the rest would have no place in the order
    plain = new_session(user, title="plain")
    page = client_in.get(reverse("hanafuda:round_entry", args=[plain.pk])).content.decode()
    assert "Enter the captures as they happen." not in page and "Remaining cards" in page


def test_a_round_is_entered_with_its_order_without_javascript(client_in, user):
    session = new_session(user, options=SUN_AFTER)
    url = reverse("hanafuda:round_entry", args=[session.pk])
    response = client_in.post(url, post(MB4, 1, CRANE_FIRST))
    assert response.status_code == 302, response.context["form"].errors
    assert Round.objects.get().capture_order[1] == [0, [110, 113]]
    page = client_in.get(response.url).content.decode()
    assert "Order of captures" in page


@pytest.mark.parametrize("order, message", [("10 11 abc", "card numbers"), ("", "order they happened")])
def test_a_bad_order_on_the_form_names_the_problem_and_saves_nothing(client_in, user, order, message):
    session = new_session(user, options=SUN_AFTER)
    data = post(MB4, 1, [])
    data["order"] = order
    response = client_in.post(reverse("hanafuda:round_entry", args=[session.pk]), data)
    assert response.status_code == 200 and message in response.content.decode()
    assert not Round.objects.exists()


def test_a_correction_page_starts_from_the_stored_order_and_the_history_says_it_changed(client_in, user):
    session = new_session(user, options=SUN_AFTER)
    services.record_round(session, 1, MB4, tapped=CRANE_FIRST)
    url = reverse("hanafuda:round_detail", args=[session.pk, 1])
    form = client_in.get(url).context["form"]
    assert form.initial["order"] == " ".join(str(c) for c in services.tapped_order(Round.objects.get().capture_order))
    response = client_in.post(url, post(MB4, 1, STORM_FIRST, base=form.initial["base"]))
    assert response.status_code == 302
    page = client_in.get(reverse("hanafuda:history", args=[session.pk])).content.decode()
    assert "The order of captures changed from capture 1 on." in page


def test_an_insta_win_the_storm_blocked_does_not_stop_the_round_and_the_message_says_so(user):
    """M9(b): 一郎 holds the Rain man when 二郎 completes Seven Red Ribbons, whose cherry
    ribbon Storm A blocks; the round goes on, so every card must be entered."""
    session = new_session(user, options=BLOCK_AT_FORMATION)
    captures = [[110, 111], [11, 13, 21, 22, 31, 32, 41, 42, 51, 52, 71, 72, 112, 113], []]
    order = tapped([110, 111], [11, 13], [21, 22], [31, 32], [41, 42], [51, 52], [71, 72], [112, 113])
    with pytest.raises(services.RoundError) as refused:
        services.record_round(session, 1, captures, tapped=order)
    message = str(refused.value)
    assert "are not given to any side" in message and "Seven Red Ribbons" in message
    assert "did not stop the round: the Storm rule blocked it" in message and "[" not in message
    assert not Round.objects.exists()


def test_the_round_page_says_what_the_storm_and_the_sun_did(client_in, user):
    session = new_session(user, options=SUN_AFTER)
    services.record_round(session, 1, MB4, tapped=CRANE_FIRST)  # the Crane before the storm cards
    url = reverse("hanafuda:round_detail", args=[session.pk, 1])
    page = client_in.get(url).content.decode()
    assert "Storm: could not use" in page and "Full moon" in page and "Storm: lost" in page
    assert "The Sun rule (the Crane) cancelled" not in page
    services.correct_round(session, 1, MB4, tapped=STORM_FIRST)  # the Crane after: the storm is void
    page = client_in.get(url).content.decode()
    assert "The Sun rule (the Crane) cancelled" in page and "Storm: could not use" not in page


# --- the preview -------------------------------------------------------------------------


def preview(client, session, data):
    return client.post(reverse("hanafuda:round_preview", args=[session.pk]), data)


def test_the_preview_applies_the_storm_and_sun_rules_and_saves_nothing(client_in, user, django_assert_max_num_queries):
    session = new_session(user, options=SUN_AFTER)
    with django_assert_max_num_queries(6):
        answer = preview(client_in, session, post(MB4, 1, CRANE_FIRST)).json()
    expected = engine(CRANE_FIRST).scores
    assert [side["score"] for side in answer["sides"]] == [expected[s] for s in range(3)]
    assert any("Storm: could not use" in line for line in answer["sides"][1]["storm"])
    answer = preview(client_in, session, post(MB4, 1, STORM_FIRST)).json()
    assert answer["sun"] and [side["score"] for side in answer["sides"]][1] == engine(STORM_FIRST).scores[1]
    assert not Round.objects.exists()


def test_the_preview_scores_a_round_half_entered(client_in, user):
    session = new_session(user)  # no order needed: the piles as they stand
    half = [[10, 90, 80, 40, 60, 30], [], [20]]  # MB-4 B's dekiyaku so far; odd months: fine mid-entry
    answer = preview(client_in, session, post(half, 1, [])).json()
    assert "problem" not in answer and answer["sides"][0]["yaku"] and answer["sides"][0]["score"] > 0


def test_the_preview_names_a_problem_and_refuses_strangers(client, client_in, user, django_user_model):
    session = new_session(user, options=BLOCK_AT_FORMATION)
    late = tapped([11, 13], [21, 22], [31, 32], [41, 42], [51, 52], [71, 72], [112, 113], [10, 12])
    piles = [[10, 12], [11, 13, 21, 22, 31, 32, 41, 42, 51, 52, 71, 72, 112, 113], []]
    answer = preview(client_in, session, post(piles, 1, late)).json()
    assert "the round stopped there" in answer["problem"]
    assert preview(client_in, session, {"number": "x"}).status_code == 400
    client.logout()
    assert preview(client, session, post(piles, 1, late)).status_code == 403
    client.force_login(django_user_model.objects.create_user("stranger"))
    assert preview(client, session, post(piles, 1, late)).status_code == 404


def test_the_preview_of_a_complete_round_warns_of_what_saving_would_refuse(client_in, user):
    session = new_session(user, options=SUN_AFTER)
    swapped = CRANE_FIRST[:]
    swapped[1], swapped[4] = swapped[4], swapped[1]  # a pine card after the storm cards: 1-card captures
    answer = preview(client_in, session, post(MB4, 1, swapped)).json()
    assert "Capture 1 (二郎, " in answer["problem"] and "has 1 card(s)" in answer["problem"]
    assert "problem" not in preview(client_in, session, post(MB4, 1, CRANE_FIRST)).json()


def test_the_storm_shows_on_paper_and_in_excel(client_in, user):
    session = new_session(user, options=SUN_AFTER)
    services.record_round(session, 1, MB4, tapped=CRANE_FIRST)  # the storm stands: 二郎 loses the banquets
    lost = engine(CRANE_FIRST).storm[1].lost
    assert lost
    pdf = client_in.get(reverse("hanafuda:score_sheet", args=[session.pk])).content
    text = "".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages)
    assert "嵐で" in text and DEKIYAKU_BY_CODE[lost[0]].name_ja in text
    book = load_workbook(BytesIO(client_in.get(reverse("hanafuda:session_xlsx", args=[session.pk])).content))
    rows = list(book["Rounds"].iter_rows(values_only=True))
    column = rows[0].index("Storm and Sun rules")
    assert "二郎: Storm: lost" in rows[1][column]


def test_the_history_says_from_which_capture_the_order_changed(client_in, user):
    session = new_session(user, options=SUN_AFTER)
    services.record_round(session, 1, MB4, tapped=CRANE_FIRST)
    # Captures 1–2 stay (the pine cards, the storm cards); the cherry and wisteria swap places.
    later = tapped([10, 11], [12, 13], [110, 113], months(4, 3, 6, 8, 9), months(10, 12), REST)
    services.correct_round(session, 1, MB4, tapped=later)
    page = client_in.get(reverse("hanafuda:history", args=[session.pk])).content.decode()
    assert "The order of captures changed from capture 3 on." in page
