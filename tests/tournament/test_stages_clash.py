"""A team never plays two games of one round after the groups (acceptance of issue 15, items 1
and 2): keeping one game and replaying another cannot put one team in both; an open game never
gets a team that already plays its round; the versions entered before a replay stay history."""

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from common.errors import UserError
from judging import services
from judging.models import HistoryEntry
from tests.tournament.test_stages_services import between, day, members, play, play_groups
from tournament import exports
from tournament.models import Match, Team
from tournament.reports import bracket, stage_notes, stages, timetable
from tournament.services.knockout import seed_divisions
from tournament.services.stages import keep_result, replay_match


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("organiser")


def flip(winner, loser):
    """The group game of ``winner`` and ``loser`` corrected so that ``winner`` wins 30–26."""
    match = between(winner, loser)
    play(match, *((30, 26) if match.team_a_id == winner.pk else (26, 30)))


def holding(division, reference):
    return Match.objects.get(Q(source_a=reference) | Q(source_b=reference), division=division)


def two_groups(**fields):
    """One division of 2 groups of 4, group games played by strength, its stage seeded."""
    event, (division,) = day([("中学生の部", [1, 2], 8, fields)])
    play_groups(division)
    seed_divisions(event)
    group_a = division.groups.order_by("name").first()
    return event, division, group_a


def correct_group_a(group):
    """The tester's correction: the old A2 is now A1 and a third team is now A2.
    Returns (old A1, old A2 = new A1, new A2)."""
    first, second, third, _fourth = members(group)
    flip(second, first)
    flip(third, first)
    return first, second, third


def teams_of(match):
    match.refresh_from_db()
    return {match.team_a_id, match.team_b_id}


@pytest.fixture
def knockout(db):
    event, division, group = two_groups(qualifiers_per_group=2, after_groups="knockout")
    semi_a1 = holding(division, f"group:{group.pk}:1")
    semi_a2 = holding(division, f"group:{group.pk}:2")
    return event, division, group, semi_a1, semi_a2


def test_keep_one_semifinal_and_replay_the_other_is_refused_naming_the_team_and_the_kept_game(knockout, organiser):
    event, division, group, semi_a1, semi_a2 = knockout
    play(semi_a1, 30, 26)
    play(semi_a2, 30, 26)
    _old_a1, new_a1, _new_a2 = correct_group_a(group)
    keep_result(semi_a2, organiser, "了承済み")
    with pytest.raises(UserError) as refused:
        replay_match(semi_a1, organiser)
    message = str(refused.value)
    assert new_a1.name in message and str(semi_a2) in message and "result kept" in message
    assert "Replay" in message and "keep the result of this game" in message
    semi_a1.refresh_from_db()
    assert semi_a1.has_result and not semi_a1.history.filter(action=HistoryEntry.Action.REPLAYED).exists()


def test_replay_is_allowed_once_the_other_game_gave_the_team_up(knockout, organiser):
    event, division, group, semi_a1, semi_a2 = knockout
    play(semi_a1, 30, 26)
    play(semi_a2, 30, 26)
    _old_a1, new_a1, new_a2 = correct_group_a(group)
    replay_match(semi_a2, organiser)  # A2: new A1 leaves it, new A2 comes in
    replay_match(semi_a1, organiser)
    assert new_a1.pk in teams_of(semi_a1) and new_a2.pk in teams_of(semi_a2)
    assert new_a1.pk not in teams_of(semi_a2)


def test_two_played_semifinals_whose_teams_swap_are_replayed_one_after_the_other(knockout, organiser):
    """A1 and A2 exchange places after both semifinals were played: each game holds the other's
    team, so neither replay may wait for the other to go first (the re-check's dead end)."""
    event, division, group, semi_a1, semi_a2 = knockout
    play(semi_a1, 30, 26)
    play(semi_a2, 30, 26)
    old_a1, old_a2 = members(group)[:2]
    flip(old_a2, old_a1)  # now A1 = old A2 and A2 = old A1
    assert {s.match.pk for s in stages.out_of_date(division)} >= {semi_a1.pk, semi_a2.pk}
    replay_match(semi_a1, organiser)  # allowed: the other game is out of date too
    assert old_a2.pk not in teams_of(semi_a1)  # its side waits: old A2 still holds semifinal A2
    replay_match(semi_a2, organiser)
    assert old_a2.pk in teams_of(semi_a1) and old_a1.pk in teams_of(semi_a2)
    assert None not in teams_of(semi_a1) | teams_of(semi_a2)


def test_an_open_semifinal_never_gets_a_team_that_plays_a_kept_one(knockout, organiser):
    event, division, group, semi_a1, semi_a2 = knockout
    play(semi_a2, 30, 26)
    old_a1, new_a1, _new_a2 = correct_group_a(group)
    assert new_a1.pk in teams_of(semi_a2)  # played as A2 before the correction
    keep_result(semi_a2, organiser, "了承済み")
    services.refresh_slots(division)
    assert new_a1.pk not in teams_of(semi_a1)  # A1's side stays empty
    semi_a1.refresh_from_db()
    assert semi_a1.status == Match.Status.SCHEDULED
    (note,) = stage_notes.division_stage(division).blocked
    assert str(semi_a1) in note and new_a1.name in note and str(semi_a2) in note and "result kept" in note
    ((state,),) = [s.blocked for s in stages.division_slots(division) if s.match.pk == semi_a1.pk]
    assert state.blocked_by == semi_a2


def test_a_game_never_gets_one_team_on_both_sides_it_is_reported(knockout, organiser):
    event, division, group, semi_a1, semi_a2 = knockout
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    # An inconsistent bracket (as left by older versions): both semifinals won by one team.
    play(semi_a1, 30, 26)
    semi_a1.refresh_from_db()
    Match.objects.filter(pk=semi_a2.pk).update(team_a=semi_a1.winner_id, team_b=None)
    semi_a2.refresh_from_db()
    Match.objects.filter(pk=semi_a2.pk).update(
        team_b=next(t for t in members(group) if t.pk not in teams_of(semi_a1)), status=Match.Status.CONFIRMED,
        winner=semi_a1.winner_id,
    )  # fmt: skip
    services.refresh_slots(division)
    final.refresh_from_db()
    assert {final.team_a_id, final.team_b_id} == {semi_a1.winner_id, None}
    notes = stage_notes.division_stage(division).blocked
    assert any(str(final) in note and "both sides" in note for note in notes)


@pytest.fixture
def placement(db):
    event, division, group = two_groups(after_groups="placement")
    return event, division, group


def test_placement_keep_one_and_replay_another_is_refused(placement, organiser):
    event, division, group = placement
    game_1 = holding(division, f"group:{group.pk}:1")
    game_2 = holding(division, f"group:{group.pk}:2")
    play(game_1, 30, 26)
    play(game_2, 30, 26)
    _old_a1, new_a1, _new_a2 = correct_group_a(group)
    keep_result(game_2, organiser, "了承済み")
    with pytest.raises(UserError) as refused:
        replay_match(game_1, organiser)
    assert new_a1.name in str(refused.value) and str(game_2) in str(refused.value)


def test_placement_open_game_leaves_the_side_empty(placement, organiser):
    event, division, group = placement
    game_1 = holding(division, f"group:{group.pk}:1")
    game_2 = holding(division, f"group:{group.pk}:2")
    play(game_2, 30, 26)
    _old_a1, new_a1, _new_a2 = correct_group_a(group)
    keep_result(game_2, organiser, "了承済み")
    assert new_a1.pk not in teams_of(game_1)
    assert stage_notes.division_stage(division).blocked


# --- item 2: the versions before a replay are history ----------------------------------------


def replayed(knockout, organiser):
    event, division, group, semi_a1, _semi_a2 = knockout
    event.organisers.add(organiser)
    event.auto_confirm = False
    event.save(update_fields=["auto_confirm"])
    sheet = play(semi_a1, 30, 26)
    sheet.submitted_by = organiser  # entered at the desk by the organiser
    sheet.save(update_fields=["submitted_by"])
    services.confirm_sheet(sheet, get_user_model().objects.create_user("first recorder"))
    event.auto_confirm = True
    event.save(update_fields=["auto_confirm"])
    correct_group_a(group)
    replay_match(semi_a1, organiser)
    return semi_a1, sheet


def test_the_replayed_entry_records_the_newest_version(knockout, organiser):
    semi, sheet = replayed(knockout, organiser)
    entry = semi.history.get(action=HistoryEntry.Action.REPLAYED)
    assert entry.sheet == sheet and services.replay_cutoff(semi) == sheet.version


def test_a_version_before_the_replay_cannot_be_confirmed_or_restored(knockout, organiser):
    semi, sheet = replayed(knockout, organiser)
    sheet.refresh_from_db()
    other = get_user_model().objects.create_user("recorder")
    for act in (
        lambda: services.confirm_sheet(sheet, other),
        lambda: services.confirm_own_sheet(sheet, organiser),
        lambda: services.restore_version(sheet, organiser),
    ):
        with pytest.raises(UserError, match=f"Version {sheet.version} was entered before the game was replayed"):
            act()
    semi.refresh_from_db()
    assert semi.status == Match.Status.SCHEDULED and semi.winner_id is None
    assert semi.sheets.count() == 1


def test_a_new_version_after_the_replay_is_confirmed_as_usual(knockout, organiser):
    semi, sheet = replayed(knockout, organiser)
    new = play(semi, 26, 30)
    services.confirm_sheet(new, get_user_model().objects.create_user("recorder"))
    semi.refresh_from_db()
    assert semi.has_result and new.version == sheet.version + 1


def test_the_desk_page_shows_the_versions_before_the_replay_without_confirm_or_restore(knockout, organiser, client):
    semi, sheet = replayed(knockout, organiser)
    client.force_login(organiser)
    page = client.get(f"/manage/{semi.event.slug}/games/{semi.match_number}/").content.decode()
    assert "再試合の前の版" in page and 'class="table before-replay"' in page
    assert 'class="card recorder"' not in page  # nothing waits for confirmation
    assert f"/games/{semi.match_number}/restore/" not in page and f"/games/{semi.match_number}/confirm/" not in page
    assert f"/games/{semi.match_number}/void/" in page  # the organiser's other buttons are there


def test_final_places_mark_a_team_listed_twice_to_confirm(placement):
    event, division, group = placement
    game_1 = holding(division, f"group:{group.pk}:1")
    game_2 = holding(division, f"group:{group.pk}:2")
    play(game_1, 30, 26)
    play(game_2, 30, 26)
    game_1.refresh_from_db()
    # A bracket left inconsistent by an older version: one team won both games.
    Match.objects.filter(pk=game_2.pk).update(team_a=game_1.winner_id, winner=game_1.winner_id)
    (placed,) = [places for d, places in bracket.final_places(event) if d == division]
    twice = [check for _name, team, check in placed if team.pk == game_1.winner_id]
    assert len(twice) == 2 and all(twice)


# --- items 9 and 16: a withdrawn team in an open game, a kept game's labels -------------------


def test_a_withdrawn_team_in_an_open_game_carries_the_withdrawn_mark(knockout, organiser, client):
    event, division, group, semi_a1, _semi_a2 = knockout
    play(semi_a1, 30, 26)
    semi_a1.refresh_from_db()
    loser = semi_a1.loser
    third = Match.objects.get(division=division, stage=Match.Stage.THIRD_PLACE)
    assert loser.pk in teams_of(third)  # its opponent is not known yet
    Team.objects.filter(pk=loser.pk).update(withdrawn=True, withdrawn_keeps_slots=True)
    rows = [row for row in exports.knockout_rows(event) if row[2] == third.match_number]
    assert f"{loser.name} (withdrawn)" in rows[0]
    event.organisers.add(organiser)
    client.force_login(organiser)
    page = client.get(reverse("tournament:knockout", args=[event.slug])).content.decode()
    game = page[page.index(f'id="m{third.match_number}"') :]
    game = game[: game.index("</div>\n</div>") if "</div>\n</div>" in game else len(game)]
    assert f'{loser.name} <span class="withdrawn-mark">棄権</span>' in game


def test_a_kept_game_names_the_place_it_was_played_as_and_who_fills_it_now(knockout, organiser):
    event, division, group, semi_a1, semi_a2 = knockout
    play(semi_a2, 30, 26)
    _old_a1, new_a1, new_a2 = correct_group_a(group)
    keep_result(semi_a2, organiser, "両校了承")
    slots = timetable.division_game_slots(division)[semi_a2.pk]
    semi_a2.refresh_from_db()
    side = slots.a if semi_a2.team_a_id == new_a1.pk else slots.b
    assert side.kept and side.kept_text == "played as A2, kept" and side.now_text == f"A2 is now {new_a2.name}"
    assert slots.kept and "両校了承" in slots.kept_note
    (row,) = [row for row in exports.knockout_rows(event) if row[2] == semi_a2.match_number]
    assert "両校了承" in row[-1] and f"A2 is now {new_a2.name}" in row[-1]
    assert "(A2)" not in " ".join(str(cell) for cell in row)  # never claims it is A2 now
    html = render_to_string(
        "includes/bracket.html", {"brackets": bracket.division_brackets(event, division), "event": event}
    )
    assert "(played as A2, kept)" in html and f'title="A2 is now {new_a2.name}"' in html and "両校了承" in html
