"""An organiser's step sent twice at the same moment runs once (issue 29, item 3).

A real server (Django's threaded WSGI server, one thread per request, as under gunicorn's
workers) on a real SQLite file (``file_database``: the venue's WAL file with IMMEDIATE
transactions, not the test's shared in-memory database), and two threads that send the same
form at the same instant, as a double tap on slow Wi-Fi does: the same fields, the same
submission key. Both answers are redirects (never a 500), the step is done once, and an
automatic backup is taken once. A third send of the same form later gets the first answer
again; a send of a fresh form (a second tab) is refused by the step's own check.
"""

import http.client
import re
import threading
import urllib.parse

import pytest
from django.core.handlers.wsgi import WSGIHandler
from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.db import connection
from django.test import Client

from judging.models import HistoryEntry
from ops import backups
from tests import factories
from tests.judging.test_concurrency import file_database  # noqa: F401  (the fixture, by name)
from tests.tournament.test_stages_services import play_groups
from tournament.models import Court, Group, Match, Team
from tournament.services.draw import draw_groups
from tournament.services.schedule import make_schedule

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("file_database")]


class _Quiet(WSGIRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def server(settings):
    """The project on a threaded HTTP server on a free port; each request its own connection."""
    settings.ALLOWED_HOSTS = ["*"]
    settings.AUTO_BACKUP = True
    httpd = ThreadedWSGIServer(("127.0.0.1", 0), _Quiet, allow_reuse_address=False)
    httpd.set_app(WSGIHandler())
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_address[1]
    httpd.shutdown()
    httpd.server_close()


class Organiser:
    """An organiser's browser: the session and CSRF cookies, plain HTTP, no redirects followed."""

    def __init__(self, port, user):
        client = Client()
        client.force_login(user)
        self.port = port
        self.cookies = {"sessionid": client.cookies["sessionid"].value}

    def _request(self, method, path, body=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Referer"] = f"http://127.0.0.1:{self.port}{path}"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        conn.close()
        return response.status, response.getheader("Location"), text

    def form(self, path, button):
        """The fields of the form on ``path`` that holds ``button`` (its csrf token and key)."""
        status, _location, html = self._request("GET", path)
        assert status == 200, (path, status)
        chunk = next(part for part in html.split("<form")[1:] if button in part.split("</form>")[0])
        chunk = chunk.split("</form>")[0]
        fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', chunk))
        assert "creation_key" in fields, "the step's form carries a submission key"
        return fields

    def post(self, path, fields):
        return self._request("POST", path, urllib.parse.urlencode(fields))


def twice_at_once(organiser, path, fields):
    """Send ``fields`` to ``path`` from two threads released together; the (status, location) pairs."""
    barrier = threading.Barrier(2)
    answers = [None, None]

    def send(i):
        barrier.wait(timeout=10)
        status, location, _html = organiser.post(path, fields)
        answers[i] = (status, location)

    threads = [threading.Thread(target=send, args=(i,)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert not any(thread.is_alive() for thread in threads)
    return answers


@pytest.fixture
def day(server, django_user_model):
    """Two divisions' worth of one: 6 teams on 2 courts, an organiser on the real server."""
    if connection.vendor == "sqlite":
        assert connection.settings_dict["NAME"].endswith("db.sqlite3")  # the file, not the memory
    event = factories.make_event(courts=2, auto_confirm=True)
    division = factories.make_division(event, courts=[1, 2])
    factories.make_teams(division, 6)
    user = django_user_model.objects.create_user("organiser")
    event.organisers.add(user)
    return event, division, Organiser(server, user)


def automatic_backups():
    return backups.list_backups(automatic=True)


def test_make_schedule_twice_at_once_makes_one_schedule_and_one_backup(day):
    event, _division, organiser = day
    draw_groups(event, seed=1)
    path = f"/manage/{event.slug}/schedule/"
    step = f"/manage/{event.slug}/schedule/make/"
    fields = organiser.form(path, f'action="{step}"')
    fresh = organiser.form(path, f'action="{step}"')  # a second tab, opened before
    answers = twice_at_once(organiser, step, fields)
    assert answers == [(302, path), (302, path)]
    games = Match.objects.filter(event=event).count()
    assert games == 6  # two groups of three: three games each
    assert len(automatic_backups()) == 1
    # The same form sent again later: the first answer again, nothing more done.
    assert organiser.post(step, fields)[:2] == (302, path)
    status, _location, html = organiser._request("GET", path)
    assert "Schedule made: 6 games." in html or "対戦表を作成しました" in html
    # A second tab's fresh form: the step's own check answers, not a 500.
    assert organiser.post(step, fresh)[:2] == (302, path)
    status, _location, html = organiser._request("GET", path)
    assert "対戦表はすでに作成されています" in html or "The schedule already exists." in html
    assert Match.objects.filter(event=event).count() == games
    assert len(automatic_backups()) == 1


def test_draw_twice_at_once_draws_once(day):
    event, _division, organiser = day
    path = f"/manage/{event.slug}/groups/"
    step = f"/manage/{event.slug}/groups/draw/"
    fields = organiser.form(path, f'action="{step}"')
    answers = twice_at_once(organiser, step, fields)
    assert answers == [(302, path), (302, path)]
    pks = sorted(Group.objects.filter(division__event=event).values_list("pk", flat=True))
    assert len(pks) == 2 and pks[-1] - pks[0] == 1  # one draw: no group deleted and made again


def test_a_delay_sent_twice_at_once_delays_once(day):
    event, _division, organiser = day
    draw_groups(event, seed=1)
    make_schedule(event)
    court = Court.objects.filter(event=event).order_by("order").first()
    before = {m.pk: m.start_at for m in Match.objects.filter(court=court)}
    path = f"/manage/{event.slug}/schedule/"
    step = f"/manage/{event.slug}/schedule/delay/"
    fields = organiser.form(path, f'action="{step}"') | {"court": str(court.pk), "minutes": "40"}
    answers = twice_at_once(organiser, step, fields)
    assert [status for status, _ in answers] == [302, 302]
    after = {m.pk: m.start_at for m in Match.objects.filter(court=court)}
    assert {(after[pk] - before[pk]).total_seconds() / 60 for pk in before} == {40}


def test_closing_a_court_twice_at_once_moves_its_games_once(day):
    event, _division, organiser = day
    draw_groups(event, seed=1)
    make_schedule(event)
    court = Court.objects.filter(event=event).order_by("order").first()
    on_court = set(Match.objects.filter(court=court).values_list("pk", flat=True))
    path = f"/manage/{event.slug}/schedule/"
    step = f"/manage/{event.slug}/schedule/close-court/"
    fields = organiser.form(path, f'formaction="{step}"') | {"court": str(court.pk)}
    answers = twice_at_once(organiser, step, fields)
    assert [status for status, _ in answers] == [302, 302]
    assert answers[0][1] == answers[1][1]  # the same answer: the same games named as moved
    assert not Match.objects.filter(court=court).exists()
    assert set(Match.objects.filter(moved_from=court).values_list("pk", flat=True)) == on_court


def test_seeding_twice_at_once_seeds_once_with_one_backup(day):
    event, division, organiser = day
    draw_groups(event, seed=1)
    make_schedule(event)
    play_groups(division)
    path = f"/manage/{event.slug}/knockout/"
    fields = organiser.form(path, 'value="seed"') | {"action": "seed"}
    answers = twice_at_once(organiser, path, fields)
    assert answers == [(302, path), (302, path)]
    knockout = Match.objects.filter(division=division).exclude(stage=Match.Stage.GROUP)
    numbers = list(knockout.values_list("match_number", flat=True))
    assert numbers and len(numbers) == len(set(numbers))
    assert knockout.count() == 1  # two groups, two qualifiers: one final
    assert [p.name for p in automatic_backups() if "seed" in p.name].__len__() == 1


def test_a_withdrawal_sent_twice_at_once_withdraws_once(day):
    event, division, organiser = day
    draw_groups(event, seed=1)
    make_schedule(event)
    team = Team.objects.filter(division=division).order_by("entry_number").first()
    path = f"/manage/{event.slug}/teams/{team.pk}/withdraw/"
    fields = organiser.form(path, "digest")
    answers = twice_at_once(organiser, path, fields)
    list_path = f"/manage/{event.slug}/teams/"
    assert answers == [(302, list_path), (302, list_path)]
    team.refresh_from_db()
    assert team.withdrawn
    walkovers = HistoryEntry.objects.filter(match__in=Match.objects.filter(event=event)).count()
    status, _location, html = organiser._request("GET", list_path)
    assert status == 200
    # A fresh send after it (the page still open in another tab): refused in words, nothing twice.
    assert organiser.post(path, fields)[:2] == (302, list_path)
    assert HistoryEntry.objects.filter(match__in=Match.objects.filter(event=event)).count() == walkovers
