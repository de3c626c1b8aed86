"""The state of one Sanjô Dôsai hand: six houses of ten efuda, each face up or extinguished.

Responsible for: a house and its rows (``House``, ``house_in_dealt_order``), the state
between calls (``HandState``: what is extinguished, what was called, the pending eat) and
dealing a hand (``new_hand``), plus who holds which house (``owners_of``). Calls are
``dosai.engine.calls``, the end of the hand ``dosai.engine.settlement``.

Must not: import Django, touch the database, read files, or know any card's points: the
points come in as a mapping (``dosai.engine.cards.points_in_play`` gives it from an edition
once the club has entered every value). Inputs that break the rules raise ``ValueError``
naming the problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType

from dosai.engine.facts import (
    BAKEFUDA,
    BOZU_MIN_BAKEFUDA,
    BOZU_MIN_ONE_POINTERS,
    BOZU_MIN_TWO_POINTERS,
    CARDS_PER_HOUSE,
    END_FREE,
    HOUSE_COUNT,
    IN_PLAY,
    MAX_HOUSES_PER_PLAYER,
    MIN_PLAYERS,
    ROW_SIZES,
    SUBJECT_NUMBERS,
    Row,
    is_whole_number,
)
from dosai.engine.options import DEFAULT_OPTIONS, Options, check_options


@dataclass(frozen=True)
class House:
    """One house: its name (e.g. the numeral card 1–6, or "A"–"F") and its ten efuda by row.

    ``head`` holds 1 card, ``upper``, ``middle`` and ``lower`` 3 each (sanjo-dosai.md l.76). Rows are
    tuples of efuda numbers; lists are accepted and frozen. Raises ValueError for a blank
    name, a row of the wrong size or a number that is not a whole number.
    """

    name: str
    head: tuple[int, ...]
    upper: tuple[int, ...]
    middle: tuple[int, ...]
    lower: tuple[int, ...]

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a house needs a name, not {self.name!r}")
        for row in Row:
            cards = getattr(self, row.value)
            if isinstance(cards, int):
                cards = (cards,)
            cards = tuple(cards)
            object.__setattr__(self, row.value, cards)
            if len(cards) != ROW_SIZES[row]:
                raise ValueError(f"house {self.name}: the {row} row holds {ROW_SIZES[row]} card(s), not {len(cards)}")
            for n in cards:
                if not is_whole_number(n):
                    raise ValueError(f"house {self.name}: {n!r} is not an efuda number")

    def row(self, row: Row) -> tuple[int, ...]:
        """The efuda numbers of one row."""
        return getattr(self, Row(row).value)

    @property
    def cards(self) -> tuple[int, ...]:
        """The ten efuda, head first."""
        return self.head + self.upper + self.middle + self.lower

    def row_of(self, number: int) -> Row | None:
        """The row holding efuda ``number``, or None if this house does not hold it."""
        for row in Row:
            if number in self.row(row):
                return row
        return None


def house_in_dealt_order(name: str, cards: Sequence[int]) -> House:
    """Lay out a house from its ten efuda in dealt order (D18, sanjo-dosai.md s.3.4).

    Input: the house name and 10 efuda numbers. Output: a ``House`` with cards 1–3 in the
    upper row, 4–6 in the middle, 7–9 in the lower and the last one at the head ("three rows
    of three cards each, with the last card placed horizontally at the top", sanjo-dosai.md l.76).
    Raises ValueError unless exactly 10 cards are given.
    """
    cards = tuple(cards)
    if len(cards) != CARDS_PER_HOUSE:
        raise ValueError(f"house {name}: a house has {CARDS_PER_HOUSE} efuda, not {len(cards)}")
    return House(name, head=cards[9:], upper=cards[0:3], middle=cards[3:6], lower=cards[6:9])


@dataclass(frozen=True)
class PendingEat:
    """An eat waiting for the next call: the eater house, its bakefuda and that card's row
    (the row matters only under D6 ``EatenRow.BAKEFUDA``)."""

    house: str
    bakefuda: int
    row: Row


@dataclass(frozen=True)
class HandState:
    """The state of one hand between calls. Build it with ``new_hand``; ``call`` and
    ``settle_hand`` return new states and never change this one.

    Fields:
      houses: the six houses in seating order (payments are listed in this order).
      points: efuda number -> points, for the 60 efuda in play (a read-only mapping).
      face_down: the extinguished efuda.
      called: the yomifuda read so far.
      calls_made: how many yomifuda were read (the k of the last call). It may be larger
        than ``len(called)``, so that a position in the middle of a hand can be described.
      hako_count: calls counted toward hako (equals calls_made unless D2(b) skips some);
        None means calls_made.
      pending_eat: the eat waiting for the next call, or None.
      owners: house name -> player, or None. Needed only by PaymentUnit.PLAYER (D3).
      carried_pool: points carried in from an earlier hand (D13 CARRY_POOL), else 0.

    Raises ValueError when the houses are not six houses holding the 60 efuda in play
    exactly once, when an efuda lacks a value (a hand cannot start until the 60 cards in
    play have values, issue 10), or when the counters and sets do not agree.
    """

    houses: tuple[House, ...]
    points: Mapping[int, int]
    face_down: frozenset[int] = frozenset()
    called: frozenset[int] = frozenset()
    calls_made: int = 0
    hako_count: int | None = None
    pending_eat: PendingEat | None = None
    owners: Mapping[str, str] | None = None
    carried_pool: int = 0
    _where: Mapping[int, tuple[str, Row]] = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        houses = tuple(self.houses)
        object.__setattr__(self, "houses", houses)
        object.__setattr__(self, "_where", MappingProxyType(_where_dealt(houses)))
        object.__setattr__(self, "points", MappingProxyType(_checked_points(self.points)))
        for name in ("face_down", "called"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))
        self._check_counters()
        self._check_pending_eat()
        if self.owners is not None:
            object.__setattr__(self, "owners", MappingProxyType(dict(owners_of(self.owners, self.house_names))))
        if not is_whole_number(self.carried_pool) or self.carried_pool < 0:
            raise ValueError(f"carried_pool must be a whole number of at least 0, not {self.carried_pool!r}")

    def _check_counters(self) -> None:
        """The extinguished and called cards and the call counters agree (``hako_count`` None
        becomes ``calls_made``); ValueError naming the first that does not."""
        if not self.face_down <= IN_PLAY:
            raise ValueError(f"face_down holds efuda not in play: {sorted(self.face_down - IN_PLAY)}")
        if not self.called <= SUBJECT_NUMBERS:
            raise ValueError(f"called holds numbers outside 1..62: {sorted(self.called - SUBJECT_NUMBERS)}")
        not_down = sorted((self.called & IN_PLAY) - self.face_down)
        if not_down:
            raise ValueError(f"called efuda must be extinguished: {not_down}")
        if not is_whole_number(self.calls_made) or self.calls_made < len(self.called):
            raise ValueError(f"calls_made ({self.calls_made!r}) is less than the yomifuda called ({len(self.called)})")
        if self.hako_count is None:
            object.__setattr__(self, "hako_count", self.calls_made)
        if not is_whole_number(self.hako_count) or not 0 <= self.hako_count <= self.calls_made:
            raise ValueError(f"hako_count must be between 0 and calls_made, not {self.hako_count!r}")

    def _check_pending_eat(self) -> None:
        """ValueError unless the pending eat names an extinguished bakefuda where its house holds it."""
        eat = self.pending_eat
        if eat is None:
            return
        if not isinstance(eat, PendingEat) or eat.house not in self.house_names:
            raise ValueError(f"pending_eat names an unknown house: {eat!r}")
        if eat.bakefuda not in BAKEFUDA or self._where[eat.bakefuda] != (eat.house, eat.row):
            raise ValueError(f"pending_eat must name a bakefuda where its house holds it: {eat!r}")
        if eat.bakefuda not in self.face_down:
            raise ValueError(f"pending_eat: bakefuda {eat.bakefuda} must be extinguished")

    # -- queries

    @property
    def house_names(self) -> tuple[str, ...]:
        return tuple(h.name for h in self.houses)

    def house(self, name: str) -> House:
        """The house called ``name``; ValueError if there is none."""
        for h in self.houses:
            if h.name == name:
                return h
        raise ValueError(f"no house named {name!r}")

    def holder_of(self, number: int) -> tuple[str, Row]:
        """(house name, row) of efuda ``number``; ValueError if it is not in play."""
        try:
            return self._where[number]
        except (KeyError, TypeError):
            raise ValueError(f"efuda {number!r} is not in play") from None

    def is_face_up(self, number: int) -> bool:
        self.holder_of(number)
        return number not in self.face_down

    def row_complete(self, house: str, row: Row, face_down: frozenset[int] | None = None) -> bool:
        """True when every efuda of that row is extinguished (the head counts as a row,
        sanjo-dosai.md l.81). ``face_down`` lets a caller judge another moment (D4)."""
        down = self.face_down if face_down is None else face_down
        return all(n in down for n in self.house(house).row(row))

    def face_up_cards(self, house: str) -> tuple[int, ...]:
        return tuple(n for n in self.house(house).cards if n not in self.face_down)

    def is_nobori(self, house: str) -> bool:
        """All ten efuda extinguished ("nobori", sanjo-dosai.md l.92)."""
        return not self.face_up_cards(house)

    def bozu_houses(self) -> frozenset[str]:
        """Houses dealt a bozu layout (TK2, sanjo-dosai.md s.3.6): >= 6 two-point efuda, >= 6 one-point
        efuda or the 4 bakefuda. They never pay when ``Options.bozu`` (D16) is on."""
        result = set()
        for h in self.houses:
            values = [self.points[n] for n in h.cards]
            if (
                values.count(2) >= BOZU_MIN_TWO_POINTERS
                or values.count(1) >= BOZU_MIN_ONE_POINTERS
                or len(BAKEFUDA & set(h.cards)) >= BOZU_MIN_BAKEFUDA
            ):
                result.add(h.name)
        return frozenset(result)

    def with_changes(self, **changes) -> HandState:
        """A new state: this one with the given fields changed (checked again as a new ``HandState``)."""
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.init}
        values.update(changes)
        return HandState(**values)


def _where_dealt(houses: tuple[House, ...]) -> dict[int, tuple[str, Row]]:
    """Efuda number -> (house name, row) for six houses holding the 60 efuda in play exactly
    once (sanjo-dosai.md l.68); ValueError otherwise."""
    if len(houses) != HOUSE_COUNT or not all(isinstance(h, House) for h in houses):
        raise ValueError(f"a hand has {HOUSE_COUNT} houses (sanjo-dosai.md l.68), not {len(houses)}")
    names = [h.name for h in houses]
    if len(set(names)) != len(names):
        raise ValueError(f"house names must differ: {names}")
    where: dict[int, tuple[str, Row]] = {}
    for house in houses:
        for row in Row:
            for n in house.row(row):
                if n in where:
                    raise ValueError(f"efuda {n} is dealt twice (houses {where[n][0]} and {house.name})")
                where[n] = (house.name, row)
    dealt = set(where)
    if dealt != IN_PLAY:
        problems = []
        if dealt - IN_PLAY:
            problems.append(f"not in play: {sorted(dealt - IN_PLAY)} (nos. 8 and 23 are removed, sanjo-dosai.md l.67)")
        if IN_PLAY - dealt:
            problems.append(f"missing: {sorted(IN_PLAY - dealt)}")
        raise ValueError("the houses must hold the 60 efuda in play; " + "; ".join(problems))
    return where


def _checked_points(points: object) -> dict[int, int]:
    """Efuda number -> points for the 60 efuda in play (other numbers dropped); ValueError
    when one has no value or a value that is not a whole number of at least 1 (issue 10)."""
    if not isinstance(points, Mapping):
        raise ValueError("points must be a mapping of efuda number to points")
    missing = sorted(n for n in IN_PLAY if n not in points or points[n] is None)
    if missing:
        raise ValueError(f"a hand cannot start until the 60 efuda in play have values; no value for {missing}")
    bad = sorted(n for n in IN_PLAY if not is_whole_number(points[n]) or points[n] < 1)
    if bad:
        raise ValueError(f"points must be whole numbers of at least 1; wrong for {bad}")
    return {n: points[n] for n in sorted(IN_PLAY)}


def new_hand(
    houses: Iterable[House],
    points: Mapping[int, int],
    options: Options = DEFAULT_OPTIONS,
    holdings: Mapping[str, Iterable[str]] | None = None,
    carried_pool: int = 0,
) -> HandState:
    """Deal a hand: every efuda face up, no call made.

    Inputs: six ``House`` objects holding the 60 efuda in play; ``points`` (efuda number ->
    points; extra numbers such as 8 and 23 are ignored); the options; optionally the
    holdings (player -> house names, needed for PaymentUnit.PLAYER) and a pool carried in
    from an earlier hand (D13). Under D11 (b) nos. 46 and 50 start face down (TK2).
    Output: a ``HandState``. Raises ValueError as ``HandState`` does (in particular when an
    efuda in play has no value: "a hand cannot start until the 60 cards in play have values").
    """
    check_options(options)
    face_down = frozenset() if options.end_free_cards_pay_when_called else END_FREE
    houses = tuple(houses)
    owners = None
    if holdings is not None:
        names = [getattr(h, "name", h) for h in houses]
        owners = owners_of(holdings, names, from_holdings=True)
    return HandState(
        houses=houses,
        points=points,
        face_down=face_down,
        owners=owners,
        carried_pool=carried_pool,
    )


def owners_of(mapping: Mapping, house_names: Sequence[str], from_holdings: bool = False) -> dict[str, str]:
    """house -> player from either holdings (player -> houses) or owners (house -> player),
    checked against the house names and the limits of the page (sanjo-dosai.md l.66, l.74)."""
    if not isinstance(mapping, Mapping):
        raise ValueError("holdings must map each player to the names of the houses it holds")
    owners: dict[str, str] = {}
    if from_holdings:
        for player, houses in mapping.items():
            if isinstance(houses, str):
                houses = (houses,)
            for house in houses:
                if house in owners:
                    raise ValueError(f"house {house} is held by both {owners[house]} and {player}")
                owners[house] = player
    else:
        owners = dict(mapping)
    unknown = sorted(set(owners) - set(house_names))
    if unknown:
        raise ValueError(f"holdings name unknown houses: {unknown}")
    unheld = [h for h in house_names if h not in owners]
    if unheld:
        raise ValueError(f"every house needs a player; nobody holds {unheld}")
    counts: dict[str, int] = {}
    for player in owners.values():
        counts[player] = counts.get(player, 0) + 1
    if len(counts) < MIN_PLAYERS:
        raise ValueError(f"Sanjô Dôsai needs at least {MIN_PLAYERS} players (sanjo-dosai.md l.66), not {len(counts)}")
    crowded = sorted(p for p, c in counts.items() if c > MAX_HOUSES_PER_PLAYER)
    if crowded:
        raise ValueError(
            f"a player holds at most {MAX_HOUSES_PER_PLAYER} houses (sanjo-dosai.md l.74); too many for {crowded}"
        )
    return {h: owners[h] for h in house_names}
