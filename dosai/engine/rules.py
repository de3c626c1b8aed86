"""The rules of Sanjô Dôsai (三条道才, the main game of Dôsai Karuta) as plain Python.

Responsible for: the state of one hand (six houses of ten efuda in the rows head / upper /
middle / lower, each efuda face up or extinguished), the payments of one call (hako, the
bakefuda "eat", the row exemption), the end-of-hand settlement (nos. 46 and 50 turned
free, the nobori pool) and netting the houses of one player. Every reading of an unclear
rule is a named field of ``Options``.

Must not: import Django, touch the database, read files, or know any card's points: the
points come in as a mapping (``dosai.engine.cards.points_in_play`` gives it from an edition once
the club has entered every value). Inputs that break the rules raise ``ValueError`` naming
the problem.

Sources. "seed l.N" is line N of ``shared/seeds/000_cbe12c8f7d017dd4.txt`` (Andy's Playing
Cards, "Dôsai Karuta", section "THE GAME: SANJÔ DÔSAI"); "ref §N" is a section of
``shared/reference/other-games.md``; "D1".."D18" are its ambiguities (ref §3.4). Tags as in
the reference: [TEAM-SRC] stated by the seed, [ASSUMED] a reading chosen here.

Money. Houses, not players, are the unit of payment (ref §3.3, D3); one point is one stake
unit (seed l.18). A player who holds two houses is settled net (``net_by_player``).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- fixed facts of the game --------------------------------------------------------------

SUBJECT_NUMBERS = frozenset(range(1, 63))  # 62 subjects numbered 1..62 (seed l.16)
REMOVED_BEFORE_PLAY = frozenset({8, 23})  # efuda 8 and 23 leave the deck (seed l.67)
IN_PLAY = SUBJECT_NUMBERS - REMOVED_BEFORE_PLAY  # the 60 efuda dealt (seed l.68)
HOUSE_COUNT = 6  # six piles of ten cards, each a "house" (seed l.68)
CARDS_PER_HOUSE = 10
BAKEFUDA = frozenset({30, 33, 54, 61})  # "the four bakefuda": eat the next call (seed l.49, l.85)
NEVER_EATEN = 2  # no. 2, the third general, overrides the eat (seed l.87)
END_FREE = frozenset({46, 50})  # may be turned free at the end of the hand (seed l.94)
MIN_PLAYERS = 3  # "no less than three" (seed l.66)
MAX_HOUSES_PER_PLAYER = 2  # "one or more players receive two numeral cards" (seed l.74)

# TK2's bozu layout (ref §3.6), used only when Options.bozu is on (D16).
BOZU_MIN_TWO_POINTERS = 6
BOZU_MIN_ONE_POINTERS = 6
BOZU_MIN_BAKEFUDA = 4


class Row(enum.StrEnum):
    """The four rows of a house, top to bottom (seed l.76). The head is one card laid
    sideways; it counts as a full row for the exemption (seed l.81)."""

    HEAD = "head"
    UPPER = "upper"
    MIDDLE = "middle"
    LOWER = "lower"


ROW_SIZES = MappingProxyType({Row.HEAD: 1, Row.UPPER: 3, Row.MIDDLE: 3, Row.LOWER: 3})


# --- the options of ref §3.4 ----------------------------------------------------------------


class PaymentUnit(enum.StrEnum):
    """D3: who is "each other player" that pays a call."""

    HOUSE = "house"  # every other house pays; a player's own houses net out (default)
    PLAYER = "player"  # every other player pays once (needs the holdings of the hand)


class ExemptionTiming(enum.StrEnum):
    """D4: on which state a payer's row is judged complete."""

    BEFORE_CALL = "before_call"  # default
    AFTER_CALL = "after_call"  # after the called efuda is extinguished


class EatenRow(enum.StrEnum):
    """D6: when a call is eaten, which row decides the exemption."""

    CALLED_CARD = "called_card"  # the row of the called efuda in its holder's house (default)
    BAKEFUDA = "bakefuda"  # the row of the bakefuda in the eater's house


class EndFreeTurn(enum.StrEnum):
    """D12: how nos. 46 and 50 are turned at the end of the hand."""

    AUTOMATIC = "automatic"  # always turned, since it can only help (default)
    CHOICE = "choice"  # the holder chooses; ``settle_hand(turn_free=...)`` says which


class NoNobori(enum.StrEnum):
    """D13: what happens at the end when no house is nobori."""

    NO_PAYMENT = "no_payment"  # default
    CARRY_POOL = "carry_pool"  # the houses with face-up cards pay; the pool goes to the next hand
    FEWEST_FACE_UP = "fewest_face_up"  # the house(s) with the fewest face-up cards take the pool


class FeeBasis(enum.StrEnum):
    """D14: the end-of-hand fee is per house or per face-up efuda."""

    PER_HOUSE = "per_house"  # default (seed l.96: "Each house ... pays twenty points")
    PER_FACE_UP_CARD = "per_face_up_card"


_ENUM_FIELDS = {
    "payment_unit": PaymentUnit,
    "exemption_timing": ExemptionTiming,
    "eaten_exemption_row": EatenRow,
    "end_free_turn": EndFreeTurn,
    "no_nobori": NoNobori,
    "fee_basis": FeeBasis,
}
_POSITIVE_INT_FIELDS = ("hako_every", "uncalled_at_end", "nobori_fee")


@dataclass(frozen=True)
class Options:
    """The house rules of a Sanjô Dôsai table: one field per ambiguity of ref §3.4.

    Every default is the reference's default. D1 (17 or 19 two-point cards) is a fact of
    the card table, not of play: see ``dosai.engine.cards.MATSUI_CLASS_COUNTS``.

    Fixed amounts [TEAM-SRC]:
      hako_every: every this-many-th call is hako and pays double (seed l.83). Default 5.
      uncalled_at_end: the hand ends when this many yomifuda are left (seed l.96). Default 10.
      nobori_fee: what each unfinished house pays into the nobori pool (seed l.96). Default 20.

    Ambiguities:
      D2 remove_yomifuda_8_23: yomifuda 8 and 23 are removed like their efuda, so 60
        yomifuda and 50 calls (default True [ASSUMED]). False: 62 yomifuda, 52 calls, and a
        call of 8 or 23 pays nobody. Then:
        removed_call_counts_for_hako: such a call counts toward the hako numbering (default
          True [ASSUMED]: the seed counts yomifuda read, l.83);
        removed_call_consumes_eat: such a call uses up a pending eat (default True
          [ASSUMED]: the eat is of "the following call", l.85).
      D3 payment_unit: PaymentUnit.HOUSE (default). PLAYER: each other player pays once,
        from its first house (in house order) whose row is not complete; a player whose
        every house is exempt pays nothing [ASSUMED sub-reading]; the payee's own other
        houses never pay.
      D4 exemption_timing: rows judged BEFORE_CALL (default) or AFTER_CALL.
      D5 eaten_holder_pays: when a call is eaten the real holder pays the eater like any
        other house (default True; seed l.88 "including F").
      D6 eaten_exemption_row: EatenRow.CALLED_CARD (default) or BAKEFUDA.
      D7 eat_survives_no2: a pending eat carries over no. 2 to the next call (default
        False: no. 2 uses it up).
      D8 eaten_bakefuda_eats: an eaten bakefuda still gives its own holder the next eat,
        so eats chain (default True).
      D9 bakefuda_pays_holder: a called bakefuda is paid its points like any card (default
        True). False: it pays nobody (it still eats).
      D10 hako_doubles_eaten_call: an eaten hako call pays the eater double (default True).
        False: hako doubles only a payment to the real holder.
      D11 end_free_cards_pay_when_called: nos. 46 and 50 are paid normally when called
        (default True, seed l.94). False (TK2 variant): they are face down from the deal
        and never pay.
      D12 end_free_turn: EndFreeTurn.AUTOMATIC (default) or CHOICE.
      D13 no_nobori: NoNobori.NO_PAYMENT (default), CARRY_POOL or FEWEST_FACE_UP.
      D14 fee_basis: FeeBasis.PER_HOUSE (default) or PER_FACE_UP_CARD.
      D15 hako_doubles_end_fee: the nobori fee is doubled (default False).
      D16 bozu: TK2's bozu rule: a house dealt >= 6 two-point, >= 6 one-point cards or
        all 4 bakefuda never pays, neither calls nor the end fee (default False).
      D17 tk2_ruleset: TK2's other ruleset (ref §3.6). Not implemented: only False is
        accepted.
      D18 rows_chosen_by_player: who arranges the rows. No effect on scoring: the engine
        takes the rows as given (``House``); ``house_in_dealt_order`` builds them from the
        dealt order. Default True.

    Raises ValueError for a value of the wrong kind (enum fields also accept their string
    values) or for D17 turned on.
    """

    hako_every: int = 5
    uncalled_at_end: int = 10
    nobori_fee: int = 20
    remove_yomifuda_8_23: bool = True  # D2
    removed_call_counts_for_hako: bool = True  # D2(b)
    removed_call_consumes_eat: bool = True  # D2(b)
    payment_unit: PaymentUnit = PaymentUnit.HOUSE  # D3
    exemption_timing: ExemptionTiming = ExemptionTiming.BEFORE_CALL  # D4
    eaten_holder_pays: bool = True  # D5
    eaten_exemption_row: EatenRow = EatenRow.CALLED_CARD  # D6
    eat_survives_no2: bool = False  # D7
    eaten_bakefuda_eats: bool = True  # D8
    bakefuda_pays_holder: bool = True  # D9
    hako_doubles_eaten_call: bool = True  # D10
    end_free_cards_pay_when_called: bool = True  # D11
    end_free_turn: EndFreeTurn = EndFreeTurn.AUTOMATIC  # D12
    no_nobori: NoNobori = NoNobori.NO_PAYMENT  # D13
    fee_basis: FeeBasis = FeeBasis.PER_HOUSE  # D14
    hako_doubles_end_fee: bool = False  # D15
    bozu: bool = False  # D16
    tk2_ruleset: bool = False  # D17
    rows_chosen_by_player: bool = True  # D18

    def __post_init__(self):
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in _ENUM_FIELDS:
                kind = _ENUM_FIELDS[f.name]
                try:
                    object.__setattr__(self, f.name, kind(value))
                except ValueError:
                    allowed = ", ".join(m.value for m in kind)
                    raise ValueError(f"Options.{f.name} must be one of {allowed}, not {value!r}") from None
            elif f.name in _POSITIVE_INT_FIELDS:
                if not _is_int(value) or value < 1:
                    raise ValueError(f"Options.{f.name} must be a whole number of at least 1, not {value!r}")
            elif not isinstance(value, bool):
                raise ValueError(f"Options.{f.name} must be True or False, not {value!r}")
        if self.tk2_ruleset:
            raise ValueError("Options.tk2_ruleset (D17): TK2's other ruleset (ref §3.6) is not implemented")

    @property
    def yomifuda(self) -> frozenset[int]:
        """The yomifuda in the reading pile: 60, or 62 when D2 keeps nos. 8 and 23."""
        return IN_PLAY if self.remove_yomifuda_8_23 else SUBJECT_NUMBERS

    @property
    def calls_per_hand(self) -> int:
        """Calls made in a hand: the yomifuda less the ones left uncalled (seed l.96)."""
        return len(self.yomifuda) - self.uncalled_at_end


DEFAULT_OPTIONS = Options()


# --- state -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class House:
    """One house: its name (e.g. the numeral card 1–6, or "A"–"F") and its ten efuda by row.

    ``head`` holds 1 card, ``upper``, ``middle`` and ``lower`` 3 each (seed l.76). Rows are
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
                if not _is_int(n):
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
    """Lay out a house from its ten efuda in dealt order (D18, ref §3.4).

    Input: the house name and 10 efuda numbers. Output: a ``House`` with cards 1–3 in the
    upper row, 4–6 in the middle, 7–9 in the lower and the last one at the head ("three rows
    of three cards each, with the last card placed horizontally at the top", seed l.76).
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
        if len(houses) != HOUSE_COUNT or not all(isinstance(h, House) for h in houses):
            raise ValueError(f"a hand has {HOUSE_COUNT} houses (seed l.68), not {len(houses)}")
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
                problems.append(f"not in play: {sorted(dealt - IN_PLAY)} (nos. 8 and 23 are removed, seed l.67)")
            if IN_PLAY - dealt:
                problems.append(f"missing: {sorted(IN_PLAY - dealt)}")
            raise ValueError("the houses must hold the 60 efuda in play; " + "; ".join(problems))
        object.__setattr__(self, "_where", MappingProxyType(where))

        if not isinstance(self.points, Mapping):
            raise ValueError("points must be a mapping of efuda number to points")
        missing = sorted(n for n in IN_PLAY if n not in self.points or self.points[n] is None)
        if missing:
            raise ValueError(f"a hand cannot start until the 60 efuda in play have values; no value for {missing}")
        bad = sorted(n for n in IN_PLAY if not _is_int(self.points[n]) or self.points[n] < 1)
        if bad:
            raise ValueError(f"points must be whole numbers of at least 1; wrong for {bad}")
        object.__setattr__(self, "points", MappingProxyType({n: self.points[n] for n in sorted(IN_PLAY)}))

        for name in ("face_down", "called"):
            object.__setattr__(self, name, frozenset(getattr(self, name)))
        if not self.face_down <= IN_PLAY:
            raise ValueError(f"face_down holds efuda not in play: {sorted(self.face_down - IN_PLAY)}")
        if not self.called <= SUBJECT_NUMBERS:
            raise ValueError(f"called holds numbers outside 1..62: {sorted(self.called - SUBJECT_NUMBERS)}")
        not_down = sorted((self.called & IN_PLAY) - self.face_down)
        if not_down:
            raise ValueError(f"called efuda must be extinguished: {not_down}")
        if not _is_int(self.calls_made) or self.calls_made < len(self.called):
            raise ValueError(f"calls_made ({self.calls_made!r}) is less than the yomifuda called ({len(self.called)})")
        if self.hako_count is None:
            object.__setattr__(self, "hako_count", self.calls_made)
        if not _is_int(self.hako_count) or not 0 <= self.hako_count <= self.calls_made:
            raise ValueError(f"hako_count must be between 0 and calls_made, not {self.hako_count!r}")
        if self.pending_eat is not None:
            eat = self.pending_eat
            if not isinstance(eat, PendingEat) or eat.house not in names:
                raise ValueError(f"pending_eat names an unknown house: {eat!r}")
            if eat.bakefuda not in BAKEFUDA or self._where[eat.bakefuda] != (eat.house, eat.row):
                raise ValueError(f"pending_eat must name a bakefuda where its house holds it: {eat!r}")
            if eat.bakefuda not in self.face_down:
                raise ValueError(f"pending_eat: bakefuda {eat.bakefuda} must be extinguished")
        if self.owners is not None:
            object.__setattr__(self, "owners", MappingProxyType(dict(_owners_of(self.owners, names))))
        if not _is_int(self.carried_pool) or self.carried_pool < 0:
            raise ValueError(f"carried_pool must be a whole number of at least 0, not {self.carried_pool!r}")

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
        seed l.81). ``face_down`` lets a caller judge another moment (D4)."""
        down = self.face_down if face_down is None else face_down
        return all(n in down for n in self.house(house).row(row))

    def face_up_cards(self, house: str) -> tuple[int, ...]:
        return tuple(n for n in self.house(house).cards if n not in self.face_down)

    def is_nobori(self, house: str) -> bool:
        """All ten efuda extinguished ("nobori", seed l.92)."""
        return not self.face_up_cards(house)

    def bozu_houses(self) -> frozenset[str]:
        """Houses dealt a bozu layout (TK2, ref §3.6): >= 6 two-point efuda, >= 6 one-point
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

    def _replace(self, **changes) -> HandState:
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.init}
        values.update(changes)
        return HandState(**values)


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
    _check_options(options)
    face_down = frozenset() if options.end_free_cards_pay_when_called else END_FREE
    houses = tuple(houses)
    owners = None
    if holdings is not None:
        names = [getattr(h, "name", h) for h in houses]
        owners = _owners_of(holdings, names, from_holdings=True)
    return HandState(
        houses=houses,
        points=points,
        face_down=face_down,
        owners=owners,
        carried_pool=carried_pool,
    )


# --- one call --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Transfer:
    """``amount`` points paid by house ``payer`` to house ``payee``."""

    payer: str
    payee: str
    amount: int


@dataclass(frozen=True)
class CallResult:
    """What one call did.

    number: the yomifuda read; call_index: its k (1 = first call of the hand).
    hako: k is a hako call; holder / row: the house and row of the efuda (None for a
      removed yomifuda under D2(b)); payee: the house paid (the eater when eaten).
    eaten: the payment went to a bakefuda holder instead of the holder.
    eat_used: a pending eat was used up by this call (applied, or lost to no. 2).
    exempt_row: the row whose completeness exempted payers.
    amount: what each payer paid (points x 2 on hako).
    transfers: each payment; payments: net points per house for this call, every house
      listed (sum 0); state: the state after the call.
    """

    number: int
    call_index: int
    hako: bool
    holder: str | None
    row: Row | None
    payee: str | None
    eaten: bool
    eat_used: bool
    exempt_row: Row | None
    amount: int
    transfers: tuple[Transfer, ...]
    payments: Mapping[str, int]
    state: HandState

    @property
    def payers(self) -> tuple[str, ...]:
        return tuple(t.payer for t in self.transfers)


def call(state: HandState, number: int, options: Options = DEFAULT_OPTIONS) -> CallResult:
    """Read yomifuda ``number`` and settle it (ref §3.3, "Per call").

    1. The holder of efuda ``number`` extinguishes it (seed l.79).
    2. Call k is hako when the hako count is a multiple of ``hako_every``: the amount is
       doubled (seed l.83).
    3. If the previous call extinguished a bakefuda (30, 33, 54, 61), its holder eats this
       call and is paid instead of the holder (seed l.85, l.88), unless ``number`` is 2
       (seed l.87; D7 says whether no. 2 uses the eat up).
    4. Every other house pays the amount, except a house whose row of the called card is
       already all extinguished (seed l.81; D4, D6), so a nobori house never pays; options
       D3, D5, D9, D10, D11, D16 change who pays or how much.
    5. A called bakefuda gives its holder the eat of the next call (D8 for eaten ones).

    Inputs: the state, a yomifuda number, the options. Output: ``CallResult`` with the
    payments of this call and the new state (``state`` itself is not changed).
    Raises ValueError when the hand is over, the number is not in the reading pile or was
    already read, or PaymentUnit.PLAYER is chosen without holdings.
    """
    _check_options(options)
    if not _is_int(number) or number not in SUBJECT_NUMBERS:
        raise ValueError(f"{number!r} is not a subject number (1..62)")
    if state.calls_made >= options.calls_per_hand:
        raise ValueError(
            f"the hand is over: {state.calls_made} calls made, it ends when "
            f"{options.uncalled_at_end} yomifuda are left (seed l.96)"
        )
    if number not in options.yomifuda:
        raise ValueError(f"yomifuda {number} is removed before play (D2, Options.remove_yomifuda_8_23)")
    if number in state.called:
        raise ValueError(f"yomifuda {number} was already called in this hand")
    if options.payment_unit is PaymentUnit.PLAYER and state.owners is None:
        raise ValueError("PaymentUnit.PLAYER (D3) needs the holdings: pass holdings to new_hand")

    k = state.calls_made + 1
    pending = state.pending_eat
    names = state.house_names
    zero = {name: 0 for name in names}

    if number in REMOVED_BEFORE_PLAY:  # only under D2 (b): nobody holds the efuda
        counts = options.removed_call_counts_for_hako
        hako_count = state.hako_count + (1 if counts else 0)
        used = pending is not None and options.removed_call_consumes_eat
        new_state = state._replace(
            called=state.called | {number},
            calls_made=k,
            hako_count=hako_count,
            pending_eat=None if used else pending,
        )
        return CallResult(
            number=number,
            call_index=k,
            hako=counts and hako_count % options.hako_every == 0,
            holder=None,
            row=None,
            payee=None,
            eaten=False,
            eat_used=used,
            exempt_row=None,
            amount=0,
            transfers=(),
            payments=MappingProxyType(zero),
            state=new_state,
        )

    hako_count = state.hako_count + 1
    hako = hako_count % options.hako_every == 0
    holder, row = state.holder_of(number)

    eat_applies = pending is not None and number != NEVER_EATEN
    eat_used = eat_applies or (pending is not None and not options.eat_survives_no2)
    # An eater who holds the called card is paid anyway: then the call is an ordinary one.
    eaten = eat_applies and pending.house != holder
    payee = pending.house if eaten else holder

    base = state.points[number]
    if number in BAKEFUDA and not options.bakefuda_pays_holder:  # D9 (b)
        base = 0
    if number in END_FREE and not options.end_free_cards_pay_when_called:  # D11 (b)
        base = 0
    doubled = hako and (not eaten or options.hako_doubles_eaten_call)  # D10
    amount = base * (2 if doubled else 1)

    exempt_row = row
    if eaten and options.eaten_exemption_row is EatenRow.BAKEFUDA:  # D6 (b)
        exempt_row = pending.row
    after = state.face_down | {number}
    judged = state.face_down if options.exemption_timing is ExemptionTiming.BEFORE_CALL else after  # D4
    bozu = state.bozu_houses() if options.bozu else frozenset()  # D16

    candidates = [
        name
        for name in names
        if name != payee
        and not state.row_complete(name, exempt_row, judged)
        and name not in bozu
        and not (eaten and name == holder and not options.eaten_holder_pays)  # D5 (b)
    ]
    if options.payment_unit is PaymentUnit.PLAYER:  # D3 (b): one payment per other player
        seen = {state.owners[payee]}
        payers = []
        for name in candidates:
            if state.owners[name] not in seen:
                seen.add(state.owners[name])
                payers.append(name)
    else:
        payers = candidates

    transfers = tuple(Transfer(p, payee, amount) for p in payers) if amount else ()
    payments = dict(zero)
    for t in transfers:
        payments[t.payer] -= t.amount
        payments[t.payee] += t.amount

    if eat_used:
        new_pending = None
    else:
        new_pending = pending  # none, or one carried over no. 2 (D7 b)
    if number in BAKEFUDA and (not eaten or options.eaten_bakefuda_eats):  # D8
        new_pending = PendingEat(holder, number, row)

    new_state = state._replace(
        face_down=after,
        called=state.called | {number},
        calls_made=k,
        hako_count=hako_count,
        pending_eat=new_pending,
    )
    return CallResult(
        number=number,
        call_index=k,
        hako=hako,
        holder=holder,
        row=row,
        payee=payee,
        eaten=eaten,
        eat_used=eat_used,
        exempt_row=exempt_row,
        amount=amount,
        transfers=transfers,
        payments=MappingProxyType(payments),
        state=new_state,
    )


def call_sequence(
    state: HandState, numbers: Iterable[int], options: Options = DEFAULT_OPTIONS
) -> tuple[CallResult, ...]:
    """Apply ``call`` to each number in turn. Output: one ``CallResult`` per number; the
    last one's ``state`` is the state after them all. ValueError as ``call``."""
    results = []
    for n in numbers:
        result = call(state, n, options)
        results.append(result)
        state = result.state
    return tuple(results)


def hand_over(state: HandState, options: Options = DEFAULT_OPTIONS) -> bool:
    """True once ``calls_per_hand`` calls were made: "The hand ends when ten yomifuda are
    left uncalled" (seed l.96)."""
    _check_options(options)
    return state.calls_made >= options.calls_per_hand


# --- end of the hand -------------------------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    """The end-of-hand settlement.

    turned_free: efuda 46 / 50 turned without payment; nobori: houses with every efuda
      extinguished after that; fee_payers / fees: who paid what into the pool;
    takers: houses that shared the pool (the nobori houses, or under D13
      FEWEST_FACE_UP the houses with the fewest face-up efuda); share: what each took;
    pool_in: carried in from an earlier hand; pool_out: left for the next hand (D13
      CARRY_POOL, or a remainder that did not split evenly);
    payments: net points per house, every house listed, with
      sum(payments) == pool_in - pool_out; state: the final state.
    """

    turned_free: tuple[int, ...]
    nobori: tuple[str, ...]
    fee_payers: tuple[str, ...]
    fees: Mapping[str, int]
    takers: tuple[str, ...]
    share: int
    pool_in: int
    pool_out: int
    payments: Mapping[str, int]
    state: HandState


def settle_hand(
    state: HandState, options: Options = DEFAULT_OPTIONS, turn_free: Iterable[int] | None = None
) -> Settlement:
    """Settle the end of the hand (seed l.94–96, ref §3.3 "End of hand").

    1. Efuda 46 and 50 still face up are turned face down without payment: all of them
       under D12 AUTOMATIC, or those in ``turn_free`` under D12 CHOICE.
    2. Each house with a face-up efuda pays ``nobori_fee`` (20) into a pool (D14: per
       house or per face-up efuda; D15: doubled or not; D16: bozu houses pay nothing),
       and the pool, with any pool carried in, is shared equally by the nobori houses.
       With six houses the split of 20-point fees is always whole; a remainder, possible
       only under other options, stays in ``pool_out`` [ASSUMED].
    3. No nobori house: D13 (no payment, carry the pool, or the fewest face-up efuda take it).

    Inputs: the state after the last call, the options, and under D12 CHOICE the efuda
    their holders turn. Output: a ``Settlement``. Raises ValueError if the hand is not
    over, or ``turn_free`` is given under AUTOMATIC or names anything but a face-up 46 / 50.
    """
    _check_options(options)
    if not hand_over(state, options):
        raise ValueError(f"the hand is not over: {state.calls_made} of {options.calls_per_hand} calls made (seed l.96)")
    available = tuple(n for n in sorted(END_FREE) if state.is_face_up(n))
    if options.end_free_turn is EndFreeTurn.AUTOMATIC:
        if turn_free is not None:
            raise ValueError("turn_free is only for EndFreeTurn.CHOICE (D12); AUTOMATIC turns 46 and 50 itself")
        freed = available
    else:
        chosen = set(turn_free or ())
        wrong = sorted(chosen - set(available), key=repr)
        if wrong:
            raise ValueError(f"only face-up efuda 46 and 50 can be turned free (seed l.94), not {wrong}")
        freed = tuple(sorted(chosen))
    final = state._replace(face_down=state.face_down | set(freed), pending_eat=None)

    names = final.house_names
    face_up = {name: len(final.face_up_cards(name)) for name in names}
    nobori = tuple(name for name in names if face_up[name] == 0)
    bozu = final.bozu_houses() if options.bozu else frozenset()

    takers: tuple[str, ...] = nobori
    if not nobori:
        if options.no_nobori is NoNobori.FEWEST_FACE_UP:
            fewest = min(face_up.values())
            takers = tuple(name for name in names if face_up[name] == fewest)
            if len(takers) == len(names):
                takers = ()
        elif options.no_nobori is NoNobori.NO_PAYMENT:
            takers = ()
    collect = bool(takers) or (not nobori and options.no_nobori is NoNobori.CARRY_POOL)

    fees: dict[str, int] = {}
    if collect:
        for name in names:
            if face_up[name] and name not in takers and name not in bozu:
                per = face_up[name] if options.fee_basis is FeeBasis.PER_FACE_UP_CARD else 1
                fees[name] = options.nobori_fee * per * (2 if options.hako_doubles_end_fee else 1)

    pool = state.carried_pool + sum(fees.values())
    share = pool // len(takers) if takers else 0
    pool_out = pool - share * len(takers)
    payments = {name: -fees.get(name, 0) for name in names}
    for name in takers:
        payments[name] += share

    return Settlement(
        turned_free=freed,
        nobori=nobori,
        fee_payers=tuple(fees),
        fees=MappingProxyType(fees),
        takers=takers,
        share=share,
        pool_in=state.carried_pool,
        pool_out=pool_out,
        payments=MappingProxyType(payments),
        state=final._replace(carried_pool=pool_out),
    )


# --- ledgers ---------------------------------------------------------------------------------


def total_payments(items: Iterable[CallResult | Settlement | Mapping[str, int]]) -> dict[str, int]:
    """Sum the per-house payments of several calls and / or settlements (a house ledger)."""
    total: dict[str, int] = {}
    for item in items:
        for house, amount in _payments_of(item).items():
            total[house] = total.get(house, 0) + amount
    return total


def net_by_player(
    settlement: CallResult | Settlement | Mapping[str, int], holdings: Mapping[str, Iterable[str]]
) -> dict[str, int]:
    """Net the house payments per player: "players may hold several houses and are settled
    net" (issue 10, ref §3.3, TK2).

    Inputs: a ``Settlement`` or ``CallResult`` (or a house -> points mapping such as
    ``total_payments`` returns) and the holdings, player -> house names. Output: player ->
    net points, in the order of ``holdings``. Raises ValueError unless every house is held
    by exactly one player, there are at least 3 players (seed l.66) and no player holds
    more than 2 houses (seed l.74).
    """
    payments = _payments_of(settlement)
    owners = _owners_of(holdings, list(payments), from_holdings=True)
    net = {player: 0 for player in holdings}
    for house, amount in payments.items():
        net[owners[house]] += amount
    return net


# --- helpers ---------------------------------------------------------------------------------


def _check_options(options) -> None:
    if not isinstance(options, Options):
        raise ValueError(f"options must be a dosai.engine.rules.Options, not {type(options).__name__}")


def _payments_of(item) -> Mapping[str, int]:
    if isinstance(item, (CallResult, Settlement)):
        return item.payments
    if isinstance(item, Mapping):
        return item
    raise ValueError(f"expected a CallResult, a Settlement or a mapping of payments, not {type(item).__name__}")


def _owners_of(mapping, house_names, from_holdings: bool = False) -> dict[str, str]:
    """house -> player from either holdings (player -> houses) or owners (house -> player),
    checked against the house names and the seed's limits."""
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
        raise ValueError(f"Sanjô Dôsai needs at least {MIN_PLAYERS} players (seed l.66), not {len(counts)}")
    crowded = sorted(p for p, c in counts.items() if c > MAX_HOUSES_PER_PLAYER)
    if crowded:
        raise ValueError(f"a player holds at most {MAX_HOUSES_PER_PLAYER} houses (seed l.74); too many for {crowded}")
    return {h: owners[h] for h in house_names}


# --- storing the options ---------------------------------------------------------------------


def options_as_dict(options: Options) -> dict:
    """The options as plain JSON values (enum fields as their string values), one key per
    field of ``Options``; ``options_from_dict`` reads it back."""
    _check_options(options)
    return {f.name: (v.value if isinstance(v := getattr(options, f.name), enum.Enum) else v) for f in fields(options)}


def options_from_dict(data: Mapping) -> Options:
    """``Options`` from a mapping written by ``options_as_dict``. Missing keys take the
    reference's default (ref §3.4); unknown keys raise ValueError, as do wrong values."""
    if not isinstance(data, Mapping):
        raise ValueError("options must be a mapping of option names to values")
    known = {f.name for f in fields(Options)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown options: {unknown}")
    return Options(**dict(data))
