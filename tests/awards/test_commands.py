"""manage.py print_awards and print_award_list (issue 19, "Scripting"): English messages, the
PDF written, the print log recorded like the page (and not when the file cannot be written)."""

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader

from awards.models import PrintLog
from awards.reports import all_certificates, event_awards
from common.pdf import fallback
from common.pdf.fonts import font_is_embedded, japanese_font
from tournament.models import Player


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def pages(path):
    return len(PdfReader(str(path)).pages)


def test_print_awards_writes_every_certificate_and_records_them(played, tmp_path):
    target = tmp_path / "awards.pdf"
    out = run("print_awards", "demo", "-o", str(target))
    count = len(all_certificates(event_awards(played)))
    assert f"demo: {count} certificates written to {target} and recorded as printed." in out
    assert pages(target) == count and PrintLog.objects.count() == count
    with pytest.raises(CommandError, match="no certificate to print"):
        run("print_awards", "demo", "--pending", "-o", str(target))


def test_print_awards_of_one_division_per_team(played, tmp_path):
    target = tmp_path / "one.pdf"
    division = played.divisions.order_by("order").first()
    out = run("print_awards", "demo", "--division", division.name, "--per", "team", "-o", str(target))
    expected = len(event_awards(played, division=division)[0].prizes)
    assert f"{expected} certificates" in out and pages(target) == expected
    assert {log.key.split(":")[0] for log in PrintLog.objects.all()} == {str(division.pk)}
    assert all(log.key.endswith(":t") for log in PrintLog.objects.all())


def test_print_awards_refuses_an_unknown_division_and_an_unwritable_file(played, tmp_path):
    with pytest.raises(CommandError, match="no division '大人の部'"):
        run("print_awards", "demo", "--division", "大人の部", "-o", str(tmp_path / "x.pdf"))
    with pytest.raises(CommandError, match="Cannot write"):
        run("print_awards", "demo", "-o", str(tmp_path / "missing" / "x.pdf"))
    assert not PrintLog.objects.exists()
    with pytest.raises(CommandError, match="No tournament"):
        run("print_awards", "nope", "-o", str(tmp_path / "x.pdf"))


def test_print_awards_says_which_divisions_are_not_finished(db, tmp_path):
    for args in (("load_demo",), ("draw_groups", "demo", "--seed", "1"), ("make_schedule", "demo")):
        run(*args)
    out = io.StringIO()
    with pytest.raises(CommandError, match="demo: no certificate to print"):
        call_command("print_awards", "demo", "-o", str(tmp_path / "x.pdf"), stdout=out)
    assert "小学生低学年の部: not finished (" in out.getvalue() and "without a confirmed result" in out.getvalue()
    assert not (tmp_path / "x.pdf").exists()


def test_the_calibration_page_logs_nothing(played, tmp_path):
    target = tmp_path / "calibration.pdf"
    out = run("print_awards", "demo", "--calibration", "-o", str(target))
    assert "calibration page (A4, portrait)" in out and pages(target) == 1
    assert not PrintLog.objects.exists()


def test_print_award_list_writes_the_mc_list(played, tmp_path):
    target = tmp_path / "mc.pdf"
    out = run("print_award_list", "demo", "-o", str(target))
    assert f"demo: the MC's list written to {target}." in out
    text = "".join(page.extract_text() for page in PdfReader(str(target)).pages)
    assert "小学生低学年の部" in text and "優勝" in text and "第3位" in text


def test_print_awards_names_a_character_no_font_prints(played, tmp_path, monkeypatch):
    """Issue 19 fix, finding 1: the command says it before printing, as the desk does."""
    monkeypatch.setenv(fallback.ENV_VAR, "")
    fallback.reset_fallback_cache()
    japanese_font()
    if not font_is_embedded():
        pytest.skip("needs the TrueType font")
    cert = next(c for c in all_certificates(event_awards(played)) if c.member is not None)
    Player.objects.filter(pk=cert.member.pk).update(name="𠮷田 花子")
    err = io.StringIO()
    call_command("print_awards", "demo", "-o", str(tmp_path / "a.pdf"), stdout=io.StringIO(), stderr=err)
    fallback.reset_fallback_cache()
    assert "𠮷田 花子: 𠮷 (U+20BB7)" in err.getvalue()


def test_print_awards_says_when_no_issuer_is_set(played, tmp_path):
    """Issue 33 item 1: as the desk warns, the command says the paper names no organiser."""
    err = io.StringIO()
    call_command("print_awards", "demo", "-o", str(tmp_path / "a.pdf"), stdout=io.StringIO(), stderr=err)
    assert "no issuer (授与者) is set" in err.getvalue()
