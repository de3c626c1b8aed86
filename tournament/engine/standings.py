"""Group standings for Hitachi Folk Karuta, computed from plain result records.

Responsibility
--------------
* ``rank_group`` ranks the teams of one group (league) from its confirmed
  group games, following the organiser's ordered list of criteria
  (``docs/rules/hitachi-karuta.md``, "Standings, walkovers, knockout";
  ``docs/rules/scheduling-standings-seeding.md``, section 3.3).  Every row
  says which criterion separated it from the row above, and teams tied on
  everything share a rank until the organiser records a lot or a play-off.
* ``compare_across_groups`` orders teams from different groups (all group
  winners, all runners-up, ...) by per-game values
  (``docs/rules/scheduling-standings-seeding.md``, section 3.5).
* ``settled_ties`` tells a tie no remaining game can change (it needs a lot or
  play-off) from a provisional one (``docs/rules/standings-display.md``,
  "Provisional standings").

What it must not do
-------------------
This module is pure: standard library only, no Django import, no database
access, no I/O.  The caller loads the confirmed group games (knockout games
never count; annulled games of a withdrawn team are filtered out before),
turns them into ``MatchResult`` records with plain team ids, and maps the
returned rows back to model instances.  The output never depends on the
order of the inputs.

Units: every card value is a number of cards (取り札).  Cards collected by the
referee belong to nobody, so ``cards_a + cards_b`` may be less than 56; the
recorded counts are always used, never "56 minus the opponent".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

__all__ = [
    "CARDS_TAKEN",
    "CARD_DIFF",
    "MatchResult",
    "HEAD_TO_HEAD",
    "LOT",
    "PRESETS",
    "PRESET_BY_OPTION",
    "PRESET_CARDS_FIRST",
    "PRESET_HEAD_TO_HEAD_FIRST",
    "PRESET_JAPANESE",
    "StandingRow",
    "WINS",
    "compare_across_groups",
    "per_game_values",
    "rank_group",
    "settled_ties",
]

WINS, HEAD_TO_HEAD, CARD_DIFF, CARDS_TAKEN, LOT = (
    "wins",
    "head_to_head",
    "card_diff",
    "cards_taken",
    "lot",
)
CRITERIA = (WINS, HEAD_TO_HEAD, CARD_DIFF, CARDS_TAKEN, LOT)

# Default of docs/rules/hitachi-karuta.md, "Standings, walkovers, knockout" (Japanese karuta practice).
PRESET_JAPANESE = (WINS, CARD_DIFF, CARDS_TAKEN, HEAD_TO_HEAD, LOT)
# Second preset of the same section: head-to-head right after wins (UEFA-like).
PRESET_HEAD_TO_HEAD_FIRST = (WINS, HEAD_TO_HEAD, CARD_DIFF, CARDS_TAKEN, LOT)
# Third preset of the same section: total cards taken (取り札合計) first, as several
# 郷土かるた tournaments rank (docs/rules/hitachi-karuta.md, "Total cards taken first").
PRESET_CARDS_FIRST = (CARDS_TAKEN, WINS, CARD_DIFF, HEAD_TO_HEAD, LOT)
PRESETS = {
    "japanese": PRESET_JAPANESE,
    "head_to_head_first": PRESET_HEAD_TO_HEAD_FIRST,
    "cards_first": PRESET_CARDS_FIRST,
}
# The names of the presets in the scripting interface (``--standings`` of
# ``configure_division``) -> preset name of ``PRESETS``.
PRESET_BY_OPTION = {
    "default": "japanese",
    "cards-first": "cards_first",
    "head-to-head-first": "head_to_head_first",
}

# How a walkover's cards enter the card difference (the ``walkover_cards`` setting): counted
# as played (28–0 by default) or left out of both teams' card totals.
WALKOVER_CARDS_OPTIONS = ("count", "exclude")
DECIDED_BY = ("cards", "joker", "rps", "walkover")


@dataclass(frozen=True)
class MatchResult:
    """One confirmed group game.

    ``cards_a`` / ``cards_b`` are the recorded card counts of ``team_a`` /
    ``team_b`` (a walkover is normally recorded 28-0).  ``winner`` is the id
    of one of the two teams: every game has a winner (more cards, then the
    joker 「り」, then rock-paper-scissors).  ``decided_by`` says how:
    ``"cards"``, ``"joker"``, ``"rps"`` or ``"walkover"``; a game is a
    walkover when ``walkover`` is true or ``decided_by == "walkover"``.
    """

    team_a: int
    team_b: int
    cards_a: int
    cards_b: int
    winner: int
    walkover: bool = False
    decided_by: str = "cards"

    @property
    def is_walkover(self) -> bool:
        return self.walkover or self.decided_by == "walkover"


@dataclass
class StandingRow:
    """One row of a group table (or of a cross-group table).

    ``rank`` is 1-based and equals 1 + the number of rows strictly ahead;
    teams tied on every criterion share the rank and have ``tied=True`` (shown
    with "=").  ``separated_by`` is the criterion code that separated this row
    from the row above; it is ``None`` for the first row and for a row tied
    with the row above.  ``settled_by_lot`` is true for every team whose
    position was decided by the organiser's recorded lot or play-off.
    ``h2h_wins`` / ``h2h_card_diff`` are the mini-league values (wins, and
    card difference in cards, among the teams of the block) from the last,
    i.e. smallest, block on which head-to-head was evaluated for this team;
    ``None`` when head-to-head was never needed.  ``card_games`` is the number
    of games counted in the card columns (``played`` minus walkovers when
    walkovers are excluded from the card criteria).  ``left_out_of_h2h`` is
    true for a team that did not finish its games (``rank_group``'s
    ``unfinished``) and was left out of the mini-league of the finished teams
    it was level with, placed after them; ``h2h_without`` holds, for a team of
    such a mini-league, the unfinished teams that were left out of it.
    """

    team: int
    rank: int
    tied: bool
    played: int
    wins: int
    losses: int
    cards_taken: int
    cards_conceded: int
    card_diff: int
    joker_wins: int
    rps_wins: int
    walkover_wins: int
    walkover_losses: int
    separated_by: str | None
    settled_by_lot: bool
    h2h_wins: int | None = None
    h2h_card_diff: int | None = None
    card_matches: int | None = None
    left_out_of_h2h: bool = False
    h2h_without: tuple[int, ...] = ()


@dataclass
class _Tally:
    """Running totals of one team (cards in cards)."""

    played: int = 0
    wins: int = 0
    taken: int = 0
    conceded: int = 0
    card_matches: int = 0
    joker_wins: int = 0
    rps_wins: int = 0
    walkover_wins: int = 0
    walkover_losses: int = 0


def _check_match(match: MatchResult) -> None:
    if match.team_a == match.team_b:
        raise ValueError(f"a team cannot play itself: {match!r}")
    if match.winner not in (match.team_a, match.team_b):
        raise ValueError(f"winner {match.winner} is neither team of {match!r}")
    if match.decided_by not in DECIDED_BY:
        raise ValueError(f"unknown decided_by {match.decided_by!r} in {match!r}")


def _split(block: list[int], value: Mapping[int, object]) -> list[list[int]]:
    """Split ``block`` into sub-blocks of equal value, best (highest) first."""
    parts: dict[object, list[int]] = {}
    for team in block:
        parts.setdefault(value[team], []).append(team)
    return [parts[key] for key in sorted(parts, reverse=True)]


def _criteria(criteria: Sequence[str] | str) -> tuple[str, ...]:
    """The criterion codes of ``criteria`` (codes or a preset name); ``ValueError`` if unknown."""
    if isinstance(criteria, str):
        if criteria not in PRESETS:
            raise ValueError(f"unknown standings preset {criteria!r}")
        criteria = PRESETS[criteria]
    criteria = tuple(criteria)
    for code in criteria:
        if code not in CRITERIA:
            raise ValueError(f"unknown standings criterion {code!r}")
    return criteria


def _teams_and_matches(team_ids: Iterable[int], results: Iterable[MatchResult]) -> tuple[list[int], list[MatchResult]]:
    """The group's teams (sorted ids) and its games: every result is checked,
    games involving another team are left out."""
    team_list = list(team_ids)
    teams = sorted(set(team_list))
    if len(teams) != len(team_list):
        raise ValueError("a team id is listed twice")
    members = set(teams)
    matches = []
    for match in results:
        _check_match(match)
        if match.team_a in members and match.team_b in members:
            matches.append(match)
    return teams, matches


def _counts_cards(match: MatchResult, walkover_cards: str) -> bool:
    """Whether the game's cards count in the card columns."""
    return walkover_cards == "count" or not match.is_walkover


def _add_match(tally: _Tally, match: MatchResult, team: int, mine: int, theirs: int, counts_cards: bool) -> None:
    """Add one game of ``team`` (its cards ``mine``, the opponent's ``theirs``) to its tally."""
    won = match.winner == team
    tally.played += 1
    tally.wins += won
    if counts_cards:
        tally.card_matches += 1
        tally.taken += mine
        tally.conceded += theirs
    if match.is_walkover:
        if won:
            tally.walkover_wins += 1
        else:
            tally.walkover_losses += 1
    elif won and match.decided_by == "joker":
        tally.joker_wins += 1
    elif won and match.decided_by == "rps":
        tally.rps_wins += 1


def _tallies(teams: list[int], matches: list[MatchResult], walkover_cards: str) -> dict[int, _Tally]:
    """Each team's totals over the group's games."""
    stats = {team: _Tally() for team in teams}
    for match in matches:
        counts = _counts_cards(match, walkover_cards)
        _add_match(stats[match.team_a], match, match.team_a, match.cards_a, match.cards_b, counts)
        _add_match(stats[match.team_b], match, match.team_b, match.cards_b, match.cards_a, counts)
    return stats


class _Resolver:
    """Recursive partition refinement of a group (see :func:`rank_group`).

    After :meth:`resolve`, ``h2h_seen`` holds each team's head-to-head values
    from the last (smallest) block evaluated, and ``lot_settled`` the teams
    whose block was split by the lot.
    """

    def __init__(
        self,
        matches: list[MatchResult],
        stats: dict[int, _Tally],
        criteria: tuple[str, ...],
        lots: dict[int, int],
        walkover_cards: str,
        unfinished: frozenset[int] = frozenset(),
    ) -> None:
        self.unfinished = unfinished
        self.left_out: set[int] = set()
        self.h2h_without: dict[int, tuple[int, ...]] = {}
        self.matches = matches
        self.stats = stats
        self.criteria = criteria
        self.lots = lots
        self.walkover_cards = walkover_cards
        self.h2h_seen: dict[int, tuple[int, int]] = {}
        self.lot_settled: set[int] = set()

    def head_to_head(self, block: list[int]) -> dict[int, tuple[int, int]]:
        """Mini-league of ``block``: wins among its teams, then card difference among them."""
        inside = set(block)
        wins = dict.fromkeys(block, 0)
        diff = dict.fromkeys(block, 0)
        for match in self.matches:
            if match.team_a in inside and match.team_b in inside:
                wins[match.winner] += 1
                if _counts_cards(match, self.walkover_cards):
                    diff[match.team_a] += match.cards_a - match.cards_b
                    diff[match.team_b] += match.cards_b - match.cards_a
        values = {team: (wins[team], diff[team]) for team in block}
        self.h2h_seen.update(values)
        return values

    def value_of(self, code: str, block: list[int]) -> dict[int, object]:
        """Each team's value for criterion ``code`` within ``block``, higher is better."""
        if code == HEAD_TO_HEAD:
            out = sorted(team for team in block if team in self.unfinished)
            if not out or len(out) == len(block):
                return self.head_to_head(block)
            # A team that did not finish its games is left out of the comparison: the
            # mini-league is played among the finished teams only, and the unfinished ones
            # come after them (docs/rules/scheduling-standings-seeding.md, section 3.9).
            finished = [team for team in block if team not in self.unfinished]
            values = {team: (1, value) for team, value in self.head_to_head(finished).items()}
            for team in finished:
                self.h2h_without[team] = tuple(out)
            self.left_out.update(out)
            return {**values, **dict.fromkeys(out, (0, (0, 0)))}
        if code == LOT:
            if all(team in self.lots for team in block):
                return {team: -self.lots[team] for team in block}
            return dict.fromkeys(block, 0)
        stats = self.stats
        if code == WINS:
            return {team: stats[team].wins for team in block}
        if code == CARD_DIFF:
            return {team: stats[team].taken - stats[team].conceded for team in block}
        return {team: stats[team].taken for team in block}  # CARDS_TAKEN

    def resolve(self, block: list[int]) -> list[tuple[list[int], str | None]]:
        """Return the final tied blocks of ``block``, best first, each with the
        criterion separating its first team from the row above (``None`` for
        the first block: the caller knows that separator)."""
        if len(block) > 1:
            for code in self.criteria:
                parts = _split(block, self.value_of(code, block))
                if len(parts) > 1:
                    if code == LOT:
                        self.lot_settled.update(block)
                    out: list[tuple[list[int], str | None]] = []
                    for i, part in enumerate(parts):
                        sub = self.resolve(part)
                        if i:
                            sub[0] = (sub[0][0], code)
                        out.extend(sub)
                    return out
        return [(sorted(block), None)]


def _row(team: int, t: _Tally, rank: int, tied: bool, separator: str | None, resolver: _Resolver) -> StandingRow:
    h2h = resolver.h2h_seen.get(team, (None, None))
    return StandingRow(
        team=team,
        rank=rank,
        tied=tied,
        played=t.played,
        wins=t.wins,
        losses=t.played - t.wins,
        cards_taken=t.taken,
        cards_conceded=t.conceded,
        card_diff=t.taken - t.conceded,
        joker_wins=t.joker_wins,
        rps_wins=t.rps_wins,
        walkover_wins=t.walkover_wins,
        walkover_losses=t.walkover_losses,
        separated_by=separator,
        settled_by_lot=team in resolver.lot_settled,
        h2h_wins=h2h[0],
        h2h_card_diff=h2h[1],
        card_matches=t.card_matches,
        left_out_of_h2h=team in resolver.left_out,
        h2h_without=resolver.h2h_without.get(team, ()),
    )


def rank_group(
    team_ids: Iterable[int],
    results: Iterable[MatchResult],
    criteria: Sequence[str] | str = PRESET_JAPANESE,
    lots: Mapping[int, int] | None = None,
    walkover_cards: str = "count",
    unfinished: Iterable[int] = (),
) -> list[StandingRow]:
    """Rank the teams of one group; return one ``StandingRow`` per team, best first.

    Inputs:

    * ``team_ids``: the group's teams (ids); games involving any other team
      are ignored.
    * ``results``: the confirmed group games (``MatchResult``), in any order.
    * ``criteria``: ordered criterion codes (``WINS``, ``HEAD_TO_HEAD``,
      ``CARD_DIFF``, ``CARDS_TAKEN``, ``LOT``) or a preset name of
      ``PRESETS``.  ``WINS``, ``CARD_DIFF`` (cards taken minus cards
      conceded) and ``CARDS_TAKEN`` are overall values, higher is better.
      ``HEAD_TO_HEAD`` is a mini-league among the teams of the block being
      resolved, over their games only: wins among them, then card difference
      among them.
    * ``lots``: team id -> position (1 best) recorded by the organiser (a
      drawn lot or a play-off).  ``LOT`` splits a block only when every team
      of the block has a position; otherwise the block stays tied.
    * ``walkover_cards``: ``"count"`` (walkover cards count as recorded,
      normally 28-0) or ``"exclude"`` (walkover games are left out of the
      card columns and of the head-to-head card difference, but still count
      as played, won and lost).
    * ``unfinished``: teams of the group that did not finish their games (a
      team that withdrew during the groups under the "walkovers" setting: its
      played games stand, the rest are walkovers).  Such a team is left out of
      the head-to-head comparison of the finished teams it is level with: their
      mini-league counts only the games among the finished teams, and the
      unfinished teams are placed after them (separated by ``HEAD_TO_HEAD``,
      ``left_out_of_h2h``).  A block of unfinished teams only is compared as
      usual.  ``docs/rules/scheduling-standings-seeding.md``, section 3.9.

    Algorithm (``docs/rules/hitachi-karuta.md``, "Standings, walkovers,
    knockout"; ``docs/rules/scheduling-standings-seeding.md``, section 3.3):
    recursive partition refinement, never a pairwise comparator.  A block of
    teams is split by the first criterion, in order, whose values differ
    inside it; each
    sub-block (best first) of two or more teams is resolved again from the
    top of the list, so head-to-head is re-applied to any smaller block still
    tied.  A block that no criterion splits is a tie: its teams share the
    best rank of the block.  Within a tie the rows are listed by team id;
    that is display order only, the rank is shared.

    Raises ``ValueError`` for an unknown criterion, preset or
    ``walkover_cards`` value, a repeated team id, or a game whose winner is
    neither of its teams (or with an unknown ``decided_by``).
    """
    criteria = _criteria(criteria)
    if walkover_cards not in WALKOVER_CARDS_OPTIONS:
        raise ValueError(f"walkover_cards must be one of {WALKOVER_CARDS_OPTIONS}")
    teams, matches = _teams_and_matches(team_ids, results)
    stats = _tallies(teams, matches, walkover_cards)
    resolver = _Resolver(
        matches, stats, criteria, dict(lots or {}), walkover_cards, frozenset(unfinished) & frozenset(teams)
    )
    rows: list[StandingRow] = []
    for block, separator in resolver.resolve(teams):
        rank = len(rows) + 1
        rows += [
            _row(team, stats[team], rank, len(block) > 1, separator if i == 0 else None, resolver)
            for i, team in enumerate(block)
        ]
    return rows


def _per_match(row: StandingRow) -> tuple[Fraction, Fraction, Fraction]:
    matches = row.played
    card_matches = row.card_matches if row.card_matches is not None else row.played
    return (
        Fraction(row.wins, matches) if matches else Fraction(0),
        Fraction(row.card_diff, card_matches) if card_matches else Fraction(0),
        Fraction(row.cards_taken, card_matches) if card_matches else Fraction(0),
    )


def per_game_values(row: StandingRow) -> tuple[Fraction, Fraction, Fraction]:
    """The values a cross-group comparison uses for ``row`` (section 3.5): wins per game
    played, card difference per game and cards taken per game (cards over ``card_matches``
    when walkovers are left out of the card criteria).  A row without games gives zeros."""
    return _per_match(row)


def compare_across_groups(rows: Iterable[StandingRow]) -> list[StandingRow]:
    """Order teams from different groups (e.g. all group winners); best first.

    Groups may differ in size (after a withdrawal), so values are taken per
    game (``docs/rules/scheduling-standings-seeding.md``, section 3.5): wins
    per game played, then card difference per game, then cards taken per
    game (cards per game: over ``card_games`` when the row has it, so
    excluded walkovers do not dilute the average).  Head-to-head is
    impossible across groups and lots are not applied here.  Raises nothing.

    Returns new ``StandingRow`` objects (copies of the inputs) whose ``rank``,
    ``tied`` and ``separated_by`` describe this cross-group table
    (``separated_by`` is ``WINS``, ``CARD_DIFF`` or ``CARDS_TAKEN``, meaning
    the per-game value); ``settled_by_lot`` is false and the head-to-head
    fields are ``None``.  Teams equal on all three values share the rank and
    have ``tied=True``: the organiser must decide; they are listed by team id
    for display only.  The result does not depend on the input order.
    """
    codes = (WINS, CARD_DIFF, CARDS_TAKEN)
    keyed = sorted(((_per_match(r), r) for r in rows), key=lambda kr: (tuple(-v for v in kr[0]), kr[1].team))
    out: list[StandingRow] = []
    for i, (key, row) in enumerate(keyed):
        prev = keyed[i - 1][0] if i else None
        nxt = keyed[i + 1][0] if i + 1 < len(keyed) else None
        if prev == key:
            rank, separator = out[-1].rank, None
        else:
            rank = i + 1
            separator = None if prev is None else next(c for c, a, b in zip(codes, prev, key, strict=True) if a != b)
        out.append(
            replace(
                row,
                rank=rank,
                tied=key in (prev, nxt),
                separated_by=separator,
                settled_by_lot=False,
                h2h_wins=None,
                h2h_card_diff=None,
            )
        )
    return out


def apply_lots_across_groups(rows: list[StandingRow], positions: Mapping[int, int]) -> list[StandingRow]:
    """Settle the full ties of a cross-group table (:func:`compare_across_groups`) by lot.

    ``positions``: team id → position drawn (1 = first) among the tied teams, as the
    organiser recorded it. A block of teams sharing a rank is put in lot order only when
    every team of the block has a position; its rows then get consecutive ranks,
    ``tied=False``, ``separated_by=LOT`` (after the first) and ``settled_by_lot=True``.
    A block with a team missing stays tied. Returns new rows; the input is not changed.
    """
    out: list[StandingRow] = []
    i = 0
    while i < len(rows):
        j = i
        while j + 1 < len(rows) and rows[j + 1].rank == rows[i].rank:
            j += 1
        block = rows[i : j + 1]
        if len(block) > 1 and all(r.team in positions for r in block):
            ordered = sorted(block, key=lambda r: positions[r.team])
            out += [
                replace(
                    r,
                    rank=rows[i].rank + k,
                    tied=False,
                    settled_by_lot=True,
                    separated_by=LOT if k else rows[i].separated_by,
                )
                for k, r in enumerate(ordered)
            ]
        else:
            out += [replace(r) for r in block]
        i = j + 1
    return out


def _cannot_join(row: StandingRow, games_left: int, tied: StandingRow, prefix: tuple[str, ...]) -> bool:
    """Whether team ``row``, with ``games_left`` games still to play, can never equal
    ``tied`` on every criterion of ``prefix``: its wins can only grow by at most one a
    game, its cards taken can only grow. Card difference can move either way: it proves
    nothing."""
    for code in prefix:
        if code == WINS and not row.wins <= tied.wins <= row.wins + games_left:
            return True
        if code == CARDS_TAKEN and row.cards_taken > tied.cards_taken:
            return True
    return False


def settled_ties(
    rows: Sequence[StandingRow],
    games_left: Mapping[int, int],
    criteria: Sequence[str] | str = PRESET_JAPANESE,
) -> set[int]:
    """The teams of ``rows`` (from :func:`rank_group`) whose tie no remaining game can change.

    Input: the rows of one group, ``games_left`` (team id -> number of the team's group
    games still without a confirmed result; a missing team has none) and the criteria
    the rows were ranked with. Output: the ids of the tied teams whose tie is final:
    only a lot or play-off can separate them. Every other tied team's tie is
    provisional (暫定): a game still to play may separate it
    (``docs/rules/standings-display.md``, "Provisional standings").

    Rule (sound, never optimistic): a tied block is final when none of its teams has a
    game left and no team with a game left can ever be equal to the block on every
    criterion before head-to-head (all criteria when head-to-head is not used). Then the
    block of teams that head-to-head is evaluated on is made of teams whose games are
    all played, so its mini-league, its values and its members are fixed. A team is
    proved unable to join by its wins (at most one more win a game left) or its cards
    taken (they never go down); card difference proves nothing. With every game played
    every tie is final. Raises ``ValueError`` for an unknown criterion or preset.
    """
    criteria = _criteria(criteria)
    prefix = criteria[: criteria.index(HEAD_TO_HEAD)] if HEAD_TO_HEAD in criteria else criteria
    prefix = tuple(code for code in prefix if code != LOT)
    open_rows = [row for row in rows if games_left.get(row.team, 0) > 0]
    blocks: dict[int, list[StandingRow]] = {}
    for row in rows:
        if row.tied:
            blocks.setdefault(row.rank, []).append(row)
    settled: set[int] = set()
    for block in blocks.values():
        if any(games_left.get(row.team, 0) > 0 for row in block):
            continue
        if all(_cannot_join(other, games_left[other.team], block[0], prefix) for other in open_rows):
            settled.update(row.team for row in block)
    return settled
