"""The holes an outside tester found in the reader (issue 21 follow-up, brief secR): each
test failed before its fix."""

import datetime
import io
import json
import zipfile
from io import BytesIO

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from openpyxl import Workbook

from common import bounded_json
from common.errors import UserError
from reader import deck_import, log_json, sessions
from reader.engine import sequence
from reader.models import ReadingLogEntry, ReadingSession
from reader.views.reading import csv_cell
from tests.reader.test_reading import make_deck, now_ms

pytestmark = pytest.mark.django_db


@pytest.fixture
def reading(event):
    return sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1)


# ---- 1. JSON too deep or too big: 400 with a sentence, never a 500 ---------------------------


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 10_000 + b"]" * 10_000,
        b'{"lines": ' + b"[" * 10_000 + b"]" * 10_000 + b"}",
        b'{"lines": [{"seq": 1, "kind": "pause", "x": "' + b"a" * (log_json.MAX_BYTES + 10) + b'"}]}',
        b"\xff\xfe",
    ],
)
def test_a_log_too_deep_or_too_big_is_refused_with_a_sentence(client, event, organiser, reading, body):
    client.force_login(organiser)
    url = reverse("reader:manage_lines", args=[event.slug, reading.pk])
    answer = client.post(url, body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"]
    link = sessions.reader_link(event.courts.first())
    reading.court = link.court
    reading.save()
    answer = client.post(
        reverse("reader:link_lines", args=[link.token, reading.pk]), body, content_type="application/json"
    )
    assert answer.status_code == 400 and answer.json()["error"]


def test_the_nesting_is_measured_outside_strings():
    assert bounded_json.nesting_depth('{"a": "[[[[[[[[[[[[[[", "b": [1, {"c": "\\"]"}]}') == 3
    with pytest.raises(UserError):
        log_json.parse_body(b"[" * 9 + b"]" * 9)
    assert log_json.parse_body(b"") == {}


# ---- 2. A damaged workbook: "the workbook is damaged", never a 500 ---------------------------


def _workbook_bytes():
    book = Workbook()
    book.active.append(["頭字", "読み札"])
    book.active.append(["あ", "あさひ"])
    out = BytesIO()
    book.save(out)
    return out.getvalue()


def _replace_member(data, name, transform):
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            target.writestr(item, transform(content) if item.filename == name else content)
    return out.getvalue()


BOMB = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(b'<!ENTITY lol%d "%s">' % (i, (b"&lol%d;" % (i - 1) if i > 1 else b"&lol;") * 10) for i in range(1, 10))
    + b']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    b'<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>'
)


@pytest.mark.parametrize(
    "transform",
    [lambda content: content[: len(content) // 2], lambda content: BOMB],
    ids=["cut-in-half", "billion-laughs"],
)
def test_a_damaged_sheet_is_said_to_be_damaged(client, editor, transform):
    data = _replace_member(_workbook_bytes(), "xl/worksheets/sheet1.xml", transform)
    with translation.override("en"):
        rows, problems = deck_import.read_deck(data)
        assert rows == [] and [str(p.message) for p in problems] == ["The workbook is damaged and cannot be read."]
    client.force_login(editor)
    upload = BytesIO(data)
    upload.name = "cards.xlsx"
    answer = client.post(reverse("reader:deck_import", args=["hitachi"]), {"file": upload})
    assert answer.status_code == 200 and len(answer.context["problems"]) == 1


# ---- 3. The log: only what the reading can log; the CSV never holds a formula -----------------


def _line(seq, **fields):
    return {"seq": seq, "at": now_ms(), **fields}


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "read", "card": "CARD", "reading": "=2+5"},
        {"kind": "read", "card": "CARD", "reading": "first", "key": "@SUM(1,2)"},
        {"kind": "phrase", "key": "phrase:=1+1"},
        {"kind": "pause", "card": "CARD"},
        {"kind": "end", "reading": "-1"},
        {"kind": "read", "card": "CARD", "reading": ["first"]},
        {"kind": "pause", "at": 0},
        {"kind": "pause", "at": "future"},
    ],
)
def test_free_text_cannot_reach_the_log(reading, bad):
    bad = {key: (reading.order[0] if value == "CARD" else value) for key, value in bad.items()}
    with pytest.raises(UserError) as refused:
        sessions.record_lines(reading, [_line(1, kind="pause"), {**_line(2), **bad}])
    assert "2" in str(refused.value)
    assert not ReadingLogEntry.objects.exists()


def test_times_outside_the_reading_are_refused_by_number(reading):
    before = reading.started_at - sessions.CLOCK_SKEW - datetime.timedelta(minutes=1)
    later = timezone.now() + sessions.CLOCK_SKEW + datetime.timedelta(minutes=1)
    for when in (before, later):
        with pytest.raises(UserError) as refused:
            sessions.record_lines(reading, [_line(1, kind="pause"), _line(2, kind="pause", at=when.timestamp() * 1000)])
        assert "2" in str(refused.value)
    assert not ReadingLogEntry.objects.exists()


def test_lines_after_the_end_are_refused_and_a_resent_batch_is_still_taken(reading):
    card = reading.order[0]
    first = [
        _line(1, kind="read", card=card, reading="first", key=f"card:{card}"),
        _line(2, kind="end"),
    ]
    assert sessions.record_lines(reading, first) == [1, 2]
    assert sessions.record_lines(reading, first) == [1, 2]
    with pytest.raises(UserError) as refused:
        sessions.record_lines(reading, [_line(3, kind="read", card=card, reading="second")])
    assert "1" in str(refused.value)
    with pytest.raises(UserError):
        sessions.record_lines(reading, [_line(1, kind="pause"), _line(9, kind="end"), _line(10, kind="resume")])
    assert ReadingLogEntry.objects.count() == 2


def test_the_csv_neutralises_cells_that_excel_would_read_as_formulas(client, event, organiser, reading):
    assert [csv_cell(v) for v in ("=2+5", "@SUM(1,2)", "+1", "-1", "\tx", "\rx", "first", "す")] == [
        "'=2+5",
        "'@SUM(1,2)",
        "'+1",
        "'-1",
        "'\tx",
        "'\rx",
        "first",
        "す",
    ]
    # Whatever the database holds (a line stored before the checks existed):
    ReadingLogEntry.objects.create(session=reading, seq=1, kind="=2+5", card="@A", reading="-1", at=timezone.now())
    client.force_login(organiser)
    text = client.get(reverse("reader:manage_log_csv", args=[event.slug, reading.pk])).content.decode("utf-8-sig")
    assert "'=2+5" in text and "'@A" in text and "'-1" in text and ",=" not in text


# ---- 5. A renewed reader link says so (410), like the court links ----------------------------


def test_the_old_token_of_a_renewed_link_explains_itself(client, event, reading):
    court = event.courts.first()
    old = sessions.reader_link(court).token
    renewed = sessions.change_link(court, "renew")
    page = client.get(reverse("reader:link_home", args=[old]))
    assert page.status_code == 410 and page.context["renewed"]
    assert page["Cache-Control"] == "no-store"
    assert client.get(reverse("reader:link_read", args=[old, reading.pk])).status_code == 410
    lines = client.post(reverse("reader:link_lines", args=[old, reading.pk]), "{}", content_type="application/json")
    assert lines.status_code == 410 and lines.json()["error"]
    assert client.get(reverse("reader:link_home", args=[renewed.token])).status_code == 200
    assert client.get(reverse("reader:link_home", args=["y" * 30])).status_code == 404


# ---- 6. A game number that names no game: refused, naming the field --------------------------


@pytest.mark.parametrize("number", ["99999999999999999999999", "abc", "0", "-3", "1.5"])
def test_a_bad_game_number_is_refused_naming_the_field(client, event, number):
    link = sessions.reader_link(event.courts.first())
    edition = make_deck()
    answer = client.post(
        reverse("reader:link_home", args=[link.token]),
        {"edition": edition.pk, "match": number, "between_readings": "2", "between_cards": "4"},
        follow=True,
    )
    assert not ReadingSession.objects.exists()
    said = " ".join(str(m) for m in answer.context["messages"])
    assert "Game number" in said or "試合番号" in said


def test_an_empty_game_number_starts_a_reading_for_no_game(client, event):
    link = sessions.reader_link(event.courts.first())
    client.post(
        reverse("reader:link_home", args=[link.token]),
        {"edition": make_deck().pk, "match": "", "between_readings": "2", "between_cards": "4", "incomplete_ok": "1"},
    )
    assert ReadingSession.objects.get().match is None


def test_a_tablet_whose_clock_is_wrong_logs_on_the_servers_time(reading):
    behind = now_ms() - 2 * 3600 * 1000  # the tablet's clock is two hours behind
    line = _line(1, kind="pause", at=behind)
    with pytest.raises(UserError):
        sessions.record_lines(reading, [line])  # without its clock at sending: out of the reading
    assert sessions.record_lines(reading, [line], sent=behind + 50) == [1]
    stored = ReadingLogEntry.objects.get()
    assert abs(stored.at - timezone.now()) < datetime.timedelta(seconds=5)
    for sent in ("soon", True, 10**30):
        with pytest.raises(UserError):
            sessions.record_lines(reading, [_line(2, kind="pause")], sent=sent)


def test_a_batch_resent_after_the_end_with_another_delay_is_still_taken(reading):
    card = reading.order[0]
    at = now_ms()
    batch = [
        _line(1, kind="read", card=card, reading="first", at=at),
        _line(2, kind="end", at=at + 10),
    ]
    assert sessions.record_lines(reading, batch, sent=at + 20) == [1, 2]
    assert sessions.record_lines(reading, batch, sent=at - 3000) == [1, 2]  # 3 s later on the server's clock
    assert ReadingLogEntry.objects.count() == 2


def test_the_page_sends_its_clock_with_the_batch(client, event, organiser, reading):
    client.force_login(organiser)
    behind = now_ms() - 3600 * 1000
    body = {"lines": [_line(1, kind="pause", at=behind)], "sent": behind}
    url = reverse("reader:manage_lines", args=[event.slug, reading.pk])
    assert client.post(url, json.dumps(body), content_type="application/json").json() == {"stored": [1]}
