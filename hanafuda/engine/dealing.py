"""Dealing a Musashino-bana round: the deal layout, misdeals and the first dealer.

Must not: import Django, touch a database or produce translated text. Bad card ids raise
``ValueError``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass

from hanafuda.engine.deck import CARD_BY_ID, DECK_SIZE, checked_card_id, checked_pile, describe
from hanafuda.engine.options import DEFAULT_OPTIONS, FourPlayerDeal, Options, Players


@dataclass(frozen=True)
class DealLayout:
    """How the 48 cards are dealt: players, cards per hand, face up on the table, draw pile."""

    players: int
    hand_size: int
    table_size: int
    draw_pile: int


def deal_layout(options: Options = DEFAULT_OPTIONS) -> DealLayout:
    """The deal for the options: 3 players get 7 each and 6 on the table (musashino-bana.md
    l.16); 4 players 5 + 8 or 6 + 0 (musashino-bana.md l.17–19, M14)."""
    if options.players is Players.THREE:
        players, hand, table = 3, 7, 6
    elif options.four_player_deal is FourPlayerDeal.FIVE_EIGHT:
        players, hand, table = 4, 5, 8
    else:
        players, hand, table = 4, 6, 0
    return DealLayout(players, hand, table, DECK_SIZE - players * hand - table)


def is_misdeal(table: Iterable[int], hands: Iterable[Iterable[int]] = (), options: Options = DEFAULT_OPTIONS) -> bool:
    """True when the deal must be redone: all 4 cards of a month on the table (musashino-bana.md l.21), or
    in one hand when ``options.misdeal_four_in_hand`` (M15). ``ValueError`` for bad ids."""
    groups = [checked_pile(table, "table")]
    if options.misdeal_four_in_hand:
        groups += [checked_pile(hand, f"hands[{i}]") for i, hand in enumerate(hands)]
    for group in groups:
        months = [CARD_BY_ID[c].month for c in group]
        if any(months.count(m) == 4 for m in set(months)):
            return True
    return False


def first_dealer(draws: Mapping[Hashable, int]) -> Hashable:
    """The first dealer from one drawn card per player: the earliest month, and within a month
    the higher-ranked card (lower rank number) (musashino-bana.md l.12). Cards are distinct, so there is
    always exactly one. ``ValueError`` for unknown or repeated cards."""
    if not isinstance(draws, Mapping) or not draws:
        raise ValueError(f"draws must map each player to the card drawn, got {draws!r}")
    seen: dict[int, Hashable] = {}
    for player, value in draws.items():
        card_id = checked_card_id(value, f"draws[{player!r}]")
        if card_id in seen:
            raise ValueError(f"card {describe(card_id)} is drawn by both {seen[card_id]!r} and {player!r}")
        seen[card_id] = player
    return seen[min(seen, key=lambda c: (CARD_BY_ID[c].month, CARD_BY_ID[c].rank))]
