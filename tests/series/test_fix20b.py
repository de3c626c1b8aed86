"""Holes a re-check of the results exchange found (issue 20, brief fix20b): damaged text in a
file (item 1), a key file's fields checked as the series form checks them and a bad stored points
table never a 500 (2), the key load in one transaction (3), dates in JST (4), kept uploads deleted
(5), an unfinished division said so (6), the database and backups 0600 (7), plurals and the
workbook's rank as a number (8)."""

import datetime
import io
import json
import os
import re
import sqlite3
import stat
from types import SimpleNamespace

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db.backends.signals import connection_created
from django.urls import reverse
from django.utils import timezone, translation

from common import private_files
from common.errors import UserError
from ops import backups
from series.exchange import signing
from series.exchange.export import qualifier_counts
from series.exchange.importer import import_results
from series.models import ImportedFile, Series, SeriesEvent
from series.views import exchange as exchange_views
from tests import factories
from tests.series.exchange_support import district, exported, final, make_series, run
from tests.series.test_exchange_bounds import signed_contents


@pytest.fixture(autouse=True)
def _in_english():
    with translation.override("en"):
        yield


@pytest.fixture
def day(db, client, django_user_model, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    series = make_series()
    north, the_final = district(series, "north", "北部地区", seed=1), final(series)
    user = django_user_model.objects.create_user("organiser")
    for event in (north, the_final):
        event.organisers.add(user)
    client.force_login(user)
    return series, north, the_final, user


def upload(data, name="north.karuta"):
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def with_team_name(series, data: bytes, name: str) -> bytes:
    """``data`` (a results file) with its first team renamed to ``name`` (JSON escapes kept, so
    a lone surrogate can be written), signed again with the series' secret."""
    payload = json.loads(data.partition(b"\n")[2])
    payload["divisions"][0]["teams"][0]["name"] = name
    return signed_contents(series, json.dumps(payload, sort_keys=True, ensure_ascii=True).encode("ascii"))


def key_of(series, **changes) -> bytes:
    key = json.loads(signing.key_file(series))
    key.update(changes)
    return json.dumps(key, ensure_ascii=True).encode("ascii")


# --- item 1: damaged text -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["\ud800bad", "bell\x07", "x" * 5000])
def test_a_team_name_with_a_surrogate_a_control_character_or_too_long_is_damaged(day, client, name):
    series, north, the_final, _user = day
    data = with_team_name(series, exported(north), name)
    with pytest.raises(UserError, match=r"damaged \(divisions/0/teams/0/name\)"):
        import_results(the_final, data, preview=True)
    page = client.post(reverse("series:results_import", args=[the_final.slug]), {"file": upload(data)})
    assert page.status_code == 200 and "divisions/0/teams/0/name" in page.context["error"]
    path = exchange_views._kept_dir()
    assert not list(path.glob("*.karuta"))
    file = path / "bad.karuta"
    file.write_bytes(data)
    with pytest.raises(CommandError, match="damaged"):
        call_command("import_results", the_final.slug, str(file), "--dry-run", stdout=io.StringIO())


def test_a_key_file_with_a_surrogate_in_its_name_is_damaged(day, client):
    series, _north, _final, user = day
    data = key_of(series, slug="other", name="\udc00名前")
    with pytest.raises(UserError, match=r"key file is damaged \(name\)"):
        signing.load_key(data)
    event = factories.make_event(slug="east")
    event.organisers.add(user)
    page = client.post(reverse("series:exchange", args=["east"]), {"file": upload(data, "k"), "role": "qualifier"})
    assert page.status_code == 200 and "壊れています（name）" in str(page.context["key_form"].errors)
    assert Series.objects.count() == 1


# --- item 2: every field of a key file; a bad stored table -----------------------------------


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"points_table": "a,b,c"}, "entry 1 「a」 is not a whole number"),
        ({"points_table": "1,5"}, "more than the place above it"),
        ({"points_table": 7}, "no points table"),
        ({"name": "   "}, "no name"),
        ({"slug": "new"}, "short name"),
    ],
)
def test_every_field_of_a_key_file_is_checked_as_the_series_form_does(day, changes, words):
    series, *_rest = day
    data = key_of(series, **{"slug": "district-copy", **changes})
    with pytest.raises(UserError, match=words):
        signing.load_key(data)
    assert Series.objects.count() == 1


def test_a_bad_stored_points_table_never_gives_a_500(day, client):
    series, *_rest = day
    Series.objects.filter(pk=series.pk).update(points_table="a,b,c")
    edit = reverse("series:series_edit", args=[series.slug])
    series.organisers.add(day[3])
    for name in ("series_detail", "series_xlsx", "series_pdf"):
        answer = client.get(reverse(f"series:{name}", args=[series.slug]))
        assert answer.status_code == 302 and answer["Location"] == edit
    page = client.get(edit)
    assert page.status_code == 200 and "「a,b,c」が正しくありません" in page.content.decode()
    with pytest.raises(CommandError, match="not valid"):
        call_command("series_standings", series.slug, stdout=io.StringIO())


# --- item 3: one transaction, refusals before any write ----------------------------------------


def test_a_refused_key_load_saves_no_series(day, client):
    series, north, _final, user = day
    other = Series(slug="other-2027", name="別のシリーズ", season=2027)
    data = signing.key_file(other)  # a series this laptop does not have; north is in another
    with pytest.raises(UserError, match="already in the series"):
        signing.load_key(data, north, "qualifier", "北部")
    assert not Series.objects.filter(slug="other-2027").exists()
    page = client.post(reverse("series:exchange", args=[north.slug]), {"file": upload(data, "k"), "role": "qualifier"})
    assert page.status_code == 200 and not Series.objects.filter(slug="other-2027").exists()
    with pytest.raises(CommandError, match="already in the series"):
        call_command("load_series_key", _write(data), "--event", north.slug, stdout=io.StringIO())
    assert not Series.objects.filter(slug="other-2027").exists()


def _write(data):
    path = exchange_views._kept_dir() / "key.karuta-key"
    path.write_bytes(data)
    return str(path)


def test_the_same_secret_under_another_short_name_is_refused(day):
    series, *_rest = day
    with pytest.raises(UserError, match="same key under another short name"):
        signing.load_key(key_of(series, slug="renamed"))
    assert list(Series.objects.values_list("slug", flat=True)) == [series.slug]


# --- item 4: JST ----------------------------------------------------------------------------


def test_an_import_before_says_the_day_in_japan(day):
    _series, north, the_final, _user = day
    data = exported(north)
    import_results(the_final, data)
    moment = datetime.datetime(2026, 12, 1, 15, 14, tzinfo=datetime.UTC)  # 00:14 JST on 2 December
    ImportedFile.objects.update(imported_at=moment)
    with pytest.raises(UserError, match="already imported on 2026-12-02"):
        import_results(the_final, data, preview=True)


# --- item 5: kept uploads ---------------------------------------------------------------------


def test_kept_uploads_are_deleted_when_refused_confirmed_or_expired(day, client):
    _series, north, the_final, _user = day
    url = reverse("series:results_import", args=[the_final.slug])
    kept = exchange_views._kept_dir()
    old = kept / ("0" * 64 + ".karuta")
    old.write_bytes(b"a child's name")
    past = timezone.now().timestamp() - (exchange_views.KEPT_HOURS * 3600 + 60)
    os.utime(old, (past, past))
    page = client.post(url, {"file": upload(exported(north))})
    assert not old.exists()  # swept on the upload
    sha256 = page.context["sha256"]
    assert (kept / f"{sha256}.karuta").exists()
    assert "最長24時間" in page.content.decode()
    done = client.post(url, {"sha256": sha256, "digest": page.context["report"].digest()})
    assert done.status_code == 302 and not list(kept.glob("*.karuta"))
    again = client.post(url, {"file": upload(exported(north))})  # refused as a whole: not kept
    assert again.context["error"] and not list(kept.glob("*.karuta"))


def test_a_preview_with_refusals_keeps_nothing_and_a_refused_confirm_deletes(day, client):
    _series, north, the_final, _user = day
    url = reverse("series:results_import", args=[the_final.slug])
    kept = exchange_views._kept_dir()
    data = exported(north)
    page = client.post(url, {"file": upload(data)})
    sha256, digest = page.context["sha256"], page.context["report"].digest()
    import_results(the_final, data)  # imported meanwhile (another page): the confirm is refused
    client.post(url, {"sha256": sha256, "digest": digest})
    assert not list(kept.glob("*.karuta"))
    for division in the_final.divisions.all():
        factories.make_teams(division, 4, prefix=f"決{division.order}")
    run("draw_groups", the_final.slug, "--seed", "3")
    run("make_schedule", the_final.slug)
    south = district(day[0], "south", "南部地区", seed=2)
    page = client.post(url, {"file": upload(exported(south))})
    assert page.context["report"].refusals and page.context["sha256"] is None
    assert not list(kept.glob("*.karuta"))


# --- item 6: unfinished --------------------------------------------------------------------------


def test_a_division_scheduled_but_not_played_is_not_finished(db):
    series = make_series()
    event = factories.make_event(courts=2, slug="west")
    division = factories.make_division(event, courts=[1, 2], qualifiers_per_group=2)
    factories.make_teams(division, 4)
    SeriesEvent.objects.create(series=series, event=event, role=SeriesEvent.Role.QUALIFIER, district="西部")
    run("draw_groups", "west", "--seed", "1")
    run("make_schedule", "west")
    (count,) = qualifier_counts(event, 2)
    assert re.search(r"not finished \(\d+ games without a confirmed result\)", count.sentence())
    assert "decide only" not in count.sentence()


# --- item 7: file modes -------------------------------------------------------------------------


def mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.django_db(transaction=True)
def test_backups_are_the_owners_only(tmp_path):
    old = os.umask(0o022)
    try:
        path = backups.create_backup(tmp_path / "copy.sqlite3")
    finally:
        os.umask(old)
    assert mode(path) == 0o600


def test_the_database_file_is_made_the_owners_only(tmp_path):
    path = tmp_path / "karuta.sqlite3"
    sqlite3.connect(path).close()
    os.chmod(path, 0o644)
    assert private_files.make_private_files(path) == [path]
    assert mode(path) == 0o600 and private_files.make_private_files(path) == []
    os.chmod(path, 0o644)
    connection = SimpleNamespace(vendor="sqlite", is_in_memory_db=lambda: False, settings_dict={"NAME": path})
    connection_created.send(sender=None, connection=connection)  # common.apps connects the hook
    assert mode(path) == 0o600


# --- item 8: cosmetics ------------------------------------------------------------------------------


def test_one_group_and_one_game_are_singular(db):
    event = factories.make_event(courts=1, slug="tiny")
    factories.make_teams(factories.make_division(event, courts=[1]), 2)
    assert "小学生の部: 1 group." in run("draw_groups", "tiny", "--seed", "1")
    assert "tiny: 1 game scheduled;" in run("make_schedule", "tiny")
