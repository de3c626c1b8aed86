"""Records across editions (issue 35, item 3): a club's editions, places and titles, its 「り」
and じゃんけん wins, the longest runs of titles (連覇), the most appearances (最多出場) and the
記念大会 (docs/rules/records.md).

Pure: the standard library only. Clubs, tournaments, editions and divisions are plain keys
(strings) the caller makes: a club is ``series.models.club_of``'s ref, a tournament the
``name_key`` of its name, an edition one event (``"e<pk>"``) or one imported file's event, a
division the ``name_key`` of its name. Nothing here names a player.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = [
    "ANNIVERSARY_EVERY",
    "Anniversary",
    "ClubRecord",
    "Placing",
    "Streak",
    "anniversary",
    "appearances",
    "club_records",
    "streaks",
]

ANNIVERSARY_EVERY = 10  # 第10回, 第20回 …: the 記念大会 (this project's decision, docs/rules/records.md)


@dataclass(frozen=True)
class Placing:
    """One team of a club at one edition: ``club`` (ref), ``tournament`` (key), ``edition`` (key),
    ``date`` (the edition's day, None when unknown), ``number`` (第N回, None when unknown),
    ``division`` (key) and ``division_name`` (as written), ``place`` (1 = champion; None: it took
    part and has no final place)."""

    club: str
    tournament: str
    edition: str
    date: datetime.date | None
    number: int | None
    division: str
    division_name: str
    place: int | None


@dataclass
class ClubRecord:
    """A club over every edition: ``editions`` played (distinct editions with a team of it),
    ``titles`` (優勝回数: places 1), ``best`` (division name -> its best place), ``places``
    (division name -> [(edition key, place)] by date, None places left out), and its games won
    by 「り」 (``joker_wins``) and by じゃんけん (``rps_wins``)."""

    club: str
    editions: int = 0
    titles: int = 0
    best: dict = field(default_factory=dict)
    places: dict = field(default_factory=dict)
    joker_wins: int = 0
    rps_wins: int = 0


def _order(p: Placing):
    return (p.date is None, p.date or datetime.date.min, p.number or 0, p.edition)


def club_records(
    placings: Iterable[Placing], deciders: Mapping[str, tuple[int, int]] | None = None
) -> list[ClubRecord]:
    """``[ClubRecord]`` of every club in ``placings``, most titles first, then most editions,
    then by ref. ``deciders``: club ref -> (games won by 「り」, games won by じゃんけん)."""
    deciders = deciders or {}
    records: dict[str, ClubRecord] = {}
    seen: dict[str, set] = {}
    for p in sorted(placings, key=_order):
        record = records.setdefault(p.club, ClubRecord(p.club))
        seen.setdefault(p.club, set()).add(p.edition)
        if p.place is None:
            continue
        record.titles += p.place == 1
        record.places.setdefault(p.division_name, []).append((p.edition, p.place))
        best = record.best.get(p.division_name)
        record.best[p.division_name] = p.place if best is None else min(best, p.place)
    for club, record in records.items():
        record.editions = len(seen[club])
        record.joker_wins, record.rps_wins = deciders.get(club, (0, 0))
    for club, (joker, rps) in deciders.items():
        if club not in records:
            records[club] = ClubRecord(club, joker_wins=joker, rps_wins=rps)
    return sorted(records.values(), key=lambda r: (-r.titles, -r.editions, r.club))


@dataclass(frozen=True)
class Streak:
    """Consecutive editions of one ``tournament`` and ``division`` won by one ``club``: its
    ``length`` (2 = 2連覇), the first and last edition keys, and whether it is still running
    (``current``: it ends at the division's latest edition)."""

    tournament: str
    division: str
    division_name: str
    club: str
    length: int
    first: str
    last: str
    current: bool


def streaks(placings: Iterable[Placing], at_least: int = 2) -> list[Streak]:
    """The runs of titles (連覇) of ``at_least`` editions or more, per tournament and division,
    longest first. The editions of a division are those of its tournament with a placing in that
    division, by date then number; a run is broken by an edition the club did not win (joint
    champions: each club's run goes on)."""
    by_division: dict[tuple[str, str], dict[str, list[Placing]]] = {}
    names: dict[tuple[str, str], str] = {}
    for p in placings:
        key = (p.tournament, p.division)
        by_division.setdefault(key, {}).setdefault(p.edition, []).append(p)
        names.setdefault(key, p.division_name)
    found = []
    for key, editions in by_division.items():
        ordered = sorted(editions.values(), key=lambda rows: _order(rows[0]))
        runs: dict[str, tuple[int, str]] = {}  # club -> (length so far, first edition)
        for index, rows in enumerate(ordered):
            edition = rows[0].edition
            winners = {p.club for p in rows if p.place == 1}
            for club, (length, first) in list(runs.items()):
                if club not in winners:
                    if length >= at_least:
                        found.append(Streak(*key, names[key], club, length, first, _edition(ordered[index - 1]), False))
                    del runs[club]
            for club in winners:
                length, first = runs.get(club, (0, edition))
                runs[club] = (length + 1, first)
        for club, (length, first) in runs.items():
            if length >= at_least:
                found.append(Streak(*key, names[key], club, length, first, _edition(ordered[-1]), True))
    return sorted(found, key=lambda s: (-s.length, not s.current, s.tournament, s.division, s.club))


def _edition(rows):
    return rows[0].edition


def appearances(placings: Iterable[Placing], tournament: str | None = None) -> list[tuple[str, int]]:
    """``[(club, editions)]``: how many editions (of ``tournament`` only, when given) each club
    took part in, most first (最多出場), then by club ref."""
    seen: dict[str, set] = {}
    for p in placings:
        if tournament is None or p.tournament == tournament:
            seen.setdefault(p.club, set()).add(p.edition)
    return sorted(((club, len(e)) for club, e in seen.items()), key=lambda item: (-item[1], item[0]))


@dataclass(frozen=True)
class Anniversary:
    """An edition number seen as a 記念大会: ``is_anniversary`` (a multiple of
    ``ANNIVERSARY_EVERY``), ``count`` (how many 記念大会 up to and including it: 第40回 is the 4th),
    ``next_number`` (the next 記念大会's edition number)."""

    number: int
    is_anniversary: bool
    count: int
    next_number: int


def anniversary(number: int) -> Anniversary:
    """The ``Anniversary`` of edition ``number`` (1 or more); ``ValueError`` below 1."""
    if number < 1:
        raise ValueError("editions are counted from 1")
    count = number // ANNIVERSARY_EVERY
    return Anniversary(number, number % ANNIVERSARY_EVERY == 0, count, (count + 1) * ANNIVERSARY_EVERY)
