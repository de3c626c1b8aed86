"""The podium screen in a browser (issue 19, item 6): "not decided yet" until the final is
confirmed, then the podium appears by itself (the screen's poll and version check); 2nd left,
1st in the middle, 3rd right, team names large, nothing cut off, at 1920×1080 and 1280×720
(joint thirds and players' names at 720p: the fullest podium on the smallest screen).
Screenshots in test-artifacts/screenshots/ (podium_*.png)."""

import pytest
from django.core.management import call_command

from tests.browser.support import shot
from tournament.models import Event, Match

SIZES = {"1080p": (1920, 1080), "720p": (1280, 720)}


def _seeded_demo(third_place_game, publish_names):
    """The demo day after its groups and seeding; the division with the most groups, whose
    final has not been played."""
    call_command("load_demo")
    event = Event.objects.get(slug="demo")
    event.publish_names = publish_names
    event.save()
    event.divisions.update(third_place_game=third_place_game)
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    call_command("simulate_results", "demo", "--seed", "1")
    call_command("seed_knockout", "demo")
    return event, max(event.divisions.all(), key=lambda d: d.groups.count())


def _spots(page):
    """The podium's spots as (rank, left, right, font size of its first team name in px)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.podium-spot')).map(s => {
            const r = s.getBoundingClientRect();
            const name = s.querySelector('.podium-name');
            return [s.className.match(/podium-(\\d)/)[1], r.left, r.right,
                    name ? parseFloat(getComputedStyle(name).fontSize) : 0];
        })"""
    )


def _cut_off(page):
    """Blocks of the podium lying partly outside the window."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.podium-team, .podium-step, .podium-waiting')).filter(i => {
            const r = i.getBoundingClientRect();
            return r.bottom > window.innerHeight + 1 || r.right > window.innerWidth + 1 || r.left < -1 || r.top < -1;
        }).length"""
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_the_podium_appears_by_itself_when_the_final_is_confirmed(new_page, live_server, transactional_db, size):
    fullest = size == "720p"
    event, division = _seeded_demo(third_place_game=not fullest, publish_names=fullest)
    width, height = SIZES[size]
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/demo/display/podium/{division.pk}/?seconds=5")
    page.locator('[data-podium="waiting"]').wait_for()
    assert "まだ決まっていません" in page.inner_text(".podium-waiting")
    assert page.evaluate("() => document.querySelector('.hall-items').getBoundingClientRect().width") > width * 0.9
    shot(page, f"podium_waiting_{size}")
    call_command("simulate_results", "demo", "--stage", "knockout", "--division", division.name, "--seed", "1")
    page.locator('[data-podium="decided"]').wait_for(timeout=15000)  # no reload: the poll fetches it
    spots = _spots(page)
    assert [rank for rank, *_ in spots] == ["2", "1", "3"]
    assert spots[0][2] <= spots[1][1] and spots[1][2] <= spots[2][1]  # left to right, side by side
    first_px = spots[1][3]
    assert first_px >= height * 0.031 * 1.5, first_px  # team names well above the body type
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    assert final.winner.name in page.inner_text(".podium-1")
    if fullest:
        assert page.locator(".podium-3 .podium-team").count() == 2
        assert final.winner.players.first().name in page.inner_text(".podium-1")
    else:
        assert page.locator(".podium-players").count() == 0
    assert _cut_off(page) == 0
    shot(page, f"podium_decided_{size}")


LONG_NAMES = [
    "ひたち郷土かるた愛好会（中小路）「さくら」ジュニアチーム第3班",  # 33 characters
    "日立市立中小路小学校かるたクラブ「ひまわり」シューターズ",
    "常陸太田ジュニアかるた会（北部）「あおば」チャレンジャーズ第2班",
    "東海村ふるさとかるた同好会ジュニアキッズ",
]
SMALL_KANA = "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶー）」、。・"


def _name_lines(page):
    """Per team name on the podium: (its lines' first characters' offsets within its phrase
    (0: a line starts where a phrase starts), the characters that start its lines, its number of
    lines)."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('.podium-name')).map(el => {
            const starts = [], firsts = [];
            let lastTop = null;
            for (const node of el.childNodes) {
                if (node.nodeType !== Node.TEXT_NODE) continue;
                for (let i = 0; i < node.length; i++) {
                    const range = document.createRange();
                    range.setStart(node, i); range.setEnd(node, i + 1);
                    const rect = range.getClientRects()[0];
                    if (!rect) continue;
                    if (lastTop === null || rect.top > lastTop + rect.height / 2) {
                        starts.push(i); firsts.push(node.data[i]); lastTop = rect.top;
                    }
                }
            }
            return [starts, firsts.join(''), firsts.length];
        })"""
    )


def _outside_the_screen_area(page):
    """Parts of the podium (place labels, names, affiliations, players, steps) not wholly inside
    the screen's area below the division heading."""
    return page.evaluate(
        """() => {
            const area = document.querySelector('.hall-items').getBoundingClientRect();
            const title = document.querySelector('.hall-screen-title').getBoundingClientRect();
            return Array.from(document.querySelectorAll(
                '.podium-place, .podium-name, .podium-affiliation, .podium-players, .podium-step'
            )).filter(e => {
                const r = e.getBoundingClientRect();
                return r.top < Math.max(area.top, title.bottom) - 1 || r.bottom > area.bottom + 1
                    || r.left < area.left - 1 || r.right > area.right + 1;
            }).map(e => e.className + ': ' + e.textContent.slice(0, 20));
        }"""
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_long_team_names_fit_their_step_and_break_between_phrases(new_page, live_server, transactional_db, size):
    """A 33-character team name (and long names on every step, with players' names and, at
    720p, joint thirds): every step stays wholly visible below the heading, each name takes at
    most three lines, lines start only where a phrase starts and never with a small kana."""
    event, division = _seeded_demo(third_place_game=size == "1080p", publish_names=True)
    call_command("simulate_results", "demo", "--stage", "knockout", "--division", division.name, "--seed", "1")
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    podium_teams = [final.winner, final.loser]
    podium_teams += [m.loser for m in Match.objects.filter(division=division, stage=Match.Stage.SEMIFINAL)]
    for team, name in zip(podium_teams, LONG_NAMES, strict=True):
        team.name = name
        team.save()
    width, height = SIZES[size]
    page = new_page(viewport={"width": width, "height": height}, locale="ja-JP")
    page.goto(f"{live_server.url}/e/demo/display/podium/{division.pk}/?seconds=600")
    page.locator('[data-podium="decided"]').wait_for()
    page.wait_for_function("() => document.querySelectorAll('.podium-name[data-fitted]').length > 0")
    assert LONG_NAMES[0] in page.inner_text(".podium-1").replace("\n", "")
    assert "優勝" in page.inner_text(".podium-1 .podium-place")
    assert _outside_the_screen_area(page) == []
    for starts, firsts, lines in _name_lines(page):
        assert lines <= 3, (firsts, lines)
        assert set(starts) == {0}, (starts, firsts)  # a line starts where a phrase starts
        assert not set(firsts) & set(SMALL_KANA), firsts
    shot(page, f"podium_long_names_{size}")
