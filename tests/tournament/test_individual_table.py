"""The individual table (個人成績, issue 16 item 8): the read side ranks each player's cards
over the confirmed group-stage versions; the organiser's standings page, the Excel workbook
and the PDF show it."""

import io

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from judging import services
from judging.engine import rules
from tests import factories
from tournament import reports
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.registration import PlayerData, save_team
from tournament.services.schedule import make_schedule


@pytest.fixture
def day(db):
    """Individual counts on, results count at once; one group of three teams without grades."""
    event = factories.make_event(courts=1, individual_counts=True)
    event.refresh_from_db()
    division = factories.make_division(event, courts=[1])
    for name in ("赤", "青", "白"):
        save_team(division, name, f"{name}子ども会", [PlayerData(f"{name}{i}") for i in "一二三"])
    draw_groups(event, seed=1)
    make_schedule(event)
    return event


def games(event):
    return list(Match.objects.filter(event=event).select_related("team_a", "team_b").order_by("match_number"))


def players(team):
    return list(team.players.order_by("order", "pk"))


def values(a, b):
    return rules.SheetValues(cards_a=a, cards_b=b, referee_cards=56 - a - b, joker_holder=rules.JokerHolder.A)


def save(match, a_counts, b_counts, **kwargs):
    """Submit a version with individual counts (three per side) and return it."""
    counts = dict(zip([p.pk for p in players(match.team_a)], a_counts, strict=True))
    counts |= dict(zip([p.pk for p in players(match.team_b)], b_counts, strict=True))
    return services.submit_sheet(match, values(sum(a_counts), sum(b_counts)), player_cards=counts, **kwargs)[0]


def table(event):
    return {line.name: line for block in reports.individual_table(event) for line in block.lines}


def test_players_are_ranked_by_cards_over_the_group_stage_with_games_played(day):
    first, second, _third = games(day)
    save(first, (20, 6, 4), (10, 10, 6))
    save(second, (12, 10, 6), (9, 9, 10))
    expected = {}
    for match, a, b in ((first, (20, 6, 4), (10, 10, 6)), (second, (12, 10, 6), (9, 9, 10))):
        for team, counts in ((match.team_a, a), (match.team_b, b)):
            for player, cards in zip(players(team), counts, strict=True):
                total, played = expected.get(player.name, (0, 0))
                expected[player.name] = (total + cards, played + 1)
    lines = table(day)
    assert {name: (line.cards, line.games) for name, line in lines.items()} == expected
    blocks = reports.individual_table(day)
    assert len(blocks) == 1 and blocks[0].grade == "" and blocks[0].title == blocks[0].division.name
    cards = [line.cards for line in blocks[0].lines]
    assert cards == sorted(cards, reverse=True)
    assert blocks[0].lines[0].rank == 1 and blocks[0].lines[0].rank_text == "1"
    assert {line.games for line in lines.values()} == {1, 2}  # one team played both games


def test_equal_cards_share_a_rank(day):
    first = games(day)[0]
    save(first, (10, 10, 8), (9, 9, 10))
    lines = reports.individual_table(day)[0].lines
    assert [(line.rank, line.rank_text, line.cards) for line in lines] == [
        (1, "1=", 10),
        (1, "1=", 10),
        (1, "1=", 10),
        (4, "4=", 9),
        (4, "4=", 9),
        (6, "6", 8),
    ]


def test_only_the_confirmed_version_counts(day):
    day.auto_confirm = False
    day.save()
    first = games(day)[0]
    v1 = save(first, (10, 10, 10), (9, 9, 8))
    assert reports.individual_table(day) == []  # submitted, not confirmed
    organiser = None  # a script confirms
    services.confirm_sheet(v1, organiser)
    assert sorted(line.cards for line in table(day).values()) == [8, 9, 9, 10, 10, 10]
    v2 = save(first, (28, 1, 1), (20, 3, 3), base_version=1)
    services.confirm_sheet(v2, organiser)
    assert sorted(line.cards for line in table(day).values()) == [1, 1, 3, 3, 20, 28]
    assert all(line.games == 1 for line in table(day).values())


def test_void_and_knockout_games_do_not_count(day):
    first, second, _third = games(day)
    save(first, (10, 10, 10), (9, 9, 8))
    save(second, (10, 10, 10), (9, 9, 8))
    services.void_match(first, None)
    Match.objects.filter(pk=second.pk).update(stage=Match.Stage.SEMIFINAL)
    assert reports.individual_table(day) == []


def test_grades_split_the_division_in_school_order(db):
    event = factories.make_event(courts=1, individual_counts=True)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 2)  # players of 小3, 小3 and 小2
    draw_groups(event, seed=1)
    make_schedule(event)
    save(games(event)[0], (10, 10, 10), (9, 9, 8))
    blocks = reports.individual_table(event)
    assert [b.grade for b in blocks] == ["小2", "小3"]
    assert [len(b.lines) for b in blocks] == [2, 4]
    assert blocks[1].title == f"{division.name} ・ 小3"
    assert [line.rank_text for line in blocks[0].lines][0] in ("1", "1=")


@pytest.fixture
def organiser_client(client, day, django_user_model):
    user = django_user_model.objects.create_user("organiser")
    day.organisers.add(user)
    client.force_login(user)
    return client


def test_the_organisers_standings_page_shows_the_individual_table(organiser_client, day):
    first = games(day)[0]
    save(first, (20, 6, 4), (10, 10, 6))
    top = players(first.team_a)[0].name
    page = organiser_client.get(f"/manage/{day.slug}/standings/").content.decode()
    assert 'id="individual"' in page and top in page and "個人成績" in page


def test_a_recorder_and_an_event_without_counts_get_no_individual_table(client, day, django_user_model):
    save(games(day)[0], (20, 6, 4), (10, 10, 6))
    recorder = django_user_model.objects.create_user("recorder")
    day.recorders.add(recorder)
    client.force_login(recorder)
    page = client.get(f"/manage/{day.slug}/standings/").content.decode()
    assert 'id="individual"' not in page
    organiser = django_user_model.objects.create_user("organiser")
    day.organisers.add(organiser)
    client.force_login(organiser)
    day.individual_counts = False
    day.save()
    assert 'id="individual"' not in client.get(f"/manage/{day.slug}/standings/").content.decode()


def test_the_workbook_has_an_individual_sheet(organiser_client, day):
    first = games(day)[0]
    save(first, (20, 6, 4), (10, 10, 6))
    wb = load_workbook(io.BytesIO(organiser_client.get(f"/manage/{day.slug}/export/results.xlsx").content))
    assert "個人成績" in wb.sheetnames
    rows = list(wb["個人成績"].iter_rows(values_only=True))
    assert rows[0][:4] == ("部門", "学年", "順位", "氏名")
    assert (
        rows[1][2:4] == (1, players(first.team_a)[0].name) and rows[1][7] == 20
    )  # a rank is a number (issue 34 item 4)
    one = load_workbook(
        io.BytesIO(organiser_client.get(f"/manage/{day.slug}/export/results.xlsx?kind=individual").content)
    )
    assert one.sheetnames == ["個人成績"]


def test_the_pdf_lists_the_players_by_cards(organiser_client, day):
    first = games(day)[0]
    save(first, (20, 6, 4), (10, 10, 6))
    response = organiser_client.get(f"/manage/{day.slug}/print/individual.pdf")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "個人成績" in text and players(first.team_a)[0].name in text
    assert "個人成績" in organiser_client.get(f"/manage/{day.slug}/print/").content.decode()


def test_the_pdf_says_when_there_is_nothing_yet(organiser_client, day):
    response = organiser_client.get(f"/manage/{day.slug}/print/individual.pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "個人枚数の記録がまだありません" in text
