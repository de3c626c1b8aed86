"""The deck master's pages: editions, cards, the Excel import (good and bad rows), the template."""

from io import BytesIO

import pytest
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from reader import deck_import
from reader.models import Card, DeckEdition, Recording
from tests.reader.conftest import wav_bytes

pytestmark = pytest.mark.django_db


def _xlsx(rows, header=("頭字", "読み札", "読み（かな）", "役札")):
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["ひたち郷土かるた 読み札"])
    sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
    out = BytesIO()
    workbook.save(out)
    out.seek(0)
    out.name = "cards.xlsx"
    return out


def test_the_deck_page_says_how_many_cards_are_missing(editor_client):
    page = editor_client.get(reverse("reader:deck_detail", args=["hitachi"]))
    text = page.content.decode()
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"]
    assert "52" in text  # 4 of 56 shipped
    assert "諏訪神社 万年太夫と 水穴ロマン" in text
    assert "hitachikyodokaruta.info" in text


def test_a_club_creates_a_practice_deck_and_adds_a_card(editor_client):
    response = editor_client.post(reverse("reader:deck_list"), {"name": "練習用", "slug": "practice", "source": ""})
    assert response.status_code == 302
    edition = DeckEdition.objects.get(slug="practice")
    url = reverse("reader:card_add", args=["practice"])
    response = editor_client.post(url, {"head_kana": "カ", "text": "かるたの札", "furigana": "", "order": 1})
    assert response.status_code == 302
    assert edition.cards.get().head_kana == "か"  # katakana stored as hiragana
    again = editor_client.post(url, {"head_kana": "か", "text": "x", "furigana": "", "order": 2})
    assert again.status_code == 200 and "か" in again.content.decode() and edition.cards.count() == 1
    bad = editor_client.post(url, {"head_kana": "漢", "text": "x", "furigana": "漢字", "order": 2})
    assert bad.status_code == 200 and bad.context["form"].errors.keys() == {"head_kana", "furigana"}


def test_a_good_import_adds_and_updates_cards_by_head_kana(editor_client):
    edition = DeckEdition.objects.get(slug="hitachi")
    rows = [("あ", "あおぞらの札", "", ""), ("ひ", "日立港 世界に開く 海の玄関", "ひたちこう", ""), ("り", "", "", "○")]
    response = editor_client.post(reverse("reader:deck_import", args=["hitachi"]), {"file": _xlsx(rows)})
    assert response.status_code == 302
    cards = {c.head_kana: c for c in edition.cards.all()}
    assert set(cards) == {"あ", "す", "ひ", "ぴ", "り"}
    assert cards["ひ"].furigana == "ひたちこう" and cards["り"].is_joker
    assert cards["あ"].order == 1


def test_a_bad_import_names_row_and_column_and_saves_nothing(editor_client):
    edition = DeckEdition.objects.get(slug="hitachi")
    before = list(edition.cards.values_list("head_kana", "text", "furigana", "is_joker"))
    rows = [
        ("あ", "あおぞらの札", "", ""),  # good, but not saved: the file has problems
        ("", "頭字のない札", "", ""),  # row 4
        ("い", "いの札", "漢字です", ""),  # row 5: reading not kana
        ("う", "うの札", "", "たぶん"),  # row 6: 役札 not a flag
        ("あ", "二枚目のあ", "", ""),  # row 7: duplicate of row 3
    ]
    response = editor_client.post(reverse("reader:deck_import", args=["hitachi"]), {"file": _xlsx(rows)})
    assert response.status_code == 200
    problems = [(p.row, p.column) for p in response.context["problems"]]
    assert (4, "A (頭字)") in problems
    assert (5, "C (読み（かな）)") in problems
    assert (6, "D (役札)") in problems
    assert (7, None) in problems
    assert list(edition.cards.values_list("head_kana", "text", "furigana", "is_joker")) == before
    assert "nothing was imported" in response.content.decode() or "取り込んでいません" in response.content.decode()


def test_not_a_workbook_and_no_header_are_refused(editor_client):
    url = reverse("reader:deck_import", args=["hitachi"])
    text = BytesIO(b"just text")
    text.name = "cards.xlsx"
    assert editor_client.post(url, {"file": text}).context["problems"][0].row is None
    no_header = _xlsx([("あ", "x", "", "")], header=("名前", "文"))
    assert len(editor_client.post(url, {"file": no_header}).context["problems"]) == 1


def test_the_template_holds_the_decks_cards_and_reads_back(editor_client):
    response = editor_client.get(reverse("reader:deck_template", args=["hitachi"]))
    assert response.status_code == 200
    data = b"".join(response.streaming_content) if response.streaming else response.content
    sheet = load_workbook(BytesIO(data)).active
    assert [c.value for c in sheet[1]] == ["頭字", "読み札", "読み（かな）", "役札"]
    rows, problems = deck_import.read_deck(data)
    assert problems == []
    assert [r.head_kana for r in rows] == ["す", "ひ", "ぴ", "り"]


def test_deleting_a_card_deletes_its_recording(editor_client):
    card = Card.objects.get(edition__slug="hitachi", head_kana="す")
    response = editor_client.post(reverse("reader:card_edit", args=["hitachi", card.pk]), {"delete": "1"})
    assert response.status_code == 302
    assert not Card.objects.filter(pk=card.pk).exists()


def test_a_logged_in_user_who_organises_nothing_gets_403(client, django_user_model):
    client.force_login(django_user_model.objects.create_user("someone"))
    assert client.get(reverse("reader:deck_list")).status_code == 403
    assert client.get(reverse("reader:deck_detail", args=["hitachi"])).status_code == 403
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    client.force_login(staff)
    assert client.get(reverse("reader:deck_list")).status_code == 200


def test_renaming_a_card_keeps_its_recording_and_a_second_joker_is_refused(editor_client):
    card = Card.objects.get(edition__slug="hitachi", head_kana="ぴ")
    data = wav_bytes(1.0)
    Recording.objects.create(
        edition=card.edition,
        key="card:ぴ",
        audio=data,
        content_type="audio/wav",
        extension="wav",
        duration_ms=1000,
        size=len(data),
        sha256="1" * 64,
    )
    url = reverse("reader:card_edit", args=["hitachi", card.pk])
    response = editor_client.post(url, {"head_kana": "ぴん", "text": card.text, "furigana": "", "order": 3})
    assert response.status_code == 302
    assert Recording.objects.get().key == "card:ぴん"
    joker = editor_client.post(
        url, {"head_kana": "ぴん", "text": card.text, "furigana": "", "order": 3, "is_joker": "on"}
    )
    assert joker.status_code == 200 and "is_joker" in joker.context["form"].errors


def _deck_with_joker():
    edition = DeckEdition.objects.create(slug="club", name="練習用")
    for order, (kana, joker) in enumerate([("か", False), ("り", True), ("さ", False)], start=1):
        Card.objects.create(edition=edition, head_kana=kana, text=f"{kana}の札", is_joker=joker, order=order)
    return edition


def test_a_second_joker_beside_the_decks_own_is_refused_by_row_and_column(editor_client):
    edition = _deck_with_joker()
    url = reverse("reader:deck_import", args=["club"])
    response = editor_client.post(url, {"file": _xlsx([("あ", "あの札", "", ""), ("い", "いの札", "", "○")])})
    assert response.status_code == 200
    [problem] = response.context["problems"]
    assert (problem.row, problem.column) == (4, "D (役札)") and "り" in problem.message
    assert not edition.cards.filter(head_kana__in=["あ", "い"]).exists()
    # Moving the 役札 in the same file (り listed without ○) is allowed.
    response = editor_client.post(url, {"file": _xlsx([("り", "りの札", "", ""), ("い", "いの札", "", "○")])})
    assert response.status_code == 302
    assert list(edition.cards.filter(is_joker=True).values_list("head_kana", flat=True)) == ["い"]


def test_two_jokers_in_one_file_name_the_second_row_and_problems_come_in_row_order(editor_client):
    rows = [("あ", "", "", "○"), ("い", "", "漢字", "○"), ("", "x", "", "")]
    _rows, problems = deck_import.read_deck(_xlsx(rows).getvalue())
    assert [(p.row, p.column) for p in problems] == [(4, "C (読み（かな）)"), (5, "A (頭字)")]
    rows = [("あ", "", "", "○"), ("い", "", "", "○")]
    _rows, problems = deck_import.read_deck(_xlsx(rows).getvalue())
    assert [(p.row, p.column) for p in problems] == [(4, "D (役札)")]
    assert "3" in problems[0].message


def test_a_formula_without_a_saved_value_is_refused_not_imported_empty(editor_client):
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["頭字", "読み札", "読み（かな）", "役札"])
    sheet.append(["あ", '=A2&"x"', "", ""])
    sheet.append(["い", "いの札", "", ""])
    out = BytesIO()
    workbook.save(out)
    _rows, problems = deck_import.read_deck(out.getvalue())
    assert [(p.row, p.column) for p in problems] == [(2, "B (読み札)")]
    assert 'A2&"x"' in problems[0].message


def test_imported_cards_come_first_and_the_others_follow_in_their_order(editor_client):
    edition = _deck_with_joker()
    url = reverse("reader:deck_import", args=["club"])
    response = editor_client.post(url, {"file": _xlsx([("さ", "さの札", "", ""), ("あ", "あの札", "", "")])})
    assert response.status_code == 302
    assert list(edition.cards.order_by("order").values_list("head_kana", flat=True)) == ["さ", "あ", "か", "り"]
