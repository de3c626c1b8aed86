"""Checks of what a caller gives ``score_round``: the piles, the capture order and the teams.

Responsible for: turning the caller's values into checked ones (``check_captures``,
``check_order``, ``check_teams``) and refusing piles no round can leave
(``check_month_counts``). Every refusal is a ``ValueError`` whose message names the side,
the card or the capture at fault.

Must not: import Django, touch a database or produce translated text.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

from hanafuda.engine.deck import CARD_BY_ID, FLOWERS, checked_card_id, describe
from hanafuda.engine.options import Options, Players


def check_captures(captures: Mapping[Hashable, Iterable[int]], options: Options) -> dict[Hashable, frozenset[int]]:
    if not isinstance(captures, Mapping):
        raise ValueError(f"captures must map each side to its captured card ids, got {captures!r}")
    if len(captures) != options.sides:
        what = "3 players" if options.players is Players.THREE else "2 teams"
        raise ValueError(f"{what} need {options.sides} sides in captures, got {len(captures)}: {list(captures)!r}")
    owner: dict[int, Hashable] = {}
    piles = {}
    for side, cards in captures.items():
        where = f"captures[{side!r}]"
        if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
            raise ValueError(f"{where}: expected a collection of card ids, got {cards!r}")
        pile: set[int] = set()
        for value in cards:
            card_id = checked_card_id(value, where)
            if card_id in pile:
                raise ValueError(f"{where}: card {describe(card_id)} is listed twice")
            if card_id in owner:
                raise ValueError(f"card {describe(card_id)} is captured twice: by {owner[card_id]!r} and by {side!r}")
            pile.add(card_id)
            owner[card_id] = side
        piles[side] = frozenset(pile)
    return piles


def check_month_counts(piles: Mapping[Hashable, frozenset[int]]) -> None:
    """``ValueError`` unless each pile holds 0, 2 or 4 cards of each month."""
    # Every capture takes 2 or 4 cards of one month (musashino-bana.md s.1.2), so a pile holds 0, 2 or 4 of each.
    for side, pile in piles.items():
        for flower in FLOWERS:
            held = sorted(c for c in pile if CARD_BY_ID[c].month == flower.month)
            if len(held) % 2:
                raise ValueError(
                    f"captures[{side!r}] holds {len(held)} card(s) of month {flower.month} ({flower.name_en}): "
                    f"{held}; every capture takes 2 or 4 cards of one month, so a pile holds 0, 2 or 4 of "
                    "each month (pass partial=True to list only the cards that matter)"
                )


def check_order(
    capture_order: Sequence[tuple[Hashable, int | Iterable[int]]],
    piles: Mapping[Hashable, frozenset[int]],
    partial: bool,
) -> tuple[tuple[Hashable, frozenset[int]], ...]:
    if isinstance(capture_order, (str, bytes)) or not isinstance(capture_order, Iterable):
        raise ValueError(f"capture_order must be a sequence of (side, card ids) pairs, got {capture_order!r}")
    events = []
    seen: set[int] = set()
    for i, item in enumerate(capture_order):
        where = f"capture_order[{i}]"
        try:
            side, cards = item
        except (TypeError, ValueError):
            raise ValueError(f"{where} must be a (side, card ids) pair, got {item!r}") from None
        if side not in piles:
            raise ValueError(f"{where}: unknown side {side!r} (sides: {list(piles)!r})")
        values = (cards,) if isinstance(cards, int) else cards
        if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
            raise ValueError(f"{where}: expected a card id or a collection of card ids, got {cards!r}")
        ids = [checked_card_id(v, where) for v in values]
        if not ids:
            raise ValueError(f"{where}: a capture takes at least one card")
        months = sorted({CARD_BY_ID[c].month for c in ids})
        if len(months) > 1:
            raise ValueError(f"{where}: one capture takes cards of one month, got months {months}")
        if not partial and len(ids) not in (2, 4):
            raise ValueError(
                f"{where}: a capture takes 2 or 4 cards of one month, got {len(ids)} "
                "(pass partial=True to record single cards)"
            )
        for c in ids:
            if c in seen:
                raise ValueError(f"{where}: card {describe(c)} is captured twice in capture_order")
            if c not in piles[side]:
                others = [s for s, p in piles.items() if c in p]
                held_by = f"by {others[0]!r}" if others else "by nobody"
                raise ValueError(f"{where}: gives card {describe(c)} to {side!r}, but captures has it {held_by}")
            seen.add(c)
        events.append((side, frozenset(ids)))
    missing = sorted(set().union(*piles.values()) - seen)
    if missing:
        raise ValueError(f"capture_order leaves out captured card(s) {missing}")
    return tuple(events)


def check_teams(teams: Mapping[Hashable, Sequence[Hashable]], sides: Sequence[Hashable]) -> dict:
    if not isinstance(teams, Mapping) or set(teams) != set(sides):
        raise ValueError(f"teams must map each team {list(sides)!r} to its two players, got {teams!r}")
    out = {}
    players: set[Hashable] = set()
    for team in sides:
        members = teams[team]
        if isinstance(members, (str, bytes)) or not isinstance(members, Iterable):
            raise ValueError(f"teams[{team!r}] must list two players, got {members!r}")
        members = tuple(members)
        if len(members) != 2 or len(set(members)) != 2:
            raise ValueError(f"teams[{team!r}] must list two different players, got {members!r}")
        if players & set(members):
            raise ValueError(f"a player is in both teams: {sorted(players & set(members), key=str)!r}")
        players |= set(members)
        out[team] = members
    return out
