"""A kept out-of-date game is marked on the bracket PDF and in the API as on the pages and in
the workbook, and an organiser can undo the keep (issue 29, item 7; docs/rules/stages.md,
"Out of date: keep or replay")."""

import json

import pytest
from django.contrib.auth import get_user_model

from common.errors import UserError
from judging.models import HistoryEntry
from tests.tournament.test_slot_labels import pdf_text
from tests.tournament.test_stages_services import english, overturn_group_a, play, seeded, semifinal_of  # noqa: F401
from tournament import printing
from tournament.reports import stage_notes, stages
from tournament.services.stages import keep_result, undo_keep


@pytest.fixture
def kept(db, request):
    """Group A's semifinal played, then group A's first two places swapped, then the result kept."""
    event, division = request.getfixturevalue("seeded")
    organiser = get_user_model().objects.create_user("organiser")
    event.organisers.add(organiser)
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    overturn_group_a(division)
    keep_result(semi, organiser, "両チーム了承済み")
    semi.refresh_from_db()
    return event, division, semi, organiser


def _api_game(client, event, number, document="timetable"):
    answer = client.get(f"/api/v1/events/{event.slug}/{document}", HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 200
    data = json.loads(answer.content)
    games = data["games"] if "games" in data else [g for d in data["divisions"] for g in d["games"]]
    return next(g for g in games if g["number"] == number)


def test_the_api_marks_a_kept_game_and_its_sides(client, kept):
    event, _division, semi, _organiser = kept
    for document in ("timetable", "bracket"):
        game = _api_game(client, event, semi.match_number, document)
        assert game["kept"] is True and game["out_of_date"] is False
        assert "両チーム了承済み" in game["kept_text"]
        kept_sides = [side for side in game["sides"].values() if side["kept"]]
        assert kept_sides and all(side["now"] for side in kept_sides)


def test_the_bracket_pdf_marks_a_kept_game(kept):
    event, _division, semi, _organiser = kept
    text = pdf_text(printing.bracket(event))
    assert "両チーム了承済み" in text  # the keep's words in the division's heading
    assert "kept" in text


def test_undoing_a_keep_puts_the_game_back_out_of_date_with_a_history_entry(client, kept):
    event, division, semi, organiser = kept
    undo_keep(semi, organiser)
    semi.refresh_from_db()
    assert semi.kept_teams == "" and semi.has_result  # its result is untouched
    assert [s.match.pk for s in stages.out_of_date(division)] == [semi.pk]
    assert stage_notes.match_out_of_date(semi) is not None
    entry = semi.history.get(action=HistoryEntry.Action.KEEP_UNDONE)
    assert entry.user == organiser and "両チーム了承済み" in entry.note
    game = _api_game(client, event, semi.match_number)
    assert game["kept"] is False and game["out_of_date"] is True
    with pytest.raises(UserError, match="not kept"):
        undo_keep(semi, organiser)


def test_the_knockout_page_offers_the_undo_and_it_works(client, kept):
    event, division, semi, organiser = kept
    client.force_login(organiser)
    page = client.get(f"/manage/{event.slug}/knockout/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'id="kept-{semi.match_number}"' in page and 'value="undo_keep"' in page
    answer = client.post(
        f"/manage/{event.slug}/knockout/", {"action": "undo_keep", "match": semi.match_number, "note": "確認し直す"}
    )
    assert answer.status_code == 302
    semi.refresh_from_db()
    assert semi.kept_teams == ""
    assert semi.history.get(action=HistoryEntry.Action.KEEP_UNDONE).note == "確認し直す"
