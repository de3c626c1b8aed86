"""A knockout game whose result a started or played game uses gets no new version from a court
link: the tablet answers a clear refusal naming both games; the recorders' desk still can, and
the game it fed is then shown out of date (issue 18, item 5; the flow of issue 15)."""

import pytest
from django.urls import reverse
from django.utils import translation

from judging import services
from judging.engine import rules
from judging.models import RecordingSheet
from tournament.models import Match
from tournament.reports import stages
from tournament.services.knockout import seed_knockout

A_WINS = rules.SheetValues(30, 26, 0, rules.JokerHolder.A)
B_WINS = rules.SheetValues(20, 36, 0, rules.JokerHolder.B)


@pytest.fixture
def semi(day):
    """Every group game confirmed, two qualifiers per group; a semifinal confirmed, its final played."""
    division = day.divisions.get()
    division.qualifiers_per_group = 2
    division.save(update_fields=["qualifiers_per_group"])
    for match in Match.objects.filter(event=day).order_by("match_number"):
        a_wins = match.team_a.entry_number < match.team_b.entry_number
        services.record_confirmed_result(match, A_WINS if a_wins else B_WINS)
    seed_knockout(day)
    semis = Match.objects.filter(event=day, stage=Match.Stage.SEMIFINAL).order_by("match_number")
    for game in semis:
        services.record_confirmed_result(game, A_WINS)
    return semis.select_related("court").first()


def court_post(client, match, **values):
    data = {"cards_a": "20", "cards_b": "36", "referee_cards": "0", "joker_holder": "B", "rps_winner": ""}
    data.update({"rps_used": "0", "base_version": "1", "submission_key": "", **values})
    return client.post(reverse("judging:court_entry", args=[match.court.token, match.match_number]), data)


def test_a_court_link_cannot_change_a_semifinal_once_the_final_was_played(client, semi):
    final = semi.feeds
    final.refresh_from_db()
    services.record_confirmed_result(final, A_WINS)
    with translation.override("ja"):
        response = court_post(client, semi, HTTP_ACCEPT_LANGUAGE="ja")
    page = response.content.decode()
    assert response.status_code == 200
    expected = f"第{semi.match_number}試合の結果は次の試合（第{final.match_number}試合）に使われています。記録係に伝えてください"
    assert expected in page
    assert RecordingSheet.objects.filter(match=semi).count() == 1


def test_a_started_third_place_game_is_enough(client, semi):
    third = semi.loser_feeds
    services.mark_started(third, court=third.court)
    with pytest.raises(services.UserError, match=str(third.match_number)):
        services.submit_sheet(semi, B_WINS, base_version=1, court=semi.court)


def test_a_walkover_from_the_court_is_refused_too(semi):
    services.record_confirmed_result(semi.feeds, A_WINS)
    with pytest.raises(services.UserError):
        services.submit_walkover(semi, rules.Side.A, base_version=1, court=semi.court)


def test_the_desk_still_can_and_the_final_shows_out_of_date(semi, django_user_model):
    final = semi.feeds
    services.record_confirmed_result(final, A_WINS)
    recorder = django_user_model.objects.create_user("desk")
    semi.event.recorders.add(recorder)
    sheet, created = services.submit_sheet(semi, B_WINS, base_version=1, user=recorder)
    assert created and sheet.version == 2
    other = django_user_model.objects.create_user("desk2")
    semi.event.recorders.add(other)
    services.confirm_sheet(sheet, other)
    assert any(state.match.pk == final.pk for state in stages.out_of_date(semi.division))


def test_before_the_next_game_starts_the_court_may_correct(client, semi):
    assert court_post(client, semi).status_code == 302
    assert RecordingSheet.objects.filter(match=semi).count() == 2
