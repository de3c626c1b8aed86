"""The house rules of a Sanjô Dôsai table (``Options``): one field per ambiguity D1–D18.

Responsible for: the options with the reference's defaults (sanjo-dosai.md s.3.4), checking their
values, and storing them as plain JSON values (``options_as_dict`` / ``options_from_dict``).
The option codes (D2 … D18) are the ones the guides use.

Must not: import Django, touch the database, read files, or know any card's points.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields

from dosai.engine.facts import IN_PLAY, SUBJECT_NUMBERS, is_whole_number

# --- the options of sanjo-dosai.md s.3.4 ----------------------------------------------------------------


class OptionError(ValueError):
    """An option value the engine refuses (wrong kind, unknown option, D17 turned on); the
    message names the option. The services turn it into a message for the screen."""


class PaymentUnit(enum.StrEnum):
    """D3: who is "each other player" that pays a call."""

    HOUSE = "house"  # every other house pays; a player's own houses net out (default)
    PLAYER = "player"  # every other player pays once (needs the holdings of the hand)


class ExemptionTiming(enum.StrEnum):
    """D4: on which state a payer's row is judged complete."""

    BEFORE_CALL = "before_call"  # default
    AFTER_CALL = "after_call"  # after the called efuda is extinguished


class EatenRow(enum.StrEnum):
    """D6: when a call is eaten, which row decides the exemption."""

    CALLED_CARD = "called_card"  # the row of the called efuda in its holder's house (default)
    BAKEFUDA = "bakefuda"  # the row of the bakefuda in the eater's house


class EndFreeTurn(enum.StrEnum):
    """D12: how nos. 46 and 50 are turned at the end of the hand."""

    AUTOMATIC = "automatic"  # always turned, since it can only help (default)
    CHOICE = "choice"  # the holder chooses; ``settle_hand(turn_free=...)`` says which


class NoNobori(enum.StrEnum):
    """D13: what happens at the end when no house is nobori."""

    NO_PAYMENT = "no_payment"  # default
    CARRY_POOL = "carry_pool"  # the houses with face-up cards pay; the pool goes to the next hand
    FEWEST_FACE_UP = "fewest_face_up"  # the house(s) with the fewest face-up cards take the pool


class FeeBasis(enum.StrEnum):
    """D14: the end-of-hand fee is per house or per face-up efuda."""

    PER_HOUSE = "per_house"  # default (sanjo-dosai.md l.96: "Each house ... pays twenty points")
    PER_FACE_UP_CARD = "per_face_up_card"


_ENUM_FIELDS = {
    "payment_unit": PaymentUnit,
    "exemption_timing": ExemptionTiming,
    "eaten_exemption_row": EatenRow,
    "end_free_turn": EndFreeTurn,
    "no_nobori": NoNobori,
    "fee_basis": FeeBasis,
}
_POSITIVE_INT_FIELDS = ("hako_every", "uncalled_at_end", "nobori_fee")


def _checked_value(name: str, value: object) -> object:
    """The value of option ``name``, an enum field's string turned into its member.
    OptionError when the value is of the wrong kind for that option."""
    if name in _ENUM_FIELDS:
        kind = _ENUM_FIELDS[name]
        try:
            return kind(value)
        except ValueError:
            allowed = ", ".join(m.value for m in kind)
            raise OptionError(f"Options.{name} must be one of {allowed}, not {value!r}") from None
    if name in _POSITIVE_INT_FIELDS:
        if not is_whole_number(value) or value < 1:
            raise OptionError(f"Options.{name} must be a whole number of at least 1, not {value!r}")
        return value
    if not isinstance(value, bool):
        raise OptionError(f"Options.{name} must be True or False, not {value!r}")
    return value


@dataclass(frozen=True)
class Options:
    """The house rules of a Sanjô Dôsai table: one field per ambiguity of sanjo-dosai.md s.3.4.

    Every default is the reference's default. D1 (17 or 19 two-point cards) is a fact of
    the card table, not of play: see ``dosai.engine.cards.MATSUI_CLASS_COUNTS``.

    Fixed amounts [TEAM-SRC]:
      hako_every: every this-many-th call is hako and pays double (sanjo-dosai.md l.83). Default 5.
      uncalled_at_end: the hand ends when this many yomifuda are left (sanjo-dosai.md l.96). Default 10.
      nobori_fee: what each unfinished house pays into the nobori pool (sanjo-dosai.md l.96). Default 20.

    Ambiguities:
      D2 remove_yomifuda_8_23: yomifuda 8 and 23 are removed like their efuda, so 60
        yomifuda and 50 calls (default True [ASSUMED]). False: 62 yomifuda, 52 calls, and a
        call of 8 or 23 pays nobody. Then:
        removed_call_counts_for_hako: such a call counts toward the hako numbering (default
          True [ASSUMED]: the page counts yomifuda read, sanjo-dosai.md l.83);
        removed_call_consumes_eat: such a call uses up a pending eat (default True
          [ASSUMED]: the eat is of "the following call", l.85).
      D3 payment_unit: PaymentUnit.HOUSE (default). PLAYER: each other player pays once,
        from its first house (in house order) whose row is not complete; a player whose
        every house is exempt pays nothing [ASSUMED sub-reading]; the payee's own other
        houses never pay.
      D4 exemption_timing: rows judged BEFORE_CALL (default) or AFTER_CALL.
      D5 eaten_holder_pays: when a call is eaten the real holder pays the eater like any
        other house (default True; sanjo-dosai.md l.88 "including F").
      D6 eaten_exemption_row: EatenRow.CALLED_CARD (default) or BAKEFUDA.
      D7 eat_survives_no2: a pending eat carries over no. 2 to the next call (default
        False: no. 2 uses it up).
      D8 eaten_bakefuda_eats: an eaten bakefuda still gives its own holder the next eat,
        so eats chain (default True).
      D9 bakefuda_pays_holder: a called bakefuda is paid its points like any card (default
        True). False: it pays nobody (it still eats).
      D10 hako_doubles_eaten_call: an eaten hako call pays the eater double (default True).
        False: hako doubles only a payment to the real holder.
      D11 end_free_cards_pay_when_called: nos. 46 and 50 are paid normally when called
        (default True, sanjo-dosai.md l.94). False (TK2 variant): they are face down from the deal
        and never pay.
      D12 end_free_turn: EndFreeTurn.AUTOMATIC (default) or CHOICE.
      D13 no_nobori: NoNobori.NO_PAYMENT (default), CARRY_POOL or FEWEST_FACE_UP.
      D14 fee_basis: FeeBasis.PER_HOUSE (default) or PER_FACE_UP_CARD.
      D15 hako_doubles_end_fee: the nobori fee is doubled (default False).
      D16 bozu: TK2's bozu rule: a house dealt >= 6 two-point, >= 6 one-point cards or
        all 4 bakefuda never pays, neither calls nor the end fee (default False).
      D17 tk2_ruleset: TK2's other ruleset (sanjo-dosai.md s.3.6). Not implemented: only False is
        accepted.
      D18 rows_chosen_by_player: who arranges the rows. No effect on scoring: the engine
        takes the rows as given (``House``); ``house_in_dealt_order`` builds them from the
        dealt order. Default True.

    Raises OptionError (a ValueError) for a value of the wrong kind (enum fields also accept
    their string values) or for D17 turned on.
    """

    hako_every: int = 5
    uncalled_at_end: int = 10
    nobori_fee: int = 20
    remove_yomifuda_8_23: bool = True  # D2
    removed_call_counts_for_hako: bool = True  # D2(b)
    removed_call_consumes_eat: bool = True  # D2(b)
    payment_unit: PaymentUnit = PaymentUnit.HOUSE  # D3
    exemption_timing: ExemptionTiming = ExemptionTiming.BEFORE_CALL  # D4
    eaten_holder_pays: bool = True  # D5
    eaten_exemption_row: EatenRow = EatenRow.CALLED_CARD  # D6
    eat_survives_no2: bool = False  # D7
    eaten_bakefuda_eats: bool = True  # D8
    bakefuda_pays_holder: bool = True  # D9
    hako_doubles_eaten_call: bool = True  # D10
    end_free_cards_pay_when_called: bool = True  # D11
    end_free_turn: EndFreeTurn = EndFreeTurn.AUTOMATIC  # D12
    no_nobori: NoNobori = NoNobori.NO_PAYMENT  # D13
    fee_basis: FeeBasis = FeeBasis.PER_HOUSE  # D14
    hako_doubles_end_fee: bool = False  # D15
    bozu: bool = False  # D16
    tk2_ruleset: bool = False  # D17
    rows_chosen_by_player: bool = True  # D18

    def __post_init__(self):
        for f in fields(self):
            object.__setattr__(self, f.name, _checked_value(f.name, getattr(self, f.name)))
        if self.tk2_ruleset:
            raise OptionError(
                "Options.tk2_ruleset (D17): TK2's other ruleset (sanjo-dosai.md s.3.6) is not implemented"
            )

    @property
    def yomifuda(self) -> frozenset[int]:
        """The yomifuda in the reading pile: 60, or 62 when D2 keeps nos. 8 and 23."""
        return IN_PLAY if self.remove_yomifuda_8_23 else SUBJECT_NUMBERS

    @property
    def calls_per_hand(self) -> int:
        """Calls made in a hand: the yomifuda less the ones left uncalled (sanjo-dosai.md l.96)."""
        return len(self.yomifuda) - self.uncalled_at_end


DEFAULT_OPTIONS = Options()


def check_options(options: object) -> None:
    """ValueError unless ``options`` is an ``Options``."""
    if not isinstance(options, Options):
        raise ValueError(f"options must be a dosai.engine.options.Options, not {type(options).__name__}")


def options_as_dict(options: Options) -> dict:
    """The options as plain JSON values (enum fields as their string values), one key per
    field of ``Options``; ``options_from_dict`` reads it back."""
    check_options(options)
    return {f.name: (v.value if isinstance(v := getattr(options, f.name), enum.Enum) else v) for f in fields(options)}


def options_from_dict(data: Mapping) -> Options:
    """``Options`` from a mapping written by ``options_as_dict``. Missing keys take the
    reference's default (sanjo-dosai.md s.3.4); unknown keys raise OptionError, as do wrong values."""
    if not isinstance(data, Mapping):
        raise OptionError("options must be a mapping of option names to values")
    known = {f.name for f in fields(Options)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise OptionError(f"unknown options: {unknown}")
    return Options(**dict(data))
