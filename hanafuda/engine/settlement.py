"""A game of several Musashino-bana rounds: running totals and the final settlement.

Responsible for: ``settle``, which checks that the rounds belong to one game (same options,
same players, each dealt by the winner of the one before) and adds their payments up.
Points throughout.

Must not: import Django, touch a database or produce translated text.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from hanafuda.engine.options import DEFAULT_OPTIONS, Options
from hanafuda.engine.payments import Payment
from hanafuda.engine.scoring import RoundResult


@dataclass(frozen=True)
class Settlement:
    """The running and final totals of a game (``settle``). Points.

    ``running[i]``: unit → total after round i + 1; ``totals``: after the last round;
    ``transfers``: payments that settle the totals (each debtor pays creditors in seat order);
    ``ranking``: units by total, highest first (ties keep the seat order of the first round).
    """

    rounds_planned: int
    rounds_played: int
    units: tuple[Hashable, ...]
    running: tuple[Mapping[Hashable, int], ...]
    totals: Mapping[Hashable, int]
    transfers: tuple[Payment, ...]

    @property
    def complete(self) -> bool:
        return self.rounds_played == self.rounds_planned

    @property
    def ranking(self) -> tuple[Hashable, ...]:
        return tuple(sorted(self.units, key=lambda u: -self.totals[u]))


def settle(rounds: Sequence[RoundResult], options: Options = DEFAULT_OPTIONS) -> Settlement:
    """Running totals and the final settlement of a game.

    Input: the ``RoundResult`` of each round played so far, in order, all scored with
    ``options``; at most ``options.rounds`` of them (12, 6 or 3, musashino-bana.md l.7). Each round must be
    dealt by the winner of the one before (musashino-bana.md l.13). Output: a ``Settlement`` in points.
    ``ValueError`` when the rounds are too many, scored with other options, have other
    players, or break the dealer rule.
    """
    rounds = list(rounds)
    if len(rounds) > options.rounds:
        raise ValueError(f"{len(rounds)} rounds played, but the game has {options.rounds}")
    units: tuple[Hashable, ...] = ()
    for i, result in enumerate(rounds):
        if not isinstance(result, RoundResult):
            raise ValueError(f"round {i + 1} is not a RoundResult: {result!r}")
        if result.options != options:
            raise ValueError(f"round {i + 1} was scored with other options than the game's")
        if i == 0:
            units = tuple(result.net)
        elif set(result.net) != set(units):
            raise ValueError(
                f"round {i + 1} has players {sorted(result.net, key=str)!r}, not {sorted(units, key=str)!r}"
            )
        if i and result.dealer != rounds[i - 1].next_dealer:
            raise ValueError(
                f"round {i + 1} is dealt by {result.dealer!r}, but {rounds[i - 1].next_dealer!r} won "
                f"round {i} and deals next (musashino-bana.md l.13)"
            )
    running = []
    totals = dict.fromkeys(units, 0)
    for result in rounds:
        for unit, change in result.net.items():
            totals[unit] += change
        running.append(MappingProxyType(dict(totals)))
    debts = [[u, -t] for u, t in totals.items() if t < 0]
    credits = [[u, t] for u, t in totals.items() if t > 0]
    transfers = []
    for debtor in debts:
        for creditor in credits:
            amount = min(debtor[1], creditor[1])
            if amount:
                transfers.append(Payment(debtor[0], creditor[0], amount, amount))
                debtor[1] -= amount
                creditor[1] -= amount
    return Settlement(
        rounds_planned=options.rounds,
        rounds_played=len(rounds),
        units=units,
        running=tuple(running),
        totals=MappingProxyType(totals),
        transfers=tuple(transfers),
    )
