"""The people app's writes and read side (issue 32): reception with its log and counts, calls
to courts through the hall screens' announcements, referees with their refusals, the roster."""

import datetime
import threading

import pytest
from django.db import connection
from django.utils import timezone

from common.errors import UserError
from people import reports
from people.models import CheckinLog, Duty, MatchCall, PlayerPresence, Referee, RefereeAssignment, TeamCheckin
from people.roster import roster_table
from people.services import calls, reception, referees, roster
from tournament.models import Announcement, Match, Team


def teams(event):
    return list(Team.objects.filter(division__event=event).order_by("division__order", "entry_number"))


def test_receive_undo_and_the_log(event, receptionist):
    team = teams(event)[0]
    checkin, changed = reception.set_received(team, user=receptionist)
    assert checkin.received and changed
    # A second receptionist's tick changes nothing and logs nothing.
    assert reception.set_received(team, user=receptionist)[1] is False
    reception.set_received(team, False, user=receptionist)
    assert TeamCheckin.objects.get(team=team).received is False
    actions = list(CheckinLog.objects.filter(team=team).order_by("pk").values_list("action", flat=True))
    assert actions == ["received", "undone"]


def test_check_in_with_an_absent_player_and_an_unknown_name_writes_nothing(event):
    team = teams(event)[0]
    absent = team.players.order_by("order")[0]
    with pytest.raises(UserError, match="誰でもない"):
        reception.check_in(team, absent=["誰でもない"])
    assert not TeamCheckin.objects.filter(team=team).exists()
    reception.check_in(team, absent=[absent.name])
    presence = dict(PlayerPresence.objects.filter(player__team=team).values_list("player__name", "present"))
    assert presence[absent.name] is False and sum(presence.values()) == team.players.count() - 1


def test_counts_per_division_and_the_draw_warning(event):
    first = teams(event)[0]
    reception.set_received(first)
    counts = {c.name: (c.received, c.total) for c in reports.division_counts(event)}
    assert counts == {"小学生の部": (1, 6), "中学生の部": (0, 4)}
    assert first not in reports.not_received_teams(event)
    assert len(reports.not_received_teams(event)) == 9


def test_a_team_not_received_by_its_first_game_is_late(event):
    first_game = event.matches.order_by("start_at").first()
    before = first_game.start_at - datetime.timedelta(minutes=1)
    assert reports.late_team_ids(event, now=before) == set()
    late = reports.late_team_ids(event, now=first_game.start_at)
    assert {first_game.team_a_id, first_game.team_b_id} <= late
    reception.set_received(first_game.team_a)
    assert first_game.team_a_id not in reports.late_team_ids(event, now=first_game.start_at)


@pytest.mark.django_db(transaction=True)
def test_two_receptionists_at_once_share_one_state(event):
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises writers itself; the row lock is PostgreSQL's")
    team = teams(event)[0]
    results = []

    def tick():
        results.append(reception.set_received(team)[1])
        connection.close()

    threads = [threading.Thread(target=tick) for _ in range(2)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(results) == [False, True]
    assert TeamCheckin.objects.filter(team=team).count() == 1


def test_a_call_goes_to_the_hall_screens_once_per_tap(event, announcer):
    match = event.matches.order_by("slot", "match_number").first()
    call = calls.call_match(match, 1, user=announcer)
    assert call.text.startswith(str(match.court)) or match.team_a.name in call.text
    again = calls.call_match(match, 1, user=announcer)  # the same tap sent twice
    assert again.pk == call.pk
    assert Announcement.objects.filter(event=event).count() == 1
    second = calls.call_match(match, 2, user=announcer)
    assert second.number == 2 and Announcement.objects.filter(event=event).count() == 2
    with pytest.raises(UserError, match="2"):
        calls.call_match(match, 5)
    rows = {r.court.pk: r for r in reports.announcer_rows(event)}
    assert rows[match.court_id].state == "called"
    assert len(rows[match.court_id].calls) == 2


def test_the_call_text_in_japanese(event):
    from django.utils import translation

    match = event.matches.order_by("slot", "match_number").first()
    with translation.override("ja"):
        text = calls.call_text(match, 2)
    assert text == f"（2回目）{match.court}に集合してください：{match.team_a.name}、{match.team_b.name}"


def test_announcer_shows_players_only_where_names_are_published(event):
    rows = [r for r in reports.announcer_rows(event) if r.match]
    assert rows and all(not r.players_a for r in rows)
    event.publish_names = True
    event.save()
    rows = [r for r in reports.announcer_rows(event) if r.match]
    assert rows[0].players_a and rows[0].players_a[0][1]  # (name, furigana)


def test_call_state_late_when_due_and_not_called(event):
    match = event.matches.order_by("slot", "match_number").first()
    assert reports.call_state(match, [], now=match.start_at - datetime.timedelta(minutes=5)) == "not_called"
    assert reports.call_state(match, [], now=match.start_at) == "late"
    MatchCall.objects.create(match=match, number=1, called_at=timezone.now(), text="x")
    assert reports.call_state(match, list(match.calls.all()), now=match.start_at) == "called"


def make_referees(event, count=4, club="", prefix="審判"):
    return [
        Referee.objects.create(event=event, name=f"{prefix}{i}", furigana=f"しんぱん{i}", club=club)
        for i in range(count)
    ]


def test_assign_with_rest_and_never_own_club(event):
    make_referees(event, 5)
    own = Referee.objects.create(event=event, name="同クラブ", club="小学生の部チーム子ども会1")
    plan = referees.assign(event, rest=2)
    assert not plan.unassigned
    for assignment in RefereeAssignment.objects.filter(referee=own).select_related("match__team_a", "match__team_b"):
        assert "小学生の部チーム子ども会1" not in (
            assignment.match.team_a.affiliation,
            assignment.match.team_b.affiliation,
        )
    # No referee judges two games at one time.
    pairs = list(RefereeAssignment.objects.values_list("referee_id", "match__start_at"))
    assert len(pairs) == len(set(pairs))


def test_by_hand_refuses_a_double_assignment_naming_both_games(event):
    ref = make_referees(event, 1)[0]
    start = event.matches.order_by("start_at").first().start_at
    first, second = list(event.matches.filter(start_at=start).order_by("match_number"))[:2]
    referees.set_referee(first, ref)
    with pytest.raises(UserError) as refused:
        referees.set_referee(second, ref)
    assert str(first.match_number) in str(refused.value) and str(second.match_number) in str(refused.value)
    assert not RefereeAssignment.objects.filter(match=second).exists()
    # A generated assignment keeps the games given by hand.
    make_referees(event, 3, prefix="応援")
    referees.assign(event, rest=0)
    assert RefereeAssignment.objects.get(match=first).referee == ref


def test_by_hand_refuses_the_referees_own_club(event):
    match = event.matches.exclude(team_a__affiliation="").first()
    ref = Referee.objects.create(event=event, name="身内", club=match.team_a.affiliation)
    with pytest.raises(UserError, match=match.team_a.affiliation):
        referees.set_referee(match, ref)


def test_roster_saved_and_two_places_warned(event):
    table = roster_table(event)
    assert len(table.blocks) >= 2
    roster.save_roster(event, {("reception", 0): ["山田"], ("announcer", 0): ["山田", "佐藤"]})
    assert Duty.objects.filter(event=event).count() == 3
    table = roster_table(event)
    assert any("山田" in w for w in table.warnings)
    with pytest.raises(UserError, match="X"):
        roster.save_roster(event, {("reception", 0): ["x" * 61]}, {("reception", 0): "X"})
    assert Duty.objects.filter(event=event).count() == 3  # nothing lost
    assert roster.split_names("山田、佐藤, 鈴木\n山田") == ["山田", "佐藤", "鈴木"]


def test_a_withdrawn_team_is_refused(event):
    team = teams(event)[0]
    Team.objects.filter(pk=team.pk).update(withdrawn=True)
    with pytest.raises(UserError):
        reception.set_received(Team.objects.get(pk=team.pk))
    assert Match.objects.exists()


def test_deleting_the_event_takes_the_people_of_the_day_with_it(event, announcer):
    from people.models import CardPrint, RollCall
    from tournament.models import Event
    from tournament.services.events import delete_event

    reception.check_in(teams(event)[0])
    match = event.matches.order_by("slot", "match_number").first()
    calls.call_match(match, user=announcer)
    ref = make_referees(event, 1)[0]
    referees.set_referee(match, ref)
    roster.save_roster(event, {("reception", 0): ["山田"]})
    RollCall.objects.create(match=match, at=timezone.now())
    CardPrint.objects.create(event=event, printed_at=timezone.now(), snapshot={})
    from tournament.services.events import deletion_preview

    delete_event(event, typed_slug=event.slug, digest=deletion_preview(event).digest)
    assert not Event.objects.filter(pk=event.pk).exists()
    assert not TeamCheckin.objects.exists() and not MatchCall.objects.exists() and not Duty.objects.exists()
