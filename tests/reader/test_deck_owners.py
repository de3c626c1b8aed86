"""Who edits a deck (the outside tester's findings, item 4): its maker, the organisers of the
event it was made for, staff and superusers; the shipped ``hitachi`` deck staff only. Every
deck can be opened, downloaded, copied and read by the deck pages' users."""

from io import BytesIO

import pytest
from django.urls import reverse

from reader import access
from reader.models import Card, DeckEdition, Recording
from tests.reader.conftest import wav_bytes
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model):
    """The maker of a club deck (made for event "club"), a co-organiser of that event, and an
    organiser of another event."""
    maker = django_user_model.objects.create_user("maker")
    colleague = django_user_model.objects.create_user("colleague")
    other = django_user_model.objects.create_user("other")
    club = Event.objects.create(slug="club", name="練習会", date="2027-01-17")
    club.organisers.add(maker, colleague)
    Event.objects.create(slug="elsewhere", name="別の大会", date="2027-01-17").organisers.add(other)
    return {"maker": maker, "colleague": colleague, "other": other, "club": club}


def _club_deck(client, people):
    client.force_login(people["maker"])
    answer = client.post(
        reverse("reader:deck_list"), {"name": "練習用", "slug": "practice", "source": "", "event": people["club"].pk}
    )
    assert answer.status_code == 302
    edition = DeckEdition.objects.get(slug="practice")
    assert (edition.owner, edition.event) == (people["maker"], people["club"])
    Card.objects.create(edition=edition, head_kana="あ", text="あさひ", order=1)
    return edition


def _edits(client, edition):
    """The answers of every editing URL of ``edition`` (GET forms and POSTs)."""
    card = edition.cards.first()
    upload = {"key": f"card:{card.head_kana}", "file": _wav()}
    return {
        "card_add": client.get(reverse("reader:card_add", args=[edition.slug])).status_code,
        "card_edit": client.get(reverse("reader:card_edit", args=[edition.slug, card.pk])).status_code,
        "card_delete": client.post(
            reverse("reader:card_edit", args=[edition.slug, card.pk]), {"delete": "1"}
        ).status_code,
        "import": client.get(reverse("reader:deck_import", args=[edition.slug])).status_code,
        "upload": client.post(reverse("reader:recording_upload", args=[edition.slug]), upload).status_code,
        "delete_recording": client.post(
            reverse("reader:recording_delete", args=[edition.slug]), {"key": upload["key"]}
        ).status_code,
    }


def _wav():
    data = BytesIO(wav_bytes(1.0))
    data.name = "a.wav"
    return data


def test_an_organiser_of_another_event_edits_nothing_of_a_club_deck(client, people):
    edition = _club_deck(client, people)
    client.force_login(people["other"])
    assert set(_edits(client, edition).values()) == {403}
    assert Card.objects.filter(edition=edition).count() == 1
    # Reading stays open: the deck's page (read-only), its Excel, a copy, its audio.
    page = client.get(reverse("reader:deck_detail", args=[edition.slug]))
    assert page.status_code == 200 and not page.context["can_edit"]
    assert reverse("reader:card_add", args=[edition.slug]) not in page.content.decode()
    assert client.get(reverse("reader:deck_template", args=[edition.slug])).status_code == 200


@pytest.mark.parametrize("who", ["maker", "colleague"])
def test_the_maker_and_the_events_organisers_edit_it(client, people, who):
    edition = _club_deck(client, people)
    client.force_login(people[who])
    answers = _edits(client, edition)
    assert answers["card_add"] == answers["card_edit"] == answers["import"] == 200
    assert answers["card_delete"] == 302 and not Card.objects.filter(edition=edition).exists()


def test_the_shipped_deck_is_edited_by_staff_only_and_others_copy_it(client, people, django_user_model):
    hitachi = DeckEdition.objects.get(slug="hitachi")
    Recording.objects.create(
        edition=hitachi, key="card:す", audio=b"RIFF", content_type="audio/wav", extension="wav", duration_ms=1, size=4
    )
    client.force_login(people["maker"])
    assert client.get(reverse("reader:card_add", args=["hitachi"])).status_code == 403
    before = hitachi.cards.count()
    assert (
        client.post(
            reverse("reader:card_add", args=["hitachi"]), {"head_kana": "か", "text": "x", "order": 9}
        ).status_code
        == 403
    )
    assert hitachi.cards.count() == before
    answer = client.post(reverse("reader:deck_copy", args=["hitachi"]), {"name": "うちの札", "slug": "ours"})
    copy = DeckEdition.objects.get(slug="ours")
    assert answer.url == reverse("reader:deck_detail", args=["ours"])
    assert copy.owner == people["maker"] and copy.cards.count() == before
    assert copy.recordings.filter(key="card:す").exists() and hitachi.recordings.count() == 1
    assert client.get(reverse("reader:card_add", args=["ours"])).status_code == 200
    taken = client.post(reverse("reader:deck_copy", args=["hitachi"]), {"name": "x", "slug": "ours"})
    assert taken.status_code == 200 and taken.context["copy_form"].errors
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    assert access.may_edit_edition(staff, hitachi) and not access.may_edit_edition(people["maker"], hitachi)
    superuser = django_user_model.objects.create_superuser("root")
    assert access.may_edit_edition(superuser, hitachi)


def test_the_new_deck_form_offers_only_the_users_own_events(client, people):
    client.force_login(people["other"])
    answer = client.post(
        reverse("reader:deck_list"), {"name": "x", "slug": "x", "source": "", "event": people["club"].pk}
    )
    assert answer.status_code == 200 and "event" in answer.context["form"].errors
    assert not DeckEdition.objects.filter(slug="x").exists()
