"""A club enters its team through its entry link on a phone (390×844, Japanese), issue 20
item 4: the consent note first, then a team of three players (the leader in the middle) and a
substitute, then the team as the organiser will see it; nothing scrolls sideways."""

import pytest

from club_entry import services
from tests import factories
from tests.browser.support import shot
from tournament.models import Team

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def link(transactional_db):
    event = factories.make_event(courts=2)
    factories.make_division(event, name="小学生の部", grade_band="小1〜小6")
    return services.create_link(event, "みなと子ども会", contact_name="港 花子")


def no_sideways_scroll(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0


def test_a_club_enters_a_team_on_a_phone_and_sees_it_as_the_organiser_will(new_page, live_server, link):
    page = new_page(viewport=PHONE, locale="ja-JP")
    page.goto(f"{live_server.url}/club/{link.token}/")
    assert "保護者" in page.locator("#consent").inner_text()
    assert page.locator("a[href$='/team/add/']").count() == 0
    assert no_sideways_scroll(page)
    page.get_by_label("上の説明を読み、保護者の同意を得ています。").check()
    page.get_by_role("button", name="次へ").click()
    page.get_by_role("link", name="チームを申し込む").click()
    page.wait_for_selector("form.club-team-form")
    assert no_sideways_scroll(page)
    page.select_option("#id_division", label="小学生の部")
    page.fill("#id_name", "みなとA")
    page.fill("#id_chaperone", "港 太郎")
    for i, (name, kana, grade) in enumerate(
        [
            ("港一郎", "いちろう", "小5"),
            ("港二郎", "じろう", "小6"),
            ("港三郎", "さぶろう", "小4"),
            ("港四郎", "しろう", "小3"),
        ],
        start=1,
    ):
        page.fill(f"#id_p{i}_name", name)
        page.fill(f"#id_p{i}_furigana", kana)
        page.select_option(f"#id_p{i}_grade", grade)
    page.locator("input[name=leader][value='2']").check()
    page.get_by_role("button", name="保存").click()
    card = page.locator("[data-team='みなとA']")
    card.wait_for()
    text = card.inner_text()
    for expected in ("◎港二郎", "港四郎（補）", "港一郎", "港三郎", "みなと子ども会", "港 太郎", "小学生の部"):
        assert expected in text, expected
    shot(page, "club-entry-phone")
    assert no_sideways_scroll(page)
    team = Team.objects.get()
    assert team.affiliation == "みなと子ども会" and team.players.count() == 4
