"""MatchQuerySet, RecordingSheetQuerySet, PlayerCardsQuerySet and the named sets of
``Match.Status`` / ``Match.Stage`` (issue 30, item 2), as tables: every stage with every
status, and each method against the rule it names."""

import datetime
import itertools

import pytest
from django.utils import timezone

from judging.models import PlayerCards, RecordingSheet, RecordingSheetQuerySet
from tests.factories import make_division, make_event, make_team
from tournament.models import Match, MatchQuerySet

Stage, Status = Match.Stage, Match.Status
ALL_STATUSES = frozenset(Status)
ALL_STAGES = frozenset(Stage)


# --- the named sets -------------------------------------------------------------------------

SETS = [
    (Status.OPEN, {Status.SCHEDULED, Status.SUBMITTED, Status.DISPUTED}),
    (Status.WAITING, {Status.SUBMITTED, Status.DISPUTED}),
    (Status.AT_COURT, {Status.SCHEDULED, Status.DISPUTED}),
    (Status.PLAYED, {Status.CONFIRMED, Status.WALKOVER}),
    (Status.ENTERED, {Status.SUBMITTED, Status.DISPUTED, Status.CONFIRMED, Status.WALKOVER}),
    (Status.DONE, {Status.CONFIRMED, Status.WALKOVER, Status.VOID}),
    (Stage.AFTER_GROUPS, ALL_STAGES - {Stage.GROUP}),
    (Stage.BRACKET, ALL_STAGES - {Stage.GROUP, Stage.PLACEMENT}),
]


SET_NAMES = ["OPEN", "WAITING", "AT_COURT", "PLAYED", "ENTERED", "DONE", "AFTER_GROUPS", "BRACKET"]


@pytest.mark.parametrize(("named", "members"), SETS, ids=SET_NAMES)
def test_each_named_set_holds_exactly_its_members(named, members):
    assert isinstance(named, frozenset)
    assert named == members


def test_the_sets_are_no_choices():
    assert len(Status.choices) == 6 and len(Stage.choices) == 8
    assert "OPEN" not in Status.__members__ and "AFTER_GROUPS" not in Stage.__members__


def test_open_and_done_split_every_status_and_entered_is_neither_scheduled_nor_void():
    assert Status.OPEN | Status.DONE == ALL_STATUSES and not Status.OPEN & Status.DONE
    assert ALL_STATUSES - {Status.SCHEDULED, Status.VOID} == Status.ENTERED
    assert Status.WAITING <= Status.OPEN and Status.PLAYED <= Status.DONE


@pytest.mark.parametrize("status", sorted(ALL_STATUSES))
def test_the_properties_use_the_sets(status):
    match = Match(status=status)
    assert match.has_result == (status in {Status.CONFIRMED, Status.WALKOVER})
    assert match.awaits_result == (status in {Status.SCHEDULED, Status.SUBMITTED, Status.DISPUTED})


# --- the querysets, on every stage with every status ---------------------------------------

MATCH_METHODS = [
    ("group_stage", lambda m: m.stage == Stage.GROUP),
    ("after_groups", lambda m: m.stage != Stage.GROUP),
    ("bracket", lambda m: m.stage not in {Stage.GROUP, Stage.PLACEMENT}),
    ("placement", lambda m: m.stage == Stage.PLACEMENT),
    ("open", lambda m: m.status in {Status.SCHEDULED, Status.SUBMITTED, Status.DISPUTED}),
    ("waiting", lambda m: m.status in {Status.SUBMITTED, Status.DISPUTED}),
    ("played", lambda m: m.status in {Status.CONFIRMED, Status.WALKOVER}),
    ("done", lambda m: m.status in {Status.CONFIRMED, Status.WALKOVER, Status.VOID}),
    ("not_done", lambda m: m.status not in {Status.CONFIRMED, Status.WALKOVER, Status.VOID}),
    ("not_void", lambda m: m.status != Status.VOID),
    ("void", lambda m: m.status == Status.VOID),
    ("frozen", lambda m: m.actual_start is not None or m.status != Status.SCHEDULED),
]


@pytest.fixture
def every_game(db):
    """One game of each stage with each status (48), the games of every other stage started."""
    event = make_event(courts=1)
    division = make_division(event)
    other = make_division(event, name="中学生の部")
    started = timezone.make_aware(datetime.datetime(2027, 1, 17, 10, 0))
    games = []
    for n, (stage, status) in enumerate(itertools.product(sorted(ALL_STAGES), sorted(ALL_STATUSES)), start=1):
        games.append(
            Match.objects.create(
                event=event,
                division=division,
                stage=stage,
                status=status,
                match_number=n,
                actual_start=started if (n - 1) // len(ALL_STATUSES) % 2 else None,
            )
        )
    # A game of another division: the methods chain with the caller's own filters.
    Match.objects.create(event=event, division=other, stage=Stage.GROUP, match_number=100)
    return event, division, games


@pytest.mark.parametrize(("method", "rule"), MATCH_METHODS, ids=[m for m, _r in MATCH_METHODS])
def test_each_match_method_keeps_exactly_the_games_of_its_rule(every_game, method, rule):
    event, division, games = every_game
    expected = {m.pk for m in games if rule(m)}
    assert expected and expected != {m.pk for m in games}  # the table tells something
    found = getattr(Match.objects.filter(division=division), method)()
    assert isinstance(found, MatchQuerySet)
    assert set(found.values_list("pk", flat=True)) == expected
    # The related managers have the same methods.
    assert set(getattr(division.matches, method)().values_list("pk", flat=True)) == expected
    assert set(getattr(event.matches, method)().filter(division=division).values_list("pk", flat=True)) == expected


def test_the_methods_chain(every_game):
    _event, division, games = every_game
    found = set(division.matches.group_stage().open().values_list("pk", flat=True))
    assert found == {m.pk for m in games if m.stage == Stage.GROUP and m.status in Status.OPEN}
    assert len(found) == 3


# --- recording sheets and players' cards ---------------------------------------------------


def _sheet(match, version, confirmed):
    return RecordingSheet.objects.create(
        match=match,
        version=version,
        cards_a=10,
        cards_b=4,
        winner_side="A",
        decided_by="cards",
        is_confirmed=confirmed,
    )


@pytest.fixture
def sheets(every_game):
    """On the group and final games of every status: version 1 unconfirmed, version 2 confirmed
    on games with an even number; a player's cards on each version."""
    _event, division, games = every_game
    team = make_team(division, "港かるた会")
    player = team.players.first()
    made = []
    for match in games:
        if match.stage not in {Stage.GROUP, Stage.FINAL}:
            continue
        for version, confirmed in ((1, False), (2, match.match_number % 2 == 0)):
            sheet = _sheet(match, version, confirmed)
            PlayerCards.objects.create(sheet=sheet, player=player, cards=3)
            made.append(sheet)
    return made


SHEET_METHODS = [
    ("confirmed", lambda s: s.is_confirmed),
    ("group_stage", lambda s: s.match.stage == Stage.GROUP),
    ("not_void", lambda s: s.match.status != Status.VOID),
]


@pytest.mark.parametrize(("method", "rule"), SHEET_METHODS, ids=[m for m, _r in SHEET_METHODS])
def test_each_sheet_method_keeps_exactly_the_sheets_of_its_rule(sheets, method, rule):
    expected = {s.pk for s in sheets if rule(s)}
    assert expected and expected != {s.pk for s in sheets}
    found = getattr(RecordingSheet.objects.all(), method)()
    assert isinstance(found, RecordingSheetQuerySet)
    assert set(found.values_list("pk", flat=True)) == expected
    match = next(s.match for s in sheets if s.pk in expected)
    assert set(getattr(match.sheets, method)().values_list("pk", flat=True)) == {
        s.pk for s in sheets if s.pk in expected and s.match_id == match.pk
    }


def test_the_sheets_the_standings_read(sheets):
    found = set(RecordingSheet.objects.group_stage().confirmed().not_void().values_list("pk", flat=True))
    expected = {s.pk for s in sheets if s.is_confirmed and s.match.stage == Stage.GROUP and s.match.status != "void"}
    assert found == expected and expected


PLAYER_CARD_METHODS = [
    ("confirmed", lambda c: c.sheet.is_confirmed),
    ("group_stage", lambda c: c.sheet.match.stage == Stage.GROUP),
]


@pytest.mark.parametrize(("method", "rule"), PLAYER_CARD_METHODS, ids=[m for m, _r in PLAYER_CARD_METHODS])
def test_each_player_cards_method_keeps_exactly_the_counts_of_its_rule(sheets, method, rule):
    cards = list(PlayerCards.objects.select_related("sheet__match"))
    expected = {c.pk for c in cards if rule(c)}
    assert expected and expected != {c.pk for c in cards}
    assert set(getattr(PlayerCards.objects, method)().values_list("pk", flat=True)) == expected
