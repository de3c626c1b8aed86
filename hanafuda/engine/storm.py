"""The Storm and Sun rules of Musashino-bana (musashino-bana.md l.24–32, s.2.3).

Responsible for: which active storm card hits which side at a moment of the round, and
which storm cards the Sun (the Crane) cancelled (``storm_hits``), plus what a stormed side
loses (``STORM_A_BLOCKED``, ``STORM_B_LOST``, ``StormEffect``).

Must not: import Django, touch a database or produce translated text.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from hanafuda.engine.deck import CHERRY_POETRY_RIBBON, CRANE, CURTAIN, FULL_MOON
from hanafuda.engine.options import Options, Storm, SunTiming

# Storm rule version A: an opponent-stormed side cannot use these (musashino-bana.md l.28–29, s.2.3).
STORM_A_BLOCKED: frozenset[int] = frozenset({FULL_MOON, CURTAIN, CHERRY_POETRY_RIBBON})
# Storm rule version B: an opponent-stormed side loses these dekiyaku (musashino-bana.md l.29, s.2.3).
STORM_B_LOST: frozenset[str] = frozenset({"moon_banquet", "flower_banquet"})


@dataclass(frozen=True)
class StormEffect:
    """How the Storm rule hit one side (musashino-bana.md s.2.3).

    ``storm_cards``: the opponents' active storm cards; ``blocked_cards``: the side's own
    cards it could not use (Storm A); ``lost``: codes of the dekiyaku the storm took away.
    """

    storm_cards: tuple[int, ...]
    blocked_cards: tuple[int, ...]
    lost: tuple[str, ...]


def storm_hits(
    piles: Mapping[Hashable, frozenset[int]], options: Options, position: Mapping[int, int] | None
) -> tuple[dict[Hashable, set[int]], set[int]]:
    """Which active storm cards hit each side, and which storm cards the Sun cancelled (musashino-bana.md s.2.3)."""
    hits: dict[Hashable, set[int]] = {side: set() for side in piles}
    cancelled: set[int] = set()
    if options.storm is Storm.OFF:
        return hits, cancelled
    holder = {c: side for side, pile in piles.items() for c in pile}
    crane_side = holder.get(CRANE)
    for storm_card in sorted(options.storm_cards):
        storm_side = holder.get(storm_card)
        if storm_side is None:
            continue
        spared = None
        if options.sun_rule and crane_side is not None and crane_side != storm_side:
            timing = options.sun_timing
            if timing is SunTiming.ANY_ORDER or (
                timing is SunTiming.AFTER_STORM_CARD and position[CRANE] > position[storm_card]
            ):
                cancelled.add(storm_card)
                continue
            if timing is SunTiming.CRANE_HOLDER_ONLY:
                spared = crane_side
        for side in piles:
            if side != storm_side and side != spared:
                hits[side].add(storm_card)
    return hits, cancelled
