"""Results files refused with the reason, nothing saved (issue 20 item 1, "Bad input"): a
changed byte, a foreign series, a file cut short, another division layout, a second import;
the dry run saves nothing; the export of an unfinished event or of an event in no series."""

import pytest
from django.core.management.base import CommandError
from django.utils import translation

from common.errors import UserError
from series.exchange import signing
from series.exchange.export import export_results
from series.exchange.importer import import_results
from series.models import ImportedFile, ImportedPlacing, QualifiedTeam, Series, SeriesEvent
from tests import factories
from tests.series.exchange_support import district, exported, final, make_series, run
from tournament.models import Player, Team


@pytest.fixture(autouse=True)
def _in_english():
    """The refusals are read in English here (the site's language is Japanese: the messages are
    translated, ``tests/test_translations.py``)."""
    with translation.override("en"):
        yield


def saved():
    return tuple(m.objects.count() for m in (Team, Player, ImportedFile, ImportedPlacing, QualifiedTeam))


@pytest.fixture
def north_file(db):
    series = make_series()
    north = district(series, "north", "北部地区", seed=1)
    return series, north, final(series), exported(north)


def refused(the_final, data, *words):
    before = saved()
    with pytest.raises(UserError) as caught:
        import_results(the_final, data)
    assert saved() == before
    for word in words:
        assert word in str(caught.value)
    return str(caught.value)


def test_a_changed_byte_anywhere_is_refused(north_file):
    _series, _north, the_final, data = north_file
    header_end = data.index(b"\n")
    for at in (5, header_end - 3, header_end + 40, len(data) // 2, len(data) - 2):
        changed = bytearray(data)
        changed[at] ^= 0x01
        refused(the_final, bytes(changed))
    middle = data.index("小学生".encode()) + 1  # a byte inside a name: the signature
    changed = bytearray(data)
    changed[middle] ^= 0x01
    refused(the_final, bytes(changed), "signature")


def test_a_file_cut_short_says_so(north_file):
    _series, _north, the_final, data = north_file
    refused(the_final, data[: len(data) - 100], "cut short")
    refused(the_final, data[:30], "not a results file")
    refused(the_final, b"", "not a results file")
    refused(the_final, data + b"x", "added")


def test_a_file_of_another_series_is_refused(north_file, db):
    series, north, the_final, _data = north_file
    other = Series.objects.create(slug="mito-2027", name="水戸", season=2027)
    SeriesEvent.objects.filter(event=north).update(series=other)
    refused(the_final, exported(north), "not in the series")
    # The same short name, another key: another installation's series.
    data = exported(north)
    other.delete()
    SeriesEvent.objects.create(series=series, event=north, role="qualifier")
    foreign = Series(slug="mito-2027", name="水戸", season=2027)
    foreign.save()
    refused(the_final, data, "another key")


def test_a_series_this_laptop_does_not_have_is_refused(north_file):
    series, _north, the_final, data = north_file
    Series.objects.filter(pk=series.pk).update(slug="renamed")
    refused(the_final, data, "does not have")


def test_another_division_layout_is_refused_naming_the_division(north_file):
    _series, _north, the_final, data = north_file
    the_final.divisions.filter(name="中学生の部").update(name="一般の部", grade_band="一般")
    message = refused(the_final, data, "中学生の部", "一般の部")
    assert "小学生の部" not in message.split("(")[0]


def test_a_division_is_matched_by_its_grade_band_when_renamed(north_file):
    _series, _north, the_final, data = north_file
    the_final.divisions.filter(name="中学生の部").update(name="中学生部門")
    report = import_results(the_final, data)
    assert report.imported
    assert Team.objects.filter(division__name="中学生部門").count() == 2


def test_a_file_imported_twice_is_refused(north_file):
    _series, north, the_final, data = north_file
    assert import_results(the_final, data).imported
    refused(the_final, data, "already imported")
    refused(the_final, exported(north), "already imported")  # another export of the same event


def test_a_team_already_registered_refuses_the_file_and_saves_nothing(north_file):
    _series, north, the_final, data = north_file
    champion = north.matches.get(stage="final", division__name="小学生の部").winner
    factories.make_team(the_final.divisions.get(name="小学生の部"), champion.name)
    before = saved()
    report = import_results(the_final, data)
    assert not report.imported and report.refusals
    assert champion.name in report.refusals[0]
    assert saved() == before


def test_the_dry_run_and_the_preview_save_nothing(north_file, tmp_path):
    _series, _north, the_final, data = north_file
    before = saved()
    path = tmp_path / "north.karuta"
    path.write_bytes(data)
    out = run("import_results", the_final.slug, str(path), "--dry-run")
    assert "would import 4 qualifying teams and 6 places" in out
    preview = import_results(the_final, data, preview=True)
    assert len(preview.qualifiers) == 4 and not preview.imported
    assert saved() == before
    report = import_results(the_final, data)
    assert [(q.final_division, q.team.name) for q in report.qualifiers] == [
        (q.final_division, q.team.name) for q in preview.qualifiers
    ]


def test_the_command_names_the_refusal(north_file, tmp_path):
    _series, _north, the_final, data = north_file
    path = tmp_path / "cut.karuta"
    path.write_bytes(data[:-10])
    with pytest.raises(CommandError, match="cut short"):
        run("import_results", the_final.slug, str(path))


def test_an_unfinished_or_unattached_event_is_not_exported(db):
    series = make_series()
    event = factories.make_event(slug="lonely")
    with pytest.raises(UserError, match="in no series"):
        export_results(event)
    division = factories.make_division(event, "小学生の部", courts=[1, 2])
    factories.make_teams(division, 6)
    SeriesEvent.objects.create(series=series, event=event, role="qualifier")
    run("draw_groups", "lonely", "--seed", "1")
    run("make_schedule", "lonely")
    with pytest.raises(UserError, match="小学生の部"):
        export_results(event)
    run("simulate_results", "lonely", "--seed", "1")
    with pytest.raises(UserError, match="not made yet"):
        export_results(event)
    with pytest.raises(CommandError, match="not every division is finished|Not every division"):
        run("export_results", "lonely", "-o", "/dev/null")


def test_the_key_file_carries_the_series_to_another_laptop(db):
    series = make_series()
    key = signing.key_file(series)
    slug, secret = series.slug, series.secret
    series.delete()  # the district's laptop has no series yet
    loaded, created = signing.load_key(key)
    assert created and (loaded.slug, loaded.secret) == (slug, secret)
    assert signing.load_key(key) == (loaded, False)
    Series.objects.filter(pk=loaded.pk).update(secret="0" * 64)
    with pytest.raises(UserError, match="another key"):
        signing.load_key(key)
    with pytest.raises(UserError, match="not a series key file"):
        signing.load_key(b"garbage")
    with pytest.raises(UserError, match="damaged"):
        signing.load_key(key.replace(secret.encode(), b"1" * 64))


def test_two_divisions_of_the_file_matching_one_of_the_final_are_refused(north_file):
    _series, _north, the_final, data = north_file
    the_final.divisions.filter(name="小学生の部").update(grade_band="中1〜中3")  # 中学生の部 by its band
    the_final.divisions.filter(name="中学生の部").update(name="一般の部", grade_band="一般")
    refused(the_final, data, "both match")
