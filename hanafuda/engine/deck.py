"""The Musashino-bana deck: the 48 hanafuda cards, their months and kinds.

Responsible for: the cards as data (``CARDS``, ``CARD_BY_ID``, ``FLOWERS``), the cards the
rules name (``CRANE``, ``LIGHTNING`` …) and checking card ids given by a caller
(``checked_card_id``, ``checked_pile``).

Must not: import Django, touch a database or produce translated text. Bad input raises
``ValueError`` with a message that names the problem.

Card ids are ``month × 10 + rank``, rank 0 being the highest card of the month (musashino-bana.md s.1.1):
10 is the Crane, 113 the Lightning, 121 the yellow-bottom paulownia chaff.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType


class CardType(enum.StrEnum):
    """The four kinds of card (musashino-bana.md s.1.1). ``PLAIN`` is another name for ``CHAFF`` (カス)."""

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
        """Card points in the games that use them (20/10/5/1, musashino-bana.md s.1.1). Musashino does not."""
        return _TYPE_POINTS[self]


_TYPE_JA = {CardType.BRIGHT: "光", CardType.ANIMAL: "種", CardType.RIBBON: "短冊", CardType.CHAFF: "カス"}
_TYPE_POINTS = {CardType.BRIGHT: 20, CardType.ANIMAL: 10, CardType.RIBBON: 5, CardType.CHAFF: 1}


class RibbonKind(enum.StrEnum):
    """Ribbon subtypes (musashino-bana.md s.1.1). Poetry and plain ribbons are the "red ribbons" of Musashino."""

    POETRY = "poetry"  # 赤短: red with writing
    BLUE = "blue"  # 青短: printed purple (紫) in old decks, hence 紫短 (musashino-bana.md l.68)
    PLAIN = "plain"  # red without writing

    @property
    def ja(self) -> str:
        return {RibbonKind.POETRY: "赤短", RibbonKind.BLUE: "青短", RibbonKind.PLAIN: "短冊"}[self]


@dataclass(frozen=True)
class Flower:
    """One of the 12 suits; the month is 1–12 (musashino-bana.md s.1.1)."""

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
    """One card of the 48 (musashino-bana.md s.1.1). ``id`` = month × 10 + rank; ``ribbon`` only for ribbons."""

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
        """Poetry and plain ribbons: the seven cards of Seven Red Ribbons (musashino-bana.md s.2.1)."""
        return self.ribbon in (RibbonKind.POETRY, RibbonKind.PLAIN)

    @property
    def standard_points(self) -> int:
        return self.type.standard_points


_B, _A, _R, _C = CardType.BRIGHT, CardType.ANIMAL, CardType.RIBBON, CardType.CHAFF
_POETRY, _BLUE, _PLAIN = RibbonKind.POETRY, RibbonKind.BLUE, RibbonKind.PLAIN

# (id, type, ribbon kind, English name, Japanese name) — the table of musashino-bana.md s.1.1.
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

# Cards the rules name (musashino-bana.md s.1.1, s.2.3).
CRANE = 10  # the "Sun" of the Sun rule (musashino-bana.md l.31–32)
CURTAIN = 30
CHERRY_POETRY_RIBBON = 31
FULL_MOON = 80
RAIN_MAN = 110  # storm card (musashino-bana.md l.27)
LIGHTNING = 113  # storm card; part of Four Brights (musashino-bana.md l.41)
PHOENIX = 120
YELLOW_PAULOWNIA_CHAFF = 121


def card(card_id: int) -> Card:
    """The card with this id; ``ValueError`` for an unknown id."""
    return CARD_BY_ID[checked_card_id(card_id, "card()")]


def cards_of_month(month: int) -> frozenset[int]:
    """The four card ids of a month (1–12); ``ValueError`` for another month."""
    if isinstance(month, bool) or not isinstance(month, int) or not 1 <= month <= 12:
        raise ValueError(f"month must be a whole number from 1 to 12, got {month!r}")
    return frozenset(c.id for c in CARDS if c.month == month)


def checked_card_id(value: object, where: str) -> int:
    """``value`` when it is a card id; else ``ValueError`` naming ``where`` (e.g. "captures[0]")."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{where}: card ids are whole numbers (month × 10 + rank), got {value!r}")
    if value not in CARD_BY_ID:
        raise ValueError(f"{where}: unknown card id {value} (ids are month × 10 + rank: 10–13, 20–23, …, 120–123)")
    return value


def describe(card_id: int) -> str:
    """The id and English name of a card, for error messages: "10 (Crane (with sun))"."""
    return f"{card_id} ({CARD_BY_ID[card_id].name_en})"


def checked_pile(cards: Iterable[int], where: str) -> frozenset[int]:
    """A collection of distinct card ids as a frozenset; ``ValueError`` naming ``where`` for
    something that is not a collection, an unknown id or an id listed twice."""
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise ValueError(f"{where}: expected a collection of card ids, got {cards!r}")
    seen: set[int] = set()
    for value in cards:
        card_id = checked_card_id(value, where)
        if card_id in seen:
            raise ValueError(f"{where}: card {describe(card_id)} is listed twice")
        seen.add(card_id)
    return frozenset(seen)
