"""Issue 18, item 6 in a real browser: a club's workbook with a hidden sheet of last year, a
club merged down over its teams, a hidden row and a grade outside the band; the organiser
sees the sheet read, where the club was filled from and the warnings, accepts them, imports."""

import io

import pytest
from openpyxl import Workbook

from tests import factories
from tests.browser.support import log_in, shot
from tournament.imports import TEMPLATE_LABELS
from tournament.models import Team

LOW = "小学生低学年の部"


@pytest.fixture
def event_and_organiser(django_user_model, transactional_db):
    user = django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    event = factories.make_event(slug="clubs")
    event.organisers.add(user)
    factories.make_division(event, name=LOW, grade_band="小1〜小3")
    return event


def club_workbook(path):
    wb = Workbook()
    last_year = wb.active
    last_year.title = "昨年"
    last_year.append(list(TEMPLATE_LABELS))
    last_year.append([LOW, "去年のチーム", "昔の会", "甲", None, "2年", "乙", None, "2年", "丙", None, "2年"])
    last_year.sheet_state = "hidden"
    ws = wb.create_sheet("今年")
    ws.append(list(TEMPLATE_LABELS))
    for name, players, grade in [
        ("ひたちA", ("一郎", "二郎", "三郎"), "2年"),
        ("ひたちB", ("四郎", "五郎", "六郎"), "5年"),
        ("ひたちC", ("七郎", "八郎", "九郎"), "2年"),
    ]:
        row = [LOW, name, "ひたち子ども会" if name == "ひたちA" else None]
        for player in players:
            row += [player, None, grade]
        ws.append(row)
    ws.merge_cells("C2:C4")
    ws.append([LOW, "隠したチーム", "x", "a", None, "2年", "b", None, "2年", "c", None, "2年"])
    ws.row_dimensions[5].hidden = True
    wb.active = 1
    out = io.BytesIO()
    wb.save(out)
    path.write_bytes(out.getvalue())


def test_the_organiser_imports_a_club_workbook_with_merged_cells_and_warnings(
    new_page, live_server, event_and_organiser, tmp_path
):
    event = event_and_organiser
    page = new_page(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    log_in(page, live_server, "organiser", "karuta-test-pw", f"/manage/{event.slug}/teams/import/")
    club_workbook(tmp_path / "club.xlsx")
    page.set_input_files("#id_file", str(tmp_path / "club.xlsx"))
    with page.expect_navigation():
        page.click("main form button")
    main = page.inner_text("main")
    shot(page, "entry-workbook-preview")
    assert "読み込んだシート：今年" in main
    assert "去年のチーム" not in main and "隠したチーム" not in main
    assert "この行は非表示になっているため、読み込んでいません。" in main
    assert "結合セルから補完： 所属 C2:C4" in main
    assert "対象学年（小1〜小3）の外です" in main
    with page.expect_navigation():
        page.click("main form button >> nth=0")  # not accepted yet: the page says so
    assert Team.objects.count() == 0
    page.check("input[name=accept_warnings]")
    with page.expect_navigation():
        page.click("main form button >> nth=0")
    assert page.url.endswith(f"/manage/{event.slug}/teams/")
    assert sorted(Team.objects.values_list("affiliation", flat=True)) == ["ひたち子ども会"] * 3
