"""The commands of issue 15's stages: seed_knockout per division and record_result (a recorder's
entry of a corrected sheet, with what its confirmation changes after the groups)."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from judging.models import RecordingSheet
from tests.tournament.test_stages_services import between, day, members, play, play_groups, semifinal_of
from tournament.management.commands.seed_knockout import named_once
from tournament.models import Match
from tournament.reports import stages
from tournament.services.knockout import seed_divisions


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def two(db):
    return day([("低学年の部", [1, 2], 6, {}), ("高学年の部", [3, 4], 6, {})])


def test_seed_knockout_seeds_the_ready_divisions_and_says_why_not_the_others(two):
    event, (low, high) = two
    play_groups(high)
    out = run("seed_knockout", event.slug)
    assert "高学年の部: bracket seeded" in out
    assert "低学年の部" in out and "without a result" in out
    assert Match.objects.filter(division=high).exclude(stage=Match.Stage.GROUP).exists()
    assert not Match.objects.filter(division=low).exclude(stage=Match.Stage.GROUP).exists()


def test_seed_knockout_with_nothing_ready_exits_0_and_says_why(two):
    event, (low, high) = two
    out = run("seed_knockout", event.slug)
    assert "低学年の部" in out and "高学年の部" in out
    assert f"{event.slug}: 0 knockout games created." in out


def test_seed_knockout_of_a_named_division_that_is_not_ready_exits_with_its_reason(two):
    event, (low, high) = two
    play_groups(high)
    with pytest.raises(CommandError, match="低学年の部.*without a result"):
        run("seed_knockout", event.slug, "--division", "低学年の部")
    assert not Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP).exists()
    out = run("seed_knockout", event.slug, "--division", "高学年の部")
    assert "高学年の部: bracket seeded" in out


def test_seed_knockout_of_an_unknown_division_names_the_known_ones(two):
    event, _divisions = two
    with pytest.raises(CommandError, match="大人の部.*低学年の部"):
        run("seed_knockout", event.slug, "--division", "大人の部")


def test_seed_knockout_reset_redraws_one_division(two):
    event, (low, high) = two
    play_groups(high)
    seed_divisions(event, division=high)
    before = set(Match.objects.filter(division=high).exclude(stage=Match.Stage.GROUP).values_list("pk", flat=True))
    run("seed_knockout", event.slug, "--division", "高学年の部", "--reset")
    after = set(Match.objects.filter(division=high).exclude(stage=Match.Stage.GROUP).values_list("pk", flat=True))
    assert after and not before & after


@pytest.fixture
def played_semifinal(db):
    event, (division,) = day([("小学生の部", [1, 2, 3, 4], 12, {})])
    play_groups(division)
    seed_divisions(event)
    group = division.groups.order_by("name").first()
    semi = semifinal_of(division, group)
    play(semi, 30, 26)
    first, second, _third = members(group)
    return event, division, semi, between(first, second), first, second


def test_record_result_with_confirm_prints_the_places_and_the_games_out_of_date(played_semifinal):
    event, division, semi, game, first, second = played_semifinal
    event.auto_confirm = False
    event.save(update_fields=["auto_confirm"])
    a, b = (26, 30) if game.team_a_id == first.pk else (30, 26)
    out = run("record_result", event.slug, str(game.match_number), str(a), str(b), "--confirm")
    assert f"Game {game.match_number}: version 2 (confirmed)" in out
    assert f"Confirmed. 小学生の部, Group A place 1 changed from {first.name} to {second.name}." in out
    assert "If confirmed" not in out
    assert f"Game {semi.match_number} (Semifinal) already has a result." in out
    assert (
        f"out of date: Game {semi.match_number} (Semifinal): 小学生の部, Group A place 1: was {first.name}, "
        f"now {second.name}" in out
    )
    assert [s.match for s in stages.out_of_date(division)] == [semi]


def test_record_result_without_confirm_leaves_the_version_waiting(played_semifinal):
    event, division, semi, game, first, second = played_semifinal
    event.auto_confirm = False
    event.save(update_fields=["auto_confirm"])
    a, b = (26, 30) if game.team_a_id == first.pk else (30, 26)
    out = run("record_result", event.slug, str(game.match_number), str(a), str(b), "--joker", "A" if a > b else "B")
    assert "waiting for confirmation" in out and "  If confirmed, 小学生の部, Group A place 1" in out
    assert stages.out_of_date(division) == []
    game.refresh_from_db()
    assert game.status == Match.Status.SUBMITTED


@pytest.mark.parametrize(
    "args, message",
    [
        (["999", "30", "26"], "No game 999"),
        (["{game}", "30", "20"], r"Game \d+: CARDS_A \+ CARDS_B \+ --referee: Cards of A \(30\) \+ cards of B \(20\)"),
        (["{game}", "28", "28"], r"--rps-winner"),
        (["{game}", "30", "26", "--joker", "referee"], r"--joker: The referee holds 「り」"),
    ],
)
def test_record_result_refuses_bad_input_naming_the_game_and_field_and_saves_nothing(played_semifinal, args, message):
    event, division, semi, game, first, second = played_semifinal
    sheets = RecordingSheet.objects.count()
    args = [a.format(game=game.match_number) for a in args]
    with pytest.raises(CommandError, match=message):
        run("record_result", event.slug, *args, "--confirm")
    assert RecordingSheet.objects.count() == sheets


def test_record_result_of_a_game_whose_teams_are_not_known_is_refused(played_semifinal):
    event, division, semi, game, first, second = played_semifinal
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    final.team_a = final.team_b = None
    final.save(update_fields=["team_a", "team_b"])
    with pytest.raises(CommandError, match=f"game {final.match_number} are not known yet"):
        run("record_result", event.slug, str(final.match_number), "30", "26")


def test_seed_knockout_counts_placement_games_apart(db):
    event, (both,) = day([("中学生の部", [1, 2], 8, {"after_groups": "both", "qualifiers_per_group": 2})])
    play_groups(both)
    out = run("seed_knockout", event.slug)
    games = Match.objects.filter(division=both).exclude(stage=Match.Stage.GROUP)
    placement = games.filter(stage=Match.Stage.PLACEMENT).count()
    assert placement
    knockout = games.count() - placement
    assert f"{event.slug}: {knockout} knockout games and {placement} placement games created." in out


def test_a_refusal_names_the_division_once():
    class Division:
        name = "中学生の部"

    assert (
        named_once(Division, "中学生の部：中学生の部のAリーグに同順位があります")
        == "中学生の部のAリーグに同順位があります"
    )
    assert named_once(Division, "中学生の部: Group A of 中学生の部 is tied") == "Group A of 中学生の部 is tied"
    assert named_once(Division, "中学生の部 has no court.") == "中学生の部 has no court."
    assert named_once(Division, "Group A is tied") == "中学生の部: Group A is tied"


def test_simulate_results_says_group_results_and_plurals(two):
    event, (low, _high) = two
    out = run("simulate_results", event.slug, "--division", "低学年の部", "--seed", "1")
    count = Match.objects.filter(division=low, stage=Match.Stage.GROUP).count()
    assert f"{count} group results entered" in out


def test_the_labels_in_sentences_name_the_division_in_japanese(played_semifinal):
    event, division, semi, game, first, second = played_semifinal
    with translation.override("ja"):
        (state,) = [s for s in stages.division_slots(division) if s.match.pk == semi.pk]
        sentences = {side.sentence for side in state.sides}
        labels = {side.label for side in state.sides}
        shorts = {side.short for side in state.sides}
    assert "小学生の部・予選Aリーグ1位" in sentences
    assert "予選Aリーグ1位" in labels and "A1" in shorts  # the bracket's words stay short
