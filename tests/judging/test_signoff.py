"""The leaders' sign-off (issue 16, item 4): after the referee saves, each leader confirms the
counts with a tap on the tablet, as they sign the paper sheet; the version records who and
when, the desk sees it, and a later version is a correction that needs a recorder."""

import pytest

# Japanese is the default language: the messages are checked as a referee reads them.
from django.urls import reverse

from judging import services, signoff
from judging.engine import rules
from judging.models import HistoryEntry, RecordingSheet
from tournament.models import Match

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
CORRECTED = rules.SheetValues(29, 27, 0, rules.JokerHolder.A)


@pytest.fixture
def match(day):
    return Match.objects.filter(event=day).select_related("event", "court").order_by("match_number").first()


def saved(match):
    return services.submit_sheet(match, A_WINS, base_version=0, submission_key="k1", court=match.court)[0]


def sign_url(match, version=1):
    return reverse("judging:court_sign", args=[match.court.token, match.match_number, version])


def saved_url(match, version=1):
    return reverse("judging:court_saved", args=[match.court.token, match.match_number, version])


def test_sign_off_is_on_by_default(day):
    assert day.leaders_sign_off is True


def test_both_leaders_sign_and_the_version_records_who_and_when(match):
    sheet = saved(match)
    signoff.sign_off(sheet, rules.Side.A, name="  山田  花子 ", court=match.court)
    signoff.sign_off(sheet, rules.Side.B, court=match.court)
    sheet.refresh_from_db()
    assert sheet.signed_a_at and sheet.signed_b_at and sheet.signed_by_both
    assert (sheet.signed_a_name, sheet.signed_b_name) == ("山田 花子", "")
    notes = list(match.history.filter(action=HistoryEntry.Action.SIGNED).values_list("note", flat=True))
    assert len(notes) == 2 and notes[0].startswith("A ") and notes[0].endswith("山田 花子")


def test_signing_a_side_twice_keeps_the_first_signature(match):
    sheet = saved(match)
    first = signoff.sign_off(sheet, rules.Side.A, name="山田").signed_a_at
    again = signoff.sign_off(sheet, rules.Side.A, name="別人")
    assert (again.signed_a_at, again.signed_a_name) == (first, "山田")
    assert match.history.filter(action=HistoryEntry.Action.SIGNED).count() == 1


def test_a_change_after_sign_off_is_a_correction_that_needs_the_recorder_even_with_auto_confirm(match):
    match.event.auto_confirm = True
    match.event.save()
    sheet = saved(match)
    assert sheet.is_confirmed and not sheet.after_sign_off
    signoff.sign_off(sheet, rules.Side.A)
    correction, created = services.submit_sheet(match, CORRECTED, base_version=1, court=match.court)
    match.refresh_from_db()
    assert created and correction.after_sign_off and not correction.is_confirmed
    assert match.status == Match.Status.SUBMITTED  # waits for a recorder


def test_a_change_before_any_signature_is_an_ordinary_correction(match):
    saved(match)
    correction, _ = services.submit_sheet(match, CORRECTED, base_version=1, court=match.court)
    assert not correction.after_sign_off


def test_only_the_newest_version_is_signed(match):
    sheet = saved(match)
    services.submit_sheet(match, CORRECTED, base_version=1, court=match.court)
    with pytest.raises(services.UserError, match="最新ではありません"):
        signoff.sign_off(sheet, rules.Side.A)


def test_a_walkover_is_not_signed(match):
    walkover, _ = services.submit_walkover(match, rules.Side.B, base_version=0, court=match.court)
    with pytest.raises(services.UserError, match="不戦勝"):
        signoff.sign_off(walkover, rules.Side.A)


def test_a_void_game_is_not_signed(match, organiser):
    sheet = saved(match)
    services.void_match(match, organiser)
    with pytest.raises(services.UserError, match="無効"):
        signoff.sign_off(sheet, rules.Side.A)


def test_with_the_setting_off_nothing_is_asked_nor_flagged(client, match):
    match.event.leaders_sign_off = False
    match.event.save()
    sheet = saved(match)
    with pytest.raises(services.UserError, match="使いません"):
        signoff.sign_off(sheet, rules.Side.A)
    page = client.get(saved_url(match)).content.decode()
    assert sign_url(match) not in page
    RecordingSheet.objects.filter(pk=sheet.pk).update(signed_a_at=sheet.submitted_at)  # signed before it was off
    correction, _ = services.submit_sheet(match, CORRECTED, base_version=1, court=match.court)
    assert not correction.after_sign_off


def test_the_saved_page_offers_a_tap_per_team_and_the_taps_sign(client, match):
    saved(match)
    page = client.get(saved_url(match)).content.decode()
    assert page.count(f'action="{sign_url(match)}"') == 2
    assert 'name="name_A"' in page and 'name="name_B"' in page
    response = client.post(sign_url(match), {"side": "A", "name_A": "山田"})
    assert response.status_code == 302 and response.url == saved_url(match)
    client.post(sign_url(match), {"side": "B"})
    sheet = RecordingSheet.objects.get(match=match, version=1)
    assert sheet.signed_by_both and sheet.signed_a_name == "山田"
    page = client.get(saved_url(match)).content.decode()
    assert f'action="{sign_url(match)}"' not in page
    assert "山田" in page


def test_the_tap_refuses_a_bad_side_with_a_message_and_no_500(client, match):
    saved(match)
    response = client.post(sign_url(match), {"side": "C"}, follow=True)
    assert response.status_code == 200
    assert not RecordingSheet.objects.get(match=match, version=1).signed_by_any
    assert len(list(response.context["messages"])) == 1


def test_the_entry_page_says_a_change_after_sign_off_needs_the_recorder(client, match):
    sheet = saved(match)
    signoff.sign_off(sheet, rules.Side.A)
    page = client.get(reverse("judging:court_entry", args=[match.court.token, match.match_number])).content.decode()
    assert "リーダーが1回目の入力を確認済みです" in page


def test_the_desk_sees_the_sign_off_on_the_game_page_and_in_the_queue(client, match, recorder):
    sheet = saved(match)
    signoff.sign_off(sheet, rules.Side.A, name="山田")
    services.submit_sheet(match, CORRECTED, base_version=1, court=match.court)
    client.force_login(recorder)
    detail = client.get(reverse("judging:match_detail", args=[match.event.slug, match.match_number]))
    assert detail.status_code == 200 and 'id="signoff"' in detail.content.decode()
    assert detail.context["newest"].after_sign_off
    queue = client.get(reverse("judging:confirm_queue", args=[match.event.slug]))
    row = next(g for g in queue.context["games"] if g.pk == match.pk)
    assert row.newest_sheet.version == 2 and row.newest_sheet.after_sign_off
    signoff.sign_off(row.newest_sheet, rules.Side.A)
    signoff.sign_off(row.newest_sheet, rules.Side.B)
    assert "✔ A・B" in client.get(reverse("judging:confirm_queue", args=[match.event.slug])).content.decode()


def test_the_event_form_shows_the_setting(client, day, organiser):
    client.force_login(organiser)
    page = client.get(reverse("tournament:event_edit", args=[day.slug])).content.decode()
    assert 'name="leaders_sign_off"' in page
