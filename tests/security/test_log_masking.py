"""Court tokens never reach a log (issue 18, item 4): Django's warnings and gunicorn's access log."""

import datetime
import io
import logging

import pytest
from gunicorn.config import Config

from common.logmask import MaskCourtTokens, mask_court_tokens
from ops.gunicorn_logging import MaskingLogger
from tests import factories

TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz012345"


def test_a_court_path_keeps_only_the_first_characters_of_its_token():
    assert mask_court_tokens(f"GET /court/{TOKEN}/game/3/ HTTP/1.1") == "GET /court/AbCd…/game/3/ HTTP/1.1"
    assert mask_court_tokens("/e/demo/court/12/") == "/e/demo/court/12/"  # a public court page: no token
    assert TOKEN not in mask_court_tokens(f"http://192.168.1.10:8000/court/{TOKEN}")
    assert mask_court_tokens("/e/demo/court/1234567/") == "/e/demo/court/1234567/"  # a long court id too


@pytest.mark.parametrize("area", ["club", "reader"])
def test_club_and_reader_links_are_masked_like_court_links(area):
    assert mask_court_tokens(f"GET /{area}/{TOKEN}/team/3/ HTTP/1.1") == f"GET /{area}/AbCd…/team/3/ HTTP/1.1"
    assert TOKEN not in mask_court_tokens(f"Referer: http://192.168.1.10:8000/{area}/{TOKEN}/")


@pytest.mark.parametrize("path", ["/reader/practice/", "/reader/decks/hitachi/", "/reader/audio/hitachi/card/す/"])
def test_public_reader_pages_stay_whole(path):
    assert mask_court_tokens(path) == path


@pytest.mark.django_db
def test_djangos_not_found_warning_for_a_club_link_is_logged_without_the_token(client):
    handler = next(h for h in logging.getLogger("django").handlers if h.filters)
    stream = handler.setStream(io.StringIO())
    try:
        response = client.get(f"/club/{TOKEN}/")
        assert response.status_code in (404, 410)
        text = handler.stream.getvalue()
    finally:
        handler.setStream(stream)
    assert "/club/AbCd…/" in text and TOKEN not in text


@pytest.mark.django_db
def test_djangos_not_found_warning_for_a_court_link_is_logged_without_the_token(client):
    factories.make_event(courts=1, slug="karuta")
    handler = next(h for h in logging.getLogger("django").handlers if h.filters)
    stream = handler.setStream(io.StringIO())
    try:
        response = client.get(f"/court/{TOKEN}/game/1/")
        assert response.status_code == 404
        text = handler.stream.getvalue()
    finally:
        handler.setStream(stream)
    assert "Not Found: /court/AbCd…/game/1/" in text and TOKEN not in text


def test_a_record_with_arguments_is_masked_once_formatted():
    record = logging.LogRecord("x", logging.WARNING, __file__, 1, "Not Found: %s", (f"/court/{TOKEN}/",), None)
    assert MaskCourtTokens().filter(record) is True
    assert record.getMessage() == "Not Found: /court/AbCd…/"


def test_gunicorns_access_log_line_is_masked():
    class Response:
        status, sent, headers = "200 OK", 10, []

    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/court/{TOKEN}/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "PATH_INFO": f"/court/{TOKEN}/",
        "QUERY_STRING": "",
        "HTTP_REFERER": f"http://192.168.1.10:8000/court/{TOKEN}/game/2/",
        "REMOTE_ADDR": "192.168.1.23",
    }
    atoms = MaskingLogger(Config()).atoms(
        Response(), [("Referer", environ["HTTP_REFERER"])], environ, datetime.timedelta(0)
    )
    assert not [k for k, v in atoms.items() if isinstance(v, str) and TOKEN in v]
    assert atoms["r"] == "GET /court/AbCd…/ HTTP/1.1"
