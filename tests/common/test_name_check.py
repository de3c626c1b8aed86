"""Issue 18 item 9: names are checked against the PDF fonts when typed or imported, and the
print page lists the names that print with 〓.  Before, the form and the import accepted
𠮷田 without a word and only the server log named the character (after a 500)."""

from __future__ import annotations

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from common.pdf import fallback
from common.pdf.coverage import Unprintable, entry_font_warnings, font_warnings, unprintable
from common.pdf.fonts import font_is_embedded, japanese_font
from tests import factories
from tournament.imports import TEMPLATE_LABELS
from tournament.models import Team


@pytest.fixture(autouse=True)
def _no_fallback_fonts(monkeypatch):
    """Only the main font: the same answers on every machine."""
    monkeypatch.setenv(fallback.ENV_VAR, "")
    fallback.reset_fallback_cache()
    japanese_font()
    if not font_is_embedded():
        pytest.skip("needs the TrueType font (coverage of the CID font is unknown)")
    yield
    fallback.reset_fallback_cache()


def test_unprintable_names_the_character_and_a_standard_form():
    assert unprintable("𠮷田かるた会") == [Unprintable("𠮷", "U+20BB7", "吉")]
    assert unprintable("한글😀한") == [
        Unprintable("한", "U+D55C", ""),
        Unprintable("글", "U+AE00", ""),
        Unprintable("😀", "U+1F600", ""),
    ]
    assert unprintable("髙﨑𩸽") == []  # IPAex has them: no suggestion offered
    assert unprintable("葛\U000e0100飾") == []  # the selector is dropped, 葛 prints
    assert unprintable(None) == [] and unprintable("") == []


def test_warning_message_in_japanese():
    (w,) = font_warnings([("チーム名", "𠮷田会"), ("所属", "会瀬小"), ("氏名", "𠮷田会")])
    assert (
        w.message
        == "チーム名「𠮷田会」：𠮷 (U+20BB7) は印刷用のフォントにないため、〓 で印刷されます。 通用字体：𠮷 → 吉。"
    )


def test_entries_of_the_import_are_checked_by_row():
    class P:
        name, furigana = "김민수", "きむ"

    class T:
        row, name, affiliation, players = 7, "ひたち会", "", [P()]

    (w,) = entry_font_warnings([T()])
    assert w.label.startswith("7行目") and w.text == "김민수"


# --------------------------------------------------------------------------- pages


@pytest.fixture
def organiser(db, client, django_user_model):
    event = factories.make_event(slug="names")
    division = factories.make_division(event, "小学生の部")
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    return event, division


def team_post(division, name):
    data = {"division": str(division.pk), "name": name, "affiliation": "", "seed": "", "leader": "2"}
    players = [("𠮷田 花子", "よしだ はなこ"), ("井上 颯太", "いのうえ そうた"), ("木村 心春", "きむら こはる")]
    for i, (n, f) in enumerate(players + [("", ""), ("", "")], start=1):
        data.update({f"p{i}_name": n, f"p{i}_furigana": f, f"p{i}_grade": ""})
    return data


def test_team_form_saves_and_warns_on_the_next_page(client, organiser):
    event, division = organiser
    response = client.post(f"/manage/{event.slug}/teams/add/", team_post(division, "한글かるた会"), follow=True)
    assert response.status_code == 200
    assert Team.objects.filter(name="한글かるた会").exists()  # saved all the same
    text = response.content.decode()
    assert "〓 で印刷されます" in text and "U+D55C" in text and "𠮷 → 吉" in text


def test_print_page_lists_the_names_affected(client, organiser):
    event, division = organiser
    factories.make_team(division, "𠮷田かるた会")
    factories.make_team(division, "ひたち会")
    response = client.get(f"/manage/{event.slug}/print/")
    warnings = response.context["font_warnings"]
    texts = [w.text for w in warnings]  # the team, then its players (factory: 𠮷田かるた会一…)
    assert texts[0] == "𠮷田かるた会" and all(t.startswith("𠮷田") for t in texts)
    assert 'id="font-warnings"' in response.content.decode()


def test_import_preview_warns_but_does_not_refuse(client, organiser):
    event, _division = organiser
    wb = Workbook()
    ws = wb.active
    ws.append(list(TEMPLATE_LABELS))
    ws.append(["小学生の部", "𠮷田会", "", "小川 光", "", "2年", "井上 颯太", "", "2年", "木村 心春", "", "2年"])
    out = io.BytesIO()
    wb.save(out)
    response = client.post(
        f"/manage/{event.slug}/teams/import/",
        {"file": SimpleUploadedFile("e.xlsx", out.getvalue()), "default_division": ""},
    )
    assert response.status_code == 200
    assert not response.context["report"].problems
    (w,) = response.context["font_warnings"]
    assert w.text == "𠮷田会" and "𠮷 → 吉" in response.content.decode()
