"""The rules of Hitachi Folk Karuta (ひたち郷土かるた) as plain Python.

Responsible for: checking a recording sheet's values, deriving the winner of a game, and
the touch-judgment matrix (判定表). The rules are those of ``docs/rules/hitachi-karuta.md``
(copied there from the team's rules page, with its source); section names below are its
headings.

Must not: import Django, touch the database or produce translated text. Problems are
returned as codes (``SheetProblem``) tied to a field name; forms turn them into messages.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

CARD_TOTAL = 56  # docs/rules/hitachi-karuta.md, "Teams and the court": 56 cards, two piles of 28
WALKOVER_WIN_CARDS = 28  # cards of the present team in a walkover by default ("Standings, walkovers, knockout": the present team wins 28–0)
MAX_RPS_DECISIONS = 3  # "Play": rock-paper-scissors decisions, at most three per game


class Side(enum.StrEnum):
    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


class JokerHolder(enum.StrEnum):
    """Who holds the joker 「り」 at the end of the game (recording sheet ○/×)."""

    A = "A"
    B = "B"
    REFEREE = "referee"


class DecidedBy(enum.StrEnum):
    """What decided the game: more cards, 「り」 on level cards, or じゃんけん."""

    CARDS = "cards"
    JOKER = "joker"
    RPS = "rps"
    WALKOVER = "walkover"


class SheetProblem(enum.StrEnum):
    NOT_A_WHOLE_NUMBER = "not_a_whole_number"
    NEGATIVE = "negative"
    TOO_MANY = "too_many"
    TOTAL_MISMATCH = "total_mismatch"
    JOKER_MISSING = "joker_missing"
    JOKER_HOLDER_HAS_NO_CARDS = "joker_holder_has_no_cards"
    JOKER_WITH_REFEREE_NEEDS_REFEREE_CARD = "joker_with_referee_needs_referee_card"
    TIE_NEEDS_RPS_WINNER = "tie_needs_rps_winner"
    RPS_WINNER_NOT_APPLICABLE = "rps_winner_not_applicable"
    RPS_USED_OUT_OF_RANGE = "rps_used_out_of_range"


@dataclass(frozen=True)
class SheetValues:
    """What the referee writes on the recording sheet after a game.

    Counts are in cards. ``joker_holder`` is who holds 「り」; ``rps_winner`` is the side
    that won the leaders' rock-paper-scissors, needed only when the cards are level and
    the referee holds 「り」; ``rps_used`` counts the じゃんけん decisions on disputed
    touches during the game (0–3).
    """

    cards_a: int
    cards_b: int
    referee_cards: int = 0
    joker_holder: JokerHolder | None = None
    rps_winner: Side | None = None
    rps_used: int = 0


@dataclass(frozen=True)
class Outcome:
    winner: Side
    decided_by: DecidedBy


def validate_sheet(values: SheetValues, card_total: int = CARD_TOTAL) -> list[tuple[str, SheetProblem]]:
    """Check a recording sheet against the rules.

    Takes the sheet's values and the deck size in cards (56). Returns a list of
    ``(field name, problem)`` pairs, empty when the sheet is valid. Rules checked:
    counts are whole numbers from 0 to the deck size; A + B + referee-held = 56
    (``docs/rules/hitachi-karuta.md``, "Result and winner": consistency); someone holds 「り」
    ("The recording sheet": ○/×) and a team holding it has at least one card, the
    referee at least one held card; level cards with 「り」 at the referee need the
    leaders' じゃんけん winner ("Result and winner": tie); a じゃんけん winner is given
    only then; at most three じゃんけん decisions in a game ("Play"). Raises nothing: every
    problem is returned.
    """
    problems: list[tuple[str, SheetProblem]] = []
    counts_ok = True
    for field in ("cards_a", "cards_b", "referee_cards"):
        value = getattr(values, field)
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append((field, SheetProblem.NOT_A_WHOLE_NUMBER))
            counts_ok = False
        elif value < 0:
            problems.append((field, SheetProblem.NEGATIVE))
            counts_ok = False
        elif value > card_total:
            problems.append((field, SheetProblem.TOO_MANY))
            counts_ok = False
    if counts_ok and values.cards_a + values.cards_b + values.referee_cards != card_total:
        problems.append(("__all__", SheetProblem.TOTAL_MISMATCH))
        counts_ok = False

    if isinstance(values.rps_used, bool) or not isinstance(values.rps_used, int):
        problems.append(("rps_used", SheetProblem.NOT_A_WHOLE_NUMBER))
    elif not 0 <= values.rps_used <= MAX_RPS_DECISIONS:
        problems.append(("rps_used", SheetProblem.RPS_USED_OUT_OF_RANGE))

    holder = values.joker_holder
    if holder is None:
        problems.append(("joker_holder", SheetProblem.JOKER_MISSING))
        return problems
    if not counts_ok:
        return problems
    if holder is JokerHolder.A and values.cards_a == 0 or holder is JokerHolder.B and values.cards_b == 0:
        problems.append(("joker_holder", SheetProblem.JOKER_HOLDER_HAS_NO_CARDS))
    if holder is JokerHolder.REFEREE and values.referee_cards == 0:
        problems.append(("joker_holder", SheetProblem.JOKER_WITH_REFEREE_NEEDS_REFEREE_CARD))
    needs_rps = values.cards_a == values.cards_b and holder is JokerHolder.REFEREE
    if needs_rps and values.rps_winner is None:
        problems.append(("rps_winner", SheetProblem.TIE_NEEDS_RPS_WINNER))
    if not needs_rps and values.rps_winner is not None:
        problems.append(("rps_winner", SheetProblem.RPS_WINNER_NOT_APPLICABLE))
    return problems


def decide_winner(values: SheetValues, card_total: int = CARD_TOTAL) -> Outcome:
    """Derive the winner of a game; the winner is never typed.

    More cards wins; level cards go to the team holding 「り」; when the referee holds
    「り」, to the winner of the leaders' one round of じゃんけん (``docs/rules/hitachi-karuta.md``,
    "Result and winner"). Raises ``ValueError`` when the sheet is not valid (see ``validate_sheet``).
    """
    problems = validate_sheet(values, card_total)
    if problems:
        raise ValueError(f"invalid recording sheet: {problems}")
    if values.cards_a != values.cards_b:
        return Outcome(Side.A if values.cards_a > values.cards_b else Side.B, DecidedBy.CARDS)
    if values.joker_holder is JokerHolder.REFEREE:
        return Outcome(values.rps_winner, DecidedBy.RPS)
    return Outcome(Side(values.joker_holder.value), DecidedBy.JOKER)


def walkover_cards(winner: Side, cards: int = WALKOVER_WIN_CARDS) -> tuple[int, int]:
    """Cards recorded for a walkover (不戦勝): the present team ``cards`` (28), the absent 0.

    Returns ``(cards_a, cards_b)``; raises nothing. ``docs/rules/hitachi-karuta.md``,
    "Standings, walkovers, knockout": walkover default 28–0.
    """
    return (cards, 0) if winner is Side.A else (0, cards)


class TouchState(enum.StrEnum):
    """A team's touch on a disputed card (判定表)."""

    BOTH = "both"  # touched the correct card and a wrong card
    CORRECT_ONLY = "correct_only"
    WRONG_ONLY = "wrong_only"
    NEITHER = "neither"


class Verdict(enum.StrEnum):
    A = "A"
    B = "B"
    RPS = "rps"
    FIRST_TO_TOUCH = "first_to_touch"  # first team to touch the correct card


_T = TouchState
_V = Verdict
# Rows: team A's state; columns: team B's state (docs/rules/hitachi-karuta.md, "Touch judgment matrix").
TOUCH_MATRIX: dict[tuple[TouchState, TouchState], Verdict] = {
    (_T.BOTH, _T.BOTH): _V.RPS,
    (_T.BOTH, _T.CORRECT_ONLY): _V.B,
    (_T.BOTH, _T.WRONG_ONLY): _V.A,
    (_T.BOTH, _T.NEITHER): _V.RPS,
    (_T.CORRECT_ONLY, _T.BOTH): _V.A,
    (_T.CORRECT_ONLY, _T.CORRECT_ONLY): _V.RPS,
    (_T.CORRECT_ONLY, _T.WRONG_ONLY): _V.A,
    (_T.CORRECT_ONLY, _T.NEITHER): _V.A,
    (_T.WRONG_ONLY, _T.BOTH): _V.B,
    (_T.WRONG_ONLY, _T.CORRECT_ONLY): _V.B,
    (_T.WRONG_ONLY, _T.WRONG_ONLY): _V.RPS,
    (_T.WRONG_ONLY, _T.NEITHER): _V.B,
    (_T.NEITHER, _T.BOTH): _V.RPS,
    (_T.NEITHER, _T.CORRECT_ONLY): _V.B,
    (_T.NEITHER, _T.WRONG_ONLY): _V.A,
    (_T.NEITHER, _T.NEITHER): _V.FIRST_TO_TOUCH,
}


def touch_verdict(state_a: TouchState, state_b: TouchState) -> Verdict:
    """Who gets a disputed card, from each team's touch state (判定表).

    Takes team A's and team B's ``TouchState`` (or their string values); returns the
    ``Verdict``: a side, a じゃんけん, or the first team to touch the correct card.
    Raises ``ValueError`` for a string that is not a touch state. The table is
    ``docs/rules/hitachi-karuta.md``, "Touch judgment matrix".
    """
    return TOUCH_MATRIX[(TouchState(state_a), TouchState(state_b))]


class Settlement(enum.StrEnum):
    """How a disputed card was settled, in the order the rules apply (判定の手順).

    ``docs/rules/hitachi-karuta.md``, "Touch judgment matrix": a hand underneath decides
    first; only a truly simultaneous touch goes to the table; a じゃんけん beyond the third
    of a game is not played: the referee leader (審判長) decides.
    """

    UNDERNEATH = "underneath"  # one hand was underneath: its team takes the card
    TABLE = "table"  # the table names the team
    RPS = "rps"  # the table says じゃんけん, and it was played
    FIRST_TO_TOUCH = "first_to_touch"  # the table says: the team first to touch the correct card
    REFEREE = "referee"  # the table says じゃんけん but three were used: the referee leader decides


class TouchProblem(enum.StrEnum):
    STATES_MISSING = "states_missing"  # no hand underneath, so both teams' touches are needed
    RPS_WINNER_MISSING = "rps_winner_missing"
    FIRST_TEAM_MISSING = "first_team_missing"
    REFEREE_DECISION_MISSING = "referee_decision_missing"  # three じゃんけん used already


@dataclass(frozen=True)
class TouchRuling:
    """The helper's answer before anyone is named: the verdict, and what must still be asked.

    ``verdict`` is a side when the card is decided, else ``RPS`` or ``FIRST_TO_TOUCH``;
    ``settlement`` says which step decided it (or, for ``RPS``, whether a じゃんけん is played
    or the referee leader decides because the game's three are used).
    """

    verdict: Verdict
    settlement: Settlement

    @property
    def needs_team(self) -> bool:
        """True when the referee still names a team (じゃんけん winner, first to touch, referee leader)."""
        return self.settlement in (Settlement.RPS, Settlement.FIRST_TO_TOUCH, Settlement.REFEREE)


def rule_touch(
    underneath: Side | str | None,
    state_a: TouchState | str | None,
    state_b: TouchState | str | None,
    rps_used: int = 0,
) -> TouchRuling:
    """The whole touch rule for one disputed card, step by step.

    Input: the side whose hand was underneath (``None`` or ``""`` when no hand was:
    a touch at the same time, in the same place, or another case), each team's
    ``TouchState`` (needed only without a hand underneath), and the じゃんけん already
    played in this game. Output: a ``TouchRuling``. Steps, from the rules sheet
    (``docs/rules/hitachi-karuta.md``, "Touch judgment matrix"): (1) "the player whose hand
    is at the bottom should get the card", between the two teams as within one, with no
    じゃんけん; (2) otherwise the 16-cell table (``touch_verdict``); (3) a じゃんけん
    verdict once ``MAX_RPS_DECISIONS`` were played is the referee leader's decision
    ("Play": at most three; the referee raises a hand and the referee leader comes).
    Raises ``ValueError`` (with ``TouchProblem.STATES_MISSING``) when no hand was underneath
    and a state is missing, or for a value that is not a side or a touch state.
    """
    if underneath:
        side = Side(underneath)
        return TouchRuling(Verdict(side.value), Settlement.UNDERNEATH)
    if not state_a or not state_b:
        raise ValueError(TouchProblem.STATES_MISSING)
    verdict = touch_verdict(state_a, state_b)
    if verdict is Verdict.RPS:
        limit_reached = rps_used >= MAX_RPS_DECISIONS
        return TouchRuling(verdict, Settlement.REFEREE if limit_reached else Settlement.RPS)
    if verdict is Verdict.FIRST_TO_TOUCH:
        return TouchRuling(verdict, Settlement.FIRST_TO_TOUCH)
    return TouchRuling(verdict, Settlement.TABLE)


_MISSING_TEAM = {
    Settlement.RPS: TouchProblem.RPS_WINNER_MISSING,
    Settlement.FIRST_TO_TOUCH: TouchProblem.FIRST_TEAM_MISSING,
    Settlement.REFEREE: TouchProblem.REFEREE_DECISION_MISSING,
}


def card_taker(ruling: TouchRuling, named: Side | str | None = None) -> Side:
    """The team that takes the disputed card.

    Input: the ``TouchRuling`` of ``rule_touch`` and the team the referee named (the
    じゃんけん winner, the first team to touch the correct card, or the referee leader's
    decision), ignored when the ruling already names a side. Output: the ``Side``.
    Raises ``ValueError`` with the ``TouchProblem`` when a needed team is missing.
    (``docs/rules/hitachi-karuta.md``, "Touch judgment matrix".)
    """
    if not ruling.needs_team:
        return Side(ruling.verdict.value)
    if not named:
        raise ValueError(_MISSING_TEAM[ruling.settlement])
    return Side(named)
