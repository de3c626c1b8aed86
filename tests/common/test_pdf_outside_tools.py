"""Every PDF kind reads right in outside tools (issue 34 item 4): every font embedded (no
unembedded Helvetica), ``/Lang`` = the session's language, a title in the document info that
the viewer shows, text to extract — checked with pypdf on a played demo day, and with
``pdffonts`` / ``qpdf --check`` when those tools are installed."""

import shutil
import subprocess
from io import BytesIO

import pytest
from django.utils import translation
from pypdf import PdfReader

from awards import printing as award_printing
from awards.ceremony import ceremony_pdf
from awards.models import AwardSettings
from awards.reports import all_certificates, event_awards
from club_entry.paper import LinkCard, club_links_pdf
from dosai import editions
from dosai import paper as dosai_paper
from hanafuda import pdf as hanafuda_pdf
from hanafuda import services as hanafuda_services
from judging.paper.match_sheets import event_sheets_pdf
from tests.awards.conftest import run
from tests.dosai.factories import ready_edition
from tests.hanafuda.helpers import new_session
from tournament import printing
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    """The demo event with every game played and confirmed (as the awards tests build it)."""
    run("load_demo")
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    run("simulate_results", "demo", "--seed", "3")
    run("seed_knockout", "demo")
    run("simulate_results", "demo", "--stage", "knockout", "--seed", "4")
    run("assign_referees", "demo")
    return Event.objects.get(slug="demo")


def every_kind(event, user):
    """(kind, PDF bytes) of every PDF the project makes, in the active language."""
    kinds = [(name, make(event)) for name, make in printing.KINDS.items()]
    kinds.append(("results with names", printing.final_results(event, with_names=True)))
    kinds.append(("touch matrix", printing.touch_matrix()))
    kinds.append(("programme", printing.programme(event, base_url="https://karuta.example")))
    kinds.append(("programme booklet", printing.programme(event, booklet=True)))
    # the staff section (審判・係分担): the demo's referees with their games and its roster
    every_section = list(printing.paper.PROGRAMME_SECTIONS)
    kinds.append(("programme with staff", printing.programme(event, every_section, base_url="https://karuta.example")))
    kinds.append(("programme booklet with staff", printing.programme(event, every_section, booklet=True)))
    kinds.append(
        (
            "recording sheets",
            event_sheets_pdf(event, event.matches.filter(match_number__lte=4), base_url="https://k.example"),
        )
    )
    kinds.append(
        ("recording sheets 2-up", event_sheets_pdf(event, event.matches.filter(match_number__lte=4), per_page=2))
    )
    kinds.append(("MC list", ceremony_pdf(event)))
    settings = AwardSettings.for_event(event)
    kinds.append(("certificates", award_printing.certificates_pdf(all_certificates(event_awards(event))[:2], settings)))
    kinds.append(("certificate calibration", award_printing.calibration_pdf(settings)))
    cards = [LinkCard("多賀子ども会", "山田", "090-0000-0000", "https://karuta.example/c/abc")]
    kinds.append(("club entry links", club_links_pdf(event.name, cards)))
    session = new_session(user)
    kinds.append(("hanafuda score sheet", hanafuda_pdf.score_sheet(hanafuda_services.session_state(session), [])))
    kinds.append(("hanafuda reference card", hanafuda_pdf.reference_card()))
    kinds.append(("dosai points table", dosai_paper.points_table_pdf(editions.edition_status(ready_edition(user)))))
    return kinds


def fonts_of(reader):
    """(name, embedded?) of every font the pages use, descendant fonts included."""
    found = {}
    for page in reader.pages:
        fonts = (page.get("/Resources") or {}).get("/Font") or {}
        for ref in fonts.values():
            font = ref.get_object()
            for f in [font, *[d.get_object() for d in font.get("/DescendantFonts", [])]]:
                desc = f.get("/FontDescriptor")
                embedded = desc is not None and any(
                    k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3")
                )
                if f.get("/Subtype") in ("/Type0",):
                    continue  # its descendant carries the descriptor
                found[str(f.get("/BaseFont"))] = embedded
        # a form XObject (the booklet's imposed pages) has its own resources
        for xobj in ((page.get("/Resources") or {}).get("/XObject") or {}).values():
            res = xobj.get_object().get("/Resources") or {}
            for ref in (res.get("/Font") or {}).values():
                font = ref.get_object()
                desc = font.get("/FontDescriptor")
                if font.get("/Subtype") != "/Type0":
                    found[str(font.get("/BaseFont"))] = desc is not None
    return found


@pytest.mark.parametrize("language", ["ja", "en"])
def test_every_pdf_kind_embeds_its_fonts_declares_its_language_and_has_a_title(played, django_user_model, language):
    user = django_user_model.objects.create_user(f"owner-{language}")
    with translation.override(language):
        kinds = every_kind(played, user)
    assert len(kinds) >= 19
    for kind, data in kinds:
        reader = PdfReader(BytesIO(data))
        catalogue = reader.trailer["/Root"]
        assert str(catalogue.get("/Lang")) == language, kind
        assert reader.metadata is not None and (reader.metadata.title or "").strip(), kind
        prefs = catalogue.get("/ViewerPreferences")
        assert prefs is not None and bool(prefs.get_object().get("/DisplayDocTitle")), kind
        fonts = fonts_of(reader)
        assert fonts and all(fonts.values()), (kind, fonts)
        assert not any("Helvetica" in name for name in fonts), (kind, fonts)
        text = "".join(page.extract_text() or "" for page in reader.pages)
        assert text.strip(), kind


TOOLS = all(shutil.which(t) for t in ("pdffonts", "qpdf", "pdftotext"))


@pytest.mark.skipif(not TOOLS, reason="poppler-utils and qpdf are not installed")
def test_pdffonts_and_qpdf_find_nothing(played, django_user_model, tmp_path):
    user = django_user_model.objects.create_user("owner")
    with translation.override("ja"):
        kinds = every_kind(played, user)
    for i, (kind, data) in enumerate(kinds):
        path = tmp_path / f"{i}.pdf"
        path.write_bytes(data)
        check = subprocess.run(["qpdf", "--check", str(path)], capture_output=True, text=True)
        assert check.returncode == 0, (kind, check.stdout[-300:])
        fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True).stdout.splitlines()[2:]
        assert fonts, kind
        for line in fonts:
            cols = line.split()
            assert cols[-5] == "yes", (kind, line)  # the emb column
        text = subprocess.run(["pdftotext", "-q", str(path), "-"], capture_output=True, text=True).stdout
        assert text.strip(), kind


def test_the_vertical_certificate_extracts_its_columns_in_reading_order():
    """賞状: pdftotext reads each column whole, right to left (the invisible reading layer;
    the visible glyphs are marked with an empty /ActualText)."""
    from awards.paper.certificates import REFERENCE, PaperLayout, render_certificates

    data = render_certificates([REFERENCE], PaperLayout())
    reader = PdfReader(BytesIO(data))
    layer = reader.pages[0].extract_text()
    expected = ["賞状", "準優勝", "小学生高学年の部", "ひたち海浜かるた会", "日立花子", "殿"]
    body = "あなたは第21回ひたち郷土かるた大会小学生高学年の部にお"
    lines = layer.splitlines()
    start = len(lines) - 1 - lines[::-1].index("賞状")  # the reading layer follows the glyphs
    assert lines[start : start + 7] == [*expected, body], lines[start:]
    assert lines[-3:] == ["令和９年１月17日", "ひたち郷土かるた大会実行委員会会長", "日立太郎"], lines[-3:]
    if shutil.which("pdftotext"):
        with BytesIO(data) as f:
            out = subprocess.run(["pdftotext", "-", "-"], input=f.read(), capture_output=True).stdout.decode()
        lines = [line for line in out.splitlines() if line.strip()]
        assert lines[:6] == expected, lines
        assert body in lines and lines.index(body) < lines.index("令和９年１月17日") < lines.index("日立太郎")


@pytest.mark.parametrize("language", ["ja", "en"])
def test_the_series_ranking_pdf_embeds_its_fonts_and_declares_its_language(db, language):
    from series.models import Series, SeriesEvent
    from series.paper import series_pdf
    from series.ranking import series_standings
    from tests.series.support import two_events

    north, final = two_events()
    series = Series.objects.create(slug="s2027", name="日立市かるたシリーズ", season=2027)
    SeriesEvent.objects.create(series=series, event=north, role=SeriesEvent.Role.QUALIFIER, district="北部地区")
    SeriesEvent.objects.create(series=series, event=final, role=SeriesEvent.Role.FINAL)
    with translation.override(language):
        data = series_pdf(series_standings(series))
    reader = PdfReader(BytesIO(data))
    assert str(reader.trailer["/Root"].get("/Lang")) == language
    assert (reader.metadata.title or "").strip()
    fonts = fonts_of(reader)
    assert fonts and all(fonts.values()), fonts
    text = "".join(page.extract_text() or "" for page in reader.pages)
    assert "日立市かるたシリーズ" in text and "大みかA" in text, text[:300]
