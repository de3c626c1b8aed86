"""Dealing a Musashino-bana round: the deal layout, misdeals, the first dealer (with re-draws
on a tie) and which partner deals for a team.

Must not: import Django, touch a database or produce translated text. Bad card ids raise
``ValueError``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from hanafuda.engine.deck import CARD_BY_ID, DECK_SIZE, CardType, checked_card_id, checked_pile, describe
from hanafuda.engine.options import DEFAULT_OPTIONS, FourPlayerDeal, Options, Players, TeamDealer


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


# The kinds of card from the highest to the lowest: the rank a player sees on a drawn card.
_RANK_SHOWN = (CardType.BRIGHT, CardType.ANIMAL, CardType.RIBBON, CardType.CHAFF)


def draw_rank(card_id: int) -> tuple[int, int]:
    """How early a drawn card is, as (month 1–12, rank within the month 0–3): the lower the
    earlier (musashino-bana.md l.12, read in s.2.2 item 2). The rank is the one a player sees, the kind of card
    (bright, animal, ribbon, chaff): two chaff cards of one month (the yellow-bottom
    paulownia chaff included) are equal. ``ValueError`` for an unknown card."""
    card = CARD_BY_ID[checked_card_id(card_id, "draw_rank()")]
    return card.month, _RANK_SHOWN.index(card.type)


@dataclass(frozen=True)
class DrawOutcome:
    """The result of drawing for the first dealer: ``dealer`` (a player key) once decided,
    else ``None`` and ``tied``: the players who drew equal earliest cards and draw again,
    in the order they were given."""

    dealer: Hashable | None
    tied: tuple[Hashable, ...] = ()


def _checked_draw(draws: Mapping[Hashable, int], where: str) -> dict[Hashable, int]:
    if not isinstance(draws, Mapping) or not draws:
        raise ValueError(f"{where} must map each player to the card drawn, got {draws!r}")
    seen: dict[int, Hashable] = {}
    for player, value in draws.items():
        card_id = checked_card_id(value, f"{where}[{player!r}]")
        if card_id in seen:
            raise ValueError(f"card {describe(card_id)} is drawn by both {seen[card_id]!r} and {player!r}")
        seen[card_id] = player
    return dict(draws)


def draw_once(draws: Mapping[Hashable, int]) -> DrawOutcome:
    """One draw: each player (any key) mapped to the card id drawn. The earliest month deals;
    within a month the higher-ranked card; players whose cards are equal (same month, same
    rank shown) and earliest draw again (musashino-bana.md l.12). ``ValueError`` for unknown
    or repeated cards."""
    checked = _checked_draw(draws, "draws")
    best = min(draw_rank(c) for c in checked.values())
    earliest = tuple(p for p, c in checked.items() if draw_rank(c) == best)
    if len(earliest) == 1:
        return DrawOutcome(earliest[0])
    return DrawOutcome(None, earliest)


def settle_draws(draws: Sequence[Mapping[Hashable, int]]) -> DrawOutcome:
    """The first dealer from every draw in order: the first by all players, each later one a
    re-draw by exactly the players the previous draw left tied (musashino-bana.md l.12).
    Returns the dealer, or the players still tied who must draw again. ``ValueError`` for no
    draw, bad cards, a draw after the dealer is known, or a re-draw by other players."""
    if isinstance(draws, Mapping) or not isinstance(draws, Sequence) or not draws:
        raise ValueError(f"draws must be a list of draws, the first by every player, got {draws!r}")
    outcome = draw_once(draws[0])
    for number, draw in enumerate(draws[1:], start=2):
        if outcome.dealer is not None:
            raise ValueError(f"draw {number}: the dealer was already decided")
        checked = _checked_draw(draw, f"draws[{number - 1}]")
        if set(checked) != set(outcome.tied):
            raise ValueError(f"draw {number}: only the tied players {list(outcome.tied)!r} draw again")
        outcome = draw_once(checked)
    return outcome


def first_dealer(draws: Mapping[Hashable, int]) -> Hashable:
    """The first dealer from one drawn card per player when that draw decides it: the earliest
    month, and within a month the higher-ranked card (musashino-bana.md l.12). ``ValueError``
    for unknown or repeated cards, and when players tie (they must draw again: ``settle_draws``)."""
    outcome = draw_once(draws)
    if outcome.dealer is None:
        raise ValueError(f"players {list(outcome.tied)!r} drew equal cards and must draw again")
    return outcome.dealer


def team_dealers(
    dealing_sides: Iterable[int], first_partner: int = 0, rule: TeamDealer = TeamDealer.PARTNERS_TAKE_TURNS
) -> list[int]:
    """Which partner (0 = the team's first player, 1 = the second) deals each round of a team
    game, from the team (0 or 1) dealing each round in order. ``first_partner``: the partner
    of the first round's team who deals it (the one who drew the earliest card); the other
    team starts with its first player. ``rule`` is the house rule M17 (``Options.team_dealer``):
    the partners take turns each time their team deals, or the same partner always deals.
    ``ValueError`` for a team or partner other than 0 or 1."""
    if first_partner not in (0, 1) or isinstance(first_partner, bool):
        raise ValueError(f"first_partner must be 0 or 1, got {first_partner!r}")
    sides = list(dealing_sides)
    if any(side not in (0, 1) or isinstance(side, bool) for side in sides):
        raise ValueError(f"dealing_sides must be teams 0 or 1, got {sides!r}")
    start = {0: 0, 1: 0}
    if sides:
        start[sides[0]] = first_partner
    deals = {0: 0, 1: 0}
    out = []
    for side in sides:
        if rule is TeamDealer.SAME_PLAYER:
            out.append(start[side])
        else:
            out.append((start[side] + deals[side]) % 2)
        deals[side] += 1
    return out
