"""大会プログラム (issue 34 item 1): read back with pypdf — the pages, the sections' text in
order, the contents page's numbers against the footers, players' names only when the event
publishes them, the 2-up booklet, the command and the print page's form."""

import re
from io import BytesIO
from io import StringIO as TextIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.tournament.test_stages_services import day, play_groups
from tournament import printing
from tournament.models import Event, ProgrammeSettings
from tournament.services.knockout import seed_divisions

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def japanese():
    with translation.override("ja"):
        yield


def texts(data):
    reader = PdfReader(BytesIO(data))
    return reader, [page.extract_text() or "" for page in reader.pages]


def footer_number(text):
    """The page's own number from its footer 「n / total」."""
    found = re.findall(r"(\d+) / (\d+)", text)
    return int(found[-1][0]) if found else None


@pytest.fixture
def event():
    ev, (low, high) = day(
        [
            ("小学生低学年の部", [1, 2], 6, {"after_groups": "knockout", "qualifiers_per_group": 2}),
            ("小学生高学年の部", [3, 4], 6, {}),
        ]
    )
    ev.edition = 12
    ev.venue = "多賀市民プラザ"
    ev.save()
    return ev


def contents_entries(text):
    """(title, page) pairs of the contents page's lines 「表紙 …… 1」."""
    pairs = []
    for line in text.splitlines():
        m = re.match(r"^\s*(\S.*?)\s*[.…\s]*\s(\d+)\s*$", line)
        if m and "/" not in line:
            pairs.append((m.group(1).strip(), int(m.group(2))))
    return pairs


def test_the_programme_has_every_section_in_order_and_the_contents_match_the_pages(event):
    data = printing.programme(event, base_url="https://karuta.example")
    reader, pages = texts(data)
    assert len(pages) >= 7
    cover = pages[0]
    assert "第12回" in cover and "テストかるた大会" in cover and "2027年1月17日" in cover
    assert "多賀市民プラザ" in cover and "https://karuta.example/e/" in cover
    assert footer_number(cover) is None  # no footer on the cover
    # every other page carries its own number
    for i, text in enumerate(pages[1:], 2):
        assert footer_number(text) == i, (i, text[-80:])
    entries = dict(contents_entries(pages[1]))
    titles = ["表紙", "目次", "当日の日程", "注意事項", "予選リーグ組み合わせ", "対戦表", "トーナメント表"]
    assert [t for t in titles if t in entries] == titles, entries
    numbers = [entries[t] for t in titles]
    assert numbers == sorted(numbers) and numbers[0] == 1 and numbers[1] == 2
    # each section starts on the page the contents give
    assert "当日の日程" in pages[entries["当日の日程"] - 1]
    assert "注意事項" in pages[entries["注意事項"] - 1] and "お手つき" in pages[entries["注意事項"] - 1]
    assert "小学生低学年の部" in pages[entries["予選リーグ組み合わせ"] - 1]
    assert "コート" in pages[entries["対戦表"] - 1] and "対戦表" in pages[entries["対戦表"] - 1]
    assert "トーナメント表" in pages[entries["トーナメント表"] - 1]
    assert entries["トーナメント表"] <= len(pages)
    # the schedule: opening, each division's group games, the pending knockout, closing
    schedule = pages[entries["当日の日程"] - 1]
    order = [schedule.find(w) for w in ("開会式", "予選リーグ（小学生低学年の部）", "予選リーグ終了後", "閉会式")]
    assert -1 not in order and order == sorted(order), schedule
    # the knockout of the low division is not seeded: an empty bracket, its sides 未定
    bracket = "\n".join(pages[entries["トーナメント表"] - 1 :])
    assert "小学生低学年の部" in bracket and "未定" in bracket and "決勝" in bracket
    assert reader.metadata.title.startswith("第12回 テストかるた大会")
    assert str(reader.trailer["/Root"]["/Lang"]) == "ja"


def test_players_are_printed_only_when_the_event_publishes_names(event):
    player = event.divisions.first().teams.first().players.first().name
    event.publish_names = False
    event.save()
    _r, pages = texts(printing.programme(event, ["groups"]))
    assert player not in "".join(pages)
    assert event.divisions.first().teams.first().name in "".join(pages)
    event.publish_names = True
    event.save()
    _r, pages = texts(printing.programme(event, ["groups"]))
    assert player in "".join(pages)


def test_the_editable_texts_and_a_seeded_bracket(event):
    ProgrammeSettings.objects.create(
        event=event, title="ひたち郷土かるた 新春大会", organiser="日立市子ども会育成連合会", supporters="日立市\n日立市教育委員会",
        notes="開始10分前に集合してください。\n上履きを持参してください。",
    )  # fmt: skip
    low = event.divisions.get(name="小学生低学年の部")
    play_groups(low)
    seed_divisions(event, division=low)
    _r, pages = texts(printing.programme(event, ["cover", "notes", "bracket"]))
    assert "新春大会" in pages[0] and "日立市子ども会育成連合会" in pages[0] and "日立市教育委員会" in pages[0]
    assert "主催" in pages[0] and "後援" in pages[0]
    assert "上履き" in pages[1] and "お手つき" not in pages[1]
    bracket = "\n".join(pages[2:])
    assert re.search(r"第\d+試合", bracket)  # the seeded games have numbers


def test_the_booklet_is_imposed_two_up_on_a3_in_folding_order(event):
    single = printing.programme(event)
    _r, flat = texts(single)
    booklet = printing.programme(event, booklet=True)
    reader, sheets = texts(booklet)
    total = -(-len(flat) // 4) * 4
    assert len(sheets) == total // 2
    w, h = float(reader.pages[0].mediabox.width), float(reader.pages[0].mediabox.height)
    assert round(w) == 1191 and round(h) == 842  # A3 landscape
    # the first side: the last page (blank when padded) | the cover
    assert "第12回" in sheets[0]
    # the second side: page 2 (contents) | the second to last
    assert "目次" in sheets[1]
    assert str(reader.trailer["/Root"]["/Lang"]) == "ja"
    assert reader.metadata.title


def test_unknown_or_no_sections_are_refused(event):
    with pytest.raises(ValueError, match="unknown programme section"):
        printing.programme(event, ["cover", "referees"])
    with pytest.raises(CommandError):
        call_command("print_programme", event.slug, "--sections", "nothing", stdout=TextIO(), stderr=TextIO())


def test_the_command_writes_the_programme(event, tmp_path):
    out = tmp_path / "programme.pdf"
    call_command("print_programme", event.slug, "-o", str(out), "--sections", "cover", "groups", stdout=TextIO())
    _r, pages = texts(out.read_bytes())
    assert "第12回" in pages[0] and "予選リーグ組み合わせ" in pages[1] and "Aリーグ" in pages[1]
    out2 = tmp_path / "booklet.pdf"
    call_command("print_programme", event.slug, "-o", str(out2), "--booklet", stdout=TextIO())
    assert len(PdfReader(str(out2)).pages) % 2 == 0


def test_the_print_page_saves_the_texts_and_prints_the_sections_ticked(client, event):
    user = get_user_model().objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    page = client.get(reverse("tournament:print_menu", args=[event.slug]))
    assert page.status_code == 200 and "大会プログラム" in page.content.decode()
    url = reverse("tournament:programme_texts", args=[event.slug])
    answer = client.post(url, {"title": "", "organiser": "日立市", "supporters": "A会\nB会", "notes": "静かに"})
    assert answer.status_code == 302
    texts_saved = ProgrammeSettings.objects.get(event=event)
    assert (texts_saved.organiser, texts_saved.supporters, texts_saved.notes) == ("日立市", "A会\nB会", "静かに")
    page = client.get(reverse("tournament:print_menu", args=[event.slug])).content.decode()
    assert "日立市" in page and "静かに" in page  # the form shows what was saved
    too_long = client.post(url, {"organiser": "x" * 300})
    assert too_long.status_code == 200 and ProgrammeSettings.objects.get(event=event).organiser == "日立市"
    pdf = client.get(reverse("tournament:print_paper", args=[event.slug, "programme"]) + "?section=cover&section=notes")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    _r, pages = texts(pdf.content)
    assert len(pages) == 2 and "日立市" in pages[0] and "静かに" in pages[1]
    assert Event.objects.filter(pk=event.pk).exists()


# --------------------------------------------------------------------------- 審判・係分担 (staff)

ALL = list(printing.paper.PROGRAMME_SECTIONS)


@pytest.fixture
def demo():
    """The demo with its referees and roster (fixtures/demo_event.json), scheduled, the
    referees given the games."""
    for args in (("load_demo",), ("draw_groups", "demo", "--seed", "1"), ("make_schedule", "demo")):
        call_command(*args, stdout=TextIO(), stderr=TextIO())
    call_command("assign_referees", "demo", stdout=TextIO(), stderr=TextIO())
    return Event.objects.get(slug="demo")


def staff_names(event):
    return [r.name for r in event.referees.all()] + [d.name for d in event.duties.all()]


def test_the_demo_has_referees_and_a_roster(demo):
    assert demo.referees.count() == 14 and demo.duties.count() >= 8
    assert demo.matches.filter(referee_assignment__isnull=False).exists()


def test_the_staff_section_prints_the_referees_and_the_roster_with_its_page_in_the_contents(demo):
    _r, pages = texts(printing.programme(demo, ALL))
    entries = dict(contents_entries(pages[1]))
    assert "審判・係分担" in entries, entries
    first = entries["審判・係分担"]
    assert [entries[t] for t in entries] == sorted(entries.values())
    for i, text in enumerate(pages[1:], 2):
        assert footer_number(text) == i
    staff = "\n".join(pages[first - 1 :])
    assert "審判・係分担" in pages[first - 1] and "コート別の審判" in staff and "係分担表" in staff
    assert all(name in staff for name in staff_names(demo)), staff
    # the referees' table: a court's column heading and the first start time
    assert "第1コート" in staff and "9:30" in staff
    # a referee given a game at 9:30 on the first court is in that row
    first_game = demo.matches.filter(start_at__isnull=False).order_by("start_at", "court__order").first()
    row = next(line for line in staff.splitlines() if line.startswith("9:30"))
    assert first_game.referee_assignment.referee.name in row
    # the roster: the announcer holds both blocks, one line over them
    assert re.search(r"放送 開始前・試合 8:30〜\d+:\d\d 西村 早苗", staff), staff
    assert re.search(r"受付 開始前 8:30〜9:30 宮本 典子、石川 悟", staff)
    assert staff.count("西村 早苗") == 1


def test_staff_names_are_printed_only_when_the_section_is_asked_for(demo, client, tmp_path):
    names = staff_names(demo)
    _r, pages = texts(printing.programme(demo))  # the default: every section but staff
    assert not any(n in "".join(pages) for n in names)
    assert "審判・係分担" not in "".join(pages)
    out = tmp_path / "p.pdf"
    call_command("print_programme", "demo", "-o", str(out), stdout=TextIO())
    assert not any(n in "".join(texts(out.read_bytes())[1]) for n in names)
    call_command("print_programme", "demo", "-o", str(out), "--sections", "cover", "staff", stdout=TextIO())
    _r, pages = texts(out.read_bytes())
    assert "審判・係分担" in pages[1] and all(n in "".join(pages) for n in names)
    # the print page: the staff box is offered, not ticked
    user = get_user_model().objects.create_user("organiser-staff")
    demo.organisers.add(user)
    client.force_login(user)
    page = client.get(reverse("tournament:print_menu", args=[demo.slug])).content.decode()
    assert re.search(r'<input type="checkbox" name="section" value="staff">', page), page
    assert re.search(r'<input type="checkbox" name="section" value="groups" checked>', page)
    url = reverse("tournament:print_paper", args=[demo.slug, "programme"])
    _r, pages = texts(client.get(url + "?section=groups").content)
    assert not any(n in "".join(pages) for n in names)
    _r, pages = texts(client.get(url + "?section=staff").content)
    assert all(n in "".join(pages) for n in names)


def test_the_staff_section_is_left_out_without_referees_or_roster(event):
    _r, with_staff = texts(printing.programme(event, ALL))
    _r, without = texts(printing.programme(event))
    assert len(with_staff) == len(without)
    assert "審判・係分担" not in dict(contents_entries(with_staff[1]))
    # asked for alone: one page that says there is none
    _r, alone = texts(printing.programme(event, ["staff"]))
    assert len(alone) == 1 and "審判・係分担はまだありません" in alone[0]


def test_a_roster_without_referees_prints_the_roster_only(event):
    event.duties.create(role="reception", block=0, name="受付 花子")
    _r, pages = texts(printing.programme(event, ["contents", "staff"]))
    assert dict(contents_entries(pages[0]))["審判・係分担"] == 2
    assert "受付 花子" in pages[1] and "係分担表" in pages[1] and "コート別の審判" not in pages[1]
    # referees listed but no game given yet: the list, no table
    event.referees.create(name="審判 一郎", club="多賀子ども会")
    _r, pages = texts(printing.programme(event, ["staff"]))
    assert "審判 一郎" in pages[0] and "多賀子ども会" in pages[0] and "コート別の審判" not in pages[0]


def test_the_booklet_with_the_staff_section(demo):
    _r, flat = texts(printing.programme(demo, ALL))
    reader, sheets = texts(printing.programme(demo, ALL, booklet=True))
    assert len(sheets) == -(-len(flat) // 4) * 4 // 2
    assert "審判・係分担" in "".join(sheets)


@pytest.mark.parametrize(
    ("courts", "sizes"), [(0, []), (1, [1]), (9, [9]), (10, [5, 5]), (11, [6, 5]), (19, [7, 6, 6])]
)
def test_the_courts_of_the_referees_table_are_split_evenly(courts, sizes):
    from tournament.paper.programme import _chunks

    chunks = _chunks(courts)
    assert [len(c) for c in chunks] == sizes and [i for c in chunks for i in c] == list(range(courts))
