"""Resends are exact: a form sent again never makes a silent drop nor a needless version.

The tablet keeps a submission key per form. Sent again with the same values it is the
same version; with other values (a page the browser restored, then corrected) it is a new
submission: a correction when based on the newest version, else the conflict page. Back,
then 保存 with the newest version's values again, makes no new version. Court pages are
never stored by the browser (Cache-Control: no-store).
"""

import pytest
from django.urls import reverse

from judging import services
from judging.engine import rules
from judging.models import RecordingSheet
from tournament.models import Match

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
CORRECTED = rules.SheetValues(29, 27, 0, rules.JokerHolder.A)


@pytest.fixture
def match(day):
    return Match.objects.filter(event=day).select_related("event", "court").order_by("match_number").first()


def versions(match):
    return list(RecordingSheet.objects.filter(match=match).order_by("version").values_list("version", "cards_a"))


def test_the_same_key_with_the_same_values_is_the_version_it_made(match):
    first, created = services.submit_sheet(match, A_WINS, base_version=0, submission_key="k1", court=match.court)
    again, created_again = services.submit_sheet(match, A_WINS, base_version=0, submission_key="k1", court=match.court)
    assert (created, created_again, again.pk) == (True, False, first.pk)
    assert versions(match) == [(1, 30)]


def test_the_same_key_with_other_values_based_on_the_newest_version_is_a_correction_not_a_drop(match):
    services.submit_sheet(match, A_WINS, base_version=0, submission_key="k1", court=match.court)
    sheet, created = services.submit_sheet(match, CORRECTED, base_version=1, submission_key="k1", court=match.court)
    assert created and sheet.version == 2 and (sheet.cards_a, sheet.cards_b) == (29, 27)
    assert versions(match) == [(1, 30), (2, 29)]
    assert RecordingSheet.objects.get(match=match, version=1).submission_key == "k1"  # the key stays with v1


def test_the_same_key_with_other_values_from_a_restored_page_gets_the_conflict_page(client, match):
    url = reverse("judging:court_entry", args=[match.court.token, match.match_number])
    form = {"action": "save", "referee_cards": "0", "joker_holder": "A", "rps_winner": "", "rps_used": "0"}
    form |= {"base_version": "0", "submission_key": "restored"}
    assert client.post(url, {**form, "cards_a": "30", "cards_b": "26"}).status_code == 302
    # The browser's back-forward cache shows the same form again; the referee corrects and saves.
    response = client.post(url, {**form, "cards_a": "29", "cards_b": "27"})
    assert response.status_code == 409
    assert "judging/conflict.html" in [t.name for t in response.templates]
    assert versions(match) == [(1, 30)]  # nothing overwritten, and the referee sees why


def test_back_then_save_with_the_newest_versions_values_makes_no_new_version(match):
    first, _ = services.submit_sheet(match, A_WINS, base_version=0, submission_key="k1", court=match.court)
    again, created = services.submit_sheet(match, A_WINS, base_version=1, submission_key="k2", court=match.court)
    assert not created and again.pk == first.pk
    assert versions(match) == [(1, 30)]


def test_a_rejected_version_sent_again_goes_back_to_the_recorder_as_a_new_version(match, recorder):
    first, _ = services.submit_sheet(match, A_WINS, base_version=0, submission_key="k1", court=match.court)
    services.reject_sheet(first, recorder, "count again")
    sheet, created = services.submit_sheet(match, A_WINS, base_version=1, submission_key="k2", court=match.court)
    assert created and sheet.version == 2
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED


def test_a_walkover_saved_again_after_back_makes_no_new_version_but_a_played_result_does(match):
    first, _ = services.submit_walkover(match, rules.Side.B, base_version=0, submission_key="w1", court=match.court)
    again, created = services.submit_walkover(
        match, rules.Side.B, base_version=1, submission_key="w2", court=match.court
    )
    assert not created and again.pk == first.pk
    played, created = services.submit_sheet(match, A_WINS, base_version=1, submission_key="p1", court=match.court)
    assert created and played.version == 2 and not played.is_walkover


def test_court_pages_are_never_stored_by_the_browser(client, match):
    token = match.court.token
    for url in (
        reverse("judging:court_home", args=[token]),
        reverse("judging:court_entry", args=[token, match.match_number]),
        reverse("judging:court_dispute", args=[token, match.match_number]),
        reverse("judging:court_rules", args=[token]),
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" in response["Cache-Control"], url
