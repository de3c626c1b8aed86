"""Every number in every workbook kind is a number (issue 34 item 4): court names "1"…"10"
sort 1, 2, 10; and an .ods or .xls upload is named as what it is, with the way to save as .xlsx."""

import io
import zipfile
from io import BytesIO, StringIO

import pytest
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext
from openpyxl import Workbook, load_workbook

from common import xlsx
from reader.deck_import import read_deck, template_workbook
from tests.workbook_numbers import numbers_as_text
from tournament import exports
from tournament.imports.records import ImportProblem
from tournament.imports.template import entry_template_workbook
from tournament.imports.workbook import read_entry_sheet
from tournament.models import Court, Event


def test_plain_number_text_is_stored_as_a_number():
    wb = xlsx.new_workbook()
    ws = xlsx.add_sheet(wb, "x")
    values = ["10", "2", "-3", "1.5", "007", "1,000", "1e3", "1.50", "=1+1", "12345678901234567", "第1コート"]
    for i, v in enumerate(values, start=1):
        xlsx.write_cell(ws, i, 1, v)
    got = [c.value for c in load_workbook(BytesIO(xlsx.workbook_bytes(wb)))["x"]["A"]]
    assert got == [10, 2, -3, 1.5, "007", "1,000", "1e3", "1.50", "=1+1", "12345678901234567", "第1コート"]


@pytest.fixture
def played(db):
    call_command("load_demo", stdout=StringIO())
    call_command("draw_groups", "demo", "--seed", "1", stdout=StringIO())
    call_command("make_schedule", "demo", stdout=StringIO())
    call_command("simulate_results", "demo", "--seed", "2", stdout=StringIO())
    return Event.objects.get(slug="demo")


def test_every_tournament_workbook_kind_holds_numbers_as_numbers(played, client, django_user_model):
    assert Court.objects.filter(event=played, name__regex=r"^\d+$").exists()  # courts named 1, 2, …
    for kind in exports.KINDS:
        assert numbers_as_text(exports.event_workbook(played, (kind,))) == [], kind
    assert numbers_as_text(exports.event_workbook(played, ("ranking", "standings", "games", "timetable"))) == []
    assert numbers_as_text(entry_template_workbook(["小学生の部"])) == []
    problems = [ImportProblem(3, "B", "学年が読めません"), ImportProblem(None, None, "12")]
    assert numbers_as_text(exports.problems_workbook(problems)) == []
    assert numbers_as_text(template_workbook()) == []
    # the games sheet's court column sorts as numbers
    book = load_workbook(BytesIO(exports.event_workbook(played, ("games",))))
    column = [str(h) for h in exports.matches_headers()].index(gettext("court")) + 1
    courts = [row[column - 1].value for row in book.worksheets[0].iter_rows(min_row=2)]
    assert courts and all(isinstance(c, int) for c in courts if c is not None)


def ods_bytes():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.spreadsheet")
        z.writestr("content.xml", "<office:document-content/>")
    return out.getvalue()


@translation.override("en")
def test_an_ods_or_xls_upload_is_named_with_the_way_to_xlsx(db):
    ods = ods_bytes()
    assert xlsx.upload_format(ods) == "ods"
    assert xlsx.upload_format(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100) == "xls"
    good = BytesIO()
    Workbook().save(good)
    assert xlsx.upload_format(good.getvalue()) == "xlsx"
    assert xlsx.upload_format(b"name,team\n") is None
    problem = read_entry_sheet(ods)
    assert ".ods" in problem.message and ".xlsx" in problem.message and "damaged" not in problem.message
    _, problems = read_deck(ods)
    assert ".ods" in problems[0].message and "Excel 2007-365 (.xlsx)" in problems[0].message
    _, problems = read_deck(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100)
    assert ".xls" in problems[0].message
