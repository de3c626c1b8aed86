"""Musashino-bana (武蔵野花): the 48-card hanafuda deck and its scoring rules as plain Python.

Responsible for: the deck (``CARDS``), every dekiyaku (出来役) as data (``DEKIYAKU``), the
house rules as one settings object (``Options``), scoring one round from each side's
captured cards (``score_round``) and settling a game of several rounds (``settle``), plus
the small deal helpers (``deal_layout``, ``is_misdeal``, ``first_dealer``).

Must not: import Django, touch a database or produce translated text. Bad input raises
``ValueError`` with a message that names the problem.

Units: dekiyaku values, scores and payments are in points (chips, mon 文). The game has
no card points and no teyaku (seed l.5); only dekiyaku score (seed l.8, l.36).

Sides: a *side* is whoever owns a capture pile: one of the 3 players, or one of the 2
teams of 2 (team members share one pile, seed l.4). Side keys are any hashable values
(usually names); the order of the ``captures`` mapping is the seating order, i.e. the
turn order (anti-clockwise, seed l.23) counted from any seat.

Sources, cited in the docstrings as:

- "seed l.N": line N of ``seeds/003_6c2bf69ceea37720.txt`` (the FudaWiki "Musashino-Bana"
  page, which cites Naganuma Kōichirō, 古今室内遊戯余談, 風俗画報 no. 381);
- "ref §N" / "ref M1" / "ref MB-1": a section, an ambiguity (M1–M16, §2.4) or a worked
  example (MB-1…MB-10, §2.5) of ``reference/other-games.md``. The exact card of every
  dekiyaku comes from ref §2.1 (recovered from the card images of the FudaWiki page).

Card ids are ``month × 10 + rank``, rank 0 being the highest card of the month (ref §1.1):
10 is the Crane, 113 the Lightning, 121 the yellow-bottom paulownia chaff.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from types import MappingProxyType

# --- the deck --------------------------------------------------------------------------


class CardType(enum.StrEnum):
    """The four kinds of card (ref §1.1). ``PLAIN`` is another name for ``CHAFF`` (カス)."""

    BRIGHT = "bright"
    ANIMAL = "animal"
    RIBBON = "ribbon"
    CHAFF = "chaff"
    PLAIN = "chaff"  # alias: the plain cards are the chaff

    @property
    def ja(self) -> str:
        """Japanese name: 光, 種, 短冊 or カス."""
        return _TYPE_JA[self]

    @property
    def standard_points(self) -> int:
        """Card points in the games that use them (20/10/5/1, ref §1.1). Musashino does not."""
        return _TYPE_POINTS[self]


_TYPE_JA = {CardType.BRIGHT: "光", CardType.ANIMAL: "種", CardType.RIBBON: "短冊", CardType.CHAFF: "カス"}
_TYPE_POINTS = {CardType.BRIGHT: 20, CardType.ANIMAL: 10, CardType.RIBBON: 5, CardType.CHAFF: 1}


class RibbonKind(enum.StrEnum):
    """Ribbon subtypes (ref §1.1). Poetry and plain ribbons are the "red ribbons" of Musashino."""

    POETRY = "poetry"  # 赤短: red with writing
    BLUE = "blue"  # 青短: printed purple (紫) in old decks, hence 紫短 (seed l.68)
    PLAIN = "plain"  # red without writing

    @property
    def ja(self) -> str:
        return {RibbonKind.POETRY: "赤短", RibbonKind.BLUE: "青短", RibbonKind.PLAIN: "短冊"}[self]


@dataclass(frozen=True)
class Flower:
    """One of the 12 suits; the month is 1–12 (ref §1.1)."""

    month: int
    name_en: str
    name_ja: str
    romaji: str


FLOWERS: tuple[Flower, ...] = (
    Flower(1, "Pine", "松", "matsu"),
    Flower(2, "Plum blossom", "梅", "ume"),
    Flower(3, "Cherry", "桜", "sakura"),
    Flower(4, "Wisteria", "藤", "fuji"),
    Flower(5, "Iris", "菖蒲", "ayame"),
    Flower(6, "Peony", "牡丹", "botan"),
    Flower(7, "Bush clover", "萩", "hagi"),
    Flower(8, "Susuki grass", "芒", "susuki"),
    Flower(9, "Chrysanthemum", "菊", "kiku"),
    Flower(10, "Maple", "紅葉", "momiji"),
    Flower(11, "Willow", "柳", "yanagi"),
    Flower(12, "Paulownia", "桐", "kiri"),
)


@dataclass(frozen=True)
class Card:
    """One card of the 48 (ref §1.1). ``id`` = month × 10 + rank; ``ribbon`` only for ribbons."""

    id: int
    month: int
    rank: int
    type: CardType
    ribbon: RibbonKind | None
    name_en: str
    name_ja: str

    @property
    def flower(self) -> Flower:
        return FLOWERS[self.month - 1]

    @property
    def is_red_ribbon(self) -> bool:
        """Poetry and plain ribbons: the seven cards of Seven Red Ribbons (ref §2.1)."""
        return self.ribbon in (RibbonKind.POETRY, RibbonKind.PLAIN)

    @property
    def standard_points(self) -> int:
        return self.type.standard_points


_B, _A, _R, _C = CardType.BRIGHT, CardType.ANIMAL, CardType.RIBBON, CardType.CHAFF
_POETRY, _BLUE, _PLAIN = RibbonKind.POETRY, RibbonKind.BLUE, RibbonKind.PLAIN

# (id, type, ribbon kind, English name, Japanese name) — the table of ref §1.1.
_CARD_ROWS = (
    (10, _B, None, "Crane (with sun)", "松に鶴"),
    (11, _R, _POETRY, "Pine poetry ribbon", "松に赤短"),
    (12, _C, None, "Pine chaff 1", "松のカス"),
    (13, _C, None, "Pine chaff 2", "松のカス"),
    (20, _A, None, "Bush warbler", "梅に鶯"),
    (21, _R, _POETRY, "Plum poetry ribbon", "梅に赤短"),
    (22, _C, None, "Plum chaff 1", "梅のカス"),
    (23, _C, None, "Plum chaff 2", "梅のカス"),
    (30, _B, None, "Curtain (flower viewing)", "桜に幕"),
    (31, _R, _POETRY, "Cherry poetry ribbon (mi-yoshino)", "桜に赤短"),
    (32, _C, None, "Cherry chaff 1", "桜のカス"),
    (33, _C, None, "Cherry chaff 2", "桜のカス"),
    (40, _A, None, "Cuckoo (with crescent moon)", "藤に不如帰"),
    (41, _R, _PLAIN, "Wisteria ribbon", "藤に短冊"),
    (42, _C, None, "Wisteria chaff 1", "藤のカス"),
    (43, _C, None, "Wisteria chaff 2", "藤のカス"),
    (50, _A, None, "Eight-plank bridge", "菖蒲に八橋"),
    (51, _R, _PLAIN, "Iris ribbon", "菖蒲に短冊"),
    (52, _C, None, "Iris chaff 1", "菖蒲のカス"),
    (53, _C, None, "Iris chaff 2", "菖蒲のカス"),
    (60, _A, None, "Butterflies", "牡丹に蝶"),
    (61, _R, _BLUE, "Peony blue ribbon", "牡丹に青短"),
    (62, _C, None, "Peony chaff 1", "牡丹のカス"),
    (63, _C, None, "Peony chaff 2", "牡丹のカス"),
    (70, _A, None, "Boar", "萩に猪"),
    (71, _R, _PLAIN, "Bush clover ribbon", "萩に短冊"),
    (72, _C, None, "Bush clover chaff 1", "萩のカス"),
    (73, _C, None, "Bush clover chaff 2", "萩のカス"),
    (80, _B, None, "Full moon", "芒に月"),
    (81, _A, None, "Geese", "芒に雁"),
    (82, _C, None, "Susuki chaff 1", "芒のカス"),
    (83, _C, None, "Susuki chaff 2", "芒のカス"),
    (90, _A, None, "Sake cup", "菊に盃"),
    (91, _R, _BLUE, "Chrysanthemum blue ribbon", "菊に青短"),
    (92, _C, None, "Chrysanthemum chaff 1", "菊のカス"),
    (93, _C, None, "Chrysanthemum chaff 2", "菊のカス"),
    (100, _A, None, "Deer", "紅葉に鹿"),
    (101, _R, _BLUE, "Maple blue ribbon", "紅葉に青短"),
    (102, _C, None, "Maple chaff 1", "紅葉のカス"),
    (103, _C, None, "Maple chaff 2", "紅葉のカス"),
    (110, _B, None, "Rain man (Ono no Michikaze; Ono Sadakurō in old decks)", "柳に小野道風"),
    (111, _A, None, "Swallow", "柳に燕"),
    (112, _R, _PLAIN, "Willow ribbon", "柳に短冊"),
    (113, _C, None, "Lightning (demon hand / drum)", "柳のカス（雷）"),
    (120, _B, None, "Phoenix", "桐に鳳凰"),
    (121, _C, None, "Yellow-bottom paulownia chaff", "桐のカス（黄カス）"),
    (122, _C, None, "Paulownia chaff 2", "桐のカス"),
    (123, _C, None, "Paulownia chaff 3", "桐のカス"),
)

CARDS: tuple[Card, ...] = tuple(
    Card(card_id, card_id // 10, card_id % 10, kind, ribbon, name_en, name_ja)
    for card_id, kind, ribbon, name_en, name_ja in _CARD_ROWS
)
CARD_BY_ID: Mapping[int, Card] = MappingProxyType({c.id: c for c in CARDS})
DECK_SIZE = 48

# Cards the rules name (ref §1.1, §2.3).
CRANE = 10  # the "Sun" of the Sun rule (seed l.31–32)
CURTAIN = 30
CHERRY_POETRY_RIBBON = 31
FULL_MOON = 80
RAIN_MAN = 110  # storm card (seed l.27)
LIGHTNING = 113  # storm card; part of Four Brights (seed l.41)
PHOENIX = 120
YELLOW_PAULOWNIA_CHAFF = 121

# Storm rule version A: an opponent-stormed side cannot use these (seed l.28–29, ref §2.3).
STORM_A_BLOCKED: frozenset[int] = frozenset({FULL_MOON, CURTAIN, CHERRY_POETRY_RIBBON})
# Storm rule version B: an opponent-stormed side loses these dekiyaku (seed l.29, ref §2.3).
STORM_B_LOST: frozenset[str] = frozenset({"moon_banquet", "flower_banquet"})


def card(card_id: int) -> Card:
    """The card with this id; ``ValueError`` for an unknown id."""
    return CARD_BY_ID[_card_id(card_id, "card()")]


def cards_of_month(month: int) -> frozenset[int]:
    """The four card ids of a month (1–12)."""
    if isinstance(month, bool) or not isinstance(month, int) or not 1 <= month <= 12:
        raise ValueError(f"month must be a whole number from 1 to 12, got {month!r}")
    return frozenset(c.id for c in CARDS if c.month == month)


def _card_id(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: card ids are whole numbers (month × 10 + rank), got {value!r}")
    if value not in CARD_BY_ID:
        raise ValueError(f"{where}: unknown card id {value} (ids are month × 10 + rank: 10–13, 20–23, …, 120–123)")
    return value


def _describe(card_id: int) -> str:
    return f"{card_id} ({CARD_BY_ID[card_id].name_en})"


# --- the dekiyaku ------------------------------------------------------------------------


@dataclass(frozen=True)
class Dekiyaku:
    """One dekiyaku as data (ref §2.1).

    ``slots``: one card is needed from each slot, with distinct cards; a slot of one card
    means "this exact card". ``value`` is in points. ``insta_win`` dekiyaku stop the round
    (seed l.48, l.50). ``suppresses``: codes not counted when this one is scored (seed l.41).
    ``status`` is "SRC" (stated by FW-MB) or "ASSUMED" (FW-MB's own assumption).
    The compositions here are the defaults; ``composition()`` applies the options.
    """

    code: str
    name_en: str
    name_ja: str
    reading: str
    value: int
    slots: tuple[frozenset[int], ...]
    rule: str
    status: str
    source: str
    insta_win: bool = False
    suppresses: tuple[str, ...] = ()
    note: str = ""

    @property
    def cards(self) -> frozenset[int]:
        """Every card that can take part in the default composition."""
        return frozenset().union(*self.slots)


def _all(*ids: int) -> tuple[frozenset[int], ...]:
    return tuple(frozenset({i}) for i in ids)


def _slots(*groups: Iterable[int]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(g) for g in groups)


DEKIYAKU: tuple[Dekiyaku, ...] = (
    # Insta-win dekiyaku, 8 points (seed l.45–50; the value 8 is FW-MB's assumption, seed l.35).
    Dekiyaku(
        "five_kings",
        "Five Kings",
        "五王",
        "ごおう",
        8,
        _all(10, 30, 80, 110, 120),
        "Crane, Curtain, Full moon, Rain man, Phoenix",
        "SRC (value ASSUMED by FW-MB)",
        "seed l.47–48; ref §2.1",
        insta_win=True,
    ),
    Dekiyaku(
        "seven_red_ribbons",
        "Seven Red Ribbons",
        "七夕",
        "しちせき",
        8,
        _all(11, 21, 31, 41, 51, 71, 112),
        "all seven non-blue ribbons",
        "SRC (value ASSUMED by FW-MB)",
        "seed l.49–50; ref §2.1",
        insta_win=True,
    ),
    # Four-card dekiyaku, 4 points (seed l.51–56).
    Dekiyaku(
        "four_brights",
        "Four Brights",
        "四光",
        "しこう",
        4,
        _all(10, 80, 113, 120),
        "Crane, Full moon, Lightning, Phoenix (option: Curtain instead of Lightning)",
        "SRC",
        "seed l.53–54, l.41; ref §2.1, M4",
        suppresses=("three_brights",),
    ),
    Dekiyaku(
        "kemari_court",
        "Kemari Court",
        "鞠懸",
        "まりがかり",
        4,
        _all(10, 30, 100, 110),
        "Crane (pine), Curtain (cherry), Deer (maple), Rain man (willow)",
        "SRC",
        "seed l.55–56; ref §2.1",
    ),
    # Three-card dekiyaku, 2 points (seed l.57–78).
    Dekiyaku(
        "three_brights",
        "Three Brights (Sun-Moon-Star)",
        "三光",
        "さんこう",
        2,
        _all(10, 80, 120),
        "Crane, Full moon, Phoenix",
        "SRC",
        "seed l.59–60; ref §2.1",
    ),
    Dekiyaku(
        "takasago",
        "Takasago",
        "高砂",
        "たかさご",
        2,
        _all(10, 60, 90),
        "Crane, Butterflies, Sake cup",
        "SRC",
        "seed l.61–62; ref §2.1",
    ),
    Dekiyaku(
        "front_sugawara",
        "Front Sugawara",
        "表菅原",
        "おもてすがわら",
        2,
        _all(10, 20, 30),
        "Crane, Bush warbler, Curtain",
        "SRC",
        "seed l.63–64; ref §2.1",
    ),
    Dekiyaku(
        "back_sugawara",
        "Back Sugawara",
        "裡菅原",
        "うらすがわら",
        2,
        _all(11, 21, 31),
        "the three poetry ribbons",
        "SRC",
        "seed l.65–66; ref §2.1",
    ),
    Dekiyaku(
        "purple_ribbons",
        "Purple Ribbons",
        "紫短",
        "むらたん",
        2,
        _all(61, 91, 101),
        "the three blue (purple) ribbons",
        "SRC",
        "seed l.67–68; ref §2.1",
    ),
    Dekiyaku(
        "large_birds",
        "Large Birds",
        "大鳥",
        "おおとり",
        2,
        _all(10, 81, 120),
        "Crane, Geese, Phoenix",
        "SRC",
        "seed l.69; ref §2.1",
    ),
    Dekiyaku(
        "small_birds",
        "Small Birds",
        "小鳥",
        "ことり",
        2,
        _all(20, 40, 111),
        "Bush warbler, Cuckoo, Swallow",
        "SRC",
        "seed l.71–72; ref §2.1",
    ),
    Dekiyaku(
        "crop_pests",
        "Crop Pests",
        "野荒し",
        "のあらし",
        2,
        _all(70, 100, 81),
        "Boar, Deer, Geese",
        "SRC",
        "seed l.73–74; ref §2.1",
    ),
    Dekiyaku(
        "three_red_flowers",
        "Three Red Flowers",
        "三紅",
        "さんべに",
        2,
        _slots({22, 23}, {62, 63}, {72, 73}),
        "a plum, a peony and a bush clover chaff",
        "ASSUMED by FW-MB",
        "seed l.75–76; ref §2.1, M6",
    ),
    Dekiyaku(
        "three_purple_flowers",
        "Three Purple Flowers",
        "三紫",
        "さんむら",
        2,
        _slots({42, 43}, {52, 53}, {122, 123}),
        "a wisteria, an iris and a paulownia chaff (not the yellow 121)",
        "ASSUMED by FW-MB",
        "seed l.77–78; ref §2.1, M6",
    ),
    # Two-card dekiyaku, 1 point (seed l.79–94).
    Dekiyaku(
        "coat_of_arms",
        "Coat of Arms",
        "菊桐",
        "きくぎり",
        1,
        _all(90, 120),
        "Sake cup, Phoenix",
        "SRC",
        "seed l.81–82; ref §2.1",
    ),
    Dekiyaku(
        "moon_banquet",
        "Moon Banquet",
        "月の宴",
        "つきのうたげ",
        1,
        _all(90, 80),
        "Sake cup, Full moon",
        "SRC",
        "seed l.83; ref §2.1",
    ),
    Dekiyaku(
        "flower_banquet",
        "Flower Banquet",
        "花の宴",
        "はなのうたげ",
        1,
        _slots({90}, {30, 31}),
        "Sake cup plus the Curtain or the cherry poetry ribbon",
        "SRC",
        "seed l.85–86; ref §2.1",
    ),
    Dekiyaku(
        "autumn_leaves",
        "Autumn Leaves",
        "紅葉の賀",
        "もみじのが",
        1,
        _slots({90}, {100, 101}),
        "Sake cup plus the Deer or the maple blue ribbon",
        "SRC",
        "seed l.87–88; ref §2.1",
        note="FW-MB gives the reading いちょうのが (ref §2.1 notes)",
    ),
    Dekiyaku(
        "cuckoo_moon",
        "Cuckoo with Moon",
        "月ホト",
        "つきほと",
        1,
        _all(40, 80),
        "Cuckoo, Full moon",
        "SRC",
        "seed l.89; ref §2.1",
    ),
    Dekiyaku(
        "butterflies_flowers",
        "Butterflies with Flowers",
        "蝶花",
        "ちょうか",
        1,
        _all(60, 30),
        "Butterflies, Curtain",
        "SRC",
        "seed l.91; ref §2.1",
    ),
    Dekiyaku(
        "boar_peony",
        "Boar with Peony",
        "獅子牡丹",
        "ししぼたん",
        1,
        _all(70, 60),
        "Boar, Butterflies (peony)",
        "SRC",
        "seed l.93–94; ref §2.1",
    ),
    # Four-of-a-kind dekiyaku, 1 point (seed l.95–104).
    Dekiyaku(
        "plum_pot",
        "Plum Blossom Pot",
        "梅壷",
        "うめつぼ",
        1,
        _all(20, 21, 22, 23),
        "the four plum cards",
        "SRC",
        "seed l.97; ref §2.1",
    ),
    Dekiyaku(
        "wisteria_pot",
        "Wisteria Pot",
        "藤壷",
        "ふじつぼ",
        1,
        _all(40, 41, 42, 43),
        "the four wisteria cards",
        "SRC",
        "seed l.99; ref §2.1",
    ),
    Dekiyaku(
        "iris_bridge",
        "Iris Bridge",
        "八ツ橋",
        "やつはし",
        1,
        _all(50, 51, 52, 53),
        "the four iris cards",
        "SRC",
        "seed l.101; ref §2.1",
    ),
    Dekiyaku(
        "paulownia_pot",
        "Paulownia Pot",
        "桐壷",
        "きりつぼ",
        1,
        _all(120, 121, 122, 123),
        "the four paulownia cards",
        "SRC",
        "seed l.103; ref §2.1",
    ),
)
DEKIYAKU_BY_CODE: Mapping[str, Dekiyaku] = MappingProxyType({d.code: d for d in DEKIYAKU})
INSTA_WIN_CODES: frozenset[str] = frozenset(d.code for d in DEKIYAKU if d.insta_win)
_FLOWER_CODES = frozenset({"three_red_flowers", "three_purple_flowers"})

# Dekiyaku that M7(b) may read as "any card of the month": those whose cards lie in
# pairwise different months (the four-of-a-kind ones already are whole months, and the
# flower ones have their own option, M6).
MONTH_READABLE: frozenset[str] = frozenset(
    d.code
    for d in DEKIYAKU
    if d.code not in _FLOWER_CODES and len({CARD_BY_ID[min(s)].month for s in d.slots}) == len(d.slots)
)
# The dekiyaku ref M7 names as candidates for option (b).
M7_NAMED: frozenset[str] = frozenset({"coat_of_arms", "kemari_court", "purple_ribbons"})


# --- the options -------------------------------------------------------------------------


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
}


@dataclass(frozen=True)
class Options:
    """The house rules of a game. Every default is the one of ref §2.2/§2.4.

    Table and game (ref §2.2):

    - ``players``: ``THREE`` players, or ``TWO_TEAMS`` of 2 sharing one pile per team
      (seed l.4). Partners sit opposite each other [ASSUMED, ref §2.2.1], so turns
      alternate between the teams.
    - ``rounds``: rounds in a game; 12 is traditional, 6 and 3 are the shorter options
      (seed l.7). Any positive number is accepted as a house rule.
    - ``four_player_deal`` (M14): ``5+8`` (5 each, 8 on the table) or ``6+0`` (seed
      l.17–19). Default ``5+8``. It does not change scoring; see ``deal_layout``.
    - ``misdeal_four_in_hand`` (M15): also a misdeal when a *hand* holds 4 of one month.
      Not specified by the seed (only the table, seed l.21); default ``False``.

    Composition of the dekiyaku (ref §2.1):

    - ``four_brights`` (M4): ``LIGHTNING`` {10, 80, 113, 120} (seed l.53–54, l.41) or
      ``CURTAIN`` {10, 30, 80, 120} ("some players at the time", seed l.54). Default
      ``LIGHTNING``.
    - ``lightning`` (M16): which card is the Lightning. ``WILLOW_CHAFF`` = 113 in a modern
      deck (default); ``RAIN_MAN`` = 110 for an old Musashino deck, where the lightning is
      drawn on the Rain man (seed l.105–108). It sets the Four Brights card and the storm
      cards.
    - ``flower_cards`` (M6): Three Red / Three Purple Flowers take ``CHAFF_EXCEPT_YELLOW``
      (default; the FW-MB assumption, seed l.76, l.78), any ``CHAFF`` (121 allowed), or
      ``ANY_CARD`` of each month.
    - ``any_card_of_month`` (M7): codes of dekiyaku read as "any card of their months"
      instead of the exact cards FW-MB pictures. Default empty = exact cards (M7(a));
      ``M7_NAMED`` holds the three the reference names. Allowed codes: ``MONTH_READABLE``.

    Counting (ref §2.2.6):

    - ``suppression`` (M5): ``FOUR_BRIGHTS_ONLY`` — Four Brights drops Three Brights
      (seed l.41; default) — or ``SUBSET_OF_HIGHER``: any scored dekiyaku whose cards are
      a subset of a higher-valued scored one is dropped (FW-MB's first revision).
    - ``repeats`` (M8): a dekiyaku counts ``ONCE`` per side (default, ASSUMED) or
      ``PER_DISJOINT_SET``: once per disjoint choice of its alternative cards, the fixed
      cards being shared (MB-7 counts Flower Banquet twice with one Sake cup).

    Storm and Sun rules (seed l.24–32, ref §2.3):

    - ``storm`` (M11): ``OFF`` (default: the seed calls it optional, l.24), ``A`` (an
      opponent of the holder of an active storm card cannot use 80, 30, 31; seed l.26–29
      first bullet) or ``B`` (that opponent loses Moon and Flower Banquet; seed l.29
      second bullet).
    - ``sun_rule``: the Crane captured by an opponent of a storm card's holder cancels that
      storm card (seed l.30–32). Works only with the Storm rule ("If Storm Rule is used",
      seed l.30); with ``storm=OFF`` it has no effect. Default ``False``.
    - ``sun_timing`` (M10): ``ANY_ORDER`` — the Crane anywhere with an opponent at the end
      of the round cancels the storm card for everyone (default) — ``AFTER_STORM_CARD`` —
      only if the Crane was captured after the storm card ("then", seed l.31; needs the
      capture order) — or ``CRANE_HOLDER_ONLY`` — the Crane protects only its holder.
    - ``storm_insta_win`` (M9): ``NOT_AFFECTED`` — the insta-win dekiyaku are never
      blocked (default) — or ``BLOCKED_WHEN_FORMED`` — under Storm A they are blocked if an
      opponent holds an active storm card when they would form (needs the capture order).

    Payments (seed l.34–37, ref §1.3, §2.2.5–7):

    - ``insta_win_value``: points of an insta-win; 8 is FW-MB's assumption (seed l.34–35).
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

    def __post_init__(self) -> None:
        # Values may arrive as their stored strings (e.g. from a database row): coerce them.
        for name, enum_cls in _ENUM_FIELDS.items():
            value = getattr(self, name)
            if not isinstance(value, enum_cls):
                try:
                    value = enum_cls(value)
                except ValueError:
                    allowed = ", ".join(repr(m.value) for m in enum_cls)
                    raise ValueError(f"Options.{name}: {value!r} is not one of {allowed}") from None
                object.__setattr__(self, name, value)
        for name in ("sun_rule", "misdeal_four_in_hand"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"Options.{name} must be True or False, got {getattr(self, name)!r}")
        for name in ("rounds", "insta_win_value"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Options.{name} must be a whole number of at least 1, got {value!r}")
        cap = self.payment_cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
            raise ValueError(f"Options.payment_cap must be None or a whole number of at least 1, got {cap!r}")
        codes = self.any_card_of_month
        if isinstance(codes, str) or not isinstance(codes, Iterable):
            raise ValueError(f"Options.any_card_of_month must be a set of dekiyaku codes, got {codes!r}")
        codes = frozenset(codes)
        for code in sorted(codes, key=str):
            if code not in DEKIYAKU_BY_CODE:
                raise ValueError(f"Options.any_card_of_month: unknown dekiyaku code {code!r}")
            if code not in MONTH_READABLE:
                raise ValueError(
                    f"Options.any_card_of_month: {code!r} cannot be read as 'any card of its months'"
                    + (" (use flower_cards)" if code in _FLOWER_CODES else " (its cards share a month)")
                )
        object.__setattr__(self, "any_card_of_month", codes)

    @property
    def lightning_card(self) -> int:
        """The Lightning card id: 113, or 110 for an old deck (M16)."""
        return LIGHTNING if self.lightning is LightningCard.WILLOW_CHAFF else RAIN_MAN

    @property
    def storm_cards(self) -> frozenset[int]:
        """The Rain man and the Lightning (seed l.27); only the Rain man with an old deck."""
        return frozenset({RAIN_MAN, self.lightning_card})

    @property
    def sides(self) -> int:
        """Number of capture piles: 3 players or 2 teams (seed l.4)."""
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
        """Options from ``as_dict`` values; unknown keys are a ``ValueError``, missing keys default."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)


DEFAULT_OPTIONS = Options()


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
            slots = _all(CRANE, FULL_MOON, fourth, PHOENIX)
        elif d.code in _FLOWER_CODES:
            if options.flower_cards is FlowerCards.ANY_CARD:
                slots = tuple(cards_of_month(CARD_BY_ID[min(s)].month) for s in slots)
            elif options.flower_cards is FlowerCards.CHAFF:
                slots = tuple(
                    frozenset(c for c in cards_of_month(CARD_BY_ID[min(s)].month) if CARD_BY_ID[c].type is _C)
                    for s in slots
                )
        elif d.code in options.any_card_of_month:
            slots = tuple(cards_of_month(CARD_BY_ID[min(s)].month) for s in slots)
        table[d.code] = slots
    return MappingProxyType(table)


# --- results -----------------------------------------------------------------------------


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


@dataclass(frozen=True)
class StormEffect:
    """How the Storm rule hit one side (ref §2.3).

    ``storm_cards``: the opponents' active storm cards; ``blocked_cards``: the side's own
    cards it could not use (Storm A); ``lost``: codes of the dekiyaku the storm took away.
    """

    storm_cards: tuple[int, ...]
    blocked_cards: tuple[int, ...]
    lost: tuple[str, ...]


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``amount`` points to ``payee``; ``uncapped`` is the amount before the cap (M2)."""

    payer: Hashable
    payee: Hashable
    amount: int
    uncapped: int


@dataclass(frozen=True)
class InstaWin:
    """The insta-win that stopped the round: the side, its dekiyaku and, when the capture
    order was given, the index of the capture that formed it (seed l.34)."""

    side: Hashable
    dekiyaku: tuple[ScoredYaku, ...]
    capture_index: int | None


@dataclass(frozen=True)
class RoundResult:
    """The outcome of one round (``score_round``). Points throughout.

    - ``turn_order``: the sides from the dealer, anti-clockwise (seed l.23).
    - ``dekiyaku``: side → scored dekiyaku in table order (for an insta-win round only the
      winner's insta-win dekiyaku, seed l.42); ``scores``: side → points.
    - ``suppressed``: side → codes formed but not counted (M5); ``storm``: stormed side →
      ``StormEffect``; ``storm_cancelled``: storm cards voided by the Sun rule.
    - ``winners``: usually one side; several under ``ALL_TIED_WIN``; none under
      ``NO_SETTLEMENT`` with a tie. ``next_dealer``: the round's winner (seed l.13); on a tie
      the tied side first in turn order from the dealer (ref §1.3).
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


# --- evaluation --------------------------------------------------------------------------


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


def _formed(cards: frozenset[int], options: Options, insta_win: bool) -> list[ScoredYaku]:
    table = _slot_table(options)
    out = []
    for d in DEKIYAKU:
        if d.insta_win != insta_win:
            continue
        count, used = _count(table[d.code], cards, options.repeats)
        if count:
            out.append(ScoredYaku(d, used, count))
    return out


def _suppress(formed: list[ScoredYaku], options: Options) -> tuple[list[ScoredYaku], tuple[str, ...]]:
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
    pile = _pile(cards, "formed_dekiyaku()")
    kept, _ = _suppress(_formed(pile, options, insta_win=False), options)
    return tuple(_formed(pile, options, insta_win=True) + kept)


def _pile(cards: Iterable[int], where: str) -> frozenset[int]:
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise ValueError(f"{where}: expected a collection of card ids, got {cards!r}")
    seen: set[int] = set()
    for value in cards:
        card_id = _card_id(value, where)
        if card_id in seen:
            raise ValueError(f"{where}: card {_describe(card_id)} is listed twice")
        seen.add(card_id)
    return frozenset(seen)


def _storm_hits(
    piles: Mapping[Hashable, frozenset[int]], options: Options, position: Mapping[int, int] | None
) -> tuple[dict[Hashable, set[int]], set[int]]:
    """Which active storm cards hit each side, and which storm cards the Sun cancelled (ref §2.3)."""
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


# --- input checks ------------------------------------------------------------------------


def _check_captures(captures: Mapping[Hashable, Iterable[int]], options: Options) -> dict[Hashable, frozenset[int]]:
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
            card_id = _card_id(value, where)
            if card_id in pile:
                raise ValueError(f"{where}: card {_describe(card_id)} is listed twice")
            if card_id in owner:
                raise ValueError(f"card {_describe(card_id)} is captured twice: by {owner[card_id]!r} and by {side!r}")
            pile.add(card_id)
            owner[card_id] = side
        piles[side] = frozenset(pile)
    return piles


def _check_month_counts(piles: Mapping[Hashable, frozenset[int]]) -> None:
    # Every capture takes 2 or 4 cards of one month (ref §1.2), so a pile holds 0, 2 or 4 of each.
    for side, pile in piles.items():
        for flower in FLOWERS:
            held = sorted(c for c in pile if CARD_BY_ID[c].month == flower.month)
            if len(held) % 2:
                raise ValueError(
                    f"captures[{side!r}] holds {len(held)} card(s) of month {flower.month} ({flower.name_en}): "
                    f"{held}; every capture takes 2 or 4 cards of one month, so a pile holds 0, 2 or 4 of "
                    "each month (pass partial=True to list only the cards that matter)"
                )


def _check_order(
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
        ids = [_card_id(v, where) for v in values]
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
                raise ValueError(f"{where}: card {_describe(c)} is captured twice in capture_order")
            if c not in piles[side]:
                others = [s for s, p in piles.items() if c in p]
                held_by = f"by {others[0]!r}" if others else "by nobody"
                raise ValueError(f"{where}: gives card {_describe(c)} to {side!r}, but captures has it {held_by}")
            seen.add(c)
        events.append((side, frozenset(ids)))
    missing = sorted(set().union(*piles.values()) - seen)
    if missing:
        raise ValueError(f"capture_order leaves out captured card(s) {missing}")
    return tuple(events)


def _check_teams(teams: Mapping[Hashable, Sequence[Hashable]], sides: Sequence[Hashable]) -> dict:
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


# --- scoring a round ---------------------------------------------------------------------


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
      stopped it). 3 sides for 3 players, 2 for teams (seed l.4); the mapping's order is the
      seating order, i.e. the turn order (seed l.23).
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
      (ref §2.5). Without it the piles must be possible: 0, 2 or 4 cards of each month per
      pile, and all 48 cards captured when no insta-win stopped the round (in Hana-awase a
      card that matches must capture, so every month ends fully captured; ref §1.2).

    Rules applied: an insta-win dekiyaku (Five Kings, Seven Red Ribbons) stops the round and
    only it is paid, ``insta_win_value`` by each opposing side (seed l.34–35, l.42; M1). Else
    each side scores the sum of its dekiyaku values, all stacking except Four Brights over
    Three Brights (seed l.36, l.40–41; M5, M8), after the Storm and Sun rules (seed l.24–32;
    ref §2.3). The side with most points wins and each other side pays the difference (seed
    l.37), capped by ``payment_cap`` (M2); ties by ``tie_rule`` (M3). The winner deals next
    (seed l.13).

    Output: a ``RoundResult``. ``ValueError`` names any impossible or inconsistent input.
    """
    if not isinstance(options, Options):
        raise ValueError(f"options must be an Options, got {options!r}")
    piles = _check_captures(captures, options)
    sides = tuple(piles)
    if dealer is None:
        dealer = sides[0]
    elif dealer not in piles:
        raise ValueError(f"unknown dealer {dealer!r} (sides: {list(sides)!r})")
    start = sides.index(dealer)
    turn_order = sides[start:] + sides[:start]

    if teams is not None and options.players is not Players.TWO_TEAMS:
        raise ValueError("teams is only for players=TWO_TEAMS")
    team_members = _check_teams(teams, sides) if teams is not None else None
    per_player = options.players is Players.TWO_TEAMS and options.team_payment is TeamPayment.EACH_PLAYER
    if per_player and team_members is None:
        raise ValueError("team_payment=EACH_PLAYER needs teams (team → its two players)")

    if not partial:
        _check_month_counts(piles)
    events = _check_order(capture_order, piles, partial) if capture_order is not None else None
    if events is None and options.needs_capture_order:
        raise ValueError(
            "these options need capture_order: the Sun rule with sun_timing=AFTER_STORM_CARD (M10(b)) "
            "or Storm A with storm_insta_win=BLOCKED_WHEN_FORMED (M9(b)) depend on when cards were captured"
        )
    position = {c: i for i, (_, cards) in enumerate(events) for c in cards} if events is not None else None

    stop = _find_insta_win(piles, turn_order, options, events)
    if insta_win is not None:
        if insta_win not in piles:
            raise ValueError(f"insta_win: unknown side {insta_win!r} (sides: {list(sides)!r})")
        if stop is None:
            raise ValueError(
                f"insta_win says {insta_win!r} formed an insta-win dekiyaku, but no Five Kings or "
                "Seven Red Ribbons stopped the round"
            )
        if stop.side != insta_win:
            raise ValueError(f"insta_win says {insta_win!r}, but the insta-win was formed by {stop.side!r}")
    if stop is None and not partial:
        missing = sorted(set(CARD_BY_ID) - set().union(*piles.values()))
        if missing:
            raise CardsNotCaptured(tuple(missing))

    if stop is not None:
        # Only the insta-win is paid (seed l.34, l.42): no other dekiyaku, no storm.
        dekiyaku = {s: (stop.dekiyaku if s == stop.side else ()) for s in turn_order}
        scores = {s: (options.insta_win_value if s == stop.side else 0) for s in turn_order}
        suppressed: dict[Hashable, tuple[str, ...]] = dict.fromkeys(turn_order, ())
        storm: dict[Hashable, StormEffect] = {}
        cancelled: set[int] = set()
        winners, next_dealer = (stop.side,), stop.side
        raw = _insta_win_amounts(stop.side, turn_order, options)
    else:
        dekiyaku, scores, suppressed, storm, cancelled = _score_sides(piles, turn_order, options, position)
        winners, next_dealer, raw = _difference_amounts(scores, turn_order, options)

    side_payments = [
        Payment(payer, payee, amount if options.payment_cap is None else min(amount, options.payment_cap), amount)
        for payer, payee, amount in raw
        if amount > 0
    ]
    if per_player:
        payments = tuple(
            Payment(p, q, pay.amount, pay.uncapped)
            for pay in side_payments
            for p in team_members[pay.payer]
            for q in team_members[pay.payee]
        )
        units = [p for s in turn_order for p in team_members[s]]
    else:
        payments = tuple(side_payments)
        units = list(turn_order)
    net = dict.fromkeys(units, 0)
    for pay in payments:
        net[pay.payer] -= pay.amount
        net[pay.payee] += pay.amount
    team_of = {p: s for s in turn_order for p in team_members[s]} if per_player else {s: s for s in turn_order}
    side_net = dict.fromkeys(turn_order, 0)
    for unit, change in net.items():
        side_net[team_of[unit]] += change

    return RoundResult(
        options=options,
        dealer=dealer,
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


def _score_sides(piles, turn_order, options, position):
    """Each side's dekiyaku and points at the end of a round, after the Storm and Sun rules
    (ref §2.3) and the suppression rule (M5)."""
    hits, cancelled = _storm_hits(piles, options, position)
    dekiyaku, scores, suppressed, storm = {}, {}, {}, {}
    for side in turn_order:
        pile = piles[side]
        full = _formed(pile, options, insta_win=False)
        blocked: frozenset[int] = frozenset()
        if hits[side] and options.storm is Storm.A:
            blocked = pile & STORM_A_BLOCKED
            kept = _formed(pile - blocked, options, insta_win=False)
        elif hits[side] and options.storm is Storm.B:
            kept = [y for y in full if y.code not in STORM_B_LOST]
        else:
            kept = full
        if hits[side]:
            kept_codes = {y.code for y in kept}
            lost = tuple(y.code for y in full if y.code not in kept_codes)
            storm[side] = StormEffect(tuple(sorted(hits[side])), tuple(sorted(blocked)), lost)
        kept, suppressed[side] = _suppress(kept, options)
        dekiyaku[side] = tuple(kept)
        scores[side] = sum(y.points for y in kept)
    return dekiyaku, scores, suppressed, storm, cancelled


def _difference_amounts(scores, turn_order, options):
    """Winners, next dealer and (payer, payee, amount) before the cap: each loser pays the
    winner the difference (seed l.37); ties by ``tie_rule`` (M3, ref §1.3)."""
    top = max(scores.values())
    tied = [s for s in turn_order if scores[s] == top]
    leader = tied[0]  # the tied side first in turn order from the dealer
    if len(tied) == 1 or options.tie_rule is TieRule.LEADER:
        return (leader,), leader, [(s, leader, top - scores[s]) for s in turn_order if s != leader]
    if options.tie_rule is TieRule.ALL_TIED_WIN:
        return tuple(tied), leader, [(s, w, top - scores[s]) for s in turn_order if s not in tied for w in tied]
    return (), leader, []


def _insta_win_amounts(winner, turn_order, options):
    """(payer, payee, amount) of an insta-win before the cap (seed l.34; M1)."""
    losers = [s for s in turn_order if s != winner]
    if options.insta_win_payment is InstaWinPayment.EACH_SIDE:
        amount = options.insta_win_value
    else:
        amount, rest = divmod(options.insta_win_value, len(losers))
        if rest:
            raise ValueError(
                f"insta_win_value {options.insta_win_value} cannot be shared equally by {len(losers)} sides"
            )
    return [(s, winner, amount) for s in losers]


class CardsNotCaptured(ValueError):
    """No insta-win stopped the round, yet some cards were not captured (ref §1.2: a card
    that matches must capture, so every card ends in a pile). ``missing``: their ids."""

    def __init__(self, missing: tuple[int, ...]):
        self.missing = missing
        super().__init__(
            f"the round ended without an insta-win, so all 48 cards were captured (a card that "
            f"matches must capture, ref §1.2); not captured: {list(missing)}"
        )


class CapturesAfterInstaWin(ValueError):
    """``capture_order`` goes on after an insta-win stopped the round (seed l.34).

    ``index``: the capture (0-based, in ``capture_order``) that formed the insta-win;
    ``side``: who formed it; ``codes``: the insta-win dekiyaku formed.
    """

    def __init__(self, index: int, side: Hashable, codes: tuple[str, ...]):
        self.index, self.side, self.codes = index, side, codes
        super().__init__(
            f"capture_order goes on after capture {index}, where {side!r} formed "
            f"{', '.join(codes)} and the round stopped (seed l.34)"
        )


def _find_insta_win(
    piles: Mapping[Hashable, frozenset[int]],
    turn_order: tuple[Hashable, ...],
    options: Options,
    events: tuple[tuple[Hashable, frozenset[int]], ...] | None,
) -> InstaWin | None:
    """The insta-win that stopped the round, if any (seed l.34; ref §2.2.5, M9, M12)."""
    block_at_formation = options.storm is Storm.A and options.storm_insta_win is StormOnInstaWin.BLOCKED_WHEN_FORMED

    def formed(side, current, position):
        usable = current[side]
        if block_at_formation and _storm_hits(current, options, position)[0][side]:
            usable = usable - STORM_A_BLOCKED
        return tuple(_formed(usable, options, insta_win=True))

    if events is None:
        found = [(side, f) for side in turn_order if (f := formed(side, piles, None))]
        if len(found) > 1:
            names = "; ".join(f"{side!r}: {', '.join(y.code for y in f)}" for side, f in found)
            raise ValueError(
                f"more than one side holds a complete insta-win dekiyaku ({names}); the round stops at "
                "the first one (seed l.34), so only one side can"
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
            f = formed(side, current, position)
            if f:
                rest = events[i + 1 :]
                # With the test at the end of the turn the same turn may still hold one capture.
                allowed = 1 if options.insta_win_check is InstaWinCheck.END_OF_TURN and side == capturer else 0
                if len(rest) > allowed or any(s != capturer for s, _ in rest):
                    raise CapturesAfterInstaWin(i, side, tuple(y.code for y in f))
                return InstaWin(side, f, i)
    return None


# --- a game of several rounds ------------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    """The running and final totals of a game (``settle``). Points.

    ``running[i]``: unit → total after round i + 1; ``totals``: after the last round;
    ``transfers``: payments that settle the totals (each debtor pays creditors in seat order);
    ``ranking``: units by total, highest first (ties keep the seat order of the first round).
    """

    rounds_planned: int
    rounds_played: int
    units: tuple[Hashable, ...]
    running: tuple[Mapping[Hashable, int], ...]
    totals: Mapping[Hashable, int]
    transfers: tuple[Payment, ...]

    @property
    def complete(self) -> bool:
        return self.rounds_played == self.rounds_planned

    @property
    def ranking(self) -> tuple[Hashable, ...]:
        return tuple(sorted(self.units, key=lambda u: -self.totals[u]))


def settle(rounds: Sequence[RoundResult], options: Options = DEFAULT_OPTIONS) -> Settlement:
    """Running totals and the final settlement of a game.

    Input: the ``RoundResult`` of each round played so far, in order, all scored with
    ``options``; at most ``options.rounds`` of them (12, 6 or 3, seed l.7). Each round must be
    dealt by the winner of the one before (seed l.13). Output: a ``Settlement`` in points.
    ``ValueError`` when the rounds are too many, scored with other options, have other
    players, or break the dealer rule.
    """
    rounds = list(rounds)
    if len(rounds) > options.rounds:
        raise ValueError(f"{len(rounds)} rounds played, but the game has {options.rounds}")
    units: tuple[Hashable, ...] = ()
    for i, result in enumerate(rounds):
        if not isinstance(result, RoundResult):
            raise ValueError(f"round {i + 1} is not a RoundResult: {result!r}")
        if result.options != options:
            raise ValueError(f"round {i + 1} was scored with other options than the game's")
        if i == 0:
            units = tuple(result.net)
        elif set(result.net) != set(units):
            raise ValueError(
                f"round {i + 1} has players {sorted(result.net, key=str)!r}, not {sorted(units, key=str)!r}"
            )
        if i and result.dealer != rounds[i - 1].next_dealer:
            raise ValueError(
                f"round {i + 1} is dealt by {result.dealer!r}, but {rounds[i - 1].next_dealer!r} won "
                f"round {i} and deals next (seed l.13)"
            )
    running = []
    totals = dict.fromkeys(units, 0)
    for result in rounds:
        for unit, change in result.net.items():
            totals[unit] += change
        running.append(MappingProxyType(dict(totals)))
    debts = [[u, -t] for u, t in totals.items() if t < 0]
    credits = [[u, t] for u, t in totals.items() if t > 0]
    transfers = []
    for debtor in debts:
        for creditor in credits:
            amount = min(debtor[1], creditor[1])
            if amount:
                transfers.append(Payment(debtor[0], creditor[0], amount, amount))
                debtor[1] -= amount
                creditor[1] -= amount
    return Settlement(
        rounds_planned=options.rounds,
        rounds_played=len(rounds),
        units=units,
        running=tuple(running),
        totals=MappingProxyType(totals),
        transfers=tuple(transfers),
    )


# --- dealing -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DealLayout:
    """How the 48 cards are dealt: players, cards per hand, face up on the table, draw pile."""

    players: int
    hand_size: int
    table_size: int
    draw_pile: int


def deal_layout(options: Options = DEFAULT_OPTIONS) -> DealLayout:
    """3 players: 7 each and 6 on the table (seed l.16); 4 players: 5 + 8 or 6 + 0 (seed l.17–19, M14)."""
    if options.players is Players.THREE:
        players, hand, table = 3, 7, 6
    elif options.four_player_deal is FourPlayerDeal.FIVE_EIGHT:
        players, hand, table = 4, 5, 8
    else:
        players, hand, table = 4, 6, 0
    return DealLayout(players, hand, table, DECK_SIZE - players * hand - table)


def is_misdeal(table: Iterable[int], hands: Iterable[Iterable[int]] = (), options: Options = DEFAULT_OPTIONS) -> bool:
    """True when the deal must be redone: all 4 cards of a month on the table (seed l.21), or
    in one hand when ``options.misdeal_four_in_hand`` (M15). ``ValueError`` for bad ids."""
    groups = [_pile(table, "table")]
    if options.misdeal_four_in_hand:
        groups += [_pile(hand, f"hands[{i}]") for i, hand in enumerate(hands)]
    for group in groups:
        months = [CARD_BY_ID[c].month for c in group]
        if any(months.count(m) == 4 for m in set(months)):
            return True
    return False


def first_dealer(draws: Mapping[Hashable, int]) -> Hashable:
    """The first dealer from one drawn card per player: the earliest month, and within a month
    the higher-ranked card (lower rank number) (seed l.12). Cards are distinct, so there is
    always exactly one. ``ValueError`` for unknown or repeated cards."""
    if not isinstance(draws, Mapping) or not draws:
        raise ValueError(f"draws must map each player to the card drawn, got {draws!r}")
    seen: dict[int, Hashable] = {}
    for player, value in draws.items():
        card_id = _card_id(value, f"draws[{player!r}]")
        if card_id in seen:
            raise ValueError(f"card {_describe(card_id)} is drawn by both {seen[card_id]!r} and {player!r}")
        seen[card_id] = player
    return seen[min(seen, key=lambda c: (CARD_BY_ID[c].month, CARD_BY_ID[c].rank))]
