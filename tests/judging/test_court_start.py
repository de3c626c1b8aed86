"""The referee's 開始 (Start) tap (issue 15, item 8): opening a game's page never starts it;
the button or the first saved result does, once, with a STARTED line in the game's history."""

import pytest
from django.urls import reverse

from judging.models import HistoryEntry
from tournament.models import Match


def first_match(event):
    return Match.objects.filter(event=event).order_by("match_number").first()


def urls(match):
    args = [match.court.token, match.match_number]
    return reverse("judging:court_entry", args=args), reverse("judging:court_start", args=args)


def result():
    return {"cards_a": "30", "cards_b": "26", "referee_cards": "0", "joker_holder": "A", "rps_used": "0"}


def started_entries(match):
    return HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.STARTED).count()


def test_opening_the_page_does_not_start_the_game_and_shows_the_start_button(client, day):
    match = first_match(day)
    entry, start = urls(match)
    page = client.get(entry).content.decode()
    match.refresh_from_db()
    assert match.actual_start is None and started_entries(match) == 0
    assert f'action="{start}"' in page and "開始" in page


def test_the_start_button_starts_the_game_once_and_the_pages_say_started(client, day):
    match = first_match(day)
    entry, start = urls(match)
    response = client.post(start)
    assert response.status_code == 302 and response["Location"] == entry
    match.refresh_from_db()
    first = match.actual_start
    assert first is not None and started_entries(match) == 1
    client.post(start, HTTP_ACCEPT="application/json")  # a second tap changes nothing
    match.refresh_from_db()
    assert match.actual_start == first and started_entries(match) == 1
    page = client.get(entry).content.decode()
    assert "開始済み" in page and 'id="start-form"' not in page
    home = client.get(reverse("judging:court_home", args=[match.court.token])).content.decode()
    assert "開始済み" in home


def test_the_script_gets_the_start_time_as_json(client, day):
    match = first_match(day)
    _entry, start = urls(match)
    answer = client.post(start, HTTP_ACCEPT="application/json")
    assert answer.status_code == 200 and len(answer.json()["started"]) == 5


def test_a_get_of_the_start_address_starts_nothing(client, day):
    match = first_match(day)
    _entry, start = urls(match)
    assert client.get(start).status_code == 405
    match.refresh_from_db()
    assert match.actual_start is None


def test_without_a_tap_the_first_saved_result_starts_the_game(client, day):
    match = first_match(day)
    entry, _start = urls(match)
    client.post(entry, {**result(), "base_version": "0"})
    match.refresh_from_db()
    assert match.actual_start is not None and match.actual_end >= match.actual_start
    assert started_entries(match) == 0  # the result's own history line records it


def test_after_a_tap_the_result_keeps_the_tapped_start(client, day):
    match = first_match(day)
    entry, start = urls(match)
    client.post(start)
    match.refresh_from_db()
    tapped = match.actual_start
    client.post(entry, {**result(), "base_version": "0"})
    match.refresh_from_db()
    assert match.actual_start == tapped and started_entries(match) == 1


def test_a_game_with_a_result_cannot_be_started_and_says_so(client, day):
    match = first_match(day)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED)
    _entry, start = urls(match)
    answer = client.post(start, HTTP_ACCEPT="application/json")
    assert answer.status_code == 400 and answer.json()["error"]
    match.refresh_from_db()
    assert match.actual_start is None


@pytest.mark.parametrize("token", ["not-a-real-token"])
def test_an_unknown_link_starts_nothing(client, day, token):
    match = first_match(day)
    assert client.post(reverse("judging:court_start", args=[token, match.match_number])).status_code == 404
