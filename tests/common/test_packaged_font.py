"""The PDF font a pip install brings (common/pdf/packaged.py, issue 36) and the switch that
hides the system's fonts (KARUTA_PDF_SYSTEM_FONTS=0). The real instancing (about 20 s) runs in
.ci/package-check; here fontTools' step is replaced by a copy."""

import logging
import os
import shutil
from pathlib import Path

import pytest

from awards.paper import typeset
from common.apps import check_pdf_font
from common.pdf import fallback, fonts, packaged

IPAEX = "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf"


@pytest.fixture(autouse=True)
def _fresh_fonts():
    fallback.reset_fallback_cache()
    yield
    fallback.reset_fallback_cache()
    typeset.reset_face()


@pytest.fixture
def fake_package(tmp_path, monkeypatch):
    """A variable font file standing for the package's, and fontTools' step as a copy."""
    source = tmp_path / "pkg" / "NotoSansJP[wght].ttf"
    source.parent.mkdir()
    source.write_bytes(b"variable")
    made = []

    def copy(src, target):
        made.append(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, target)

    monkeypatch.setattr(packaged, "variable_font", lambda: source)
    monkeypatch.setattr(packaged, "_instantiate", copy)
    return source, made


def test_the_package_ships_a_truetype_noto_sans_jp():
    path = packaged.variable_font()
    if path is None:
        pytest.skip("justmytype-intl-cjk is not installed")
    assert path.name == "NotoSansJP[wght].ttf"
    assert fonts._outline_kind(str(path), 0) == "truetype"  # reportlab can embed it (not CFF)


def test_the_regular_instance_is_made_once_in_the_cache_folder(fake_package, tmp_path):
    _source, made = fake_package
    first = packaged.regular_font(tmp_path / "fonts")
    again = packaged.regular_font(tmp_path / "fonts")
    assert first == again == packaged.instance_path(tmp_path / "fonts")
    assert first.name.startswith("NotoSansJP-400-") and first.is_file()
    assert made == [first]


def test_a_cache_folder_that_cannot_be_written_prints_with_the_variable_font(
    fake_package, tmp_path, caplog, monkeypatch
):
    source, _made = fake_package

    def refuse(src, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(packaged, "_instantiate", refuse)
    with caplog.at_level(logging.WARNING, logger="common.pdf.packaged"):
        assert packaged.regular_font(tmp_path / "fonts") == source
    assert "could not be prepared" in caplog.text and str(tmp_path / "fonts") in caplog.text


def test_without_a_cache_folder_the_variable_font_is_used(fake_package, monkeypatch):
    source, made = fake_package
    monkeypatch.setattr(packaged, "_cache_dir", None)
    assert packaged.regular_font() == source and made == []


def test_without_the_package_there_is_no_packaged_font(monkeypatch, tmp_path):
    monkeypatch.setattr(packaged, "PACKAGE", "no_such_font_package_here")
    assert packaged.variable_font() is None
    assert packaged.regular_font(tmp_path) is None


def test_the_app_keeps_the_instance_in_the_data_folder():
    from config import settings as project

    # common.apps configured it at start-up with the data folder the settings chose.
    assert packaged._cache_dir == Path(project.DATA_DIR) / "fonts"


def test_system_fonts_hidden_leaves_no_system_candidate(monkeypatch):
    monkeypatch.setenv(fonts.SYSTEM_FONTS_ENV_VAR, "0")
    monkeypatch.delenv(fallback.ENV_VAR, raising=False)
    monkeypatch.delenv(typeset.MINCHO_ENV_VAR, raising=False)
    called = []
    monkeypatch.setattr(fonts, "_fc_match_candidates", lambda: called.append(1) or [])
    assert fonts._system_candidates() == [] and called == []
    assert fallback._candidates() == []
    assert typeset._mincho_path() is None
    monkeypatch.setenv(fonts.SYSTEM_FONTS_ENV_VAR, "1")
    assert fonts.KNOWN_FONT_PATHS[0] in fonts._system_candidates()


@pytest.mark.skipif(not os.path.exists(IPAEX), reason="fonts-ipaexfont-gothic not installed")
def test_with_the_system_fonts_hidden_the_packaged_font_is_embedded(monkeypatch):
    monkeypatch.setenv(fonts.SYSTEM_FONTS_ENV_VAR, "0")
    monkeypatch.setattr(fonts, "_packaged_candidates", lambda: [IPAEX])  # a TrueType file as the package's
    assert fonts.japanese_font() == fonts.REGISTERED_NAME
    assert fonts.font_is_embedded() and fonts.font_path() == IPAEX


def test_the_packaged_font_is_not_prepared_when_a_system_font_fits(monkeypatch):
    if not os.path.exists(IPAEX):
        pytest.skip("fonts-ipaexfont-gothic not installed")
    monkeypatch.delenv(fonts.SYSTEM_FONTS_ENV_VAR, raising=False)
    monkeypatch.setattr(fonts, "_packaged_candidates", lambda: pytest.fail("the packaged font was prepared"))
    assert fonts.font_is_embedded()


def test_no_font_at_all_is_one_sentence_naming_what_to_do(monkeypatch, caplog):
    monkeypatch.setenv(fonts.SYSTEM_FONTS_ENV_VAR, "0")
    monkeypatch.setattr(fonts, "_packaged_candidates", lambda: [])
    with caplog.at_level(logging.WARNING, logger="common.pdf.fonts"):
        assert not fonts.font_is_embedded()
    assert fonts.NO_FONT_MESSAGE in caplog.text
    message = fonts.NO_FONT_MESSAGE
    assert "pip install" in message and "KARUTA_PDF_FONT" in message and message.count(". ") == 0
    (warning,) = check_pdf_font()
    assert warning.id == "common.W001" and warning.msg == message
