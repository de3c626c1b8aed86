"""The family's team page on a parent's phone (390×844, Japanese; issue 35): the next game and
the due banner fit the screen, and 「LINEで送る文面」 copies the text or shows it selected (the
venue's plain http has no clipboard API), with the note beside the button. No inline script."""

import datetime

from django.db.models import Q
from django.utils import timezone

from tests.browser.support import shot
from tests.browser.test_public_phone_browser import LONG_NAME, PHONE, day, no_sideways_scroll  # noqa: F401
from tournament.models import Match


def test_the_team_page_on_a_phone_shows_the_due_game_and_copies_its_text(new_page, live_server, day):  # noqa: F811
    event, long_team = day
    waiting = (
        Match.objects.filter(Q(team_a=long_team) | Q(team_b=long_team), status=Match.Status.SCHEDULED)
        .order_by("start_at")
        .first()
    )
    if waiting is None:  # every game of the long team was played: take one back into the day
        waiting = Match.objects.filter(event=event, status=Match.Status.SCHEDULED).first()
        long_team = waiting.team_a
    waiting.start_at = timezone.now() + datetime.timedelta(minutes=3)
    waiting.save(update_fields=["start_at"])
    page = new_page(viewport=PHONE, locale="ja-JP")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/e/{event.slug}/team/{long_team.pk}/")
    banner = page.locator(".due-banner")
    assert banner.is_visible() and "まもなく試合です" in banner.inner_text()
    assert "あと" in page.locator(".family-next").inner_text()
    assert no_sideways_scroll(page)
    shot(page, "family-team-390")
    page.get_by_role("button", name="LINEで送る文面").click()
    note = page.locator(".share-done")
    note.wait_for(state="visible")
    assert "コピー" in note.inner_text()
    text = page.locator("#share-team").input_value()
    assert event.title in text and text.rstrip().endswith(f"/e/{event.slug}/team/{long_team.pk}/")
    assert no_sideways_scroll(page)
    assert not errors, errors
