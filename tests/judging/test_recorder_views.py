"""The recorders' screens (記録係): who may open them, the confirm queue and the court board."""

import datetime
import json
import re

from django.urls import reverse
from django.utils import timezone
from django.utils.dateformat import format as date_format

from judging import disputes, services
from judging.engine import rules
from judging.models import RecordingSheet
from tests import factories
from tournament.models import Match

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)


def matches(event):
    return list(Match.objects.filter(event=event).select_related("court", "team_a", "team_b").order_by("match_number"))


def match_url(match):
    return reverse("judging:match_detail", args=[match.event.slug, match.match_number])


def action_url(match, action):
    """The address of a desk button on ``match``'s page (confirm, retype, reject, restore, void, reopen, adopt)."""
    return reverse(f"judging:match_{action}", args=[match.event.slug, match.match_number])


def recorder_urls(event):
    slug = event.slug
    return [
        reverse("judging:confirm_queue", args=[slug]),
        reverse("judging:status_board", args=[slug]),
        reverse("judging:match_detail", args=[slug, 1]),
        reverse("judging:organiser_dispute", args=[slug, 1]),
    ]


def setup_urls(event):
    slug = event.slug
    division = event.divisions.get()
    court = event.courts.first()
    team = division.teams.first()
    return [
        reverse("tournament:event_edit", args=[slug]),
        reverse("tournament:division_add", args=[slug]),
        reverse("tournament:division_edit", args=[slug, division.pk]),
        reverse("tournament:court_links", args=[slug]),
        reverse("tournament:court_add", args=[slug]),
        reverse("tournament:court_edit", args=[slug, court.pk]),
        reverse("tournament:team_list", args=[slug]),
        reverse("tournament:team_add", args=[slug]),
        reverse("tournament:team_edit", args=[slug, team.pk]),
        reverse("tournament:team_import", args=[slug]),
        reverse("tournament:groups", args=[slug]),
        reverse("tournament:knockout", args=[slug]),
    ]


# --- access -------------------------------------------------------------------------------


def test_a_recorder_can_open_the_confirm_queue_the_court_board_and_a_match(client, day, recorder):
    client.force_login(recorder)
    for url in recorder_urls(day):
        assert client.get(url).status_code == 200, url


def test_a_recorder_can_confirm_a_courts_entry(client, day, recorder):
    match = matches(day)[0]
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    client.force_login(recorder)
    assert client.post(action_url(match, "confirm"), {"version": "1"}).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.team_a_id


def test_a_recorder_cannot_restore_or_void_and_nothing_changes(client, day, recorder):
    match = matches(day)[0]
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    services.submit_sheet(match, rules.SheetValues(20, 36, 0, rules.JokerHolder.B), base_version=1, court=match.court)
    client.force_login(recorder)
    page = client.get(match_url(match))
    assert page.context["is_organiser"] is False
    text = page.content.decode()
    assert action_url(match, "restore") not in text and action_url(match, "void") not in text
    assert action_url(match, "confirm") in text  # the recorder's own buttons are there
    assert client.post(action_url(match, "restore"), {"version": "1"}).status_code == 403
    assert client.post(action_url(match, "void"), {"version": "2"}).status_code == 403
    assert RecordingSheet.objects.filter(match=match).count() == 2
    match.refresh_from_db()
    assert match.status == Match.Status.SUBMITTED
    unplayed = matches(day)[1]  # a game without any sheet yet
    assert client.post(action_url(unplayed, "void"), {"version": "0"}).status_code == 403
    unplayed.refresh_from_db()
    assert unplayed.status == Match.Status.SCHEDULED


def test_a_recorder_following_the_events_link_lands_on_the_confirmation_queue(client, day, recorder):
    client.force_login(recorder)
    listed = client.get(reverse("tournament:event_list")).content.decode()
    assert f'href="{day.get_absolute_url()}"' in listed
    response = client.get(day.get_absolute_url(), follow=True)
    assert response.redirect_chain == [(reverse("judging:confirm_queue", args=[day.slug]), 302)]
    assert response.status_code == 200
    nav = response.content.decode()
    assert reverse("tournament:team_list", args=[day.slug]) not in nav  # the navigation shows what it may open
    assert reverse("tournament:standings", args=[day.slug]) in nav


def test_a_refused_page_offers_the_way_back_to_the_users_tournaments(client, day, recorder):
    client.force_login(recorder)
    response = client.get(reverse("tournament:team_list", args=[day.slug]))
    assert response.status_code == 403
    assert f'href="{reverse("tournament:event_list")}"' in response.content.decode()


def test_a_recorder_cannot_open_the_setup_pages(client, day, recorder):
    client.force_login(recorder)
    for url in setup_urls(day):
        assert client.get(url).status_code == 403, url
    court = day.courts.first()
    token = court.token
    assert (
        client.post(
            reverse("tournament:court_links", args=[day.slug]), {"court": court.pk, "action": "renew"}
        ).status_code
        == 403
    )
    for action in ("renew", "revoke"):
        url = reverse("tournament:court_link_change", args=[day.slug, court.pk, action])
        assert client.get(url).status_code == 403
        assert client.post(url).status_code == 403
    court.refresh_from_db()
    assert court.token == token and court.link_enabled


def test_the_organiser_may_do_all_a_recorder_does(client, day, organiser):
    client.force_login(organiser)
    for url in recorder_urls(day):
        assert client.get(url).status_code == 200, url


def test_a_user_who_is_no_recorder_of_the_event_gets_403(client, day, django_user_model):
    user = django_user_model.objects.create_user("elsewhere")
    other = factories.make_event(courts=1, auto_confirm=False)
    other.recorders.add(user)
    client.force_login(user)
    for url in recorder_urls(day):
        assert client.get(url).status_code == 403, url
    match = matches(day)[0]
    services.submit_sheet(match, A_WINS, base_version=0, court=match.court)
    assert client.post(action_url(match, "confirm"), {"version": "1"}).status_code == 403
    assert not RecordingSheet.objects.filter(is_confirmed=True).exists()


def test_an_anonymous_visitor_is_sent_to_the_login(client, day):
    for url in recorder_urls(day):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url


# --- the confirm queue ------------------------------------------------------------------------


def test_the_confirm_queue_lists_submitted_and_disputed_matches_only(client, day, recorder, organiser):
    submitted, disputed, confirmed, scheduled, void, walkover = matches(day)
    services.submit_sheet(submitted, A_WINS, base_version=0, court=submitted.court)
    sheet, _ = services.submit_sheet(disputed, A_WINS, base_version=0, court=disputed.court)
    services.reject_sheet(sheet, recorder, "")
    services.record_confirmed_result(confirmed, A_WINS)
    services.void_match(void, organiser)
    services.submit_walkover(walkover, rules.Side.B)
    client.force_login(recorder)
    response = client.get(reverse("judging:confirm_queue", args=[day.slug]))
    queue = list(response.context["games"])
    # In game order; a walkover waiting for a recorder is a submission like any other.
    assert [g.pk for g in queue] == [submitted.pk, disputed.pk, walkover.pk]
    assert [g.last_version for g in queue] == [1, 1, 1]
    page = response.content.decode()
    for match in (submitted, disputed, walkover):
        assert match_url(match) in page
    for match in (confirmed, scheduled, void):
        assert match_url(match) not in page


# --- the court board --------------------------------------------------------------------------


def board_rows(client, event):
    response = client.get(reverse("judging:status_board", args=[event.slug]))
    assert response.status_code == 200
    return {row["court"].name: row for row in response.context["rows"]}, response.content.decode()


def test_the_court_board_shows_waiting_overdue_disputes_and_the_last_entry(client, day, recorder):
    court_1, court_2 = day.courts.order_by("order")
    on_1 = [g for g in matches(day) if g.court_id == court_1.pk]
    on_2 = [g for g in matches(day) if g.court_id == court_2.pk]
    waiting, overdue, not_yet_late = on_1[0], on_1[1], on_1[2]
    now = timezone.now()
    length = datetime.timedelta(minutes=day.game_minutes + day.changeover_minutes)
    Match.objects.filter(pk=overdue.pk).update(start_at=now - length - datetime.timedelta(minutes=5))
    Match.objects.filter(pk=not_yet_late.pk).update(start_at=now - length + datetime.timedelta(minutes=5))
    # A game waiting for confirmation is not overdue, however late it started.
    Match.objects.filter(pk=waiting.pk).update(start_at=now - datetime.timedelta(hours=2))
    sheet, _ = services.submit_sheet(waiting, A_WINS, base_version=0, court=court_1)
    disputes.log_dispute(on_2[0], "both", "both", rps_winner="A", court=court_2)
    disputes.log_dispute(on_2[0], "correct_only", "neither", court=court_2)

    client.force_login(recorder)
    rows, page = board_rows(client, day)
    assert [g.pk for g in rows["1"]["waiting"]] == [waiting.pk]
    assert [g.pk for g in rows["1"]["overdue"]] == [overdue.pk]
    assert rows["1"]["current"] == overdue  # the first game still without a result
    assert rows["1"]["disputes"] == 0 and rows["2"]["disputes"] == 2
    assert rows["1"]["last_entry"] == sheet.submitted_at
    assert rows["2"]["last_entry"] is None and rows["2"]["waiting"] == [] and rows["2"]["overdue"] == []
    assert rows["2"]["current"] == on_2[0]
    assert (rows["1"]["done"], rows["1"]["total"]) == (0, len(on_1))
    # The page shows them.
    assert date_format(timezone.localtime(sheet.submitted_at), "H:i") in page
    assert f'{match_url(waiting)}">{waiting.match_number}</a>' in page
    assert f'{match_url(overdue)}">{overdue.match_number}（' in page
    assert f'{match_url(not_yet_late)}">{not_yet_late.match_number}（' not in page


def test_the_court_board_lists_a_disputed_match_and_counts_a_finished_one(client, day, recorder):
    court_1 = day.courts.order_by("order").first()
    on_1 = [g for g in matches(day) if g.court_id == court_1.pk]
    sheet, _ = services.submit_sheet(on_1[0], A_WINS, base_version=0, court=court_1)
    services.reject_sheet(sheet, recorder)
    services.record_confirmed_result(on_1[1], A_WINS)
    client.force_login(recorder)
    rows, page = board_rows(client, day)
    assert [g.pk for g in rows["1"]["disputed"]] == [on_1[0].pk]
    assert rows["1"]["done"] == 1
    assert rows["1"]["current"] == on_1[0]  # the rejected game is to be entered again


def test_a_result_sent_after_the_login_expired_comes_back_after_logging_in_and_saves_once(
    client, day, django_user_model
):
    """Field fault: a recorder's session expired with the page open; sending lost the typed sheet."""
    user = django_user_model.objects.create_user("kept", password="karuta-test-pw")
    day.recorders.add(user)
    match = matches(day)[0]
    client.force_login(user)
    page = client.get(match_url(match))
    key = page.context["form"]["submission_key"].value()
    client.logout()  # the session expired
    typed = {
        "cards_a": "31",
        "cards_b": "25",
        "referee_cards": "0",
        "joker_holder": "B",
        "rps_winner": "",
        "rps_used": "0",
        "submission_key": key,
        "base_version": "0",
    }
    response = client.post(match_url(match), typed)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not RecordingSheet.objects.filter(match=match).exists()
    login_page = client.get(response["Location"])
    assert "kept" in login_page.content.decode() or "保持" in login_page.content.decode()
    client.post(reverse("login"), {"username": "kept", "password": "karuta-test-pw", "next": match_url(match)})
    kept = client.get(match_url(match))
    body = kept.content.decode()
    # Shown above the game's own form, as text (and as data its script puts back into the form):
    # never a second form ready to send (issue 18, item 1).
    assert kept.status_code == 200 and 'id="kept-form"' in body and "<td>31</td>" in body and "<td>25</td>" in body
    assert json.loads(re.search(r'id="kept-form-data" type="application/json">(.*?)</script>', body).group(1)) == [
        list(pair) for pair in typed.items()
    ]
    assert not RecordingSheet.objects.filter(match=match).exists()  # nothing sent on its own
    assert client.post(match_url(match), typed).status_code == 302
    assert client.post(match_url(match), typed).status_code == 302  # a double tap
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.cards_a, sheet.cards_b, sheet.submitted_by) == (31, 25, user)
    assert 'id="kept-form"' not in client.get(match_url(match)).content.decode()  # shown once
