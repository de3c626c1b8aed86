"""Which dekiyaku a pile of captured cards forms, under the house rules.

Responsible for: the composition of each dekiyaku under the options (``composition``:
M4, M6, M7, M16), counting a dekiyaku in a pile (M8), the suppression rule (M5) and
``formed_dekiyaku``, which shows a side its dekiyaku during play. The Storm rule is
``hanafuda.engine.storm``; scoring a round is ``hanafuda.engine.scoring``.

Must not: import Django, touch a database or produce translated text.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hanafuda.engine.deck import CARD_BY_ID, CRANE, CURTAIN, FULL_MOON, PHOENIX, CardType, cards_of_month, checked_pile
from hanafuda.engine.dekiyaku import DEKIYAKU, DEKIYAKU_BY_CODE, FLOWER_CODES, Dekiyaku
from hanafuda.engine.options import DEFAULT_OPTIONS, FlowerCards, FourBrights, Options, Repeats, Suppression


def composition(code: str, options: Options = DEFAULT_OPTIONS) -> tuple[frozenset[int], ...]:
    """The slots of a dekiyaku under the options (M4, M6, M7, M16); ``ValueError`` for an unknown code."""
    if code not in DEKIYAKU_BY_CODE:
        raise ValueError(f"unknown dekiyaku code {code!r}")
    return _slot_table(options)[code]


@functools.lru_cache(maxsize=64)
def _slot_table(options: Options) -> Mapping[str, tuple[frozenset[int], ...]]:
    table = {}
    for d in DEKIYAKU:
        slots = d.slots
        if d.code == "four_brights":
            fourth = options.lightning_card if options.four_brights is FourBrights.LIGHTNING else CURTAIN
            slots = tuple(frozenset({c}) for c in (CRANE, FULL_MOON, fourth, PHOENIX))
        elif d.code in FLOWER_CODES:
            if options.flower_cards is FlowerCards.ANY_CARD:
                slots = tuple(cards_of_month(CARD_BY_ID[min(s)].month) for s in slots)
            elif options.flower_cards is FlowerCards.CHAFF:
                slots = tuple(
                    frozenset(
                        c for c in cards_of_month(CARD_BY_ID[min(s)].month) if CARD_BY_ID[c].type is CardType.CHAFF
                    )
                    for s in slots
                )
        elif d.code in options.any_card_of_month:
            slots = tuple(cards_of_month(CARD_BY_ID[min(s)].month) for s in slots)
        table[d.code] = slots
    return MappingProxyType(table)


@dataclass(frozen=True)
class ScoredYaku:
    """A dekiyaku formed by a side: the cards it uses (sorted ids) and how many times it counts."""

    dekiyaku: Dekiyaku
    cards: tuple[int, ...]
    count: int = 1

    @property
    def code(self) -> str:
        return self.dekiyaku.code

    @property
    def value(self) -> int:
        return self.dekiyaku.value

    @property
    def points(self) -> int:
        return self.dekiyaku.value * self.count


def _count(slots: tuple[frozenset[int], ...], cards: frozenset[int], repeats: Repeats) -> tuple[int, tuple[int, ...]]:
    """How many times a composition is formed from ``cards`` and the cards it uses."""
    held = [sorted(slot & cards) for slot in slots]
    if not all(held):
        return 0, ()
    # Slots are disjoint in every composition, so one card per slot is a valid choice.
    if repeats is Repeats.ONCE:
        return 1, tuple(sorted(h[0] for h in held))
    alternatives = [len(h) for slot, h in zip(slots, held, strict=True) if len(slot) > 1]
    count = min(alternatives) if alternatives else 1
    used = [c for slot, h in zip(slots, held, strict=True) for c in (h if len(slot) == 1 else h[:count])]
    return count, tuple(sorted(used))


def formed(cards: frozenset[int], options: Options, insta_win: bool) -> list[ScoredYaku]:
    table = _slot_table(options)
    out = []
    for d in DEKIYAKU:
        if d.insta_win != insta_win:
            continue
        count, used = _count(table[d.code], cards, options.repeats)
        if count:
            out.append(ScoredYaku(d, used, count))
    return out


def suppress(formed: list[ScoredYaku], options: Options) -> tuple[list[ScoredYaku], tuple[str, ...]]:
    codes = {y.code for y in formed}
    if options.suppression is Suppression.FOUR_BRIGHTS_ONLY:
        dropped = {c for y in formed for c in y.dekiyaku.suppresses} & codes
    else:
        dropped = {y.code for y in formed if any(z.value > y.value and set(y.cards) <= set(z.cards) for z in formed)}
    kept = [y for y in formed if y.code not in dropped]
    return kept, tuple(y.code for y in formed if y.code in dropped)


def formed_dekiyaku(cards: Iterable[int], options: Options = DEFAULT_OPTIONS) -> tuple[ScoredYaku, ...]:
    """The dekiyaku a set of captured cards forms, ignoring the Storm rule.

    Input: card ids. Output: the insta-win dekiyaku formed (if any) followed by the other
    dekiyaku after suppression (M5), in table order. Useful to show a side its dekiyaku
    during play. ``ValueError`` for unknown or repeated ids.
    """
    pile = checked_pile(cards, "formed_dekiyaku()")
    kept, _ = suppress(formed(pile, options, insta_win=False), options)
    return tuple(formed(pile, options, insta_win=True) + kept)
