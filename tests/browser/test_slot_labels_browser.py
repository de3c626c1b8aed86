"""The public bracket on a phone (390 px, Japanese): a side without a team shows where it comes
from, a game a later correction reached is marked out of date, and the page never overflows
the screen sideways (issue 15, item 2)."""

import pytest

from tests.browser.support import shot
from tests.tournament.test_services import drawn_day, play, play_groups_by_strength, win
from tournament import reports
from tournament.models import Match, Team
from tournament.reports import stages
from tournament.services.knockout import seed_knockout


@pytest.fixture
def corrected(transactional_db):
    """Four groups played, the knockout seeded, one semifinal played, then a correction gives
    that semifinal's group another winner."""
    event, division = drawn_day(4, 12)
    play_groups_by_strength(event)
    seed_knockout(event)
    state = next(s for s in stages.division_slots(division) if s.match.stage == Match.Stage.SEMIFINAL)
    play(state.match, 30, 26)
    group_pk = int(state.a.reference.split(":")[1])
    table = next(t for t in reports.division_standings(division) if t.group.pk == group_pk)
    first, second = (Team.objects.get(pk=row.team) for row in table.rows[:2])
    win(second, first, 33, 23)
    return event, state.match


def test_the_public_bracket_on_a_phone_shows_slot_labels_and_the_out_of_date_game(new_page, live_server, corrected):
    event, semi = corrected
    page = new_page(viewport={"width": 390, "height": 844}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/{event.slug}/bracket/")
    stale = page.locator(f"#m{semi.match_number}.out-of-date")
    stale.wait_for()
    assert "要確認" in stale.inner_text()
    assert page.locator(".tbd.slot").count() >= 1  # the other semifinal's loser, the final's side
    assert page.locator(".out-of-date-note[role=status]").count() == 1
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    shot(page, "public-bracket-slot-labels-390")
