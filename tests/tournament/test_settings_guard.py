"""Settings that results depend on (issue 15, item 5): a change shows what it affects and asks
for confirmation once results exist; a card total that would break confirmed sheets is refused
with their number; the withdrawal setting is locked after a withdrawal; the stage format once
its games exist; the slots follow after saving; ``manage.py configure_division``."""

import copy
import datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Q
from django.urls import reverse
from django.utils import translation

from judging.engine import rules
from judging.services import record_confirmed_result
from tests import factories
from tournament.engine import standings
from tournament.forms import DivisionForm, EventForm
from tournament.management.commands.configure_division import form_data
from tournament.models import Division, Event, Match, Team
from tournament.services.draw import draw_groups
from tournament.services.knockout import seed_knockout
from tournament.services.schedule import make_schedule
from tournament.services.settings_guard import setting_lines
from tournament.services.withdrawal import withdraw_team

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def play(match, winner, cards_winner, cards_loser):
    side = "A" if match.team_a_id == winner.pk else "B"
    a, b = (cards_winner, cards_loser) if side == "A" else (cards_loser, cards_winner)
    return record_confirmed_result(match, rules.SheetValues(a, b, 56 - a - b, rules.JokerHolder(side)))


def between(x, y):
    return Match.objects.get(Q(team_a=x, team_b=y) | Q(team_a=y, team_b=x), stage=Match.Stage.GROUP)


def two_groups(**division_fields):
    """Two groups of three, played: in each group the first team wins twice by 29–27 and the
    second takes the most cards (40–10 against the third), then the final is seeded."""
    event = factories.make_event(courts=2)
    division = factories.make_division(event, courts=[1, 2], qualifiers_per_group=1, **division_fields)
    factories.make_teams(division, 6)
    draw_groups(event, seed=1)
    make_schedule(event)
    order = {}
    for group in division.groups.order_by("order"):
        first, second, third = Team.objects.filter(group=group).order_by("group_seat")
        play(between(first, second), first, 29, 27)
        play(between(first, third), first, 29, 27)
        play(between(second, third), second, 40, 10)
        order[group.name] = (first, second, third)
    seed_knockout(event)
    return event, division, order


@pytest.fixture
def organiser(client, django_user_model):
    def login(event):
        user = django_user_model.objects.create_user("org")
        event.organisers.add(user)
        client.force_login(user)
        client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
        return client

    return login


def division_post(division, **changes):
    data = form_data(DivisionForm(instance=division, event=division.event))
    data.update(changes)
    return data


def final_teams():
    final = Match.objects.get(stage=Match.Stage.FINAL)
    return {final.team_a_id, final.team_b_id}


# --- the card total ----------------------------------------------------------------------------


def event_post(event, **changes):
    data = form_data(EventForm(instance=event))
    data.update(changes)
    return data


def test_a_card_total_that_breaks_confirmed_sheets_is_refused_with_their_number(organiser):
    event, division, _order = two_groups()
    client = organiser(event)
    response = client.post(reverse("tournament:event_edit", args=[event.slug]), event_post(event, card_total=44))
    assert response.status_code == 200
    assert "6 confirmed recording sheets would no longer add up to 44 cards" in str(
        response.context["form"].errors["card_total"]
    )
    event.refresh_from_db()
    assert event.card_total == 56


def test_a_card_total_change_before_any_result_saves_at_once(organiser):
    event = factories.make_event(courts=1)
    client = organiser(event)
    response = client.post(reverse("tournament:event_edit", args=[event.slug]), event_post(event, card_total=48))
    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).card_total == 48


def test_a_card_total_change_with_only_walkovers_asks_for_confirmation(organiser):
    event = factories.make_event(courts=1)
    division = factories.make_division(event, courts=[1])
    factories.make_teams(division, 3)
    draw_groups(event, seed=1)
    make_schedule(event)
    match = Match.objects.first()
    record_confirmed_result(match, rules.SheetValues(28, 0, 0), is_walkover=True)
    client = organiser(event)
    url = reverse("tournament:event_edit", args=[event.slug])
    step = client.post(url, event_post(event, card_total=48))
    assert step.status_code == 200
    effects = step.context["effects"]
    assert "Walkovers recorded from now on count 24–0 instead of 28–0." in effects.lines()
    assert Event.objects.get(pk=event.pk).card_total == 56
    done = client.post(url, event_post(event, card_total=48, confirm_effects="1", effects_digest=effects.digest))
    assert done.status_code == 302 and Event.objects.get(pk=event.pk).card_total == 48


# --- the ranking order: a confirmation step, then the slots follow ----------------------------------


def test_a_ranking_order_change_shows_places_and_slots_then_saves_and_refreshes(organiser):
    event, division, order = two_groups()
    first_a, second_a, _third = order["A"]
    assert first_a.pk in final_teams()
    client = organiser(event)
    url = reverse("tournament:division_edit", args=[event.slug, division.pk])
    cards_first = {"preset": "custom", "criterion_1": "cards_taken", "criterion_2": "wins", "criterion_3": "lot"}
    for i in range(4, len(standings.CRITERIA) + 1):
        cards_first[f"criterion_{i}"] = ""
    step = client.post(url, division_post(division, **cards_first), HTTP_ACCEPT_LANGUAGE="en")
    assert step.status_code == 200
    effects = step.context["effects"]
    text = "\n".join(effects.lines())
    assert "ranking order: “wins → card difference" in text
    assert f"Group A place 1: {first_a.name} → {second_a.name}" in text
    assert f"Group A place 1: {first_a.name} → {second_a.name}" in text
    assert "(Final), Group A place 1" in text
    assert Division.objects.get(pk=division.pk).criteria == standings.PRESET_JAPANESE
    assert first_a.pk in final_teams()
    # The confirmation of other effects is asked again.
    again = client.post(url, division_post(division, **cards_first, confirm_effects="1", effects_digest="x"))
    assert again.status_code == 200 and Division.objects.get(pk=division.pk).criteria == standings.PRESET_JAPANESE
    done = client.post(url, division_post(division, **cards_first, confirm_effects="1", effects_digest=effects.digest))
    assert done.status_code == 302
    assert Division.objects.get(pk=division.pk).criteria[0] == "cards_taken"
    # Saved, and the final (not started) now holds the team that fills its slot.
    assert second_a.pk in final_teams() and first_a.pk not in final_teams()


def test_a_change_nothing_depends_on_saves_without_a_second_step(organiser):
    event, division, _order = two_groups()
    client = organiser(event)
    url = reverse("tournament:division_edit", args=[event.slug, division.pk])
    response = client.post(url, division_post(division, grade_band="小1〜小3"))
    assert response.status_code == 302
    assert Division.objects.get(pk=division.pk).grade_band == "小1〜小3"


# --- refusals ------------------------------------------------------------------------------------


def test_the_withdrawal_setting_is_locked_once_a_team_has_withdrawn(organiser):
    event, division, order = two_groups(withdrawal="annul")
    withdraw_team(order["B"][2])
    client = organiser(event)
    url = reverse("tournament:division_edit", args=[event.slug, division.pk])
    response = client.post(url, division_post(division, withdrawal="walkover"))
    assert response.status_code == 200
    assert f"{order['B'][2].name} has withdrawn under it" in str(response.context["form"].errors["withdrawal"])
    assert Division.objects.get(pk=division.pk).withdrawal == "annul"


def test_qualifiers_cannot_change_once_the_knockout_exists(organiser):
    event, division, _order = two_groups()
    client = organiser(event)
    url = reverse("tournament:division_edit", args=[event.slug, division.pk])
    response = client.post(url, division_post(division, qualifiers_per_group="2"))
    assert response.status_code == 200
    assert "reset them on the knockout page first" in str(response.context["form"].errors["qualifiers_per_group"])
    assert Division.objects.get(pk=division.pk).qualifiers_per_group == 1


def test_qualifiers_before_seeding_show_who_would_qualify(organiser):
    event, division, order = two_groups()
    Match.objects.exclude(stage=Match.Stage.GROUP).delete()
    client = organiser(event)
    url = reverse("tournament:division_edit", args=[event.slug, division.pk])
    step = client.post(url, division_post(division, qualifiers_per_group="2"), HTTP_ACCEPT_LANGUAGE="en")
    assert step.status_code == 200
    assert f"Group A: {order['A'][1].name} would qualify." in step.context["effects"].lines()


# --- the command ----------------------------------------------------------------------------------


def test_the_command_changes_the_ranking_order_and_prints_what_it_affects():
    event, division, order = two_groups()
    out = StringIO()
    with pytest.raises(CommandError, match="re-run with --yes to save"):
        call_command("configure_division", event.slug, division.name, "--standings", "head-to-head-first", stdout=out)
    assert Division.objects.get(pk=division.pk).criteria != standings.PRESET_HEAD_TO_HEAD_FIRST
    assert "ranking order: “wins → card difference" in out.getvalue()
    out = StringIO()
    call_command(
        "configure_division", event.slug, division.name, "--standings", "head-to-head-first", "--yes", stdout=out
    )
    assert Division.objects.get(pk=division.pk).criteria == standings.PRESET_HEAD_TO_HEAD_FIRST
    assert "ranking order: “wins → card difference" in out.getvalue()


def test_the_command_refuses_like_the_form():
    event, division, order = two_groups()
    withdraw_team(order["A"][2])
    with pytest.raises(CommandError, match="has withdrawn under it"):
        call_command("configure_division", event.slug, division.name, "--withdrawal", "walkovers", stdout=StringIO())
    with pytest.raises(CommandError, match="clear the schedule"):
        call_command("configure_division", event.slug, division.name, "--games-per-team", "1", stdout=StringIO())
    with pytest.raises(CommandError, match="reset them on the knockout page first"):
        call_command("configure_division", event.slug, division.name, "--third-place", "no", stdout=StringIO())
    with pytest.raises(CommandError, match="No division called"):
        call_command("configure_division", event.slug, "大人の部", "--qualifiers", "2", stdout=StringIO())
    division.refresh_from_db()
    assert (division.withdrawal, division.games_per_team, division.third_place_game) == ("annul", None, True)


def test_the_command_sets_the_stage_format_before_the_draw():
    event = factories.make_event(courts=2)
    division = factories.make_division(event, name="中学生の部", courts=[1, 2])
    out = StringIO()
    call_command(
        "configure_division",
        event.slug,
        "中学生の部",
        "--games-per-team",
        "3",
        "--after-groups",
        "both",
        "--qualifiers",
        "2",
        "--third-place",
        "no",
        "--withdrawal",
        "walkovers",
        stdout=out,
    )
    division.refresh_from_db()
    assert (division.games_per_team, division.after_groups, division.qualifiers_per_group) == (3, "both", 2)
    assert (division.third_place_game, division.withdrawal) == (False, "walkover")
    assert "saved" in out.getvalue()


def test_the_command_cards_first_order_applies_or_is_refused_clearly():
    event, division, _order = two_groups()
    if "cards_first" in standings.PRESETS:
        with pytest.raises(CommandError, match="re-run with --yes"):
            call_command(
                "configure_division", event.slug, division.name, "--standings", "cards-first", stdout=StringIO()
            )
        assert Division.objects.get(pk=division.pk).preset != "cards_first"
        call_command(
            "configure_division", event.slug, division.name, "--standings", "cards-first", "--yes", stdout=StringIO()
        )
        assert Division.objects.get(pk=division.pk).preset == "cards_first"
    else:
        with pytest.raises(CommandError, match="not available in this version"):
            call_command(
                "configure_division", event.slug, division.name, "--standings", "cards-first", stdout=StringIO()
            )


def test_a_time_setting_change_reads_as_hours_and_minutes():
    old = factories.make_event(lunch_start=datetime.time(12, 0), lunch_end=datetime.time(13, 0))
    new = copy.copy(old)
    new.lunch_start, new.lunch_end = datetime.time(11, 30), datetime.time(12, 30)
    lines = [str(line) for line in setting_lines(old, new, ["lunch_start", "lunch_end"])]
    assert "“12:00” → “11:30”" in lines[0] and "“13:00” → “12:30”" in lines[1], lines
    assert not any(":00:00" in line or ":30:00" in line for line in lines)
