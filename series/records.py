"""Records across editions as the pages show them (issue 35, item 3; docs/rules/records.md): the
public club records (no players' names) and the MC's 「記録」, from this laptop's events (drafts
left out) and the places imported from other laptops (``ImportedPlacing``). Reads only; the
counting is ``series.engine.records``'."""

from __future__ import annotations

from dataclasses import dataclass, field

from judging.models import RecordingSheet
from series.archive import _per_version, best_lines
from series.engine import records as engine
from series.models import ImportedPlacing, club_index, club_of
from tournament.engine.names import name_key
from tournament.models import Event, Team
from tournament.reports.placement import place_name

DECIDERS = ("joker", "rps")


def _ranks_of(event):
    """Team pk -> its final rank (1 = champion) in ``event``."""
    return {pk: line.rank for pk, line in best_lines(event).items()}


def _events():
    return list(Event.objects.exclude(visibility=Event.Visibility.DRAFT).order_by("date", "pk"))


def placings(index=None, events=None):
    """``([engine.Placing], {club ref: club name}, {edition key: (title, date)})``: every team
    with an affiliation of every stored event but the drafts, with its final rank (None without
    one), and every imported place; an event's ranks are kept per event version
    (``series.archive``)."""
    index = club_index() if index is None else index
    events = _events() if events is None else events
    names, editions, found = {}, {}, []
    teams = Team.objects.filter(division__event__in=events).exclude(affiliation="").select_related("division")
    by_event = {}
    for team in teams:
        by_event.setdefault(team.division.event_id, []).append(team)
    for event in events:
        ranks = _per_version("ranks", event, lambda event=event: _ranks_of(event))
        editions[f"e{event.pk}"] = (str(event.title), event.date)
        for team in by_event.get(event.pk, []):
            ref, name = club_of(team.affiliation, index)
            names.setdefault(ref, name)
            found.append(
                engine.Placing(
                    ref,
                    name_key(event.name),
                    f"e{event.pk}",
                    event.date,
                    event.edition,
                    name_key(team.division.name),
                    team.division.name,
                    ranks.get(team.pk),
                )
            )
    for p in ImportedPlacing.objects.exclude(club="").order_by("pk"):
        ref, name = club_of(p.club, index)
        names.setdefault(ref, name)
        key = f"i{p.series_id}:{p.source_key}"
        editions.setdefault(key, (p.source, p.event_date))
        found.append(
            engine.Placing(ref, name_key(p.source), key, p.event_date, None, name_key(p.division), p.division, p.place)
        )
    return found, names, editions


def deciders(index=None, events=None):
    """Club ref -> (games won by 「り」, games won by じゃんけん): confirmed sheets of the stored
    events but the drafts, a winner with an affiliation; void games left out."""
    index = club_index() if index is None else index
    events = _events() if events is None else events
    sheets = (
        RecordingSheet.objects.confirmed()
        .filter(decided_by__in=DECIDERS, match__event__in=events)
        .not_void()
        .values_list("decided_by", "winner_side", "match__team_a__affiliation", "match__team_b__affiliation")
    )
    counts = {}
    for decided_by, side, a, b in sheets:
        ref, _name = club_of(a if side == "A" else b, index)
        if not ref:
            continue
        joker, rps = counts.get(ref, (0, 0))
        counts[ref] = (joker + 1, rps) if decided_by == "joker" else (joker, rps + 1)
    return counts


@dataclass
class ClubRow:
    """One club on the public records page: its ``name``, its ``record`` (``engine.ClubRecord``)
    and its places per division in words: ``[(division, [(edition title, place name)])]``
    (「優勝」, 「第3位」)."""

    name: str
    record: engine.ClubRecord
    divisions: list = field(default_factory=list)


def club_rows():
    """``[ClubRow]`` of every club, most titles first (``engine.club_records``)."""
    index, events = club_index(), _events()
    found, names, editions = placings(index, events)
    rows = []
    for record in engine.club_records(found, deciders(index, events)):
        divisions = [
            (division, [(editions.get(key, ("?", None))[0], place_name(place)) for key, place in places])
            for division, places in sorted(record.places.items())
        ]
        rows.append(ClubRow(names.get(record.club, record.club), record, divisions))
    return rows


@dataclass
class TournamentRecords:
    """The MC's 「記録」 of one tournament (its editions by name): its ``name``, its latest
    edition (an ``Event``, or None when only imported) and that edition's ``anniversary``
    (``engine.Anniversary`` or None without a number), the clubs with the most appearances
    (``[(club name, editions)]``), the runs of titles (``[(Streak, club name, first title, last
    title)]``) and the clubs with the most titles (``[(club name, titles)]``)."""

    name: str
    latest: object
    anniversary: object
    editions: int
    appearances: list
    streaks: list
    titles: list


def tournament_records(top=5):
    """``[TournamentRecords]`` of every tournament name with a stored edition, newest first."""
    index, events = club_index(), _events()
    found, names, editions = placings(index, events)
    latest = {}
    for event in events:
        latest[name_key(event.name)] = event  # events are by date: the last one stays
    result = []
    for key, event in sorted(latest.items(), key=lambda item: item[1].date, reverse=True):
        mine = [p for p in found if p.tournament == key]
        played = {p.edition for p in mine} | {f"e{e.pk}" for e in events if name_key(e.name) == key}
        titles = {}
        for p in mine:
            if p.place == 1:
                titles[p.club] = titles.get(p.club, 0) + 1
        result.append(
            TournamentRecords(
                name=event.name,
                latest=event,
                anniversary=engine.anniversary(event.edition) if event.edition else None,
                editions=len(played),
                appearances=[(names.get(c, c), n) for c, n in engine.appearances(mine)[:top]],
                streaks=[
                    (s, names.get(s.club, s.club), editions[s.first][0], editions[s.last][0])
                    for s in engine.streaks(mine)[:top]
                ],
                titles=[
                    (names.get(c, c), n) for c, n in sorted(titles.items(), key=lambda item: (-item[1], item[0]))[:top]
                ],
            )
        )
    return result
