"""The dispute helper (判定表) on the court link and the recorders' screen: the verdict
from the touch matrix, logging a dispute, and the limit of three じゃんけん decisions."""

import itertools
import re

import pytest
from django.urls import reverse
from django.utils import translation

from judging import services
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
        rules.Verdict.RPS: tr("じゃんけん"),
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
    assert tr("Enter who won the じゃんけん.") in response.context["form"].non_field_errors()
    assert not Dispute.objects.exists() and not HistoryEntry.objects.exists()


def test_after_three_rps_decisions_a_fourth_is_refused_and_the_page_warns_at_the_limit(client, match):
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
    response = client.post(dispute_url(match), {"state_a": "both", "state_b": "both", "rps_winner": "B"}, follow=True)
    assert (
        tr("This game already had three じゃんけん decisions, the most the rules allow.")
        in response.context["form"].non_field_errors()
    )
    assert Dispute.objects.filter(match=match, verdict="rps").count() == 3
    assert Dispute.objects.filter(match=match).count() == 4
    assert HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.DISPUTE).count() == 4
    page = client.get(dispute_url(match)).content.decode()
    assert limit in page and '<p class="error">' in page


def test_below_the_limit_there_is_no_warning(client, match):
    client.post(dispute_url(match), {"state_a": "both", "state_b": "both", "rps_winner": "A"})
    response = client.get(dispute_url(match))
    assert response.context["rps_count"] == 1
    assert tr("The limit is reached.") not in response.content.decode()


def test_the_limit_is_counted_per_match(client, day, match):
    other = Match.objects.filter(event=day, court=match.court).exclude(pk=match.pk).order_by("match_number").first()
    counts = [
        services.log_dispute(match, "both", "both", rps_winner="A", court=match.court).rps_count for _ in range(3)
    ]
    assert counts == [1, 2, 3]
    client.post(dispute_url(other), {"state_a": "both", "state_b": "both", "rps_winner": "A"})
    assert Dispute.objects.filter(match=other).count() == 1


def test_the_entry_page_shows_the_number_of_logged_rps_decisions(client, match):
    response = client.get(entry_url(match))
    assert response.context["rps_logged"] == 0
    services.log_dispute(match, "both", "both", rps_winner="A", court=match.court)
    services.log_dispute(match, "correct_only", "correct_only", rps_winner="B", court=match.court)
    services.log_dispute(match, "correct_only", "neither", court=match.court)  # not a じゃんけん
    response = client.get(entry_url(match))
    assert response.context["rps_logged"] == 2
    with translation.override("ja"):
        text = translation.ngettext(
            "%(n)s じゃんけん decision logged in this game.",
            "%(n)s じゃんけん decisions logged in this game (3 at most).",
            2,
        ) % {"n": 2}
    page = response.content.decode()
    assert text in page
    services.log_dispute(match, "wrong_only", "wrong_only", rps_winner="A", court=match.court)
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
