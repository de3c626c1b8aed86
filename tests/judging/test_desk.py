"""A desk of any size (issue 16, item 7): the one-person confirmation, the reason of a
send-back (差し戻し) on the tablet, no Confirm on a version sent back, the court pages' poll,
revoking and renewing a link after a confirmation page, and a revoked link that keeps what
the referee typed."""

import pytest
from django.urls import reverse
from django.utils import translation

from common.errors import UserError
from judging import services
from judging.engine import rules
from judging.models import HistoryEntry
from tournament.models import Match

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
CORRECTED = rules.SheetValues(29, 27, 0, rules.JokerHolder.A)
Action = HistoryEntry.Action


def tr(text):
    """A message as the pages show it (Japanese, the default language)."""
    with translation.override("ja"):
        return translation.gettext(text)


def first_match(event):
    return Match.objects.filter(event=event).select_related("court", "team_a", "team_b").order_by("match_number")[0]


def match_url(match):
    return reverse("judging:match_detail", args=[match.event.slug, match.match_number])


def action_url(match, action):
    """The address of a desk button on ``match``'s page (confirm, retype, reject, restore, void, reopen, adopt)."""
    return reverse(f"judging:match_{action}", args=[match.event.slug, match.match_number])


def own_url(match):
    return reverse("judging:confirm_own", args=[match.event.slug, match.match_number])


def entry_url(match):
    return reverse("judging:court_entry", args=[match.court.token, match.match_number])


def home_url(match):
    return reverse("judging:court_home", args=[match.court.token])


def own_correction(match, user):
    """The court's version 1, then ``user``'s correction (version 2) at the desk."""
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    sheet, _created = services.submit_sheet(match, CORRECTED, base_version=1, user=user)
    return sheet


# --- the one-person confirmation: services ----------------------------------------------------


def test_an_organiser_confirms_their_own_correction_recorded_as_a_one_person_confirmation(day, organiser):
    match = first_match(day)
    sheet = own_correction(match, organiser)
    with pytest.raises(UserError):
        services.confirm_sheet(sheet, organiser)  # the ordinary confirmation still refuses
    services.confirm_own_sheet(sheet, organiser)
    sheet.refresh_from_db()
    match.refresh_from_db()
    assert sheet.is_confirmed and sheet.confirmed_by == organiser
    assert match.status == Match.Status.CONFIRMED and match.winner == match.team_a
    entry = HistoryEntry.objects.get(match=match, action=Action.SELF_CONFIRMED)
    assert (entry.user, entry.sheet) == (organiser, sheet)
    assert not HistoryEntry.objects.filter(match=match, action=Action.CONFIRMED).exists()
    assert services.confirm_own_sheet(sheet, organiser).is_confirmed  # again: nothing new
    assert HistoryEntry.objects.filter(match=match, action=Action.SELF_CONFIRMED).count() == 1


def test_a_recorder_confirms_their_own_correction_only_when_the_event_allows_it(day, recorder):
    match = first_match(day)
    sheet = own_correction(match, recorder)
    assert not services.may_confirm_own(day, recorder)
    with pytest.raises(UserError):
        services.confirm_own_sheet(sheet, recorder)
    sheet.refresh_from_db()
    assert not sheet.is_confirmed
    day.recorders_confirm_own = True
    day.save(update_fields=["recorders_confirm_own"])
    match.event.refresh_from_db()
    assert services.may_confirm_own(day, recorder)
    services.confirm_own_sheet(sheet, recorder)
    assert HistoryEntry.objects.get(match=match, action=Action.SELF_CONFIRMED).user == recorder


def test_the_one_person_confirmation_is_only_for_ones_own_newest_version(day, organiser, recorder):
    match = first_match(day)
    court_sheet, _created = services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    with pytest.raises(UserError):
        services.confirm_own_sheet(court_sheet, organiser)  # not theirs: the ordinary way
    mine, _created = services.submit_sheet(match, CORRECTED, base_version=1, user=organiser)
    services.submit_sheet(match, A_WINS, base_version=2, court=match.court)
    with pytest.raises(UserError):
        services.confirm_own_sheet(mine, organiser)  # no longer the newest
    assert not match.sheets.filter(is_confirmed=True).exists()


def test_a_version_sent_back_is_confirmed_by_nobody_until_a_new_version_comes(day, organiser, recorder):
    match = first_match(day)
    sheet, _created = services.submit_sheet(match, A_WINS, base_version=0, user=organiser)
    services.reject_sheet(sheet, recorder, "紙と違う")
    match.refresh_from_db()
    assert services.sent_back(match).note == "紙と違う"
    for confirm in (
        lambda: services.confirm_sheet(sheet, recorder),
        lambda: services.confirm_own_sheet(sheet, organiser),
    ):
        with pytest.raises(UserError):
            confirm()
    new, _created = services.submit_sheet(match, CORRECTED, base_version=1, court=match.court)
    match.refresh_from_db()
    assert services.sent_back(match) is None
    services.confirm_sheet(new, recorder)


# --- the one-person confirmation: pages --------------------------------------------------------


def test_the_game_page_offers_the_second_step_and_the_second_step_confirms(client, day, organiser):
    match = first_match(day)
    own_correction(match, organiser)
    client.force_login(organiser)
    page = client.get(match_url(match)).content.decode()
    assert own_url(match) in page
    assert action_url(match, "confirm") not in page  # no ordinary Confirm on one's own version
    assert action_url(match, "void") in page  # the organiser's buttons are there
    second = client.get(own_url(match))
    assert second.status_code == 200
    text = second.content.decode()
    assert tr("One-person confirmation") in text
    assert tr("You entered this version yourself, and nobody else has checked it against the paper sheet.") in text
    assert not match.sheets.filter(is_confirmed=True).exists()  # the GET changes nothing
    response = client.post(own_url(match), {"version": "2"})
    assert response.status_code == 302 and response["Location"] == match_url(match)
    assert match.sheets.get(is_confirmed=True).version == 2
    history = client.get(match_url(match)).content.decode()
    assert tr("confirmed by one person (own entry)") in history


def test_the_second_step_refuses_a_stale_version_and_a_recorder_without_the_setting(client, day, organiser, recorder):
    match = first_match(day)
    own_correction(match, recorder)
    client.force_login(recorder)
    assert own_url(match) not in client.get(match_url(match)).content.decode()
    assert client.get(own_url(match)).status_code == 403
    assert client.post(own_url(match), {"version": "2"}).status_code == 403
    day.recorders_confirm_own = True
    day.save(update_fields=["recorders_confirm_own"])
    assert own_url(match) in client.get(match_url(match)).content.decode()
    client.post(own_url(match), {"version": "1"})  # the page showed an older version: refused
    assert not match.sheets.filter(is_confirmed=True).exists()
    client.post(own_url(match), {"version": "2"})
    assert HistoryEntry.objects.get(match=match, action=Action.SELF_CONFIRMED).user == recorder
    # An organiser on a version they did not enter goes back to the game's page.
    client.force_login(organiser)
    assert client.get(own_url(match)).status_code == 302


def test_the_event_setting_is_on_the_event_form(client, day, organiser):
    client.force_login(organiser)
    page = client.get(reverse("tournament:event_edit", args=[day.slug])).content.decode()
    assert 'name="recorders_confirm_own"' in page


# --- a send-back carries its reason to the tablet ------------------------------------------------


def test_the_reason_of_a_send_back_is_shown_on_the_court_and_no_confirm_is_offered(client, day, recorder):
    match = first_match(day)
    client.post(
        entry_url(match),
        {
            **dict(zip(["cards_a", "cards_b"], ["30", "26"])),
            "referee_cards": "0",
            "joker_holder": "A",
            "rps_used": "0",
            "base_version": "0",
            "submission_key": "k1",
        },
    )
    assert match.sheets.count() == 1
    client.force_login(recorder)
    client.post(action_url(match, "reject"), {"version": "1", "reason": "Bの枚数を数え直して"})
    page = client.get(match_url(match)).content.decode()
    assert all(action_url(match, action) not in page for action in ("confirm", "retype", "reject"))
    assert "Bの枚数を数え直して" in page
    client.post(action_url(match, "confirm"), {"version": "1"})  # a stale page's button
    assert not match.sheets.filter(is_confirmed=True).exists()
    client.logout()
    for url in (home_url(match), entry_url(match)):
        text = client.get(url).content.decode()
        assert "Bの枚数を数え直して" in text, url
        assert tr("Reason") in text


def test_a_send_back_without_a_reason_says_to_ask_the_desk(client, day, recorder):
    match = first_match(day)
    sheet, _created = services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    services.reject_sheet(sheet, recorder)
    assert tr("no reason given; ask the desk") in client.get(entry_url(match)).content.decode()


# --- court pages refresh themselves ------------------------------------------------------------


def test_the_court_state_changes_when_the_next_game_changes(client, day, recorder):
    match = first_match(day)
    url = reverse("judging:court_state", args=[match.court.token])
    first = client.get(url)
    assert (
        first.status_code == 200
        and first["Cache-Control"].startswith("no-store")
        or "no-store" in first["Cache-Control"]
    )
    state = first.json()["state"]
    assert match.match_number in first.json()["games"]
    assert client.get(url).json()["state"] == state  # nothing changed
    sheet, _created = services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    submitted = client.get(url).json()["state"]
    assert submitted != state
    services.confirm_sheet(sheet, recorder)
    assert client.get(url).json()["state"] != submitted
    # The pages carry the poll (and its script); an unknown link has none.
    assert url in client.get(home_url(match)).content.decode()
    assert url in client.get(entry_url(match)).content.decode()
    assert client.get(reverse("judging:court_state", args=["x" * 32])).status_code == 404


def test_the_court_state_of_a_revoked_link_is_410(client, day):
    court = day.courts.order_by("order").first()
    url = reverse("judging:court_state", args=[court.token])
    court.link_enabled = False
    court.save(update_fields=["link_enabled"])
    response = client.get(url)
    assert response.status_code == 410 and response.json() == {"revoked": True}


# --- revoking and renewing a link ---------------------------------------------------------------


@pytest.mark.parametrize("action", ["revoke", "renew"])
def test_revoking_or_renewing_asks_first_and_says_the_printed_qr_codes_stop_working(client, day, organiser, action):
    court = day.courts.order_by("order").first()
    token = court.token
    client.force_login(organiser)
    links = reverse("tournament:court_links", args=[day.slug])
    change = reverse("tournament:court_link_change", args=[day.slug, court.pk, action])
    assert change in client.get(links).content.decode()
    # The old POST of the court links page only leads to the confirmation.
    response = client.post(links, {"court": court.pk, "action": action})
    assert response.status_code == 302 and response["Location"] == change
    page = client.get(change).content.decode()
    assert (
        tr(
            "The current link stops working at once, and so do the QR codes already printed for this court "
            "(on its recording sheets and its court card)."
        )
        in page
    )
    court.refresh_from_db()
    assert court.token == token and court.link_enabled  # nothing changed yet
    response = client.post(change)
    assert response.status_code == 302 and response["Location"] == f"{links}?changed={court.pk}"
    court.refresh_from_db()
    after = client.get(response["Location"]).content.decode()
    sheets = reverse("tournament:recording_sheets", args=[day.slug]) + f"?court={court.pk}"
    if action == "renew":
        assert court.token != token and court.link_enabled and court.previous_token == token
        assert tr("Print new sheets for this court") in after and sheets in after
    else:
        assert court.token == token and not court.link_enabled
        assert tr("Renew the link to use the court's tablet again, then print its sheets again.") in after
    assert client.get(reverse("tournament:court_link_change", args=[day.slug, court.pk, "delete"])).status_code == 404


# --- a revoked link keeps what was typed -------------------------------------------------------


@pytest.mark.parametrize("how", ["revoke", "renew"])
def test_a_post_to_a_revoked_link_answers_the_typed_values_and_what_to_do(client, day, how):
    match = first_match(day)
    court = match.court
    url = entry_url(match)
    assert client.get(url).status_code == 200
    if how == "renew":
        court.renew_token()
    else:
        court.link_enabled = False
        court.save(update_fields=["link_enabled"])
    response = client.post(
        url,
        {
            "cards_a": "31",
            "cards_b": "25",
            "referee_cards": "0",
            "joker_holder": "B",
            "rps_used": "1",
            "base_version": "0",
            "submission_key": "after",
        },
    )
    assert response.status_code == 410
    page = response.content.decode()
    assert tr("This link is no longer valid. Ask the desk for a new link.") in page
    assert "このリンクは無効になりました。本部に新しいリンクをもらってください" in page
    for value in ("31", "25", tr("Team B")):
        assert f"<td>{value}</td>" in page
    assert f"No.{match.match_number}" in page or str(match.match_number) in page
    assert not match.sheets.exists()
    assert match.team_a.name not in page  # a dead link reveals no game
    # Results the tablet still holds stay in view after a reload (the queue's box and script),
    # and the renewed link's new token is never shown to the old one.
    reloaded = client.get(url).content.decode()
    assert 'id="unsent"' in reloaded and "js/offline.js" in reloaded
    court.refresh_from_db()
    assert court.token not in reloaded or how == "revoke"


def test_an_unknown_link_is_still_a_plain_404(client, day):
    match = first_match(day)
    assert (
        client.post(reverse("judging:court_entry", args=["y" * 32, match.match_number]), {"cards_a": "3"}).status_code
        == 404
    )


def test_a_void_game_with_a_waiting_version_offers_no_confirm_retype_or_send_back(client, day, organiser):
    """A voided game's page (a new user's finding): the version that was waiting is history, so
    the page offers only to reopen the game, not to confirm, re-type or send it back."""
    match = first_match(day)
    services.submit_sheet(match, A_WINS, court=match.court)
    client.force_login(organiser)
    page = client.get(match_url(match)).content.decode()
    assert action_url(match, "confirm") in page  # waiting: the desk may confirm it
    services.void_match(Match.objects.get(pk=match.pk), organiser, reason="やり直し")
    page = client.get(match_url(match)).content.decode()
    for action in ("confirm", "retype", "reject"):
        assert action_url(match, action) not in page, action
    assert action_url(match, "reopen") in page
