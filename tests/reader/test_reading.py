"""The reading's services and pages (issue 21, items 2–4): start (refused naming the cards
that cannot be read), the log lines (stored once, refused naming the line), the reader links
(reach only their court; revoked), the log page and its CSV, the practice page."""

import hashlib
import json
import time
import wave
from io import BytesIO

import pytest
from django.urls import reverse

from common.errors import UserError
from reader import sessions
from reader.engine import sequence
from reader.models import Card, DeckEdition, ReadingLogEntry, ReadingSession, Recording
from tests.factories import make_division, make_event
from tournament.models import Match

pytestmark = pytest.mark.django_db


def tiny_wav(seconds=0.05):
    out = BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes((3000).to_bytes(2, "little", signed=True) * int(seconds * 8000))
    return out.getvalue()


def record(edition, key, data=None):
    data = data or tiny_wav()
    Recording.objects.create(
        edition=edition,
        key=key,
        audio=data,
        content_type="audio/wav",
        extension="wav",
        duration_ms=50,
        size=len(data),
        sha256=hashlib.sha256(data + key.encode()).hexdigest(),
    )


def make_deck(kana="あいうえお", recorded=True, slug="club"):
    """A small deck whose cards and phrases all have a (tiny) recording."""
    edition = DeckEdition.objects.create(slug=slug, name="練習用")
    for i, k in enumerate(kana):
        Card.objects.create(edition=edition, head_kana=k, text="", order=i)
        if recorded:
            record(edition, f"card:{k}")
    for phrase in ("start", "next", "check"):
        record(edition, f"phrase:{phrase}")
    return edition


def test_start_stores_the_seeded_order_and_pauses(event):
    edition = make_deck()
    reading = sessions.start_reading(edition, event, unreadable=[], pauses=sequence.Timing(1, 3), seed=5)
    assert reading.order == sequence.shuffled(list("あいうえお"), 5)
    assert (reading.between_readings, reading.between_cards, reading.court) == (1, 3, None)
    assert sessions.steps(reading)[0]["key"] == sequence.START


def test_start_is_refused_naming_the_cards_that_cannot_be_read(event):
    edition = make_deck()
    cards = list(edition.cards.filter(head_kana__in=["い", "う", "え"]))
    with pytest.raises(UserError) as refused:
        sessions.start_reading(edition, event, unreadable=cards, pauses=sequence.Timing())
    assert "い、う、え" in str(refused.value) and "3" in str(refused.value)
    assert not ReadingSession.objects.exists()


def test_court_of_another_event_is_refused(event):
    other = make_event(courts=1)
    with pytest.raises(UserError):
        sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), court=other.courts.first())


@pytest.mark.parametrize(("readings", "cards"), [("x", "4"), ("-1", "4"), ("2", "31"), ("", "4")])
def test_pauses_outside_0_to_30_seconds_are_refused(readings, cards):
    with pytest.raises(UserError):
        sessions.timing(readings, cards)


def now_ms():
    return int(time.time() * 1000)


def test_lines_are_stored_once_and_the_end_ends_the_reading(event):
    reading = sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1)
    card = reading.order[0]
    lines = [
        {"seq": 1, "kind": "phrase", "key": "phrase:start", "at": now_ms()},
        {"seq": 2, "kind": "read", "card": card, "reading": "first", "key": f"card:{card}", "at": now_ms()},
    ]
    assert sessions.record_lines(reading, lines) == [1, 2]
    assert sessions.record_lines(reading, lines + [{"seq": 3, "kind": "end", "at": now_ms()}]) == [1, 2, 3]
    assert ReadingLogEntry.objects.filter(session=reading).count() == 3
    reading.refresh_from_db()
    assert reading.ended_at is not None


@pytest.mark.parametrize(
    "bad",
    [
        {"seq": "x", "kind": "read", "at": 1},
        {"seq": 2, "kind": "dance", "at": None},
        {"seq": 2, "kind": "read", "card": "ん"},
        {"seq": 2, "kind": "pause"},
        {"seq": 2, "kind": "pause", "at": 10**20},
        {"seq": 2, "kind": "pause", "at": 0},
        "text",
    ],
)
def test_a_wrong_line_is_refused_by_its_number_and_nothing_is_stored(event, bad):
    reading = sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=1)
    good = {"seq": 1, "kind": "pause", "at": now_ms()}
    with pytest.raises(UserError) as refused:
        sessions.record_lines(reading, [good, bad])
    assert "2" in str(refused.value)
    assert not ReadingLogEntry.objects.exists()


def test_the_manage_page_starts_a_reading_and_receives_its_log(client, event, organiser):
    client.force_login(organiser)
    edition = make_deck()
    page = client.get(reverse("reader:manage", args=[event.slug]))
    assert page.status_code == 200
    assert "/reader/" in page.content.decode()  # the courts' reader links
    court = event.courts.first()
    answer = client.post(
        reverse("reader:manage_start", args=[event.slug]),
        {
            "edition": edition.pk,
            "court": court.pk,
            "between_readings": "1.5",
            "between_cards": "3",
            "incomplete_ok": "1",
        },
    )
    reading = ReadingSession.objects.get()
    assert answer.url == reverse("reader:manage_read", args=[event.slug, reading.pk])
    assert (reading.court, reading.between_readings, reading.started_by) == (court, 1.5, organiser)
    page = client.get(answer.url)
    plan = json.loads(page.context["plan"] and json.dumps(page.context["plan"]))
    assert plan["audio"]["phrase:start"].startswith("/reader/audio/club/phrase/start/")
    assert len(plan["steps"]) == len(sequence.plan(reading.order))
    url = reverse("reader:manage_lines", args=[event.slug, reading.pk])
    body = {"lines": [{"seq": 1, "kind": "phrase", "key": "phrase:start", "at": now_ms()}]}
    answer = client.post(url, json.dumps(body), content_type="application/json")
    assert answer.json() == {"stored": [1]}
    assert client.get(reverse("reader:manage_read", args=[event.slug, reading.pk])).context["seq_base"] == 1
    answer = client.post(url, "{not json", content_type="application/json")
    assert answer.status_code == 400
    answer = client.post(
        url, json.dumps({"lines": [{"seq": 2, "kind": "x", "at": now_ms()}]}), content_type="application/json"
    )
    assert answer.status_code == 400 and "1" in answer.json()["error"]


def test_the_manage_page_refuses_naming_the_cards_without_text_or_recording(client, event, organiser):
    client.force_login(organiser)
    edition = make_deck(recorded=False)
    Card.objects.filter(edition=edition, head_kana="あ").update(text="", furigana="")
    record(edition, "card:お")
    answer = client.post(
        reverse("reader:manage_start", args=[event.slug]),
        {"edition": edition.pk, "between_readings": "2", "between_cards": "4", "incomplete_ok": "1"},
        follow=True,
    )
    text = answer.content.decode()
    assert "あ" in text and "い" in text and "お、" not in text
    assert not ReadingSession.objects.exists()


def test_a_bad_pause_is_said_and_nothing_starts(client, event, organiser):
    client.force_login(organiser)
    answer = client.post(
        reverse("reader:manage_start", args=[event.slug]),
        {"edition": make_deck().pk, "between_readings": "abc", "between_cards": "4", "incomplete_ok": "1"},
        follow=True,
    )
    assert answer.status_code == 400 and not ReadingSession.objects.exists()
    assert any("30" in str(m) for m in answer.context["messages"])


def test_the_log_page_answers_was_it_read_twice_and_downloads(client, event, organiser):
    client.force_login(organiser)
    reading = sessions.start_reading(make_deck(), event, unreadable=[], pauses=sequence.Timing(), seed=3)
    a, b = reading.order[:2]
    sessions.record_lines(
        reading,
        [
            {"seq": 1, "kind": "read", "card": a, "reading": "first", "at": now_ms()},
            {"seq": 2, "kind": "read", "card": a, "reading": "second", "at": now_ms()},
            {"seq": 3, "kind": "read", "card": b, "reading": "first", "at": now_ms()},
            {"seq": 4, "kind": "skip", "card": b, "reading": "first", "at": now_ms()},  # an older page's skip
            {"seq": 5, "kind": "phrase", "key": "phrase:start", "at": now_ms()},
            {"seq": 6, "kind": "cut", "card": b, "reading": "second", "at": now_ms()},
        ],
    )
    page = client.get(reverse("reader:manage_log", args=[event.slug, reading.pk]))
    assert page.context["read"] == [(a, 2), (b, 1)]  # the cut reading does not count
    csv = client.get(reverse("reader:manage_log_csv", args=[event.slug, reading.pk]))
    text = csv.content.decode("utf-8-sig")
    assert csv["Content-Type"].startswith("text/csv")
    lines = text.strip().splitlines()
    assert len(lines) == 7 and b in text
    assert "とばした札" in lines[4] and lines[4].split(",")[4] == ""  # a skip names no reading
    assert "では、始めます" in lines[5]  # the phrase is named
    assert "first" not in text and "skip" not in text  # values in Japanese, like the headers


def test_a_reader_link_reaches_only_its_court_and_a_revoked_one_says_so(client, event):
    one, two = event.courts.all()
    link = sessions.reader_link(one)
    edition = make_deck()
    answer = client.post(
        reverse("reader:link_home", args=[link.token]),
        {"edition": edition.pk, "court": two.pk, "between_readings": "2", "between_cards": "4", "incomplete_ok": "1"},
    )
    reading = ReadingSession.objects.get()
    assert reading.court == one and reading.via_link  # the posted court is ignored
    page = client.get(answer.url)
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    assert client.get(reverse("reader:link_home", args=[link.token]))["Cache-Control"] == "no-store"
    elsewhere = sessions.start_reading(edition, event, unreadable=[], pauses=sequence.Timing(), court=two)
    assert client.get(reverse("reader:link_read", args=[link.token, elsewhere.pk])).status_code == 404
    lines = reverse("reader:link_lines", args=[link.token, elsewhere.pk])
    assert client.post(lines, "{}", content_type="application/json").status_code == 404
    sessions.change_link(one, "revoke")
    assert client.get(reverse("reader:link_home", args=[link.token])).status_code == 410
    lines = reverse("reader:link_lines", args=[link.token, reading.pk])
    assert client.post(lines, "{}", content_type="application/json").status_code == 410
    renewed = sessions.change_link(one, "renew")
    assert renewed.token != link.token
    assert client.get(reverse("reader:link_home", args=[link.token])).status_code == 410  # renewed: says so
    assert client.get(reverse("reader:link_home", args=[renewed.token])).status_code == 200
    assert client.get(reverse("reader:link_home", args=["x" * 30])).status_code == 404


def test_the_organiser_revokes_and_renews_from_the_reader_page(client, event, organiser):
    client.force_login(organiser)
    court = event.courts.first()
    token = sessions.reader_link(court).token
    client.post(reverse("reader:manage_link", args=[event.slug]), {"court": court.pk, "action": "revoke"})
    court.reader_link.refresh_from_db()
    assert not court.reader_link.enabled
    client.post(reverse("reader:manage_link", args=[event.slug]), {"court": court.pk, "action": "renew"})
    court.reader_link.refresh_from_db()
    assert court.reader_link.enabled and court.reader_link.token != token


def test_practice_needs_no_login_and_stores_nothing(client):
    edition = make_deck()
    page = client.get(reverse("reader:practice"), {"edition": edition.slug})
    assert page.status_code == 200 and page.context["plan"]["steps"][0]["key"] == "phrase:start"
    assert 'id="reader-plan"' in page.content.decode()
    assert not ReadingSession.objects.exists()
    assert client.get(reverse("reader:practice"), {"edition": "nope"}).status_code == 404
    unreadable = make_deck("かき", recorded=False, slug="empty")
    page = client.get(reverse("reader:practice"), {"edition": unreadable.slug})
    assert page.context["plan"] is None and "か、き" in page.context["error"]


def test_an_organiser_of_another_event_changes_no_reader_link(client, event, django_user_model):
    stranger = django_user_model.objects.create_user("other")
    make_event(courts=1).organisers.add(stranger)
    client.force_login(stranger)
    court = event.courts.first()
    link = sessions.reader_link(court)
    answer = client.post(reverse("reader:manage_link", args=[event.slug]), {"court": court.pk, "action": "revoke"})
    assert answer.status_code == 403
    link.refresh_from_db()
    assert link.enabled


def test_an_incomplete_deck_is_named_and_needs_the_tick_for_a_tournament_game(client, event, organiser):
    client.force_login(organiser)
    edition = make_deck("あいうえ")
    edition.owner = organiser  # its maker may edit it: the page links to it
    edition.save()
    page = client.get(reverse("reader:manage", args=[event.slug])).content.decode()
    assert "4 of 56" in page or "56枚中4枚" in page
    assert reverse("reader:deck_detail", args=[edition.slug]) in page  # an organiser may edit decks
    url = reverse("reader:manage_start", args=[event.slug])
    answer = client.post(url, {"edition": edition.pk, "between_readings": "2", "between_cards": "4"})
    assert answer.status_code == 400 and not ReadingSession.objects.exists()
    assert any("56" in str(m) for m in answer.context["messages"])
    answer = client.post(
        url, {"edition": edition.pk, "between_readings": "2", "between_cards": "4", "incomplete_ok": "1"}
    )
    assert answer.status_code == 302 and ReadingSession.objects.count() == 1


def test_practice_with_an_incomplete_deck_says_so_and_plays(client):
    make_deck("あいうえ", slug="school")
    page = client.get(reverse("reader:practice"), {"edition": "school"})
    assert page.status_code == 200 and page.context["plan"]
    text = page.content.decode()
    assert 'id="deck-note"' in text and "56" in text
    assert reverse("reader:deck_detail", args=["school"]) not in text  # no login: no deck page link
    assert text.count('name="between_readings"') == 1  # one set of pause fields


def test_a_refused_start_keeps_what_was_typed_and_the_link_lists_its_courts_games(client, event):
    one = event.courts.first()
    Match.objects.create(event=event, division=make_division(event), match_number=7, court=one)
    link = sessions.reader_link(one)
    edition = make_deck()
    url = reverse("reader:link_home", args=[link.token])
    page = client.get(url).content.decode()
    assert 'value="7"' in page
    answer = client.post(
        url,
        {"edition": edition.pk, "match": "7", "between_readings": "abc", "between_cards": "6.5", "incomplete_ok": "1"},
    )
    assert answer.status_code == 400 and not ReadingSession.objects.exists()
    text = answer.content.decode()
    assert f'value="{edition.pk}" selected' in text and 'value="7" selected' in text
    assert 'value="abc"' in text and 'value="6.5"' in text and 'name="incomplete_ok" value="1" checked' in text
