"""The crawl's own detectors on small pages made for them (issue 27): each check finds what it
is meant to find, and a clean page gives nothing, so a green crawl means something."""

import pytest

from tests.browser.support import ARGS, CHROMIUM, sync_playwright
from tests.surface import crawl, files, language

BAD = """<!doctype html><html lang="ja"><head><title>t</title></head><body>
<div style="width:1200px">wide</div>
<div style="width:60px;overflow:hidden;white-space:nowrap">とても長い文章がはみ出します</div>
<p style="width:14px;font-size:16px">縦に並ぶ文字</p>
<input type="text" name="nameless">
<button type="button">＋</button>
<label><input type="radio" name="side" value="A">A</label><label><input type="radio" name="side" value="B">B</label>
</body></html>"""

GOOD = """<!doctype html><html lang="ja"><head><title>t</title></head><body>
<h1>成績</h1><label for="n">名前</label><input id="n" name="n">
<button type="button" aria-label="1枚増やす">＋</button>
<fieldset><legend>欠場チーム</legend><label><input type="radio" name="s" value="A">A</label>
<label><input type="radio" name="s" value="B">B</label></fieldset></body></html>"""


@pytest.fixture(scope="module")
def page():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        yield page
        browser.close()


def _checks(page, html):
    page.set_content(html)
    return {check for check, _detail in page.evaluate(crawl.PAGE_CHECKS, True)["problems"]}


def test_each_detector_finds_its_fault(page):
    found = _checks(page, BAD)
    for check in (
        "sideways-scroll",
        "clipped",
        "one-char-per-line",
        "unnamed-control",
        "symbol-name",
        "radio-group-unnamed",
    ):
        assert check in found, (check, found)


MARQUEE = """<!doctype html><html lang="ja"><head><title>t</title><style>
@keyframes run { from { transform:translateX(0); } to { transform:translateX(-100%); } }
.track { width:200px; overflow:hidden; white-space:nowrap; }
.items { display:inline-flex; gap:2em; animation:run 45s linear infinite; }
.items.still { animation:none; }
</style></head><body>
<div class="track" id="moving"><div class="items">第1試合 第1コート 結果 第2試合 第2コート 結果 第3試合 第3コート 結果</div></div>
%s
</body></html>"""


def test_a_scrolling_marquee_is_not_clipped_but_a_still_one_is(page):
    """The hall screens' ticker moves its text through its box on purpose (issue 27): not clipped;
    the same box whose text stands still hides the end of it: clipped."""
    assert "clipped" not in _checks(page, MARQUEE.replace("%s", ""))
    still = '<div class="track"><div class="items still">第1試合 第1コート 結果 第2試合 第2コート 結果</div></div>'
    assert "clipped" in _checks(page, MARQUEE.replace("%s", still))


def test_a_visually_hidden_box_is_not_clipped(page):
    """Text kept for screen readers in a 1-px box (the hanafuda grid's radio buttons behind
    its card buttons) is hidden on purpose, not clipped (issue 27)."""
    hidden = """<!doctype html><html lang="ja"><head><title>t</title></head><body>
<div style="position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)">一郎 二郎 三郎</div></body></html>"""
    assert "clipped" not in _checks(page, hidden)


def test_controls_in_a_closed_details_are_named_as_when_opened(page):
    """A folded part (details) is opened by the person who fills it in: its labels and legends
    count (issue 27); an unnamed control in it is still found."""
    folded = """<!doctype html><html lang="ja"><head><title>t</title></head><body><details><summary>決まり</summary>
<fieldset><legend>坊主</legend><label><input type="radio" name="b" value="1"> はい</label>
<label><input type="radio" name="b" value="0"> いいえ</label></fieldset>%s</details></body></html>"""
    assert _checks(page, folded.replace("%s", "")) == set()
    assert "unnamed-control" in _checks(page, folded.replace("%s", '<input type="number" name="n">'))


def test_a_clean_page_gives_nothing(page):
    assert _checks(page, GOOD) == set()


def test_the_language_check_leaves_names_and_shared_terms_alone():
    names = language.names_pattern(["日立太郎", "Aoki"])
    assert language.wrong_words("Team 日立太郎 won 30 cards (PDF)", "en", names) == []
    assert language.wrong_words("Winner: じゃんけん", "en", names) == ["じゃんけん"]
    assert language.wrong_words("優勝 Aoki ・ PDF・Excel ・ https://x.test/a", "ja", names) == []
    assert language.wrong_words("優勝 Champion", "ja", names) == ["Champion"]


def test_a_workbook_number_stored_as_text_is_found():
    from io import BytesIO

    from openpyxl import Workbook

    book = Workbook()
    book.active["A1"] = "12"
    book.active["A2"] = 12
    out = BytesIO()
    book.save(out)
    said = []
    files._xlsx(out.getvalue(), said.append)
    assert said == ["Sheet!A1 holds the number '12' as text"]


def test_the_language_check_takes_addresses_out_before_names():
    # a court called 「A」 or 「3」 is a name; it used to cut a link's secret into "words"
    names = language.names_pattern(["A", "3", "organiser"])
    page = "第3コート http://127.0.0.1:8123/reader/PusABF9-f6ovfoZElubEeQf1E1lrHNQ4/ 作成者：organiser"
    assert language.wrong_words(page, "ja", names) == []
    # a Latin name only as a whole word: the 3 of MP3 and the A of Aoki stay
    assert language.wrong_words("MP3・Aoki", "ja", names) == ["Aoki"]


def test_the_language_check_leaves_units_placeholders_and_punctuation_alone():
    assert language.wrong_words("余白 12 mm、480 ms、{edition}と{place}を使えます", "ja", None) == []
    assert language.wrong_words("上の余白（mm）、最大 500 KB、localhost でも", "ja", None) == []
    # a court called 「3」 is a name, and does not take the number away from its unit
    assert language.wrong_words("署名（3 KB）", "ja", language.names_pattern(["3"])) == []
    assert language.wrong_words("余白 12 mm、12 millimetres", "ja", None) == ["millimetres"]
    assert language.wrong_words("Court 1 ・ 10:00 ・ Group A", "en", None) == []
    assert language.wrong_words("順位決定戦（A-B、C-D）", "ja", None) == []  # groups by their letters


def test_the_language_check_reads_quoted_japanese_as_a_quote_on_english_pages():
    page = "Each card twice, 「次、読みます」 between cards; the columns 「頭字」 and 「読み札」; the card 「り」 or り"
    assert language.wrong_words(page, "en", None) == []
    assert language.wrong_words("Touch judgment (判定表)", "en", None) == ["判定表"]
    # on a Japanese page quotes change nothing: English inside 「」 is still English
    assert language.wrong_words("「Start」を押す", "ja", None) == ["Start"]
