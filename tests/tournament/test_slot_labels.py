"""Slots as every medium shows them (issue 15, item 2): a knockout side without a team shows
where it comes from ("Group A place 1", "winner of game 12"), a fixed team its short source,
and a game a later change reached is marked out of date with the places that changed; the
final results never name a champion from such a game without "to be confirmed".

One read side (``reports.division_brackets``, ``reports.MatchLine``) and its readers: pages,
PDFs, the recording sheet, the workbook and the JSON API."""

import io

import pytest
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from judging.engine import rules
from judging.paper.match_sheets import event_sheets_pdf
from tests.tournament.test_services import drawn_day, members, play, play_groups_by_strength, win
from tournament import exports, printing, reports
from tournament.engine import slots as refs
from tournament.models import Match, Team
from tournament.reports import api, stages
from tournament.services.knockout import seed_knockout


@pytest.fixture(autouse=True)
def english():
    """Messages are matched in English, the language of the source strings."""
    with translation.override("en"):
        yield


@pytest.fixture
def seeded(db):
    """Four groups of three played by strength (the earliest entry wins), the knockout seeded:
    two semifinals, a third-place game and a final."""
    event, division = drawn_day(4, 12)
    play_groups_by_strength(event)
    seed_knockout(event)
    group_a = division.groups.get(name="A")
    return event, division, group_a


def semifinal_of(division, group, place=1):
    """The semifinal with ``group``'s ``place`` on one side, and that side ("a" or "b")."""
    wanted = refs.group_place(group.pk, place)
    for state in stages.division_slots(division):
        for side_name, side in zip("ab", state.sides, strict=True):
            if side.reference == wanted:
                return state.match, side_name
    raise AssertionError(f"no slot {wanted}")


def pdf_text(data):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def line_of(event, match):
    return next(line for line in reports.match_lines(event) if line.number == match.match_number)


def reopen_group_a(division, group_a):
    """Correct group A's games into a perfect three-cycle with equal cards: its first place is
    tied (a lot is needed), so it is not final and the semifinal (not started) loses the team."""
    first, second, third = members(group_a)
    win(first, second, 29, 27)
    win(second, third, 29, 27)
    win(third, first, 29, 27)


def correct_group_a_winner(group_a):
    """Correct group A's game between its first two: the second team wins it and the group."""
    (table,) = [t for t in reports.division_standings(group_a.division) if t.group == group_a]
    first, second = (Team.objects.get(pk=row.team) for row in table.rows[:2])
    win(second, first, 33, 23)
    return first, second


# --- the read side ---------------------------------------------------------------------------


def test_a_seeded_semifinal_shows_its_team_with_the_short_source(seeded):
    event, division, group_a = seeded
    semi, side = semifinal_of(division, group_a)
    (bracket,) = reports.division_brackets(event)
    slot = getattr(bracket.slots[semi.pk], side)
    assert (slot.label, slot.short, slot.final, slot.from_groups, slot.changed) == (
        "Group A place 1",
        "A1",
        True,
        True,
        False,
    )
    assert bracket.sources[semi.pk][0 if side == "a" else 1] == "A1"
    final = next(g for g in bracket.matches if g.stage == Match.Stage.FINAL)
    assert [s.label for s in (bracket.slots[final.pk].a, bracket.slots[final.pk].b)] == [
        f"winner of game {g.match_number}" for g in bracket.rounds[0]
    ]
    line = line_of(event, final)
    assert (line.team_a, line.team_a_text) == (None, f"winner of game {bracket.rounds[0][0].match_number}")
    assert not line.out_of_date


def test_while_its_group_place_is_not_final_a_side_shows_the_group_place(seeded):
    event, division, group_a = seeded
    reopen_group_a(division, group_a)
    semi, side = semifinal_of(division, group_a)
    semi.refresh_from_db()
    assert getattr(semi, f"team_{side}_id") is None
    line = line_of(event, semi)
    slot = getattr(line, f"slot_{side}")
    assert (slot.label, slot.final) == ("Group A place 1", False)
    assert getattr(line, f"team_{side}_text") == "Group A place 1"
    assert not line.out_of_date


def test_a_correction_before_the_semifinal_gives_the_new_winner_with_its_source(seeded):
    event, division, group_a = seeded
    _first, second = correct_group_a_winner(group_a)
    semi, side = semifinal_of(division, group_a)
    line = line_of(event, semi)
    assert getattr(line, f"team_{side}") == second
    assert getattr(line, f"slot_{side}").short == "A1"
    assert not line.out_of_date


def test_a_correction_after_the_semifinal_marks_it_out_of_date_naming_the_place(seeded):
    event, division, group_a = seeded
    semi, side = semifinal_of(division, group_a)
    play(semi, 30, 26)
    first, second = correct_group_a_winner(group_a)
    semi.refresh_from_db()
    assert first.pk in (semi.team_a_id, semi.team_b_id)  # a played game never changes by itself
    line = line_of(event, semi)
    assert line.out_of_date
    assert line.slots.changed_places == ["Group A place 1"]
    assert getattr(line, f"slot_{side}").changed
    assert "Group A place 1" in line.slots.out_of_date_text
    (bracket,) = reports.division_brackets(event)
    assert bracket.out_of_date == [semi]


def test_a_champion_from_an_out_of_date_game_is_to_be_confirmed(seeded):
    event, division, group_a = seeded
    semis = list(Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL).order_by("bracket_position"))
    for semi in semis:
        play(semi, 30, 26)
    for stage in (Match.Stage.THIRD_PLACE, Match.Stage.FINAL):
        play(Match.objects.get(event=event, stage=stage), 30, 26)
    ((_, places),) = reports.final_places(event)
    assert [check for _place, _team, check in places] == [False, False, False]
    correct_group_a_winner(group_a)
    ((_, places),) = reports.final_places(event)
    assert [place for place, _team, _check in places] == ["Champion", "Runner-up", "3rd place"]
    # the semifinal is out of date: the final and the third-place game it fed are doubtful
    assert [check for _place, _team, check in places] == [True, True, True]


# --- the media ---------------------------------------------------------------------------------


def test_the_bracket_pages_show_labels_and_the_out_of_date_mark(client, seeded):
    event, division, group_a = seeded
    semi, _side = semifinal_of(division, group_a)
    play(semi, 30, 26)
    correct_group_a_winner(group_a)
    page = client.get(f"/e/{event.slug}/bracket/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'class="game out-of-date" id="m{semi.match_number}"' in page
    assert 'class="out-of-date-note"' in page and 'class="slot-changed"' in page
    assert '<span class="muted small source">A1</span>' in page
    assert 'class="tbd slot"' in page  # the third-place game's side: "loser of game …"


def test_the_final_results_page_and_pdf_say_to_be_confirmed(client, seeded):
    event, division, group_a = seeded
    semi, _side = semifinal_of(division, group_a)
    for m in Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL):
        play(m, 30, 26)
    play(Match.objects.get(event=event, stage=Match.Stage.FINAL), 30, 26)
    correct_group_a_winner(group_a)
    page = client.get(f"/e/{event.slug}/final/").content.decode()
    assert "to-confirm" in page
    with translation.override("en"):  # the page's request left its own language active
        text = pdf_text(printing.final_results(event))
    assert "to confirm" in text and "Champion" in text  # the paper speaks the session's language


def test_the_bracket_pdf_prints_slot_labels_and_marks_an_out_of_date_game(seeded):
    event, division, group_a = seeded
    reopen_group_a(division, group_a)
    text = pdf_text(printing.bracket(event))
    assert "Group A place 1" in text
    assert "to confirm" not in text

    event2, division2 = drawn_day(4, 12, seed=2)
    play_groups_by_strength(event2)
    seed_knockout(event2)
    group_a2 = division2.groups.get(name="A")
    semi, _ = semifinal_of(division2, group_a2)
    play(semi, 30, 26)
    correct_group_a_winner(group_a2)
    text = pdf_text(printing.bracket(event2))
    assert f"Game {semi.match_number} to confirm" in text and "Group A place 1" in text  # the heading names it


def test_the_timetable_pdf_and_the_recording_sheet_print_the_slot_label(seeded):
    event, division, group_a = seeded
    reopen_group_a(division, group_a)
    assert "Group A place 1" in pdf_text(printing.court_timetables(event))
    semi, _ = semifinal_of(division, group_a)
    sheets = event_sheets_pdf(event, Match.objects.filter(pk=semi.pk))
    assert "Group A place 1" in pdf_text(sheets)


def test_the_timetable_page_shows_the_label_and_the_schedule_page_the_out_of_date_mark(client, seeded):
    event, division, group_a = seeded
    page = client.get(f"/e/{event.slug}/").content.decode()
    assert 'class="tbd slot"' in page  # the final: "winner of game …" on both sides
    semi, _ = semifinal_of(division, group_a)
    play(semi, 30, 26)
    correct_group_a_winner(group_a)
    page = client.get(f"/e/{event.slug}/results/").content.decode()
    assert "out-of-date-note" in page


def test_the_workbook_names_sources_and_marks_out_of_date_games(seeded):
    event, division, group_a = seeded
    reopen_group_a(division, group_a)
    semi, side = semifinal_of(division, group_a)
    rows = {row[0]: row for row in exports.matches_rows(event)}
    headers = exports.matches_headers()
    row = dict(zip(headers, rows[semi.match_number], strict=True))
    assert row["team A" if side == "a" else "team B"] == "Group A place 1"
    assert row["source of A" if side == "a" else "source of B"] == "Group A place 1 (A1)"
    assert row["out of date"] == ""
    data = exports.event_workbook(event, ("games", "timetable"))
    cells = [c for ws in load_workbook(io.BytesIO(data)).worksheets for r in ws.iter_rows(values_only=True) for c in r]
    assert "Group A place 1" in cells


def test_the_workbook_marks_an_out_of_date_game(seeded):
    event, division, group_a = seeded
    semi, _ = semifinal_of(division, group_a)
    play(semi, 30, 26)
    correct_group_a_winner(group_a)
    row = dict(zip(exports.matches_headers(), {r[0]: r for r in exports.matches_rows(event)}[semi.match_number]))
    assert "Group A place 1" in row["out of date"]


def test_the_api_gives_each_side_its_slot_and_each_game_out_of_date(seeded):
    event, division, group_a = seeded
    reopen_group_a(division, group_a)
    semi, side = semifinal_of(division, group_a)
    games = {g["number"]: g for g in api.timetable_document(event)["games"]}
    game = games[semi.match_number]
    assert game[f"team_{side}"] is None
    assert game["sides"][side] == {
        "slot": "Group A place 1",
        "short": "A1",
        "slot_final": False,
        "changed": False,
        "kept": False,
        "now": None,
    }
    assert game["out_of_date"] is False
    group_game = next(g for g in games.values() if g["stage"] == "group")
    assert group_game["sides"] is None and group_game["out_of_date"] is False


def test_the_api_bracket_marks_the_out_of_date_game_and_the_places_to_confirm(client, seeded):
    event, division, group_a = seeded
    semi, side = semifinal_of(division, group_a)
    for m in Match.objects.filter(event=event, stage=Match.Stage.SEMIFINAL):
        play(m, 30, 26)
    play(Match.objects.get(event=event, stage=Match.Stage.FINAL), 30, 26)
    correct_group_a_winner(group_a)
    (division_doc,) = client.get(f"/api/v1/events/{event.slug}/bracket").json()["divisions"]
    game = next(g for g in division_doc["games"] if g["number"] == semi.match_number)
    assert game["out_of_date"] is True and game["sides"][side]["changed"] is True
    assert len(game["out_of_date_places"]) == 1
    assert game["sources"][side] == "A1"
    assert [p["to_confirm"] for p in division_doc["places"]][:2] == [True, True]


def test_the_court_tablet_lists_the_next_game_with_its_slot_labels(client, seeded):
    event, division, group_a = seeded
    reopen_group_a(division, group_a)
    semi, _ = semifinal_of(division, group_a)
    semi.refresh_from_db()
    page = client.get(f"/court/{semi.court.token}/").content.decode()
    assert "Aリーグ1位" in page or "Group A place 1" in page  # the label in the page's language


def test_the_court_game_page_says_where_the_sides_come_from_and_that_it_is_out_of_date(client, seeded):
    event, division, group_a = seeded
    semi, _ = semifinal_of(division, group_a)
    play(semi, 30, 26)
    correct_group_a_winner(group_a)
    semi.refresh_from_db()
    page = client.get(f"/court/{semi.court.token}/game/{semi.match_number}/").content.decode()
    assert "game-slots" in page and "out-of-date-note" in page


def test_a_group_game_has_no_slots(seeded):
    event, _division, _group_a = seeded
    line = next(line for line in reports.match_lines(event) if line.stage == Match.Stage.GROUP)
    assert line.slots is None and line.team_a_text == line.team_a.name


def test_the_organisers_knockout_and_schedule_pages_show_labels_and_the_mark(client, seeded, django_user_model):
    event, division, group_a = seeded
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    semi, _ = semifinal_of(division, group_a)
    play(semi, 30, 26)
    correct_group_a_winner(group_a)
    knockout = client.get(f"/manage/{event.slug}/knockout/").content.decode()
    assert f'class="game out-of-date" id="m{semi.match_number}"' in knockout
    assert 'class="tbd slot"' in knockout  # the other semifinal's loser, still to come
    schedule = client.get(f"/manage/{event.slug}/schedule/").content.decode()
    assert "out-of-date-note" in schedule and 'class="tbd slot"' in schedule


def test_the_court_screen_shows_the_slot_label_of_a_side_without_a_team(client, seeded):
    event, division, _group_a = seeded
    final = Match.objects.get(event=event, stage=Match.Stage.FINAL)
    page = client.get(f"/e/{event.slug}/display/court/{final.court_id}/?fragment=1").content.decode()
    assert 'class="tbd slot"' in page


def test_the_workbook_has_a_knockout_sheet_with_sources_labels_and_marks(seeded):
    event, division, group_a = seeded
    semi, side = semifinal_of(division, group_a)
    play(semi, 30, 26)
    correct_group_a_winner(group_a)
    rows = {row[2]: dict(zip(exports.knockout_headers(), row, strict=True)) for row in exports.knockout_rows(event)}
    assert rows[semi.match_number]["source of A" if side == "a" else "source of B"] == "Group A place 1 (A1)"
    assert "Group A place 1" in rows[semi.match_number]["out of date"]
    final = Match.objects.get(event=event, stage=Match.Stage.FINAL)
    assert rows[final.match_number]["team B"].startswith("winner of game")
    wb = load_workbook(io.BytesIO(exports.event_workbook(event, ("games",))))
    assert wb.sheetnames == ["All games", "Knockout"]


def test_a_group_place_shows_its_label_until_the_group_is_complete_then_its_team(db):
    """A placement game whose sides are group places, made before any group game is played:
    the label while the group plays, the team (with its short source) once every game of the
    group is confirmed."""
    event, division = drawn_day(4, 12)
    group_a, group_b = division.groups.get(name="A"), division.groups.get(name="B")
    number = Match.objects.filter(event=event).count() + 1
    game = Match.objects.create(
        event=event,
        division=division,
        stage=Match.Stage.PLACEMENT,
        match_number=number,
        source_a=refs.group_place(group_a.pk, 1),
        source_b=refs.group_place(group_b.pk, 1),
    )
    line = line_of(event, game)
    assert (line.team_a_text, line.team_b_text) == ("Group A place 1", "Group B place 1")
    assert (line.slot_a.final, line.slot_a.short) == (False, "A1")
    for match in Match.objects.filter(group=group_a):
        if match.team_a.entry_number < match.team_b.entry_number:  # the earlier entry wins: no tie
            play(match, 30, 26)
        else:
            play(match, 26, 30, joker=rules.JokerHolder.B)
    line = line_of(event, game)
    assert line.slot_a.final and line.team_a is not None
    assert line.team_a_text == line.team_a.name and line.slot_a.short == "A1"
    assert line.team_b is None and line.team_b_text == "Group B place 1"
    games = {g["number"]: g for g in api.timetable_document(event)["games"]}
    assert games[number]["sides"]["a"]["slot_final"] is True
    assert games[number]["sides"]["b"] == {
        "slot": "Group B place 1",
        "short": "B1",
        "slot_final": False,
        "changed": False,
        "kept": False,
        "now": None,
    }


def test_the_timetable_pdf_marks_an_out_of_date_game(seeded):
    event, division, group_a = seeded
    semi, _ = semifinal_of(division, group_a)
    assert "to confirm" not in pdf_text(printing.court_timetables(event))
    play(semi, 30, 26)
    correct_group_a_winner(group_a)
    assert "to confirm" in pdf_text(printing.court_timetables(event))
