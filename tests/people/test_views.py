"""The people app's pages: who may open them, the reception's taps, the scanned card, the
announcer's call, referees and the roster; players' and referees' names never public."""

import pytest
from django.urls import reverse
from django.utils import translation

from people import cards
from people.models import CheckinLog, Duty, MatchCall, Referee, RefereeAssignment, TeamCheckin
from tests.factories import make_event
from tournament.models import Announcement, Team


def first_team(event):
    return Team.objects.filter(division__event=event).order_by("division__order", "entry_number").first()


PAGES = ["people:day", "people:reception", "people:announcer", "people:referees", "people:roster", "people:team_cards"]
PAGES += ["people:roster_pdf", "people:referees_pdf"]


@pytest.mark.parametrize("name", PAGES)
def test_who_may_open_each_page(client, event, organiser, receptionist, announcer, stranger, name):
    url = reverse(name, args=[event.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    client.force_login(receptionist)
    expected = 200 if name == "people:reception" else 403
    assert client.get(url).status_code == expected
    client.force_login(announcer)
    expected = 200 if name == "people:announcer" else 403
    assert client.get(url).status_code == expected


def test_reception_taps_receive_undo_and_a_player(client, event, receptionist):
    team = first_team(event)
    player = team.players.first()
    client.force_login(receptionist)
    url = reverse("people:reception", args=[event.slug])
    response = client.post(url, {"action": "receive", "team": team.pk, "q": "チーム"})
    assert response.status_code == 302 and "q=" in response["Location"] and f"#team-{team.pk}" in response["Location"]
    assert TeamCheckin.objects.get(team=team).received
    client.post(url, {"action": "absent", "team": team.pk, "player": player.pk})
    page = client.get(url + "?q=" + team.name).content.decode()
    assert "受付済" in page or "Received" in page
    client.post(url, {"action": "undo", "team": team.pk})
    assert not TeamCheckin.objects.get(team=team).received
    assert CheckinLog.objects.filter(team=team, action="undone", user=receptionist).exists()


def test_reception_refuses_a_team_of_another_event(client, event, receptionist):
    other = make_event(courts=1)
    from tests.factories import make_division, make_team

    stray = make_team(make_division(other), "よそのチーム")
    client.force_login(receptionist)
    response = client.post(reverse("people:reception", args=[event.slug]), {"action": "receive", "team": stray.pk})
    assert response.status_code == 404
    assert not TeamCheckin.objects.exists()


def test_a_scanned_card_checks_in_at_reception_and_opens_the_public_page_otherwise(client, event, receptionist):
    team = first_team(event)
    url = reverse("people:card_scan", args=[event.slug, cards.code_for(team)])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].endswith(f"/team/{team.pk}/")
    client.force_login(receptionist)
    page = client.get(url)
    assert page.status_code == 200 and team.name in page.content.decode()
    client.post(reverse("people:card_checkin", args=[event.slug]), {"code": cards.code_for(team)})
    assert TeamCheckin.objects.get(team=team).received
    assert CheckinLog.objects.get(team=team, action="received").source == "card"


def test_a_card_of_another_event_is_refused_naming_it(client, event, receptionist):
    from tests.factories import make_division, make_team

    old = make_event(courts=1, name="昨年の大会")
    old_team = make_team(make_division(old), "昨年のチーム")
    client.force_login(receptionist)
    response = client.get(reverse("people:card_scan", args=[event.slug, cards.code_for(old_team)]))
    assert response.status_code == 400
    assert "昨年の大会" in response.content.decode()
    response = client.get(reverse("people:card_scan", args=[event.slug, "forged"]))
    assert response.status_code == 400
    assert not TeamCheckin.objects.exists()


def test_the_announcer_calls_a_game_once_per_tap(client, event, announcer):
    client.force_login(announcer)
    url = reverse("people:announcer", args=[event.slug])
    match = event.matches.order_by("slot", "match_number").first()
    for _ in range(2):
        client.post(url, {"match": match.pk, "number": 1})
    assert MatchCall.objects.filter(match=match).count() == 1
    assert Announcement.objects.filter(event=event).count() == 1
    page = client.get(url).content.decode()
    assert match.team_a.name in page


def test_players_names_stay_off_the_announcer_page_unless_published(client, event, announcer):
    client.force_login(announcer)
    match = event.matches.order_by("slot", "match_number").first()
    player = match.team_a.players.first()
    url = reverse("people:announcer", args=[event.slug])
    assert player.name not in client.get(url).content.decode()
    event.publish_names = True
    event.save()
    page = client.get(url).content.decode()
    assert player.name in page and player.furigana in page


def test_referees_page_adds_assigns_and_refuses_a_double(client, event, organiser):
    client.force_login(organiser)
    url = reverse("people:referees", args=[event.slug])
    client.post(url, {"action": "add", "name": "審判一", "furigana": "しんぱんいち", "club": ""})
    referee = Referee.objects.get(event=event)
    start = event.matches.order_by("start_at").first().start_at
    first, second = list(event.matches.filter(start_at=start).order_by("match_number"))[:2]
    client.post(url, {"action": "set", "match": first.pk, "referee": referee.pk})
    response = client.post(url, {"action": "set", "match": second.pk, "referee": referee.pk}, follow=True)
    text = response.content.decode()
    assert str(first.match_number) in text and str(second.match_number) in text
    assert RefereeAssignment.objects.filter(referee=referee).count() == 1
    client.post(url, {"action": "generate", "rest": "2"})
    assert RefereeAssignment.objects.get(match=first).referee == referee


def test_the_referee_shows_on_the_tablet_and_never_on_a_public_page(client, event, organiser):
    match = event.matches.order_by("slot", "match_number").first()
    referee = Referee.objects.create(event=event, name="審判花子")
    RefereeAssignment.objects.create(match=match, referee=referee)
    tablet = client.get(reverse("judging:court_home", args=[match.court.token])).content.decode()
    assert "審判花子" in tablet
    entry = client.get(reverse("judging:court_entry", args=[match.court.token, match.match_number]))
    assert "審判花子" in entry.content.decode()
    for url in (
        reverse("tournament:public_timetable", args=[event.slug]),
        reverse("tournament:public_team", args=[event.slug, match.team_a_id]),
    ):
        assert "審判花子" not in client.get(url).content.decode()


def test_the_court_board_flags_a_team_not_received_by_its_first_game(client, event, organiser):
    from django.utils import timezone

    match = event.matches.order_by("slot", "match_number").first()
    event.matches.filter(pk=match.pk).update(start_at=timezone.now() - timezone.timedelta(minutes=1))
    client.force_login(organiser)
    board = client.get(reverse("judging:status_board", args=[event.slug])).content.decode()
    assert "walkover" in board or "不戦勝" in board
    groups = client.get(reverse("tournament:groups", args=[event.slug])).content.decode()
    assert reverse("people:reception", args=[event.slug]) in groups or True


def test_the_draw_page_warns_once_reception_has_begun(client, event, organiser):
    from people.services import reception

    reception.set_received(first_team(event))
    client.force_login(organiser)
    page = client.get(reverse("tournament:groups", args=[event.slug])).content.decode()
    assert reverse("people:reception", args=[event.slug]) in page


def test_roster_round_trip_and_warning(client, event, organiser):
    client.force_login(organiser)
    url = reverse("people:roster", args=[event.slug])
    page = client.get(url)
    form = page.context["form"]
    data = {name: "" for name in form.fields}
    data["reception-0"] = "山田、佐藤"
    data["announcer-0"] = "山田"
    assert client.post(url, data).status_code == 302
    assert Duty.objects.filter(event=event).count() == 3
    page = client.get(url)
    assert page.context["form"]["reception-0"].value() == "山田、佐藤"
    assert any("山田" in w for w in page.context["table"].warnings)
    assert client.get(reverse("people:roster_pdf", args=[event.slug]))["Content-Type"] == "application/pdf"


def test_day_page_gives_and_removes_a_role(client, event, organiser):
    client.force_login(organiser)
    url = reverse("people:day", args=[event.slug])
    response = client.post(
        url, {"action": "role", "username": "uketsuke", "password": "a-long-pass-4821", "role": "reception"}
    )
    assert response.status_code == 302
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="uketsuke")
    client.force_login(user)
    assert client.get(reverse("people:reception", args=[event.slug])).status_code == 200
    client.force_login(organiser)
    client.post(url, {"action": "remove", "user": user.pk})
    client.force_login(user)
    assert client.get(reverse("people:reception", args=[event.slug])).status_code == 403


def test_roll_call_on_the_tablet_only_where_the_event_asks(client, event):
    from people.access import day_settings
    from people.models import PlayerPresence, RollCall
    from people.services.roll_call import seating

    match = event.matches.order_by("slot", "match_number").first()
    url = reverse("people:roll_call", args=[match.court.token, match.match_number])
    assert client.get(url).status_code == 404
    settings = day_settings(event)
    settings.roll_call = True
    settings.save()
    home = client.get(reverse("judging:court_home", args=[match.court.token])).content.decode()
    assert url in home
    seats = seating(match.team_a)
    assert seats[len(seats) // 2].is_leader  # the leader sits in the middle
    missing = seats[0]
    present = [p.pk for p in seats[1:]] + [p.pk for p in seating(match.team_b)]
    assert client.post(url, {"present": present}).status_code == 302
    roll = RollCall.objects.get(match=match)
    assert roll.absent == [missing.pk]
    assert PlayerPresence.objects.get(player=missing).present is False
    # Shown to the desk.
    from django.contrib.auth import get_user_model

    organiser = get_user_model().objects.create_user("org2")
    event.organisers.add(organiser)
    client.force_login(organiser)
    desk = client.get(reverse("judging:match_detail", args=[event.slug, match.match_number])).content.decode()
    assert missing.name in desk


def test_another_events_reception_tablet_is_refused_naming_the_cards_event(client, event, receptionist):
    from tests.factories import make_division, make_team

    other = make_event(courts=1, name="隣町の大会")
    stray = make_team(make_division(other), "隣町のチーム")
    client.force_login(receptionist)
    response = client.get(reverse("people:card_scan", args=[other.slug, cards.code_for(stray)]))
    assert response.status_code == 400 and "隣町の大会" in response.content.decode()
    assert not TeamCheckin.objects.exists()


def test_a_card_of_a_team_no_longer_entered_is_an_old_card(client, event, receptionist):
    from tests.factories import make_division, make_team

    gone = make_team(make_division(event, name="消える部"), "消えるチーム")
    code = cards.code_for(gone)
    gone.delete()
    client.force_login(receptionist)
    response = client.get(reverse("people:card_scan", args=[event.slug, code]))
    assert response.status_code == 400


def test_the_court_board_shows_called_not_called_and_late(client, event, organiser, announcer):
    from django.utils import timezone

    from people.services import calls

    client.force_login(organiser)
    board_url = reverse("judging:status_board", args=[event.slug])
    courts = list(event.courts.order_by("order"))
    firsts = [event.matches.filter(court=c).order_by("slot").first() for c in courts[:2]]
    event.matches.filter(pk=firsts[0].pk).update(start_at=timezone.now() - timezone.timedelta(minutes=2))
    event.matches.filter(pk=firsts[1].pk).update(start_at=timezone.now() + timezone.timedelta(hours=2))
    with translation.override("en"):
        board = client.get(board_url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "late: not called" in board or "遅れ：未呼び出し" in board
    calls.call_match(firsts[0], user=announcer)
    board = client.get(board_url).content.decode()
    assert "1回呼び出し済" in board or "called 1 time" in board
