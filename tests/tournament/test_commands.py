"""The event-day management commands, scripted end to end, and their error exits."""

import datetime
import re
from io import BytesIO, StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook
from pypdf import PdfReader

from judging.models import RecordingSheet
from tournament import reports
from tournament.models import Court, Division, Event, Group, Match, Player, Team

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "entries-sample.xlsx"


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def counts():
    return tuple(m.objects.count() for m in (Event, Court, Division, Team, Player, Group, Match, RecordingSheet))


# --- the scripted day ---------------------------------------------------------------------


@pytest.mark.django_db
def test_load_demo_twice_is_idempotent():
    first = run("load_demo")
    assert "demo" in first
    after_first = counts()
    event = Event.objects.get(slug="demo")
    assert (event.divisions.count(), event.courts.count(), Team.objects.filter(division__event=event).count()) == (
        3,
        9,
        34,
    )
    second = run("load_demo")
    assert "already exists" in second
    assert counts() == after_first


@pytest.mark.django_db
def test_the_full_scripted_day(tmp_path):
    out = run(
        "create_event",
        "hitachi-2027",
        "--name",
        "ひたち郷土かるた大会",
        "--date",
        "2027-01-17",
        "--courts",
        "9",
        "--edition",
        "21",
        "--venue",
        "多賀市民プラザ",
    )
    assert "hitachi-2027" in out
    event = Event.objects.get(slug="hitachi-2027")
    assert (event.date, event.edition, event.courts.count()) == (datetime.date(2027, 1, 17), 21, 9)

    out = run("import_teams", "hitachi-2027", str(SAMPLE), "--dry-run")
    assert "would import 34 teams" in out
    assert Team.objects.count() == 0 and Division.objects.count() == 0

    out = run("import_teams", "hitachi-2027", str(SAMPLE))
    assert "imported 34 teams" in out
    assert Team.objects.filter(division__event=event).count() == 34
    assert event.divisions.count() == 3

    run("draw_groups", "hitachi-2027", "--seed", "3")
    groups = Group.objects.filter(division__event=event)
    assert groups.count() == 9
    assert len({g.court_id for g in groups}) == 9

    out = run("make_schedule", "hitachi-2027")
    group_matches = Match.objects.filter(event=event, stage=Match.Stage.GROUP).count()
    assert f"{group_matches} games scheduled" in out

    out = run("simulate_results", "hitachi-2027", "--seed", "4")
    assert f"{group_matches} group results entered" in out
    assert not Match.objects.filter(event=event, status=Match.Status.SCHEDULED).exists()

    out = run("seed_knockout", "hitachi-2027")
    knockout = Match.objects.filter(event=event).exclude(stage=Match.Stage.GROUP)
    assert f"{knockout.count()} knockout games created" in out
    assert knockout.filter(stage=Match.Stage.FINAL).count() == 3

    run("simulate_results", "hitachi-2027", "--stage", "knockout", "--seed", "5")
    assert not Match.objects.filter(event=event, status=Match.Status.SCHEDULED).exists()
    for final in knockout.filter(stage=Match.Stage.FINAL):
        assert final.winner_id in (final.team_a_id, final.team_b_id)

    xlsx = tmp_path / "standings.xlsx"
    run("export_standings", "hitachi-2027", "-o", str(xlsx))
    wb = load_workbook(BytesIO(xlsx.read_bytes()))
    assert len(wb.worksheets) == 1 + 9 + 2  # the final ranking, the groups, all games, the knockout
    ranking = list(wb.worksheets[0].iter_rows(min_row=3, values_only=True))
    assert [row[1] for row in ranking].count("優勝") == 3  # every division finished: no "not finished" row
    assert all(row[2] for row in ranking)
    matches = list(wb.worksheets[10].iter_rows(min_row=2, values_only=True))
    assert len(matches) == Match.objects.filter(event=event).count()

    pdf = tmp_path / "sheets.pdf"
    out = run("print_sheets", "hitachi-2027", "--court", "1", "-o", str(pdf))
    on_court = Match.objects.filter(event=event, court__name="1").count()
    assert f"{on_court} recording sheets" in out
    assert len(PdfReader(BytesIO(pdf.read_bytes())).pages) == on_court


@pytest.mark.django_db
def test_print_sheets_two_per_page_halves_the_pages(tmp_path):
    run("load_demo")
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    one, two = tmp_path / "one.pdf", tmp_path / "two.pdf"
    division = "中学生の部"
    run("print_sheets", "demo", "--division", division, "-o", str(one))
    run("print_sheets", "demo", "--division", division, "--per-page", "2", "-o", str(two))
    matches = Match.objects.filter(division__name=division).count()
    assert len(PdfReader(str(one)).pages) == matches
    assert len(PdfReader(str(two)).pages) == (matches + 1) // 2


@pytest.mark.django_db
def test_the_same_draw_seed_on_the_command_line_gives_the_same_groups():
    run("load_demo")
    run("draw_groups", "demo", "--seed", "11")
    first = sorted(Team.objects.values_list("name", "division__name", "group__name"))
    run("draw_groups", "demo", "--seed", "11")
    assert sorted(Team.objects.values_list("name", "division__name", "group__name")) == first


@pytest.mark.django_db
def test_a_failed_import_prints_its_problems_and_saves_nothing(tmp_path):
    run("create_event", "ev", "--name", "大会", "--date", "2027-01-17")
    run("import_teams", "ev", str(SAMPLE))
    err = StringIO()
    with pytest.raises(CommandError, match="34 problems"):
        call_command("import_teams", "ev", str(SAMPLE), stdout=StringIO(), stderr=err)
    assert err.getvalue().count("\n") >= 34
    assert Team.objects.count() == 34


# --- error exits --------------------------------------------------------------------------

EVENT_COMMANDS = [
    ("draw_groups",),
    ("make_schedule",),
    ("simulate_results",),
    ("seed_knockout",),
    ("export_standings", "-o", "unused.xlsx"),
    ("print_sheets", "-o", "unused.pdf"),
    ("import_teams", str(SAMPLE)),
]


@pytest.mark.django_db
@pytest.mark.parametrize("command", EVENT_COMMANDS, ids=[c[0] for c in EVENT_COMMANDS])
def test_a_command_on_an_unknown_event_exits_with_a_command_error(command, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name, *rest = command
    with pytest.raises(CommandError, match="no-such-event"):
        run(name, "no-such-event", *rest)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db
@pytest.mark.parametrize("date", ["2027-13-01", "17/01/2027", "tomorrow", "2027-02-30"])
def test_create_event_with_a_bad_date_exits_with_a_command_error(date):
    with pytest.raises(CommandError, match="--date"):
        run("create_event", "ev", "--name", "大会", "--date", date)
    assert not Event.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["Bad Slug", "大会", "UPPER"])
def test_create_event_with_a_bad_short_name_exits_with_a_command_error(slug):
    with pytest.raises(CommandError, match="The short name may hold only lower-case letters, digits and hyphens"):
        run("create_event", slug, "--name", "大会", "--date", "2027-01-17")
    assert not Event.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("courts", ["0", "101"])
def test_create_event_with_an_impossible_number_of_courts_exits_with_a_command_error(courts):
    with pytest.raises(CommandError, match="--courts"):
        run("create_event", "ev", "--name", "大会", "--date", "2027-01-17", "--courts", courts)
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_create_event_with_a_used_short_name_exits_with_a_command_error():
    run("create_event", "ev", "--name", "大会", "--date", "2027-01-17", "--courts", "2")
    with pytest.raises(CommandError, match="A tournament with the short name “ev” already exists"):
        run("create_event", "ev", "--name", "別の大会", "--date", "2027-01-18")
    assert Event.objects.get().courts.count() == 2


@pytest.mark.django_db
def test_import_teams_with_a_missing_file_exits_with_a_command_error(tmp_path):
    run("create_event", "ev", "--name", "大会", "--date", "2027-01-17")
    with pytest.raises(CommandError, match="No such file"):
        run("import_teams", "ev", str(tmp_path / "missing.xlsx"))
    with pytest.raises(CommandError, match="No such file"):
        run("import_teams", "ev", str(tmp_path))  # a directory is not a file
    assert not Team.objects.exists()


@pytest.mark.django_db
def test_import_teams_with_a_file_that_is_not_a_workbook_exits_with_a_command_error(tmp_path):
    run("create_event", "ev", "--name", "大会", "--date", "2027-01-17")
    bogus = tmp_path / "entries.xlsx"
    bogus.write_text("not a workbook")
    with pytest.raises(CommandError, match="1 problems; nothing was imported"):
        run("import_teams", "ev", str(bogus))
    assert not Team.objects.exists()


@pytest.mark.django_db
def test_day_commands_out_of_order_exit_with_a_command_error(tmp_path):
    """Refusals name what is missing, in English like every command's output (README)."""
    run("load_demo")
    with pytest.raises(CommandError, match="Draw the groups first"):
        run("make_schedule", "demo")  # no draw yet
    with pytest.raises(CommandError, match="No games to print: make the schedule first"):
        run("print_sheets", "demo", "-o", str(tmp_path / "sheets.pdf"))  # no games yet
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    with pytest.raises(CommandError, match="小学生低学年の部"):
        run("draw_groups", "demo")  # the schedule exists
    out = run("seed_knockout", "demo")  # no results yet: says why per division, exits 0 (issue 15)
    assert "has games without a result" in out
    with pytest.raises(CommandError, match="has games without a result"):
        run("seed_knockout", "demo", "--division", "小学生低学年の部")  # a named division refused
    assert not (tmp_path / "sheets.pdf").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("option, value", [("--court", "99"), ("--division", "大人の部")])
def test_print_sheets_with_an_unknown_court_or_division_exits_with_a_command_error(option, value, tmp_path):
    run("load_demo")
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    with pytest.raises(CommandError, match=value):
        run("print_sheets", "demo", option, value, "-o", str(tmp_path / "sheets.pdf"))
    assert not (tmp_path / "sheets.pdf").exists()


@pytest.mark.django_db
def test_export_standings_writes_the_same_workbook_as_the_download():
    run("load_demo")
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    run("simulate_results", "demo", "--seed", "2")
    from tournament.exports import event_workbook

    event = Event.objects.get(slug="demo")
    wb = load_workbook(BytesIO(event_workbook(event)))
    tables = [t for d in event.divisions.all() for t in reports.division_standings(d)]
    assert wb.worksheets[0].title == "成績一覧"  # the final ranking first
    for ws, table in zip(wb.worksheets[1:], tables):
        names = [row[1] for row in ws.iter_rows(min_row=3, max_row=2 + len(table.rows), values_only=True)]
        assert names == [table.teams[r.team].name for r in table.rows]


@pytest.mark.django_db
@pytest.mark.parametrize("command", ["export_standings", "print_sheets"])
def test_an_output_path_in_a_missing_folder_exits_with_a_command_error(command, tmp_path):
    run("load_demo")
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    with pytest.raises(CommandError, match=re.escape(f"Cannot write {tmp_path / 'missing' / 'out.bin'}: No such file")):
        run(command, "demo", "-o", str(tmp_path / "missing" / "out.bin"))
