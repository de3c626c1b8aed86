"""Every form round-trips (issue 27, item 2): each field filled with a valid value that is not its
default, saved through the view (the test client, as a browser posts it), then the edit form
opened again shows every value as typed; the page that shows the object and the API where it
appears show it too. Create and edit forms of the same object offer the same fields.

``test_every_form_class_is_in_the_table`` fails when a form class appears in the project that is
neither round-tripped here nor named, with its reason, as a form with nothing to keep.
"""

import datetime

import pytest
from django.urls import reverse

from tests.factories import make_division, make_event
from tests.surface.roundtrip_support import (
    form_with,
    lost_values,
    post_data,
    project_form_classes,
    shown_fields,
)
from tournament.models import Court, Division, Event, Team

pytestmark = pytest.mark.django_db

# Form class → the test of this file that round-trips it.
ROUND_TRIPS = {
    "tournament.forms.NewEventForm": "test_event_created_keeps_every_value",
    "tournament.forms.EventForm": "test_event_edited_keeps_every_value",
    "tournament.forms.DivisionForm": "test_division_keeps_every_value",
    "tournament.forms.CourtForm": "test_court_keeps_every_value",
    "tournament.forms.TeamForm": "test_team_keeps_every_value",
    "tournament.forms.PersonForm": "test_person_keeps_every_value",
    "tournament.views.announcements.AnnouncementForm": "test_announcement_keeps_every_value",
    "awards.forms.AwardSettingsForm": "test_award_settings_keep_every_value",
    "club_entry.forms.SettingsForm": "test_club_entry_settings_keep_every_value",
    "club_entry.forms.LinkForm": "test_club_link_keeps_every_value",
    "series.forms.SeriesForm": "test_series_keeps_every_value",
    "reader.forms.EditionForm": "test_deck_keeps_every_value",
    "reader.forms.CardForm": "test_card_keeps_every_value",
    "judging.forms.ResultForm": "test_referees_result_keeps_every_value",
    "club_entry.forms.ClubTeamForm": "test_club_team_keeps_every_value",
    "awards.forms.HandPrizeForm": "test_hand_prize_keeps_every_value",
    "series.forms.MemberForm": "test_series_member_keeps_every_value",
    "judging.forms.WalkoverForm": "test_walkover_keeps_every_value",
    "judging.forms.RejectForm": "test_reason_sent_back_is_kept",
    "judging.forms.RetypeForm": "test_blind_retyping_shows_what_was_typed",
    "judging.forms.PlayerCardsForm": "test_players_cards_keep_every_value",
    "reader.forms.CopyForm": "test_deck_copy_keeps_every_value",
    "judging.forms.DisputeForm": "test_dispute_keeps_every_value",
    "hanafuda.forms.SessionForm": "test_hanafuda_session_keeps_every_value",
    "tournament.forms.ProgrammeSettingsForm": "test_programme_texts_keep_every_value",
    "hanafuda.forms.RoundForm": "test_hanafuda_round_keeps_every_card",
    "dosai.forms.EditionForm": "test_dosai_edition_keeps_its_name_and_base",
    "dosai.forms.EditionNameForm": "test_dosai_edition_name_is_kept",
    "dosai.forms.SessionTitleForm": "test_dosai_session_title_is_kept",
    "dosai.forms.ValuesForm": "test_dosai_edition_values_are_kept",
    "dosai.forms.SessionForm": "test_dosai_session_keeps_every_value",
    "dosai.forms.NewHandForm": "test_dosai_new_hand_keeps_the_reader",
    "dosai.forms.LayoutForm": "test_dosai_layout_and_call_are_kept",
    "dosai.forms.CallForm": "test_dosai_layout_and_call_are_kept",
    "people.forms.DaySettingsForm": "test_day_settings_keep_every_value",
    "people.forms.RoleForm": "test_day_role_keeps_every_value",
    "people.forms.RefereeForm": "test_referee_keeps_every_value",
    "webhooks.forms.WebhookSettingsForm": "test_webhook_settings_keep_every_value",
}

# Form classes with nothing a person types that is stored to be shown again, and why.
NOTHING_TO_KEEP = {
    "tournament.forms.VersionedForm": "a base class: its hidden version is checked by every edit form's save",
    "series.forms._FileForm": "a base class of the two upload forms",
    "tournament.forms.AccountRoleForm": "a base class of the two role forms (PersonForm, people RoleForm), each round-tripped",
    "tournament.forms.ImportForm": "an uploaded entry workbook: its rows become teams (tests/tournament import tests)",
    "series.forms.KeyUploadForm": "an uploaded key file, checked and stored, never shown back",
    "series.forms.ResultsUploadForm": "an uploaded results file: previewed, then imported",
    "series.forms.ExportForm": "what to put in a download: nothing stored",
    "series.forms.MergeForm": "an action: merges two spellings of a club",
    "reader.forms.DeckImportForm": "an uploaded card list: its rows become cards",
    "reader.forms.RecordingForm": "an uploaded audio file, checked and stored as audio",
    "dosai.forms.ConfirmForm": "a confirmation tick",
    "dosai.forms.DeleteSessionForm": "a confirmation tick before a deletion",
    "club_entry.forms.ConsentForm": "a consent tick before a club's first save",
    "judging.forms.TabletReportForm": "a tablet's report sent by the page's script (no person types it)",
}

# Form classes not round-tripped yet: each one here is a gap, not a pass (issue 27, item 2).
NOT_YET: dict[str, str] = {}


def test_every_form_class_is_in_the_table():
    found = set(project_form_classes())
    listed = set(ROUND_TRIPS) | set(NOTHING_TO_KEEP) | set(NOT_YET)
    assert not found - listed, f"form classes without a round trip or a reason: {sorted(found - listed)}"
    assert not listed - found, f"the table names form classes that are gone: {sorted(listed - found)}"
    assert not set(ROUND_TRIPS) & set(NOT_YET)
    names = set(globals())
    assert all(test in names for test in ROUND_TRIPS.values())


@pytest.fixture
def organiser(client, django_user_model):
    from django.contrib.auth.models import Permission

    user = django_user_model.objects.create_user("organiser")
    user.user_permissions.add(Permission.objects.get(codename="add_event"))
    client.force_login(user)
    return user


NEXT_YEAR = datetime.date.today().year + 1

# Every field of the event form, none at its default (the model's defaults: 9:30, 15 and 5
# minutes, 56 cards, no lunch, leaders' sign-off on, the other switches off, public).
EVENT_TYPED = {
    "name": "ひたち郷土かるた大会",
    "edition": "23",
    "slug": "hitachi-roundtrip",
    "date": f"{NEXT_YEAR}-01-18",
    "venue": "多賀市民プラザ",
    "start_time": "09:10",
    "game_minutes": "12",
    "changeover_minutes": "4",
    "lunch_start": "12:00",
    "lunch_end": "12:45",
    "card_total": "48",
    "auto_confirm": True,
    "leaders_sign_off": False,
    "recorders_confirm_own": True,
    "individual_counts": True,
    "japanese_era": True,
    "publish_names": True,
    "visibility": "archived",
}


def _assert_event_kept(client, event, typed):
    edit = client.get(reverse("tournament:event_edit", args=[event.slug])).content.decode()
    form = form_with(edit, "lunch_start")
    assert not lost_values(form, typed)
    card = client.get(event.get_absolute_url()).content.decode()
    assert "昼休み 12:00〜12:45" in card  # the lunch on the event's card
    assert card.count("<strong>する</strong>") == sum(1 for v in typed.values() if v is True)
    assert card.count("<strong>しない</strong>") == sum(1 for v in typed.values() if v is False)
    api = client.get(reverse("api:events")).json()["events"]
    listed = {e["slug"]: e for e in api}
    assert listed[event.slug]["venue"] == typed["venue"] and listed[event.slug]["date"] == typed["date"]
    assert listed[event.slug]["archived"] is (typed["visibility"] == "archived")


def test_event_created_keeps_every_value(client, organiser):
    create_page = client.get(reverse("tournament:event_list")).content.decode()
    create_form = form_with(create_page, "court_count")
    response = client.post(reverse("tournament:event_list"), post_data({**EVENT_TYPED, "court_count": "3"}))
    assert response.status_code == 302, response.context["form"].errors if response.context else response
    event = Event.objects.get(slug=EVENT_TYPED["slug"])
    _assert_event_kept(client, event, EVENT_TYPED)
    # The create form offers every field of the edit form (and the number of courts).
    edit_form = form_with(client.get(reverse("tournament:event_edit", args=[event.slug])).content.decode(), "name")
    assert shown_fields(create_form) - {"court_count"} == shown_fields(edit_form)
    assert set(EVENT_TYPED) == shown_fields(edit_form)
    assert event.courts.count() == 3


def test_event_edited_keeps_every_value(client, organiser):
    event = make_event(slug="hitachi-roundtrip", auto_confirm=False)
    event.organisers.add(organiser)
    url = reverse("tournament:event_edit", args=[event.slug])
    form = form_with(client.get(url).content.decode(), "name")
    typed = {**EVENT_TYPED, "version": form["values"]["version"][0]}
    response = client.post(url, post_data(typed))
    assert response.status_code == 302, response.context["form"].errors
    typed.pop("version")
    _assert_event_kept(client, Event.objects.get(pk=event.pk), typed)


def test_new_event_refuses_a_lunch_it_cannot_keep_naming_the_field(client, organiser):
    response = client.post(
        reverse("tournament:event_list"), post_data({**EVENT_TYPED, "lunch_end": "", "court_count": "3"})
    )
    assert response.status_code == 200 and "lunch_end" in response.context["form"].errors
    assert not Event.objects.filter(slug=EVENT_TYPED["slug"]).exists()


DIVISION_TYPED = {
    "name": "中学生の部",
    "grade_band": "中1〜中3",
    "order": "3",
    "layout": "shared",
    "rest_rule": True,
    "games_per_team": "3",
    "walkover_cards": "exclude",
    "withdrawal": "walkover",
    "qualifiers_per_group": "2",
    "best_runners_up": "0",
    "third_place_game": False,
    "after_groups": "placement",
    "placement_pairs": "",
    "preset": "custom",
    "criterion_1": "wins",
    "criterion_2": "head_to_head",
    "criterion_3": "cards_taken",
    "criterion_4": "card_diff",
    "criterion_5": "lot",
}


def test_division_keeps_every_value(client, organiser):
    event = make_event(slug="div-roundtrip")
    event.organisers.add(organiser)
    courts = list(event.courts.order_by("order"))
    typed = {**DIVISION_TYPED, "courts": [str(courts[1].pk), str(courts[3].pk)]}
    add_url = reverse("tournament:division_add", args=[event.slug])
    add_form = form_with(client.get(add_url).content.decode(), "name")
    response = client.post(add_url, post_data(typed))
    assert response.status_code == 302, response.context["form"].errors
    division = Division.objects.get(event=event)
    edit_url = reverse("tournament:division_edit", args=[event.slug, division.pk])
    form = form_with(client.get(edit_url).content.decode(), "name")
    assert not lost_values(form, typed)
    assert shown_fields(add_form) == shown_fields(form) == set(typed)
    # Edited again with other values: kept too.
    again = {**typed, "name": "一般の部", "order": "4", "rest_rule": False, "courts": [str(courts[0].pk)]}
    again["version"] = form["values"]["version"][0]
    assert client.post(edit_url, post_data(again)).status_code == 302
    again.pop("version")
    assert not lost_values(form_with(client.get(edit_url).content.decode(), "name"), again)
    assert "一般の部" in client.get(event.get_absolute_url()).content.decode()


COURT_TYPED = {"name": "A", "order": "7", "start_time": "10:20"}


def test_court_keeps_every_value(client, organiser):
    event = make_event(slug="court-roundtrip", courts=0)
    event.organisers.add(organiser)
    make_division(event)
    add_url = reverse("tournament:court_add", args=[event.slug])
    add_form = form_with(client.get(add_url).content.decode(), "name")
    response = client.post(add_url, post_data(COURT_TYPED))
    assert response.status_code == 302, response.context["form"].errors
    court = Court.objects.get(event=event)
    edit_url = reverse("tournament:court_edit", args=[event.slug, court.pk])
    form = form_with(client.get(edit_url).content.decode(), "name")
    assert not lost_values(form, COURT_TYPED)
    assert shown_fields(add_form) == shown_fields(form) == set(COURT_TYPED)
    assert "A" in client.get(event.get_absolute_url()).content.decode()


TEAM_TYPED = {
    "name": "日立第一",
    "affiliation": "日立市立中小学校",
    "chaperone": "山田花子",
    "seed": "2",
    "leader": "3",
    "p1_name": "佐藤一郎",
    "p1_furigana": "さとういちろう",
    "p1_grade": "小4",
    "p2_name": "鈴木二郎",
    "p2_furigana": "すずきじろう",
    "p2_grade": "小5",
    "p3_name": "高橋三郎",
    "p3_furigana": "たかはしさぶろう",
    "p3_grade": "小6",
    "p4_name": "田中四郎",
    "p4_furigana": "たなかしろう",
    "p4_grade": "小3",
    "p5_name": "伊藤五郎",
    "p5_furigana": "いとうごろう",
    "p5_grade": "小2",
}


def test_team_keeps_every_value(client, organiser):
    event = make_event(slug="team-roundtrip")
    event.organisers.add(organiser)
    make_division(event)
    other = make_division(event, name="中学生の部")
    typed = {**TEAM_TYPED, "division": str(other.pk)}
    add_url = reverse("tournament:team_add", args=[event.slug])
    add_form = form_with(client.get(add_url).content.decode(), "p1_name")
    response = client.post(add_url, post_data(typed))
    assert response.status_code == 302, response.context["form"].errors
    team = Team.objects.get(division__event=event)
    edit_url = reverse("tournament:team_edit", args=[event.slug, team.pk])
    form = form_with(client.get(edit_url).content.decode(), "p1_name")
    assert not lost_values(form, typed)
    assert shown_fields(add_form) == shown_fields(form) == set(typed)
    listed = client.get(reverse("tournament:team_list", args=[event.slug])).content.decode()
    assert "日立第一" in listed and "日立市立中小学校" in listed


def test_person_keeps_every_value(client, organiser, django_user_model):
    event = make_event(slug="people-roundtrip")
    event.organisers.add(organiser)
    url = reverse("tournament:people", args=[event.slug])
    form = form_with(client.get(url).content.decode(), "username")
    assert shown_fields(form) == {"username", "password", "role"}
    typed = {"username": "kiroku-2", "password": "karuta-roundtrip-9", "role": "recorder"}
    response = client.post(url, {**typed, "version": form["values"]["version"][0]})
    assert response.status_code == 302
    # Shown again where it belongs: the login name under the recorders; the password works
    # (it is never shown back: a password field keeps nothing on the page, by design).
    event.refresh_from_db()
    assert list(event.recorders.values_list("username", flat=True)) == ["kiroku-2"]
    assert "kiroku-2" in client.get(url).content.decode()
    assert django_user_model.objects.get(username="kiroku-2").check_password("karuta-roundtrip-9")


def test_announcement_keeps_every_value(client, organiser):
    from tournament.models import Announcement

    event = make_event(slug="hall-roundtrip")
    event.organisers.add(organiser)
    url = reverse("tournament:announcements", args=[event.slug])
    form = form_with(client.get(url).content.decode(), "text")
    assert shown_fields(form) == {"text", "minutes"}
    typed = {"text": "第3コートへ集合：日立第一", "minutes": "7"}
    assert client.post(url, typed).status_code == 302
    saved = Announcement.objects.get(event=event)
    assert saved.text == typed["text"]
    assert saved.shown_until - saved.shown_from == datetime.timedelta(minutes=7)
    assert typed["text"] in client.get(url).content.decode()
    state = client.get(reverse("tournament:display_state", args=[event.slug])).content.decode()
    assert typed["text"] in state


AWARD_TYPED = {
    "paper_size": "B5",
    "orientation": "landscape",
    "margin_top": "21.5",
    "margin_right": "18.0",
    "margin_bottom": "22.5",
    "margin_left": "19.0",
    "offset_x": "1.5",
    "offset_y": "-2.0",
    "draw_frame": True,
    "per": "team",
    "include_substitutes": True,
    "honorific": "様",
    "title": "表彰状",
    "body": "あなたは{event}{division}において{place}となりました",
    "kanji_numerals": False,  # on by default: unticking it must be kept
    "award_date": f"{NEXT_YEAR}-01-18",
    "issuers": "ひたち郷土かるた大会実行委員会 会長 | 日立 太郎",
    "places_up_to": "4",
    "individual_by": "grade",
    "individual_name": "最多枚数賞",
    "ceremony_order": "highest_first",
}


def test_award_settings_keep_every_value(client, organiser):
    event = make_event(slug="awards-roundtrip")
    event.organisers.add(organiser)
    url = reverse("awards:settings", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "paper_size")
    assert shown_fields(opened) == set(AWARD_TYPED)
    response = client.post(url, post_data(AWARD_TYPED))
    assert response.status_code == 302, response.context["form"].errors
    assert not lost_values(form_with(client.get(url).content.decode(), "paper_size"), AWARD_TYPED)


WEBHOOK_TYPED = {
    "enabled": True,
    "kind": "url",
    "url": "https://club.example.jp/karuta-hook",
    "line_to": "C" + "0123456789abcdef" * 2,
    "send_results": False,
    "send_calls": True,
}


def test_webhook_settings_keep_every_value(client, organiser):
    """Every field comes back but the secret: a password box is never filled back (issue 35)."""
    event = make_event(slug="webhook-roundtrip")
    event.organisers.add(organiser)
    url = reverse("webhooks:settings", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "line_to")
    assert shown_fields(opened) == set(WEBHOOK_TYPED) | {"secret", "clear_secret"}
    secret = "a-signing-secret-0123456789"
    response = client.post(url, {**post_data(WEBHOOK_TYPED), "secret": secret})
    assert response.status_code == 302, response.context["form"].errors
    page = client.get(url).content.decode()
    assert not lost_values(form_with(page, "line_to"), WEBHOOK_TYPED)
    assert secret not in page


def test_club_entry_settings_keep_every_value(client, organiser):
    from django.utils import timezone

    event = make_event(slug="clubs-roundtrip", date=timezone.localdate() + datetime.timedelta(days=30))
    event.organisers.add(organiser)
    url = reverse("club_entry:links", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "consent_note")
    deadline = (timezone.localdate() + datetime.timedelta(days=20)).isoformat() + "T18:30"
    typed = {"deadline": deadline, "locked": True, "consent_note": "保護者の同意を得てから入力してください。"}
    assert shown_fields(opened) - {"action"} == set(typed)
    response = client.post(url, {**post_data(typed), "action": "settings", "version": opened["values"]["version"][0]})
    assert response.status_code == 302, response.context and response.context["settings_form"].errors
    assert not lost_values(form_with(client.get(url).content.decode(), "consent_note"), typed)


def test_club_link_keeps_every_value(client, organiser):
    from club_entry.models import ClubLink

    event = make_event(slug="link-roundtrip")
    event.organisers.add(organiser)
    url = reverse("club_entry:links", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "contact_name")
    typed = {"club": "日立市立中小学校", "contact_name": "山田花子", "contact": "0294-00-0000"}
    assert shown_fields(opened) - {"action"} == set(typed)
    response = client.post(url, {**typed, "action": "add"})
    assert response.status_code in (200, 302)
    link = ClubLink.objects.get(event=event)
    assert (link.club, link.contact_name, link.contact) == tuple(typed.values())
    page = client.get(url).content.decode()
    assert all(value in page for value in typed.values())


def test_series_keeps_every_value(client, organiser):
    make_event(slug="series-member").organisers.add(organiser)  # an organiser may make a series
    typed = {
        "slug": "hitachi-cup",
        "name": "ひたち郷土かるたシリーズ",
        "season": str(NEXT_YEAR),
        "points_table": "12,8,6,4",
    }
    create_url = reverse("series:series_list")
    created = form_with(client.get(create_url).content.decode(), "points_table")
    assert shown_fields(created) == set(typed)
    assert client.post(create_url, typed).status_code == 302
    edit_url = reverse("series:series_edit", args=[typed["slug"]])
    edit = form_with(client.get(edit_url).content.decode(), "points_table")
    # The edit form offers every field but the short name, which is the series' address (its
    # pages, its key file and the results files name it) and is fixed once made.
    assert shown_fields(edit) == set(typed) - {"slug"}
    assert not lost_values(edit, {k: v for k, v in typed.items() if k != "slug"})
    again = {"name": "ひたちシリーズ", "season": str(NEXT_YEAR + 1), "points_table": "9,6,3"}
    assert client.post(edit_url, again).status_code == 302
    assert not lost_values(form_with(client.get(edit_url).content.decode(), "points_table"), again)


def test_deck_keeps_every_value(client, organiser):
    event = make_event(slug="deck-event", name="デッキの大会")
    event.organisers.add(organiser)
    typed = {
        "name": "クラブ練習用",
        "slug": "club-practice",
        "source": "ひたち郷土かるた 読み札集（2020）",
        "event": str(event.pk),
    }
    url = reverse("reader:deck_list")
    opened = form_with(client.get(url).content.decode(), "source")
    assert shown_fields(opened) == set(typed)
    assert client.post(url, typed).status_code == 302
    from reader.models import DeckEdition

    deck = DeckEdition.objects.get(slug="club-practice")
    assert (deck.name, deck.source, deck.event_id) == (typed["name"], typed["source"], event.pk)
    page = client.get(reverse("reader:deck_detail", args=[deck.slug])).content.decode()
    assert typed["name"] in page and typed["source"] in page


def test_card_keeps_every_value(client, organiser):
    from reader.models import Card, DeckEdition

    event = make_event(slug="card-event")
    event.organisers.add(organiser)
    deck = DeckEdition.objects.create(slug="club-cards", name="クラブの札", owner=organiser, event=event)
    typed = {
        "head_kana": "ひ",
        "text": "日立の海に朝日がのぼる",
        "furigana": "ひたちのうみにあさひがのぼる",
        "is_joker": True,
        "order": "9",
    }
    add_url = reverse("reader:card_add", args=[deck.slug])
    added = form_with(client.get(add_url).content.decode(), "head_kana")
    response = client.post(add_url, post_data(typed))
    assert response.status_code == 302, response.context["form"].errors
    card = Card.objects.get(edition=deck)
    edit_url = reverse("reader:card_edit", args=[deck.slug, card.pk])
    edit = form_with(client.get(edit_url).content.decode(), "head_kana")
    assert not lost_values(edit, typed)
    assert shown_fields(added) == shown_fields(edit) == set(typed)


# Level cards with 「り」 at the referee: the じゃんけん winner decides (docs/rules/hitachi-karuta.md).
RESULT_TYPED = {
    "cards_a": "26",
    "cards_b": "26",
    "referee_cards": "4",
    "joker_holder": "referee",
    "rps_winner": "B",
    "rps_used": "2",
}


def _one_game(organiser, slug, **fields):
    from tests.factories import make_teams
    from tournament.services.draw import draw_groups
    from tournament.services.schedule import make_schedule

    event = make_event(slug=slug, courts=1, auto_confirm=False, **fields)
    event.organisers.add(organiser)
    division = make_division(event, courts=[1])
    make_teams(division, 2)
    draw_groups(event, seed=1)
    make_schedule(event)
    return event, event.matches.get()


def test_referees_result_keeps_every_value(client, organiser):
    event, match = _one_game(organiser, "result-roundtrip")
    court = match.court
    client.logout()  # the court link is the credential
    url = reverse("judging:court_entry", args=[court.token, match.match_number])
    opened = form_with(client.get(url).content.decode(), "cards_a")
    assert set(RESULT_TYPED) <= shown_fields(opened)
    keys = {"base_version": opened["values"]["base_version"][0], "submission_key": "roundtrip-1"}
    assert client.post(url, {**RESULT_TYPED, **keys}).status_code == 302
    reopened = form_with(client.get(url).content.decode(), "cards_a")
    assert not lost_values(reopened, RESULT_TYPED)
    # The recorders' desk opens the same version with the same values.
    client.force_login(organiser)
    desk = client.get(reverse("judging:match_detail", args=[event.slug, match.match_number])).content.decode()
    assert not lost_values(form_with(desk, "cards_a"), RESULT_TYPED)


def test_club_team_keeps_every_value(client):
    from django.utils import timezone

    from club_entry import services as club_services

    event = make_event(slug="club-team-roundtrip", date=timezone.localdate() + datetime.timedelta(days=30))
    make_division(event)
    other = make_division(event, name="中学生の部")
    link = club_services.create_link(event, "日立市立中小学校")
    club_services.give_consent(link)
    typed = {k: v for k, v in TEAM_TYPED.items() if k not in ("affiliation", "seed")}
    typed["division"] = str(other.pk)
    add_url = reverse("club_entry:team_add", args=[link.token])
    added = form_with(client.get(add_url).content.decode(), "p1_name")
    response = client.post(add_url, post_data(typed))
    assert response.status_code == 302, response.context and response.context["form"].errors
    team = Team.objects.get(division__event=event)
    assert team.affiliation == "日立市立中小学校"  # fixed to the club's: the form does not offer it
    edit_url = reverse("club_entry:team_edit", args=[link.token, team.pk])
    edit = form_with(client.get(edit_url).content.decode(), "p1_name")
    assert not lost_values(edit, typed)
    assert shown_fields(added) - {"accept_warnings"} == shown_fields(edit) - {"accept_warnings"} == set(typed)


def test_hand_prize_keeps_every_value(client, organiser):
    from awards.models import HandPrize
    from tests.factories import make_teams

    event = make_event(slug="prize-roundtrip")
    event.organisers.add(organiser)
    division = make_division(event)
    make_teams(division, 2)
    team = division.teams.order_by("entry_number").last()
    player = team.players.order_by("order").last()
    desk = reverse("awards:desk", args=[event.slug])
    opened = form_with(client.get(desk).content.decode(), "player")
    typed = {"name": "敢闘賞", "team": str(team.pk), "player": str(player.pk)}
    assert shown_fields(opened) == set(typed)
    assert client.post(reverse("awards:add_prize", args=[event.slug]), typed).status_code == 302
    prize = HandPrize.objects.get(event=event)
    assert (prize.name, prize.team_id, prize.player_id) == ("敢闘賞", team.pk, player.pk)
    page = client.get(desk).content.decode()
    assert "敢闘賞" in page and player.name in page


def test_series_member_keeps_every_value(client, organiser):
    from series.models import SeriesEvent

    event = make_event(slug="member-event", name="北部予選大会")
    event.organisers.add(organiser)
    series = {"slug": "hitachi-cup", "name": "ひたちシリーズ", "season": "2027", "points_table": "10,7,5"}
    assert client.post(reverse("series:series_list"), series).status_code == 302
    url = reverse("series:series_events", args=["hitachi-cup"])
    opened = form_with(client.get(url).content.decode(), "district")
    typed = {"event": str(event.pk), "role": "qualifier", "district": "北部"}
    assert shown_fields(opened) - {"action"} == set(typed)
    response = client.post(url, {**typed, "action": "add"} if "action" in opened["names"] else typed)
    assert response.status_code == 302
    member = SeriesEvent.objects.get(series__slug="hitachi-cup")
    assert (member.event_id, member.role, member.district) == (event.pk, "qualifier", "北部")
    assert "北部" in client.get(url).content.decode()


def test_walkover_keeps_every_value(client, organiser):
    event, match = _one_game(organiser, "walkover-roundtrip")
    client.logout()
    url = reverse("judging:court_entry", args=[match.court.token, match.match_number])
    opened = form_with(client.get(url).content.decode(), "absent_side")
    keys = {"base_version": opened["values"]["base_version"][0], "submission_key": "walkover-1"}
    typed = {"absent_side": "B"}  # not the first choice
    assert client.post(url, {**typed, **keys, "action": "walkover"}).status_code == 302
    match.refresh_from_db()
    assert match.sheets.get().winner_side == "A"
    assert not lost_values(form_with(client.get(url).content.decode(), "absent_side"), typed)


def _entered(client, match, values, key):
    """The referee enters ``values`` on the court link (no login: the token is the credential)."""
    client.logout()
    url = reverse("judging:court_entry", args=[match.court.token, match.match_number])
    opened = form_with(client.get(url).content.decode(), "cards_a")
    keys = {"base_version": opened["values"]["base_version"][0], "submission_key": key}
    response = client.post(url, {**values, **keys})
    assert response.status_code == 302, response.context and response.context["form"].errors
    return url


PLAYED = {
    "cards_a": "30",
    "cards_b": "26",
    "referee_cards": "0",
    "joker_holder": "A",
    "rps_winner": "",
    "rps_used": "0",
}


def test_reason_sent_back_is_kept(client, organiser):
    event, match = _one_game(organiser, "reject-roundtrip")
    _entered(client, match, PLAYED, "reject-1")
    client.force_login(organiser)
    desk = reverse("judging:match_detail", args=[event.slug, match.match_number])
    form = form_with(client.get(desk).content.decode(), "reason")
    assert shown_fields(form) == {"reason"}
    reject = dict(form["attrs"])["action"]  # the form posts to the button's own address
    assert reject == reverse("judging:match_reject", args=[event.slug, match.match_number])
    reason = "Bの枚数が用紙と違います。もう一度数えてください。"
    assert client.post(reject, {"version": "1", "reason": reason}).status_code == 302
    client.logout()
    home = client.get(reverse("judging:court_home", args=[match.court.token])).content.decode()
    assert reason in home
    # A reason longer than the field keeps is refused naming the field, never saved empty.
    client.force_login(organiser)
    _entered(client, match, {**PLAYED, "cards_a": "31", "cards_b": "25"}, "reject-2")
    client.force_login(organiser)
    page = client.post(reject, {"version": "2", "reason": "長" * 301}, follow=True).content.decode()
    assert "理由" in page and "何も変更していません" in page
    from judging.models import RecordingSheet

    assert RecordingSheet.objects.get(match=match, version=2).is_confirmed is False
    match.refresh_from_db()
    assert match.status == match.Status.SUBMITTED  # not sent back


def test_blind_retyping_shows_what_was_typed(client, organiser):
    event, match = _one_game(organiser, "retype-roundtrip")
    _entered(client, match, PLAYED, "retype-1")
    client.force_login(organiser)
    desk = reverse("judging:match_detail", args=[event.slug, match.match_number])
    form = form_with(client.get(desk).content.decode(), "retype-cards_a")
    assert {f"retype-{k}" for k in PLAYED} <= shown_fields(form)
    retype = dict(form["attrs"])["action"]  # the form posts to the button's own address
    assert retype == reverse("judging:match_retype", args=[event.slug, match.match_number])
    # Differing: the page names each field with the entry's value and the value typed.
    typed = {f"retype-{k}": v for k, v in {**PLAYED, "cards_a": "29", "cards_b": "27"}.items()}
    page = client.post(retype, {**typed, "version": "1"}, follow=True).content.decode()
    assert "30" in page and "29" in page and "27" in page
    match.refresh_from_db()
    assert match.status != match.Status.CONFIRMED
    # Matching: confirmed with the values typed.
    typed = {f"retype-{k}": v for k, v in PLAYED.items()}
    client.post(retype, {**typed, "version": "1"})
    sheet = match.sheets.get(version=1)
    assert sheet.is_confirmed and (sheet.cards_a, sheet.cards_b) == (30, 26)


def test_players_cards_keep_every_value(client, organiser):
    event, match = _one_game(organiser, "players-roundtrip", individual_counts=True)
    client.logout()
    url = reverse("judging:court_entry", args=[match.court.token, match.match_number])
    opened = form_with(client.get(url).content.decode(), "cards_a")
    fields = sorted(n for n in opened["names"] if n.startswith("player_"))
    a = [f"player_{p.pk}" for p in match.team_a.players.order_by("order")]
    b = [f"player_{p.pk}" for p in match.team_b.players.order_by("order")]
    assert fields == sorted(a + b)
    counts = {a[0]: "12", a[1]: "10", a[2]: "8", b[0]: "9", b[1]: "9", b[2]: "8"}
    _entered(client, match, {**PLAYED, **counts}, "players-1")
    reopened = form_with(client.get(url).content.decode(), "cards_a")
    blanks = {name: "" for name in a + b if name not in counts}
    assert not lost_values(reopened, {**counts, **blanks})


def test_deck_copy_keeps_every_value(client, organiser):
    from reader.models import DeckEdition

    event = make_event(slug="copy-event")
    event.organisers.add(organiser)
    deck = DeckEdition.objects.create(slug="club-original", name="元の札", owner=organiser, event=event)
    detail = client.get(reverse("reader:deck_detail", args=[deck.slug])).content.decode()
    opened = form_with(detail, "slug")
    typed = {"name": "クラブの写し", "slug": "club-copy"}
    assert shown_fields(opened) == set(typed)
    response = client.post(reverse("reader:deck_copy", args=[deck.slug]), typed)
    assert response.status_code == 302
    copy = DeckEdition.objects.get(slug="club-copy")
    assert copy.name == "クラブの写し"
    assert "クラブの写し" in client.get(reverse("reader:deck_detail", args=[copy.slug])).content.decode()


def test_dispute_keeps_every_value(client, organiser):
    from judging.models import Dispute

    event, match = _one_game(organiser, "dispute-roundtrip")
    client.logout()
    url = reverse("judging:court_dispute", args=[match.court.token, match.match_number])
    opened = form_with(client.get(url).content.decode(), "underneath")
    assert {"underneath", "state_a", "state_b"} <= shown_fields(opened)
    # The table path: A touched the correct card only, B a wrong one only: A takes it.
    typed = {"underneath": "none", "state_a": "correct_only", "state_b": "wrong_only"}
    assert client.post(url, {**typed, "submission_key": "dispute-1"}).status_code == 302
    logged = Dispute.objects.get(match=match)
    assert (logged.underneath, logged.state_a, logged.state_b, logged.taken_by) == (
        "",
        "correct_only",
        "wrong_only",
        "A",
    )
    # The hand underneath: B's, and B takes the card whatever the table says.
    typed = {"underneath": "B"}
    assert client.post(url, {**typed, "submission_key": "dispute-2"}).status_code == 302
    second = Dispute.objects.filter(match=match).order_by("pk").last()
    assert (second.underneath, second.taken_by) == ("B", "B")


def _other_choice(field, default):
    """A choice of ``field`` that is not ``default`` (its value as posted)."""
    return next(str(value) for value, _label in field.choices if str(value) not in (str(default), ""))


def test_hanafuda_session_keeps_every_value(client, organiser):
    from hanafuda.engine.options import DEFAULT_OPTIONS
    from hanafuda.forms import SessionForm
    from hanafuda.models import Session

    form = SessionForm()
    typed = {
        "title": "月例会 二月",
        "kind": "two_teams",
        "team_a_1": "佐藤",
        "team_a_2": "鈴木",
        "team_b_1": "高橋",
        "team_b_2": "田中",
        "rounds": "6",
        "first_dealer": "1",
        "first_partner": "1",
        "sun_rule": True,
        "insta_win_value": "7",
        "payment_cap": "9",
        "misdeal_four_in_hand": True,
        "any_card_of_month": [str(form.fields["any_card_of_month"].choices[0][0])],
    }
    defaults = DEFAULT_OPTIONS.as_dict()
    for name in SessionForm.OPTION_FIELDS:
        if name not in typed and isinstance(form.fields[name], type(form.fields["kind"])):
            typed[name] = _other_choice(form.fields[name], defaults[name])
    url = reverse("hanafuda:session_create")
    response = client.post(url, post_data(typed))
    assert response.status_code == 302, response.context["form"].errors
    session = Session.objects.get(title="月例会 二月")
    stored = session.options
    for name in SessionForm.OPTION_FIELDS:
        want = typed.get(name, False)
        if isinstance(want, bool):
            assert stored[name] is want, name
        elif isinstance(want, list):
            assert sorted(stored[name]) == sorted(want), name
        else:
            assert str(stored[name]) == want, name
    assert stored["rounds"] == 6 and (session.first_dealer, session.first_partner) == (1, 1)
    page = client.get(reverse("hanafuda:session_detail", args=[session.pk])).content.decode()
    assert all(typed[n] in page for n in ("title", "team_a_1", "team_a_2", "team_b_1", "team_b_2"))


PROGRAMME_TYPED = {
    "title": "第二十三回 ひたち郷土かるた大会",
    "organiser": "日立市子ども会育成連合会",
    "supporters": "日立市教育委員会\n日立市文化協会",
    "notes": "会場内は上履きで。\n試合中は静かに。",
}


def test_programme_texts_keep_every_value(client, organiser):
    event = make_event(slug="programme-roundtrip")
    event.organisers.add(organiser)
    menu = reverse("tournament:print_menu", args=[event.slug])
    response = client.post(reverse("tournament:programme_texts", args=[event.slug]), post_data(PROGRAMME_TYPED))
    assert response.status_code == 302
    form = form_with(client.get(menu).content.decode(), "organiser")
    assert not lost_values(form, PROGRAMME_TYPED)
    assert shown_fields(form) == set(PROGRAMME_TYPED)


def test_hanafuda_three_player_session_keeps_every_value(client, organiser):
    """Three players, every house rule off its default, the team rules too (issue 27: they were
    reset for three players): all stored as chosen; the team's first partner needs a team."""
    from hanafuda.engine.options import DEFAULT_OPTIONS
    from hanafuda.forms import SessionForm
    from hanafuda.models import Session

    form = SessionForm()
    typed = {
        "title": "三人の会",
        "kind": "three_players",
        "player_1": "一郎",
        "player_2": "二郎",
        "player_3": "三郎",
        "rounds": "3",
        "first_dealer": "2",
        "insta_win_value": "9",
        "payment_cap": "12",
        "misdeal_four_in_hand": True,
        "any_card_of_month": [str(c) for c, _label in form.fields["any_card_of_month"].choices[:2]],
    }
    defaults = DEFAULT_OPTIONS.as_dict()
    for name in SessionForm.OPTION_FIELDS:
        if name not in typed and isinstance(form.fields[name], type(form.fields["kind"])):
            typed[name] = _other_choice(form.fields[name], defaults[name])
    if typed.get("storm") not in (None, "off"):
        typed["sun_rule"] = True
    response = client.post(reverse("hanafuda:session_create"), post_data(typed))
    assert response.status_code == 302, response.context["form"].errors
    session = Session.objects.get(title="三人の会")
    for name in SessionForm.OPTION_FIELDS:
        want, stored = typed.get(name, False), session.options[name]
        if isinstance(want, bool):
            assert stored is want, name
        elif isinstance(want, list):
            assert sorted(stored) == sorted(want), name
        else:
            assert str(stored) == want, name
    assert session.options["rounds"] == 3 and session.first_dealer == 2 and session.sides == ["一郎", "二郎", "三郎"]


def _dosai_session(owner, **kw):
    from tests.dosai.factories import make_session

    return make_session(owner, **kw)


def test_dosai_edition_keeps_its_name_and_base(client, organiser):
    from dosai.models import ClubEdition

    typed = {"name": "山城屋の札", "base": "blank"}
    url = reverse("dosai:edition_new")
    key = client.get(url).context["creation_key"]
    response = client.post(url, {**typed, "creation_key": key})
    assert response.status_code == 302
    club = ClubEdition.objects.get(name="山城屋の札")
    assert club.base == "blank"
    page = client.get(response.url).content.decode()
    assert not lost_values(form_with(page, "name"), {"name": typed["name"]})
    assert str(club.get_base_display()) in page


def test_dosai_edition_name_is_kept(client, organiser):
    from dosai.models import ClubEdition

    club = ClubEdition.objects.create(owner=organiser, name="松井", base="matsui")
    response = client.post(reverse("dosai:edition_rename", args=[club.pk]), {"name": "松井天狗堂の札"})
    assert response.status_code == 302
    page = client.get(reverse("dosai:edition", args=[club.pk])).content.decode()
    assert not lost_values(form_with(page, "name"), {"name": "松井天狗堂の札"})


def test_dosai_session_title_is_kept(client, organiser):
    session = _dosai_session(organiser)
    response = client.post(reverse("dosai:session_rename", args=[session.pk]), {"title": "道才の夕べ"})
    assert response.status_code == 302
    page = client.get(reverse("dosai:session", args=[session.pk])).content.decode()
    assert not lost_values(form_with(page, "title"), {"title": "道才の夕べ"})


def test_dosai_edition_values_are_kept(client, organiser):
    from dosai.models import ClubEdition
    from tests.dosai.factories import club_values

    club = ClubEdition.objects.create(owner=organiser, name="m", base="matsui")
    values = dict(list(club_values().items())[:6])
    typed = {"source": "うちの札（2026年に読んだ）", **{f"n_{n}": str(v) for n, v in values.items()}}
    response = client.post(reverse("dosai:edition", args=[club.pk]), typed)
    assert response.status_code == 302
    page = client.get(reverse("dosai:edition", args=[club.pk])).content.decode()
    assert not lost_values(form_with(page, "source"), typed)


def test_dosai_session_keeps_every_value(client, organiser):
    from dosai.engine.options import Options, options_as_dict
    from dosai.forms import ENUM_CHOICES
    from dosai.models import Session
    from tests.dosai.factories import ready_edition

    edition = ready_edition(organiser)
    defaults = options_as_dict(Options())
    typed = {"title": "道才の会 二月", "edition": str(edition.pk)}
    typed.update({f"player_{i}": name for i, name in enumerate(["青木", "馬場", "千葉", "土井"], start=1)})
    for name, default in defaults.items():
        if name == "tk2_ruleset":  # refused: the other ruleset is not implemented (its own test)
            typed["opt_tk2_ruleset"] = "0"
        elif name in ENUM_CHOICES:
            typed[f"opt_{name}"] = next(v for v, _label in ENUM_CHOICES[name] if v != default)
        elif isinstance(default, bool):
            typed[f"opt_{name}"] = "0" if default else "1"
        else:
            typed[f"opt_{name}"] = str(default + 1)
    response = client.post(reverse("dosai:session_new"), typed)
    if response.status_code != 302:  # a pair of choices the options refuse together: said, not lost
        raise AssertionError(response.context["form"].errors)
    session = Session.objects.get(title="道才の会 二月")
    assert session.players == ["青木", "馬場", "千葉", "土井"] and session.edition == edition
    for name, default in defaults.items():
        want = typed[f"opt_{name}"]
        stored = session.options[name]
        if isinstance(default, bool):
            assert stored is (want == "1"), name
        else:
            assert str(stored) == want, name


def test_dosai_new_hand_keeps_the_reader(client, organiser):
    from dosai.models import Hand

    session = _dosai_session(organiser)
    response = client.post(reverse("dosai:hand_new", args=[session.pk]), {"dealing": "app", "reader": "human"})
    assert response.status_code == 302
    hand = Hand.objects.get(session=session)
    assert (hand.dealing, hand.reader) == ("app", "human")


def test_dosai_layout_and_call_are_kept(client, organiser):
    from dosai import services
    from dosai.models import Hand

    model = _dosai_session(organiser)
    dealt = services.start_hand(model, dealing="app", reader="human")
    session = _dosai_session(organiser)
    typed = {"reader": "human"}
    for house in dealt.houses:
        h = house["name"]
        typed[f"{h}_holder"] = next(p for p, held in dealt.holdings.items() if h in held)  # player → houses
        for row in ("head", "upper", "middle", "lower"):
            typed[f"{h}_{row}"] = " ".join(str(n) for n in house[row])
    url = reverse("dosai:hand_new", args=[session.pk]) + "?dealing=entered"
    response = client.post(url, {**typed, "dealing": "entered", "layout": "1"})
    assert response.status_code == 302, response.context["form"].errors
    hand = Hand.objects.get(session=session)
    assert hand.dealing == "entered" and hand.reader == "human"
    assert hand.houses == dealt.houses and hand.holdings == dealt.holdings
    number = hand.houses[0]["upper"][0]
    response = client.post(reverse("dosai:hand_call", args=[session.pk, 1]), {"expected": "0", "number": str(number)})
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.calls == [number]


def test_hanafuda_round_keeps_every_card(client, organiser):
    """Each of the 48 cards given to a side (the grid), saved, then the round's page opened
    again: every card on the side it was given to (issue 27)."""
    from hanafuda.engine.deck import CARDS
    from hanafuda.models import Round
    from tests.hanafuda.helpers import new_session

    session = new_session(organiser)
    # a month's cards are taken in pairs: its first two to one side, its last two to the next
    typed = {f"c{c.id}": str((c.id // 10 + (c.id % 10) // 2) % 3) for c in CARDS}
    response = client.post(reverse("hanafuda:round_entry", args=[session.pk]), {"number": "1", "rest": "", **typed})
    assert response.status_code == 302, response.context["form"].errors
    assert Round.objects.filter(session=session, number=1).exists()
    page = client.get(reverse("hanafuda:round_detail", args=[session.pk, 1])).content.decode()
    assert not lost_values(form_with(page, "c10"), typed)


def test_day_settings_keep_every_value(client, organiser):
    event = make_event(slug="day-roundtrip")
    event.organisers.add(organiser)
    url = reverse("people:day", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "referee_rest")
    typed = {"roll_call": True, "referee_rest": "3"}
    assert shown_fields(opened) == set(typed)
    assert client.post(url, {**post_data(typed), "action": "settings"}).status_code == 302
    assert not lost_values(form_with(client.get(url).content.decode(), "referee_rest"), typed)


def test_day_role_keeps_every_value(client, organiser, django_user_model):
    event = make_event(slug="day-role-roundtrip")
    event.organisers.add(organiser)
    url = reverse("people:day", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "username")
    typed = {"username": "uketsuke-2", "password": "karuta-roundtrip-9", "role": "announcer"}
    assert shown_fields(opened) == set(typed)
    assert client.post(url, {**typed, "action": "role"}).status_code == 302
    # Shown again where it belongs: the login name under the announcers; the password works.
    assert list(event.day_settings.announcers.values_list("username", flat=True)) == ["uketsuke-2"]
    assert "uketsuke-2" in client.get(url).content.decode()
    assert django_user_model.objects.get(username="uketsuke-2").check_password("karuta-roundtrip-9")


def test_referee_keeps_every_value(client, organiser):
    from people.models import Referee

    event = make_event(slug="referee-roundtrip")
    event.organisers.add(organiser)
    url = reverse("people:referees", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "furigana")
    typed = {"name": "審判 花子", "furigana": "しんぱん はなこ", "club": "大みか子ども会"}
    assert shown_fields(opened) == set(typed)
    assert client.post(url, {**typed, "action": "add"}).status_code == 302
    referee = Referee.objects.get(event=event)
    edit = reverse("people:referee_edit", args=[event.slug, referee.pk])
    reopened = form_with(client.get(edit).content.decode(), "furigana")
    assert shown_fields(reopened) == set(typed)
    assert not lost_values(reopened, typed)
    changed = {"name": "審判 桜", "furigana": "しんぱん さくら", "club": "宮田子ども会"}
    assert client.post(edit, changed).status_code == 302
    assert not lost_values(form_with(client.get(edit).content.decode(), "furigana"), changed)
    assert "審判 桜" in client.get(url).content.decode()


def test_duty_roster_keeps_every_value(client, organiser):
    event = make_event(slug="roster-roundtrip")
    event.organisers.add(organiser)
    url = reverse("people:roster", args=[event.slug])
    opened = form_with(client.get(url).content.decode(), "reception-0")
    typed = {name: "" for name in shown_fields(opened)}
    typed.update({"reception-0": "山田、佐藤", "venue-1": "鈴木"})
    assert client.post(url, typed).status_code == 302
    assert not lost_values(form_with(client.get(url).content.decode(), "reception-0"), typed)
