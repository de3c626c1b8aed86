"""The points table PDF and the ledger workbooks read back."""

import io
import random

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from dosai import editions, paper, services
from dosai.models import ClubEdition
from tests.dosai.factories import PLAYERS6, make_session, ready_edition
from tests.workbook_numbers import numbers_as_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(django_user_model, client):
    u = django_user_model.objects.create_user("owner")
    client.force_login(u)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return u


def test_the_points_table_lists_the_62_subjects_with_values_and_classes(client, user):
    club = ready_edition(user)
    response = client.get(reverse("dosai:points_table", args=[club.pk]))
    assert response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for needle in (
        "是に懲りよ道才坊",
        "朝日に霜",
        "20 pt × 1 (1)",
        "2 pt × 17 (17)",
        "Andy's guide and Takahashi's book",
    ):
        assert needle in text, needle
    assert "TK2" not in text and "seed" not in text  # the sources are named in words
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)  # A4


def test_the_points_table_is_japanese_by_default(client, user):
    club = ready_edition(user)
    client.defaults.pop("HTTP_ACCEPT_LANGUAGE")
    text = (
        PdfReader(io.BytesIO(client.get(reverse("dosai:points_table", args=[club.pk])).content)).pages[0].extract_text()
    )
    assert "道才かるた点数表" in text and "化札" in text
    assert "英文の解説・高橋の本" in text and "化札：次の読みを食う" in text
    flat = text.replace("\n", "")
    assert "合計246点" in flat and "8番と23番" in flat  # the full deck and the assumption (issue 33)


def test_an_unfinished_edition_prints_with_blanks(user):
    club = ClubEdition.objects.create(owner=user, name="Other maker", base="blank")
    text = PdfReader(io.BytesIO(paper.points_table_pdf(editions.edition_status(club)))).pages[0].extract_text()
    assert "60" in text and "Other maker" in text


def _finished_session(user):
    session = make_session(user, players=PLAYERS6[:4])
    hand = services.start_hand(session, dealing="app", reader="app", rng=random.Random(2))
    for k in range(50):
        services.record_call(hand, None, k)
    hand.refresh_from_db()
    return session, hand


def test_the_hand_workbook_reads_back_with_the_replayed_figures(client, user):
    session, hand = _finished_session(user)
    r = services.replay(hand)
    response = client.get(reverse("dosai:hand_xlsx", args=[session.pk, 1]))
    assert response["Content-Disposition"].endswith('filename="hand-1.xlsx"')
    assert numbers_as_text(response.content) == []  # issue 34 item 4
    wb = load_workbook(io.BytesIO(response.content))
    ws = wb.worksheets[0]
    rows = list(ws.iter_rows(values_only=True))
    header = rows[0]
    assert header[:2] == ("Call", "Number")
    calls = rows[1:51]
    assert [row[1] for row in calls] == hand.calls
    names = [h["name"] for h in hand.houses]
    running = [list(row[10 + 6 : 10 + 12]) for row in calls]
    assert running[-1] == [r.lines[-1].running[n] for n in names]
    for row, line in zip(calls, r.lines, strict=True):
        assert list(row[10:16]) == [line.result.payments[n] for n in names]
        assert sum(row[10:16]) == 0
    flat = [c for row in rows for c in row if c is not None]
    for n in names:
        assert r.house_totals[n] in flat


def test_the_session_workbook_has_a_sheet_per_hand_and_totals(client, user):
    session, hand = _finished_session(user)
    services.start_hand(session, dealing="app", reader="app")
    totals = services.session_totals(session)
    data = client.get(reverse("dosai:session_xlsx", args=[session.pk])).content
    assert numbers_as_text(data) == []  # issue 34 item 4
    wb = load_workbook(io.BytesIO(data))
    assert len(wb.worksheets) == 3
    ws = wb.worksheets[-1]
    rows = list(ws.iter_rows(values_only=True))
    by_player = {row[0]: row[-1] for row in rows[1:5]}
    assert by_player == totals.players
