"""The played demo day the crawl walks (issue 27, item 1), built once into a fresh database.

Run as ``python -m tests.surface.build OUT.json`` with ``KARUTA_DATA_DIR`` pointing at an empty
folder (the SQLite database and the page cache go there, the server started after it uses the
same folder). Builds, with the project's own commands and services:

- the demo event (``load_demo``): groups drawn, scheduled, every group game confirmed; the
  lower primary division's knockout played to its final, the upper primary division plays a
  knockout and placement games (``after_groups`` "both"), played too; the junior high school
  division is seeded but its knockout waits (one game submitted, not confirmed: the
  recorders' queue, the court's next game);
- a hand prize (awards), a club's entry link with one team it entered, a reading on court 1
  with its reader link, a photo of a paper sheet, the series of the event with one imported
  place, a hanafuda session of two rounds and a Dôsai session with one hand;
- the people: an organiser, a recorder and a superuser, each with a logged-in session.

Writes to OUT.json what the crawl needs to fill the URL patterns' parameters and the names
(teams, players, places) the language check must not count as words of the wrong language.
"""

import io
import json
import os
import random
import sys


def build(out_path):
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    return _played_day(out_path)


def _session_key(user):
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.utils.module_loading import import_string

    store = import_string(settings.SESSION_ENGINE + ".SessionStore")()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


def _played_day(out_path):
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.core.management import call_command
    from PIL import Image

    from awards.services import add_hand_prize
    from club_entry import services as entry
    from dosai import services as dosai_services
    from dosai.engine.options import Options as DosaiOptions
    from hanafuda import services as hanafuda_services
    from hanafuda.engine.options import Options as HanafudaOptions
    from judging.engine import rules
    from judging.services import submit_sheet
    from judging.signoff import attach_photo
    from reader import sessions
    from reader.engine import sequence
    from reader.models import Card, DeckEdition
    from series import services as series_services
    from series.models import ImportedPlacing
    from tests.dosai.factories import ready_edition
    from tests.hanafuda.helpers import ROUND_A, ROUND_B
    from tests.reader.test_reading import record
    from tournament.imports.parser import parse_entry_workbook
    from tournament.imports.template import entry_template_workbook
    from tournament.models import Match, Player, Team
    from tournament.services.registration import PlayerData
    from tournament.views.teams import _keep_parsed

    users = get_user_model().objects
    organiser = users.create_user("organiser", first_name="大会", last_name="運営")
    recorder = users.create_user("recorder")
    admin = users.create_superuser("admin", email="")

    call_command("load_demo", verbosity=0)
    from tournament.models import Event

    event = Event.objects.get(slug="demo")
    event.organisers.add(organiser)
    event.recorders.add(recorder)
    low, high, junior = list(event.divisions.order_by("order"))
    high.after_groups = "both"
    high.save()
    # Clubs enter their teams before the draw (it closes the entry).
    link = entry.create_link(event, "大みか子ども会", contact_name="港 花子", contact="090-0000-0000")
    entry.give_consent(link)
    entered = entry.save_club_team(
        link,
        division=junior,
        name="大みかJ",
        players=[
            PlayerData("大みか 一郎", "おおみか いちろう", "中1", True),
            PlayerData("大みか 二郎", "おおみか じろう", "中1"),
            PlayerData("大みか 三郎", "おおみか さぶろう", "中2"),
        ],
        accept_warnings=True,
    )

    quiet = io.StringIO()
    for args in (
        ("draw_groups", "demo", "--seed", "1"),
        ("make_schedule", "demo"),
        ("simulate_results", "demo", "--seed", "2"),
        ("seed_knockout", "demo"),
        ("simulate_results", "demo", "--stage", "knockout", "--division", low.name, "--seed", "3"),
        ("simulate_results", "demo", "--stage", "knockout", "--division", high.name, "--seed", "4"),
        ("simulate_results", "demo", "--stage", "placement", "--seed", "5"),
    ):
        call_command(*args, stdout=quiet)
    event.refresh_from_db()
    event.auto_confirm = False
    event.save(update_fields=["auto_confirm"])
    waiting = event.matches.filter(division=junior).exclude(stage=Match.Stage.GROUP).order_by("match_number")
    submitted = waiting.filter(team_a__isnull=False, team_b__isnull=False).first()
    submit_sheet(submitted, rules.SheetValues(30, 26, 0, rules.JokerHolder.A))
    court = submitted.court
    confirmed = event.matches.filter(status=Match.Status.CONFIRMED, court=court).order_by("match_number").first()
    sheet = confirmed.sheets.order_by("-version").first()
    picture = io.BytesIO()
    Image.new("RGB", (800, 600), (200, 180, 150)).save(picture, "JPEG")
    attach_photo(sheet, SimpleUploadedFile("sheet.jpg", picture.getvalue(), content_type="image/jpeg"))

    final = event.matches.get(division=low, stage=Match.Stage.FINAL)
    prize = add_hand_prize(event, "敢闘賞", final.team_b)
    people_day = _people_of_the_day(event, organiser)
    _webhook_messages(event, sheet)

    deck = DeckEdition.objects.create(slug="club", name="練習用", owner=organiser)
    for i, kana in enumerate("あいうえお"):
        Card.objects.create(edition=deck, head_kana=kana, text="", order=i)
        record(deck, f"card:{kana}")
    for phrase in ("start", "next", "check"):
        record(deck, f"phrase:{phrase}")
    reading = sessions.start_reading(deck, event, unreadable=[], pauses=sequence.Timing(2, 4), court=court, seed=11)
    reader_token = sessions.reader_link(court).token

    series = series_services.create_series(organiser, "hitachi-2027", "日立市かるたシリーズ", 2027, "10,7,5,3,2,1")
    series_services.add_event(series, event, "final")
    imported = ImportedPlacing.objects.create(
        series=series,
        source_key="laptop-2:7",
        source="第3回 南部地区予選",
        district="南部",
        division="小学生の部",
        place=1,
        team="宮田A",
        club="宮田子ども会",
    )

    hanafuda = hanafuda_services.create_session(
        organiser, "花札の夕べ", ["一郎", "二郎", "三郎"], HanafudaOptions(rounds=6), first_dealer=0
    )
    hanafuda_services.record_round(hanafuda, 1, ROUND_A)
    hanafuda_services.record_round(hanafuda, 2, ROUND_B)

    edition = ready_edition(organiser, name="松井天狗堂")
    dosai = dosai_services.create_session(
        organiser, "道済の会", edition, ["青木", "馬場", "千葉", "土井"], DosaiOptions()
    )
    hand = dosai_services.start_hand(dosai, dealing="app", reader="app", rng=random.Random(2))
    for k in range(12):
        dosai_services.record_call(hand, None, k)

    problems = _keep_parsed(
        parse_entry_workbook(entry_template_workbook(list(event.divisions.values_list("name", flat=True)))),
        "",
        event,
        organiser,
    )

    names = set()
    for model, fields in (
        (Player, ("name", "furigana")),
        (Team, ("name", "affiliation")),
    ):
        for row in model.objects.values_list(*fields):
            names.update(v for v in row if v)
    names.update(
        [event.name, event.venue, link.club, "港 花子", deck.name, series.name, imported.source, imported.division]
    )
    names.update(["宮田A", "宮田子ども会", "南部", "花札の夕べ", "一郎", "二郎", "三郎", "道済の会"])
    names.update(["青木", "馬場", "千葉", "土井", edition.name, "敢闘賞"])
    names.update(people_day.pop("names"))
    names.update(event.divisions.values_list("name", flat=True))
    names.update(event.courts.values_list("name", flat=True))
    # typed by people too: user names, the decks' names and short names, the series' clubs,
    # spellings, districts and the divisions of imported results (names and places)
    from django.contrib.auth import get_user_model

    from reader.models import DeckEdition
    from series import models as series_models

    names.update(get_user_model().objects.values_list("username", flat=True))
    for name, slug in DeckEdition.objects.values_list("name", "slug"):
        names.update([name, slug])
    names.update(series_models.Club.objects.values_list("name", flat=True))
    names.update(series_models.ClubSpelling.objects.values_list("text", flat=True))
    for model in (series_models.SeriesEvent, series_models.ImportedPlacing, series_models.ImportedFile):
        names.update(model.objects.values_list("district", flat=True))
    for model in (series_models.ImportedPlacing, series_models.QualifiedTeam):
        names.update(model.objects.values_list("division", flat=True))

    data = {
        "event": event.slug,
        "event_year": event.date.year,
        "division": low.pk,
        "divisions": [d.pk for d in (low, high, junior)],
        "court_pk": court.pk,
        "court_number": court.order,
        "court_token": court.token,
        "court_next_number": submitted.match_number,
        "admin_objects": _admin_objects(),
        "team": final.team_a_id,
        "confirmed_number": confirmed.match_number,
        "confirmed_version": sheet.version,
        "submitted_number": submitted.match_number,
        "submitted_version": 1,
        "prize": prize.pk,
        "club_token": link.token,
        "club_link": link.pk,
        "club_team": entered.pk,
        "deck": deck.slug,
        "card": deck.cards.order_by("order").first().pk,
        "reading": reading.pk,
        "reader_token": reader_token,
        "series": series.slug,
        "imported": imported.pk,
        "hanafuda": hanafuda.pk,
        "dosai_edition": edition.pk,
        "dosai": dosai.pk,
        "import_token": problems,
        **people_day,
        "sessions": {
            "organiser": _session_key(organiser),
            "recorder": _session_key(recorder),
            "admin": _session_key(admin),
        },
        "names": sorted(n for n in names if n),
    }
    with open(out_path, "w", encoding="utf-8") as out:
        json.dump(data, out, ensure_ascii=False, indent=1)
    return data


def _people_of_the_day(event, organiser):
    """Issue 32's objects: referees assigned with rest, teams received (one with an absent
    player), a game called to its court, the duty roster; the ids the crawl's addresses need."""
    from people import cards
    from people.access import day_settings
    from people.models import Referee
    from people.services import calls, reception, referees, roster
    from tournament.models import Match, Team

    made = [
        Referee.objects.create(event=event, name="審判 一郎", furigana="しんぱん いちろう", club="大みか子ども会"),
        Referee.objects.create(event=event, name="審判 二郎", furigana="しんぱん じろう"),
        Referee.objects.create(event=event, name="審判 三郎", furigana="しんぱん さぶろう"),
    ]
    referees.assign(event, rest=2)
    settings = day_settings(event)
    settings.roll_call = True
    settings.save()
    teams = list(Team.objects.filter(division__event=event, withdrawn=False).order_by("pk"))
    for team in teams[:5]:
        reception.set_received(team, user=organiser)
    reception.check_in(teams[5], absent=[teams[5].players.order_by("order").first().name], user=organiser)
    open_game = (
        event.matches.filter(status=Match.Status.SCHEDULED, team_a__isnull=False, team_b__isnull=False)
        .exclude(court=None)
        .order_by("match_number")
        .first()
    )
    if open_game is not None:
        calls.call_match(open_game, user=organiser)
    roster.save_roster(
        event, {("reception", 0): ["受付花子"], ("announcer", 0): ["受付花子"], ("venue", 1): ["会場太郎"]}
    )
    return {
        "referee": made[0].pk,
        "card_code": cards.code_for(teams[0]),
        # every referee: these three and the demo's own (fixtures/demo_event.json)
        "names": [v for r in Referee.objects.filter(event=event) for v in (r.name, r.furigana, r.club) if v]
        + ["受付花子", "会場太郎"],
    }


def _webhook_messages(event, sheet):
    """Issue 35's outgoing webhook: saved but off, one result sent, one test message given up
    (its error in the system's words), so the page's table is crawled. Nothing is sent."""
    from django.utils import timezone

    from webhooks.models import Delivery, WebhookSettings

    WebhookSettings.objects.create(event=event, kind="line", line_to="C" + "0" * 32, secret="crawl-" + "t" * 30)
    now = timezone.now()
    Delivery.objects.create(event=event, kind="result", sheet=sheet, status="sent", attempts=1, sent_at=now)
    Delivery.objects.create(
        event=event, kind="test", status="failed", attempts=1, last_error="[Errno 101] Network is unreachable"
    )


def _admin_objects():
    """'app/model' -> the pk of one of its rows, for every model the admin shows."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django.contrib import admin
    from django.contrib.auth.models import Group

    seen = {"user_agent": "crawl", "ip_address": "127.0.0.1", "username": "someone", "http_accept": "*/*"}
    Group.objects.get_or_create(name="記録係")
    AccessAttempt.objects.create(
        path_info="/accounts/login/", get_data="", post_data="", failures_since_start=1, **seen
    )
    AccessLog.objects.create(path_info="/accounts/login/", **seen)
    AccessFailureLog.objects.create(path_info="/accounts/login/", **seen)
    found = {}
    for model in admin.site._registry:
        first = model.objects.order_by("pk").first()
        if first is not None:
            found[f"{model._meta.app_label}/{model._meta.model_name}"] = first.pk
    return found


if __name__ == "__main__":
    build(sys.argv[1])
