"""The clubs' links on paper (QR codes decoded with zbarimg) and ``manage.py club_links``."""

import io
import shutil
import subprocess

import pytest
from django.core.management import CommandError, call_command

from club_entry import paper, services
from tests.club_entry.conftest import OTHER

needs_zbar = pytest.mark.skipif(
    not (shutil.which("pdftoppm") and shutil.which("zbarimg")), reason="poppler-utils / zbar-tools not installed"
)


def decode(tmp_path, pdf: bytes) -> list[str]:
    path = tmp_path / "links.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(path), str(tmp_path / "page")], check=True)
    found = []
    for png in sorted(tmp_path.glob("page*.png")):
        out = subprocess.run(["zbarimg", "-q", "--raw", str(png)], capture_output=True, text=True, timeout=60)
        found += out.stdout.split()
    return found


def test_the_command_prints_every_active_link(link, other_link, settings):
    settings.SITE_URL = "http://192.168.1.10:8000"
    services.revoke(other_link)
    out = io.StringIO()
    call_command("club_links", "clubs", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines == [f"{link.club}\thttp://192.168.1.10:8000/club/{link.token}/"]
    with pytest.raises(CommandError, match="nope"):
        call_command("club_links", "nope")


@needs_zbar
def test_the_command_writes_the_qr_codes_that_open_each_link(link, other_link, tmp_path, settings):
    settings.SITE_URL = "http://192.168.1.10:8000"
    target = tmp_path / "out" / "links.pdf"
    target.parent.mkdir()
    call_command("club_links", "clubs", "-o", str(target), stdout=io.StringIO())
    decoded = decode(tmp_path, target.read_bytes())
    assert sorted(decoded) == sorted(f"http://192.168.1.10:8000/club/{x.token}/" for x in (link, other_link))


@needs_zbar
def test_the_organisers_pdf_has_a_card_per_club_over_pages(client, event, django_user_model, tmp_path):
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    links = [services.create_link(event, f"{OTHER}{i}") for i in range(9)]
    answer = client.get(f"/manage/{event.slug}/clubs/links.pdf")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert answer["Cache-Control"] == "no-store"
    decoded = decode(tmp_path, answer.content)
    assert sorted(decoded) == sorted(f"http://testserver/club/{x.token}/" for x in links)


def test_an_empty_pdf_says_there_is_no_link():
    pdf = paper.club_links_pdf("大会", [])
    assert pdf.startswith(b"%PDF")
