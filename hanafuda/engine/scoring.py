"""Scoring one Musashino-bana round from each side's captured cards (``score_round``).

Responsible for: the insta-win that stops a round (Five Kings, Seven Red Ribbons:
musashino-bana.md l.34, l.42; M9, M12), each side's dekiyaku and points after the Storm and Sun rules and the
suppression rule, the winners and the next dealer, and the round's payments (through
``hanafuda.engine.payments``). The result is a ``RoundResult``.

Must not: import Django, touch a database or produce translated text. Bad input raises
``ValueError`` (or one of its subclasses ``CardsNotCaptured`` and ``CapturesAfterInstaWin``,
which the services turn into their own messages) naming the problem.

Sides: a *side* is whoever owns a capture pile: one of the 3 players, or one of the 2
teams of 2 (team members share one pile, musashino-bana.md l.4). Side keys are any hashable values
(usually names); the order of the ``captures`` mapping is the seating order, i.e. the
turn order (anti-clockwise, musashino-bana.md l.23) counted from any seat. Points throughout.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from hanafuda.engine.deck import CARD_BY_ID
from hanafuda.engine.formation import ScoredYaku, formed, suppress
from hanafuda.engine.options import (
    DEFAULT_OPTIONS,
    InstaWinCheck,
    Options,
    Players,
    Storm,
    StormOnInstaWin,
    TeamPayment,
)
from hanafuda.engine.payments import Payment, difference_amounts, insta_win_amounts, round_payments
from hanafuda.engine.round_input import check_captures, check_month_counts, check_order, check_teams
from hanafuda.engine.storm import STORM_A_BLOCKED, STORM_B_LOST, StormEffect, storm_hits


@dataclass(frozen=True)
class InstaWin:
    """The insta-win that stopped the round: the side, its dekiyaku and, when the capture
    order was given, the index of the capture that formed it (musashino-bana.md l.34)."""

    side: Hashable
    dekiyaku: tuple[ScoredYaku, ...]
    capture_index: int | None


@dataclass(frozen=True)
class RoundResult:
    """The outcome of one round (``score_round``). Points throughout.

    - ``turn_order``: the sides from the dealer, anti-clockwise (musashino-bana.md l.23).
    - ``dekiyaku``: side → scored dekiyaku in table order (for an insta-win round only the
      winner's insta-win dekiyaku, musashino-bana.md l.42); ``scores``: side → points.
    - ``suppressed``: side → codes formed but not counted (M5); ``storm``: stormed side →
      ``StormEffect``; ``storm_cancelled``: storm cards voided by the Sun rule.
    - ``winners``: usually one side; several under ``ALL_TIED_WIN``; none under
      ``NO_SETTLEMENT`` with a tie. ``next_dealer``: the round's winner (musashino-bana.md l.13); on a tie
      the tied side first in turn order from the dealer (musashino-bana.md s.1.3).
    - ``payments``: between sides, or between players under M13(b); ``net``: unit →
      change of points (zero-sum); ``side_net``: the same summed per side.
    """

    options: Options
    dealer: Hashable
    turn_order: tuple[Hashable, ...]
    captures: Mapping[Hashable, frozenset[int]]
    insta_win: InstaWin | None
    dekiyaku: Mapping[Hashable, tuple[ScoredYaku, ...]]
    scores: Mapping[Hashable, int]
    suppressed: Mapping[Hashable, tuple[str, ...]]
    storm: Mapping[Hashable, StormEffect]
    storm_cancelled: frozenset[int]
    winners: tuple[Hashable, ...]
    next_dealer: Hashable
    payments: tuple[Payment, ...]
    net: Mapping[Hashable, int]
    side_net: Mapping[Hashable, int]

    @property
    def capped(self) -> bool:
        """True when the payment cap (M2) reduced some payment."""
        return any(p.amount < p.uncapped for p in self.payments)

    def codes(self, side: Hashable) -> tuple[str, ...]:
        """The codes of the dekiyaku a side scored."""
        return tuple(y.code for y in self.dekiyaku[side])


def score_round(
    captures: Mapping[Hashable, Iterable[int]],
    options: Options = DEFAULT_OPTIONS,
    *,
    capture_order: Sequence[tuple[Hashable, int | Iterable[int]]] | None = None,
    dealer: Hashable | None = None,
    insta_win: Hashable | None = None,
    teams: Mapping[Hashable, Sequence[Hashable]] | None = None,
    partial: bool = False,
) -> RoundResult:
    """Score one round from each side's captured cards.

    Inputs:

    - ``captures``: side → captured card ids at the end of the round (or when an insta-win
      stopped it). 3 sides for 3 players, 2 for teams (musashino-bana.md l.4); the mapping's order is the
      seating order, i.e. the turn order (musashino-bana.md l.23).
    - ``options``: the house rules (``Options``).
    - ``capture_order``: the captures in the order they happened, as ``(side, card ids)``
      pairs, one per capture (2 or 4 cards of one month; a single id is allowed with
      ``partial``). It must hold exactly the captured cards. Required when
      ``options.needs_capture_order`` (M9(b), M10(b)); otherwise it only serves to check that
      nothing was captured after an insta-win stopped the round.
    - ``dealer``: the side that dealt and led (a team: the dealing player's team). Default:
      the first side of ``captures``.
    - ``insta_win``: optional cross-check: the side said to have formed an insta-win
      dekiyaku. Insta-wins are detected from the cards; a disagreement is a ``ValueError``.
    - ``teams``: team → its two players; needed for ``team_payment=EACH_PLAYER`` (M13(b)).
    - ``partial``: the piles list only the cards that matter, as the worked examples do
      (musashino-bana.md s.2.5). Without it the piles must be possible: 0, 2 or 4 cards of
      each month per pile, and all 48 cards captured when no insta-win stopped the round (in
      Hana-awase a card that matches must capture, so every month ends fully captured;
      musashino-bana.md s.1.2).

    Rules applied (musashino-bana.md): an insta-win dekiyaku (Five Kings, Seven Red Ribbons)
    stops the round and only it is paid, ``insta_win_value`` by each opposing side (l.34–35,
    l.42; M1). Else each side scores the sum of its dekiyaku values, all stacking except Four
    Brights over Three Brights (l.36, l.40–41; M5, M8), after the Storm and Sun rules
    (l.24–32; s.2.3). The side with most points wins and each other side pays the difference
    (l.37), capped by ``payment_cap`` (M2); ties by ``tie_rule`` (M3). The winner deals next
    (l.13).

    Output: a ``RoundResult``. ``ValueError`` names any impossible or inconsistent input.
    """
    if not isinstance(options, Options):
        raise ValueError(f"options must be an Options, got {options!r}")
    piles = check_captures(captures, options)
    turn_order = _turn_order(tuple(piles), dealer)
    team_members = _team_members(teams, tuple(piles), options)
    if not partial:
        check_month_counts(piles)
    events = _checked_events(capture_order, piles, options, partial)
    position = {c: i for i, (_, cards) in enumerate(events) for c in cards} if events is not None else None

    stop = _find_insta_win(piles, turn_order, options, events)
    _check_claim(insta_win, stop, tuple(piles))
    if stop is None and not partial:
        missing = sorted(set(CARD_BY_ID) - set().union(*piles.values()))
        if missing:
            raise CardsNotCaptured(tuple(missing))

    if stop is not None:
        # Only the insta-win is paid (musashino-bana.md l.34, l.42): no other dekiyaku, no storm.
        dekiyaku = {s: (stop.dekiyaku if s == stop.side else ()) for s in turn_order}
        scores = {s: (options.insta_win_value if s == stop.side else 0) for s in turn_order}
        suppressed: dict[Hashable, tuple[str, ...]] = dict.fromkeys(turn_order, ())
        storm: dict[Hashable, StormEffect] = {}
        cancelled: set[int] = set()
        winners, next_dealer = (stop.side,), stop.side
        raw = insta_win_amounts(stop.side, turn_order, options)
    else:
        dekiyaku, scores, suppressed, storm, cancelled = _score_sides(piles, turn_order, options, position)
        winners, next_dealer, raw = difference_amounts(scores, turn_order, options)
    payments, net, side_net = round_payments(raw, turn_order, options, team_members)

    return RoundResult(
        options=options,
        dealer=turn_order[0],
        turn_order=turn_order,
        captures=MappingProxyType(piles),
        insta_win=stop,
        dekiyaku=MappingProxyType(dekiyaku),
        scores=MappingProxyType(scores),
        suppressed=MappingProxyType(suppressed),
        storm=MappingProxyType(storm),
        storm_cancelled=frozenset(cancelled),
        winners=winners,
        next_dealer=next_dealer,
        payments=payments,
        net=MappingProxyType(net),
        side_net=MappingProxyType(side_net),
    )


def _turn_order(sides: tuple[Hashable, ...], dealer: Hashable | None) -> tuple[Hashable, ...]:
    """The sides from the dealer on (musashino-bana.md l.23); the first side deals when ``dealer`` is None."""
    if dealer is None:
        dealer = sides[0]
    elif dealer not in sides:
        raise ValueError(f"unknown dealer {dealer!r} (sides: {list(sides)!r})")
    start = sides.index(dealer)
    return sides[start:] + sides[:start]


def _team_members(
    teams: Mapping[Hashable, Sequence[Hashable]] | None, sides: tuple[Hashable, ...], options: Options
) -> dict[Hashable, tuple[Hashable, ...]] | None:
    """Team → its two players, checked; None without ``teams``. ``ValueError`` when teams are
    given for three players, or missing while M13(b) pays each player."""
    if teams is not None and options.players is not Players.TWO_TEAMS:
        raise ValueError("teams is only for players=TWO_TEAMS")
    team_members = check_teams(teams, sides) if teams is not None else None
    per_player = options.players is Players.TWO_TEAMS and options.team_payment is TeamPayment.EACH_PLAYER
    if per_player and team_members is None:
        raise ValueError("team_payment=EACH_PLAYER needs teams (team → its two players)")
    return team_members


def _checked_events(
    capture_order: Sequence[tuple[Hashable, int | Iterable[int]]] | None,
    piles: Mapping[Hashable, frozenset[int]],
    options: Options,
    partial: bool,
) -> tuple[tuple[Hashable, frozenset[int]], ...] | None:
    """The checked capture order, or None; ``ValueError`` when the options need it and it is missing."""
    events = check_order(capture_order, piles, partial) if capture_order is not None else None
    if events is None and options.needs_capture_order:
        raise ValueError(
            "these options need capture_order: the Sun rule with sun_timing=AFTER_STORM_CARD (M10(b)) "
            "or Storm A with storm_insta_win=BLOCKED_WHEN_FORMED (M9(b)) depend on when cards were captured"
        )
    return events


def _check_claim(insta_win: Hashable | None, stop: InstaWin | None, sides: tuple[Hashable, ...]) -> None:
    """``ValueError`` when the caller's ``insta_win`` disagrees with the insta-win found in the cards."""
    if insta_win is None:
        return
    if insta_win not in sides:
        raise ValueError(f"insta_win: unknown side {insta_win!r} (sides: {list(sides)!r})")
    if stop is None:
        raise ValueError(
            f"insta_win says {insta_win!r} formed an insta-win dekiyaku, but no Five Kings or "
            "Seven Red Ribbons stopped the round"
        )
    if stop.side != insta_win:
        raise ValueError(f"insta_win says {insta_win!r}, but the insta-win was formed by {stop.side!r}")


def _score_sides(piles, turn_order, options, position):
    """Each side's dekiyaku and points at the end of a round, after the Storm and Sun rules
    (musashino-bana.md s.2.3) and the suppression rule (M5)."""
    hits, cancelled = storm_hits(piles, options, position)
    dekiyaku, scores, suppressed, storm = {}, {}, {}, {}
    for side in turn_order:
        pile = piles[side]
        full = formed(pile, options, insta_win=False)
        blocked: frozenset[int] = frozenset()
        if hits[side] and options.storm is Storm.A:
            blocked = pile & STORM_A_BLOCKED
            kept = formed(pile - blocked, options, insta_win=False)
        elif hits[side] and options.storm is Storm.B:
            kept = [y for y in full if y.code not in STORM_B_LOST]
        else:
            kept = full
        if hits[side]:
            kept_codes = {y.code for y in kept}
            lost = tuple(y.code for y in full if y.code not in kept_codes)
            storm[side] = StormEffect(tuple(sorted(hits[side])), tuple(sorted(blocked)), lost)
        kept, suppressed[side] = suppress(kept, options)
        dekiyaku[side] = tuple(kept)
        scores[side] = sum(y.points for y in kept)
    return dekiyaku, scores, suppressed, storm, cancelled


class CardsNotCaptured(ValueError):
    """No insta-win stopped the round, yet some cards were not captured (musashino-bana.md s.1.2: a card
    that matches must capture, so every card ends in a pile). ``missing``: their ids."""

    def __init__(self, missing: tuple[int, ...]):
        self.missing = missing
        super().__init__(
            f"the round ended without an insta-win, so all 48 cards were captured (a card that "
            f"matches must capture, musashino-bana.md s.1.2); not captured: {list(missing)}"
        )


class CapturesAfterInstaWin(ValueError):
    """``capture_order`` goes on after an insta-win stopped the round (musashino-bana.md l.34).

    ``index``: the capture (0-based, in ``capture_order``) that formed the insta-win;
    ``side``: who formed it; ``codes``: the insta-win dekiyaku formed.
    """

    def __init__(self, index: int, side: Hashable, codes: tuple[str, ...]):
        self.index, self.side, self.codes = index, side, codes
        super().__init__(
            f"capture_order goes on after capture {index}, where {side!r} formed "
            f"{', '.join(codes)} and the round stopped (musashino-bana.md l.34)"
        )


def _find_insta_win(
    piles: Mapping[Hashable, frozenset[int]],
    turn_order: tuple[Hashable, ...],
    options: Options,
    events: tuple[tuple[Hashable, frozenset[int]], ...] | None,
) -> InstaWin | None:
    """The insta-win that stopped the round, if any (musashino-bana.md l.34; s.2.2.5, M9, M12)."""
    block_at_formation = options.storm is Storm.A and options.storm_insta_win is StormOnInstaWin.BLOCKED_WHEN_FORMED

    def insta_wins_of(side, current, position):
        usable = current[side]
        if block_at_formation and storm_hits(current, options, position)[0][side]:
            usable = usable - STORM_A_BLOCKED
        return tuple(formed(usable, options, insta_win=True))

    if events is None:
        found = [(side, f) for side in turn_order if (f := insta_wins_of(side, piles, None))]
        if len(found) > 1:
            names = "; ".join(f"{side!r}: {', '.join(y.code for y in f)}" for side, f in found)
            raise ValueError(
                f"more than one side holds a complete insta-win dekiyaku ({names}); the round stops at "
                "the first one (musashino-bana.md l.34), so only one side can"
            )
        return InstaWin(found[0][0], found[0][1], None) if found else None

    current = {side: frozenset() for side in turn_order}
    position: dict[int, int] = {}
    for i, (capturer, cards) in enumerate(events):
        current[capturer] = current[capturer] | cards
        position.update(dict.fromkeys(cards, i))
        # The capturing side first, then the others in turn order (a Sun capture may free theirs).
        k = turn_order.index(capturer)
        for side in turn_order[k:] + turn_order[:k]:
            f = insta_wins_of(side, current, position)
            if f:
                rest = events[i + 1 :]
                # With the test at the end of the turn the same turn may still hold one capture.
                allowed = 1 if options.insta_win_check is InstaWinCheck.END_OF_TURN and side == capturer else 0
                if len(rest) > allowed or any(s != capturer for s, _ in rest):
                    raise CapturesAfterInstaWin(i, side, tuple(y.code for y in f))
                return InstaWin(side, f, i)
    return None
