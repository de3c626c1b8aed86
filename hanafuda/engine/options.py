"""The Musashino-bana house rules as one settings object (``Options``).

Responsible for: one field per house rule, with the default of musashino-bana.md s.2.2 and s.2.4;
each choice
keeps the code of its ambiguity (M1–M17), which the guides use. ``as_dict`` / ``from_dict``
store the options as plain values.

Must not: import Django, touch a database or produce translated text. A wrong value raises
``OptionError`` (a ``ValueError``) naming the option.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields

from hanafuda.engine.deck import LIGHTNING, RAIN_MAN
from hanafuda.engine.dekiyaku import DEKIYAKU_BY_CODE, FLOWER_CODES, MONTH_READABLE


class OptionError(ValueError):
    """A house rule value the engine refuses (wrong kind, unknown code or option); the message
    names the option. The services turn it into a message for the screen."""


class Players(enum.StrEnum):
    THREE = "three_players"
    TWO_TEAMS = "two_teams"


class Storm(enum.StrEnum):
    OFF = "off"
    A = "block_cards"  # block 80, 30, 31 of the stormed sides
    B = "banquets"  # the stormed sides lose Moon and Flower Banquet


class SunTiming(enum.StrEnum):
    ANY_ORDER = "any_order"  # M10(a)
    AFTER_STORM_CARD = "after_storm_card"  # M10(b)
    CRANE_HOLDER_ONLY = "crane_holder_only"  # M10(c)


class StormOnInstaWin(enum.StrEnum):
    NOT_AFFECTED = "not_affected"  # M9(a)
    BLOCKED_WHEN_FORMED = "blocked_when_formed"  # M9(b)


class FourBrights(enum.StrEnum):
    LIGHTNING = "lightning"  # M4(a)
    CURTAIN = "curtain"  # M4(b)


class LightningCard(enum.StrEnum):
    WILLOW_CHAFF = "willow_chaff"  # 113, modern decks (M16 default)
    RAIN_MAN = "rain_man"  # 110, old Musashino decks draw the lightning on the Rain man


class Suppression(enum.StrEnum):
    FOUR_BRIGHTS_ONLY = "four_brights_only"  # M5(a)
    SUBSET_OF_HIGHER = "subset_of_higher"  # M5(b)


class FlowerCards(enum.StrEnum):
    CHAFF_EXCEPT_YELLOW = "chaff_except_yellow"  # M6(a)
    CHAFF = "chaff"  # M6(b)
    ANY_CARD = "any_card"  # M6(c)


class Repeats(enum.StrEnum):
    ONCE = "once"  # M8(a)
    PER_DISJOINT_SET = "per_disjoint_set"  # M8(b)


class InstaWinPayment(enum.StrEnum):
    EACH_SIDE = "each_side"  # M1(a)
    SHARED = "shared"  # M1(b)


class InstaWinCheck(enum.StrEnum):
    AFTER_EACH_CAPTURE = "after_each_capture"  # M12(a)
    END_OF_TURN = "end_of_turn"  # M12(b)


class TieRule(enum.StrEnum):
    LEADER = "leader"  # M3(a)
    ALL_TIED_WIN = "all_tied_win"  # M3(b)
    NO_SETTLEMENT = "no_settlement"  # M3(c)


class TeamPayment(enum.StrEnum):
    TEAM_LEDGER = "team_ledger"  # M13(a)
    EACH_PLAYER = "each_player"  # M13(b)


class TeamDealer(enum.StrEnum):
    PARTNERS_TAKE_TURNS = "partners_take_turns"  # M17(a)
    SAME_PLAYER = "same_player"  # M17(b)


class FourPlayerDeal(enum.StrEnum):
    FIVE_EIGHT = "5+8"  # M14 default
    SIX_ZERO = "6+0"


_ENUM_FIELDS = {
    "players": Players,
    "storm": Storm,
    "sun_timing": SunTiming,
    "storm_insta_win": StormOnInstaWin,
    "four_brights": FourBrights,
    "lightning": LightningCard,
    "suppression": Suppression,
    "flower_cards": FlowerCards,
    "repeats": Repeats,
    "insta_win_payment": InstaWinPayment,
    "insta_win_check": InstaWinCheck,
    "tie_rule": TieRule,
    "team_payment": TeamPayment,
    "four_player_deal": FourPlayerDeal,
    "team_dealer": TeamDealer,
}


@dataclass(frozen=True)
class Options:
    """The house rules of a game. Every default is the one of musashino-bana.md s.2.2 and s.2.4.

    Table and game (musashino-bana.md s.2.2):

    - ``players``: ``THREE`` players, or ``TWO_TEAMS`` of 2 sharing one pile per team
      (musashino-bana.md l.4). Partners sit opposite each other [ASSUMED, musashino-bana.md s.2.2.1], so turns
      alternate between the teams.
    - ``rounds``: rounds in a game; 12 is traditional, 6 and 3 are the shorter options
      (musashino-bana.md l.7). Any positive number is accepted as a house rule.
    - ``four_player_deal`` (M14): ``5+8`` (5 each, 8 on the table) or ``6+0``
      (musashino-bana.md l.17–19). Default ``5+8``. It does not change scoring; see ``deal_layout``.
    - ``misdeal_four_in_hand`` (M15): also a misdeal when a *hand* holds 4 of one month.
      Not specified by the page (only the table, musashino-bana.md l.21); default ``False``.

    Composition of the dekiyaku (musashino-bana.md s.2.1):

    - ``four_brights`` (M4): ``LIGHTNING`` {10, 80, 113, 120} (musashino-bana.md l.53–54, l.41) or
      ``CURTAIN`` {10, 30, 80, 120} ("some players at the time", musashino-bana.md l.54). Default
      ``LIGHTNING``.
    - ``lightning`` (M16): which card is the Lightning. ``WILLOW_CHAFF`` = 113 in a modern
      deck (default); ``RAIN_MAN`` = 110 for an old Musashino deck, where the lightning is
      drawn on the Rain man (musashino-bana.md l.105–108). It sets the Four Brights card and the storm
      cards.
    - ``flower_cards`` (M6): Three Red / Three Purple Flowers take ``CHAFF_EXCEPT_YELLOW``
      (default; the FW-MB assumption, musashino-bana.md l.76, l.78), any ``CHAFF`` (121 allowed), or
      ``ANY_CARD`` of each month.
    - ``any_card_of_month`` (M7): codes of dekiyaku read as "any card of their months"
      instead of the exact cards FW-MB pictures. Default empty = exact cards (M7(a));
      ``M7_NAMED`` holds the three the reference names. Allowed codes: ``MONTH_READABLE``.

    Counting (musashino-bana.md s.2.2.6):

    - ``suppression`` (M5): ``FOUR_BRIGHTS_ONLY`` — Four Brights drops Three Brights
      (musashino-bana.md l.41; default) — or ``SUBSET_OF_HIGHER``: any scored dekiyaku whose cards are
      a subset of a higher-valued scored one is dropped (FW-MB's first revision).
    - ``repeats`` (M8): a dekiyaku counts ``ONCE`` per side (default, ASSUMED) or
      ``PER_DISJOINT_SET``: once per disjoint choice of its alternative cards, the fixed
      cards being shared (MB-7 counts Flower Banquet twice with one Sake cup).

    Storm and Sun rules (musashino-bana.md l.24–32, s.2.3):

    - ``storm`` (M11): ``OFF`` (default: the page calls it optional, musashino-bana.md l.24), ``A`` (an
      opponent of the holder of an active storm card cannot use 80, 30, 31; musashino-bana.md l.26–29
      first bullet) or ``B`` (that opponent loses Moon and Flower Banquet; musashino-bana.md l.29
      second bullet).
    - ``sun_rule``: the Crane captured by an opponent of a storm card's holder cancels that
      storm card (musashino-bana.md l.30–32). Works only with the Storm rule ("If Storm Rule is used",
      musashino-bana.md l.30); with ``storm=OFF`` it has no effect. Default ``False``.
    - ``sun_timing`` (M10): ``ANY_ORDER`` — the Crane anywhere with an opponent at the end
      of the round cancels the storm card for everyone (default) — ``AFTER_STORM_CARD`` —
      only if the Crane was captured after the storm card ("then", musashino-bana.md l.31; needs the
      capture order) — or ``CRANE_HOLDER_ONLY`` — the Crane protects only its holder.
    - ``storm_insta_win`` (M9): ``NOT_AFFECTED`` — the insta-win dekiyaku are never
      blocked (default) — or ``BLOCKED_WHEN_FORMED`` — under Storm A they are blocked if an
      opponent holds an active storm card when they would form (needs the capture order).

    Payments (musashino-bana.md l.34–37, s.1.3, s.2.2.5–7):

    - ``insta_win_value``: points of an insta-win; 8 is FW-MB's assumption (musashino-bana.md l.34–35).
    - ``insta_win_payment`` (M1): ``EACH_SIDE`` — every opposing side pays the value
      (Taiyaku "take all chips"; default) — or ``SHARED`` — the value in total, shared
      equally by the losing sides.
    - ``insta_win_check`` (M12): the insta-win test runs ``AFTER_EACH_CAPTURE`` (default)
      or at the ``END_OF_TURN``. The payment is the same; with ``END_OF_TURN`` the capture
      order may hold one more capture of the same turn after the forming one.
    - ``payment_cap`` (M2): ``None`` (default: no cap) or the most one paying side (one
      player under M13(b)) pays to one receiver in a round; 8 is the Taiyaku bet limit.
    - ``tie_rule`` (M3): ``LEADER`` — the tied side earliest in turn order from the dealer
      wins and only non-tied sides pay it (Taiyaku, default) — ``ALL_TIED_WIN`` — every
      tied top side is a winner and each other side pays each of them the difference (the
      reference's "split", in whole points) — or ``NO_SETTLEMENT`` — any tie for the top
      means no payment. An all-level round never pays.
    - ``team_payment`` (M13): ``TEAM_LEDGER`` — the losing team pays the difference once
      (default) — or ``EACH_PLAYER`` — each player of a losing team pays each player of the
      winning team the team's amount (needs the ``teams`` of ``score_round``).
    - ``team_dealer`` (M17): which partner deals when a team deals (the winner of a round
      deals the next, musashino-bana.md l.13, names a team). ``PARTNERS_TAKE_TURNS`` — the
      partners deal in turn, each time their team deals (default, ASSUMED) — or
      ``SAME_PLAYER`` — the partner who dealt the team's first round deals every time. The
      first dealer's team starts with the player who drew the earliest card (or was chosen),
      the other team with its first player. See ``dealing.team_dealers``.
    """

    players: Players = Players.THREE
    rounds: int = 12
    four_player_deal: FourPlayerDeal = FourPlayerDeal.FIVE_EIGHT
    misdeal_four_in_hand: bool = False
    four_brights: FourBrights = FourBrights.LIGHTNING
    lightning: LightningCard = LightningCard.WILLOW_CHAFF
    flower_cards: FlowerCards = FlowerCards.CHAFF_EXCEPT_YELLOW
    any_card_of_month: frozenset[str] = frozenset()
    suppression: Suppression = Suppression.FOUR_BRIGHTS_ONLY
    repeats: Repeats = Repeats.ONCE
    storm: Storm = Storm.OFF
    sun_rule: bool = False
    sun_timing: SunTiming = SunTiming.ANY_ORDER
    storm_insta_win: StormOnInstaWin = StormOnInstaWin.NOT_AFFECTED
    insta_win_value: int = 8
    insta_win_payment: InstaWinPayment = InstaWinPayment.EACH_SIDE
    insta_win_check: InstaWinCheck = InstaWinCheck.AFTER_EACH_CAPTURE
    payment_cap: int | None = None
    tie_rule: TieRule = TieRule.LEADER
    team_payment: TeamPayment = TeamPayment.TEAM_LEDGER
    team_dealer: TeamDealer = TeamDealer.PARTNERS_TAKE_TURNS

    def __post_init__(self) -> None:
        # Values may arrive as their stored strings (e.g. from a database row): coerce them.
        for name, enum_cls in _ENUM_FIELDS.items():
            value = getattr(self, name)
            if not isinstance(value, enum_cls):
                try:
                    value = enum_cls(value)
                except ValueError:
                    allowed = ", ".join(repr(m.value) for m in enum_cls)
                    raise OptionError(f"Options.{name}: {value!r} is not one of {allowed}") from None
                object.__setattr__(self, name, value)
        for name in ("sun_rule", "misdeal_four_in_hand"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(f"Options.{name} must be True or False, got {getattr(self, name)!r}")
        for name in ("rounds", "insta_win_value"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise OptionError(f"Options.{name} must be a whole number of at least 1, got {value!r}")
        cap = self.payment_cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
            raise OptionError(f"Options.payment_cap must be None or a whole number of at least 1, got {cap!r}")
        codes = self.any_card_of_month
        if isinstance(codes, str) or not isinstance(codes, Iterable):
            raise OptionError(f"Options.any_card_of_month must be a set of dekiyaku codes, got {codes!r}")
        codes = frozenset(codes)
        for code in sorted(codes, key=str):
            if code not in DEKIYAKU_BY_CODE:
                raise OptionError(f"Options.any_card_of_month: unknown dekiyaku code {code!r}")
            if code not in MONTH_READABLE:
                raise OptionError(
                    f"Options.any_card_of_month: {code!r} cannot be read as 'any card of its months'"
                    + (" (use flower_cards)" if code in FLOWER_CODES else " (its cards share a month)")
                )
        object.__setattr__(self, "any_card_of_month", codes)

    @property
    def lightning_card(self) -> int:
        """The Lightning card id: 113, or 110 for an old deck (M16)."""
        return LIGHTNING if self.lightning is LightningCard.WILLOW_CHAFF else RAIN_MAN

    @property
    def storm_cards(self) -> frozenset[int]:
        """The Rain man and the Lightning (musashino-bana.md l.27); only the Rain man with an old deck."""
        return frozenset({RAIN_MAN, self.lightning_card})

    @property
    def sides(self) -> int:
        """Number of capture piles: 3 players or 2 teams (musashino-bana.md l.4)."""
        return 3 if self.players is Players.THREE else 2

    @property
    def needs_capture_order(self) -> bool:
        """True when ``score_round`` needs ``capture_order``: M10(b) or M9(b) with a Storm rule."""
        sun_after = self.storm is not Storm.OFF and self.sun_rule and self.sun_timing is SunTiming.AFTER_STORM_CARD
        storm_at_formation = self.storm is Storm.A and self.storm_insta_win is StormOnInstaWin.BLOCKED_WHEN_FORMED
        return sun_after or storm_at_formation

    def as_dict(self) -> dict[str, object]:
        """Plain values (strings, numbers, sorted lists) for storage; ``from_dict`` reads them back."""
        out: dict[str, object] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, frozenset):
                value = sorted(value)
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Options:
        """Options from ``as_dict`` values; unknown keys are an ``OptionError``, missing keys default."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionError(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)


DEFAULT_OPTIONS = Options()
