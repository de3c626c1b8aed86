"""Acceptance findings on issue 20 (brief fix20), item 7: the key file, the results file and the
club links' PDF are written 0600 whatever the umask."""

import os
import stat

import pytest

from club_entry.services import create_link
from common.private_files import write_private
from tests.series.exchange_support import district, make_series, run


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def open_umask():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_write_private_replaces_a_world_readable_file(tmp_path, open_umask):
    path = tmp_path / "old.karuta"
    path.write_bytes(b"x" * 10)
    path.chmod(0o644)
    write_private(path, b"secret")
    assert path.read_bytes() == b"secret"
    assert mode(path) == 0o600


@pytest.mark.django_db
def test_key_and_results_files_are_the_owners_only(tmp_path, open_umask):
    series = make_series()
    north = district(series, "north", "北部地区")
    key, results = tmp_path / "s.karuta-key", tmp_path / "north.karuta"
    run("series_key", series.slug, "-o", str(key))
    run("export_results", north.slug, "-o", str(results))
    assert mode(key) == 0o600
    assert mode(results) == 0o600


@pytest.mark.django_db
def test_club_links_pdf_is_the_owners_only(tmp_path, open_umask):
    series = make_series()
    north = district(series, "north", "北部地区")
    create_link(north, "桜が丘子ども会")
    pdf = tmp_path / "links.pdf"
    run("club_links", north.slug, "-o", str(pdf))
    assert mode(pdf) == 0o600


def test_a_device_keeps_its_mode():
    before = mode(os.devnull)
    write_private(os.devnull, b"nothing")
    assert mode(os.devnull) == before
