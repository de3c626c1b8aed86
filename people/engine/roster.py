"""The duty roster's time blocks and its warnings (pure; issue 32 item 6, docs/people.md
"Duty roster"). Times are minutes after midnight.

The blocks come from the schedule: the hour before the first game (reception, setting up),
the games until lunch, lunch, the games after lunch (without a lunch break: the games in one
block). A person named in two roles of one block, or on a role while judging a game in that
block, is in two places at once: a warning, never a refusal (the organiser decides).
"""

from __future__ import annotations

from dataclasses import dataclass

BEFORE, MORNING, LUNCH, AFTERNOON, GAMES = "before", "morning", "lunch", "afternoon", "games"
BEFORE_MINUTES = 60


@dataclass(frozen=True)
class Block:
    kind: str
    start: int
    end: int


def blocks(start: int, end: int, lunch: tuple[int, int] | None = None) -> list[Block]:
    """The roster's blocks of a day whose games run from ``start`` to ``end`` with an optional
    ``lunch`` (from, until) inside them."""
    end = max(end, start)
    found = [Block(BEFORE, max(0, start - BEFORE_MINUTES), start)]
    if lunch and start < lunch[0] < lunch[1] <= end:
        found += [Block(MORNING, start, lunch[0]), Block(LUNCH, lunch[0], lunch[1]), Block(AFTERNOON, lunch[1], end)]
    else:
        found.append(Block(GAMES, start, end))
    return found


def block_of(blocks_: list[Block], minute: int) -> int | None:
    """The index of the block holding ``minute`` (None: outside every block)."""
    for i, block in enumerate(blocks_):
        if block.start <= minute < block.end:
            return i
    return None


@dataclass(frozen=True)
class Clash:
    name: str
    block: int
    roles: tuple[str, ...]  # the roles (codes) held, "referee-game" for a game judged


def clashes(duties: list[tuple[str, int, str]], judging: list[tuple[str, int]] = ()) -> list[Clash]:
    """One person in two places: ``duties`` are (role, block, name) lines, ``judging`` the
    (name, block) of each game a referee judges. Names compare after trimming spaces. Returns
    the clashes by block and name."""
    held: dict[tuple[int, str], list[str]] = {}
    for role, block, name in duties:
        key = (block, "".join(name.split()))
        if role not in held.setdefault(key, []):
            held[key].append(role)
    for name, block in judging:
        key = (block, "".join(name.split()))
        if key in held and "referee" not in held[key] and "referee-game" not in held[key]:
            held[key].append("referee-game")
    return [Clash(name, block, tuple(roles)) for (block, name), roles in sorted(held.items()) if len(roles) > 1]
