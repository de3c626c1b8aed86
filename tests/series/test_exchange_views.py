"""The organiser's exchange pages: the key file to another laptop, the results file
downloaded, a district's file uploaded, previewed (refusals first) and confirmed."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from series.exchange import signing
from series.models import ImportedFile, QualifiedTeam, Series, SeriesEvent
from tests import factories
from tests.series.exchange_support import district, exported, final, make_series
from tournament.models import Team


@pytest.fixture
def organiser(django_user_model):
    return django_user_model.objects.create_user("organiser")


@pytest.fixture
def series_final(db, organiser, client, settings, tmp_path):
    settings.DATA_DIR = tmp_path
    series = make_series()
    north = district(series, "north", "北部地区", seed=1)
    the_final = final(series)
    for event in (north, the_final):
        event.organisers.add(organiser)
    client.force_login(organiser)
    return series, north, the_final


def upload(name, data):
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def test_preview_then_confirm_imports_the_qualifiers(client, series_final):
    _series, north, the_final = series_final
    url = reverse("series:results_import", args=[the_final.slug])
    assert client.get(url).status_code == 200
    page = client.post(url, {"file": upload("north.karuta", exported(north))})
    text = page.content.decode()
    assert page.status_code == 200
    assert "北部地区" in text and "小学生の部" in text
    assert not Team.objects.filter(division__event=the_final).exists()  # nothing saved by the preview
    sha256, digest = page.context["sha256"], page.context["report"].digest()
    done = client.post(url, {"sha256": sha256, "digest": digest})
    assert done.status_code == 302 and done["Location"] == reverse("tournament:team_list", args=[the_final.slug])
    assert QualifiedTeam.objects.filter(team__division__event=the_final).count() == 4
    listing = client.get(done["Location"]).content.decode()
    assert "北部地区予選 1位" in listing
    team = QualifiedTeam.objects.filter(place=1).first().team
    edit = client.get(reverse("tournament:team_edit", args=[the_final.slug, team.pk])).content.decode()
    assert "北部地区予選 1位" in edit
    again = client.post(url, {"file": upload("north.karuta", exported(north))})
    assert "取り込み済み" in again.content.decode()  # refused, in the site's language
    assert ImportedFile.objects.count() == 1


def test_a_confirm_after_a_change_shows_the_new_preview(client, series_final):
    _series, north, the_final = series_final
    url = reverse("series:results_import", args=[the_final.slug])
    page = client.post(url, {"file": upload("north.karuta", exported(north))})
    champion = page.context["report"].qualifiers[0].team
    factories.make_team(the_final.divisions.get(name="小学生の部"), champion.name)  # registered meanwhile
    again = client.post(url, {"sha256": page.context["sha256"], "digest": page.context["report"].digest()})
    assert again.status_code == 200
    assert again.context["report"].refusals
    assert not QualifiedTeam.objects.exists()


def test_a_changed_file_is_refused_on_the_page(client, series_final):
    _series, north, the_final = series_final
    data = bytearray(exported(north))
    data[-30] ^= 1
    page = client.post(reverse("series:results_import", args=[the_final.slug]), {"file": upload("x", bytes(data))})
    assert page.status_code == 200 and page.context["error"]
    assert not Team.objects.filter(division__event=the_final).exists()


def test_an_unknown_kept_file_says_it_expired(client, series_final):
    _series, _north, the_final = series_final
    url = reverse("series:results_import", args=[the_final.slug])
    assert client.post(url, {"sha256": "0" * 64, "digest": "x"}).status_code == 200
    assert client.post(url, {"sha256": "../../etc", "digest": "x"}).status_code == 404


def test_the_results_file_and_the_key_file_download(client, series_final):
    series, north, _final = series_final
    results = client.get(reverse("series:results_download", args=[north.slug]), {"qualifiers": "3"})
    assert results.status_code == 200
    assert signing.open_signed(results.content).payload["qualifiers_per_division"] == 3
    key = client.get(reverse("series:key_download", args=[north.slug]))
    assert key.status_code == 200 and series.secret.encode() in key.content
    bad = client.get(reverse("series:results_download", args=[north.slug]), {"qualifiers": "0"})
    assert bad.status_code == 302


def test_an_unfinished_event_is_refused_on_the_page(client, series_final, organiser):
    series, _north, _final = series_final
    event = factories.make_event(slug="west")
    event.organisers.add(organiser)
    division = factories.make_division(event, "小学生の部", courts=[1, 2])
    factories.make_teams(division, 4)
    SeriesEvent.objects.create(series=series, event=event, role="qualifier")
    page = client.get(reverse("series:results_download", args=["west"]), follow=True)
    assert "小学生の部" in page.content.decode()


def test_loading_the_key_file_puts_the_event_in_the_series(client, series_final, organiser):
    series, _north, _final = series_final
    key = signing.key_file(series)
    event = factories.make_event(slug="east")
    event.organisers.add(organiser)
    url = reverse("series:exchange", args=["east"])
    answer = client.post(url, {"file": upload("k.karuta-key", key), "role": "qualifier", "district": "東部地区"})
    assert answer.status_code == 302
    member = SeriesEvent.objects.get(event=event)
    assert (member.series, member.district) == (series, "東部地区")
    assert Series.objects.count() == 1
    page = client.post(url, {"file": upload("k", b"nonsense"), "role": "qualifier"})
    assert page.status_code == 200 and page.context["key_form"].errors


def test_the_preview_shows_each_district_division_with_the_finals_division_it_enters(client, db, organiser):
    """Issue 29, item 8: a district division matched by its grade band is shown with the final's
    division before confirming."""
    series = make_series()
    north = district(series, "north", "北部地区", seed=1)
    the_final = final(series, divisions=(("小学生低学年・高学年の部", "小1〜小6"), ("中学生の部", "中1〜中3")))
    for event in (north, the_final):
        event.organisers.add(organiser)
    client.force_login(organiser)
    url = reverse("series:results_import", args=[the_final.slug])
    page = client.post(url, {"file": upload("north.karuta", exported(north))}, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert page.context["report"].division_map() == [
        ("小学生の部", "小学生低学年・高学年の部"),
        ("中学生の部", "中学生の部"),
    ]
    text = page.content.decode()
    assert 'class="table division-map"' in text and "matched by its grade band" in text
    assert not Team.objects.filter(division__event=the_final).exists()
