"""Provisional standings (暫定) and withdrawn teams (棄権) on every medium: the read side,
the organiser's and public pages, the hall screen, Excel, the 順位表 PDF and the JSON API;
the lot refused for a group that is not complete; the "cards taken first" preset.

docs/rules/standings-display.md, "Provisional standings" and "Withdrawn teams"."""

from io import BytesIO

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from common.errors import UserError
from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament import exports, printing, reports
from tournament.models import Match, TieBreak
from tournament.services.draw import draw_groups
from tournament.services.lots import record_tie_break
from tournament.services.schedule import make_schedule
from tournament.services.withdrawal import withdraw_team

pytestmark = pytest.mark.django_db


def play(match, a_wins, won=30, lost=26):
    values = (won, lost, rules.JokerHolder.A) if a_wins else (lost, won, rules.JokerHolder.B)
    return record_confirmed_result(match, rules.SheetValues(values[0], values[1], 56 - won - lost, values[2]))


def one_group(count, **division_fields):
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1], **division_fields)
    teams = factories.make_teams(division, count)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, division, teams


def organiser_client(client, django_user_model, event):
    user = django_user_model.objects.create_user(f"org-{event.slug}")
    event.organisers.add(user)
    client.force_login(user)
    return client


def cycle_then_beat_the_rest(teams, leave_last_game=True):
    """Teams 1, 2, 3 beat each other in a cycle and beat teams 4 and 5, every game 30–26:
    1 = 2 = 3 on every criterion. The game 4 v 5 stays unplayed when ``leave_last_game``."""
    top = {t.pk: i for i, t in enumerate(teams[:3])}
    matches = Match.objects.filter(division=teams[0].division).order_by("match_number")
    for match in matches:
        a, b = match.team_a_id, match.team_b_id
        if a in top and b in top:
            play(match, (top[b] - top[a]) % 3 == 1)
        elif a in top or b in top:
            play(match, a in top)
        elif not leave_last_game:
            play(match, a == teams[3].pk)


@pytest.fixture
def morning(db):
    """A group of four, nobody has played yet."""
    return one_group(4)


def test_teams_that_have_not_played_are_ranked_without_a_tie_warning(morning, client, django_user_model):
    event, division, teams = morning
    [group] = reports.group_standings(division)
    assert group.provisional and group.games_left == 6
    assert all(line.tied and line.decided_by in ("", "provisional") for line in group.lines)
    assert all(line.provisional and line.games_left == 3 for line in group.lines)
    assert group.blocks == []
    organiser_client(client, django_user_model, event)
    html = client.get(reverse("tournament:standings", args=[event.slug])).content.decode()
    assert "暫定" in html and "6試合" in html
    assert "抽選か代表戦が必要です" not in html
    assert f"team_{teams[0].pk}" not in html  # no lot form


def test_a_group_with_one_result_is_still_provisional_everywhere(morning, client):
    event, division, teams = morning
    play(Match.objects.filter(event=event).order_by("match_number").first(), True)
    [group] = reports.group_standings(division)
    assert group.provisional and group.games_left == 5
    with translation.override("ja"):
        public = client.get(reverse("tournament:public_standings", args=[event.slug])).content.decode()
        display = client.get(reverse("tournament:division_display", args=[event.slug, division.pk])).content.decode()
        wb = load_workbook(BytesIO(exports.event_workbook(event, ["standings"])))
        pdf = "\n".join(page.extract_text() for page in PdfReader(BytesIO(printing.standings(event))).pages)
    for html in (public, display):
        assert 'class="badge provisional"' in html and "暫定" in html
        assert "抽選か代表戦が必要です" not in html
    ws = wb.worksheets[0]
    assert "暫定" in ws.cell(1, 1).value
    header = [c.value for c in ws[2]]
    assert header[-1] == "備考"
    remarks = [row[-1] for row in ws.iter_rows(min_row=3, max_row=6, values_only=True)]
    assert all(r.startswith("暫定（残り") for r in remarks)
    assert "暫定（結果待ち5試合）" in pdf
    document = client.get(f"/api/v1/events/{event.slug}/standings").json()
    api_group = document["divisions"][0]["groups"][0]
    assert api_group["provisional"] is True and api_group["complete"] is False
    assert api_group["games_left"] == 5
    assert all(row["provisional"] is True for row in api_group["rows"])
    assert sorted(row["games_left"] for row in api_group["rows"]) == [2, 2, 3, 3]
    assert not any(row["decided_by"] == "tied" for row in api_group["rows"])


def test_a_tie_no_game_can_break_is_named_but_its_lot_waits_for_the_group(client, django_user_model):
    event, division, teams = one_group(5)
    cycle_then_beat_the_rest(teams)
    [group] = reports.group_standings(division)
    assert group.provisional and group.games_left == 1
    by_team = {line.team.pk: line for line in group.lines}
    assert [by_team[t.pk].decided_by for t in teams[1:3]] == ["tied", "tied"]
    assert by_team[teams[3].pk].decided_by == "provisional"  # 4 = 5, their game is left
    assert group.blocks == [] and group.lot_waits
    with pytest.raises(UserError, match="Aリーグ") as refused, translation.override("ja"):
        record_tie_break(group.group, teams[:3], "lot")
    assert division.name in str(refused.value) and "1試合" in str(refused.value)
    assert not TieBreak.objects.exists()
    # The form is not offered; a posted lot is refused with the same words and nothing is saved.
    organiser_client(client, django_user_model, event)
    url = reverse("tournament:standings", args=[event.slug])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"team_{teams[0].pk}" not in page and "抽選・代表戦の結果を記録してください" in page
    post = {"group": group.group.pk, "method": "lot"} | {f"team_{t.pk}": str(i) for i, t in enumerate(teams[:3], 1)}
    page = client.post(url, post, follow=True, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "全試合が確定してから" in page
    assert not TieBreak.objects.exists()
    # The last game: the group is complete, the lot form appears and the lot is recorded.
    play(Match.objects.get(event=event, team_a__in=teams[3:], team_b__in=teams[3:]), True)
    [group] = reports.group_standings(division)
    assert not group.provisional and [len(b) for b in group.blocks] == [3]
    assert f"team_{teams[0].pk}" in client.get(url).content.decode()
    client.post(url, post)
    assert TieBreak.objects.filter(group=group.group).count() == 3


def withdrawn_under(setting):
    """The team that won every game withdraws: under "annul" with its last game still to play
    (during the group stage, so the setting applies; docs/rules/stages.md, "Withdrawals"),
    under "walkover" once the group is complete (it keeps its results either way)."""
    event, division, teams = one_group(4, withdrawal=setting)
    matches = list(Match.objects.filter(event=event).order_by("match_number"))
    if setting == "annul":
        matches.remove([m for m in matches if teams[0].pk in (m.team_a_id, m.team_b_id)][-1])
    for match in matches:
        play(
            match,
            match.team_a_id == teams[0].pk or (match.team_b_id != teams[0].pk and match.team_a_id < match.team_b_id),
        )
    withdraw_team(teams[0])  # the team that won every game
    return event, division, teams


def test_annulled_a_withdrawn_team_stays_at_the_bottom_marked_and_counted_for_nobody(client, django_user_model):
    event, division, teams = withdrawn_under("annul")
    [table] = reports.division_standings(division)
    assert teams[0].pk not in [row.team for row in table.rows]  # seeding never sees it
    [group] = reports.group_standings(division)
    last = group.lines[-1]
    assert (last.team.pk, last.withdrawn, last.annulled, last.rank_text) == (teams[0].pk, True, True, "—")
    assert (last.played, last.wins, last.cards_taken, last.decided_by) == (0, 0, 0, "withdrawn")
    assert all(line.played == 2 for line in group.lines[:-1])  # its games are annulled
    assert [t.pk for t in group.cross.teams][-1] == teams[0].pk
    organiser_client(client, django_user_model, event)
    with translation.override("ja"):
        html = client.get(reverse("tournament:standings", args=[event.slug])).content.decode()
        wb = load_workbook(BytesIO(exports.event_workbook(event, ["standings"])))
        pdf = "\n".join(page.extract_text() for page in PdfReader(BytesIO(printing.standings(event))).pages)
    table = html.split('class="table standings"', 1)[1].split("</table>", 1)[0]
    last_row = table.split("<tr")[-1]
    assert 'class="withdrawn annulled' in last_row and "棄権" in last_row and teams[0].name in last_row
    rows = list(wb.worksheets[0].iter_rows(min_row=3, max_row=6, values_only=True))
    assert rows[-1][:4] == ("—", teams[0].name, teams[0].affiliation, "—")
    assert rows[-1][-1] == "棄権"
    assert f"{teams[0].name}（棄権）" in pdf
    row = client.get(f"/api/v1/events/{event.slug}/standings").json()["divisions"][0]["groups"][0]["rows"][-1]
    assert (row["team"]["id"], row["withdrawn"], row["annulled"], row["rank_text"]) == (teams[0].pk, True, True, "—")
    assert row["mark"] in ("棄権", "withdrawn")


def test_under_walkovers_a_withdrawn_team_keeps_its_row_with_the_mark_and_never_qualifies(client):
    event, division, teams = withdrawn_under("walkover")
    [group] = reports.group_standings(division)
    first = group.lines[0]
    assert first.team.pk == teams[0].pk and first.withdrawn and not first.annulled and first.played == 3
    assert teams[0].pk not in [q.team for q in reports.qualifiers(division, reports.division_standings(division))]
    with translation.override("ja"):
        html = client.get(reverse("tournament:public_standings", args=[event.slug])).content.decode()
    table = html.split('class="table short-standings"', 1)[1].split("</table>", 1)[0]
    first_row = table.split("<tr")[2]
    assert 'class="withdrawn' in first_row and "棄権" in first_row
    row = client.get(f"/api/v1/events/{event.slug}/standings").json()["divisions"][0]["groups"][0]["rows"][0]
    assert row["withdrawn"] is True and row["annulled"] is False and row["rank_text"] == "1"


def test_the_division_form_offers_the_cards_first_preset(client, django_user_model):
    event = factories.make_event(courts=2)
    organiser_client(client, django_user_model, event)
    url = reverse("tournament:division_add", args=[event.slug])
    assert 'value="cards_first"' in client.get(url).content.decode()
    response = client.post(
        url,
        {
            "name": "中学生の部",
            "order": "1",
            "preset": "cards_first",
            "walkover_cards": "count",
            "withdrawal": "annul",
            "layout": "one_group_per_court",
            "qualifiers_per_group": "1",
            "best_runners_up": "0",
        },
    )
    assert response.status_code == 302
    division = event.divisions.get()
    assert division.criteria == ("cards_taken", "wins", "card_diff", "head_to_head", "lot")
    assert division.preset == "cards_first"
