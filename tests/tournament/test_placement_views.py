"""Placement games on the organiser's division form, the knockout page, the public bracket and
final results, and through the commands (seed_knockout, simulate_results --stage placement)."""

from io import BytesIO, StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from pypdf import PdfReader

from judging.engine import rules
from tests import factories
from tests.factories import submit_result
from tournament.models import Match
from tournament.services.draw import draw_groups
from tournament.services.placement import create_placement_games
from tournament.services.schedule import make_schedule


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def play_groups(division):
    for match in Match.objects.filter(division=division, stage=Match.Stage.GROUP, status=Match.Status.SCHEDULED):
        a_wins = match.team_a.entry_number < match.team_b.entry_number
        cards = (30, 26) if a_wins else (26, 30)
        joker = rules.JokerHolder.A if a_wins else rules.JokerHolder.B
        submit_result(match, rules.SheetValues(*cards, 0, joker))


@pytest.fixture
def drawn(db):
    """Two groups of three on two courts, scheduled, set to placement games."""
    event = factories.make_event(courts=2, slug="place")
    event.refresh_from_db()
    division = factories.make_division(event, courts=[1, 2], after_groups="placement")
    factories.make_teams(division, 6)
    draw_groups(event, seed=3)
    make_schedule(event)
    return event, division


@pytest.fixture
def organiser_client(client, drawn, django_user_model):
    user = django_user_model.objects.create_user("organiser")
    drawn[0].organisers.add(user)
    client.force_login(user)
    return client


def form_data(division, **changes):
    data = {
        "name": division.name,
        "order": "1",
        "courts": [c.pk for c in division.courts.all()],
        "preset": "japanese",
        "walkover_cards": "count",
        "withdrawal": "annul",
        "best_runners_up": "0",
        "layout": "one_group_per_court",
        "qualifiers_per_group": "1",
        "third_place_game": "on",
        "after_groups": "placement",
        "placement_pairs": "",
    }
    data.update(changes)
    return data


def edit_url(event, division):
    return reverse("tournament:division_edit", args=[event.slug, division.pk])


def test_the_division_form_shows_the_placement_games_that_follow(organiser_client, drawn):
    event, division = drawn
    page = organiser_client.get(edit_url(event, division)).content.decode()
    assert "順位決定戦のリーグの組み合わせ" in page
    for place in (1, 2, 3):
        assert f"{place}位決定戦（A-B）" in page


def test_the_division_form_refuses_a_pair_text_naming_an_unknown_group(organiser_client, drawn):
    event, division = drawn
    response = organiser_client.post(edit_url(event, division), form_data(division, placement_pairs="A-X"))
    assert response.status_code == 200
    assert "「X」というリーグはありません" in response.context["form"].errors["placement_pairs"][0]
    division.refresh_from_db()
    assert division.placement_pairs == ""


def test_the_division_form_saves_pairs_and_format(organiser_client, drawn):
    event, division = drawn
    response = organiser_client.post(
        edit_url(event, division), form_data(division, after_groups="both", placement_pairs="Ｂ－Ａ")
    )
    assert response.status_code == 302
    division.refresh_from_db()
    assert (division.after_groups, division.placement_pairs) == ("both", "Ｂ－Ａ")
    page = organiser_client.get(edit_url(event, division)).content.decode()
    assert "2位決定戦（B-A）" in page and "1位決定戦" not in page


def test_both_with_best_runners_up_is_refused_on_the_form(organiser_client, drawn):
    event, division = drawn
    response = organiser_client.post(
        edit_url(event, division), form_data(division, after_groups="both", best_runners_up="1")
    )
    assert response.status_code == 200
    assert "after_groups" in response.context["form"].errors


def test_the_pairs_cannot_change_once_the_placement_games_exist(organiser_client, drawn):
    event, division = drawn
    play_groups(division)
    create_placement_games(event, division)
    response = organiser_client.post(edit_url(event, division), form_data(division, placement_pairs="B-A"))
    assert response.status_code == 200
    assert "placement_pairs" in response.context["form"].errors


def test_the_knockout_page_public_bracket_and_final_results_show_the_placement_games(organiser_client, drawn):
    event, division = drawn
    play_groups(division)
    create_placement_games(event, division)
    page = organiser_client.get(reverse("tournament:knockout", args=[event.slug])).content.decode()
    assert "1位決定戦（A-B）" in page and "1位・2位" in page and "3位決定戦（A-B）" in page
    first = Match.objects.filter(division=division, stage=Match.Stage.PLACEMENT).order_by("round").first()
    assert first.team_a.name in page
    submit_result(first, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    public = organiser_client.get(f"/e/{event.slug}/bracket/").content.decode()
    assert "1位決定戦（A-B）" in public and "30-26" in public
    final = organiser_client.get(f"/e/{event.slug}/final/").content.decode()
    assert "優勝" in final and first.team_a.name in final and "準優勝" in final
    pdf = organiser_client.get(f"/e/{event.slug}/final/?format=pdf")
    assert pdf.status_code == 200
    text = "".join(page.extract_text() for page in PdfReader(BytesIO(pdf.getvalue())).pages)
    assert "優勝" in text and first.team_a.name in text


def test_seed_knockout_and_simulate_results_play_a_placement_division(drawn):
    event, division = drawn
    run("simulate_results", event.slug, "--seed", "1")
    out = run("seed_knockout", event.slug)
    assert "3" in out
    placement = Match.objects.filter(division=division, stage=Match.Stage.PLACEMENT)
    assert placement.count() == 3
    out = run("simulate_results", event.slug, "--stage", "placement", "--division", division.name, "--seed", "2")
    assert "3 placement results entered" in out
    assert all(m.has_result for m in placement)


def test_simulate_results_names_an_unknown_division(drawn):
    event, _division = drawn
    with pytest.raises(CommandError, match="no division '中学生の部'"):
        run("simulate_results", event.slug, "--division", "中学生の部")


def test_simulate_results_of_one_division_leaves_the_others_waiting(db):
    event = factories.make_event(courts=4, slug="two")
    event.refresh_from_db()
    first = factories.make_division(event, name="低学年の部", courts=[1, 2], after_groups="placement")
    second = factories.make_division(event, name="高学年の部", courts=[3, 4], after_groups="placement")
    factories.make_teams(first, 6, prefix="低")
    factories.make_teams(second, 6, prefix="高")
    draw_groups(event, seed=1)
    make_schedule(event)
    run("simulate_results", event.slug, "--division", "低学年の部", "--seed", "3")
    assert not Match.objects.filter(division=first, status=Match.Status.SCHEDULED).exists()
    assert Match.objects.filter(division=second, status=Match.Status.SCHEDULED).count() == 6


# --- a format that shares places says so before saving (issue 27: two 第1位 with four groups) ----


@pytest.fixture
def four_groups(db, django_user_model, client):
    event = factories.make_event(courts=4, slug="four")
    division = factories.make_division(event, courts=[1, 2, 3, 4], after_groups="knockout")
    factories.make_teams(division, 12)
    draw_groups(event, seed=3)
    user = django_user_model.objects.create_user("organiser4")
    event.organisers.add(user)
    client.force_login(user)
    return event, division


def test_placement_with_four_groups_is_not_saved_before_the_form_names_the_shared_places(client, four_groups):
    event, division = four_groups
    response = client.post(edit_url(event, division), form_data(division, placement_pairs="A-C, B-D"))
    assert response.status_code == 200
    message = response.context["form"].errors["shared_places_ok"][0]
    assert "同順位ができます（第1位 2チーム、第3位 2チーム、第5位 2チーム、第7位 2チーム…）" in message
    assert "「通過チームは決勝トーナメント、ほかのチームは順位決定戦」を選んでください" in message  # the alternative
    page = response.content.decode()
    assert 'name="shared_places_ok"' in page and 'value="A-C, B-D"' in page  # nothing typed lost
    division.refresh_from_db()
    assert division.after_groups == "knockout"  # nothing saved
    # ticked: saved, and the division page says so when it opens again
    response = client.post(
        edit_url(event, division), form_data(division, placement_pairs="A-C, B-D", shared_places_ok="on")
    )
    assert response.status_code == 302
    division.refresh_from_db()
    assert (division.after_groups, division.placement_pairs) == ("placement", "A-C, B-D")
    page = client.get(edit_url(event, division)).content.decode()
    assert 'id="shared-places"' in page and "第1位 2チーム" in page
    # an edit that keeps the format is not asked again
    response = client.post(
        edit_url(event, division), form_data(division, name="小学生の部A", placement_pairs="A-C, B-D")
    )
    assert response.status_code == 302


def test_the_knockout_alternative_saves_without_asking_and_english_names_places(client, four_groups):
    event, division = four_groups
    response = client.post(edit_url(event, division), form_data(division, after_groups="both"))
    assert response.status_code == 200  # the places below the knockout are shared too: said first
    message = response.context["form"].errors["shared_places_ok"][0]
    assert "第1位" not in message and "第5位 2チーム" in message
    response = client.post(edit_url(event, division), form_data(division, after_groups="knockout"))
    assert response.status_code == 302
    client.cookies["django_language"] = "en"
    response = client.post(edit_url(event, division), form_data(division, placement_pairs=""))
    assert "shared places" in response.context["form"].errors["shared_places_ok"][0]


def test_placement_before_the_draw_counts_one_group_a_court(client, db, django_user_model):
    event = factories.make_event(courts=4, slug="undrawn")
    division = factories.make_division(event, courts=[1, 2, 3, 4])
    user = django_user_model.objects.create_user("organiser5")
    event.organisers.add(user)
    client.force_login(user)
    response = client.post(edit_url(event, division), form_data(division))
    assert response.status_code == 200 and "第1位 2チーム" in response.context["form"].errors["shared_places_ok"][0]
    two_courts = form_data(division, courts=[c.pk for c in event.courts.order_by("order")[:2]])
    assert client.post(edit_url(event, division), two_courts).status_code == 302  # one pair: no shared place
