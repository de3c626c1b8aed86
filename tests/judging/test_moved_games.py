"""Moved games and their paper (issue 15, item 9): the QR code of a moved game's old sheet
says where the game went, a closed court's tablet lists where its games went, and the print
page prints the sheets of the games moved since their sheet was printed."""

from io import BytesIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from pypdf import PdfReader

from judging.models import RecordingSheet
from tests import factories
from tournament.models import Match
from tournament.reports.sheets import moved_since_printed
from tournament.services.day_changes import close_court, delay_court
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    event = factories.make_event(courts=3)
    division = factories.make_division(event, courts=[1, 2, 3])
    factories.make_teams(division, 12)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event


@pytest.fixture
def organiser(client, django_user_model, event):
    user = django_user_model.objects.create_user("org")
    event.organisers.add(user)
    client.force_login(user)
    return user


def closed(event, name="2"):
    court = event.courts.get(name=name)
    moved = close_court(court)
    court.refresh_from_db()
    return court, Match.objects.get(pk=moved[0].pk)


def result():
    return {"cards_a": "30", "cards_b": "26", "referee_cards": "0", "joker_holder": "A", "rps_used": "0"}


def test_the_old_sheets_address_of_a_moved_game_says_where_it_went(client, event):
    court, match = closed(event)
    url = reverse("judging:court_entry", args=[court.token, match.match_number])
    page = client.get(url)
    text = page.content.decode()
    assert page.status_code == 200
    assert f"第2コートは閉鎖されました。第{match.match_number}試合は{match.court}です。" in text
    assert 'name="cards_a"' not in text and match.team_a.name in text


def test_a_result_posted_to_the_old_address_is_not_saved_and_shown_again(client, event):
    court, match = closed(event)
    url = reverse("judging:court_entry", args=[court.token, match.match_number])
    page = client.post(url, {**result(), "base_version": "0"})
    assert page.status_code == 410  # the tablet's script keeps the result ("no longer on this link")
    assert not RecordingSheet.objects.filter(match=match).exists()
    assert "30" in page.content.decode() and "未保存" in page.content.decode()


def test_the_other_court_pages_of_a_moved_game_say_where_it_went_too(client, event):
    court, match = closed(event)
    for name in ("court_dispute", "court_start"):
        url = reverse(f"judging:{name}", args=[court.token, match.match_number])
        page = client.post(url) if name == "court_start" else client.get(url)
        assert f"第{match.match_number}試合は{match.court}です" in page.content.decode()
    match.refresh_from_db()
    assert match.actual_start is None


def test_a_reopened_court_says_the_game_moved(client, event):
    court, match = closed(event)
    court.closed = False
    court.save()
    page = client.get(reverse("judging:court_entry", args=[court.token, match.match_number]))
    assert f"第{match.match_number}試合は{match.court}に移りました。" in page.content.decode()


def test_a_game_that_was_never_on_the_court_still_answers_404(client, event):
    court = event.courts.get(name="1")
    other = Match.objects.filter(event=event).exclude(court=court).first()
    assert client.get(reverse("judging:court_entry", args=[court.token, other.match_number])).status_code == 404


def test_a_closed_courts_tablet_says_it_is_closed_and_lists_where_its_games_went(client, event):
    court, _match = closed(event)
    text = client.get(reverse("judging:court_home", args=[court.token])).content.decode()
    assert "第2コートは閉鎖されました。" in text
    for m in Match.objects.filter(moved_from=court):
        assert f"第{m.match_number}試合 → {m.court}" in text
    assert "このコートで次に行う試合はありません" not in text


def test_the_print_filter_holds_the_games_moved_since_their_sheet_was_printed(client, event, organiser):
    sheets = reverse("tournament:recording_sheets", args=[event.slug])
    assert not moved_since_printed(event.matches.all()).exists()
    client.get(sheets)  # every sheet printed
    assert event.matches.filter(sheet_printed_at__isnull=True).count() == 0
    court = event.courts.get(name="1")
    delay_court(court, 10)
    moved = set(event.matches.filter(court=court).values_list("match_number", flat=True))
    assert set(moved_since_printed(event.matches.all()).values_list("match_number", flat=True)) == moved
    menu = client.get(reverse("tournament:print_menu", args=[event.slug])).content.decode()
    assert "記録用紙の印刷後に移動した試合" in menu and "?moved=1" in menu
    pdf = client.get(sheets + "?moved=1")
    assert len(PdfReader(BytesIO(pdf.content)).pages) == len(moved)
    assert not moved_since_printed(event.matches.all()).exists()
    menu = client.get(reverse("tournament:print_menu", args=[event.slug])).content.decode()
    assert "移動した試合の記録用紙はすべて移動後に印刷済みです" in menu


def test_a_moved_game_never_printed_counts_as_moved(event):
    _court, match = closed(event)
    assert match in moved_since_printed(event.matches.all())


def test_the_print_command_prints_the_moved_sheets_and_marks_them(event, tmp_path):
    delay_court(event.courts.get(name="3"), 5)
    count = moved_since_printed(event.matches.all()).count()
    out = tmp_path / "moved.pdf"
    call_command("print_sheets", event.slug, "--moved", "-o", str(out))
    assert len(PdfReader(str(out)).pages) == count
    assert not moved_since_printed(event.matches.all()).exists()
