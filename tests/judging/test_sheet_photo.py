"""A photo of the paper sheet (issue 16, item 5): taken on the tablet, kept with the version,
downscaled on the server, image types only, a size limit; shown only to the event's recorders
and organisers. A refused photo says why and the result stays saved."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from common import images
from judging import services, signoff
from judging.engine import rules
from judging.models import HistoryEntry, RecordingSheet
from tournament.models import Match

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)


def jpeg(width=3000, height=2000, fmt="JPEG"):
    out = io.BytesIO()
    Image.new("RGB", (width, height), (200, 180, 150)).save(out, fmt)
    return out.getvalue()


@pytest.fixture
def match(day):
    return Match.objects.filter(event=day).select_related("event", "court").order_by("match_number").first()


@pytest.fixture
def sheet(match):
    return services.submit_sheet(match, A_WINS, base_version=0, court=match.court)[0]


def photo_url(match, version=1):
    return reverse("judging:court_photo", args=[match.court.token, match.match_number, version])


def view_url(match, version=1):
    return reverse("judging:sheet_photo", args=[match.event.slug, match.match_number, version])


def post_photo(client, match, data, name="sheet.jpg", content_type="image/jpeg"):
    return client.post(photo_url(match), {"photo": SimpleUploadedFile(name, data, content_type)}, follow=True)


def test_a_photo_is_downscaled_to_a_jpeg_and_kept_with_the_version(client, match, sheet, settings):
    response = post_photo(client, match, jpeg(4000, 3000))
    assert response.status_code == 200
    sheet.refresh_from_db()
    path = signoff.photo_path(sheet)
    assert sheet.photo and path.is_file() and str(path).startswith(str(settings.DATA_DIR))
    with Image.open(path) as kept:
        assert kept.format == "JPEG" and kept.size == (1600, 1200)
    assert match.history.filter(action=HistoryEntry.Action.PHOTO, sheet=sheet).exists()
    assert "photo_limit_mb" in response.context


def test_a_png_is_accepted_and_a_small_photo_is_not_enlarged(sheet):
    signoff.attach_photo(sheet, SimpleUploadedFile("s.png", jpeg(800, 600, "PNG"), "image/png"))
    with Image.open(signoff.photo_path(RecordingSheet.objects.get(pk=sheet.pk))) as kept:
        assert kept.format == "JPEG" and kept.size == (800, 600)


def test_a_second_photo_replaces_the_first(sheet):
    signoff.attach_photo(sheet, SimpleUploadedFile("a.jpg", jpeg(100, 100), "image/jpeg"))
    first = signoff.photo_path(RecordingSheet.objects.get(pk=sheet.pk))
    signoff.attach_photo(sheet, SimpleUploadedFile("b.jpg", jpeg(120, 100), "image/jpeg"))
    second = signoff.photo_path(RecordingSheet.objects.get(pk=sheet.pk))
    assert second.is_file() and not first.exists()


@pytest.mark.parametrize(
    ("data", "name", "words"),
    [
        (b"%PDF-1.4 not a photo at all", "sheet.jpg", "写真ではありません"),
        (jpeg(400, 300)[:300], "sheet.jpg", "読み込めません"),  # cut off: damaged
        (b"", "sheet.jpg", "空です"),
    ],
)
def test_a_file_that_is_not_a_usable_image_is_refused_and_the_result_stays_saved(
    client, match, sheet, data, name, words
):
    response = post_photo(client, match, data, name=name)
    assert response.status_code == 200
    texts = [str(m) for m in response.context["messages"]]
    assert any(words in t and "結果は保存されています" in t for t in texts), texts
    sheet.refresh_from_db()
    assert not sheet.photo and RecordingSheet.objects.filter(match=match).count() == 1
    assert match.sheets.get(version=1).cards_a == 30


def test_a_photo_over_ten_megabytes_is_refused_and_the_result_stays_saved(client, match, sheet):
    big = jpeg(400, 300) + b"\0" * (10 * 1024 * 1024)  # a real image, padded past the limit
    response = post_photo(client, match, big)
    assert any("大きすぎます" in str(m) and "結果は保存されています" in str(m) for m in response.context["messages"])
    sheet.refresh_from_db()
    assert not sheet.photo and sheet.cards_a == 30


def test_the_limit_is_checked_before_decoding():
    big = SimpleUploadedFile("big.jpg", b"\xff" * (10 * 1024 * 1024 + 1), "image/jpeg")
    with pytest.raises(images.ImageRefused, match="大きすぎます"):
        images.downscaled_jpeg(big)


def test_no_file_is_a_message_not_a_500(client, match, sheet):
    response = client.post(photo_url(match), {}, follow=True)
    assert response.status_code == 200 and len(list(response.context["messages"])) == 1


def test_the_photo_is_shown_to_the_events_recorders_and_organisers_only(
    client, match, sheet, recorder, organiser, django_user_model
):
    signoff.attach_photo(sheet, SimpleUploadedFile("a.jpg", jpeg(300, 200), "image/jpeg"))
    url = view_url(match)
    anonymous = client.get(url)
    assert anonymous.status_code == 302 and "/login/" in anonymous.url
    for user in (recorder, organiser):
        client.force_login(user)
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
        assert "no-store" in response["Cache-Control"]
        assert b"".join(response.streaming_content)[:2] == b"\xff\xd8"
    stranger = django_user_model.objects.create_user("other-organiser")
    other = type(match.event).objects.create(slug="other", name="別の大会", date=match.event.date)
    other.organisers.add(stranger)
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.get(reverse("judging:sheet_photo", args=["other", match.match_number, 1])).status_code == 404
    client.force_login(recorder)
    assert client.get(view_url(match, version=9)).status_code == 404


def test_the_desk_shows_the_photo(client, match, sheet, recorder):
    signoff.attach_photo(sheet, SimpleUploadedFile("a.jpg", jpeg(300, 200), "image/jpeg"))
    client.force_login(recorder)
    page = client.get(reverse("judging:match_detail", args=[match.event.slug, match.match_number])).content.decode()
    assert f'src="{view_url(match)}"' in page
    queue = client.get(reverse("judging:confirm_queue", args=[match.event.slug])).content.decode()
    assert f'href="{view_url(match)}"' in queue


def test_the_saved_page_has_a_camera_input(client, match, sheet):
    page = client.get(reverse("judging:court_saved", args=[match.court.token, match.match_number, 1])).content.decode()
    assert 'capture="environment"' in page and 'accept="image/*"' in page and 'enctype="multipart/form-data"' in page
