"""The end of a Sanjô Dôsai hand and the ledgers (sanjo-dosai.md s.3.3, "End of hand").

Responsible for: ``settle_hand`` (nos. 46 and 50 turned free, the nobori fee and pool),
adding the payments of several calls and settlements (``total_payments``) and netting the
houses of one player (``net_by_player``). Houses, not players, are the unit of payment
(sanjo-dosai.md s.3.3, D3); a player who holds two houses is settled net.

Must not: import Django, touch the database, read files, or know any card's points.
Inputs that break the rules raise ``ValueError`` naming the problem.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from dosai.engine.calls import CallResult, hand_over
from dosai.engine.facts import END_FREE
from dosai.engine.hand import HandState, owners_of
from dosai.engine.options import DEFAULT_OPTIONS, EndFreeTurn, FeeBasis, NoNobori, Options, check_options


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
    """Settle the end of the hand (sanjo-dosai.md l.94–96, s.3.3 "End of hand").

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
    check_options(options)
    if not hand_over(state, options):
        raise ValueError(
            f"the hand is not over: {state.calls_made} of {options.calls_per_hand} calls made (sanjo-dosai.md l.96)"
        )
    available = tuple(n for n in sorted(END_FREE) if state.is_face_up(n))
    if options.end_free_turn is EndFreeTurn.AUTOMATIC:
        if turn_free is not None:
            raise ValueError("turn_free is only for EndFreeTurn.CHOICE (D12); AUTOMATIC turns 46 and 50 itself")
        freed = available
    else:
        chosen = set(turn_free or ())
        wrong = sorted(chosen - set(available), key=repr)
        if wrong:
            raise ValueError(f"only face-up efuda 46 and 50 can be turned free (sanjo-dosai.md l.94), not {wrong}")
        freed = tuple(sorted(chosen))
    final = state.with_changes(face_down=state.face_down | set(freed), pending_eat=None)

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
        state=final.with_changes(carried_pool=pool_out),
    )


# --- ledgers ---------------------------------------------------------------------------------


def total_payments(items: Iterable[CallResult | Settlement | Mapping[str, int]]) -> dict[str, int]:
    """Sum the per-house payments of several calls and / or settlements (a house ledger)."""
    total: dict[str, int] = {}
    for item in items:
        for house, amount in payments_of(item).items():
            total[house] = total.get(house, 0) + amount
    return total


def net_by_player(
    settlement: CallResult | Settlement | Mapping[str, int], holdings: Mapping[str, Iterable[str]]
) -> dict[str, int]:
    """Net the house payments per player: "players may hold several houses and are settled
    net" (issue 10, sanjo-dosai.md s.3.3, TK2).

    Inputs: a ``Settlement`` or ``CallResult`` (or a house -> points mapping such as
    ``total_payments`` returns) and the holdings, player -> house names. Output: player ->
    net points, in the order of ``holdings``. Raises ValueError unless every house is held
    by exactly one player, there are at least 3 players (sanjo-dosai.md l.66) and no player holds
    more than 2 houses (sanjo-dosai.md l.74).
    """
    payments = payments_of(settlement)
    owners = owners_of(holdings, list(payments), from_holdings=True)
    net = {player: 0 for player in holdings}
    for house, amount in payments.items():
        net[owners[house]] += amount
    return net


def payments_of(item: object) -> Mapping[str, int]:
    """The per-house payments of a ``CallResult``, a ``Settlement`` or a mapping; ValueError for anything else."""
    if isinstance(item, (CallResult, Settlement)):
        return item.payments
    if isinstance(item, Mapping):
        return item
    raise ValueError(f"expected a CallResult, a Settlement or a mapping of payments, not {type(item).__name__}")
