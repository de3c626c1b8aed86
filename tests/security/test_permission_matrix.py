"""Who may open what: every URL of the app (from the URL configuration) × every role.

A page added without a rule here fails ``test_every_url_has_a_rule``: decide who may
open it, then add it to EXPECTED.
"""

import datetime

import pytest
from django.contrib.auth.models import Permission
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from club_entry import services as club_services
from club_entry.models import ClubLink
from judging.engine import rules
from judging.services import submit_sheet
from tournament.models import Court, Event, Match, Team

ROLES = ("anonymous", "stranger", "recorder", "organiser", "other_organiser")
PUBLIC = dict.fromkeys(ROLES, 200)
# Dôsai editions and sessions belong to the user who made them ("organiser" here): 404 for others.
DOSAI_OWNER = {"anonymous": 302, "stranger": 404, "recorder": 404, "organiser": 200, "other_organiser": 404}
POST_ONLY = {"anonymous": 302, "stranger": 405, "recorder": 405, "organiser": 405, "other_organiser": 405}
ORGANISER = {"anonymous": 302, "stranger": 403, "recorder": 403, "organiser": 200, "other_organiser": 403}
RECORDER = {"anonymous": 302, "stranger": 403, "recorder": 200, "organiser": 200, "other_organiser": 403}
LOGGED_IN = {"anonymous": 302, "stranger": 200, "recorder": 200, "organiser": 200, "other_organiser": 200}
# The court link is the credential: whoever holds it sees its court, logged in or not.
COURT_LINK = PUBLIC
# A hanafuda session is private to its owner (the organiser here): 404 for anyone else.
OWNER_ONLY = {"anonymous": 302, "stranger": 404, "recorder": 404, "organiser": 200, "other_organiser": 404}
# The reader's deck pages: a superuser, staff, or an organiser of any event (reader.access).
DECK_EDITOR = {"anonymous": 302, "stranger": 403, "recorder": 403, "organiser": 200, "other_organiser": 200}
# Editing a deck: its owners only (the matrix's deck "club-deck" was made by "organiser" for the
# demo event; the shipped hitachi deck: staff only, tests/reader/test_deck_owners.py).
DECK_OWNER = ORGANISER
SUPERUSER_ONLY = {"anonymous": 302, "stranger": 403, "recorder": 403, "organiser": 403, "other_organiser": 403}

# A team card's QR (issue 32): the team's check-in for a reception user (organisers here), the
# team's public page (a redirect) for everyone else.
# An organiser of another event only (a tablet of another reception) is refused naming the card's event.
CARD_SCAN = {"anonymous": 302, "stranger": 302, "recorder": 302, "organiser": 200, "other_organiser": 400}

EXPECTED = {
    # The people of the day (issue 32, docs/people.md): organisers, and the 受付 / 放送係 roles
    # (tests/people/test_views.py); the roll call on the court link.
    "people:day": ORGANISER,
    "people:reception": ORGANISER,
    "people:card_checkin": POST_ONLY,
    "people:announcer": ORGANISER,
    "people:team_cards": ORGANISER,
    "people:referees": ORGANISER,
    "people:referee_edit": ORGANISER,
    "people:referees_pdf": ORGANISER,
    "people:roster": ORGANISER,
    "people:roster_pdf": ORGANISER,
    "people:card_scan": CARD_SCAN,
    "people:roll_call": COURT_LINK,
    "tournament:public_home": PUBLIC,
    "tournament:public_timetable": PUBLIC,
    "tournament:public_court": PUBLIC,
    "tournament:public_team": PUBLIC,
    "tournament:public_results": PUBLIC,
    "tournament:public_export": PUBLIC,
    "tournament:public_csv": PUBLIC,
    "tournament:public_event_ics": PUBLIC,
    "tournament:public_team_ics": PUBLIC,
    "tournament:public_standings": PUBLIC,
    "tournament:public_bracket": PUBLIC,
    "tournament:public_final": PUBLIC,
    "tournament:division_display": PUBLIC,
    "tournament:court_display": PUBLIC,
    "tournament:podium_display": PUBLIC,
    # Hall screens: the all-courts overview, a rotation, the state they poll, the QR code.
    "tournament:courts_display": PUBLIC,
    "tournament:display_rotation": PUBLIC,
    "tournament:display_state": PUBLIC,
    "tournament:display_qr": PUBLIC,
    # The public JSON API v1: read-only, no personal data, for anyone.
    "api:events": PUBLIC,
    "api:openapi": PUBLIC,
    "api:timetable": PUBLIC,
    "api:results": PUBLIC,
    "api:standings": PUBLIC,
    "api:bracket": PUBLIC,
    "tournament:event_list": LOGGED_IN,
    "tournament:event_detail": {**ORGANISER, "recorder": 302},  # a recorder is sent to the queue
    "tournament:event_edit": ORGANISER,
    # POST only (the draft / public / archived switch on the event's card): a GET is refused
    # after the organiser check.
    "tournament:event_visibility": {**ORGANISER, "organiser": 405},
    # GET: the confirmation page naming what goes with the event; POST deletes (issue 27).
    "tournament:event_delete": ORGANISER,
    "tournament:division_add": ORGANISER,
    "tournament:division_edit": ORGANISER,
    "tournament:court_links": ORGANISER,
    # GET: the confirmation page of revoking or renewing a court's link.
    "tournament:court_link_change": ORGANISER,
    "tournament:people": ORGANISER,
    "tournament:announcements": ORGANISER,  # announcements on the hall screens, rotation links
    "tournament:court_add": ORGANISER,
    "tournament:court_edit": ORGANISER,
    "tournament:team_list": ORGANISER,
    "tournament:team_add": ORGANISER,
    "tournament:team_edit": ORGANISER,
    # GET: the confirmation page of a withdrawal (what it will change); POST withdraws.
    "tournament:team_withdraw": ORGANISER,
    "tournament:team_import": ORGANISER,
    "tournament:import_template": ORGANISER,
    # An unknown upload: 404 for the organiser, 403 before that for anyone else.
    "tournament:import_report": {**ORGANISER, "organiser": 404},
    "tournament:groups": ORGANISER,
    "tournament:schedule": RECORDER,
    # The steps of the groups and schedule pages, one POST-only address each (issue 30 item 5;
    # who may send them: test_each_action_address_refuses_get_and_whoever_may_not_send_it).
    "tournament:groups_draw": POST_ONLY,
    "tournament:team_move": POST_ONLY,
    "tournament:late_team": POST_ONLY,
    "tournament:schedule_make": POST_ONLY,
    "tournament:schedule_clear": POST_ONLY,
    "tournament:court_delay": POST_ONLY,
    "tournament:court_close": POST_ONLY,
    "tournament:schedule_checks": RECORDER,
    "tournament:standings": RECORDER,
    "tournament:knockout": ORGANISER,
    "tournament:print_menu": ORGANISER,
    "tournament:recording_sheets": ORGANISER,
    "tournament:print_paper": ORGANISER,
    # POST only: the 大会プログラム's texts from the print page (issue 34 item 1).
    "tournament:programme_texts": POST_ONLY,
    "tournament:export_workbook": ORGANISER,
    "tournament:export_csv": ORGANISER,
    # The results exchange (docs/exchange.md): the event's organisers. The demo is the final of
    # the matrix's series (made by _series_kwargs), with its divisions unfinished, so the key file
    # downloads and the results file sends its organiser back to the exchange page.
    "series:exchange": ORGANISER,
    "series:key_download": ORGANISER,
    "series:results_download": {**ORGANISER, "organiser": 302},
    "series:results_import": ORGANISER,
    "judging:court_home": COURT_LINK,
    "judging:court_entry": COURT_LINK,
    "judging:court_saved": COURT_LINK,
    "judging:court_dispute": COURT_LINK,
    # POST only (a leader's sign-off, a photo of the paper sheet): a GET goes back to the saved page.
    "judging:court_sign": {role: 302 for role in ROLES},
    "judging:court_photo": {role: 302 for role in ROLES},
    # The photo of a paper sheet: the event's recorders and organisers (this version has none: 404).
    "judging:sheet_photo": {**RECORDER, "recorder": 404, "organiser": 404},
    "judging:court_rules": COURT_LINK,
    "judging:court_state": COURT_LINK,  # the court pages' poll (JSON)
    "judging:court_matrix_pdf": COURT_LINK,
    "judging:court_setup_pdf": COURT_LINK,
    # POST only, JSON for the court page's script (the token is the credential): a GET is refused.
    "judging:court_heard": {role: 405 for role in ROLES},
    # POST only, the referee's 開始 tap (the token is the credential): a GET starts nothing.
    "judging:court_start": {role: 405 for role in ROLES},
    "judging:match_detail": RECORDER,
    # The desk's buttons on a game's page, one POST-only address each (issue 30 item 5).
    "judging:match_confirm": POST_ONLY,
    "judging:match_retype": POST_ONLY,
    "judging:match_reject": POST_ONLY,
    "judging:match_restore": POST_ONLY,
    "judging:match_void": POST_ONLY,
    "judging:match_reopen": POST_ONLY,
    "judging:match_adopt": POST_ONLY,
    # The one-person confirmation: organisers (recorders only when the event allows it); the
    # organiser did not enter the game's version, so is sent back to the game's page.
    "judging:confirm_own": {**ORGANISER, "organiser": 302},
    "judging:organiser_dispute": RECORDER,
    "judging:confirm_queue": RECORDER,
    "judging:status_board": RECORDER,
    "login": PUBLIC,
    "logout": {role: 405 for role in ROLES},  # log out by POST only
    "set_language": {role: 302 for role in ROLES},
    "switch_language": {role: 302 for role in ROLES},
    "healthz": PUBLIC,
    "robots_txt": PUBLIC,
    "games": LOGGED_IN,
    "hanafuda:session_list": LOGGED_IN,
    "hanafuda:session_create": LOGGED_IN,
    "hanafuda:reference_card_default": LOGGED_IN,
    "hanafuda:session_detail": OWNER_ONLY,
    "hanafuda:round_entry": OWNER_ONLY,
    # POST only: a GET goes back to the session page (after the owner check).
    "hanafuda:round_undo": {**OWNER_ONLY, "organiser": 302},
    # POST only, JSON for the grid script: a GET is refused after the owner check, and a
    # logged-out request gets 403, not the login page.
    "hanafuda:round_preview": {**OWNER_ONLY, "anonymous": 403, "organiser": 405},
    "hanafuda:round_detail": OWNER_ONLY,
    "hanafuda:history": OWNER_ONLY,
    "hanafuda:settlement": OWNER_ONLY,
    "hanafuda:score_sheet": OWNER_ONLY,
    "hanafuda:reference_card": OWNER_ONLY,
    "hanafuda:session_xlsx": OWNER_ONLY,
    # The whole database: superusers only (organisers of one event must not get the others').
    "backup_download": SUPERUSER_ONLY,
    "dosai:home": LOGGED_IN,
    "dosai:edition_new": LOGGED_IN,
    "dosai:session_new": LOGGED_IN,
    "dosai:edition": DOSAI_OWNER,
    "dosai:edition_rename": DOSAI_OWNER,  # GET: the small rename page
    "dosai:edition_delete": DOSAI_OWNER,  # GET: the confirmation (here: refused, a session uses it)
    "dosai:points_table": DOSAI_OWNER,
    "dosai:session": DOSAI_OWNER,
    "dosai:session_rename": DOSAI_OWNER,
    "dosai:session_delete": DOSAI_OWNER,  # GET: the confirmation listing the hands and calls
    "dosai:session_xlsx": DOSAI_OWNER,
    "dosai:hand_new": {**DOSAI_OWNER, "organiser": 302},  # a GET goes back to the session page
    "dosai:hand": DOSAI_OWNER,
    "dosai:hand_xlsx": DOSAI_OWNER,
    "dosai:hand_state": DOSAI_OWNER,  # JSON for a second tablet on the same hand
    "dosai:hand_call": POST_ONLY,
    "dosai:hand_undo": POST_ONLY,
    "dosai:hand_turn_free": POST_ONLY,
    # The awards desk (issue 19): certificates and the MC's list hold children's names, so the
    # event's organisers only, never its recorders. Printing and the prizes are POST: a GET goes
    # back to the desk; the preview goes back too while no certificate exists (nothing finished).
    "awards:desk": ORGANISER,
    "awards:print": {**ORGANISER, "organiser": 302},
    "awards:preview": {**ORGANISER, "organiser": 302},
    "awards:calibration": ORGANISER,
    "awards:settings": ORGANISER,
    "awards:add_prize": {**ORGANISER, "organiser": 302},
    "awards:remove_prize": {**ORGANISER, "organiser": 302},
    "awards:mc_list": ORGANISER,
    "awards:collected": {**ORGANISER, "organiser": 302},
    # The outgoing webhook (issue 35 item 2): the settings (a secret) for organisers only; the test
    # message is POST only, refused after the organiser check.
    "webhooks:settings": ORGANISER,
    "webhooks:send_test": {**ORGANISER, "organiser": 405},
    # Clubs' entry links (issue 20 item 4): the token is the credential, as a court link's.
    "club_entry:home": COURT_LINK,
    "club_entry:team_add": COURT_LINK,
    "club_entry:team_edit": COURT_LINK,
    "club_entry:team_remove": COURT_LINK,
    "club_entry:absent": {role: 405 for role in ROLES},  # POST only
    "club_entry:links": ORGANISER,
    "club_entry:links_pdf": ORGANISER,
    "club_entry:link_change": ORGANISER,  # GET: the confirmation page
    # Series (docs/rules/series.md, "Who"): the list for anyone logged in; a series for the
    # organisers of its events (and its own organisers); the clubs page (it changes the public
    # archive) for superusers and staff only. The archive of editions is public (no players' names).
    "series:series_list": LOGGED_IN,
    "series:series_detail": ORGANISER,
    # The settings: the series' own organisers only (issue 28, item 4). The matrix's series has
    # none (as one made by loading its key file), so its event's organiser sees it but does not edit it.
    "series:series_edit": SUPERUSER_ONLY,
    "series:series_events": ORGANISER,
    "series:series_xlsx": ORGANISER,
    "series:series_pdf": ORGANISER,
    "series:clubs": SUPERUSER_ONLY,
    "series:archive": PUBLIC,
    "series:archive_clubs": PUBLIC,
    "series:archive_edition": PUBLIC,
    "series:archive_imported": PUBLIC,
    "series:records": PUBLIC,
    "series:records_mc": PUBLIC,
    # The player history: organisers of any event (each sees their own events), never a recorder.
    "series:players": {"anonymous": 302, "stranger": 403, "recorder": 403, "organiser": 200, "other_organiser": 200},
    # The reader's decks: seen, downloaded and copied by staff or an organiser of any event;
    # edited by their owners (maker, organisers of its event, staff; hitachi: staff only).
    "reader:deck_list": DECK_EDITOR,
    "reader:deck_detail": DECK_EDITOR,
    "reader:deck_copy": POST_ONLY,
    "reader:card_add": DECK_OWNER,
    "reader:card_edit": DECK_OWNER,
    "reader:deck_import": DECK_OWNER,
    "reader:deck_template": DECK_EDITOR,
    "reader:recording_upload": POST_ONLY,
    "reader:recording_delete": POST_ONLY,
    # The audio the reader plays: card audio holds no personal data.
    "reader:audio": PUBLIC,
    # The reader (issue 21): the audio is public like the cards; the organisers' reader page,
    # a reading and its log for the event's recorders and organisers; starting, the log lines
    # and revoking a reader link by POST only; the court's reader link is the credential.
    "reader:manage": RECORDER,
    "reader:manage_start": POST_ONLY,
    "reader:manage_link": POST_ONLY,
    "reader:manage_read": RECORDER,
    "reader:manage_lines": POST_ONLY,
    "reader:manage_log": RECORDER,
    "reader:manage_log_csv": RECORDER,
    "reader:practice": PUBLIC,
    "reader:link_home": COURT_LINK,
    "reader:link_read": COURT_LINK,
    "reader:link_lines": {role: 405 for role in ROLES},
}


def url_names():
    def walk(patterns, namespace=None):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin/"):
                    continue
                yield from walk(p.url_patterns, p.namespace or namespace)
            elif isinstance(p, URLPattern) and p.name:
                yield f"{namespace}:{p.name}" if namespace else p.name

    return sorted(set(walk(get_resolver().url_patterns)))


@pytest.fixture
def day(django_user_model):
    call_command("load_demo")
    call_command("draw_groups", "demo", "--seed", "1")
    call_command("make_schedule", "demo")
    event = Event.objects.get(slug="demo")
    other = Event.objects.create(slug="other", name="別の大会", date=event.date)
    users = {
        "stranger": django_user_model.objects.create_user("stranger"),
        "recorder": django_user_model.objects.create_user("recorder"),
        "organiser": django_user_model.objects.create_user("organiser"),
        "other_organiser": django_user_model.objects.create_user("other"),
    }
    event.recorders.add(users["recorder"])
    event.organisers.add(users["organiser"])
    other.organisers.add(users["other_organiser"])
    users["other_organiser"].user_permissions.add(Permission.objects.get(codename="add_event"))
    match = event.matches.order_by("match_number").first()
    submit_sheet(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), court=match.court)
    _dosai_objects(users["organiser"])
    _reader_objects(event, match)
    return event, users, match


def _reader_objects(event, match):
    """A reading on the game's court (the shipped deck, its cards given a recording)."""
    from reader.models import DeckEdition, Recording
    from reader.sessions import reader_link, start_reading, timing

    edition = DeckEdition.objects.get(slug="hitachi")
    for card in edition.cards.all():
        Recording.objects.create(
            edition=edition,
            key=f"card:{card.head_kana}",
            audio=b"RIFF",
            content_type="audio/wav",
            extension="wav",
            duration_ms=1,
            size=4,
            sha256="0" * 64,
        )
    reader_link(match.court)
    start_reading(edition, event, unreadable=[], pauses=timing(1, 1), court=match.court, seed=1)


def _reader_kwargs(name, event, match):
    from reader.models import ReadingSession

    reading = ReadingSession.objects.get(event=event)
    token = match.court.reader_link.token
    reading_kwargs = {
        "reader:manage_read": {"slug": event.slug, "pk": reading.pk},
        "reader:manage_lines": {"slug": event.slug, "pk": reading.pk},
        "reader:manage_log": {"slug": event.slug, "pk": reading.pk},
        "reader:manage_log_csv": {"slug": event.slug, "pk": reading.pk},
        "reader:manage": {"slug": event.slug},
        "reader:manage_start": {"slug": event.slug},
        "reader:manage_link": {"slug": event.slug},
        "reader:link_home": {"token": token},
        "reader:link_read": {"token": token, "pk": reading.pk},
        "reader:link_lines": {"token": token, "pk": reading.pk},
        "reader:practice": {},
    }
    return reading_kwargs[name] if name in reading_kwargs else _deck_kwargs(name)


def _hanafuda_session():
    """A session owned by the "organiser" user, with round 1 entered."""
    from django.contrib.auth import get_user_model

    from hanafuda import services
    from hanafuda.engine.deck import CARD_BY_ID
    from hanafuda.engine.options import Options
    from hanafuda.models import Session

    owner = get_user_model().objects.get(username="organiser")
    session = Session.objects.filter(owner=owner).first()
    if session is None:
        session = services.create_session(owner, "花札", ["A", "B", "C"], Options())
        cards = sorted(CARD_BY_ID)
        services.record_round(session, 1, [cards[:16], cards[16:32], cards[32:]])
    return session


def concrete_url(name, event, match):
    if name.startswith("hanafuda:") and name not in (
        "hanafuda:session_list",
        "hanafuda:session_create",
        "hanafuda:reference_card_default",
    ):
        kwargs = {"pk": _hanafuda_session().pk}
        if name == "hanafuda:round_detail":
            kwargs["number"] = 1
        return reverse(name, kwargs=kwargs)
    court = match.court
    division = event.divisions.first()
    team = Team.objects.filter(division__event=event).first()
    kwargs = {
        "tournament:public_timetable": {"slug": event.slug},
        "tournament:public_court": {"slug": event.slug, "court": court.pk},
        "tournament:public_team": {"slug": event.slug, "team": team.pk},
        "tournament:public_team_ics": {"slug": event.slug, "team": team.pk},
        "tournament:public_csv": {"slug": event.slug, "kind": "games"},
        "tournament:export_csv": {"slug": event.slug, "kind": "standings"},
        "switch_language": {"code": "en"},
        "tournament:division_display": {"slug": event.slug, "division": division.pk},
        "tournament:court_display": {"slug": event.slug, "court": court.pk},
        "tournament:podium_display": {"slug": event.slug, "division": division.pk},
        "tournament:division_edit": {"slug": event.slug, "pk": division.pk},
        "tournament:court_edit": {"slug": event.slug, "pk": court.pk},
        "tournament:team_edit": {"slug": event.slug, "pk": team.pk},
        "tournament:team_withdraw": {"slug": event.slug, "pk": team.pk},
        "tournament:import_report": {"slug": event.slug, "token": "0" * 32},
        "tournament:print_paper": {"slug": event.slug, "kind": "timetables"},
        "judging:court_home": {"token": court.token},
        "judging:court_entry": {"token": court.token, "number": match.match_number},
        "judging:court_saved": {"token": court.token, "number": match.match_number, "version": 1},
        "judging:court_dispute": {"token": court.token, "number": match.match_number},
        "judging:court_sign": {"token": court.token, "number": match.match_number, "version": 1},
        "judging:court_photo": {"token": court.token, "number": match.match_number, "version": 1},
        "judging:sheet_photo": {"slug": event.slug, "number": match.match_number, "version": 1},
        "judging:court_rules": {"token": court.token},
        "judging:court_state": {"token": court.token},
        "judging:confirm_own": {"slug": event.slug, "number": match.match_number},
        "tournament:court_link_change": {"slug": event.slug, "pk": court.pk, "action": "renew"},
        "judging:court_matrix_pdf": {"token": court.token},
        "judging:court_setup_pdf": {"token": court.token},
        "judging:court_heard": {"token": court.token},
        "judging:court_start": {"token": court.token, "number": match.match_number},
        "judging:match_detail": {"slug": event.slug, "number": match.match_number},
        **{
            f"judging:match_{action}": {"slug": event.slug, "number": match.match_number}
            for action in ("confirm", "retype", "reject", "restore", "void", "reopen", "adopt")
        },
        "judging:organiser_dispute": {"slug": event.slug, "number": match.match_number},
        "awards:remove_prize": {"slug": event.slug, "pk": 1},
    }.get(name)
    if name.startswith("dosai:"):
        kwargs = _dosai_kwargs(name)
    if name.startswith("series:"):
        kwargs = _series_kwargs(name, event)
        if name in EXCHANGE_URLS:
            kwargs = {"slug": event.slug}
    if name.startswith("club_entry:"):
        kwargs = _club_kwargs(name, event)
    if name.startswith("reader:"):
        kwargs = _reader_kwargs(name, event, match)
    if name.startswith("people:"):
        kwargs = _people_kwargs(name, event, match)
    if kwargs is None:
        kwargs = (
            {"slug": event.slug}
            if name.startswith(("tournament:", "judging:", "api:", "awards:", "series:", "webhooks:"))
            and name not in ("tournament:public_home", "tournament:event_list", "api:events", "api:openapi")
            else {}
        )
    return reverse(name, kwargs=kwargs)


def _people_kwargs(name, event, match):
    """A referee, a team card's code and the roll call switched on (issue 32)."""
    from people import cards
    from people.access import day_settings
    from people.models import Referee

    if name == "people:referee_edit":
        return {"slug": event.slug, "pk": Referee.objects.get_or_create(event=event, name="審判")[0].pk}
    if name == "people:card_scan":
        return {"slug": event.slug, "code": cards.code_for(match.team_a)}
    if name == "people:roll_call":
        day_settings(event).__class__.objects.filter(event=event).update(roll_call=True)
        following = event.matches.filter(court=match.court, status="scheduled").order_by("slot").first()
        return {"token": match.court.token, "number": following.match_number}
    return {"slug": event.slug}


def _deck_kwargs(name):
    """The deck "club-deck" that "organiser" made for the demo event (its card あ), and the
    shipped hitachi deck's recorded phrase (plays without Open JTalk)."""
    from django.contrib.auth import get_user_model

    from reader.models import Card, DeckEdition, Recording

    hitachi = DeckEdition.objects.get(slug="hitachi")
    Recording.objects.get_or_create(
        edition=hitachi,
        key="phrase:start",
        defaults={"audio": b"RIFF", "content_type": "audio/wav", "extension": "wav", "duration_ms": 1000, "size": 4},
    )
    deck, created = DeckEdition.objects.get_or_create(
        slug="club-deck",
        defaults={
            "name": "練習用",
            "owner": get_user_model().objects.get(username="organiser"),
            "event": Event.objects.get(slug="demo"),
        },
    )
    card = Card.objects.get_or_create(edition=deck, head_kana="あ", defaults={"text": "あさひ"})[0]
    return {
        "reader:card_edit": {"slug": deck.slug, "pk": card.pk},
        "reader:audio": {"slug": "hitachi", "kind": "phrase", "name": "start"},
        "reader:deck_list": {},
    }.get(name, {"slug": deck.slug})


def test_every_url_has_a_rule():
    missing = set(url_names()) - set(EXPECTED)
    stale = set(EXPECTED) - set(url_names())
    assert not missing, f"pages without a permission rule: {sorted(missing)}"
    assert not stale, f"rules for pages that no longer exist: {sorted(stale)}"


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
def test_each_role_gets_the_expected_answer_on_every_page(client, day, role):
    event, users, match = day
    if role != "anonymous":
        client.force_login(users[role])
    wrong = []
    for name in url_names():
        url = concrete_url(name, event, match)
        status = client.get(url).status_code
        if status != EXPECTED[name][role]:
            wrong.append(f"{name} {url}: {status}, expected {EXPECTED[name][role]}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.django_db
def test_a_court_link_reaches_only_its_own_courts_matches(client, day):
    event, users, match = day
    other_court = Court.objects.filter(event=event).exclude(pk=match.court_id).first()
    foreign = Match.objects.filter(court=other_court).first()
    token = match.court.token
    for name in ("judging:court_entry", "judging:court_dispute"):
        assert client.get(reverse(name, args=[token, foreign.match_number])).status_code == 404
    assert client.get(reverse("judging:court_saved", args=[token, foreign.match_number, 1])).status_code == 404
    assert client.get(reverse("judging:court_home", args=["x" * 32])).status_code == 404


@pytest.mark.django_db
def test_an_organiser_of_another_event_changes_nothing_by_posting(client, day):
    event, users, match = day
    _deck_kwargs("reader:deck_list")  # the decks of the reader's lines below
    client.force_login(users["other_organiser"])
    before = (Team.objects.count(), event.matches.count(), event.name)
    for url, data in [
        (reverse("tournament:event_edit", args=[event.slug]), {"name": "乗っ取り"}),
        (reverse("tournament:groups_draw", args=[event.slug]), {}),
        (reverse("tournament:schedule_clear", args=[event.slug]), {}),
        (
            reverse(
                "tournament:team_withdraw", args=[event.slug, Team.objects.filter(division__event=event).first().pk]
            ),
            {},
        ),
        (reverse("judging:match_confirm", args=[event.slug, match.match_number]), {"version": "1"}),
        (reverse("judging:confirm_own", args=[event.slug, match.match_number]), {"version": "1"}),
        (reverse("tournament:court_link_change", args=[event.slug, match.court_id, "revoke"]), {}),
        (reverse("awards:print", args=[event.slug]), {"which": "all"}),
        (reverse("awards:settings", args=[event.slug]), {"per": "team"}),
        (reverse("awards:add_prize", args=[event.slug]), {"name": "特別賞"}),
        (reverse("awards:collected", args=[event.slug]), {"key": "all"}),
        (reverse("webhooks:settings", args=[event.slug]), {"enabled": "on", "kind": "url", "url": "https://x.example"}),
        (reverse("webhooks:send_test", args=[event.slug]), {}),
        (reverse("series:exchange", args=[event.slug]), {"role": "final"}),
        (reverse("series:results_import", args=[event.slug]), {"sha256": "0" * 64}),
        # The reader: a deck made for this event, and the shipped deck (staff only).
        (reverse("reader:card_add", args=["club-deck"]), {"head_kana": "か", "text": "x", "order": 2}),
        (reverse("reader:card_add", args=["hitachi"]), {"head_kana": "か", "text": "x", "order": 2}),
        (reverse("reader:recording_delete", args=["hitachi"]), {"key": "phrase:start"}),
    ]:
        assert client.post(url, data).status_code == 403, url
    event.refresh_from_db()
    assert (Team.objects.count(), event.matches.count(), event.name) == before
    assert not match.sheets.filter(is_confirmed=True).exists()
    match.court.refresh_from_db()
    assert match.court.link_enabled


# The actions' own addresses (issue 30 item 5): who may send each. The desk's confirm,
# re-type, reject and adopt are the event's recorders' (and organisers'); restoring, voiding
# and reopening a game and every step of the groups and schedule pages its organisers' only.
RECORDER_ACTIONS = ("judging:match_confirm", "judging:match_retype", "judging:match_reject", "judging:match_adopt")
ORGANISER_ACTIONS = (
    "judging:match_restore",
    "judging:match_void",
    "judging:match_reopen",
    "tournament:groups_draw",
    "tournament:team_move",
    "tournament:late_team",
    "tournament:schedule_make",
    "tournament:schedule_clear",
    "tournament:court_delay",
    "tournament:court_close",
)


def _what_actions_change(event):
    """The games (status, court, start), the versions (confirmed?), the teams' groups and
    the courts (closed?) of ``event``: what any of the actions above would change."""
    from judging.models import RecordingSheet

    return (
        list(event.matches.order_by("pk").values_list("pk", "status", "court_id", "start_at")),
        list(RecordingSheet.objects.filter(match__event=event).order_by("pk").values_list("pk", "is_confirmed")),
        list(Team.objects.filter(division__event=event).order_by("pk").values_list("pk", "group_id")),
        list(event.courts.order_by("pk").values_list("pk", "closed")),
    )


def test_every_action_address_is_in_the_lists_above():
    """A new POST-only address of the desk or the groups and schedule pages says who may send it."""
    post_only = {n for n in url_names() if EXPECTED.get(n) == POST_ONLY}
    desk_and_steps = {n for n in post_only if n.startswith(("judging:match_", "tournament:"))}
    assert desk_and_steps - {"tournament:programme_texts"} == set(RECORDER_ACTIONS) | set(ORGANISER_ACTIONS)


@pytest.mark.django_db
def test_each_action_address_refuses_get_and_whoever_may_not_send_it(client, day):
    """A GET answers 405 (the login page first when logged out); a POST from a role that may
    not send the action answers 403 (anonymous: the login page) and changes nothing."""
    event, users, match = day
    division = event.divisions.first()
    team = Team.objects.filter(division=division).first()
    data = {
        "version": "1",
        "reason": "乗っ取り",
        "court": str(match.court_id),
        "minutes": "10",
        "team": str(team.pk),
        "group": str(division.groups.exclude(pk=team.group_id).first().pk),
        "entry": "1",
        **{f"retype-{k}": v for k, v in {"cards_a": "30", "cards_b": "26", "referee_cards": "0"}.items()},
    }
    before = _what_actions_change(event)
    wrong = []
    for name in (*RECORDER_ACTIONS, *ORGANISER_ACTIONS):
        url = concrete_url(name, event, match)
        refused = {"anonymous": 302, "stranger": 403, "other_organiser": 403}
        if name in ORGANISER_ACTIONS:
            refused["recorder"] = 403
        for role in ROLES:
            client.logout()
            if role != "anonymous":
                client.force_login(users[role])
            got = client.get(url)
            if got.status_code != (302 if role == "anonymous" else 405):
                wrong.append(f"GET {name} as {role}: {got.status_code}")
            if role not in refused:
                continue
            sent = client.post(url, data)
            if sent.status_code != refused[role]:
                wrong.append(f"POST {name} as {role}: {sent.status_code}, expected {refused[role]}")
            elif role == "anonymous" and not sent["Location"].startswith(reverse("login")):
                wrong.append(f"POST {name} as anonymous: sent to {sent['Location']}, not the login page")
    assert not wrong, "\n".join(wrong)
    assert _what_actions_change(event) == before


@pytest.mark.django_db
def test_the_one_person_confirmation_follows_the_events_setting(client, day):
    """A recorder reaches the second step only when the event allows it."""
    event, users, match = day
    url = reverse("judging:confirm_own", args=[event.slug, match.match_number])
    client.force_login(users["recorder"])
    assert client.get(url).status_code == 403
    event.recorders_confirm_own = True
    event.save(update_fields=["recorders_confirm_own"])
    assert client.get(url).status_code == 302  # allowed; the court entered this version
    client.force_login(users["stranger"])
    assert client.get(url).status_code == 403


@pytest.mark.django_db
def test_the_admin_is_for_superusers_only(client, day, django_user_model):
    event, users, match = day
    client.force_login(users["organiser"])
    assert client.get("/admin/").status_code == 302
    users["organiser"].is_staff = True
    users["organiser"].save()
    assert client.get("/admin/").status_code == 302
    root = django_user_model.objects.create_superuser("root", password="x" * 12)
    client.force_login(root)
    assert client.get("/admin/").status_code == 200


def _dosai_objects(owner):
    """An edition, a session and a dealt hand of the dosai app, owned by ``owner``."""
    from dosai import services
    from tests.dosai.factories import make_session

    session = make_session(owner)
    services.start_hand(session, dealing="app", reader="app")


# The results exchange's pages belong to an event (its slug), not to a series.
EXCHANGE_URLS = ("series:exchange", "series:key_download", "series:results_download", "series:results_import")


def _series_kwargs(name, event):
    """A series holding ``event`` (made once) with one imported place, for the series URLs."""
    from series.models import ImportedPlacing, Series, SeriesEvent

    series, made = Series.objects.get_or_create(slug="matrix", defaults={"name": "シリーズ", "season": 2027})
    if made:
        SeriesEvent.objects.create(series=series, event=event, role="final")
        ImportedPlacing.objects.create(
            series=series, source_key="x:1", source="北部予選", division="小学生の部", place=1, team="A", club="甲"
        )
    if name in (
        "series:series_list",
        "series:clubs",
        "series:archive",
        "series:archive_clubs",
        "series:records",
        "series:records_mc",
        "series:players",
    ):
        return {}
    if name == "series:archive_edition":
        return {"year": event.date.year, "slug": event.slug}
    if name == "series:archive_imported":
        return {"pk": ImportedPlacing.objects.get(series=series).pk}
    return {"slug": series.slug}


def _dosai_kwargs(name):
    from dosai.models import Hand

    hand = Hand.objects.select_related("session").first()
    if name in ("dosai:edition", "dosai:points_table", "dosai:edition_rename", "dosai:edition_delete"):
        return {"pk": hand.session.edition_id}
    if name in (
        "dosai:session",
        "dosai:session_xlsx",
        "dosai:hand_new",
        "dosai:session_rename",
        "dosai:session_delete",
    ):
        return {"pk": hand.session_id}
    if name.startswith("dosai:hand"):
        return {"pk": hand.session_id, "number": hand.number}
    return {}


def _club_link(event):
    """The entry link of the first team's club (consent given), made once."""
    team = Team.objects.filter(division__event=event).exclude(affiliation="").order_by("pk").first()
    link = ClubLink.objects.filter(event=event).first() or club_services.create_link(event, team.affiliation)
    club_services.give_consent(link)
    return link, next(t for t in link.teams())


def _club_kwargs(name, event):
    if name in ("club_entry:links", "club_entry:links_pdf"):
        return {"slug": event.slug}
    link, team = _club_link(event)
    if name == "club_entry:link_change":
        return {"slug": event.slug, "pk": link.pk, "action": "renew"}
    if name in ("club_entry:team_edit", "club_entry:team_remove"):
        return {"token": link.token, "pk": team.pk}
    return {"token": link.token}


@pytest.mark.django_db
def test_a_club_link_reaches_only_its_own_club_and_open_entries(client, day):
    """Own club: 200; another club's team: 404; a revoked or renewed link: 410; after the deadline
    a POST saves nothing (410); another event's team: 404; another event's organiser: 403."""
    event, users, match = day
    link, team = _club_link(event)
    other_team = Team.objects.filter(division__event=event).exclude(affiliation=team.affiliation).first()
    for url in (f"/club/{link.token}/team/{other_team.pk}/", f"/club/{link.token}/team/{other_team.pk}/remove/"):
        assert client.get(url).status_code == 404
    other_event = Event.objects.get(slug="other")
    division = other_event.divisions.create(name="部門")
    foreign = Team.objects.create(division=division, name="よそ", affiliation=team.affiliation)
    assert client.get(f"/club/{link.token}/team/{foreign.pk}/").status_code == 404
    client.force_login(users["other_organiser"])
    assert client.post(f"/manage/{event.slug}/clubs/{link.pk}/revoke/").status_code == 403
    assert client.get(f"/manage/{event.slug}/clubs/links.pdf").status_code == 403
    client.logout()
    club_services.save_settings(
        event, deadline=timezone.now() - datetime.timedelta(minutes=1), locked=False, consent_note="同意"
    )
    name = team.name
    assert client.post(f"/club/{link.token}/team/{team.pk}/", {"name": "乗っ取り"}).status_code == 410
    assert client.post(f"/club/{link.token}/team/{team.pk}/remove/").status_code == 410
    team.refresh_from_db()
    assert team.name == name
    old = link.token
    club_services.renew(link)
    assert client.get(f"/club/{old}/").status_code == 410
    club_services.revoke(link)
    assert client.get(f"/club/{link.token}/").status_code == 410
    assert client.get("/club/" + "x" * 32 + "/").status_code == 404
