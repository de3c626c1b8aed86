"""Deeply nested or huge JSON in a results file (header or contents, even correctly signed) or
in a key file is refused with the reason, nothing saved, never a 500 (``RecursionError`` from
``json.loads`` before; ``common.bounded_json``; docs/exchange.md, "Refusals")."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from common import bounded_json as bounded
from common.errors import UserError
from series.exchange import signing
from series.exchange.importer import import_results
from series.models import ImportedFile, Series
from tests.series.exchange_support import district, exported, final, make_series
from tests.series.test_exchange_refusals import saved

DEEP = 10_000


def nested(n):
    return b"[" * n + b"]" * n


def signed_contents(series, contents: bytes) -> bytes:
    """``contents`` as a results file correctly signed with ``series``' secret."""
    file_id = "0" * 32
    header = {
        "format": signing.FORMAT,
        "version": signing.VERSION,
        "series": series.slug,
        "key": signing.key_id(series.secret),
        "file_id": file_id,
        "size": len(contents),
        "signature": signing._mac(series.secret, series.slug, file_id, contents),
    }
    return signing._header_bytes(header) + b"\n" + contents


@pytest.fixture(autouse=True)
def _in_english():
    with translation.override("en"):
        yield


@pytest.fixture
def the_final(db):
    series = make_series()
    return series, final(series)


def refused(event, data, words):
    before = saved()
    with pytest.raises(UserError) as caught:
        import_results(event, data, preview=True)
    with pytest.raises(UserError):
        import_results(event, data)
    assert saved() == before and not ImportedFile.objects.exists()
    assert words in str(caught.value)


def test_a_header_nested_deep_is_not_a_results_file(the_final):
    _series, event = the_final
    refused(event, nested(DEEP) + b"\n{}", "not a results file")
    refused(event, b'{"format":"karuta-results","x":' + nested(DEEP) + b"}\n{}", "not a results file")
    refused(event, b'{"format":"karuta-results","x":"' + b"a" * 10_000 + b'"}\n{}', "not a results file")


@pytest.mark.parametrize(
    "contents",
    [
        nested(DEEP),
        b'{"divisions":' + nested(DEEP) + b"}",
        b'{"divisions":' + nested(40) + b"}",  # parses, but deeper than any results file
        b"[]",
        b'"text"',
    ],
)
def test_signed_contents_nested_deep_or_not_an_object_are_damaged(the_final, contents):
    series, event = the_final
    refused(event, signed_contents(series, contents), "damaged")


def test_a_real_results_file_is_within_the_bounds(the_final):
    series, event = the_final
    data = exported(district(series, "north", "北部地区", seed=1))
    contents = data.partition(b"\n")[2]
    assert bounded.depth(bounded.loads(contents, max_bytes=len(contents), max_depth=99)) <= signing.MAX_CONTENTS_DEPTH
    assert len(import_results(event, data, preview=True).by_division()) > 0


@pytest.mark.parametrize(
    "data",
    [
        nested(DEEP),
        b'{"format":"karuta-series-key","version":1,"x":' + nested(DEEP) + b"}",
        b'{"format":"karuta-series-key","version":1,"x":[[1]]}',
        b'{"format":"karuta-series-key","version":1,"x":"' + b"a" * 64 * 1024 + b'"}',
    ],
)
def test_a_key_file_nested_deep_or_huge_is_not_a_key_file(db, data):
    with pytest.raises(UserError) as caught:
        signing.load_key(data)
    assert "not a series key file" in str(caught.value) and not Series.objects.exists()


def test_the_pages_answer_the_reason_not_a_500(db, client, django_user_model, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    organiser = django_user_model.objects.create_user("organiser")
    series = make_series()
    event = final(series)
    event.organisers.add(organiser)
    client.force_login(organiser)
    deep = SimpleUploadedFile("deep.karuta", signed_contents(series, nested(DEEP)))
    page = client.post(reverse("series:results_import", args=[event.slug]), {"file": deep})
    assert page.status_code == 200 and not ImportedFile.objects.exists()
    key = SimpleUploadedFile("deep.karuta-key", nested(DEEP))
    page = client.post(reverse("series:exchange", args=[event.slug]), {"file": key, "role": "final"})
    assert page.status_code in (200, 302)


def test_the_preview_and_the_exchange_page_show_which_key_signed(db, client, django_user_model, settings, tmp_path):
    """docs/exchange.md, "What the signature proves": a holder of the series' key file."""
    settings.DATA_DIR = tmp_path
    organiser = django_user_model.objects.create_user("organiser")
    series = make_series()
    north, event = district(series, "north", "北部地区", seed=1), final(series)
    event.organisers.add(organiser)
    client.force_login(organiser)
    key = signing.key_id(series.secret)
    data = exported(north)
    page = client.post(
        reverse("series:results_import", args=[event.slug]),
        {"file": SimpleUploadedFile("north.karuta", data)},
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert f"key {key}" in page and "not necessarily by the district the file names" in page
    page = client.get(reverse("series:exchange", args=[event.slug]), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert key in page and "署名した鍵" in page


def _first_division(payload):
    return next(d for d in payload["divisions"] if d["qualifiers"])


def _qualifier_team(payload):
    division = _first_division(payload)
    ref = division["qualifiers"][0]["team"]
    return next(t for t in division["teams"] if t["ref"] == ref)


MALFORMED = {
    "a qualifier not an object": lambda p: _first_division(p)["qualifiers"].__setitem__(0, "x"),
    "a team's ref a list": lambda p: _first_division(p)["teams"][0].__setitem__("ref", [1]),
    "a place's team an object": lambda p: _first_division(p)["places"][0].__setitem__("team", {"a": 1}),
    "a place far too big": lambda p: _first_division(p)["places"][0].__setitem__("place", 10**30),
    "a place of zero": lambda p: _first_division(p)["qualifiers"][0].__setitem__("place", 0),
    "a place true": lambda p: _first_division(p)["qualifiers"][0].__setitem__("place", True),
    "two leaders": lambda p: [pl.__setitem__("leader", True) for pl in _qualifier_team(p)["players"]],
    "a leader who is a substitute": lambda p: _qualifier_team(p)["players"][0].update(leader=True, substitute=True),
    "a leader flag as text": lambda p: _qualifier_team(p)["players"][0].__setitem__("leader", "yes"),
    "a player not an object": lambda p: _qualifier_team(p)["players"].__setitem__(0, 7),
    "an affiliation a number": lambda p: _first_division(p)["teams"][0].__setitem__("affiliation", 3),
}


@pytest.mark.parametrize("change", MALFORMED.values(), ids=MALFORMED.keys())
def test_signed_contents_of_the_wrong_shape_are_damaged_never_a_500(the_final, change):
    series, event = the_final
    payload = json.loads(exported(district(series, "north", "北部地区", seed=1)).partition(b"\n")[2])
    change(payload)
    refused(event, signed_contents(series, signing.canonical(payload)), "damaged")


def test_a_grade_too_long_is_a_refusal_of_the_preview(the_final):
    series, event = the_final
    payload = json.loads(exported(district(series, "north", "北部地区", seed=1)).partition(b"\n")[2])
    _qualifier_team(payload)["players"][0]["grade"] = "小" * 30
    report = import_results(event, signed_contents(series, signing.canonical(payload)), preview=True)
    assert any("grade" in r for r in report.refusals) and not report.imported
