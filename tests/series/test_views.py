"""The series pages (organisers), the clubs page and the public archive of editions."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db import transaction
from django.urls import reverse

from series import services
from series.archive import edition_places
from series.models import Club, ImportedPlacing, Series, SeriesEvent
from tests import factories
from tournament.models import Player
from tournament.services import versions


@pytest.fixture
def organiser(two_events):
    user = get_user_model().objects.create_user("organiser")
    for event in two_events:
        event.organisers.add(user)
    return user


def test_an_organiser_creates_a_series_and_a_bad_points_table_is_named_and_kept(client, organiser):
    client.force_login(organiser)
    url = reverse("series:series_list")
    data = {"slug": "s2027", "name": "日立シリーズ", "season": "2027", "points_table": "10,7,x"}
    page = client.post(url, data)
    assert page.status_code == 200
    html = page.content.decode()
    assert "3番目の「x」が0以上の整数ではありません" in html
    assert 'value="日立シリーズ"' in html  # nothing typed is lost
    assert not Series.objects.exists()
    data["points_table"] = "１０，７，５"
    response = client.post(url, data)
    series = Series.objects.get(slug="s2027")
    assert response.url == reverse("series:series_events", args=["s2027"])
    assert series.points_table == "10,7,5" and organiser in series.organisers.all()
    for reserved in ("new", "clubs"):
        assert client.post(url, {**data, "slug": reserved}).status_code == 200
    assert Series.objects.count() == 1


def test_events_are_added_with_their_role_and_the_ranking_page_explains_each_row(client, organiser, two_events):
    north, final = two_events
    client.force_login(organiser)
    series = services.create_series(organiser, "s", "日立シリーズ", 2027, "10,7,5,3,2,1")
    url = reverse("series:series_events", args=[series.slug])
    assert client.post(url, {"event": north.pk, "role": "qualifier", "district": "北部"}).status_code == 302
    assert client.post(url, {"event": final.pk, "role": "final"}).status_code == 302
    assert SeriesEvent.objects.filter(series=series).count() == 2
    html = client.get(reverse("series:series_detail", args=[series.slug])).content.decode()
    assert "北部予選 準優勝 7 + 決勝大会 優勝 10 = 17" in html
    member = SeriesEvent.objects.get(event=north)
    client.post(url, {"remove": member.pk})
    assert not SeriesEvent.objects.filter(event=north).exists()
    for name, kind in (("series:series_xlsx", "spreadsheetml"), ("series:series_pdf", "pdf")):
        response = client.get(reverse(name, args=[series.slug]))
        assert response.status_code == 200 and kind in response["Content-Type"]
        assert "no-store" in response["Cache-Control"]


def test_an_event_of_another_organiser_cannot_be_added(client, organiser, two_events, django_user_model):
    north, _final = two_events
    stranger = django_user_model.objects.create_user("stranger")
    own = factories.make_event(slug="own")
    own.organisers.add(stranger)
    client.force_login(stranger)
    series = services.create_series(stranger, "mine", "別シリーズ", 2027, "10,7,5")
    page = client.post(reverse("series:series_events", args=[series.slug]), {"event": north.pk, "role": "final"})
    assert page.status_code == 200 and not SeriesEvent.objects.filter(event=north).exists()
    assert client.get(reverse("series:series_detail", args=["mine"])).status_code == 200


def test_the_clubs_page_is_for_superusers_and_staff_only(client, organiser, django_user_model):
    """An organiser of events (here of both) may not merge, split or rename clubs: that changes
    the public archive of every event (docs/rules/series.md, "Who")."""
    url = reverse("series:clubs")
    client.force_login(organiser)
    club = Club.objects.first() or services.merge_spellings("日立市立中小路小学校", "中小路小")
    before = list(Club.objects.values_list("pk", "name"))
    assert client.get(url).status_code == 403
    for data in (
        {"keep": "日立市立中小路小学校", "other": "中小路小"},
        {"split": "中小路小"},
        {"rename": str(club.pk), "name": "乗っ取り"},
    ):
        assert client.post(url, data).status_code == 403
    assert list(Club.objects.values_list("pk", "name")) == before
    assert 'href="/series/clubs/"' not in client.get(reverse("series:series_list")).content.decode()
    allowed = [
        django_user_model.objects.create_user("staff", is_staff=True),
        django_user_model.objects.create_superuser("root", password="x" * 12),
        django_user_model.objects.create_user("clerk"),
    ]
    allowed[2].user_permissions.add(Permission.objects.get(codename="change_club", content_type__app_label="series"))
    for user in allowed:
        client.force_login(user)
        assert client.get(url).status_code == 200
        assert 'href="/series/clubs/"' in client.get(reverse("series:series_list")).content.decode()


def test_the_clubs_page_merges_two_spellings_and_splits_one_off(client, organiser):
    organiser.is_staff = True
    organiser.save()
    client.force_login(organiser)
    url = reverse("series:clubs")
    html = client.get(url).content.decode()
    assert "中小路小" in html and "日立市立中小路小学校" in html
    response = client.post(url, {"keep": "日立市立中小路小学校", "other": "中小路小"})
    assert response.status_code == 302
    html = client.get(url).content.decode()
    assert "切り離す" in html
    again = client.post(url, {"keep": "日立市立中小路小学校", "other": "中小路小"}, follow=True)
    assert "すでに同じクラブです" in again.content.decode()
    client.post(url, {"split": "中小路小"})
    assert "切り離す" not in client.get(url).content.decode()


def test_the_archive_lists_editions_and_placings_and_never_a_players_name(client, two_events):
    north, final = two_events
    series = services.create_series(None, "s", "日立シリーズ", 2027, "10,7,5")
    imported = ImportedPlacing.objects.create(
        series=series,
        source_key="x:1",
        source="第3回 南部地区予選",
        division="小学生の部",
        place=1,
        team="宮田A",
        club="宮田子ども会",
    )
    names = list(Player.objects.values_list("name", flat=True))
    assert names
    assert "過去の大会" in client.get(reverse("tournament:public_home")).content.decode()
    pages = {
        "index": reverse("series:archive"),
        "north": reverse("series:archive_edition", args=[2027, north.slug]),
        "final": reverse("series:archive_edition", args=[2027, final.slug]),
        "imported": reverse("series:archive_imported", args=[imported.pk]),
        "clubs": reverse("series:archive_clubs"),
    }
    html = {}
    for key, url in pages.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.has_header("ETag") and "no-cache" in response["Cache-Control"]
        html[key] = response.content.decode()
        assert not [n for n in names if n in html[key]], f"a player's name on {url}"
    assert "第3回北部地区予選" in html["index"] or "第3回 北部地区予選" in html["index"]
    assert "第3回 南部地区予選" in html["index"]
    assert "優勝" in html["final"] and "大みかA" in html["final"]
    assert "宮田A" in html["imported"]
    assert "2027" in html["clubs"] and "中小路B" in html["clubs"]
    assert client.get(reverse("series:archive_edition", args=[2026, north.slug])).status_code == 404


def test_merged_spellings_are_one_club_in_the_archive(client, two_events):
    services.merge_spellings("日立市立中小路小学校", "中小路小")
    html = client.get(reverse("series:archive_clubs")).content.decode()
    block = html.split("<h2>日立市立中小路小学校</h2>")[1].split("</div>")[0]
    assert "中小路A" in block and "中小路B" in block
    assert "<h2>中小路小</h2>" not in html


def test_the_archive_index_is_a_few_queries(client, two_events, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        assert client.get(reverse("series:archive")).status_code == 200


def test_an_editions_places_are_kept_per_version_and_a_renamed_division_shows(
    two_events, django_assert_max_num_queries
):
    _north, final = two_events
    assert edition_places(final)[0][0] == "小学生の部"
    with django_assert_max_num_queries(8):  # the version's aggregates only: the places are kept
        edition_places(final)
    division = final.divisions.get()
    with transaction.atomic():
        versions.claim(division, division.version)
        division.name = "小学生の部（団体）"
        division.save()
    assert edition_places(final)[0][0] == "小学生の部（団体）"


def test_the_points_table_is_edited_on_the_settings_page_and_a_bad_one_named_on_its_field(client, organiser):
    series = services.create_series(organiser, "s", "日立シリーズ", 2027, "10,7,5")
    client.force_login(organiser)
    url = reverse("series:series_edit", args=[series.slug])
    page = client.post(url, {"name": "日立シリーズ", "season": "2027", "points_table": "5,7"})
    assert "2番目の「7」が一つ上の順位より多くなっています" in page.content.decode()
    series.refresh_from_db()
    assert series.points_table == "10,7,5"
    assert (
        client.post(url, {"name": "日立シリーズ", "season": "2027", "points_table": "12, 8, 6, 4"}).status_code == 302
    )
    series.refresh_from_db()
    assert series.points_table == "12,8,6,4"
