"""Series points: places → points by the series' table, and the series ranking with its tie-break.

Pure: the standard library only (no Django, no database, no translation). The rules are in
``docs/rules/series.md``:

- the table gives the points of 1st, 2nd, 3rd … place; a place beyond the table scores 0;
- a place shared by several teams (two 3rd places: joint third) gives each of them the full
  points of that place;
- an entrant's total is the sum of its placings' points over the series' events;
- entrants are ranked by total points, then by more 1st places, then more 2nd places, and so on
  (countback); entrants equal on all of these share the rank (1, 1, 3 …) and are listed by name.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_TABLE",
    "MAX_PLACES",
    "MAX_POINTS",
    "Entry",
    "Line",
    "PointsTableError",
    "Row",
    "explain",
    "parse_table",
    "points_for",
    "rank_entries",
]

DEFAULT_TABLE = (10, 7, 5, 3, 2, 1)
MAX_PLACES = 32  # a table longer than this is a typing mistake
MAX_POINTS = 1000  # points of one place


class PointsTableError(ValueError):
    """A points table that cannot be read. ``code``: "empty", "not_a_number", "too_long",
    "too_large" or "increasing"; ``position`` (1-based) and ``item`` name the bad entry."""

    def __init__(self, code: str, position: int = 0, item: str = ""):
        super().__init__(f"{code} at {position}: {item!r}")
        self.code, self.position, self.item = code, position, item


def parse_table(text: str) -> tuple[int, ...]:
    """The points of 1st, 2nd … place from ``text`` such as "10,7,5,3,2,1".

    Commas (also 「、」 and full-width digits and commas), spaces around items ignored. Each
    item is a whole number 0–``MAX_POINTS``; at most ``MAX_PLACES`` items; a place never scores
    more than the place above it. Raises :class:`PointsTableError` naming the first bad item.
    """
    normal = str(text or "").translate(_WIDE).replace("、", ",").strip()
    if not normal:
        raise PointsTableError("empty")
    items = [item.strip() for item in normal.split(",")]
    if len(items) > MAX_PLACES:
        raise PointsTableError("too_long", MAX_PLACES + 1, items[MAX_PLACES])
    table = []
    for position, item in enumerate(items, start=1):
        if not (item.isascii() and item.isdigit()):
            raise PointsTableError("not_a_number", position, item)
        value = int(item)
        if value > MAX_POINTS:
            raise PointsTableError("too_large", position, item)
        if table and value > table[-1]:
            raise PointsTableError("increasing", position, item)
        table.append(value)
    return tuple(table)


_WIDE = str.maketrans({**{chr(0xFF10 + d): str(d) for d in range(10)}, "，": ",", "\u3000": " "})


def points_for(place: int, table: Sequence[int]) -> int:
    """The points of ``place`` (1 = first) by ``table``; 0 beyond the table (or for place < 1)."""
    return table[place - 1] if 1 <= place <= len(table) else 0


@dataclass(frozen=True)
class Entry:
    """One final place won by an entrant at one event of the series.

    ``entrant``: the key that makes two entries the same entrant (a team's name key and club, a
    club's key); ``name``/``club``: as shown; ``event``: the event's label (「北部予選」);
    ``order``: the event's position in the series (the explanation lists events in this order);
    ``division``: the division's name, shown in a club's explanation; ``place``: 1, 2, 3 …;
    ``to_confirm``: the place comes from a game a later change left out of date."""

    entrant: str
    name: str
    event: str
    place: int
    order: int = 0
    club: str = ""
    division: str = ""
    to_confirm: bool = False


@dataclass(frozen=True)
class Line:
    """One place in a row's explanation: the event, division, place and its points."""

    event: str
    division: str
    place: int
    points: int
    to_confirm: bool = False


@dataclass(frozen=True)
class Row:
    """One entrant of the ranking: ``rank`` (shared by ties), ``tied`` (another row has the
    same rank), total ``points``, ``places`` (how many 1st, 2nd … places, as far as the longest
    table or place), and the ``lines`` that explain the total, in the series' event order."""

    rank: int
    tied: bool
    entrant: str
    name: str
    club: str
    points: int
    places: tuple[int, ...]
    lines: tuple[Line, ...]

    @property
    def to_confirm(self) -> bool:
        return any(line.to_confirm for line in self.lines)


def rank_entries(entries: Iterable[Entry], table: Sequence[int]) -> list[Row]:
    """The ranking of the entrants of ``entries`` by ``table`` (``docs/rules/series.md``).

    In: the entries (any order) and the points table. Out: rows best first, ranks 1, 1, 3 for
    a tie on points and countback; rows of one rank by name. Raises nothing."""
    grouped: dict[str, list[Entry]] = {}
    for entry in entries:
        grouped.setdefault(entry.entrant, []).append(entry)
    deepest = max([len(table)] + [e.place for group in grouped.values() for e in group], default=0)
    built = []
    for entrant, group in grouped.items():
        group.sort(key=lambda e: (e.order, e.event, e.place, e.division))
        lines = tuple(Line(e.event, e.division, e.place, points_for(e.place, table), e.to_confirm) for e in group)
        counts = tuple(sum(1 for e in group if e.place == p) for p in range(1, deepest + 1))
        first = group[0]
        built.append((entrant, first.name, first.club, sum(line.points for line in lines), counts, lines))
    built.sort(key=lambda b: (-b[3], tuple(-c for c in b[4]), b[1], b[0]))
    rows: list[Row] = []
    for index, (entrant, name, club, points, counts, lines) in enumerate(built):
        same = rows and (rows[-1].points, rows[-1].places) == (points, counts)
        rank = rows[-1].rank if same else index + 1
        rows.append(Row(rank, False, entrant, name, club, points, counts, lines))
    ranks = [row.rank for row in rows]
    return [_tied(row) if ranks.count(row.rank) > 1 else row for row in rows]


def _tied(row: Row) -> Row:
    return Row(row.rank, True, row.entrant, row.name, row.club, row.points, row.places, row.lines)


def explain(row: Row, place_name: Callable[[int], str], with_division: bool = False) -> str:
    """「北部予選 優勝 10 + 決勝大会 第3位 5 = 15」: ``row``'s lines and total. ``place_name``
    names a place (1 → 「優勝」, in the caller's language); ``with_division`` adds each line's
    division (a club's row spans divisions)."""
    parts = []
    for line in row.lines:
        words = [line.event, line.division if with_division else "", place_name(line.place), str(line.points)]
        parts.append(" ".join(w for w in words if w))
    return " + ".join(parts) + f" = {row.points}"
