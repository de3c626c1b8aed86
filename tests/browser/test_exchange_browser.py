"""Issue 20 item 1 in a real browser: the final's organiser uploads a district's results file
from the USB stick, reads the preview (qualifiers with their players, the district's places),
confirms, and finds the teams in the team list marked 「北部地区予選 1位」."""

import pytest

from series.models import QualifiedTeam
from tests.browser.support import log_in, shot
from tests.series.exchange_support import district, exported, final, make_series


@pytest.fixture
def final_and_file(django_user_model, transactional_db, tmp_path, settings):
    settings.DATA_DIR = tmp_path
    user = django_user_model.objects.create_user("organiser", password="karuta-test-pw")
    series = make_series()
    north = district(series, "north", "北部地区", seed=1)
    the_final = final(series)
    the_final.organisers.add(user)
    path = tmp_path / "north.karuta"
    path.write_bytes(exported(north))
    return the_final, path


def test_the_final_imports_a_districts_file_after_the_preview(new_page, live_server, final_and_file):
    the_final, path = final_and_file
    page = new_page(viewport={"width": 1280, "height": 900}, locale="ja-JP")
    log_in(page, live_server, "organiser", "karuta-test-pw", f"/manage/{the_final.slug}/exchange/")
    with page.expect_navigation():
        page.click("text=結果ファイルを取り込む")
    page.set_input_files("#id_file", str(path))
    with page.expect_navigation():
        page.click("main form button")
    main = page.inner_text("main")
    shot(page, "exchange-preview")
    assert "署名を確認しました：このシリーズの鍵ファイル" in main
    assert "北部地区" in main and "予選通過チーム" in main
    assert "シリーズ順位のための地区の順位" in main
    assert not QualifiedTeam.objects.exists()
    with page.expect_navigation():
        page.click("text=これらのチームと順位を取り込む")
    assert page.url.endswith(f"/manage/{the_final.slug}/teams/")
    assert "北部地区予選 1位" in page.inner_text("main")
    assert QualifiedTeam.objects.count() == 4
