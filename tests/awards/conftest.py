"""A played tournament for the awards desk: the demo event, drawn, scheduled, every group game
and every knockout game played with random confirmed results (``simulate_results``)."""

import io

import pytest
from django.core.management import call_command

from awards.paper import certificates
from tournament.models import Event


def run(*args):
    call_command(*args, stdout=io.StringIO())


@pytest.fixture
def played(db):
    """The demo event with every game played and confirmed."""
    run("load_demo")
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    run("simulate_results", "demo", "--seed", "3")
    run("seed_knockout", "demo")
    run("simulate_results", "demo", "--stage", "knockout", "--seed", "4")
    return Event.objects.get(slug="demo")


@pytest.fixture
def drawn(monkeypatch):
    """The texts and paper passed to the certificate drawing, recorded (the drawing itself is
    tested with the drawing, ``awards.paper.certificates``): returns the list of calls."""
    calls = []

    def render(texts, paper):
        calls.append((list(texts), paper))
        return b"%PDF-1.4 certificates " + str(len(texts)).encode()

    def calibration(paper):
        calls.append(("calibration", paper))
        return b"%PDF-1.4 calibration"

    monkeypatch.setattr(certificates, "render_certificates", render)
    monkeypatch.setattr(certificates, "render_calibration", calibration)
    return calls
