"""Every PDF and workbook speaks the language of the session that asked for it, never two on
one page or sheet (issue 17 item 5; README "Languages").

An event with ASCII names only (event, venue, division, courts, teams, players) is drawn,
played (a walkover and a game decided by rock-paper-scissors included) and its knockout
seeded; each PDF kind and each workbook is rendered through the organiser's download views:
in English nothing Japanese may be printed but the card's name 「り」 and the ○ ● marks; in
Japanese no English UI word may be printed (the ASCII names, URLs and codes aside).
"""

import io
import re

import pytest
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from judging.engine import rules
from judging.services import submit_walkover
from tests import factories
from tournament import exports, printing
from tournament.models import Court, Match
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.placement import create_placement_games
from tournament.services.registration import PlayerData, save_team
from tournament.services.schedule import make_schedule

# Japanese script: kanji, hiragana, katakana (the ○ ● ＝ marks and 「」 are not words).
JAPANESE = re.compile(r"[\u3040-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
# The card 「り」 keeps its name in every language (the rules call it so).
ALLOWED_JAPANESE = {"り"}

TEAMS = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]
SENIORS = ["Kilo", "Lima", "Mike", "Oscar", "Papa", "Romeo"]
DATA_WORDS = {
    "Seniors",
    *SENIORS,
    "Karuta",
    "Open",
    "Hall",
    "North",
    "Juniors",
    "Club",
    *TEAMS,
    *(f"{t}{i}" for t in TEAMS for i in range(1, 4)),
    *(t.lower() for t in TEAMS),
}
# In Japanese, ASCII that is not a UI word: the names above, the QR fallback URL, the marks
# of the cross table and of the individual table, the PDF footer's page numbers.
JAPANESE_ASCII_OK = DATA_WORDS | {"http", "https", "testserver", "court", "game", "karuta", "No", "cm"}


@pytest.fixture
def day(db):
    """Juniors: two groups of four on courts "1" and "North", all group games played (one
    walkover, one decided by rock-paper-scissors), the final played; Seniors: two groups of
    three with placement games (A-B), the first played."""
    event = factories.make_event(courts=1, name="Karuta Open", venue="North Hall", edition=3)
    Court.objects.create(event=event, name="North", order=2)
    division = factories.make_division(event, name="Juniors")
    division.courts.set(event.courts.all())
    for i, name in enumerate(TEAMS):
        players = [
            PlayerData(f"{name}{n}", f"{name.lower()}{n}", "", is_leader=n == 2, is_substitute=n == 3)
            for n in range(1, 4)
        ]
        save_team(division, name, f"{TEAMS[i % 2]} Club", players)
    seniors = factories.make_division(event, name="Seniors", after_groups="placement", placement_pairs="A-B")
    seniors.courts.set(event.courts.all())
    for name in SENIORS:
        save_team(seniors, name, "", [PlayerData(f"{name}1", is_leader=True)])
    draw_groups(event, seed=1)
    make_schedule(event)
    games = list(Match.objects.filter(event=event, stage=Match.Stage.GROUP).order_by("match_number"))
    submit_walkover(games[0], rules.Side.B)
    tie = rules.SheetValues(27, 27, 2, rules.JokerHolder.REFEREE, rules.Side.A)
    factories.submit_result(games[1], tie)
    for game in games[2:]:  # the team registered first wins: no ties in the standings
        if game.team_a.entry_number < game.team_b.entry_number:
            factories.submit_result(game, rules.SheetValues(30, 26, 0, rules.JokerHolder.A, None))
        else:
            factories.submit_result(game, rules.SheetValues(26, 30, 0, rules.JokerHolder.B, None))
    seed_knockout(event, division=division)
    create_placement_games(event, seniors)
    for stage in (Match.Stage.PLACEMENT, Match.Stage.FINAL):
        ready = Match.objects.filter(event=event, stage=stage, team_a__isnull=False, team_b__isnull=False)
        first = ready.order_by("match_number").first()
        factories.submit_result(first, rules.SheetValues(30, 26, 0, rules.JokerHolder.A, None))
    return event


@pytest.fixture
def organiser(client, day, django_user_model):
    user = django_user_model.objects.create_user("organiser")
    day.organisers.add(user)
    client.force_login(user)
    return client


def pdf_texts(data):
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def workbook_texts(data):
    """Every sheet of a workbook as (sheet name, its text cells joined)."""
    wb = load_workbook(io.BytesIO(data))
    return [
        (ws.title, " ".join(str(v) for row in ws.iter_rows(values_only=True) for v in row if isinstance(v, str)))
        for ws in wb.worksheets
    ]


def documents(client, event, language):
    """(what, text) of every PDF kind and every workbook, downloaded in ``language``."""
    header = {"HTTP_ACCEPT_LANGUAGE": language}
    base = f"/manage/{event.slug}"
    found = []
    for kind in [*printing.KINDS, "matrix"]:
        response = client.get(f"{base}/print/{kind}.pdf", **header)
        assert response.status_code == 200, kind
        found += [(f"{kind}.pdf p.{i + 1}", text) for i, text in enumerate(pdf_texts(response.content))]
    for per_page in (1, 2):
        response = client.get(f"{base}/print/sheets.pdf?per_page={per_page}", **header)
        assert response.status_code == 200
        found += [(f"sheets×{per_page} p.{i + 1}", text) for i, text in enumerate(pdf_texts(response.content))]
    query = "&".join(f"kind={kind}" for kind in exports.KINDS)
    response = client.get(f"{base}/export/results.xlsx?{query}", **header)
    assert response.status_code == 200
    found += [(f"workbook sheet {name!r}", f"{name} {text}") for name, text in workbook_texts(response.content)]
    response = client.get(f"/e/{event.slug}/results.xlsx", **header)
    if response.status_code == 200:
        found += [(f"public workbook {name!r}", f"{name} {text}") for name, text in workbook_texts(response.content)]
    return found


def test_every_pdf_and_workbook_in_english_prints_no_japanese_label(organiser, day):
    docs = documents(organiser, day, "en")
    assert len(docs) > 10
    wrong = {what: sorted(set(JAPANESE.findall(text)) - ALLOWED_JAPANESE) for what, text in docs}
    assert {what: chars for what, chars in wrong.items() if chars} == {}
    everything = " ".join(text for _what, text in docs)
    for label in ("Court timetable", "Check-in list", "Standings", "Bracket", "Final results", "Recording sheet"):
        assert label in everything
    placement = [text for what, text in docs if what.startswith("bracket.pdf") and "Places decided" in text]
    assert placement, "the bracket paper's placement games page"
    assert "Sheet to the recorder." in everything  # the sheet's foot note fits whole, never cut


def test_every_pdf_and_workbook_in_japanese_prints_no_english_word(organiser, day):
    docs = documents(organiser, day, "ja")
    tokens = [court.token for court in day.courts.all()]  # in the QR's URL, printed under it (wrapped)
    wrong = {}
    for what, text in docs:
        words = set(re.findall(r"[A-Za-z]{2,}", text)) - JAPANESE_ASCII_OK
        words = {w for w in words if not any(w in token for token in tokens)}
        words = {w for w in words if not re.fullmatch(r"[A-D]+", w)}  # the sides A / B of the 判定表's cells
        if words:
            wrong[what] = sorted(words)
    assert wrong == {}
    everything = " ".join(text for _what, text in docs)
    for label in ("対戦表", "受付名簿", "順位表", "トーナメント表", "成績一覧", "記録用紙", "判定表", "リーダー"):
        assert label in everything
    assert "用紙は記録係へ提出。" in everything  # the sheet's foot note fits whole, never cut
    assert "主将" not in everything and "ラウンド" not in everything and "失札" not in everything


@pytest.mark.parametrize(
    ("stage", "index", "ja", "en"),
    [
        (Match.Stage.KNOCKOUT, 0, "1回戦", "Round 1"),
        (Match.Stage.ROUND_OF_16, 0, "1回戦", "Round 1"),
        (Match.Stage.ROUND_OF_16, 1, "2回戦", "Round 2"),
        (Match.Stage.QUARTERFINAL, 2, "準々決勝", "Quarterfinal"),
        (Match.Stage.SEMIFINAL, 3, "準決勝", "Semifinal"),
        (Match.Stage.FINAL, 4, "決勝", "Final"),
    ],
)
def test_knockout_rounds_are_named_from_the_first_round(stage, index, ja, en):
    match = Match(stage=stage, round=index)
    with translation.override("ja"):
        assert match.get_stage_display() == ja
    with translation.override("en"):
        assert match.get_stage_display() == en


@pytest.mark.parametrize(
    ("name", "ja", "en"),
    [("1", "第1コート", "Court 1"), ("A", "Aコート", "Court A"), ("Aコート", "Aコート", "Aコート")],
)
def test_a_court_is_第1コート_when_numbered_and_Aコート_when_named(name, ja, en):
    court = Court(name=name)
    with translation.override("ja"):
        assert str(court) == ja
    with translation.override("en"):
        assert str(court) == en
