"""The organiser's screens (login, organisers of the event only) and the public pages."""

import datetime
import re

import pytest
from django.db.models import Q
from django.urls import reverse

from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament.models import Court, Division, Event, Match, Player, Team
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.registration import PlayerData, save_team
from tournament.services.schedule import make_schedule

SECRET_PLAYERS = ["秘密山田", "秘密佐藤", "秘密鈴木"]


def team_with_secret_players(division, name, n):
    players = [PlayerData(f"{SECRET_PLAYERS[i]}{n}号", "ひみつ", "小3", is_leader=i == 1) for i in range(3)]
    return save_team(division, name, f"{name}の会", players)


def player_names():
    return list(Player.objects.values_list("name", flat=True))


@pytest.fixture
def event(db):
    """Two courts, two groups of three, every group game played, the final seeded."""
    event = factories.make_event(courts=2, slug="karuta")
    event.refresh_from_db()
    division = factories.make_division(event, courts=[1, 2])
    for n in range(1, 7):
        team_with_secret_players(division, f"ひたちチーム{n}", n)
    draw_groups(event, seed=3)
    make_schedule(event)
    for match in Match.objects.filter(event=event).order_by("match_number"):
        # the team registered first wins: no tie anywhere
        a_wins = match.team_a.entry_number < match.team_b.entry_number
        cards = (30, 26) if a_wins else (26, 30)
        joker = rules.JokerHolder.A if a_wins else rules.JokerHolder.B
        submit_result(match, rules.SheetValues(*cards, 0, joker))
    seed_knockout(event)
    return event


@pytest.fixture
def organiser(event, django_user_model):
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    return user


@pytest.fixture
def stranger(event, django_user_model):
    """Logged in, organiser of another event only."""
    user = django_user_model.objects.create_user("stranger")
    other = factories.make_event(courts=1, slug="other")
    other.organisers.add(user)
    return user


def organiser_urls(event):
    division = event.divisions.first()
    court = event.courts.first()
    team = Team.objects.filter(division__event=event).first()
    slug = event.slug
    return [
        f"/manage/{slug}/",
        f"/manage/{slug}/edit/",
        f"/manage/{slug}/divisions/add/",
        f"/manage/{slug}/divisions/{division.pk}/",
        f"/manage/{slug}/courts/",
        f"/manage/{slug}/courts/add/",
        f"/manage/{slug}/courts/{court.pk}/",
        f"/manage/{slug}/teams/",
        f"/manage/{slug}/teams/add/",
        f"/manage/{slug}/teams/{team.pk}/",
        f"/manage/{slug}/teams/import/",
        f"/manage/{slug}/teams/template.xlsx",
        f"/manage/{slug}/groups/",
        f"/manage/{slug}/schedule/",
        f"/manage/{slug}/standings/",
        f"/manage/{slug}/knockout/",
        f"/manage/{slug}/print/",
        f"/manage/{slug}/print/sheets.pdf?court={court.pk}",
        f"/manage/{slug}/export/results.xlsx",
        f"/manage/{slug}/games/1/",
    ]


def public_urls(event):
    court = event.courts.first()
    team = Team.objects.filter(division__event=event).first()
    slug = event.slug
    return [
        "/",
        f"/e/{slug}/",
        f"/e/{slug}/results/",
        f"/e/{slug}/standings/",
        f"/e/{slug}/bracket/",
        f"/e/{slug}/court/{court.pk}/",
        f"/e/{slug}/team/{team.pk}/",
    ]


# --- access -------------------------------------------------------------------------------


def test_every_organiser_page_answers_200_for_an_organiser_of_the_event(client, event, organiser):
    client.force_login(organiser)
    for url in ["/manage/"] + organiser_urls(event):
        assert client.get(url).status_code == 200, url


def test_every_organiser_page_sends_an_anonymous_visitor_to_the_login(client, event):
    for url in ["/manage/"] + organiser_urls(event):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login") + "?next="), url


def test_every_organiser_page_answers_403_to_a_user_who_does_not_organise_the_event(client, event, stranger):
    client.force_login(stranger)
    for url in organiser_urls(event):
        assert client.get(url).status_code == 403, url


def test_organiser_actions_are_refused_to_a_stranger_and_change_nothing(client, event, stranger):
    client.force_login(stranger)
    slug = event.slug
    assert client.post(f"/manage/{slug}/knockout/", {"reset": "1"}).status_code == 403
    assert client.post(f"/manage/{slug}/schedule/clear/").status_code == 403
    assert client.post(f"/manage/{slug}/edit/", {"name": "乗っ取り"}).status_code == 403
    assert Event.objects.get(slug=slug).name == "テストかるた大会"


def test_a_stranger_sees_only_their_own_events_in_the_list(client, event, stranger):
    client.force_login(stranger)
    response = client.get("/manage/")
    assert response.status_code == 200
    assert [e.slug for e in response.context["events"]] == ["other"]


def test_a_superuser_may_open_every_event(client, event, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root"))
    assert client.get(f"/manage/{event.slug}/").status_code == 200


def test_an_unknown_event_answers_404_to_an_organiser(client, event, organiser):
    client.force_login(organiser)
    assert client.get("/manage/no-such-event/").status_code == 404
    assert client.get("/e/no-such-event/").status_code == 404


def test_the_organiser_team_list_shows_the_players_names(client, event, organiser):
    client.force_login(organiser)
    page = client.get(f"/manage/{event.slug}/teams/").content.decode()
    for name in player_names():
        assert name in page


# --- public pages -------------------------------------------------------------------------


def test_every_public_page_answers_200_anonymously_and_never_shows_a_players_name(client, event):
    names = player_names()
    assert len(names) == 18
    for url in public_urls(event):
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        for name in names:
            assert name not in page, (url, name)
        assert "秘密" not in page, url


def test_public_pages_show_team_names(client, event):
    page = client.get(f"/e/{event.slug}/standings/").content.decode()
    for team in Team.objects.all():
        assert team.name in page


def test_the_public_court_timetable_lists_only_that_courts_matches(client, event):
    court = event.courts.first()
    page = client.get(f"/e/{event.slug}/court/{court.pk}/").content.decode()
    shown = {int(n) for n in re.findall(r'class="game[^"]*" data-key="(\d+)"', page)}
    assert shown and shown == set(Match.objects.filter(court=court).values_list("match_number", flat=True))


def test_the_public_team_timetable_lists_only_that_teams_matches(client, event):
    team = Team.objects.first()
    page = client.get(f"/e/{event.slug}/team/{team.pk}/").content.decode()
    shown = {int(n) for n in re.findall(r'class="game[^"]*" data-key="(\d+)"', page)}
    games = Match.objects.filter(Q(team_a=team) | Q(team_b=team))
    assert len(shown) >= 2 and shown == set(games.values_list("match_number", flat=True))


def test_a_court_of_another_event_answers_404_on_the_public_timetable(client, event):
    other = factories.make_event(courts=1, slug="elsewhere")
    court = Court.objects.get(event=other)
    assert client.get(f"/e/{event.slug}/court/{court.pk}/").status_code == 404


@pytest.mark.parametrize("sort", ["nonexistent", "team_a", "-team_b", "score", "start_at", "-court", "stage", "status"])
def test_sorting_the_schedule_table_never_fails(client, event, organiser, sort):
    client.force_login(organiser)
    assert client.get(f"/manage/{event.slug}/schedule/?sort={sort}").status_code == 200
    assert client.get(f"/e/{event.slug}/?sort={sort}").status_code == 200
    assert client.get(f"/e/{event.slug}/results/?sort={sort}").status_code == 200


@pytest.mark.parametrize("sort", ["nonexistent", "players", "group", "-name", "division"])
def test_sorting_the_team_list_never_fails(client, event, organiser, sort):
    client.force_login(organiser)
    assert client.get(f"/manage/{event.slug}/teams/?sort={sort}").status_code == 200


# --- forms --------------------------------------------------------------------------------


@pytest.fixture
def logged_in(client, django_user_model, db):
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("maker")
    # Creating tournaments is for organisers (the permission), not for every account.
    user.user_permissions.add(Permission.objects.get(codename="add_event"))
    client.force_login(user)
    return user


def new_event_data(**overrides):
    data = {
        "name": "ひたち郷土かるた大会",
        "edition": "22",
        "slug": "hitachi-2028",
        "date": "2028-01-16",
        "venue": "多賀市民プラザ",
        "start_time": "09:00",
        "game_minutes": "15",
        "changeover_minutes": "5",
        "card_total": "56",
        "court_count": "3",
        "visibility": "public",
    }
    data.update(overrides)
    return data


def test_creating_an_event_through_the_form(client, logged_in):
    response = client.post("/manage/", new_event_data())
    event = Event.objects.get(slug="hitachi-2028")
    assert response.status_code == 302 and response["Location"] == f"/manage/{event.slug}/"
    assert event.name == "ひたち郷土かるた大会" and event.edition == 22
    assert event.date == datetime.date(2028, 1, 16) and event.start_time == datetime.time(9, 0)
    assert [c.name for c in event.courts.all()] == ["1", "2", "3"]
    assert list(event.organisers.all()) == [logged_in]
    assert client.get(f"/manage/{event.slug}/").status_code == 200


def test_creating_an_event_with_a_used_slug_shows_an_error_and_creates_nothing(client, logged_in):
    client.post("/manage/", new_event_data())
    response = client.post("/manage/", new_event_data(name="別の大会"))
    assert response.status_code == 200
    assert "slug" in response.context["form"].errors
    assert Event.objects.count() == 1


def test_adding_a_division_with_courts(client, logged_in):
    client.post("/manage/", new_event_data())
    event = Event.objects.get()
    courts = list(event.courts.all())
    response = client.post(
        f"/manage/{event.slug}/divisions/add/",
        {
            "name": "小学生の部",
            "grade_band": "小1〜小6",
            "order": "1",
            "courts": [courts[0].pk, courts[2].pk],
            "preset": "japanese",
            "walkover_cards": "count",
            "withdrawal": "annul",
            "best_runners_up": "0",
            "layout": "one_group_per_court",
            "qualifiers_per_group": "1",
            "third_place_game": "on",
        },
    )
    assert response.status_code == 302
    division = Division.objects.get(event=event)
    assert division.name == "小学生の部"
    assert sorted(c.name for c in division.courts.all()) == ["1", "3"]
    assert division.third_place_game


def test_a_court_of_another_event_cannot_be_given_to_a_division(client, logged_in):
    client.post("/manage/", new_event_data())
    event = Event.objects.get()
    foreign = factories.make_event(courts=1, slug="foreign").courts.get()
    response = client.post(
        f"/manage/{event.slug}/divisions/add/",
        {
            "name": "小学生の部",
            "order": "1",
            "courts": [foreign.pk],
            "preset": "japanese",
            "withdrawal": "annul",
            "best_runners_up": "0",
            "layout": "one_group_per_court",
            "walkover_cards": "count",
            "qualifiers_per_group": "1",
        },
    )
    assert response.status_code == 200
    assert "courts" in response.context["form"].errors
    assert not Division.objects.filter(event=event).exists()


@pytest.fixture
def division(client, logged_in):
    event = factories.make_event(courts=2, slug="teams")
    event.organisers.add(logged_in)
    return factories.make_division(event, courts=[1, 2])


def team_data(division, name="みなと子ども会A", **overrides):
    data = {
        "division": str(division.pk),
        "name": name,
        "affiliation": "みなと子ども会",
        "seed": "",
        "leader": "2",
        "p1_name": "小川 光",
        "p1_furigana": "おがわ ひかる",
        "p1_grade": "小2",
        "p2_name": "井上 颯太",
        "p2_furigana": "いのうえ そうた",
        "p2_grade": "小3",
        "p3_name": "木村 心春",
        "p3_furigana": "きむら こはる",
        "p3_grade": "小2",
        "p4_name": "",
        "p4_furigana": "",
        "p4_grade": "",
        "p5_name": "",
        "p5_furigana": "",
        "p5_grade": "",
    }
    data.update(overrides)
    return data


def add_team(client, division, **kw):
    return client.post(f"/manage/{division.event.slug}/teams/add/", team_data(division, **kw))


def test_registering_a_team_through_the_form(client, division):
    response = add_team(client, division, p4_name="高橋 凛", p4_furigana="たかはし りん")
    assert response.status_code == 302
    team = Team.objects.get(division=division)
    assert team.name == "みなと子ども会A" and team.affiliation == "みなと子ども会"
    players = list(team.players.order_by("order"))
    assert [p.name for p in players] == ["小川 光", "井上 颯太", "木村 心春", "高橋 凛"]
    assert [p.is_leader for p in players] == [False, True, False, False]
    assert [p.is_substitute for p in players] == [False, False, False, True]


def test_a_missing_player_3_is_named_in_the_error(client, division):
    response = add_team(client, division, p3_name="", p3_furigana="", p3_grade="")
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["p3_name"]
    assert "3" in errors["p3_name"][0]
    assert not Team.objects.exists()


def test_a_duplicate_name_after_nfkc_normalisation_is_refused(client, division):
    assert add_team(client, division, name="みなと子ども会A").status_code == 302
    response = add_team(client, division, name="みなと子ども会Ａ")
    assert response.status_code == 200
    assert "name" in response.context["form"].errors
    assert Team.objects.count() == 1


def test_furigana_must_be_kana(client, division):
    response = add_team(client, division, p2_furigana="inoue souta")
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["p2_furigana"]
    assert not Team.objects.exists()


def test_a_furigana_without_a_name_is_refused(client, division):
    response = add_team(client, division, p4_furigana="たかはし")
    assert response.status_code == 200
    assert "p4_name" in response.context["form"].errors
    assert not Team.objects.exists()


def test_editing_a_team_keeps_its_own_name_allowed(client, division):
    add_team(client, division)
    team = Team.objects.get()
    response = client.post(
        f"/manage/{division.event.slug}/teams/{team.pk}/", team_data(division, affiliation="港子ども会")
    )
    assert response.status_code == 302
    team.refresh_from_db()
    assert team.affiliation == "港子ども会" and team.players.count() == 3


def test_drawing_and_scheduling_through_the_pages(client, division):
    for i in range(6):
        add_team(client, division, name=f"チーム{i}")
    slug = division.event.slug
    assert client.post(f"/manage/{slug}/groups/draw/", {"seed": "5"}).status_code == 302
    assert division.groups.count() == 2
    assert client.post(f"/manage/{slug}/schedule/make/").status_code == 302
    assert Match.objects.filter(division=division).count() == 6
    page = client.get(f"/manage/{slug}/schedule/").content.decode()
    assert "チーム0" in page


@pytest.mark.parametrize(
    "query",
    [
        "schedule/?court=abc",
        "schedule/?team=abc",
        "teams/?division=abc",
        "print/sheets.pdf?court=abc",
        "print/sheets.pdf?division=abc",
    ],
)
def test_a_non_numeric_filter_in_the_query_string_never_gives_a_server_error(client, event, organiser, query):
    client.force_login(organiser)
    client.raise_request_exception = False
    assert client.get(f"/manage/{event.slug}/{query}").status_code in (200, 404)


# --- one event's organiser never reaches another event's rows ------------------------------


@pytest.fixture
def foreign(db):
    """Another event with a division, a court and a team."""
    other = factories.make_event(courts=1, slug="foreign")
    division = factories.make_division(other, name="外の部", courts=[1])
    team = factories.make_team(division, "外のチーム")
    return other, division, other.courts.get(), team


def test_an_organiser_cannot_open_rows_of_another_event_through_their_own_event(client, event, organiser, foreign):
    client.force_login(organiser)
    _, division, court, team = foreign
    slug = event.slug
    for url in (
        f"/manage/{slug}/teams/{team.pk}/",
        f"/manage/{slug}/divisions/{division.pk}/",
        f"/manage/{slug}/courts/{court.pk}/",
        f"/manage/{slug}/games/999/",
    ):
        assert client.get(url).status_code == 404, url
    response = client.post(f"/manage/{slug}/teams/{team.pk}/", team_data(division, name="乗っ取り"))
    assert response.status_code == 404
    team.refresh_from_db()
    assert team.name == "外のチーム"


def test_moving_a_team_of_another_event_answers_404(client, event, organiser, foreign):
    client.force_login(organiser)
    group = event.divisions.first().groups.first()
    response = client.post(f"/manage/{event.slug}/groups/move/", {"team": foreign[3].pk, "group": group.pk})
    assert response.status_code == 404
    assert Team.objects.get(pk=foreign[3].pk).group is None


def test_the_public_pages_never_show_a_court_link_secret(client, event):
    tokens = list(Court.objects.values_list("token", flat=True))
    for url in public_urls(event):
        page = client.get(url).content.decode()
        assert not any(token in page for token in tokens), url


def test_the_court_links_page_shows_each_courts_secret_link_to_the_organiser(client, event, organiser):
    client.force_login(organiser)
    page = client.get(f"/manage/{event.slug}/courts/").content.decode()
    for court in event.courts.all():
        assert court.get_link_path() in page


def test_the_organiser_entry_of_a_knockout_match_without_teams_goes_back_to_the_schedule(client, event, organiser):
    client.force_login(organiser)
    final = Match.objects.get(event=event, stage=Match.Stage.FINAL)
    Match.objects.filter(pk=final.pk).update(team_a=None, team_b=None)
    response = client.get(f"/manage/{event.slug}/games/{final.match_number}/")
    assert response.status_code == 302
    assert response["Location"] == f"/manage/{event.slug}/schedule/"


def test_the_division_of_a_team_with_matches_cannot_be_changed(client, event, organiser):
    client.force_login(organiser)
    other = factories.make_division(event, name="別の部")
    team = Team.objects.filter(division__event=event).first()
    old = team.division
    client.post(f"/manage/{event.slug}/teams/{team.pk}/", team_data(other, name=team.name))
    team.refresh_from_db()
    assert team.division == old


def test_the_public_timetable_shows_start_times_in_tokyo_time(client, event):
    first = Match.objects.get(event=event, match_number=1)
    assert first.start_at.hour == 0 and first.start_at.minute == 30  # stored in UTC
    page = client.get(f"/e/{event.slug}/").content.decode()
    assert "09:30" in page
