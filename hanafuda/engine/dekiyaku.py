"""The Musashino-bana dekiyaku (出来役) as data: which cards form each one and what it is worth.

Responsible for: ``DEKIYAKU`` (the default composition of every dekiyaku, in table order),
``DEKIYAKU_BY_CODE`` and the sets of codes the options refer to (``INSTA_WIN_CODES``,
``FLOWER_CODES``, ``MONTH_READABLE``, ``M7_NAMED``). The game has no card points and no
teyaku (seed l.5); only dekiyaku score (seed l.8, l.36). How the options change a
composition is ``hanafuda.engine.formation.composition``.

Must not: import Django, touch a database or produce translated text.

Values are in points (chips, mon 文). The exact card of every dekiyaku comes from ref §2.1
(recovered from the card images of the FudaWiki page).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hanafuda.engine.deck import CARD_BY_ID


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
FLOWER_CODES = frozenset({"three_red_flowers", "three_purple_flowers"})

# Dekiyaku that M7(b) may read as "any card of the month": those whose cards lie in
# pairwise different months (the four-of-a-kind ones already are whole months, and the
# flower ones have their own option, M6).
MONTH_READABLE: frozenset[str] = frozenset(
    d.code
    for d in DEKIYAKU
    if d.code not in FLOWER_CODES and len({CARD_BY_ID[min(s)].month for s in d.slots}) == len(d.slots)
)
# The dekiyaku ref M7 names as candidates for option (b).
M7_NAMED: frozenset[str] = frozenset({"coat_of_arms", "kemari_court", "purple_ribbons"})
