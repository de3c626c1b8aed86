"""The Musashino-bana dekiyaku (出来役) as data: which cards form each one and what it is worth.

Responsible for: ``DEKIYAKU`` (the default composition of every dekiyaku, in table order),
``DEKIYAKU_BY_CODE`` and the sets of codes the options refer to (``INSTA_WIN_CODES``,
``FLOWER_CODES``, ``MONTH_READABLE``, ``M7_NAMED``). The game has no card points and no
teyaku (musashino-bana.md l.5); only dekiyaku score (musashino-bana.md l.8, l.36). How the options change a
composition is ``hanafuda.engine.formation.composition``.

Must not: import Django, touch a database or produce translated text.

Values are in points (chips, mon 文). The exact card of every dekiyaku comes from musashino-bana.md s.2.1
(recovered from the card images of the FudaWiki page).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from hanafuda.engine.deck import CARD_BY_ID


@dataclass(frozen=True)
class Dekiyaku:
    """One dekiyaku as data (musashino-bana.md s.2.1).

    ``slots``: one card is needed from each slot, with distinct cards; a slot of one card
    means "this exact card". ``value`` is in points. ``insta_win`` dekiyaku stop the round
    (musashino-bana.md l.48, l.50). ``suppresses``: codes not counted when this one is scored (musashino-bana.md l.41).
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
    # Insta-win dekiyaku, 8 points (musashino-bana.md l.45–50; the value 8 is FW-MB's assumption, l.35).
    Dekiyaku(
        "five_kings",
        "Five Kings",
        "五王",
        "ごおう",
        8,
        _all(10, 30, 80, 110, 120),
        "Crane, Curtain, Full moon, Rain man, Phoenix",
        "SRC (value ASSUMED by FW-MB)",
        "musashino-bana.md l.47–48; s.2.1",
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
        "musashino-bana.md l.49–50; s.2.1",
        insta_win=True,
    ),
    # Four-card dekiyaku, 4 points (musashino-bana.md l.51–56).
    Dekiyaku(
        "four_brights",
        "Four Brights",
        "四光",
        "しこう",
        4,
        _all(10, 80, 113, 120),
        "Crane, Full moon, Lightning, Phoenix (option: Curtain instead of Lightning)",
        "SRC",
        "musashino-bana.md l.53–54, l.41; musashino-bana.md s.2.1, M4",
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
        "musashino-bana.md l.55–56; s.2.1",
    ),
    # Three-card dekiyaku, 2 points (musashino-bana.md l.57–78).
    Dekiyaku(
        "three_brights",
        "Three Brights (Sun-Moon-Star)",
        "三光",
        "さんこう",
        2,
        _all(10, 80, 120),
        "Crane, Full moon, Phoenix",
        "SRC",
        "musashino-bana.md l.59–60; s.2.1",
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
        "musashino-bana.md l.61–62; s.2.1",
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
        "musashino-bana.md l.63–64; s.2.1",
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
        "musashino-bana.md l.65–66; s.2.1",
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
        "musashino-bana.md l.67–68; s.2.1",
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
        "musashino-bana.md l.69; s.2.1",
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
        "musashino-bana.md l.71–72; s.2.1",
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
        "musashino-bana.md l.73–74; s.2.1",
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
        "musashino-bana.md l.75–76; s.2.1, M6",
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
        "musashino-bana.md l.77–78; s.2.1, M6",
    ),
    # Two-card dekiyaku, 1 point (musashino-bana.md l.79–94).
    Dekiyaku(
        "coat_of_arms",
        "Coat of Arms",
        "菊桐",
        "きくぎり",
        1,
        _all(90, 120),
        "Sake cup, Phoenix",
        "SRC",
        "musashino-bana.md l.81–82; s.2.1",
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
        "musashino-bana.md l.83; s.2.1",
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
        "musashino-bana.md l.85–86; s.2.1",
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
        "musashino-bana.md l.87–88; s.2.1",
        note="FW-MB gives the reading いちょうのが (musashino-bana.md s.2.1 notes)",
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
        "musashino-bana.md l.89; s.2.1",
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
        "musashino-bana.md l.91; s.2.1",
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
        "musashino-bana.md l.93–94; s.2.1",
    ),
    # Four-of-a-kind dekiyaku, 1 point (musashino-bana.md l.95–104).
    Dekiyaku(
        "plum_pot",
        "Plum Blossom Pot",
        "梅壷",
        "うめつぼ",
        1,
        _all(20, 21, 22, 23),
        "the four plum cards",
        "SRC",
        "musashino-bana.md l.97; s.2.1",
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
        "musashino-bana.md l.99; s.2.1",
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
        "musashino-bana.md l.101; s.2.1",
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
        "musashino-bana.md l.103; s.2.1",
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
# The dekiyaku M7 names as candidates for option (b).
M7_NAMED: frozenset[str] = frozenset({"coat_of_arms", "kemari_court", "purple_ribbons"})
