"""Tests for tournament.imports: reading entry workbooks and the entry template."""

import io
import re
import time
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from tournament.imports import (
    MAX_DATA_ROWS,
    MAX_FILE_BYTES,
    TEMPLATE_GRADES,
    TEMPLATE_HEADER_ROW,
    TEMPLATE_LABELS,
    TEMPLATE_ROWS,
    TEMPLATE_SHEET,
    ImportProblem,
    ParsedEntries,
    PlayerEntry,
    TeamEntry,
    entry_template_workbook,
    parse_entry_workbook,
)


@pytest.fixture(autouse=True)
def english_messages():
    """These tests read the English message sources; the app's default language is ja."""
    from django.utils import translation

    with translation.override("en"):
        yield


DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE = DATA / "entries-sample.xlsx"

LOW = "小学生低学年の部"
HIGH = "小学生高学年の部"
JHS = "中学生の部"

HEADER = list(TEMPLATE_LABELS)  # A 部門, B チーム名, C 所属, D/E/F 選手1, G/H/I 選手2, J/K/L 選手3, M/N/O 補欠
PLAYERS = [
    ("小川 光", "おがわ ひかる", "2年"),
    ("井上 颯太", "いのうえ そうた", "3年"),
    ("木村 心春", "きむら こはる", "2年"),
]


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------


def xlsx(rows, *, title="申込書", setup=None, sheets_before=()):
    """Return .xlsx bytes with *rows* written from row 1 (None = empty cell)."""
    wb = Workbook()
    ws = wb.active
    for name, before_rows in sheets_before:
        other = ws
        other.title = name
        for row in before_rows:
            other.append(row)
        ws = wb.create_sheet()
    ws.title = title
    for row in rows:
        ws.append(row)
    if setup:
        setup(ws)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def team_row(division, name, affiliation="みなと子ども会", players=PLAYERS, substitute=None):
    cells = [division, name, affiliation]
    for index in range(3):
        cells += list(players[index]) if index < len(players) and players[index] else [None, None, None]
    cells += list(substitute) if substitute else [None, None, None]
    return cells


def with_header(*rows):
    """Title, note, blank row, header at row 4 (as the sample), then *rows* from row 5."""
    return [["大会 参加申込書"], ["※選手1がリーダーです"], [], HEADER, *rows]


def locations(result: ParsedEntries):
    return {(p.row, p.column) for p in result.problems}


def summary(team: TeamEntry):
    """A team without its row number, for comparing layouts."""
    return (
        team.division,
        team.name,
        team.affiliation,
        [(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in team.players],
    )


@pytest.fixture(scope="module")
def sample():
    return parse_entry_workbook(SAMPLE.read_bytes())


# --------------------------------------------------------------------------
# the acceptance sample
# --------------------------------------------------------------------------


def test_the_acceptance_sample_parses_without_problems(sample):
    assert sample.problems == []
    assert sample.ok
    assert sample.sheet == "申込書"
    assert sample.header_row == 4
    assert sample.layout == "team"


def test_the_acceptance_sample_has_34_teams_in_three_divisions(sample):
    assert len(sample.teams) == 34
    assert sample.divisions == [LOW, HIGH, JHS]
    counts = {d: sum(t.division == d for t in sample.teams) for d in sample.divisions}
    assert counts == {LOW: 12, HIGH: 16, JHS: 6}


def test_the_first_sample_team_is_led_by_player_1(sample):
    team = sample.teams[0]
    assert team.row == 5
    assert (team.division, team.name, team.affiliation) == (LOW, "みなと子ども会A", "みなと子ども会")
    assert team.leader == PlayerEntry("小川 光", "おがわ ひかる", "小2", is_leader=True, is_substitute=False)
    assert [p.name for p in team.players] == ["小川 光", "井上 颯太", "木村 心春"]
    assert sum(p.is_leader for p in team.players) == 1
    assert team.substitutes == []


def test_the_second_sample_team_has_a_substitute(sample):
    team = sample.teams[1]
    assert team.name == "桜が丘子ども会A"
    assert len(team.regulars) == 3
    assert team.substitutes == [PlayerEntry("高橋 凛", "たかはし りん", "小3", is_leader=False, is_substitute=True)]
    assert team.players[-1].is_substitute


def test_junior_high_grades_stay_junior_high(sample):
    team = next(t for t in sample.teams if t.division == JHS)
    assert team.name == "城南中学校A"
    assert [p.grade for p in team.players] == ["中2", "中3", "中3"]


def test_bare_sample_years_take_their_level_from_the_division(sample):
    high = next(t for t in sample.teams if t.division == HIGH)
    assert [p.grade for p in high.players] == ["小6", "小5", "小6"]


def test_the_same_team_name_in_two_divisions_is_allowed(sample):
    assert [t.division for t in sample.teams if t.name == "みなと子ども会A"] == [LOW, HIGH]


def test_the_sample_can_be_read_from_an_open_file(sample):
    with SAMPLE.open("rb") as handle:
        again = parse_entry_workbook(handle)
    assert again.ok
    assert [summary(t) for t in again.teams] == [summary(t) for t in sample.teams]


def test_a_django_uploaded_file_is_accepted(sample):
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("entries.xlsx", SAMPLE.read_bytes())
    upload.read(10)  # a partly read upload is rewound
    assert len(parse_entry_workbook(upload).teams) == 34


# --------------------------------------------------------------------------
# bad rows
# --------------------------------------------------------------------------


@pytest.fixture
def bad_rows():
    rows = with_header(
        team_row(LOW, "みなと子ども会Ａ"),  # 5 fine
        team_row(LOW, None, players=PLAYERS),  # 6 no team name
        team_row(LOW, "東町子ども会A", players=PLAYERS[:2]),  # 7 two players
        team_row(LOW, "宮田台子ども会A", players=[PLAYERS[0], ("井上 颯太", "いのうえ そうた", "①"), PLAYERS[2]]),  # 8
        team_row(LOW, "城南小学校", players=[("小川 光", "ogawa", "2年"), *PLAYERS[1:]]),  # 9 furigana
        team_row(LOW, "みなと子ども会A\u3000"),  # 10 duplicate of row 5
        team_row(HIGH, "みなと子ども会A", players=[("井上 凛", "いのうえ りん", "6年")] + PLAYERS[1:]),  # 11 fine
        team_row(None, "川尻浜子ども会"),  # 12 no division
        team_row(LOW, "金沢台子ども会", players=[PLAYERS[0], (None, "いのうえ そうた", "3年"), PLAYERS[2]]),  # 13
        team_row(LOW, "坂下子ども会", players=[PLAYERS[0], ("井上 颯太", "いのうえ そうた", "7年"), PLAYERS[2]]),  # 14
    )
    return parse_entry_workbook(xlsx(rows))


def test_bad_rows_are_reported_with_their_row_and_column(bad_rows):
    assert not bad_rows.ok
    assert locations(bad_rows) == {
        (6, "B (チーム名)"),
        (7, "J (選手3 氏名)"),
        (8, "I (学年)"),
        (9, "E (ふりがな)"),
        (10, "B (チーム名)"),
        (12, "A (部門)"),
        (13, "G (選手2 氏名)"),
        (14, "I (学年)"),
    }


def test_a_missing_team_name_is_reported(bad_rows):
    [problem] = [p for p in bad_rows.problems if p.row == 6]
    assert "team name" in problem.message
    assert str(problem) == "Row 6, column B (チーム名): The team name is missing."


def test_a_team_with_two_players_is_reported_at_the_first_empty_player(bad_rows):
    [problem] = [p for p in bad_rows.problems if p.row == 7]
    assert "2 players" in problem.message and "exactly 3" in problem.message


def test_a_circled_digit_grade_is_reported(bad_rows):
    [problem] = [p for p in bad_rows.problems if p.row == 8]
    assert "①" in problem.message


def test_romaji_furigana_is_reported(bad_rows):
    [problem] = [p for p in bad_rows.problems if p.row == 9]
    assert "hiragana" in problem.message and "o" in problem.message


def test_a_duplicate_team_after_normalisation_names_both_rows(bad_rows):
    [problem] = [p for p in bad_rows.problems if p.row == 10]
    assert "rows 5 and 10" in problem.message
    assert LOW in problem.message


def test_a_furigana_without_a_name_is_reported_once_at_the_name_column(bad_rows):
    problems = [p for p in bad_rows.problems if p.row == 13]
    assert {p.column for p in problems} == {"G (選手2 氏名)"}
    assert any("name is missing" in p.message for p in problems)


def test_a_year_beyond_elementary_school_is_reported(bad_rows):
    [problem] = [p for p in bad_rows.problems if p.row == 14]
    assert "7年" in problem.message


def test_problems_are_sorted_by_row(bad_rows):
    rows = [p.row for p in bad_rows.problems]
    assert rows == sorted(rows)


def test_teams_with_a_name_are_still_returned_for_preview(bad_rows):
    names = [(t.row, t.name) for t in bad_rows.teams]
    assert (6, "") not in names
    assert names[0] == (5, "みなと子ども会Ａ")  # the spelling typed (issue 18, item 7)
    assert (11, "みなと子ども会A") in names


def test_a_default_division_fills_empty_division_cells():
    result = parse_entry_workbook(xlsx(with_header(team_row(None, "川尻浜子ども会"))), default_division=LOW)
    assert result.ok, [str(p) for p in result.problems]
    assert result.teams[0].division == LOW


def test_a_sheet_without_a_division_column_needs_a_default_division():
    header = [label for label in HEADER if label != "部門"]
    rows = [header, team_row(LOW, "川尻浜子ども会")[1:]]
    without = parse_entry_workbook(xlsx(rows))
    assert [(p.row, p.column) for p in without.problems] == [(1, None)]
    assert "部門" in without.problems[0].message
    with_default = parse_entry_workbook(xlsx(rows), default_division=LOW)
    assert with_default.ok
    assert with_default.divisions == [LOW]


def test_more_than_two_substitutes_are_reported_at_the_third_substitute():
    header = ["部門", "チーム名", "選手1 氏名", "選手2 氏名", "選手3 氏名", "補欠1 氏名", "補欠2 氏名", "補欠3 氏名"]
    row = [LOW, "みなと子ども会A", "小川 光", "井上 颯太", "木村 心春", "森 陽菜", "林 樹", "清水 奏"]
    result = parse_entry_workbook(xlsx([header, row]))
    assert locations(result) == {(2, "H (補欠3 氏名)")}
    assert "3 substitutes" in result.problems[0].message


def test_numbers_typed_in_excel_lose_their_decimal_point():
    rows = with_header(
        team_row(LOW, 7, players=[("小川 光", None, 2), ("井上 颯太", None, 3.0), ("木村 心春", None, "２年")])
    )
    result = parse_entry_workbook(xlsx(rows))
    assert result.ok, [str(p) for p in result.problems]
    assert result.teams[0].name == "7"
    assert [p.grade for p in result.teams[0].players] == ["小2", "小3", "小2"]


def test_strings_are_normalised_and_control_characters_removed():
    rows = with_header(
        team_row(
            " 小学生低学年の部 ",
            "ひたち\tかるた会Ａ",
            " みなと\u3000子ども会 ",
            players=[("小川\u3000光", "ｵｶﾞﾜ ﾋｶﾙ", "小２"), *PLAYERS[1:]],
        )
    )
    result = parse_entry_workbook(xlsx(rows))
    assert result.ok, [str(p) for p in result.problems]
    team = result.teams[0]
    # Spaces tidied, the spelling kept (issue 18, item 7); furigana is a reading: NFKC.
    assert (team.division, team.name, team.affiliation) == (LOW, "ひたち かるた会Ａ", "みなと 子ども会")
    assert summary(team)[3][0] == ("小川 光", "オガワ ヒカル", "小2", True, False)


def test_division_spelling_variants_are_merged_into_the_first_spelling():
    rows = with_header(
        team_row("小学生 低学年の部", "みなと子ども会A"), team_row("小学生低学年の部", "みなと子ども会B")
    )
    result = parse_entry_workbook(xlsx(rows))
    assert result.divisions == ["小学生 低学年の部"]


# --------------------------------------------------------------------------
# per-player layout
# --------------------------------------------------------------------------

PLAYER_HEADER = ["部門", "チーム名", "所属", "氏名", "ふりがな", "学年", "リーダー", "補欠"]


def player_rows(teams, *, blank_team_on_followers=False):
    rows = []
    for team in teams:
        for index, player in enumerate(team.players):
            name = team.name if index == 0 or not blank_team_on_followers else None
            rows.append(
                [
                    team.division,
                    name,
                    team.affiliation,
                    player.name,
                    player.furigana,
                    player.grade,
                    "○" if player.is_leader else None,
                    "○" if player.is_substitute else None,
                ]
            )
    return rows


def test_a_per_player_workbook_parses_to_the_same_teams(sample):
    result = parse_entry_workbook(xlsx([["参加者名簿"], PLAYER_HEADER, *player_rows(sample.teams)]))
    assert result.problems == []
    assert result.layout == "player"
    assert result.header_row == 2
    assert [summary(t) for t in result.teams] == [summary(t) for t in sample.teams]
    assert result.teams[1].row == 6  # team 1 fills rows 3-5


def test_per_player_rows_with_an_empty_team_name_continue_the_team_above(sample):
    rows = player_rows(sample.teams[:5], blank_team_on_followers=True)
    for row in rows:
        if row[1] is None:
            row[0] = None  # merged division cells
    result = parse_entry_workbook(xlsx([PLAYER_HEADER, *rows]))
    assert result.ok, [str(p) for p in result.problems]
    assert [summary(t) for t in result.teams] == [summary(t) for t in sample.teams[:5]]


def test_per_player_rows_are_grouped_by_normalised_team_name_and_leader_comes_first():
    rows = [
        PLAYER_HEADER,
        [LOW, "みなと子ども会A", "みなと子ども会", "井上 颯太", "いのうえ そうた", "3年", None, None],
        [LOW, "みなと子ども会Ａ ", None, "小川 光", "おがわ ひかる", 2, "はい", "いいえ"],
        [LOW, "ﾐﾅﾄ", None, "森 陽菜", None, None, None, None],
        [LOW, "みなと子ども会a", None, "木村 心春", "きむら こはる", "2年", "×", None],
        [LOW, "ミナト", None, "林 樹", None, None, "yes", None],
        [LOW, "みなと", None, "清水 奏", None, None, "TRUE", None],
        [LOW, "ミ ナ ト", None, "森 優奈", None, None, False, None],
        [LOW, "みなと", None, "山本 悠真", None, None, 0, None],
        [LOW, "みなと", None, "池田 栞", None, None, None, None],
    ]
    result = parse_entry_workbook(xlsx(rows))
    assert result.ok, [str(p) for p in result.problems]
    assert [t.name for t in result.teams] == ["みなと子ども会A", "ﾐﾅﾄ", "みなと"]  # first spelling, as typed
    assert [p.name for p in result.teams[1].players] == ["林 樹", "森 陽菜", "森 優奈"]
    first = result.teams[0]
    assert [p.name for p in first.players] == ["小川 光", "井上 颯太", "木村 心春"]
    assert first.leader.name == "小川 光"
    assert first.affiliation == "みなと子ども会"


def test_per_player_faults_are_reported_with_row_and_column():
    rows = [
        PLAYER_HEADER,  # 1
        [LOW, "みなと子ども会A", None, "小川 光", None, None, None, None],  # 2 no leader in team
        [LOW, "みなと子ども会A", None, "井上 颯太", None, None, None, None],  # 3
        [LOW, "みなと子ども会A", None, "木村 心春", None, None, None, None],  # 4
        [LOW, "東町子ども会A", "東町子ども会", "森 陽菜", None, None, "○", None],  # 5
        [LOW, "東町子ども会A", "西町子ども会", "高橋 翼", None, None, "○", None],  # 6 second leader, other club
        [LOW, "東町子ども会A", None, "中村 蒼", None, None, None, None],  # 7
        [LOW, "東町子ども会A", None, "伊藤 莉子", None, None, None, None],  # 8 fourth regular
        [LOW, "東町子ども会A", None, "伊藤 蓮", None, None, "○", "○"],  # 9 substitute leader
        [LOW, None, None, "山田 紬", None, None, None, None],  # 10 continues row 9
        [],  # 11
        [LOW, None, None, "山本 樹", None, None, None, None],  # 12 no team name
        [LOW, "宮田台子ども会A", None, "山崎 翼", None, None, "○", None],  # 13 only one player
        [LOW, "坂下子ども会", None, "A", None, None, "○", None],  # 14
        [LOW, "坂下子ども会", None, "B", None, None, None, None],
        [LOW, "坂下子ども会", None, "C", None, None, None, None],
        [LOW, "坂下子ども会", None, "D", None, None, None, "○"],
        [LOW, "坂下子ども会", None, "E", None, None, None, "○"],
        [LOW, "坂下子ども会", None, "F", None, None, None, "レ"],  # 19 third substitute
    ]
    result = parse_entry_workbook(xlsx(rows))
    assert locations(result) == {
        (2, "G (リーダー)"),  # no leader
        (6, "C (所属)"),  # affiliation differs from row 5
        (6, "G (リーダー)"),  # more than one leader
        (8, "D (氏名)"),  # fourth regular player
        (9, "G (リーダー)"),  # a substitute cannot be the leader
        (12, "B (チーム名)"),  # team name missing after a blank row
        (13, "D (氏名)"),  # one player only
        (19, "H (補欠)"),  # third substitute
    }
    messages = {(p.row, p.column): p.message for p in result.problems}
    assert "row 5" in messages[(6, "G (リーダー)")]
    assert "東町子ども会" in messages[(6, "C (所属)")]
    team = next(t for t in result.teams if t.name == "東町子ども会A")
    assert [p.name for p in team.substitutes] == ["伊藤 蓮"]
    assert "山田 紬" in [p.name for p in team.regulars]  # row 10 continued the team of row 9


def test_without_a_leader_column_the_first_player_of_each_team_leads():
    rows = [["チーム名", "選手名", "学年"], *[["ひたち", n, "小3"] for n in ("A", "B", "C")]]
    result = parse_entry_workbook(xlsx(rows), default_division=LOW)
    assert result.ok, [str(p) for p in result.problems]
    assert [p.is_leader for p in result.teams[0].players] == [True, False, False]


# --------------------------------------------------------------------------
# files that are not xlsx
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("payload", "words"),
    [
        pytest.param(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600, ".xls", id="old-xls-magic-bytes"),
        pytest.param(b"this is not a spreadsheet at all", ".xlsx", id="garbage-bytes"),
        pytest.param("部門,チーム名\n".encode(), ".xlsx", id="csv-text"),
        pytest.param(b"", "empty", id="empty-file"),
        pytest.param(b"PK\x03\x04" + b"\0" * 100, "damaged", id="truncated-zip"),
        pytest.param(b"PK\x03\x04" + b"\0" * MAX_FILE_BYTES, "MB", id="over-5-mb"),
    ],
)
def test_unreadable_files_give_a_problem_not_an_exception(payload, words):
    result = parse_entry_workbook(payload)
    assert result.teams == []
    assert not result.ok
    [problem] = result.problems
    assert problem.row is None and problem.column is None
    assert words in problem.message
    assert str(problem) == problem.message


def test_a_zip_that_is_not_a_workbook_gives_a_problem():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "hello")
    result = parse_entry_workbook(buffer.getvalue())
    assert [p.row for p in result.problems] == [None]


def test_a_text_stream_gives_a_problem():
    assert not parse_entry_workbook(io.StringIO("部門,チーム名")).ok


def test_a_workbook_without_a_header_row_gives_a_problem():
    result = parse_entry_workbook(xlsx([["名簿"], ["氏名", "学年"], ["小川 光", "2年"]]))
    [problem] = result.problems
    assert "チーム名" in problem.message
    assert result.layout == "" and result.teams == []


def test_a_header_below_row_20_is_not_found():
    rows = [[f"メモ {n}"] for n in range(20)] + [HEADER, team_row(LOW, "みなと子ども会A")]
    assert not parse_entry_workbook(xlsx(rows)).ok


# --------------------------------------------------------------------------
# bogus dimensions, far rows, limits
# --------------------------------------------------------------------------


def inflate(data: bytes, *, dimension: str, empty_rows_from: int, empty_rows: int) -> bytes:
    """Rewrite sheet1 of *data*: a bogus dimension plus many formatted but empty rows."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            content = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = content.decode("utf-8")
                text = re.sub(r'<dimension ref="[^"]*"\s*/>', f'<dimension ref="{dimension}"/>', text)
                filler = "".join(
                    f'<row r="{n}" ht="15" customHeight="1"/>'
                    for n in range(empty_rows_from, empty_rows_from + empty_rows)
                )
                text = text.replace("</sheetData>", filler + "</sheetData>")
                content = text.encode("utf-8")
            dst.writestr(item, content)
    return out.getvalue()


def test_a_bogus_sheet_dimension_and_a_million_formatted_rows_are_not_read():
    data = inflate(SAMPLE.read_bytes(), dimension="A1:XFD1048576", empty_rows_from=39, empty_rows=1_048_000)
    assert len(data) < MAX_FILE_BYTES
    started = time.perf_counter()
    result = parse_entry_workbook(data)
    elapsed = time.perf_counter() - started
    assert result.ok, [str(p) for p in result.problems]
    assert len(result.teams) == 34
    assert elapsed < 5


def test_rows_after_50_blank_rows_are_not_read():
    rows = with_header(team_row(LOW, "みなと子ども会A"))  # team at row 5
    rows += [[] for _ in range(50)]  # rows 6..55 blank
    rows.append(team_row(LOW, "遠くの子ども会"))  # row 56
    result = parse_entry_workbook(xlsx(rows))
    assert result.ok
    assert [t.name for t in result.teams] == ["みなと子ども会A"]


def test_rows_after_49_blank_rows_are_still_read():
    rows = with_header(team_row(LOW, "みなと子ども会A")) + [[] for _ in range(49)] + [team_row(LOW, "近くの子ども会")]
    result = parse_entry_workbook(xlsx(rows))
    assert [(t.row, t.name) for t in result.teams] == [(5, "みなと子ども会A"), (55, "近くの子ども会")]


def test_a_cell_in_a_far_away_column_does_not_matter():
    result = parse_entry_workbook(
        xlsx(with_header(team_row(LOW, "みなと子ども会A")), setup=lambda ws: ws.cell(row=5, column=16000, value="x"))
    )
    assert result.ok
    assert len(result.teams) == 1


def test_more_than_5000_rows_give_a_problem():
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("申込書")
    ws.append(HEADER)
    row = team_row(LOW, "x")
    for n in range(MAX_DATA_ROWS + 1):
        row[1] = f"チーム{n}"
        ws.append(row)
    buffer = io.BytesIO()
    wb.save(buffer)
    result = parse_entry_workbook(buffer.getvalue())
    assert len(result.teams) == MAX_DATA_ROWS
    assert [(p.row, p.column) for p in result.problems] == [(MAX_DATA_ROWS + 2, None)]
    assert "5000" in result.problems[0].message


# --------------------------------------------------------------------------
# untidy but valid sheets
# --------------------------------------------------------------------------


def test_merged_titles_extra_columns_and_comment_rows_are_tolerated():
    header = [
        "No.",
        "部門",
        "チーム名",
        "備考",
        "所属",
        "選手1（リーダー）氏名",
        "ふりがな",
        "学年",
        "選手2 氏名",
        "ふりがな",
        "学年",
        "選手3 氏名",
        "ふりがな",
        "学年",
        "補欠 氏名",
        "ふりがな",
        "学年",
        "引率者",
        "引率者 電話",
    ]

    def body(team, number):
        return [number, team[0], team[1], "よろしく", *team[2:], "菊池 陽翔", "0294-12-3456"]

    rows = [
        ["第21回ひたち郷土かるた大会　参加申込書"],
        header,
        ["例", LOW, "記入例チーム", None, "記入例", "見本 太郎", "みほん たろう", "2年"] + [None] * 11,
        ["※ 記入例を参考に、1チーム1行で書いてください。"],
        body(team_row(LOW, "みなと子ども会A"), 1),
        [2],
        ["# 以下 高学年"],
        body(team_row(HIGH, "みなと子ども会A"), 3),
        header,  # a header repeated on a second printed page
    ]

    def merge(ws):
        ws.merge_cells("A1:S1")

    result = parse_entry_workbook(
        xlsx(rows, setup=merge, sheets_before=[("記入方法", [["記入方法"], ["1. 部門を選ぶ"]])])
    )
    assert result.problems == []
    assert result.sheet == "申込書"
    assert result.header_row == 2
    assert [(t.row, t.division, t.name) for t in result.teams] == [
        (5, LOW, "みなと子ども会A"),
        (8, HIGH, "みなと子ども会A"),
    ]
    assert result.teams[0].leader.name == "小川 光"


def test_english_column_titles_are_recognised():
    header = [
        "Division",
        "Team name",
        "Club",
        "Player 1 (leader)",
        "Furigana",
        "Grade",
        "Player 2",
        "Furigana",
        "Grade",
        "Player 3",
        "Furigana",
        "Grade",
        "Substitute",
        "Furigana",
        "Grade",
    ]
    rows = [header, team_row(LOW, "Team Mito", substitute=("森 陽菜", "もり ひな", "1"))]
    result = parse_entry_workbook(xlsx(rows))
    assert result.ok, [str(p) for p in result.problems]
    team = result.teams[0]
    assert team.leader.name == "小川 光"
    assert [p.grade for p in team.substitutes] == ["小1"]


def test_a_leader_marked_on_player_2_is_listed_first():
    header = ["部門", "チーム名", "選手1 氏名", "選手2（主将）氏名", "選手3 氏名"]
    result = parse_entry_workbook(xlsx([header, [LOW, "ひたち", "A", "B", "C"]]))
    assert result.ok
    assert [(p.name, p.is_leader) for p in result.teams[0].players] == [("B", True), ("A", False), ("C", False)]


# --------------------------------------------------------------------------
# problems and results
# --------------------------------------------------------------------------


def test_import_problem_reads_as_a_sentence():
    assert (
        str(ImportProblem(7, "C (チーム名)", "The team name is missing."))
        == "Row 7, column C (チーム名): The team name is missing."
    )
    assert str(ImportProblem(7, None, "Too many rows.")) == "Row 7: Too many rows."
    assert str(ImportProblem(None, None, "Not an .xlsx file.")) == "Not an .xlsx file."


def test_parsed_entries_are_ok_only_without_problems():
    assert ParsedEntries([], []).ok
    assert not ParsedEntries([], [ImportProblem(None, None, "x")]).ok


# --------------------------------------------------------------------------
# the downloadable template
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def template_bytes():
    return entry_template_workbook([LOW, HIGH, JHS, "小学生低学年の部 "])


def test_the_template_has_the_sample_header_in_row_4(template_bytes):
    ws = load_workbook(io.BytesIO(template_bytes))[TEMPLATE_SHEET]
    header = [c.value for c in ws[TEMPLATE_HEADER_ROW]]
    assert header == list(TEMPLATE_LABELS)
    sample_ws = load_workbook(SAMPLE, read_only=True).worksheets[0]
    sample_header = [c for c in next(sample_ws.iter_rows(min_row=4, max_row=4, values_only=True))]
    assert header == [c for c in sample_header if c != "No."]  # 引率者 kept (issue 18, item 6)
    assert ws["A1"].value and ws["A2"].value and ws["A3"].value is None


def test_the_template_offers_drop_down_lists_for_division_and_grade(template_bytes):
    wb = load_workbook(io.BytesIO(template_bytes))
    ws = wb[TEMPLATE_SHEET]
    validations = {str(dv.sqref): dv for dv in ws.data_validations.dataValidation}
    last = TEMPLATE_HEADER_ROW + TEMPLATE_ROWS
    division = validations[f"A5:A{last}"]
    assert division.type == "list"
    lists = wb[division.formula1.split("!")[0].strip("'")]
    assert lists.sheet_state == "hidden"
    assert [lists.cell(row=n, column=1).value for n in range(1, 4)] == [LOW, HIGH, JHS]
    assert lists.cell(row=4, column=1).value is None  # duplicates dropped
    [grade] = [dv for key, dv in validations.items() if key.startswith("F5")]
    assert set(str(grade.sqref).split()) == {f"{c}5:{c}{last}" for c in "FILO"}
    assert [lists.cell(row=n, column=2).value for n in range(1, len(TEMPLATE_GRADES) + 1)] == list(TEMPLATE_GRADES)


def test_the_template_is_set_up_for_a4_landscape_printing_with_a_frozen_header(template_bytes):
    ws = load_workbook(io.BytesIO(template_bytes))[TEMPLATE_SHEET]
    assert ws.freeze_panes == "A5"
    assert ws.page_setup.orientation == "landscape"
    assert str(ws.page_setup.paperSize) == str(ws.PAPERSIZE_A4)
    assert ws.print_title_rows == "$4:$4"
    widths = {
        ws.cell(row=4, column=n).value: ws.column_dimensions[ws.cell(row=4, column=n).column_letter].width
        for n in range(1, 4)
    }
    assert widths["チーム名"] >= 20 and widths["部門"] >= 18


def test_the_empty_template_parses_to_no_teams(template_bytes):
    result = parse_entry_workbook(template_bytes)
    assert result.ok and result.teams == []
    assert (result.sheet, result.header_row, result.layout) == (TEMPLATE_SHEET, 4, "team")


def test_a_filled_in_template_round_trips(template_bytes, sample):
    wb = load_workbook(io.BytesIO(template_bytes))
    ws = wb[TEMPLATE_SHEET]
    for offset, team in enumerate(sample.teams):
        row = [team.division, team.name, team.affiliation]
        for player in team.regulars + team.substitutes[:1]:
            row += [player.name, player.furigana, player.grade]
        for column, value in enumerate(row, start=1):
            ws.cell(row=TEMPLATE_HEADER_ROW + 1 + offset, column=column, value=value)
    buffer = io.BytesIO()
    wb.save(buffer)
    result = parse_entry_workbook(buffer.getvalue())
    assert result.problems == []
    assert [summary(t) for t in result.teams] == [summary(t) for t in sample.teams]


def test_a_template_without_divisions_still_offers_grades():
    wb = load_workbook(io.BytesIO(entry_template_workbook([])))
    ws = wb[TEMPLATE_SHEET]
    assert [str(dv.sqref)[:2] for dv in ws.data_validations.dataValidation] == ["F5"]
