"""Individual card counts (個人枚数): each player's cards in a game, optional per event.

Pure: no Django. The referee may give each player's cards; blank means "not given". When
any player of a side is given, the given counts of that side must add up to the side's
team count (the cards of the three players, substitutes included, are the team's cards:
docs/rules/hitachi-karuta.md, "Individual card counts (choice)").
"""

from __future__ import annotations

from collections.abc import Iterable


def side_sum_problem(counts: Iterable[int | None], team_cards: int) -> int | None:
    """The sum of the given ``counts`` of one side when it differs from ``team_cards``.

    In: the side's counts (``None`` = not given) and the team's count on the sheet. Out:
    ``None`` when nothing is given or the given counts add up to ``team_cards``; else their
    sum (for the message). Never raises.
    """
    given = [c for c in counts if c is not None]
    if not given:
        return None
    total = sum(given)
    return None if total == team_cards else total
