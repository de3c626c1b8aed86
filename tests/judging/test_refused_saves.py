"""Every refused attempt is kept (issue 28, item 7): a second tablet's result for a game another
tablet saved first, a stale page, a refused correction are written into the game's history with
their values, shown on the desk's game page, and a recorder may adopt them."""

import pytest
from django.urls import reverse

from judging import services
from judging.engine import rules
from judging.models import HistoryEntry, RecordingSheet
from tests.judging.test_versions import action_url, first_match, match_url, post_values

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
B_WINS = rules.SheetValues(20, 36, 0, rules.JokerHolder.B)
REFUSED = HistoryEntry.Action.REFUSED


def entry_url(match):
    return reverse("judging:court_entry", args=[match.court.token, match.match_number])


def test_a_second_tablets_values_are_kept_in_the_history(client, day):
    match = first_match(day)
    # Tablet 1 saved offline first; tablet 2 had the page open on version 0 too.
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court, submission_key="t1")
    second = post_values(base_version=0, submission_key="t2", cards_a="20", cards_b="36", joker_holder="B")
    assert client.post(entry_url(match), second).status_code == 409
    assert RecordingSheet.objects.filter(match=match).count() == 1
    kept = HistoryEntry.objects.get(match=match, action=REFUSED)
    assert (kept.values["cards_a"], kept.values["cards_b"], kept.values["joker_holder"]) == (20, 36, "B")
    assert kept.values["base_version"] == 0 and kept.court == match.court and kept.note
    # The tablet sends the same again (its retry): no second line.
    assert client.post(entry_url(match), second).status_code == 409
    assert HistoryEntry.objects.filter(match=match, action=REFUSED).count() == 1


def test_a_refused_stale_save_from_the_desk_is_kept_too(day, recorder):
    match = first_match(day)
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    with pytest.raises(services.Conflict):
        services.submit_sheet(match, B_WINS, base_version=0, user=recorder)
    kept = HistoryEntry.objects.get(match=match, action=REFUSED)
    assert kept.user == recorder and kept.values["cards_b"] == 36


def test_a_refused_correction_of_a_void_game_is_kept(day, organiser):
    match = first_match(day)
    services.void_match(match, organiser, "雨")
    with pytest.raises(services.UserError):
        services.submit_sheet(match, B_WINS, base_version=0, court=match.court)
    assert HistoryEntry.objects.get(match=match, action=REFUSED).values["cards_a"] == 20


def test_an_invalid_sheet_is_a_form_error_not_a_kept_attempt(day):
    match = first_match(day)
    with pytest.raises(services.UserError):
        services.submit_sheet(match, rules.SheetValues(30, 30, 0, rules.JokerHolder.A), base_version=0)
    assert not HistoryEntry.objects.filter(match=match, action=REFUSED).exists()


def test_the_desk_sees_the_refused_values_and_adopts_them(client, day, recorder, second_recorder):
    match = first_match(day)
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court, submission_key="t1")
    client.post(
        entry_url(match), post_values(base_version=0, submission_key="t2", cards_a="20", cards_b="36", joker_holder="B")
    )
    entry = HistoryEntry.objects.get(match=match, action=REFUSED)
    client.force_login(recorder)
    page = client.get(match_url(match)).content.decode()
    assert 'id="refused"' in page and "20 – 36" in page and f'name="entry" value="{entry.pk}"' in page
    answer = client.post(action_url(match, "adopt"), {"entry": entry.pk})
    assert answer.status_code == 302
    newest = services.latest_sheet(match)
    assert (newest.version, newest.cards_a, newest.cards_b, newest.submitted_by) == (2, 20, 36, recorder)
    assert not newest.is_confirmed  # it needs confirming like any version
    note = HistoryEntry.objects.get(match=match, sheet=newest, action=HistoryEntry.Action.SUBMITTED).note
    assert note
    # A line that is not a refused save holds nothing to adopt.
    other = HistoryEntry.objects.filter(match=match).exclude(action=REFUSED).first()
    client.post(action_url(match, "adopt"), {"entry": other.pk})
    assert services.latest_sheet(match).version == 2
    assert client.post(action_url(match, "adopt"), {"entry": "x"}).status_code == 404


def test_the_confirm_queue_says_a_game_has_refused_saves(client, day, recorder):
    match = first_match(day)
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    with pytest.raises(services.Conflict):
        services.submit_sheet(match, B_WINS, base_version=0, court=match.court)
    client.force_login(recorder)
    page = client.get(reverse("judging:confirm_queue", args=[day.slug])).content.decode()
    assert "拒否された保存1件を保管" in page or "1 refused save kept" in page
