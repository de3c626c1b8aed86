"""Series keys give import rights only (issue 28, item 4): an organiser whose event joined a
series with its key file (any account on the same installation) sees the ranking and exchanges
results, but never edits the series, takes another event out, or makes a second final."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction

from common.errors import UserError
from series import services
from series.exchange import signing
from series.models import Series, SeriesEvent
from tests import factories

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(client, django_user_model):
    owner = django_user_model.objects.create_user("final-organiser")
    series = services.create_series(owner, "hitachi-2027", "日立市郷土かるた選手権", 2027, "10,7,5")
    final = factories.make_event(slug="final", name="決勝大会")
    final.organisers.add(owner)
    services.add_event(series, final, SeriesEvent.Role.FINAL)
    holder = django_user_model.objects.create_user("key-holder")
    own = factories.make_event(slug="north", name="北部予選")
    own.organisers.add(holder)
    return series, final, own, owner, holder


def join_with_key(client, series, event, role):
    key = SimpleUploadedFile("k.karuta-key", signing.key_file(series))
    return client.post(f"/manage/{event.slug}/exchange/", {"file": key, "role": role, "district": "北部"})


def test_a_key_file_joins_as_a_qualifier_and_gives_no_edit_rights(client, setup):
    series, final, own, _owner, holder = setup
    client.force_login(holder)
    assert join_with_key(client, series, own, "qualifier").status_code == 302
    assert SeriesEvent.objects.get(event=own).series == series
    # The ranking is visible …
    assert client.get(f"/series/{series.slug}/").status_code == 200
    assert client.get(f"/series/{series.slug}/events/").status_code == 200
    # … the settings are not: neither the page nor a POST changing the points.
    assert client.get(f"/series/{series.slug}/edit/").status_code == 403
    response = client.post(
        f"/series/{series.slug}/edit/", {"slug": series.slug, "name": "乗っ取り", "season": 2027, "points_table": "99"}
    )
    assert response.status_code == 403
    series.refresh_from_db()
    assert (series.name, series.points_table) == ("日立市郷土かるた選手権", "10,7,5")


def test_the_key_holder_cannot_remove_the_final_or_add_events(client, setup):
    series, final, own, _owner, holder = setup
    client.force_login(holder)
    join_with_key(client, series, own, "qualifier")
    final_member = SeriesEvent.objects.get(event=final)
    client.post(f"/series/{series.slug}/events/", {"remove": final_member.pk})
    assert SeriesEvent.objects.filter(pk=final_member.pk, role="final").exists()
    other = factories.make_event(slug="south", name="南部予選")
    other.organisers.add(holder)
    response = client.post(f"/series/{series.slug}/events/", {"event": other.pk, "role": "qualifier", "district": ""})
    assert response.status_code == 403
    assert not SeriesEvent.objects.filter(event=other).exists()
    page = client.get(f"/series/{series.slug}/events/").content.decode()
    assert f'value="{final_member.pk}"' not in page
    # Their own event they may take out again.
    mine = SeriesEvent.objects.get(event=own)
    assert f'value="{mine.pk}"' in page
    client.post(f"/series/{series.slug}/events/", {"remove": mine.pk})
    assert not SeriesEvent.objects.filter(pk=mine.pk).exists()


def test_a_key_file_cannot_make_a_second_final(client, setup):
    series, final, own, _owner, holder = setup
    client.force_login(holder)
    response = join_with_key(client, series, own, "final")
    assert response.status_code == 200
    assert "final" in str(response.context["key_form"].errors) or "決勝" in str(response.context["key_form"].errors)
    assert not SeriesEvent.objects.filter(event=own).exists()
    assert SeriesEvent.objects.filter(series=series, role="final").count() == 1


def test_the_series_owner_edits_and_is_refused_a_second_final(client, setup):
    series, final, _own, owner, _holder = setup
    client.force_login(owner)
    assert client.get(f"/series/{series.slug}/edit/").status_code == 200
    second = factories.make_event(slug="final-2", name="第二決勝")
    second.organisers.add(owner)
    response = client.post(f"/series/{series.slug}/events/", {"event": second.pk, "role": "final", "district": ""})
    assert response.status_code == 200
    assert not SeriesEvent.objects.filter(event=second).exists()
    with pytest.raises(UserError):
        services.add_event(series, second, SeriesEvent.Role.FINAL)
    # The final itself may change its district through the key form (same event: not a second final).
    signing.join_series(final, series, SeriesEvent.Role.FINAL, "中央")
    assert SeriesEvent.objects.get(event=final).district == "中央"


def test_the_database_holds_one_final_per_series(setup):
    series, _final, own, _owner, _holder = setup
    with pytest.raises(IntegrityError), transaction.atomic():
        SeriesEvent.objects.create(series=series, event=own, role=SeriesEvent.Role.FINAL)
    other = Series.objects.create(slug="other", name="別", season=2027)
    SeriesEvent.objects.create(series=other, event=own, role=SeriesEvent.Role.FINAL)  # another series: fine
