"""The fixed facts of Sanjô Dôsai (三条道才): the subjects, the efuda in play, the houses and rows.

Responsible for: the numbers every other module of ``dosai.engine`` relies on (the 62
subjects, the 60 efuda in play, the four bakefuda, nos. 46 and 50 turned free at the end,
six houses of ten efuda in four rows) and ``is_whole_number``, the check of a count.

Must not: import Django, touch the database, read files, or know any card's points.
"""

from __future__ import annotations

import enum
from types import MappingProxyType


def is_whole_number(value: object) -> bool:
    """True for an ``int`` that is not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


SUBJECT_NUMBERS = frozenset(range(1, 63))  # 62 subjects numbered 1..62 (sanjo-dosai.md l.16)
REMOVED_BEFORE_PLAY = frozenset({8, 23})  # efuda 8 and 23 leave the deck (sanjo-dosai.md l.67)
IN_PLAY = SUBJECT_NUMBERS - REMOVED_BEFORE_PLAY  # the 60 efuda dealt (sanjo-dosai.md l.68)
HOUSE_COUNT = 6  # six piles of ten cards, each a "house" (sanjo-dosai.md l.68)
CARDS_PER_HOUSE = 10
BAKEFUDA = frozenset({30, 33, 54, 61})  # "the four bakefuda": eat the next call (sanjo-dosai.md l.49, l.85)
NEVER_EATEN = 2  # no. 2, the third general, overrides the eat (sanjo-dosai.md l.87)
END_FREE = frozenset({46, 50})  # may be turned free at the end of the hand (sanjo-dosai.md l.94)
MIN_PLAYERS = 3  # "no less than three" (sanjo-dosai.md l.66)
MAX_HOUSES_PER_PLAYER = 2  # "one or more players receive two numeral cards" (sanjo-dosai.md l.74)

# TK2's bozu layout (sanjo-dosai.md s.3.6), used only when Options.bozu is on (D16).
BOZU_MIN_TWO_POINTERS = 6
BOZU_MIN_ONE_POINTERS = 6
BOZU_MIN_BAKEFUDA = 4


class Row(enum.StrEnum):
    """The four rows of a house, top to bottom (sanjo-dosai.md l.76). The head is one card laid
    sideways; it counts as a full row for the exemption (sanjo-dosai.md l.81)."""

    HEAD = "head"
    UPPER = "upper"
    MIDDLE = "middle"
    LOWER = "lower"


ROW_SIZES = MappingProxyType({Row.HEAD: 1, Row.UPPER: 3, Row.MIDDLE: 3, Row.LOWER: 3})
