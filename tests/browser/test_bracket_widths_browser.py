"""The bracket reads right at every width (issue 27 item 3): the organiser's knockout page, the
public bracket and final places, and the hall's division screen and podium, at 390, 768, 1366
and 1920 px. On each: no sideways scroll of the page; no element of the bracket or the placement
table reaches past its box (a name, a card, the 入力 button); team names are never one
character per line (their height against their line height)."""

import pytest
from django.core.management import call_command

from tests import factories
from tests.browser.support import log_in, shot
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

WIDTHS = (390, 768, 1366, 1920)
NAMES = [
    "ひたちなか市立かるた愛好会少年少女チーム",
    "日立南クラブ",
    "十王かるた少年団Ａ",
    "港かるた会ジュニア",
    "多賀かるた同好会",
    "大みか子ども会",
    "会瀬ジュニアかるた",
    "河原子かるたクラブ",
    "久慈浜少年団",
    "坂本小学校",
    "助川かるた会",
    "滑川子ども会",
]

# In the page: the elements that reach past the box of their nearest ancestor that clips or
# scrolls, or past the viewport; and names laid out with fewer than two characters a line.
CHECK = """(selector) => {
  const faults = [];
  const vw = document.documentElement.clientWidth;
  const roots = document.querySelectorAll(selector);
  const boxOf = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX !== 'visible' || p.matches('.game, td, th, .card, .hall-item')) return p;
    }
    return document.documentElement;
  };
  for (const root of roots) {
    const rr = root.getBoundingClientRect();
    if (rr.right > vw + 1) faults.push(`${root.className || root.tagName} ends at ${Math.round(rr.right)} > ${vw}`);
    for (const el of root.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (!r.width || !r.height || getComputedStyle(el).position === 'absolute') continue;
      const box = boxOf(el).getBoundingClientRect();
      const s = getComputedStyle(boxOf(el));
      const scrolls = s.overflowX === 'auto' || s.overflowX === 'scroll';
      if (!scrolls && (r.right > box.right + 1 || r.left < box.left - 1))
        faults.push(`${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 20)}" ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(box.left)}–${Math.round(box.right)}`);
      if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible")
        faults.push(`${el.tagName}.${el.className} clips its content (${el.scrollWidth} > ${el.clientWidth})`);
    }
    for (const el of root.querySelectorAll('.name-check')) {
      const text = el.textContent.trim();
      if ([...text].length < 4) continue;
      const line = parseFloat(getComputedStyle(el).lineHeight) || parseFloat(getComputedStyle(el).fontSize) * 1.3;
      const lines = Math.round(el.getBoundingClientRect().height / line);
      if (lines > 1 && [...text].length / lines < 3)
        faults.push(`"${text}" on ${lines} lines (${Math.round(el.getBoundingClientRect().width)} px wide)`);
    }
  }
  return faults;
}"""


@pytest.fixture
def played(transactional_db, django_user_model):
    """Twelve teams in four groups, the knockout for the group winners (semifinals, final, a
    third-place game) and placement games for the others, every game played."""
    event = factories.make_event(courts=4, slug="widths")
    division = factories.make_division(event, courts=[1, 2, 3, 4], after_groups="both")
    for name in NAMES:
        factories.make_team(division, name)
    draw_groups(event, seed=2)
    make_schedule(event)
    call_command("simulate_results", "widths", "--seed", "3")
    call_command("seed_knockout", "widths")
    call_command("simulate_results", "widths", "--stage", "knockout", "--seed", "4")
    call_command("simulate_results", "widths", "--stage", "placement", "--seed", "5")
    user = django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    event.organisers.add(user)
    return event, division


def _mark_names(page):
    """Marks the team names of the bracket sides and the placement table for the check."""
    page.evaluate(
        """() => {
      for (const el of document.querySelectorAll('.bracket .game > div:not(.muted) > span:first-child, .placement td > span, .final-places td, .podium-name, .hall-podium .name'))
        el.classList.add('name-check');
    }"""
    )


def _check(page, selector, label):
    _mark_names(page)
    sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    faults = page.evaluate(CHECK, selector)
    assert sideways <= 0 and not faults, (label, sideways, faults[:8])


@pytest.mark.parametrize("width", WIDTHS)
def test_the_bracket_and_the_places_read_right_at_every_width(new_page, live_server, played, width):
    event, division = played
    page = new_page(viewport={"width": width, "height": 900}, locale="ja-JP")
    log_in(page, live_server, "organiser", "karuta-test-pw", f"/manage/{event.slug}/knockout/")
    shot(page, f"bracket-organiser-{width}")
    _check(page, "main .bracket, main .placement", "organiser knockout")
    page.goto(f"{live_server.url}/e/{event.slug}/bracket/")
    shot(page, f"bracket-public-{width}")
    _check(page, "main .bracket, main .placement", "public bracket")
    page.goto(f"{live_server.url}/e/{event.slug}/final/")
    shot(page, f"bracket-final-{width}")
    _check(page, "main", "public final places")


@pytest.mark.parametrize("width", WIDTHS)
def test_the_hall_screens_bracket_and_podium_fit(new_page, live_server, played, width):
    event, division = played
    height = {390: 844, 768: 1024}.get(width, width * 9 // 16)
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/{event.slug}/display/division/{division.pk}/?seconds=1")
    page.locator(".hall-bracket").wait_for(state="visible", timeout=15000)  # the screen pages to it
    shot(page, f"bracket-hall-{width}")
    _check(page, ".hall-bracket", "hall bracket")
    page.goto(f"{live_server.url}/e/{event.slug}/display/podium/{division.pk}/")
    page.wait_for_timeout(300)
    shot(page, f"bracket-podium-{width}")
    _check(page, ".hall-main", "hall podium")
