"""One call of a Sanjô Dôsai hand: a yomifuda is read and settled (sanjo-dosai.md s.3.3, "Per call").

Responsible for: ``call`` (hako, the bakefuda "eat", the row exemption and who pays whom),
``call_sequence`` and ``hand_over``. Houses, not players, are the unit of payment (sanjo-dosai.md s.3.3,
D3); one point is one stake unit (sanjo-dosai.md l.18).

Must not: import Django, touch the database, read files, or know any card's points.
Inputs that break the rules raise ``ValueError`` naming the problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dosai.engine.facts import (
    BAKEFUDA,
    END_FREE,
    NEVER_EATEN,
    REMOVED_BEFORE_PLAY,
    SUBJECT_NUMBERS,
    Row,
    is_whole_number,
)
from dosai.engine.hand import HandState, PendingEat
from dosai.engine.options import DEFAULT_OPTIONS, EatenRow, ExemptionTiming, Options, PaymentUnit, check_options


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
    exempt: each other house that does not pay, with why (``EXEMPT_*``: its row complete,
      bozu, the holder whose call was eaten, another house of a player already paying).
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
    exempt: Mapping[str, str] = field(default_factory=dict)

    @property
    def payers(self) -> tuple[str, ...]:
        return tuple(t.payer for t in self.transfers)


def call(state: HandState, number: int, options: Options = DEFAULT_OPTIONS) -> CallResult:
    """Read yomifuda ``number`` and settle it (sanjo-dosai.md s.3.3, "Per call").

    1. The holder of efuda ``number`` extinguishes it (sanjo-dosai.md l.79).
    2. Call k is hako when the hako count is a multiple of ``hako_every``: the amount is
       doubled (sanjo-dosai.md l.83).
    3. If the previous call extinguished a bakefuda (30, 33, 54, 61), its holder eats this
       call and is paid instead of the holder (sanjo-dosai.md l.85, l.88), unless ``number`` is 2
       (sanjo-dosai.md l.87; D7 says whether no. 2 uses the eat up).
    4. Every other house pays the amount, except a house whose row of the called card is
       already all extinguished (sanjo-dosai.md l.81; D4, D6), so a nobori house never pays; options
       D3, D5, D9, D10, D11, D16 change who pays or how much.
    5. A called bakefuda gives its holder the eat of the next call (D8 for eaten ones).

    Inputs: the state, a yomifuda number, the options. Output: ``CallResult`` with the
    payments of this call and the new state (``state`` itself is not changed).
    Raises ValueError when the hand is over, the number is not in the reading pile or was
    already read, or PaymentUnit.PLAYER is chosen without holdings.
    """
    _check_call(state, number, options)
    k = state.calls_made + 1
    pending = state.pending_eat
    if number in REMOVED_BEFORE_PLAY:  # only under D2 (b): nobody holds the efuda
        return _removed_call(state, number, options)

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

    payers = _payers(state, payee, holder if eaten else None, exempt_row, judged, options)
    exempt = _exempt(state, payee, holder if eaten else None, exempt_row, judged, options, payers)
    transfers = tuple(Transfer(p, payee, amount) for p in payers) if amount else ()
    payments = dict.fromkeys(state.house_names, 0)
    for t in transfers:
        payments[t.payer] -= t.amount
        payments[t.payee] += t.amount

    new_pending = None if eat_used else pending  # none, or one carried over no. 2 (D7 b)
    if number in BAKEFUDA and (not eaten or options.eaten_bakefuda_eats):  # D8
        new_pending = PendingEat(holder, number, row)

    new_state = state.with_changes(
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
        exempt=exempt,
        amount=amount,
        transfers=transfers,
        payments=MappingProxyType(payments),
        state=new_state,
    )


def _check_call(state: HandState, number: int, options: Options) -> None:
    """ValueError when ``number`` cannot be called now (see ``call``)."""
    check_options(options)
    if not is_whole_number(number) or number not in SUBJECT_NUMBERS:
        raise ValueError(f"{number!r} is not a subject number (1..62)")
    if state.calls_made >= options.calls_per_hand:
        raise ValueError(
            f"the hand is over: {state.calls_made} calls made, it ends when "
            f"{options.uncalled_at_end} yomifuda are left (sanjo-dosai.md l.96)"
        )
    if number not in options.yomifuda:
        raise ValueError(f"yomifuda {number} is removed before play (D2, Options.remove_yomifuda_8_23)")
    if number in state.called:
        raise ValueError(f"yomifuda {number} was already called in this hand")
    if options.payment_unit is PaymentUnit.PLAYER and state.owners is None:
        raise ValueError("PaymentUnit.PLAYER (D3) needs the holdings: pass holdings to new_hand")


def _removed_call(state: HandState, number: int, options: Options) -> CallResult:
    """A call of yomifuda 8 or 23 kept under D2 (b): nobody holds the efuda, nobody pays; it
    counts toward hako and uses up a pending eat as the D2 (b) options say."""
    k = state.calls_made + 1
    pending = state.pending_eat
    counts = options.removed_call_counts_for_hako
    hako_count = state.hako_count + (1 if counts else 0)
    used = pending is not None and options.removed_call_consumes_eat
    new_state = state.with_changes(
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
        payments=MappingProxyType(dict.fromkeys(state.house_names, 0)),
        state=new_state,
    )


EXEMPT_ROW = "row"  # its row of the called card (the exempt row) is all turned down (l.81)
EXEMPT_BOZU = "bozu"  # a bozu house (D16)
EXEMPT_EATEN_HOLDER = "eaten_holder"  # the holder of an eaten call (D5 b)
EXEMPT_SAME_PLAYER = "same_player"  # another house of a player who pays once (D3 b) or is paid


def _exempt(state, payee, eaten_holder, exempt_row, judged, options, payers) -> dict[str, str]:
    """Why each other house does not pay ``payee`` (``EXEMPT_*``), in house order; the same
    tests as ``_payers``, in its order."""
    bozu = state.bozu_houses() if options.bozu else frozenset()
    reasons = {}
    for name in state.house_names:
        if name == payee or name in payers:
            continue
        if state.row_complete(name, exempt_row, judged):
            reasons[name] = EXEMPT_ROW
        elif name in bozu:
            reasons[name] = EXEMPT_BOZU
        elif name == eaten_holder and not options.eaten_holder_pays:
            reasons[name] = EXEMPT_EATEN_HOLDER
        else:
            reasons[name] = EXEMPT_SAME_PLAYER
    return reasons


def _payers(
    state: HandState,
    payee: str,
    eaten_holder: str | None,
    exempt_row: Row,
    judged: frozenset[int],
    options: Options,
) -> list[str]:
    """The houses that pay ``payee``, in house order: every other house whose ``exempt_row``
    is not complete in ``judged`` (sanjo-dosai.md l.81; D4, D6), except bozu houses (D16) and, when the
    call is eaten from ``eaten_holder`` and D5 (b) holds, that holder; one house per other
    player under PaymentUnit.PLAYER (D3 b)."""
    bozu = state.bozu_houses() if options.bozu else frozenset()  # D16
    candidates = [
        name
        for name in state.house_names
        if name != payee
        and not state.row_complete(name, exempt_row, judged)
        and name not in bozu
        and not (name == eaten_holder and not options.eaten_holder_pays)  # D5 (b)
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
    return payers


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
    left uncalled" (sanjo-dosai.md l.96)."""
    check_options(options)
    return state.calls_made >= options.calls_per_hand
