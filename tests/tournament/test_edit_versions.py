"""Optimistic locking of the edit forms (issue 18, item 8): two organisers open the same form;
the later save, based on the older version, is refused and the page shows the saved values and
the typed ones side by side, with nothing lost. Saving that page again keeps the typed values."""

import re
from html import unescape

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tournament.forms import TeamForm
from tournament.models import Court, Division, Event, Team


@pytest.fixture
def event(db):
    event = factories.make_event(courts=2, slug="locks")
    division = factories.make_division(event, courts=[1, 2])
    factories.make_team(division, "ひたち会", affiliation="ひたち小")
    return event


@pytest.fixture
def organisers(event, django_user_model):
    one, two = (django_user_model.objects.create_user(name) for name in ("org1", "org2"))
    event.organisers.add(one, two)
    first, second = Client(), Client()
    first.force_login(one)
    second.force_login(two)
    return first, second


def form_data(response):
    """The posted values of the page's form as a browser would send them (inputs, checked boxes,
    chosen options, text areas)."""
    html = response.content.decode()
    form = html[html.index('<form method="post" novalidate') :]
    form = form[: form.index("</form>")]
    data = {}
    for tag in re.findall(r"<input[^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        if not name or name.group(1) == "csrfmiddlewaretoken":
            continue
        kind = re.search(r'type="([^"]+)"', tag)
        kind = kind.group(1) if kind else "text"
        value = re.search(r'value="([^"]*)"', tag)
        value = unescape(value.group(1)) if value else ""
        if kind in ("checkbox", "radio"):
            if " checked" in tag:
                data.setdefault(name.group(1), []).append(value) if kind == "checkbox" else data.update(
                    {name.group(1): value}
                )
            continue
        data[name.group(1)] = value
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', body)
        data[name] = unescape(chosen.group(1)) if chosen else ""
    for name, body in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S):
        data[name] = unescape(body.strip())
    return data


def test_a_stale_team_form_is_refused_and_both_versions_are_shown(event, organisers):
    first, second = organisers
    team = Team.objects.get()
    url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    mine, theirs = form_data(first.get(url)), form_data(second.get(url))
    assert mine["version"] == theirs["version"] == str(team.version)

    theirs["affiliation"] = "日立第一小"
    assert second.post(url, theirs).status_code == 302
    mine["name"] = "ひたち会A"
    response = first.post(url, mine)

    assert response.status_code == 409
    team.refresh_from_db()
    assert (team.name, team.affiliation) == ("ひたち会", "日立第一小")  # their save stands
    page = response.content.decode()
    assert "ひたち会A" in page and "日立第一小" in page
    rows = response.context["stale_rows"]
    by_label = {row["name"]: row for row in rows}
    assert by_label["name"]["saved"] == "ひたち会" and by_label["name"]["yours"] == "ひたち会A"
    assert by_label["affiliation"]["saved"] == "日立第一小"
    assert by_label["affiliation"]["yours"] == "ひたち小"
    assert by_label["affiliation"]["theirs"] and not by_label["name"]["theirs"]
    assert not by_label["p1_name"]["differs"]
    # Nothing lost: the form holds what was typed, based on the saved version now, merged field by
    # field: the affiliation, which only the other organiser changed, holds theirs (issue 28, item 7).
    again = form_data(response)
    assert again["name"] == "ひたち会A" and again["version"] == str(team.version)
    assert again["affiliation"] == "日立第一小"
    assert first.post(url, again).status_code == 302
    team.refresh_from_db()
    assert (team.name, team.affiliation) == ("ひたち会A", "日立第一小")


def test_a_field_both_organisers_changed_is_shown_and_holds_the_later_typing(event, organisers):
    first, second = organisers
    team = Team.objects.get()
    url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    mine, theirs = form_data(first.get(url)), form_data(second.get(url))
    theirs.update(chaperone="本部 花子", seed="2")
    assert second.post(url, theirs).status_code == 302
    mine.update(chaperone="菊池 陽翔", p1_name="新しい選手")
    response = first.post(url, mine)
    assert response.status_code == 409
    rows = {row["name"]: row for row in response.context["stale_rows"]}
    assert rows["chaperone"]["both"] and rows["seed"]["theirs"] and not rows["p1_name"]["both"]
    assert "both changed" in response.content.decode() or "両方" in response.content.decode()
    again = form_data(response)
    assert (again["chaperone"], again["seed"], again["p1_name"]) == ("菊池 陽翔", "2", "新しい選手")
    assert first.post(url, again).status_code == 302
    team.refresh_from_db()
    assert (team.chaperone, team.seed) == ("菊池 陽翔", 2)
    assert team.players.order_by("order").first().name == "新しい選手"


def test_a_page_without_its_opened_values_keeps_every_typed_field_and_asks(event, organisers):
    first, second = organisers
    team = Team.objects.get()
    url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    mine, theirs = form_data(first.get(url)), form_data(second.get(url))
    theirs["affiliation"] = "日立第一小"
    second.post(url, theirs)
    mine.pop("opened")
    response = first.post(url, mine)
    rows = {row["name"]: row for row in response.context["stale_rows"]}
    assert rows["affiliation"]["both"] and form_data(response)["affiliation"] == "ひたち小"


def test_the_stale_page_reads_in_japanese(event, organisers):
    first, second = organisers
    team = Team.objects.get()
    url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    mine = form_data(first.get(url))
    second.post(url, {**form_data(second.get(url)), "seed": "3"})
    response = first.post(url, mine, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 409
    assert "ほかの人が保存しました" in response.content.decode()


def test_each_save_moves_the_version_on(event, organisers):
    first, _second = organisers
    team = Team.objects.get()
    url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    for _ in range(2):
        assert first.post(url, form_data(first.get(url))).status_code == 302
    team.refresh_from_db()
    assert team.version == 3


def test_a_post_without_a_version_is_not_checked(event, organisers):
    """Scripts and old pages post no version: saved as before (as results with no base version)."""
    first, _second = organisers
    team = Team.objects.get()
    url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    data = form_data(first.get(url))
    del data["version"]
    Team.objects.filter(pk=team.pk).update(version=7)
    assert first.post(url, {**data, "name": "新しい名前"}).status_code == 302


@pytest.mark.parametrize(
    ("name", "url_name", "change", "saved_label"),
    [
        ("event", "tournament:event_edit", {"venue": "日立市民会館"}, "venue"),
        ("division", "tournament:division_edit", {"grade_band": "小1〜小3"}, "grade_band"),
        ("court", "tournament:court_edit", {"name": "第1コート"}, "name"),
    ],
)
def test_stale_event_division_and_court_forms_are_refused(event, organisers, name, url_name, change, saved_label):
    first, second = organisers
    row = {"event": event, "division": Division.objects.get(), "court": Court.objects.get(name="1")}[name]
    args = [event.slug] if name == "event" else [event.slug, row.pk]
    url = reverse(url_name, args=args)
    mine, theirs = form_data(first.get(url)), form_data(second.get(url))
    assert second.post(url, {**theirs, **change}).status_code == 302
    response = first.post(url, {**mine, "order": "9"} if name != "event" else {**mine, "edition": "12"})
    assert response.status_code == 409
    row.refresh_from_db()
    assert getattr(row, next(iter(change))) == next(iter(change.values()))
    by_label = {r["name"]: r for r in response.context["stale_rows"]}
    assert by_label[saved_label]["differs"]
    assert by_label[saved_label]["theirs"]
    again = form_data(response)
    assert first.post(url, again).status_code == 302
    row.refresh_from_db()
    assert row.version == 3
    # Merged field by field (issue 28, item 7): their change stays, mine is saved too.
    assert getattr(row, next(iter(change))) == next(iter(change.values()))
    assert (row.edition == 12) if name == "event" else (row.order == 9)


def test_the_saved_team_form_carries_its_version(event):
    team = Team.objects.get()
    Team.objects.filter(pk=team.pk).update(version=5)
    team.refresh_from_db()
    assert TeamForm.initial_for(team)["version"] == 5
    assert Event.objects.get().version == 1


def people_form(response):
    html = response.content.decode()
    return re.search(r'name="version" value="([^"]*)"', html).group(1)


def test_a_role_given_on_a_stale_people_page_is_refused_with_both_lists(event, organisers, django_user_model):
    first, second = organisers
    url = reverse("tournament:people", args=[event.slug])
    seen_first, seen_second = people_form(first.get(url)), people_form(second.get(url))
    assert seen_first == seen_second
    desk = django_user_model.objects.create_user("desk")
    assert second.post(url, {"username": "desk", "role": "recorder", "version": seen_second}).status_code == 302

    response = first.post(url, {"username": "org2", "role": "recorder", "password": "", "version": seen_first})
    assert response.status_code == 409
    assert not event.recorders.filter(username="org2").exists()
    rows = {row["name"]: row for row in response.context["stale_rows"]}
    assert rows["recorders"]["saved"] == "desk" and rows["recorders"]["yours"] == "org2"
    assert rows["organisers"]["saved"] == rows["organisers"]["yours"] == "org1, org2"
    # Nothing lost: the typed login name and role stay, on the saved roles' version now.
    form = response.context["form"]
    assert form["username"].value() == "org2" and form["role"].value() == "recorder"
    again = {"username": "org2", "role": "recorder", "version": people_form(response)}
    assert first.post(url, again).status_code == 302
    assert set(event.recorders.values_list("username", flat=True)) == {"desk", "org2"}
    assert desk in event.recorders.all()


def test_a_removal_on_a_stale_people_page_is_refused(event, organisers):
    first, second = organisers
    url = reverse("tournament:people", args=[event.slug])
    seen = people_form(first.get(url))
    org2 = event.organisers.get(username="org2")
    assert (
        second.post(
            url,
            {
                "username": "late",
                "role": "recorder",
                "password": "a-long-pass-42",
                "version": people_form(second.get(url)),
            },
        ).status_code
        == 302
    )
    response = first.post(url, {"remove": "1", "user": str(org2.pk), "version": seen})
    assert response.status_code == 409
    assert event.organisers.filter(pk=org2.pk).exists()
    rows = {row["name"]: row for row in response.context["stale_rows"]}
    assert rows["organisers"]["yours"] == "org1" and rows["organisers"]["saved"] == "org1, org2"
    assert rows["recorders"]["saved"] == "late"


def test_a_superusers_save_in_the_admin_makes_an_open_form_stale(event, organisers, django_user_model):
    first, _second = organisers
    team = Team.objects.get()
    url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    mine = form_data(first.get(url))

    admin = Client()
    admin.force_login(django_user_model.objects.create_superuser("root", password="x-karuta-9"))
    change = reverse("admin:tournament_team_change", args=[team.pk])
    page = admin.get(change)
    assert page.status_code == 200
    data = form_data_admin(page)
    data["affiliation"] = "日立第二小"
    assert admin.post(change, data).status_code == 302
    team.refresh_from_db()
    assert team.affiliation == "日立第二小" and team.version == int(mine["version"]) + 1

    mine["name"] = "ひたち会B"
    assert first.post(url, mine).status_code == 409  # not a silent undo of the admin's change
    team.refresh_from_db()
    assert (team.name, team.affiliation) == ("ひたち会", "日立第二小")


def form_data_admin(response):
    """The admin change form's fields as a browser would post them (the team's fields and its
    players' inline rows, with the management form)."""
    form = response.context["adminform"].form
    data = {name: form.initial.get(name, field.initial) for name, field in form.fields.items()}
    data = {name: ("" if value is None else getattr(value, "pk", value)) for name, value in data.items()}
    for formset in response.context["inline_admin_formsets"]:
        management = formset.formset.management_form
        for name in management.fields:
            data[f"{management.prefix}-{name}"] = management.initial.get(name, management[name].value())
        for inline in formset.formset.forms:
            for name, field in inline.fields.items():
                value = inline.initial.get(name, field.initial)
                value = "" if value is None else getattr(value, "pk", value)
                data[f"{inline.prefix}-{name}"] = ("on" if value else "") if isinstance(value, bool) else value
    return {key: value for key, value in data.items() if value is not False}
