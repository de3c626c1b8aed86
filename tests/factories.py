"""A small hand-written factory: events, divisions, courts and teams built in code."""

import datetime

from judging import services as judging_services
from tournament.models import Court, Division, Event
from tournament.services.registration import PlayerData, save_team

_counter = {"n": 0}


def _next():
    _counter["n"] += 1
    return _counter["n"]


def make_event(courts=4, slug=None, **fields):
    n = _next()
    fields.setdefault("name", "テストかるた大会")
    fields.setdefault("date", datetime.date(2027, 1, 17))
    # A small event: results count when entered. Tests of the recorder's check turn it off.
    fields.setdefault("auto_confirm", True)
    event = Event.objects.create(slug=slug or f"test-{n}", **fields)
    for i in range(1, courts + 1):
        Court.objects.create(event=event, name=str(i), order=i)
    return event


def make_division(event, name="小学生の部", courts=None, **fields):
    division = Division.objects.create(event=event, name=name, **fields)
    if courts:
        division.courts.set(event.courts.filter(name__in=[str(c) for c in courts]))
    return division


def players(prefix="選手"):
    return [
        PlayerData(f"{prefix}一", "いち", "小3", is_leader=False),
        PlayerData(f"{prefix}二", "に", "小3", is_leader=True),
        PlayerData(f"{prefix}三", "さん", "小2"),
    ]


def make_team(division, name, affiliation="", seed=None):
    return save_team(division, name, affiliation, players(name), seed=seed)


def make_teams(division, count, prefix="チーム"):
    return [make_team(division, f"{prefix}{i}", affiliation=f"{prefix}子ども会{i % 3}") for i in range(1, count + 1)]


def submit_result(match, values, **who):
    """Submit a version of ``match``'s recording sheet (``rules.SheetValues``) as a referee
    would; returns the sheet (confirmed only under auto-confirm)."""
    return judging_services.submit_sheet(match, values, **who)[0]
