"""Result entry on the referee's court link and the organiser's screen (judging views,
forms and services): every submission is a new recording-sheet version, one confirmed."""

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse

from common.errors import UserError
from judging.engine import rules
from judging.models import RecordingSheet
from judging.services import submit_walkover
from tests import factories
from tests.factories import submit_result
from tournament import reports
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule


@pytest.fixture
def day(db):
    """Two courts, six teams: two groups of three, six group games."""
    event = factories.make_event(courts=2)
    event.refresh_from_db()  # start_time as a time, as every view loads it
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event


def first_match(event):
    return Match.objects.filter(event=event).order_by("match_number").first()


def entry_url(match, court=None):
    court = court or match.court
    return reverse("judging:court_entry", args=[court.token, match.match_number])


def post_values(**overrides):
    data = {
        "cards_a": "30",
        "cards_b": "26",
        "referee_cards": "0",
        "joker_holder": "A",
        "rps_winner": "",
        "rps_used": "0",
    }
    data.update(overrides)
    return data


def test_the_court_link_entry_page_shows_both_team_names(client, day):
    match = first_match(day)
    response = client.get(entry_url(match))
    assert response.status_code == 200
    page = response.content.decode()
    assert match.team_a.name in page and match.team_b.name in page


def test_the_court_home_page_lists_its_matches(client, day):
    match = first_match(day)
    response = client.get(reverse("judging:court_home", args=[match.court.token]))
    assert response.status_code == 200
    assert match.team_a.name in response.content.decode()


def test_posting_a_valid_sheet_creates_version_1_confirmed_and_sets_the_winner(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), post_values())
    assert response.status_code == 302
    assert response["Location"] == reverse("judging:court_saved", args=[match.court.token, match.match_number, 1])
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.version, sheet.is_confirmed) == (1, True)
    assert (sheet.cards_a, sheet.cards_b, sheet.referee_cards, sheet.joker_holder) == (30, 26, 0, "A")
    assert (sheet.winner_side, sheet.decided_by, sheet.is_walkover) == ("A", "cards", False)
    assert sheet.court_id == match.court_id
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.winner_id == match.team_a_id


def test_full_width_digits_typed_on_a_tablet_are_accepted(client, day):
    match = first_match(day)
    response = client.post(
        entry_url(match), post_values(cards_a="２６", cards_b="３０", referee_cards="０", joker_holder="B")
    )
    assert response.status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.cards_a, sheet.cards_b) == (26, 30)
    match.refresh_from_db()
    assert match.winner_id == match.team_b_id


def test_a_blank_referee_count_means_none(client, day):
    match = first_match(day)
    response = client.post(
        entry_url(match), post_values(cards_a="２８", cards_b="２８", referee_cards="", joker_holder="B")
    )
    assert response.status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.referee_cards, sheet.winner_side, sheet.decided_by) == (0, "B", "joker")


def test_a_level_match_with_the_joker_at_the_referee_is_decided_by_rps(client, day):
    match = first_match(day)
    data = post_values(
        cards_a="27", cards_b="27", referee_cards="2", joker_holder="referee", rps_winner="B", rps_used="3"
    )
    assert client.post(entry_url(match), data).status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.winner_side, sheet.decided_by, sheet.rps_winner, sheet.rps_used) == ("B", "rps", "B", 3)
    match.refresh_from_db()
    assert match.winner_id == match.team_b_id


def test_a_bad_total_shows_an_error_naming_the_numbers_and_saves_nothing(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), post_values(cards_a="28", cards_b="27"))
    assert response.status_code == 200
    errors = response.context["form"].non_field_errors()
    assert len(errors) == 1
    for number in ("28", "27", "55", "56"):
        assert number in errors[0]
    assert errors[0] in response.content.decode()
    assert not RecordingSheet.objects.filter(match=match).exists()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.winner_id is None


@pytest.mark.parametrize(
    "overrides, field",
    [
        ({"cards_a": "abc"}, "cards_a"),
        ({"cards_a": "-1", "cards_b": "57"}, "cards_a"),
        ({"joker_holder": ""}, "joker_holder"),
        ({"cards_a": "27", "cards_b": "27", "referee_cards": "2", "joker_holder": "referee"}, "rps_winner"),
        ({"rps_winner": "A"}, "rps_winner"),
        ({"rps_used": "4"}, "rps_used"),
    ],
)
def test_a_sheet_breaking_a_rule_shows_a_field_error_and_saves_nothing(client, day, overrides, field):
    match = first_match(day)
    response = client.post(entry_url(match), post_values(**overrides))
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert not RecordingSheet.objects.filter(match=match).exists()


def test_a_correction_creates_version_2_and_keeps_version_1_unconfirmed(client, day):
    match = first_match(day)
    client.post(entry_url(match), post_values())
    # The correction is made on the page showing version 1.
    response = client.post(
        entry_url(match), post_values(cards_a="20", cards_b="36", joker_holder="B", base_version="1")
    )
    assert response.status_code == 302
    sheets = {s.version: s for s in RecordingSheet.objects.filter(match=match)}
    assert set(sheets) == {1, 2}
    assert (sheets[1].cards_a, sheets[1].cards_b, sheets[1].is_confirmed) == (30, 26, False)
    assert (sheets[2].cards_a, sheets[2].cards_b, sheets[2].is_confirmed) == (20, 36, True)
    assert RecordingSheet.objects.filter(match=match, is_confirmed=True).count() == 1
    match.refresh_from_db()
    assert match.winner_id == match.team_b_id


def test_the_entry_page_of_a_match_with_a_result_shows_the_saved_values(client, day):
    match = first_match(day)
    client.post(entry_url(match), post_values())
    response = client.get(entry_url(match))
    assert response.context["form"].initial["cards_a"] == 30
    assert response.context["current"].version == 1


def test_a_court_link_used_on_another_courts_match_answers_404(client, day):
    match = first_match(day)
    other = Match.objects.filter(event=day).exclude(court=match.court).first()
    url = reverse("judging:court_entry", args=[match.court.token, other.match_number])
    assert client.get(url).status_code == 404
    assert client.post(url, post_values()).status_code == 404
    assert not RecordingSheet.objects.exists()


def test_an_unknown_token_answers_404(client, day):
    match = first_match(day)
    assert client.get(reverse("judging:court_home", args=["not-a-real-token"])).status_code == 404
    url = reverse("judging:court_entry", args=["not-a-real-token", match.match_number])
    assert client.get(url).status_code == 404
    assert client.post(url, post_values()).status_code == 404


def test_an_unknown_match_number_answers_404(client, day):
    match = first_match(day)
    assert client.get(reverse("judging:court_entry", args=[match.court.token, 999])).status_code == 404


def test_a_walkover_through_the_form_gives_the_present_team_28_to_0(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), {"action": "walkover", "absent_side": "B"})
    assert response.status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.cards_a, sheet.cards_b, sheet.is_walkover, sheet.decided_by, sheet.is_confirmed) == (
        28,
        0,
        True,
        "walkover",
        True,
    )
    match.refresh_from_db()
    assert match.status == Match.Status.WALKOVER
    assert match.winner_id == match.team_a_id


def test_a_walkover_for_an_absent_team_a_gives_b_the_win(day):
    match = first_match(day)
    sheet, _created = submit_walkover(match, rules.Side.A)
    assert (sheet.cards_a, sheet.cards_b, sheet.winner_side) == (0, 28, "B")


def test_a_walkover_form_without_a_side_saves_nothing(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), {"action": "walkover"})
    assert response.status_code == 200
    assert not RecordingSheet.objects.exists()


def test_the_organiser_enters_a_result_on_the_manage_screen(client, day, django_user_model):
    user = django_user_model.objects.create_user("org")
    day.organisers.add(user)
    client.force_login(user)
    match = first_match(day)
    url = reverse("judging:match_detail", args=[day.slug, match.match_number])
    response = client.post(url, post_values())
    assert response.status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert sheet.submitted_by == user and sheet.court is None


def test_the_organiser_entry_screen_is_refused_to_a_stranger(client, day, django_user_model):
    client.force_login(django_user_model.objects.create_user("stranger"))
    url = reverse("judging:match_detail", args=[day.slug, first_match(day).match_number])
    assert client.post(url, post_values()).status_code == 403
    assert not RecordingSheet.objects.exists()


def test_submit_result_refuses_an_invalid_sheet_and_saves_nothing(day):
    match = first_match(day)
    with pytest.raises(UserError, match="記録用紙の内容に誤りがあります.*TOTAL_MISMATCH"):
        submit_result(match, rules.SheetValues(28, 27, 0, rules.JokerHolder.A))
    assert not RecordingSheet.objects.exists()


def test_the_database_refuses_two_confirmed_sheets_for_one_match(day):
    match = first_match(day)
    fields = dict(
        match=match, cards_a=30, cards_b=26, joker_holder="A", winner_side="A", decided_by="cards", is_confirmed=True
    )
    RecordingSheet.objects.create(version=1, **fields)
    with (
        pytest.raises(IntegrityError, match=r"one_confirmed_sheet_per_match|judging_recordingsheet\.match_id$"),
        transaction.atomic(),
    ):
        RecordingSheet.objects.create(version=2, **fields)
    assert RecordingSheet.objects.filter(match=match, is_confirmed=True).count() == 1


def test_the_database_refuses_two_sheets_with_one_version_number(day):
    match = first_match(day)
    fields = dict(match=match, version=1, cards_a=30, cards_b=26, joker_holder="A", winner_side="A", decided_by="cards")
    RecordingSheet.objects.create(**fields)
    with (
        pytest.raises(
            IntegrityError,
            match=r"sheet_version_unique|judging_recordingsheet\.match_id, judging_recordingsheet\.version$",
        ),
        transaction.atomic(),
    ):
        RecordingSheet.objects.create(**fields)


def test_a_knockout_match_whose_teams_are_not_known_sends_the_referee_back_to_the_court_home(client, day):
    for match in Match.objects.filter(event=day).select_related("team_a", "team_b"):
        a_wins = match.team_a.entry_number < match.team_b.entry_number  # no ties anywhere
        values = (30, 26, 0, rules.JokerHolder.A) if a_wins else (26, 30, 0, rules.JokerHolder.B)
        submit_result(match, rules.SheetValues(*values))
    division = day.divisions.get()
    for table in reports.division_standings(division):
        assert not table.rows[0].tied
    seed_knockout(day)
    final = Match.objects.get(event=day, stage=Match.Stage.FINAL)
    assert final.teams_known  # two group winners meet in the final at once
    Match.objects.filter(pk=final.pk).update(team_b=None)
    response = client.post(entry_url(final), post_values())
    assert response.status_code == 302
    assert response["Location"] == reverse("judging:court_home", args=[final.court.token])
    assert not final.sheets.exists()
    assert client.get(reverse("judging:court_home", args=[final.court.token])).status_code == 200
