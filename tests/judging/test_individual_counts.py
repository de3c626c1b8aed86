"""Individual card counts on the result form (issue 16, item 8): optional per event, each
side's given counts add up to its team count, blanks allowed, substitutes included, and a
correction carries its own counts."""

import pytest
from django.urls import reverse

from common.errors import UserError
from judging import services
from judging.engine import individual, rules
from judging.models import PlayerCards, RecordingSheet
from tests import factories
from tournament.forms import EventForm
from tournament.models import Match, Player
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

VALUES = rules.SheetValues(cards_a=30, cards_b=26, referee_cards=0, joker_holder=rules.JokerHolder.A)


@pytest.fixture
def day(db):
    """Individual counts on; two groups of three on two courts; results wait for a recorder."""
    event = factories.make_event(courts=2, auto_confirm=False, individual_counts=True)
    event.refresh_from_db()
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event


def first_match(event):
    return Match.objects.filter(event=event).order_by("match_number").first()


def players_of(team):
    return list(team.players.order_by("order", "pk"))


def entry_url(match):
    return reverse("judging:court_entry", args=[match.court.token, match.match_number])


def post_values(match, a=(10, 10, 10), b=(9, 9, 8), **overrides):
    data = {
        "cards_a": "30",
        "cards_b": "26",
        "referee_cards": "0",
        "joker_holder": "A",
        "rps_winner": "",
        "rps_used": "0",
        "base_version": "0",
        "submission_key": "k1",
    }
    for team, counts in ((match.team_a, a), (match.team_b, b)):
        for player, cards in zip(players_of(team), counts, strict=False):
            data[f"player_{player.pk}"] = "" if cards is None else str(cards)
    data.update(overrides)
    return data


def counts_of(sheet):
    return {pc.player.name: pc.cards for pc in sheet.player_cards.select_related("player")}


def test_the_engine_names_the_sum_only_when_given_counts_do_not_add_up():
    assert individual.side_sum_problem([10, 10, 10], 30) is None
    assert individual.side_sum_problem([None, None, None], 30) is None
    assert individual.side_sum_problem([10, None, 20], 30) is None
    assert individual.side_sum_problem([10, 10, 7], 30) == 27


def test_the_form_shows_each_players_field_only_when_the_event_takes_counts(client, day):
    match = first_match(day)
    page = client.get(entry_url(match)).content.decode()
    for player in players_of(match.team_a) + players_of(match.team_b):
        assert f'name="player_{player.pk}"' in page
    day.individual_counts = False
    day.save()
    page = client.get(entry_url(match)).content.decode()
    assert 'name="player_' not in page


def test_counts_that_add_up_are_stored_with_the_version(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), post_values(match))
    assert response.status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert sorted(counts_of(sheet).values()) == [8, 9, 9, 10, 10, 10]


def test_counts_that_do_not_add_up_name_the_side_and_nothing_is_saved(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), post_values(match, a=(10, 10, 7)), HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    page = response.content.decode()
    assert f"Aチーム（{match.team_a.name}）の個人枚数の合計（27）がチームの枚数（30）と合いません" in page
    assert not RecordingSheet.objects.filter(match=match).exists()
    assert not PlayerCards.objects.exists()
    # the typed values are kept on the page
    assert 'value="7"' in page and 'value="30"' in page


def test_a_side_whose_sum_is_wrong_is_the_one_named(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), post_values(match, b=(9, 9, 9)))
    page = response.content.decode()
    assert f"Bチーム（{match.team_b.name}）の個人枚数の合計（27）がチームの枚数（26）と合いません" in page
    assert "Aチーム（" not in page
    assert not RecordingSheet.objects.filter(match=match).exists()


def test_blank_counts_are_allowed(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), post_values(match, a=(None, None, None), b=(None, None, None)))
    assert response.status_code == 302
    sheet = RecordingSheet.objects.get(match=match)
    assert not sheet.player_cards.exists()
    # one side given, the other blank; a blank player within a side is "not given"
    match2 = Match.objects.filter(event=day).order_by("match_number")[1]
    response = client.post(entry_url(match2), post_values(match2, a=(30, None, 0), b=(None, None, None)))
    assert response.status_code == 302
    assert sorted(RecordingSheet.objects.get(match=match2).player_cards.values_list("cards", flat=True)) == [0, 30]


def test_a_count_that_is_not_a_number_is_refused_on_its_field(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), post_values(match, a=("x", 10, 20)))
    assert response.status_code == 200
    assert "枚数は整数で入力してください。" in response.content.decode()
    assert not RecordingSheet.objects.filter(match=match).exists()


def test_substitutes_have_their_own_field_and_count(client, day):
    match = first_match(day)
    substitute = Player.objects.create(team=match.team_a, name="補欠太郎", grade="小2", is_substitute=True, order=9)
    page = client.get(entry_url(match)).content.decode()
    assert f'name="player_{substitute.pk}"' in page and "補欠太郎" in page
    data = post_values(match, a=(10, 10, 0))
    data[f"player_{substitute.pk}"] = "10"
    assert client.post(entry_url(match), data).status_code == 302
    assert counts_of(RecordingSheet.objects.get(match=match))["補欠太郎"] == 10


def test_a_correction_carries_its_own_counts_and_the_old_version_keeps_its_own(client, day):
    match = first_match(day)
    client.post(entry_url(match), post_values(match))
    first = RecordingSheet.objects.get(match=match)
    page = client.get(entry_url(match)).content.decode()
    assert 'value="8"' in page  # the form starts from the saved counts
    # the same team counts, only the individual counts corrected: a new version
    data = post_values(match, b=(10, 8, 8), base_version="1", submission_key="k2")
    assert client.post(entry_url(match), data).status_code == 302
    second = RecordingSheet.objects.get(match=match, version=2)
    assert sorted(counts_of(second).values()) == [8, 8, 10, 10, 10, 10]
    assert sorted(counts_of(first).values()) == [8, 9, 9, 10, 10, 10]


def test_a_resend_with_the_same_counts_makes_no_new_version(client, day):
    match = first_match(day)
    client.post(entry_url(match), post_values(match))
    client.post(entry_url(match), post_values(match))
    # Back, then save again with a fresh key: still one version
    client.post(entry_url(match), post_values(match, base_version="1", submission_key="k9"))
    assert RecordingSheet.objects.filter(match=match).count() == 1
    assert PlayerCards.objects.count() == 6


def test_the_service_refuses_counts_that_do_not_add_up_before_writing(day):
    match = first_match(day)
    a = players_of(match.team_a)
    with pytest.raises(UserError, match="合計（29）"):
        services.submit_sheet(match, VALUES, player_cards={a[0].pk: 29})
    assert not RecordingSheet.objects.exists()


def test_the_service_refuses_a_player_of_another_team(day):
    match = first_match(day)
    stranger = Player.objects.exclude(team__in=[match.team_a, match.team_b]).first()
    with pytest.raises(UserError, match="どちらのチームにもいません"):
        services.submit_sheet(match, VALUES, player_cards={stranger.pk: 30})
    assert not RecordingSheet.objects.exists()


def test_the_service_refuses_counts_when_the_event_does_not_take_them(day):
    day.individual_counts = False
    day.save()
    match = first_match(day)
    a = players_of(match.team_a)
    with pytest.raises(UserError):
        services.submit_sheet(match, VALUES, player_cards={a[0].pk: 30})


def test_restoring_a_version_restores_its_counts(day, django_user_model):
    organiser = django_user_model.objects.create_user("org")
    day.organisers.add(organiser)
    match = first_match(day)
    a = players_of(match.team_a)
    first, _ = services.submit_sheet(match, VALUES, player_cards={a[0].pk: 30})
    services.submit_sheet(match, VALUES, base_version=1, player_cards={a[1].pk: 30})
    restored = services.restore_version(first, organiser)
    assert dict(restored.player_cards.values_list("player_id", "cards")) == {a[0].pk: 30}


def test_the_recorders_screen_takes_counts_too(client, day, django_user_model):
    user = django_user_model.objects.create_user("org")
    day.organisers.add(user)
    client.force_login(user)
    match = first_match(day)
    url = reverse("judging:match_detail", args=[day.slug, match.match_number])
    assert f'name="player_{players_of(match.team_a)[0].pk}"' in client.get(url).content.decode()
    assert client.post(url, post_values(match)).status_code == 302
    assert RecordingSheet.objects.get(match=match).player_cards.count() == 6


def test_a_walkover_carries_no_counts(client, day):
    match = first_match(day)
    response = client.post(entry_url(match), {"action": "walkover", "absent_side": "B", "base_version": "0"})
    assert response.status_code == 302
    assert not PlayerCards.objects.exists()


def test_the_event_form_offers_the_setting(db):
    assert "individual_counts" in EventForm().fields
    assert EventForm().fields["individual_counts"].initial is False
