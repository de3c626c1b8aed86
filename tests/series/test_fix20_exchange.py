"""Acceptance findings on issue 20 (brief fix20) in the results exchange: a final already drawn
(item 1), fewer qualifiers than asked said per division (item 2), the confirm after the final
changed (item 6), refusals said once, places as 「1位」, the loaded district shown (item 8)."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from common.errors import UserError
from series.exchange.export import export_results, qualifier_counts
from series.exchange.importer import import_results
from series.models import QualifiedTeam, SeriesEvent
from tests import factories
from tests.series.exchange_support import district, exported, final, make_series, run
from tournament.models import Team


@pytest.fixture
def day(db):
    series = make_series()
    return series, district(series, "north", "北部地区", seed=1), final(series)


def upload(data):
    return SimpleUploadedFile("north.karuta", data, content_type="application/octet-stream")


@pytest.fixture
def organiser(client, django_user_model, day, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    user = django_user_model.objects.create_user("organiser")
    for event in day[1:]:
        event.organisers.add(user)
    client.force_login(user)
    return user


def draw_final(the_final):
    for division in the_final.divisions.all():
        factories.make_teams(division, 4, prefix=f"決{division.order}")
    run("draw_groups", the_final.slug, "--seed", "3")


def test_a_drawn_final_warns_and_says_what_to_do(day):
    _series, north, the_final = day
    draw_final(the_final)
    with translation.override("en"):
        report = import_results(the_final, exported(north), preview=True)
    assert report.ok
    assert any("already drawn" in w and "小学生の部" in w and "draw" in w for w in report.warnings)


def test_a_final_with_its_schedule_refuses_and_the_export_names_teams_in_no_group(day):
    _series, north, the_final = day
    draw_final(the_final)
    run("make_schedule", the_final.slug)
    with translation.override("en"):
        report = import_results(the_final, exported(north))
    assert not report.imported and any("already has its schedule" in r for r in report.refusals)
    assert not QualifiedTeam.objects.exists()
    assert Team.objects.filter(division__event=the_final, group=None).count() == 0
    # A team left in no group beside the drawn groups: the final's export refuses, naming it.
    SeriesEvent.objects.filter(event=the_final).update(role=SeriesEvent.Role.QUALIFIER)
    factories.make_team(the_final.divisions.first(), "取り残し")
    with pytest.raises(UserError, match="取り残し"):
        export_results(the_final)


def test_a_single_group_division_says_why_it_sends_fewer(db, tmp_path):
    series = make_series()
    event = factories.make_event(courts=1, slug="small", date=datetime.date(2027, 1, 10))
    division = factories.make_division(event, "小学生の部", courts=[1], qualifiers_per_group=1)
    factories.make_teams(division, 3)
    SeriesEvent.objects.create(series=series, event=event, role=SeriesEvent.Role.QUALIFIER, district="西部地区")
    run("draw_groups", "small", "--seed", "1")
    run("make_schedule", "small")
    run("simulate_results", "small", "--seed", "1")
    with translation.override("en"):
        (count,) = qualifier_counts(event, 2)
        assert (count.asked, count.sent) == (2, 1)
        assert "champion" in count.reason
        out = run("export_results", "small", "-o", str(tmp_path / "small.karuta"))
    assert "1 of 2" in out and "champion" in out


def test_the_page_says_who_qualifies(client, organiser, day):
    _series, north, _final = day
    page = client.get(reverse("series:exchange", args=[north.slug]), {"qualifiers": "5"})
    text = page.content.decode()
    assert 'id="qualifier-counts"' in text
    assert "5位までのうち3チーム" in text


def test_a_confirm_after_the_final_changed_shows_the_new_preview(client, organiser, day):
    _series, north, the_final = day
    url = reverse("series:results_import", args=[the_final.slug])
    page = client.post(url, {"file": upload(exported(north))})
    factories.make_team(the_final.divisions.get(name="中学生の部"), "無関係なチーム")  # no clash, yet a change
    again = client.post(url, {"sha256": page.context["sha256"], "digest": page.context["report"].digest()})
    assert again.status_code == 200 and not QualifiedTeam.objects.exists()
    new = again.context["report"]
    assert new.changed and new.digest() != page.context["report"].digest()
    done = client.post(url, {"sha256": again.context["sha256"], "digest": new.digest()})
    assert done.status_code == 302 and QualifiedTeam.objects.count() == 4


def test_a_refusal_says_nothing_imported_once_and_places_read_1i(client, organiser, day):
    _series, north, the_final = day
    url = reverse("series:results_import", args=[the_final.slug])
    preview = client.post(url, {"file": upload(exported(north))}).content.decode()
    assert "<td>1位</td>" in preview and "小学生の部 1</td>" not in preview
    data = exported(north)
    import_results(the_final, data)
    again = client.post(url, {"file": upload(data)}).content.decode()
    assert again.count("何も取り込んでいません") == 1


def test_the_key_form_shows_the_loaded_district(client, organiser, day):
    _series, north, _final = day
    page = client.get(reverse("series:exchange", args=[north.slug])).content.decode()
    assert 'value="北部地区"' in page
