"""The dispute helper (判定表) on the court link and the recorders' screen: the verdict
from the touch matrix, logging a dispute, and the limit of three じゃんけん decisions."""

import itertools
import re

import pytest
from django.urls import reverse
from django.utils import translation

from common.errors import UserError
from judging import disputes, services
from judging.engine import rules
from judging.models import Dispute, HistoryEntry
from tournament.models import Match

STATES = [s.value for s in rules.TouchState]
RPS_PAIRS = [(a, b) for (a, b), verdict in rules.TOUCH_MATRIX.items() if verdict is rules.Verdict.RPS]


def tr(text):
    with translation.override("ja"):
        return translation.gettext(text)


@pytest.fixture
def match(day):
    return Match.objects.filter(event=day).select_related("court", "team_a", "team_b").order_by("match_number").first()


def dispute_url(match):
    return reverse("judging:court_dispute", args=[match.court.token, match.match_number])


def entry_url(match):
    return reverse("judging:court_entry", args=[match.court.token, match.match_number])


def verdict_text(page):
    start = page.index('class="verdict-text"')
    return page[page.index(">", start) + 1 : page.index("</div>", start)].strip()


def test_the_matrix_covers_all_sixteen_combinations():
    assert len(RPS_PAIRS) == 5
    assert set(rules.TOUCH_MATRIX) == {(rules.TouchState(a), rules.TouchState(b)) for a in STATES for b in STATES}


@pytest.mark.parametrize("state_a, state_b", list(itertools.product(STATES, STATES)))
def test_the_page_shows_the_verdict_of_the_matrix_for_every_combination(client, match, state_a, state_b):
    expected = rules.TOUCH_MATRIX[(rules.TouchState(state_a), rules.TouchState(state_b))]
    response = client.get(dispute_url(match), {"state_a": state_a, "state_b": state_b})
    assert response.status_code == 200
    assert response.context["verdict"] is expected
    shown = {
        rules.Verdict.A: match.team_a.name,
        rules.Verdict.B: match.team_b.name,
        rules.Verdict.RPS: tr("rock-paper-scissors"),
        rules.Verdict.FIRST_TO_TOUCH: tr("The first team to touch the correct card"),
    }[expected]
    assert verdict_text(response.content.decode()) == shown
    assert not Dispute.objects.exists()  # looking is not logging


def test_without_states_the_page_shows_no_verdict(client, match):
    response = client.get(dispute_url(match))
    assert response.status_code == 200 and response.context["verdict"] is None
    assert '<div class="verdict card" id="verdict" aria-live="polite" hidden>' in response.content.decode()


def test_posting_a_verdict_logs_a_dispute_and_a_history_row(client, match):
    response = client.post(dispute_url(match), {"state_a": "correct_only", "state_b": "both"}, follow=True)
    assert response.status_code == 200
    dispute = Dispute.objects.get(match=match)
    assert (dispute.state_a, dispute.state_b, dispute.verdict, dispute.rps_winner) == ("correct_only", "both", "A", "")
    assert (dispute.underneath, dispute.settlement, dispute.taken_by) == ("", "table", "A")
    assert dispute.court == match.court and dispute.user is None
    event = HistoryEntry.objects.get(match=match)
    assert (event.action, event.court, event.sheet) == (HistoryEntry.Action.DISPUTE, match.court, None)
    assert "correct_only" in event.note and "both" in event.note
    assert [m.level_tag for m in response.context["messages"]] == ["success"]
    assert list(response.context["disputes"]) == [dispute]


def test_a_rps_verdict_is_logged_with_its_winner(client, match):
    client.post(dispute_url(match), {"state_a": "both", "state_b": "both", "rps_winner": "B"})
    dispute = Dispute.objects.get(match=match)
    assert (dispute.verdict, dispute.rps_winner) == ("rps", "B")
    assert HistoryEntry.objects.get(match=match).note.endswith("rps B")


def test_a_winner_given_for_a_verdict_that_is_not_rps_is_dropped(client, match):
    client.post(dispute_url(match), {"state_a": "wrong_only", "state_b": "neither", "rps_winner": "A"})
    dispute = Dispute.objects.get(match=match)
    assert (dispute.verdict, dispute.rps_winner) == ("B", "")


@pytest.mark.parametrize("state_a, state_b", RPS_PAIRS)
def test_a_rps_verdict_without_a_winner_is_refused_and_nothing_is_logged(client, match, state_a, state_b):
    response = client.post(dispute_url(match), {"state_a": state_a, "state_b": state_b, "rps_winner": ""})
    assert response.status_code == 200
    assert tr("Enter who won the rock-paper-scissors.") in response.context["form"].non_field_errors()
    assert not Dispute.objects.exists() and not HistoryEntry.objects.exists()


LIMIT_ADVICE = (
    "This game already had three rock-paper-scissors decisions, the most the rules allow: no more rock-paper-scissors. "
    "The referee raises a hand; the referee leader decides who takes the card. Enter that decision."
)


def test_after_three_rps_decisions_a_fourth_needs_the_referee_leaders_decision(client, match):
    for state_a, state_b in RPS_PAIRS[:3]:
        response = client.post(
            dispute_url(match), {"state_a": state_a, "state_b": state_b, "rps_winner": "A"}, follow=True
        )
        assert not response.context["form"].non_field_errors()
    assert Dispute.objects.filter(match=match, verdict="rps").count() == 3
    assert response.context["rps_count"] == 3
    limit = tr("The limit is reached.")
    assert limit in response.content.decode()
    # Another kind of verdict is still logged.
    client.post(dispute_url(match), {"state_a": "correct_only", "state_b": "neither"})
    # A じゃんけん winner is not enough any more: the advice names what to do.
    response = client.post(dispute_url(match), {"state_a": "both", "state_b": "both", "rps_winner": "B"}, follow=True)
    assert tr(LIMIT_ADVICE) in response.context["form"].non_field_errors()
    assert Dispute.objects.filter(match=match).count() == 4
    page = client.get(dispute_url(match)).content.decode()
    assert limit in page and '<p id="rps-count" class="error">' in page
    # The page says so before the tap, as soon as the table says じゃんけん.
    response = client.get(dispute_url(match), {"underneath": "none", "state_a": "both", "state_b": "both"})
    assert response.context["ruling"].settlement is rules.Settlement.REFEREE
    page = response.content.decode()
    assert (
        '<p class="error" id="note-limit">' in page
        and '<div class="field choice-row" id="referee-row" role="radiogroup"' in page
    )
    assert tr("The referee leader decides") in verdict_text(page)
    # Recorded as the referee's decision; it is not a じゃんけん.
    client.post(dispute_url(match), {"underneath": "none", "state_a": "both", "state_b": "both", "referee_choice": "B"})
    dispute = Dispute.objects.latest("pk")
    assert (dispute.verdict, dispute.settlement, dispute.taken_by, dispute.rps_winner) == ("rps", "referee", "B", "")
    assert disputes.rps_logged(match) == 3
    assert HistoryEntry.objects.filter(match=match).latest("pk").note == "both / both → rps, limit reached: referee B"


def test_below_the_limit_there_is_no_warning(client, match):
    client.post(dispute_url(match), {"state_a": "both", "state_b": "both", "rps_winner": "A"})
    response = client.get(dispute_url(match))
    assert response.context["rps_count"] == 1
    assert tr("The limit is reached.") not in response.content.decode()


def test_the_limit_is_counted_per_match(client, day, match):
    other = Match.objects.filter(event=day, court=match.court).exclude(pk=match.pk).order_by("match_number").first()
    counts = [
        disputes.log_dispute(match, "both", "both", rps_winner="A", court=match.court).rps_count for _ in range(3)
    ]
    assert counts == [1, 2, 3]
    client.post(dispute_url(other), {"state_a": "both", "state_b": "both", "rps_winner": "A"})
    assert Dispute.objects.filter(match=other).count() == 1


def test_the_entry_page_shows_the_number_of_logged_rps_decisions(client, match):
    response = client.get(entry_url(match))
    assert response.context["rps_logged"] == 0
    disputes.log_dispute(match, "both", "both", rps_winner="A", court=match.court)
    disputes.log_dispute(match, "correct_only", "correct_only", rps_winner="B", court=match.court)
    disputes.log_dispute(match, "correct_only", "neither", court=match.court)  # not a じゃんけん
    response = client.get(entry_url(match))
    assert response.context["rps_logged"] == 2
    with translation.override("ja"):
        text = translation.ngettext(
            "%(n)s rock-paper-scissors decision logged in this game.",
            "%(n)s rock-paper-scissors decisions logged in this game (3 at most).",
            2,
        ) % {"n": 2}
    page = response.content.decode()
    assert text in page
    disputes.log_dispute(match, "wrong_only", "wrong_only", rps_winner="A", court=match.court)
    page = client.get(entry_url(match)).content.decode()
    assert '<span class="small error">' in page  # the warning at the limit


def test_a_recorder_logs_a_dispute_on_the_recorders_screen(client, day, match, django_user_model):
    recorder = django_user_model.objects.create_user("recorder")
    day.recorders.add(recorder)
    client.force_login(recorder)
    url = reverse("judging:organiser_dispute", args=[day.slug, match.match_number])
    assert (
        client.get(url, {"state_a": "neither", "state_b": "neither"}).context["verdict"] is rules.Verdict.FIRST_TO_TOUCH
    )
    client.post(url, {"state_a": "neither", "state_b": "wrong_only"})
    dispute = Dispute.objects.get(match=match)
    assert (dispute.verdict, dispute.user, dispute.court) == ("A", recorder, None)
    assert HistoryEntry.objects.get(match=match).user == recorder


def test_the_dispute_helper_is_refused_to_a_stranger_and_to_another_court(client, day, match, django_user_model):
    client.force_login(django_user_model.objects.create_user("stranger"))
    url = reverse("judging:organiser_dispute", args=[day.slug, match.match_number])
    assert client.get(url).status_code == 403
    assert client.post(url, {"state_a": "both", "state_b": "both", "rps_winner": "A"}).status_code == 403
    other_court = day.courts.exclude(pk=match.court_id).first()
    foreign = reverse("judging:court_dispute", args=[other_court.token, match.match_number])
    assert client.post(foreign, {"state_a": "both", "state_b": "both", "rps_winner": "A"}).status_code == 404
    assert not Dispute.objects.exists()


def log_form_data(client, match, state_a, state_b, rps_winner=""):
    """What the page's log form posts: its hidden inputs, plus the じゃんけん winner tapped."""
    page = client.get(dispute_url(match), {"state_a": state_a, "state_b": state_b}).content.decode()
    form = re.search(r'<form method="post" class="card" id="log-form"[^>]*>(.*?)</form>', page, re.S).group(1)
    data = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    assert (data["state_a"], data["state_b"]) == (state_a, state_b)
    return {**data, "rps_winner": rps_winner}


def test_the_same_dispute_form_posted_twice_logs_one_dispute(client, match):
    data = log_form_data(client, match, "both", "both", rps_winner="A")
    client.post(dispute_url(match), data)
    client.post(dispute_url(match), data)  # the tablet never saw the first answer
    assert Dispute.objects.filter(match=match).count() == 1
    assert HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.DISPUTE).count() == 1


def test_two_disputes_with_the_same_touches_logged_from_two_pages_both_count(client, match):
    first = log_form_data(client, match, "both", "both", rps_winner="A")
    second = log_form_data(client, match, "both", "both", rps_winner="B")
    client.post(dispute_url(match), first)
    client.post(dispute_url(match), second)
    assert list(Dispute.objects.filter(match=match).values_list("rps_winner", flat=True)) == ["A", "B"]


# --- the whole touch rule: a hand underneath first, first-to-touch names a team ------------


@pytest.mark.parametrize("side", ["A", "B"])
def test_a_hand_underneath_settles_the_card_without_rps_even_when_the_table_says_rps(client, match, side):
    response = client.get(
        dispute_url(match), {"underneath": side, "state_a": "correct_only", "state_b": "correct_only"}
    )
    ruling = response.context["ruling"]
    assert (ruling.verdict, ruling.settlement) == (rules.Verdict(side), rules.Settlement.UNDERNEATH)
    page = response.content.decode()
    assert verdict_text(page) == (match.team_a if side == "A" else match.team_b).name
    assert '<p class="muted" id="note-underneath">' in page and 'id="rps-row" hidden' in page
    client.post(dispute_url(match), {"underneath": side, "state_a": "correct_only", "state_b": "correct_only"})
    dispute = Dispute.objects.get(match=match)
    assert (dispute.underneath, dispute.state_a, dispute.state_b) == (side, "", "")
    assert (dispute.verdict, dispute.settlement, dispute.taken_by, dispute.rps_winner) == (side, "underneath", side, "")
    assert disputes.rps_logged(match) == 0
    assert HistoryEntry.objects.get(match=match).note == f"underneath {side} → {side}"


def test_a_hand_underneath_is_settled_even_after_three_rps(client, match):
    for _ in range(3):
        disputes.log_dispute(match, "both", "both", rps_winner="A", court=match.court)
    logged = disputes.log_dispute(match, underneath="B", court=match.court)
    assert (logged.taken_by, logged.settlement, logged.rps_count) == ("B", "underneath", 3)


def test_no_hand_underneath_without_touches_names_the_missing_fields(client, match):
    response = client.post(dispute_url(match), {"underneath": "none"})
    form = response.context["form"]
    message = tr("Tap how this team touched the card, or whose hand was underneath.")
    assert form.errors["state_a"] == [message] and form.errors["state_b"] == [message]
    assert not Dispute.objects.exists()
    with pytest.raises(UserError):
        disputes.log_dispute(match, court=match.court)


def test_first_to_touch_records_which_team(client, match):
    response = client.post(dispute_url(match), {"underneath": "none", "state_a": "neither", "state_b": "neither"})
    assert tr("Enter which team touched the correct card first.") in response.context["form"].non_field_errors()
    assert not Dispute.objects.exists()
    client.post(
        dispute_url(match), {"underneath": "none", "state_a": "neither", "state_b": "neither", "first_team": "B"}
    )
    dispute = Dispute.objects.get(match=match)
    assert (dispute.verdict, dispute.settlement, dispute.taken_by) == ("first_to_touch", "first_to_touch", "B")
    page = client.get(dispute_url(match)).content.decode()
    table = page[page.index('id="logged-disputes"') :]
    assert match.team_b.name in table[: table.index("</table>")]


def test_the_helper_shows_the_raise_hand_cases_and_the_last_two_cards(client, match):
    page = client.get(dispute_url(match)).content.decode()
    for text in (
        "When the referee raises a hand",
        "Nobody touches the card after it was read twice: raise the hand at once and lower it when the card is taken.",
        "The last two cards",
        "Was one hand underneath the other on the card?",
    ):
        assert tr(text) in page


# --- "じゃんけん used" on the result form comes from the helper's log ----------------------


def rps_used_initial(response):
    return response.context["form"]["rps_used"].value()


def rps_source(page):
    start = page.index('id="rps-source"')
    return page[page.index(">", start) + 1 : page.index("</p>", start)]


def test_the_result_form_prefills_rps_used_from_the_helper_and_says_so(client, match):
    response = client.get(entry_url(match))
    assert rps_used_initial(response) == 0
    assert rps_source(response.content.decode()) == tr(
        "No rock-paper-scissors logged in the touch helper for this game."
    )
    for _ in range(3):
        disputes.log_dispute(match, "both", "both", rps_winner="A", court=match.court)
    disputes.log_dispute(match, underneath="A", court=match.court)  # not a じゃんけん
    disputes.log_dispute(match, "both", "both", referee_choice="B", court=match.court)  # the referee's, not one
    response = client.get(entry_url(match))
    assert rps_used_initial(response) == 3
    page = response.content.decode()
    assert 'id="id_rps_used_3" checked' in page
    with translation.override("ja"):
        expected = translation.gettext(
            "Filled in from the touch helper's log: %(n)s rock-paper-scissors in this game."
        ) % {"n": 3}
    assert rps_source(page) == expected


def test_a_saved_version_keeps_its_number_and_the_form_names_a_difference(client, match):
    disputes.log_dispute(match, "both", "both", rps_winner="A", court=match.court)
    services.submit_sheet(
        match,
        rules.SheetValues(30, 26, 0, rules.JokerHolder.A, None, 0),
        base_version=0,
        submission_key="k1",
        court=match.court,
    )
    response = client.get(entry_url(match))
    assert rps_used_initial(response) == 0
    with translation.override("ja"):
        expected = translation.gettext("Saved version: %(saved)s; the touch helper logged %(n)s. Check the number.") % {
            "saved": 0,
            "n": 1,
        }
    assert rps_source(response.content.decode()) == expected
