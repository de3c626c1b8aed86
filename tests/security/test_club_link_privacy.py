"""Club links reveal nothing about other clubs (issue 28, item 3): a child or team name another
club entered is saved without a word to the club, the same answer whether or not the name
exists elsewhere, and the organisers see the duplicate; a link holds at most a set number of
teams and saves at most a set number of changes a minute."""

import datetime
import re

import pytest
from django.test import override_settings
from django.utils import timezone

from club_entry import services
from club_entry.models import ClubLink
from tests import factories
from tests.club_entry.conftest import CLUB, OTHER, four
from tournament.models import Team

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(db):
    event = factories.make_event(courts=2, slug="clubs", date=timezone.localdate() + datetime.timedelta(days=30))
    factories.make_division(event, name="小学生低学年の部", grade_band="小1〜小3", order=1)
    factories.make_division(event, name="小学生高学年の部", grade_band="小4〜小6", order=2)
    return event


@pytest.fixture
def low(event):
    return event.divisions.get(order=1)


def consented(event, club):
    link = services.create_link(event, club)
    services.give_consent(link)
    return link


def team_post(low, name, players, grade="小3"):
    data = {"division": low.pk, "name": name, "chaperone": "", "leader": "1"}
    for i, (player, furigana) in enumerate(players, start=1):
        data.update({f"p{i}_name": player, f"p{i}_furigana": furigana, f"p{i}_grade": grade})
    return data


def without_names(html, *names):
    """The page with the typed names and the CSRF token taken out, to compare two answers."""
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    for name in names:
        html = html.replace(name, "")
    return html


def test_another_clubs_child_is_neither_confirmed_nor_named(client, event, low):
    theirs = consented(event, OTHER)
    services.save_club_team(theirs, division=low, name="やまとA", players=four(prefix="山"))
    mine = consented(event, CLUB)
    child = "山一郎"  # entered by the other club
    nobody = "空一郎"  # entered by no one
    rest_a = [("港二郎", "じろう"), ("港三郎", "さぶろう")]
    rest_b = [("湊二郎", "じろう"), ("湊三郎", "さぶろう")]
    taken = client.post(f"/club/{mine.token}/team/add/", team_post(low, "港A", [(child, "いちろう"), *rest_a]))
    free = client.post(f"/club/{mine.token}/team/add/", team_post(low, "港B", [(nobody, "いちろう"), *rest_b]))
    # The same answer either way: saved, straight back to the club's page.
    assert taken.status_code == free.status_code == 302
    assert taken["Location"] == free["Location"]
    page = client.get(f"/club/{mine.token}/").content.decode()
    assert "やまとA" not in page and OTHER not in page
    assert Team.objects.filter(name__in=["港A", "港B"]).count() == 2
    # The warning pages too: a grade outside the band gives the same warnings, never the other club.
    child, nobody = "山二郎", "空二郎"
    rest_high = [("港五郎", "ごろう"), ("港六郎", "ろくろう")]
    warned_taken = client.post(
        f"/club/{mine.token}/team/add/", team_post(low, "港C", [(child, "じろう"), *rest_high], grade="小5")
    )
    warned_free = client.post(
        f"/club/{mine.token}/team/add/", team_post(low, "港C", [(nobody, "じろう"), *rest_high], grade="小5")
    )
    assert warned_taken.status_code == warned_free.status_code == 200
    assert "やまとA" not in warned_taken.content.decode()
    assert without_names(warned_taken.content.decode(), child, nobody) == without_names(
        warned_free.content.decode(), child, nobody
    )


def test_the_organiser_sees_the_duplicate_on_the_clubs_page(client, event, low, django_user_model):
    theirs = consented(event, OTHER)
    services.save_club_team(theirs, division=low, name="やまとA", players=four(prefix="山"))
    mine = consented(event, CLUB)
    services.save_club_team(mine, division=low, name="港A", players=[four(prefix="山")[0], *four()[1:]])
    found = services.cross_club_duplicates(event)
    assert [(d.kind, d.name) for d in found] == [("player", "山一郎")]
    assert {club for _team, club in found[0].teams} == {CLUB, OTHER}
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    client.force_login(user)
    page = client.get(f"/manage/{event.slug}/clubs/").content.decode()
    assert 'id="duplicates"' in page and "山一郎" in page and "やまとA" in page and "港A" in page


def test_a_duplicate_within_the_club_is_the_clubs_own_warning(event, low):
    mine = consented(event, CLUB)
    services.save_club_team(mine, division=low, name="港A", players=four())
    with pytest.raises(services.WarningsNotAccepted) as refused:
        services.save_club_team(mine, division=low, name="港B", players=four())
    assert any("港A" in w for w in refused.value.warnings)
    assert services.cross_club_duplicates(event) == []  # one club: nothing for the organisers


@override_settings(KARUTA_CLUB_LINK_MAX_TEAMS=3, KARUTA_CLUB_LINK_WRITES_PER_MINUTE=100)
def test_a_link_holds_at_most_the_set_number_of_teams(event, low):
    mine = consented(event, CLUB)
    for n in range(3):
        services.save_club_team(mine, division=low, name=f"港{n}", players=four(prefix=f"港{n}"))
    with pytest.raises(services.UserError, match="at most 3|3チームまで"):
        services.save_club_team(mine, division=low, name="港X", players=four(prefix="港X"))
    assert Team.objects.count() == 3
    # An edit of a team it has is still allowed.
    team = Team.objects.get(name="港0")
    services.save_club_team(
        mine, division=low, name="港0改", players=four(prefix="港0"), team=team, base_version=team.version
    )


@override_settings(KARUTA_CLUB_LINK_WRITES_PER_MINUTE=5)
def test_a_link_saves_at_most_the_set_number_of_changes_a_minute(client, event, low):
    mine = consented(event, CLUB)  # consent is one change
    for n in range(4):
        services.save_club_team(mine, division=low, name=f"港{n}", players=four(prefix=f"港{n}"))
    answer = client.post(
        f"/club/{mine.token}/team/add/", team_post(low, "港Z", [("港甲", "こう"), ("港乙", "おつ"), ("港丙", "へい")])
    )
    assert answer.status_code == 200
    text = answer.content.decode()
    assert ("直近1分間に5件" in text or "5 changes in the last minute" in text) and not Team.objects.filter(
        name="港Z"
    ).exists()
    assert "港甲" in answer.content.decode()  # what was typed is kept
    # A minute later the link saves again.
    mine.changes.update(at=timezone.now() - datetime.timedelta(seconds=61))
    services.save_club_team(mine, division=low, name="港Z", players=four(prefix="港Z"))
    assert ClubLink.objects.get(pk=mine.pk).teams().count() == 5
