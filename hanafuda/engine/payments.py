"""Who pays whom at the end of a Musashino-bana round (musashino-bana.md l.34–37, s.1.3).

Responsible for: the amounts before the cap, each loser paying the winner the difference
(``difference_amounts``, ties by M3) or the insta-win value (``insta_win_amounts``, M1),
and turning them into ``Payment`` rows with the cap (M2) and the team rule (M13)
(``round_payments``). Points throughout.

Must not: import Django, touch a database or produce translated text.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from hanafuda.engine.options import InstaWinPayment, Options, Players, TeamPayment, TieRule


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``amount`` points to ``payee``; ``uncapped`` is the amount before the cap (M2)."""

    payer: Hashable
    payee: Hashable
    amount: int
    uncapped: int


def difference_amounts(scores, turn_order, options):
    """Winners, next dealer and (payer, payee, amount) before the cap: each loser pays the
    winner the difference (musashino-bana.md l.37); ties by ``tie_rule`` (M3, musashino-bana.md s.1.3)."""
    top = max(scores.values())
    tied = [s for s in turn_order if scores[s] == top]
    leader = tied[0]  # the tied side first in turn order from the dealer
    if len(tied) == 1 or options.tie_rule is TieRule.LEADER:
        return (leader,), leader, [(s, leader, top - scores[s]) for s in turn_order if s != leader]
    if options.tie_rule is TieRule.ALL_TIED_WIN:
        return tuple(tied), leader, [(s, w, top - scores[s]) for s in turn_order if s not in tied for w in tied]
    return (), leader, []


def insta_win_amounts(winner, turn_order, options):
    """(payer, payee, amount) of an insta-win before the cap (musashino-bana.md l.34; M1)."""
    losers = [s for s in turn_order if s != winner]
    if options.insta_win_payment is InstaWinPayment.EACH_SIDE:
        amount = options.insta_win_value
    else:
        amount, rest = divmod(options.insta_win_value, len(losers))
        if rest:
            raise ValueError(
                f"insta_win_value {options.insta_win_value} cannot be shared equally by {len(losers)} sides"
            )
    return [(s, winner, amount) for s in losers]


def round_payments(
    raw: Sequence[tuple[Hashable, Hashable, int]],
    turn_order: tuple[Hashable, ...],
    options: Options,
    team_members: Mapping[Hashable, Sequence[Hashable]] | None,
) -> tuple[tuple[Payment, ...], dict[Hashable, int], dict[Hashable, int]]:
    """The payments of a round and what each unit and side gains.

    Input: ``raw`` (payer side, payee side, amount before the cap) as ``difference_amounts``
    or ``insta_win_amounts`` give them, the sides in turn order, the options and, for two
    teams, team → its two players (required under M13(b)). Zero amounts are dropped and the
    others capped by ``payment_cap`` (M2). Under ``team_payment=EACH_PLAYER`` (M13(b)) each
    player of the paying team pays each player of the receiving team the team's amount.

    Output: (payments, net: unit → change of points (zero-sum), side_net: side → the same
    summed per side); a unit is a side, or a player under M13(b).
    """
    per_player = options.players is Players.TWO_TEAMS and options.team_payment is TeamPayment.EACH_PLAYER
    side_payments = [
        Payment(payer, payee, amount if options.payment_cap is None else min(amount, options.payment_cap), amount)
        for payer, payee, amount in raw
        if amount > 0
    ]
    if per_player:
        payments = tuple(
            Payment(p, q, pay.amount, pay.uncapped)
            for pay in side_payments
            for p in team_members[pay.payer]
            for q in team_members[pay.payee]
        )
        units = [p for s in turn_order for p in team_members[s]]
    else:
        payments = tuple(side_payments)
        units = list(turn_order)
    net = dict.fromkeys(units, 0)
    for pay in payments:
        net[pay.payer] -= pay.amount
        net[pay.payee] += pay.amount
    team_of = {p: s for s in turn_order for p in team_members[s]} if per_player else {s: s for s in turn_order}
    side_net = dict.fromkeys(turn_order, 0)
    for unit, change in net.items():
        side_net[team_of[unit]] += change
    return payments, net, side_net
