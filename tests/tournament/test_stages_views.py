"""The pages of the stage after the groups: the knockout page per division (seed one, seed
every ready one, reset one; keep or replay an out-of-date game), the desk game page's warnings
before and after a correction, the status board, the hall displays and the API they poll."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from judging.models import HistoryEntry
from tests.tournament.test_stages_services import (
    between,
    day,
    members,
    overturn_group_a,
    play,
    play_groups,
    semifinal_of,
)
from tournament.models import Match
from tournament.reports import stages
from tournament.services.knockout import seed_divisions

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def organiser(db):
    return get_user_model().objects.create_user("organiser")


@pytest.fixture
def three(organiser):
    """Three divisions: one with its groups played, one still playing, one with a single group."""
    event, divisions = day([("低学年の部", [1, 2], 6, {}), ("高学年の部", [3, 4], 6, {}), ("一組の部", [5], 4, {})])
    event.organisers.add(organiser)
    return event, divisions


def knockout_url(event):
    return reverse("tournament:knockout", args=[event.slug])


def texts(response):
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_the_knockout_page_shows_each_division_at_its_own_stage(client, organiser, three):
    event, (low, high, single) = three
    play_groups(high)
    play_groups(single)
    client.force_login(organiser)
    page = client.get(knockout_url(event), **EN)
    by_division = {s.division: s.state for s in page.context["stages"]}
    assert by_division == {low: "playing", high: "ready", single: "single"}
    html = page.content.decode()
    assert "Seed this division" in html and "Seed every ready division" in html
    assert "game left" in html or "games left" in html
    champion = members(single.groups.get())[0]
    assert f"the winner of Group A, {champion.name}, is the champion" in html


def test_seeding_one_division_leaves_the_others_alone(client, organiser, three):
    event, (low, high, single) = three
    play_groups(high)
    client.force_login(organiser)
    response = client.post(knockout_url(event), {"action": "seed", "division": high.pk}, follow=True, **EN)
    assert Match.objects.filter(division=high).exclude(stage=Match.Stage.GROUP).exists()
    assert not Match.objects.filter(division__in=[low, single]).exclude(stage=Match.Stage.GROUP).exists()
    assert any("高学年の部: bracket seeded" in m for m in texts(response))
    refused = client.post(knockout_url(event), {"action": "seed", "division": low.pk}, follow=True, **EN)
    assert any("低学年の部" in m and "without a result" in m for m in texts(refused))


def test_seed_every_ready_division_says_which_were_seeded_and_why_not_the_others(client, organiser, three):
    event, (low, high, single) = three
    play_groups(high)
    play_groups(single)
    client.force_login(organiser)
    response = client.post(knockout_url(event), {"action": "seed_all"}, follow=True, **EN)
    messages = texts(response)
    assert any(m.startswith("高学年の部: bracket seeded") for m in messages)
    assert any("低学年の部" in m for m in messages)
    assert any("一組の部" in m and "single qualifier" in m for m in messages)
    assert {s.division: s.state for s in response.context["stages"]}[high] == "seeded"


def test_reset_is_per_division(client, organiser, three):
    event, (low, high, single) = three
    play_groups(high)
    seed_divisions(event, division=high)
    client.force_login(organiser)
    before = set(Match.objects.filter(division=high).exclude(stage=Match.Stage.GROUP).values_list("pk", flat=True))
    client.post(knockout_url(event), {"action": "reset", "division": high.pk})
    after = set(Match.objects.filter(division=high).exclude(stage=Match.Stage.GROUP).values_list("pk", flat=True))
    assert after and not before & after


@pytest.fixture
def stale(organiser):
    """One division of 4 groups, seeded; the semifinal of group A's winner played, then group A
    corrected so that its winner changes."""
    event, (division,) = day([("小学生の部", [1, 2, 3, 4], 12, {})])
    event.organisers.add(organiser)
    play_groups(division)
    seed_divisions(event)
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    group, first, second = overturn_group_a(division)
    return event, division, semi, first, second


def test_the_knockout_page_lists_an_out_of_date_game_with_what_changed(client, organiser, stale):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    html = client.get(knockout_url(event), **EN).content.decode()
    assert f'id="stale-{semi.match_number}"' in html
    assert f"Group A place 1: was {first.name}, now {second.name}" in html
    assert "Keep the played result" in html and "Void and replay" in html


def test_the_knockout_page_says_what_changed_in_japanese(client, organiser, stale):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    html = client.get(knockout_url(event), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"予選Aリーグ1位：前は{first.name}、今は{second.name}" in html


def test_keep_without_a_note_is_refused_and_with_a_note_is_recorded(client, organiser, stale):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    refused = client.post(
        knockout_url(event), {"action": "keep", "match": semi.match_number, "note": ""}, follow=True, **EN
    )
    assert any("say in a note" in m and "小学生の部" in m for m in texts(refused))
    assert stages.out_of_date(division)
    client.post(knockout_url(event), {"action": "keep", "match": semi.match_number, "note": "協議の上"})
    assert stages.out_of_date(division) == []
    assert semi.history.filter(action=HistoryEntry.Action.KEPT, note__startswith="協議の上").exists()


def test_replay_from_the_knockout_page_opens_the_game_with_the_new_teams(client, organiser, stale):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    client.post(knockout_url(event), {"action": "replay", "match": semi.match_number, "note": ""})
    semi.refresh_from_db()
    assert semi.status == Match.Status.SCHEDULED and second.pk in (semi.team_a_id, semi.team_b_id)
    assert semi.history.filter(action=HistoryEntry.Action.REPLAYED, user=organiser).exists()


def test_a_recorder_cannot_use_the_knockout_page(client, stale, db):
    event, division, semi, first, second = stale
    recorder = get_user_model().objects.create_user("recorder")
    event.recorders.add(recorder)
    client.force_login(recorder)
    assert client.post(knockout_url(event), {"action": "replay", "match": semi.match_number}).status_code == 403
    semi.refresh_from_db()
    assert semi.has_result


# --- the desk's game page ---------------------------------------------------------------------


def test_the_desk_says_before_confirming_what_a_correction_changes(client, organiser, db):
    event, (division,) = day([("小学生の部", [1, 2, 3, 4], 12, {})])
    event.organisers.add(organiser)
    play_groups(division)
    seed_divisions(event)
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    event.auto_confirm = False
    event.save(update_fields=["auto_confirm"])
    first, second, _third = members(group)
    game = between(first, second)
    play(game, 26, 30) if game.team_a_id == first.pk else play(game, 30, 26)
    client.force_login(organiser)
    url = reverse("judging:match_detail", args=[event.slug, game.match_number])
    html = client.get(url, **EN).content.decode()
    assert "Before confirming:" in html
    assert f"If confirmed, 小学生の部, Group A place 1 changes from {first.name} to {second.name}." in html
    assert f"Game {semi.match_number} (Semifinal) already has a result." in html
    ja = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"確定すると小学生の部・予選Aリーグ1位が{first.name}から{second.name}に変わります。" in ja
    assert f"第{semi.match_number}試合（準決勝）はすでに結果があります。" in ja


def test_an_out_of_date_game_page_says_so_and_links_to_the_choice(client, organiser, stale):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    html = client.get(reverse("judging:match_detail", args=[event.slug, semi.match_number]), **EN).content.decode()
    assert "This game is out of date" in html
    assert f"Group A place 1: was {first.name}, now {second.name}" in html
    assert f"#stale-{semi.match_number}" in html


def test_a_corrected_group_game_page_names_the_played_game_it_reaches(client, organiser, stale):
    event, division, semi, first, second = stale
    game = between(first, second)
    client.force_login(organiser)
    html = client.get(reverse("judging:match_detail", args=[event.slug, game.match_number]), **EN).content.decode()
    assert "A correction of this result can change who plays after the groups" in html
    assert f"Game {semi.match_number} (Semifinal)" in html


# --- status board, hall display, API ------------------------------------------------------------


def test_the_status_board_marks_out_of_date_games(client, organiser, stale):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    html = client.get(reverse("judging:status_board", args=[event.slug]), **EN).content.decode()
    assert "Out of date (a change reached them after they started)" in html
    assert f"Group A place 1: was {first.name}, now {second.name}" in html


def test_the_hall_displays_and_the_api_they_poll_mark_out_of_date_games(client, stale):
    event, division, semi, first, second = stale
    html = client.get(
        reverse("tournament:division_display", args=[event.slug, division.pk]) + "?fragment=1", **EN
    ).content.decode()
    assert "Under review after a correction" in html and f"Game {semi.match_number}" in html
    html = client.get(
        reverse("tournament:court_display", args=[event.slug, semi.court_id]) + "?fragment=1", **EN
    ).content.decode()
    assert "under review" not in html  # the semifinal has a result: no longer waiting on its court
    games = {g["number"]: g for g in client.get(reverse("api:results", args=[event.slug]), **EN).json()["games"]}
    assert games[semi.match_number]["out_of_date"] is True


def test_the_court_display_marks_a_started_game_that_is_out_of_date(client, stale):
    event, division, semi, first, second = stale
    other = Match.objects.get(division=division, stage=Match.Stage.SEMIFINAL, status=Match.Status.SCHEDULED)
    Match.objects.filter(pk=other.pk).update(actual_start=timezone.now())  # the referee pressed 開始
    group = division.groups.get(pk=int(other.source_a.split(":")[1]))
    winner, runner_up, _third = members(group)
    game = between(winner, runner_up)
    play(game, 26, 30) if game.team_a_id == winner.pk else play(game, 30, 26)
    assert other.pk in {s.match.pk for s in stages.out_of_date(division)}
    html = client.get(
        reverse("tournament:court_display", args=[event.slug, other.court_id]) + "?fragment=1", **EN
    ).content.decode()
    assert "under review" in html


def test_keeping_changes_the_api_answer_the_display_polls(client, organiser, stale):
    event, division, semi, first, second = stale
    url = reverse("api:results", args=[event.slug])
    before = client.get(url)["ETag"]
    client.force_login(organiser)
    client.post(knockout_url(event), {"action": "keep", "match": semi.match_number, "note": "了承"})
    client.logout()
    after = client.get(url)
    games = {g["number"]: g for g in after.json()["games"]}
    assert games[semi.match_number]["out_of_date"] is False and after["ETag"] != before


def test_a_replayed_game_opens_with_an_empty_sheet_on_the_court_and_at_the_desk(client, organiser, stale):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    client.post(knockout_url(event), {"action": "replay", "match": semi.match_number})
    semi.refresh_from_db()
    court_page = client.get(reverse("judging:court_entry", args=[semi.court.token, semi.match_number]), **EN)
    desk_page = client.get(reverse("judging:match_detail", args=[event.slug, semi.match_number]), **EN)
    for page in (court_page, desk_page):
        html = page.content.decode()
        assert "This game is played again" in html
        assert page.context["form"].initial.get("cards_a") is None
        assert page.context["form"].initial["base_version"] == semi.sheets.count()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "keep", "match": "abc", "note": "x"},
        {"action": "replay", "match": "99999"},
        {"action": "replay"},
        {"action": "seed", "division": "abc"},
        {"action": "reset", "division": ""},
    ],
)
def test_a_tampered_form_gets_404_and_changes_nothing(client, organiser, stale, data):
    event, division, semi, first, second = stale
    client.force_login(organiser)
    assert client.post(knockout_url(event), data).status_code == 404
    semi.refresh_from_db()
    assert semi.has_result and stages.out_of_date(division)
