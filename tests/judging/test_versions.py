"""Recording sheets as versions: conflicts, retries, confirmation by a recorder, blind
re-typing, rejection, restore, void, auto-confirm, what the public sees, walkovers and
the history of a game (judging views and services)."""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from judging import services
from judging.engine import rules
from judging.models import Dispute, HistoryEntry, RecordingSheet
from tournament import reports
from tournament.models import Match
from tournament.services.knockout import seed_knockout

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
B_WINS = rules.SheetValues(20, 36, 0, rules.JokerHolder.B)
Action = HistoryEntry.Action


def tr(text):
    """A message as the pages show it (Japanese, the default language)."""
    with translation.override("ja"):
        return translation.gettext(text)


def matches(event):
    return list(Match.objects.filter(event=event).select_related("court", "team_a", "team_b").order_by("match_number"))


def first_match(event):
    return matches(event)[0]


def entry_url(match):
    return reverse("judging:court_entry", args=[match.court.token, match.match_number])


def saved_url(match, version):
    return reverse("judging:court_saved", args=[match.court.token, match.match_number, version])


def match_url(match):
    return reverse("judging:match_detail", args=[match.event.slug, match.match_number])


def action_url(match, action):
    """The address of a desk button on ``match``'s page (confirm, retype, reject, restore, void, reopen, adopt)."""
    return reverse(f"judging:match_{action}", args=[match.event.slug, match.match_number])


def post_values(base_version=0, submission_key="", **overrides):
    data = {
        "cards_a": "30",
        "cards_b": "26",
        "referee_cards": "0",
        "joker_holder": "A",
        "rps_winner": "",
        "rps_used": "0",
        "base_version": str(base_version),
        "submission_key": submission_key,
    }
    data.update(overrides)
    return data


def retype_values(**overrides):
    data = {
        "cards_a": "30",
        "cards_b": "26",
        "referee_cards": "0",
        "joker_holder": "A",
        "rps_winner": "",
        "rps_used": "0",
    }
    data.update(overrides)
    return {f"retype-{k}": v for k, v in data.items()}


def messages_of(response):
    return [str(m) for m in response.context["messages"]]


def actions(match):
    return list(HistoryEntry.objects.filter(match=match).order_by("at", "pk").values_list("action", flat=True))


def conflict_form_inputs(page):
    form = re.search(r'<form method="post" class="card">(.*?)</form>', page, re.S).group(1)
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))


def standings_of(match):
    """{team id: (played, wins)} from the division's group tables."""
    return {
        row.team: (row.played, row.wins) for table in reports.division_standings(match.division) for row in table.rows
    }


# --- conflicts and retries -------------------------------------------------------------------


def test_a_stale_form_is_refused_with_a_409_conflict_page_showing_both_results_and_keeping_the_typed_values(
    client, day
):
    match = first_match(day)
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)  # someone saved in between
    typed = post_values(base_version=0, submission_key="stale-form", cards_a="20", cards_b="36", joker_holder="B")
    response = client.post(entry_url(match), typed)
    assert response.status_code == 409
    assert "judging/conflict.html" in [t.name for t in response.templates]
    assert response.context["current"].version == 1
    page = response.content.decode()
    rows = {label: cells for label, cells in re.findall(r"<tr><th>([^<]*)</th>((?:<td>[^<]*</td>)+)</tr>", page)}
    assert rows[f"{match.team_a.name}（A）"] == "<td>30</td><td>20</td>"  # saved, then typed
    assert rows[f"{match.team_b.name}（B）"] == "<td>26</td><td>36</td>"
    hidden = conflict_form_inputs(page)
    for field in ("cards_a", "cards_b", "referee_cards", "joker_holder", "rps_winner", "rps_used"):
        assert hidden[field] == typed[field]
    assert hidden["base_version"] == "1"  # the form now answers the version it was shown
    assert hidden["submission_key"] and hidden["submission_key"] != "stale-form"
    # Nothing was overwritten.
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.version, sheet.cards_a, sheet.cards_b, sheet.joker_holder) == (1, 30, 26, "A")
    # The refused save is kept in the history with its values (issue 28, item 7).
    assert actions(match) == [Action.SUBMITTED, Action.REFUSED]


def test_posting_the_conflict_pages_form_saves_the_typed_values_as_a_new_version(client, day):
    match = first_match(day)
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    response = client.post(entry_url(match), post_values(base_version=0, cards_a="20", cards_b="36", joker_holder="B"))
    assert response.status_code == 409
    again = client.post(entry_url(match), conflict_form_inputs(response.content.decode()))
    assert again.status_code == 302
    assert again["Location"] == saved_url(match, 2)
    sheets = {s.version: s for s in RecordingSheet.objects.filter(match=match)}
    assert set(sheets) == {1, 2}
    assert (sheets[1].cards_a, sheets[1].cards_b) == (30, 26)
    assert (sheets[2].cards_a, sheets[2].cards_b, sheets[2].winner_side) == (20, 36, "B")


def test_a_stale_walkover_form_is_refused_too_and_its_conflict_page_sends_the_walkover_again(client, day):
    match = first_match(day)
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    response = client.post(
        entry_url(match), {"action": "walkover", "absent_side": "A", "base_version": "0", "submission_key": "w"}
    )
    assert response.status_code == 409
    hidden = conflict_form_inputs(response.content.decode())
    assert (hidden["action"], hidden["absent_side"], hidden["base_version"]) == ("walkover", "A", "1")
    assert RecordingSheet.objects.filter(match=match).count() == 1
    assert client.post(entry_url(match), hidden).status_code == 302
    newest = services.latest_sheet(match)
    assert (newest.version, newest.is_walkover, newest.winner_side) == (2, True, "B")


def test_the_same_post_twice_makes_one_version_and_the_retry_redirects_to_the_same_saved_page(client, day):
    match = first_match(day)
    data = post_values(base_version=0, submission_key="a1b2c3d4e5f6")
    first = client.post(entry_url(match), data)
    retry = client.post(entry_url(match), data)  # the tablet never saw the first answer
    assert first.status_code == retry.status_code == 302
    assert first["Location"] == retry["Location"] == saved_url(match, 1)
    assert RecordingSheet.objects.filter(match=match).count() == 1
    assert actions(match) == [Action.SUBMITTED]
    assert client.get(retry["Location"]).status_code == 200


def test_the_same_post_twice_on_the_recorder_screen_makes_one_version(client, day, recorder):
    match = first_match(day)
    client.force_login(recorder)
    data = post_values(base_version=0, submission_key="desk-1")
    assert client.post(match_url(match), data)["Location"] == match_url(match)
    assert client.post(match_url(match), data)["Location"] == match_url(match)
    assert RecordingSheet.objects.filter(match=match).count() == 1


def test_every_entry_page_carries_the_shown_version_and_a_fresh_submission_key(client, day):
    match = first_match(day)
    first = client.get(entry_url(match)).context["form"].initial
    second = client.get(entry_url(match)).context["form"].initial
    assert first["base_version"] == 0
    assert len(first["submission_key"]) >= 16 and first["submission_key"] != second["submission_key"]
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    assert client.get(entry_url(match)).context["form"].initial["base_version"] == 1


# --- confirmation ---------------------------------------------------------------------------


def test_a_user_who_submitted_a_version_cannot_confirm_it_even_by_crafting_the_post(client, day, recorder):
    match = first_match(day)
    client.force_login(recorder)
    assert client.post(match_url(match), post_values())["Location"] == match_url(match)
    sheet = RecordingSheet.objects.get(match=match)
    assert sheet.submitted_by == recorder and sheet.court is None
    page = client.get(match_url(match))
    assert page.context["can_confirm"] is False and page.context["own_newest"] is True
    response = client.post(action_url(match, "confirm"), {"version": "1"}, follow=True)
    assert tr("You submitted this version, so someone else must confirm it.") in messages_of(response)
    response = client.post(action_url(match, "retype"), {"version": "1", **retype_values()}, follow=True)
    assert tr("You submitted this version, so someone else must confirm it.") in messages_of(response)
    sheet.refresh_from_db()
    match.refresh_from_db()
    assert not sheet.is_confirmed and sheet.confirmed_by is None
    assert match.status == Match.Status.SUBMITTED and match.winner_id is None
    assert Action.CONFIRMED not in actions(match)


def test_a_recorder_who_entered_a_result_on_the_court_link_while_logged_in_cannot_confirm_it(client, day, recorder):
    match = first_match(day)
    client.force_login(recorder)
    client.post(entry_url(match), post_values())
    client.post(action_url(match, "confirm"), {"version": "1"})
    assert not RecordingSheet.objects.get(match=match).is_confirmed


def test_the_organiser_cannot_confirm_a_version_they_entered_either(client, day, organiser, recorder):
    match = first_match(day)
    client.force_login(organiser)
    client.post(match_url(match), post_values())
    client.post(action_url(match, "confirm"), {"version": "1"})
    assert not RecordingSheet.objects.get(match=match).is_confirmed
    client.force_login(recorder)  # someone else may
    client.post(action_url(match, "confirm"), {"version": "1"})
    assert RecordingSheet.objects.get(match=match).confirmed_by == recorder


def test_a_court_link_submission_waits_and_a_recorder_confirms_it(client, day, recorder):
    match = first_match(day)
    assert client.post(entry_url(match), post_values()).status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.court, sheet.submitted_by, sheet.is_confirmed) == (match.court, None, False)
    assert sheet.ip_address == "127.0.0.1"
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED and match.winner_id is None
    client.force_login(recorder)
    assert client.get(match_url(match)).context["can_confirm"] is True
    response = client.post(action_url(match, "confirm"), {"version": "1"})
    assert response.status_code == 302
    sheet.refresh_from_db()
    match.refresh_from_db()
    assert sheet.is_confirmed and sheet.confirmed_by == recorder and sheet.confirmed_at is not None
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.team_a_id
    confirmed = HistoryEntry.objects.get(match=match, action=Action.CONFIRMED)
    assert (confirmed.user, confirmed.sheet) == (recorder, sheet)


def test_confirming_an_older_version_is_refused(client, day, recorder):
    match = first_match(day)
    client.post(entry_url(match), post_values(base_version=0))
    client.post(entry_url(match), post_values(base_version=1, cards_a="20", cards_b="36", joker_holder="B"))
    client.force_login(recorder)
    response = client.post(action_url(match, "confirm"), {"version": "1"}, follow=True)
    message = tr("Version %(v)s is not the newest (version %(newest)s is); confirm the newest.") % {"v": 1, "newest": 2}
    assert message in messages_of(response)
    assert not RecordingSheet.objects.filter(match=match, is_confirmed=True).exists()
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED and match.winner_id is None


def test_a_retype_that_differs_lists_the_differing_fields_and_confirms_nothing(client, day, recorder):
    match = first_match(day)
    client.post(entry_url(match), post_values())  # 30 – 26, 「り」 with A
    client.force_login(recorder)
    typed = retype_values(cards_a="26", cards_b="30", joker_holder="B")
    response = client.post(action_url(match, "retype"), {"version": "1", **typed}, follow=True)
    shown = messages_of(response)
    for label, entered, paper in (
        ("cards of team A", "30", "26"),
        ("cards of team B", "26", "30"),
        ("「り」 holder", "A", "B"),
    ):
        assert any(m.startswith(tr(label)) and entered in m and paper in m for m in shown), (label, shown)
    assert not any(m.startswith(tr("cards held by the referee")) for m in shown)
    assert tr("Not confirmed: the entry and the paper sheet differ.") in shown
    assert not RecordingSheet.objects.filter(match=match, is_confirmed=True).exists()
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED and match.winner_id is None


def test_a_retype_mismatch_is_logged_in_the_history(client, day, recorder):
    match = first_match(day)
    client.post(entry_url(match), post_values())
    client.force_login(recorder)
    client.post(
        action_url(match, "retype"),
        {"version": "1", **retype_values(cards_a="26", cards_b="30", joker_holder="B")},
    )
    mismatch = HistoryEntry.objects.get(match=match, action=Action.RETYPE_MISMATCH)
    assert mismatch.user == recorder
    assert mismatch.note == "cards_a, cards_b, joker_holder"


def test_a_retype_that_matches_confirms_the_version(client, day, recorder):
    match = first_match(day)
    client.post(entry_url(match), post_values())
    client.force_login(recorder)
    response = client.post(action_url(match, "retype"), {"version": "1", **retype_values(cards_a="３０")}, follow=True)
    assert response.status_code == 200
    sheet = RecordingSheet.objects.get(match=match)
    assert sheet.is_confirmed and sheet.confirmed_by == recorder
    assert actions(match) == [Action.SUBMITTED, Action.CONFIRMED]


def test_the_retype_form_does_not_show_the_entered_values(client, day, recorder):
    match = first_match(day)
    client.post(entry_url(match), post_values(cards_a="31", cards_b="25"))
    client.force_login(recorder)
    form = client.get(match_url(match)).context["retype_form"]
    assert not form.is_bound and not {k: v for k, v in form.initial.items() if k in ("cards_a", "cards_b")}


# --- rejection, restore, void ---------------------------------------------------------------


def test_rejecting_a_version_disputes_the_match_and_the_court_shows_it_as_its_current_match_again(
    client, day, recorder
):
    match = first_match(day)
    home = reverse("judging:court_home", args=[match.court.token])
    client.post(entry_url(match), post_values())
    waiting = client.get(home)
    assert match in waiting.context["waiting"] and waiting.context["current"] != match
    client.force_login(recorder)
    client.post(action_url(match, "reject"), {"version": "1", "reason": "紙と違う"})
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED and match.winner_id is None
    rejected = HistoryEntry.objects.get(match=match, action=Action.REJECTED)
    assert (rejected.user, rejected.sheet.version, rejected.note) == (recorder, 1, "紙と違う")
    client.logout()
    response = client.get(home)
    assert response.context["current"] == match
    assert match not in response.context["waiting"]
    assert tr("The recorder rejected the last entry: enter the result again.") in response.content.decode()
    # The referee enters the sheet again: a new version, waiting again.
    assert client.post(entry_url(match), post_values(base_version=1, cards_a="29", cards_b="27"))[
        "Location"
    ] == saved_url(match, 2)
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED


def test_restoring_an_earlier_version_adds_a_new_version_with_its_values_logged_as_restored(
    client, day, organiser, recorder
):
    match = first_match(day)
    client.post(entry_url(match), post_values(base_version=0))
    client.post(entry_url(match), post_values(base_version=1, cards_a="20", cards_b="36", joker_holder="B"))
    client.force_login(organiser)
    response = client.post(action_url(match, "restore"), {"version": "1"})
    assert response.status_code == 302
    sheets = {s.version: s for s in RecordingSheet.objects.filter(match=match)}
    assert set(sheets) == {1, 2, 3}
    assert (sheets[3].cards_a, sheets[3].cards_b, sheets[3].joker_holder, sheets[3].winner_side) == (30, 26, "A", "A")
    assert sheets[3].restored_from == sheets[1] and sheets[3].submitted_by == organiser
    assert (sheets[2].cards_a, sheets[2].cards_b) == (20, 36)  # earlier versions untouched
    restored = HistoryEntry.objects.get(match=match, action=Action.RESTORED)
    assert (restored.user, restored.sheet) == (organiser, sheets[3])
    assert "1" in restored.note
    assert actions(match) == [Action.SUBMITTED, Action.SUBMITTED, Action.RESTORED]
    # The restored version waits for someone other than the organiser.
    client.force_login(recorder)
    client.post(action_url(match, "confirm"), {"version": "3"})
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.team_a_id


def test_voiding_a_match_removes_its_result_from_the_standings(client, day, organiser):
    match = first_match(day)
    services.record_confirmed_result(match, A_WINS, court=match.court)
    assert standings_of(match)[match.team_a_id] == (1, 1)
    client.force_login(organiser)
    response = client.post(action_url(match, "void"), {"version": "1", "reason": "欠席が判明"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.VOID and match.winner_id is None
    assert not RecordingSheet.objects.filter(match=match, is_confirmed=True).exists()
    assert RecordingSheet.objects.filter(match=match).count() == 1  # kept in the history
    assert standings_of(match)[match.team_a_id] == (0, 0)
    assert standings_of(match)[match.team_b_id] == (0, 0)
    voided = HistoryEntry.objects.get(match=match, action=Action.VOIDED)
    assert (voided.user, voided.note) == (organiser, "欠席が判明")
    assert "30 - 26" not in client.get(reverse("tournament:public_results", args=[day.slug])).content.decode()


def test_rejecting_the_last_version_of_a_void_match_leaves_it_void(client, day, organiser, recorder):
    match = first_match(day)
    client.post(entry_url(match), post_values())
    client.force_login(organiser)
    client.post(action_url(match, "void"), {"version": "1"})
    client.force_login(recorder)
    client.post(action_url(match, "reject"), {"version": "1"})
    match.refresh_from_db()
    assert match.status == Match.Status.VOID


def test_a_court_entry_on_a_void_match_of_an_auto_confirm_event_leaves_it_void(client, day, organiser):
    day.auto_confirm = True
    day.save(update_fields=["auto_confirm"])
    match = first_match(day)
    client.post(entry_url(match), post_values())
    services.void_match(match, organiser)
    client.post(entry_url(match), post_values(base_version=1))
    match.refresh_from_db()
    assert match.status == Match.Status.VOID
    assert not RecordingSheet.objects.filter(match=match, is_confirmed=True).exists()


def test_without_auto_confirm_a_void_match_stays_void_when_an_entry_arrives(client, day, organiser):
    match = first_match(day)
    services.void_match(match, organiser)
    client.post(entry_url(match), post_values())
    match.refresh_from_db()
    assert match.status == Match.Status.VOID


# --- auto-confirm and what counts --------------------------------------------------------------


def test_an_auto_confirm_event_confirms_a_court_entry_at_once(client, day):
    day.auto_confirm = True
    day.save(update_fields=["auto_confirm"])
    match = first_match(day)
    client.post(entry_url(match), post_values())
    sheet = RecordingSheet.objects.get(match=match)
    assert sheet.is_confirmed and sheet.confirmed_by is None
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.team_a_id
    assert actions(match) == [Action.SUBMITTED, Action.AUTO_CONFIRMED]
    assert standings_of(match)[match.team_a_id] == (1, 1)


def test_without_auto_confirm_public_pages_and_standings_ignore_an_unconfirmed_sheet_until_it_is_confirmed(
    client, day, recorder
):
    match = first_match(day)
    client.post(entry_url(match), post_values(cards_a="31", cards_b="25"))
    public = [
        reverse("tournament:public_results", args=[day.slug]),
        reverse("tournament:public_standings", args=[day.slug]),
        reverse("tournament:public_bracket", args=[day.slug]),
        reverse("tournament:public_timetable", args=[day.slug]),
        reverse("tournament:public_court", args=[day.slug, match.court_id]),
        reverse("tournament:public_team", args=[day.slug, match.team_a_id]),
    ]
    for url in [*public, public[1] + "?full=1"]:
        page = client.get(url).content.decode()
        assert "31 - 25" not in page and "31-25" not in page and "25-31" not in page, url
    assert standings_of(match)[match.team_a_id] == (0, 0)
    assert all(not table.complete for table in reports.division_standings(match.division))

    client.force_login(recorder)
    client.post(action_url(match, "confirm"), {"version": "1"})
    client.logout()
    from django.core.cache import cache

    cache.clear()  # public pages may be up to 5 s behind: let that time pass
    assert "31 - 25" in client.get(public[0]).content.decode()
    standings_page = client.get(public[1] + "?full=1").content.decode()  # with the 星取表
    assert "31-25" in standings_page and "25-31" in standings_page
    assert standings_of(match)[match.team_a_id] == (1, 1)
    assert standings_of(match)[match.team_b_id] == (1, 0)


def test_a_pending_correction_of_a_confirmed_match_does_not_change_what_counts(client, day):
    match = first_match(day)
    services.record_confirmed_result(match, A_WINS, court=match.court)
    client.post(entry_url(match), post_values(base_version=1, cards_a="20", cards_b="36", joker_holder="B"))
    assert standings_of(match)[match.team_a_id] == (1, 1)
    assert "30 - 26" in client.get(reverse("tournament:public_results", args=[day.slug])).content.decode()
    match.refresh_from_db()
    assert match.winner_id == match.team_a_id


@pytest.fixture
def knockout_day(day):
    """Every group game confirmed, two qualifiers per group: two semi-finals, a final, a third-place game."""
    division = day.divisions.get()
    division.qualifiers_per_group = 2
    division.save(update_fields=["qualifiers_per_group"])
    for match in matches(day):
        a_wins = match.team_a.entry_number < match.team_b.entry_number  # no tie anywhere
        services.record_confirmed_result(match, A_WINS if a_wins else B_WINS)
    seed_knockout(day)
    return day


def test_knockout_advancement_happens_only_on_confirmation(client, knockout_day, recorder):
    semi = (
        Match.objects.filter(event=knockout_day, stage=Match.Stage.SEMIFINAL)
        .select_related("court")
        .order_by("match_number")
        .first()
    )
    final, third = semi.feeds, semi.loser_feeds
    assert final.stage == Match.Stage.FINAL and third.stage == Match.Stage.THIRD_PLACE
    slot = "team_a_id" if semi.feeds_side == "A" else "team_b_id"
    loser_slot = "team_a_id" if semi.loser_feeds_side == "A" else "team_b_id"
    assert getattr(final, slot) is None
    client.post(entry_url(semi), post_values(cards_a="33", cards_b="23"))
    final.refresh_from_db()
    third.refresh_from_db()
    assert getattr(final, slot) is None and getattr(third, loser_slot) is None
    bracket = reverse("tournament:public_bracket", args=[knockout_day.slug])
    assert "<span>33</span>" not in client.get(bracket).content.decode()

    client.force_login(recorder)
    client.post(action_url(semi, "confirm"), {"version": "1"})
    final.refresh_from_db()
    third.refresh_from_db()
    assert getattr(final, slot) == semi.team_a_id
    assert getattr(third, loser_slot) == semi.team_b_id
    assert "<span>33</span>" in client.get(bracket).content.decode()


def test_voiding_a_confirmed_knockout_match_takes_its_winner_out_of_the_next_match(knockout_day, organiser):
    semi = Match.objects.filter(event=knockout_day, stage=Match.Stage.SEMIFINAL).order_by("match_number").first()
    services.record_confirmed_result(semi, A_WINS)
    final, third = semi.feeds, semi.loser_feeds
    slot = "team_a_id" if semi.feeds_side == "A" else "team_b_id"
    loser_slot = "team_a_id" if semi.loser_feeds_side == "A" else "team_b_id"
    final.refresh_from_db()
    assert getattr(final, slot) == semi.team_a_id
    services.void_match(semi, organiser)
    final.refresh_from_db()
    third.refresh_from_db()
    assert getattr(final, slot) is None
    assert getattr(third, loser_slot) is None


def test_a_void_group_match_does_not_keep_its_group_incomplete(day, organiser):
    void, *played = matches(day)
    services.void_match(void, organiser)
    for match in played:
        a_wins = match.team_a.entry_number < match.team_b.entry_number
        services.record_confirmed_result(match, A_WINS if a_wins else B_WINS)
    assert all(table.complete for table in reports.division_standings(void.division))
    assert seed_knockout(day) > 0


# --- walkovers ---------------------------------------------------------------------------------


def test_a_walkover_entered_on_the_court_screen_waits_for_a_recorder_then_counts(client, day, recorder):
    match = first_match(day)
    response = client.post(
        entry_url(match), {"action": "walkover", "absent_side": "B", "base_version": "0", "submission_key": "wo"}
    )
    assert response["Location"] == saved_url(match, 1)
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.cards_a, sheet.cards_b, sheet.is_walkover, sheet.decided_by, sheet.is_confirmed) == (
        28,
        0,
        True,
        "walkover",
        False,
    )
    assert sheet.court == match.court
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED
    client.force_login(recorder)
    client.post(action_url(match, "confirm"), {"version": "1"})
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER and match.winner_id == match.team_a_id
    assert standings_of(match)[match.team_a_id] == (1, 1)


def test_the_organiser_enters_a_walkover_on_the_recorder_screen(client, day, organiser, recorder):
    match = first_match(day)
    client.force_login(organiser)
    response = client.post(
        match_url(match), {"action": "walkover", "absent_side": "A", "base_version": "0", "submission_key": "wo"}
    )
    assert response["Location"] == match_url(match)
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.cards_a, sheet.cards_b, sheet.is_walkover, sheet.winner_side) == (0, 28, True, "B")
    assert sheet.submitted_by == organiser and sheet.court is None
    client.force_login(recorder)
    client.post(action_url(match, "confirm"), {"version": "1"})
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER and match.winner_id == match.team_b_id


# --- history ---------------------------------------------------------------------------------


def test_the_history_has_one_row_per_action_with_who_did_it(client, day, organiser, recorder, second_recorder):
    match = first_match(day)
    court = match.court
    client.post(entry_url(match), post_values(base_version=0, submission_key="k1"))  # v1 submitted (court)
    client.post(entry_url(match), post_values(base_version=0, submission_key="k1"))  # a retry: nothing new
    client.force_login(recorder)
    client.post(action_url(match, "reject"), {"version": "1"})  # rejected
    client.logout()
    client.post(
        entry_url(match), post_values(base_version=1, cards_a="20", cards_b="36", joker_holder="B")
    )  # v2 submitted
    client.force_login(recorder)
    client.post(action_url(match, "confirm"), {"version": "2"})  # confirmed
    client.post(action_url(match, "confirm"), {"version": "2"})  # again: nothing new
    client.force_login(organiser)
    client.post(action_url(match, "restore"), {"version": "1"})  # v3 restored
    client.force_login(second_recorder)
    client.post(action_url(match, "confirm"), {"version": "3"})  # confirmed
    client.post(
        reverse("judging:court_dispute", args=[court.token, match.match_number]),
        {"state_a": "correct_only", "state_b": "neither"},
    )  # dispute (court)
    client.force_login(organiser)
    client.post(action_url(match, "void"), {"version": "3", "reason": "やり直し"})  # voided

    rows = list(HistoryEntry.objects.filter(match=match).order_by("at", "pk").select_related("sheet"))
    assert [(r.action, r.sheet.version if r.sheet else None) for r in rows] == [
        (Action.SUBMITTED, 1),
        (Action.REJECTED, 1),
        (Action.SUBMITTED, 2),
        (Action.CONFIRMED, 2),
        (Action.RESTORED, 3),
        (Action.CONFIRMED, 3),
        (Action.DISPUTE, None),
        (Action.VOIDED, None),
    ]
    who = [(r.user, r.court) for r in rows]
    assert who == [
        (None, court),
        (recorder, None),
        (None, court),
        (recorder, None),
        (organiser, None),
        (second_recorder, None),
        (None, court),
        (organiser, None),
    ]
    assert RecordingSheet.objects.filter(match=match).count() == 3
    assert Dispute.objects.filter(match=match).count() == 1
    page = client.get(match_url(match))
    assert list(page.context["events"]) == rows
