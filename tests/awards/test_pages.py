"""The awards desk's pages (issue 19 item 3 and 4): the list with its status, printing with
the print log in the same answer, the preview and calibration, the settings form's refusals
naming their field, prizes added by hand, the MC's list (page and PDF)."""

import io
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from awards.models import AwardSettings, HandPrize, PrintLog
from awards.reports import all_certificates, event_awards
from common.pdf import fallback
from common.pdf.fonts import font_is_embedded, japanese_font
from tournament.models import Player, Team


@pytest.fixture
def organiser(played):
    user = get_user_model().objects.create_user("organiser")
    played.organisers.add(user)
    return user


@pytest.fixture
def desk(client, organiser, played):
    client.force_login(organiser)
    return client


def url(name, event, *args):
    return reverse(f"awards:{name}", args=[event.slug, *args])


def pages(response):
    return len(
        PdfReader(io.BytesIO(b"".join(response.streaming_content) if response.streaming else response.content)).pages
    )


def test_the_desk_lists_every_certificate_with_its_status_and_is_not_cached(desk, played):
    response = desk.get(url("desk", played))
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    html = response.content.decode()
    certs = all_certificates(event_awards(played))
    for cert in certs[:5]:
        assert cert.text.recipient in html
    assert html.count("status-not_printed") == len(certs)
    assert (
        reverse("awards:desk", args=[played.slug])
        in desk.get(reverse("tournament:print_menu", args=[played.slug])).content.decode()
    )


def test_printing_the_pending_ones_answers_the_pdf_and_logs_them_then_nothing_is_pending(desk, played):
    certs = all_certificates(event_awards(played))
    response = desk.post(url("print", played), {"which": "pending"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert pages(response) == len(certs)
    assert PrintLog.objects.filter(event=played).count() == len(certs)
    assert {log.printed_by.username for log in PrintLog.objects.all()} == {"organiser"}
    again = desk.post(url("print", played), {"which": "pending"}, follow=True)
    assert "Nothing to print" in again.content.decode() or "印刷するものはありません" in again.content.decode()
    assert PrintLog.objects.count() == len(certs)
    html = desk.get(url("desk", played)).content.decode()
    assert html.count("status-printed") == len(certs)


def test_reprinting_one_certificate_logs_that_one(desk, played):
    cert = all_certificates(event_awards(played))[4]
    response = desk.post(url("print", played), {"which": cert.key})
    assert response.status_code == 200 and pages(response) == 1
    assert list(PrintLog.objects.values_list("key", flat=True)) == [cert.key]
    desk.post(url("print", played), {"which": cert.key})
    assert PrintLog.objects.filter(key=cert.key).count() == 2


def test_a_get_of_the_print_address_prints_nothing(desk, played):
    assert desk.get(url("print", played)).status_code == 302
    assert not PrintLog.objects.exists()


def test_a_certificate_no_longer_in_the_list_is_said_so(desk, played):
    with translation.override("en"):
        response = desk.post(url("print", played), {"which": "1:p9:0:m0"}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "no longer in the list" in response.content.decode() or "一覧にありません" in response.content.decode()
    assert not PrintLog.objects.exists()


def test_preview_and_calibration_are_pdfs_that_log_nothing(desk, played):
    preview = desk.get(url("preview", played))
    assert preview.status_code == 200 and pages(preview) == len(all_certificates(event_awards(played)))
    division = played.divisions.first()
    one = desk.get(url("preview", played) + f"?division={division.pk}")
    assert pages(one) == len(event_awards(played, division=division)[0].certificates)
    calibration = desk.get(url("calibration", played))
    assert calibration.status_code == 200 and pages(calibration) == 1
    assert not PrintLog.objects.exists()


def settings_data(**changes):
    data = {
        "paper_size": "A4",
        "orientation": "portrait",
        "margin_top": "30",
        "margin_right": "25",
        "margin_bottom": "30",
        "margin_left": "25",
        "offset_x": "0",
        "offset_y": "0",
        "per": "team",
        "honorific": "様",
        "title": "賞状",
        "body": "あなたは{event}{division}において{place}の成績を収められました",
        "kanji_numerals": "on",
        "award_date": "",
        "issuers": "実行委員会 会長 | 日立 太郎",
        "places_up_to": "3",
        "individual_by": "division",
        "individual_name": "個人賞",
        "ceremony_order": "lowest_first",
    }
    return data | changes


def test_the_settings_are_saved_and_change_the_certificates(desk, played):
    response = desk.post(url("settings", played), settings_data())
    assert response.status_code == 302
    settings = AwardSettings.objects.get(event=played)
    assert settings.per == "team" and settings.issuer_lines() == (("実行委員会 会長", "日立 太郎"),)
    cert = all_certificates(event_awards(played))[0]
    assert cert.text.recipient == cert.prize.team.name and cert.text.body.endswith("優勝の成績を収められました")


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"margin_left": "80", "margin_right": "80"}, "__all__"),
        ({"margin_top": "150", "margin_bottom": "100"}, "__all__"),
        ({"orientation": "landscape", "margin_top": "60", "margin_bottom": "60"}, "__all__"),
        ({"margin_left": "75", "margin_right": "75", "margin_top": "98", "margin_bottom": "99"}, "__all__"),
        ({"body": "{}の部"}, "body"),
        ({"margin_top": "-3"}, "margin_top"),
        ({"offset_x": "45"}, "offset_x"),
        ({"body": "{evnt}の部"}, "body"),
        ({"body": "{event の部"}, "body"),
        ({"places_up_to": "0"}, "places_up_to"),
        ({"margin_top": "abc"}, "margin_top"),
        ({"issuers": "a | b | c"}, "issuers"),
    ],
)
def test_a_refused_setting_names_its_field_and_keeps_what_was_typed(desk, played, changes, field):
    response = desk.post(url("settings", played), settings_data(**changes))
    assert response.status_code == 200
    form = response.context["form"]
    assert field in form.errors, form.errors
    assert not AwardSettings.objects.filter(event=played).exists()
    html = response.content.decode()
    for value in changes.values():
        assert value in html


def test_a_prize_added_by_hand_and_removed(desk, played):
    team = Team.objects.filter(division__event=played).order_by("pk").last()
    player = team.players.first()
    response = desk.post(url("add_prize", played), {"name": "特別賞", "team": team.pk, "player": player.pk})
    assert response.status_code == 302
    prize = HandPrize.objects.get()
    assert (prize.name, prize.team, prize.player, prize.division) == ("特別賞", team, player, team.division)
    assert "特別賞" in desk.get(url("desk", played)).content.decode()
    desk.post(url("remove_prize", played, prize.pk))
    assert not HandPrize.objects.exists()
    assert desk.post(url("remove_prize", played, prize.pk)).status_code == 302  # already gone: a message


def test_a_refused_prize_names_the_field(desk, played):
    team, other = Team.objects.filter(division__event=played).order_by("pk")[:2]
    response = desk.post(
        url("add_prize", played), {"name": "特別賞", "team": team.pk, "player": other.players.first().pk}
    )
    assert response.status_code == 200 and "player" in response.context["hand_form"].errors
    response = desk.post(url("add_prize", played), {"name": "", "team": "99999999999999999999"})
    assert response.status_code == 200 and {"name", "team"} <= set(response.context["hand_form"].errors)
    assert not HandPrize.objects.exists()


def test_the_mc_list_page_shows_every_name_with_its_furigana_lowest_place_first(desk, played):
    html = desk.get(url("mc_list", played)).content.decode()
    division = event_awards(played)[0]
    champion, third = division.prizes[0], division.prizes[-1]
    assert html.index(third.team.name) < html.index(champion.team.name)
    for player in champion.team.players.filter(is_substitute=False):
        assert f"<ruby>{player.name}<rp>（</rp><rt>{player.furigana}</rt>" in html


def test_the_mc_list_pdf_reads_names_and_furigana_in_ceremony_order(desk, played):
    response = desk.get(url("mc_list", played) + "?format=pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    division = event_awards(played)[0]
    champion, third = division.prizes[0], division.prizes[-1]
    assert text.index(third.team.name) < text.index(champion.team.name)
    for player in champion.team.players.filter(is_substitute=False):
        assert player.name in text and player.furigana in text


@pytest.fixture
def no_fallback_fonts(monkeypatch):
    """Only the main font: 𠮷 prints as 〓 whatever fonts this machine has."""
    monkeypatch.setenv(fallback.ENV_VAR, "")
    fallback.reset_fallback_cache()
    japanese_font()
    if not font_is_embedded():
        pytest.skip("needs the TrueType font (coverage of the CID font is unknown)")
    yield
    fallback.reset_fallback_cache()


def champion_member(played):
    cert = next(c for c in all_certificates(event_awards(played)) if c.member is not None)
    return cert, cert.member


def test_a_character_no_font_prints_is_named_on_its_row_and_on_the_mc_list(desk, played, no_fallback_fonts):
    """Issue 19 fix, finding 1: 𠮷 printed as 〓 and only the server log said so."""
    cert, member = champion_member(played)
    Player.objects.filter(pk=member.pk).update(name="𠮷田 花子")
    note = "𠮷（U+20BB7）は印刷できません：〓 になります"
    html = desk.get(url("desk", played)).content.decode()
    assert html.count(note) == 1
    row = html[html.index("𠮷田 花子") :]
    assert row.index(note) < row.index("</tr>")  # on the certificate's own row
    assert "1 枚の賞状に、どのフォントにもない文字があります" in html
    assert note in desk.get(url("mc_list", played)).content.decode()
    Player.objects.filter(pk=member.pk).update(name="吉田 花子")
    assert "は印刷できません" not in desk.get(url("desk", played)).content.decode()


def test_a_corrected_certificate_names_the_paper_to_take_back(desk, played):
    """Issue 19 fix, finding 2: "changed since printed" named the new recipient only."""
    cert, member = champion_member(played)
    desk.post(url("print", played), {"which": "pending"})
    log = PrintLog.objects.get(key=cert.key)
    assert (log.recipient, log.team, log.place) == (member.name, cert.prize.team.name, cert.text.place)
    Player.objects.filter(pk=member.pk).update(name="根本 和奏")
    html = desk.get(url("desk", played)).content.decode()
    taken_back = f"印刷済みの用紙は {member.name} / {cert.prize.team.name} 宛て — その用紙を回収してください"
    assert taken_back in html
    assert html.index("根本 和奏") < html.index(taken_back)  # beside the new text
    AwardSettings.objects.create(event=played, places_up_to=1)  # the runners-up lose theirs
    html = desk.get(url("desk", played)).content.decode()
    orphan = PrintLog.objects.filter(event=played, place="準優勝").first()
    assert f"印刷済みの用紙は 準優勝 {orphan.recipient} / {orphan.team} 宛て" in html


def test_a_log_line_without_the_printed_names_says_its_summary(desk, played):
    cert, member = champion_member(played)
    PrintLog.objects.create(event=played, key=cert.key, fingerprint="0" * 32, summary="小学生の部 優勝 旧チーム 旧名")
    html = desk.get(url("desk", played)).content.decode()
    assert "印刷済みの用紙は 小学生の部 優勝 旧チーム 旧名 宛て" in html


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"margin_left": "130", "margin_right": "25"}, "左余白（130 mm）と右余白（25 mm）を除くと"),
        ({"margin_top": "150", "margin_bottom": "60"}, "上余白（150 mm）と下余白（60 mm）を除くと"),
        (
            {"margin_left": "75", "margin_right": "75", "margin_top": "98", "margin_bottom": "99"},
            "余白（上 98、右 75、下 99、左 75 mm）を除くと、文字に使えるのは 60 × 100 mm です。",
        ),
    ],
)
def test_margins_leaving_too_little_room_are_refused_naming_both(desk, played, changes, said):
    """Issue 19 fix, findings 3 and 5: a left-margin error showed under the right margin, and
    margins the form accepted left too little room for the default certificate."""
    response = desk.post(url("settings", played), settings_data(**changes))
    form = response.context["form"]
    assert list(form.errors) == ["__all__"], form.errors
    assert said in response.content.decode()
    assert not AwardSettings.objects.filter(event=played).exists()


def test_empty_braces_are_named_as_typed_and_the_page_says_how_to_write_a_brace(desk, played):
    """Issue 19 fix, finding 5: 「{}」 was reported as 「{{}}」; min="0" on a field refusing 0."""
    html = desk.post(url("settings", played), settings_data(body="{}の部")).content.decode()
    assert "中身のない括弧 {} があります" in html and "{{}}" not in html
    page = desk.get(url("settings", played)).content.decode()
    assert "括弧そのものは2つ重ねて書きます（{{ で {、}} で } が印刷されます）" in page
    assert 'name="places_up_to" value="3" min="1" max="16"' in page or (
        'min="1"' in page.split('name="places_up_to"')[1].split(">")[0]
    )
    response = desk.post(url("settings", played), settings_data(body="{{題}} {event}"))
    assert response.status_code == 302
    cert = all_certificates(event_awards(played))[0]
    assert cert.text.body.startswith("{題} ")


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        (
            {
                "margin_top": "0",
                "margin_right": "0",
                "margin_bottom": "0",
                "margin_left": "0",
                "offset_x": "30",
                "offset_y": "30",
            },
            "右端",
        ),
        (
            {
                "margin_top": "80",
                "margin_right": "5",
                "margin_bottom": "80",
                "margin_left": "5",
                "offset_x": "30",
                "offset_y": "30",
            },
            "右端",
        ),
        ({"margin_top": "4"}, "上端"),
        ({"margin_left": "7", "draw_frame": "on"}, "枠"),
    ],
)
def test_margins_and_offset_that_put_the_text_off_the_paper_are_refused(desk, played, changes, said):
    """Issue 19 re-check, finding 1: margins 0 with offset +30/+30 printed past the paper's edge."""
    response = desk.post(url("settings", played), settings_data(**changes))
    assert response.status_code == 200
    html = response.content.decode()
    assert said in html and "5 mm" in html
    assert not AwardSettings.objects.filter(event=played).exists()


def test_an_absurd_margin_is_refused_on_its_field_and_said_once(desk, played):
    """Issue 19 re-check, finding 1: margin_right 1e3 said 「… -815 mm しか残りません」 twice."""
    response = desk.post(url("settings", played), settings_data(margin_right="1e3"))
    form = response.context["form"]
    assert list(form.errors) == ["margin_right"], form.errors
    html = response.content.decode()
    assert "しか残りません" not in html
    assert html.count(str(form.errors["margin_right"][0])) == 1


def test_a_form_level_refusal_is_said_once(desk, played):
    html = desk.post(url("settings", played), settings_data(margin_left="130")).content.decode()
    assert html.count("左余白（130 mm）と右余白（25 mm）を除くと") == 1


def test_a_name_without_furigana_is_flagged_on_the_mc_list_page_and_pdf(desk, played):
    """Issue 19 re-check, finding 2: a member without furigana was not flagged, though the MC's
    list is there so every name is pronounced right."""
    _cert, member = champion_member(played)
    Player.objects.filter(pk=member.pk).update(furigana=" ")
    html = desk.get(url("mc_list", played)).content.decode()
    assert "1 人の名前によみがなが登録されていません" in html
    at = html[html.index(member.name) :]
    assert at.index("よみがな未登録") < at.index("</ruby>")
    pdf = desk.get(url("mc_list", played) + "?format=pdf").content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert text.count("よみがな未登録") == 1


def test_the_mc_list_with_every_furigana_says_no_warning(desk, played):
    html = desk.get(url("mc_list", played)).content.decode()
    assert "よみがな未登録" not in html and "よみがなが登録されていません" not in html


ORPHANS = "印刷済みだが不要になった賞状"


def test_papers_no_longer_given_can_be_marked_collected_and_the_list_empties(desk, played):
    """Issue 19 re-check, finding 3: switching per team ↔ per member left a long permanent
    「印刷済みだが不要になった賞状」 list with no way to clear it."""
    assert desk.post(url("print", played), {"which": "all"}).status_code == 200
    desk.post(url("settings", played), settings_data(per="team"))
    assert ORPHANS in desk.get(url("desk", played)).content.decode()
    one = PrintLog.objects.filter(event=played, key__contains=":m").order_by("pk").first()
    desk.post(url("collected", played), {"key": one.key})
    assert PrintLog.objects.filter(event=played, key=one.key).count() == 2  # recorded in the log
    html = desk.get(url("desk", played)).content.decode()
    assert ORPHANS in html and f'value="{one.key}"' not in html.split(ORPHANS)[1]
    assert desk.post(url("collected", played), {"key": "all"}).status_code == 302
    assert ORPHANS not in desk.get(url("desk", played)).content.decode()
    refused = desk.post(url("collected", played), {"key": "nothing"}, follow=True).content.decode()
    assert "回収・破棄済みにする用紙がありません" in refused
    # Back to one per member: the collected papers are "not printed", not "changed since printed".
    desk.post(url("settings", played), settings_data(per="member"))
    member = next(c for c in all_certificates(event_awards(played)) if c.key == one.key)
    assert member.status == "not_printed"


def test_a_disabled_print_button_looks_disabled(desk, played):
    assert desk.post(url("print", played), {"which": "all"}).status_code == 200
    html = desk.get(url("desk", played)).content.decode()
    assert 'value="pending" disabled' in html
    css = Path(finders.find("css/awards.css")).read_text(encoding="utf-8")
    assert "button:disabled" in css


def test_the_desk_warns_and_printing_asks_while_no_issuer_is_set(desk, played):
    """Issue 33 item 1: no 授与者 → a warning linking to the settings, and every print button
    asks first (page.js's data-ask); the settings' field shows an example, never a value."""
    with translation.override("ja"):
        html = desk.get(url("desk", played)).content.decode()
    assert 'id="no-issuers"' in html and "授与者が未設定です" in html
    assert url("settings", played) + "#id_issuers" in html
    ask = 'data-ask="授与者が未設定のため、賞状に主催者の名前が入りません。このまま印刷しますか？"'
    buttons = html.count('name="which"')
    assert buttons > 2 and html.count(ask) == buttons
    with translation.override("ja"):
        page = desk.get(url("settings", played)).content.decode()
    assert f'placeholder="{played.name}実行委員会 会長 | 日立 太郎"' in page
    assert "会長 | 日立 太郎</textarea>" not in page  # an example only, never a value
    assert desk.post(url("settings", played), settings_data()).status_code == 302
    html = desk.get(url("desk", played)).content.decode()
    assert 'id="no-issuers"' not in html and "data-ask" not in html


@pytest.mark.skipif(not (shutil.which("pdftotext") and shutil.which("pdftoppm")), reason="poppler-utils not installed")
def test_the_printed_certificate_writes_its_numbers_in_kanji(desk, played, tmp_path):
    """Issue 33 item 1: the 3rd place's certificate of the 21st edition, dated 2027-01-17,
    read back from the PDF (pdftotext, the invisible reading layer) and rendered."""
    desk.post(url("settings", played), settings_data(per="team", body="あなたは第{edition}回{event}において"))
    third = next(c for c in all_certificates(event_awards(played)) if c.prize.rank == 3)
    response = desk.post(url("print", played), {"which": third.key})
    path = tmp_path / "third.pdf"
    path.write_bytes(b"".join(response.streaming_content) if response.streaming else response.content)
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    flat = "".join(text.split())
    assert "第三位" in flat and "第二十一回" in flat and "令和九年一月十七日" in flat
    assert not any(ch.isdigit() for ch in flat.replace(played.name, "")), flat
    subprocess.run(["pdftoppm", "-png", "-r", "50", str(path), str(tmp_path / "page")], check=True, timeout=60)
    assert list(tmp_path.glob("page*.png"))
