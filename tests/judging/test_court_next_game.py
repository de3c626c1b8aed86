"""The court's tablet never says "no next game" while it has one (issue 27 item 3): after a
semifinal, while the final waits for its teams, the big line names the final; before the
games after the groups are made, it says they are still to come; only a court with nothing
left says "このコートで次に行う試合はありません。"."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from judging import services
from judging.engine import rules
from tests import factories
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

NONE_LEFT = "このコートで次に行う試合はありません。"
A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)


@pytest.fixture
def day(db):
    """Twelve teams in four groups on four courts, every group game played; results wait for a recorder."""
    event = factories.make_event(courts=4, slug="tablet", auto_confirm=False)
    division = factories.make_division(event, courts=[1, 2, 3, 4], after_groups="knockout")
    factories.make_teams(division, 12)
    draw_groups(event, seed=2)
    make_schedule(event)
    call_command("simulate_results", "tablet", "--seed", "3", stdout=StringIO())
    return event


def tablet_page(court):
    return Client(HTTP_ACCEPT_LANGUAGE="ja").get(reverse("judging:court_home", args=[court.token])).content.decode()


def test_before_the_knockout_is_made_the_tablet_says_it_is_to_come(day):
    court = day.courts.order_by("order").first()
    page = tablet_page(court)
    assert NONE_LEFT not in page
    assert "いま行う試合はありません。" in page and "小学生の部のリーグ戦後の試合はまだ作成されていません" in page


def test_after_the_semifinal_the_big_line_names_the_final(day):
    call_command("seed_knockout", "tablet", stdout=StringIO())
    final = Match.objects.get(event=day, stage=Match.Stage.FINAL)
    court = final.court
    semifinal = Match.objects.get(event=day, stage=Match.Stage.SEMIFINAL, court=court)
    services.submit_sheet(semifinal, A_WINS, base_version=0, court=court)  # waits for the recorder
    page = tablet_page(court)
    assert NONE_LEFT not in page
    head = page.split('id="next-game">', 1)[1].split("</h1>", 1)[0]
    assert head == f"次の試合：第{final.match_number}試合（{final.start_at.astimezone().strftime('%H:%M')}）"
    assert "出場チームはまだ決まっていません" in page


def test_a_court_with_nothing_left_says_so(day):
    call_command("seed_knockout", "tablet", stdout=StringIO())
    call_command("simulate_results", "tablet", "--stage", "knockout", "--seed", "4", stdout=StringIO())
    court = Match.objects.get(event=day, stage=Match.Stage.FINAL).court
    assert NONE_LEFT in tablet_page(court)
