"""The Dôsai Karuta card table as data, one ``Edition`` per manufacturer's set.

Responsible for: the 62 subjects (number, proverb, rough English, points, and where each
value comes from), the check of an edition against its point classes, and the gate
``points_in_play`` that gives ``dosai.engine.hand.new_hand`` a complete points table.

Must not: import Django, or invent a value. A point value is entered only with its source;
every value the sources do not give is None until the club enters it from its own set (each
Matsui Tengudô efuda prints its value, sanjo-dosai.md s.3.1), and ``check_edition`` says which are
missing. Proverb texts are given as far as the sources give them; None otherwise.

Sources: "sanjo-dosai.md l.N" is line N of the Andy's Playing Cards page copied in
``docs/rules/sanjo-dosai.md``, "sanjo-dosai.md s.N" a section of that file, whose section 0
names TK1, TK2, JPCM. The ``points_source`` texts of the table keep the names the club has
seen since the table was made ("seed 000_…", "ref §3.2"): they are data shown on the
edition page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from dosai.engine.facts import BAKEFUDA, END_FREE, IN_PLAY, NEVER_EATEN, REMOVED_BEFORE_PLAY, SUBJECT_NUMBERS

SEED = "seed 000_cbe12c8f7d017dd4 (Andy's Playing Cards, Dôsai Karuta)"
TK1 = "TK1 (Takahashi, 伝統ゲーム紹介「道才かるた」, card list 1–39; ref §3.2)"
TK2 = "TK2 (Takahashi, 道才かるたの遊び方, point classes with named cards; ref §3.2)"
JPCM = "JPCM (Japan Playing Card Museum, Yamashiroya edition, same numbering; ref §3.2)"
REF_GLOSS = "rough English made for ref §3.2"

# D1 (sanjo-dosai.md s.3.4): the page's table (sanjo-dosai.md l.32–44) counts 19 two-point subjects in the 62-card
# deck; TK2 counts 17 among the 60 in play. Both hold when nos. 8 and 23 (removed before
# play) are two-point cards, as they are in the Yamashiroya edition (sanjo-dosai.md s.3.2). So the
# check below is over the 60 efuda in play, with 17 two-pointers.
MATSUI_CLASS_COUNTS = MappingProxyType({20: 1, 15: 3, 10: 7, 4: 7, 3: 10, 2: 17, 1: 15})
MATSUI_CLASS_COUNTS_FULL_DECK = MappingProxyType({20: 1, 15: 3, 10: 7, 4: 7, 3: 10, 2: 19, 1: 15})


@dataclass(frozen=True)
class Subject:
    """One of the 62 subjects (an efuda and its yomifuda share the number, sanjo-dosai.md l.16).

      number: 1..62.
      proverb: the Japanese proverb, or None when no source gives it.
      gloss: a rough English reading, or None.
      points: the value printed on this edition's efuda, or None while unknown.
      points_source: where ``points`` comes from; None exactly when points is None.
      text_source: where the proverb / gloss come from.
      title: the page's name for the card ("first general" ...), if any.
      note: variant spellings, doubts.

    Raises ValueError for a number outside 1..62, points that are not a whole number of at
    least 1, or points without a source (or a source without points).
    """

    number: int
    proverb: str | None = None
    gloss: str | None = None
    points: int | None = None
    points_source: str | None = None
    text_source: str | None = None
    title: str | None = None
    note: str = ""

    def __post_init__(self):
        if not _is_int(self.number) or self.number not in SUBJECT_NUMBERS:
            raise ValueError(f"{self.number!r} is not a subject number (1..62)")
        if self.points is not None and (not _is_int(self.points) or self.points < 1):
            raise ValueError(f"no. {self.number}: points must be a whole number of at least 1, not {self.points!r}")
        if (self.points is None) != (not self.points_source):
            raise ValueError(f"no. {self.number}: a value must come with its source, and a source with a value")

    @property
    def in_play(self) -> bool:
        """False for nos. 8 and 23, taken out before play (sanjo-dosai.md l.67)."""
        return self.number not in REMOVED_BEFORE_PLAY

    @property
    def bakefuda(self) -> bool:
        """One of "the four bakefuda" that eat the next call (sanjo-dosai.md l.49, l.85)."""
        return self.number in BAKEFUDA

    @property
    def end_free(self) -> bool:
        """No. 46 or 50: may be turned free at the end of the hand (sanjo-dosai.md l.94)."""
        return self.number in END_FREE

    @property
    def never_eaten(self) -> bool:
        """No. 2, which a bakefuda never eats (sanjo-dosai.md l.87)."""
        return self.number == NEVER_EATEN


@dataclass(frozen=True)
class Edition:
    """A manufacturer's set: its 62 subjects and the point classes of its 60 efuda in play.

      name: e.g. "Matsui Tengudô".
      subjects: 62 ``Subject`` in number order (lists are accepted and frozen).
      class_counts: points -> how many efuda in play carry that value.
      note: free text.

    Raises ValueError unless the subjects are numbered 1..62 in order and the class counts
    account for exactly the 60 efuda in play.
    """

    name: str
    subjects: tuple[Subject, ...]
    class_counts: Mapping[int, int] = field(default_factory=lambda: MATSUI_CLASS_COUNTS)
    note: str = ""

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError("an edition needs a name")
        subjects = tuple(self.subjects)
        object.__setattr__(self, "subjects", subjects)
        numbers = [getattr(s, "number", None) for s in subjects]
        if not all(isinstance(s, Subject) for s in subjects) or numbers != sorted(SUBJECT_NUMBERS):
            raise ValueError(f"edition {self.name}: the subjects must be nos. 1..62 in order")
        counts = dict(self.class_counts)
        if any(not _is_int(p) or p < 1 or not _is_int(c) or c < 0 for p, c in counts.items()):
            raise ValueError(f"edition {self.name}: class counts map points (>= 1) to counts (>= 0): {counts}")
        if sum(counts.values()) != len(IN_PLAY):
            raise ValueError(
                f"edition {self.name}: the class counts add up to {sum(counts.values())}, "
                f"not the {len(IN_PLAY)} efuda in play"
            )
        object.__setattr__(self, "class_counts", MappingProxyType(dict(sorted(counts.items(), reverse=True))))

    def subject(self, number: int) -> Subject:
        """The subject with that number; ValueError outside 1..62."""
        if not _is_int(number) or number not in SUBJECT_NUMBERS:
            raise ValueError(f"{number!r} is not a subject number (1..62)")
        return self.subjects[number - 1]

    def points(self, number: int) -> int | None:
        """The value of efuda ``number`` in this edition, or None while unknown."""
        return self.subject(number).points

    @property
    def unknown_in_play(self) -> tuple[int, ...]:
        """Numbers of the efuda in play that have no value yet."""
        return tuple(s.number for s in self.subjects if s.in_play and s.points is None)

    def with_points(self, values: Mapping[int, int], source: str) -> Edition:
        """A copy with the club's values entered, each marked with ``source`` (e.g. "club
        set, read from the efuda, 2025-04"). Existing values stay as they are.

        Input: number -> points. Output: a new ``Edition``. Raises ValueError for a blank
        source, a number outside 1..62, a value that is not a whole number of at least 1,
        or a value that contradicts one already given by a source (a known value is never
        overwritten).
        """
        if not isinstance(source, str) or not source.strip():
            raise ValueError("say where the values come from (source), e.g. 'club set'")
        if not isinstance(values, Mapping):
            raise ValueError("values must map subject numbers to points")
        subjects = list(self.subjects)
        for number, points in sorted(values.items(), key=lambda item: repr(item[0])):
            current = self.subject(number)
            if not _is_int(points) or points < 1:
                raise ValueError(f"no. {number}: points must be a whole number of at least 1, not {points!r}")
            if current.points is not None:
                if current.points != points:
                    raise ValueError(
                        f"no. {number} is {current.points} points per {current.points_source}; "
                        f"refusing to change it to {points}"
                    )
                continue
            subjects[number - 1] = replace(current, points=points, points_source=source)
        return replace(self, subjects=tuple(subjects))


def check_edition(edition: Edition) -> list[str]:
    """Problems that stop a hand with this edition; an empty list means it is ready.

    Checks, over the 60 efuda in play (nos. 8 and 23 are left out, sanjo-dosai.md l.67): every efuda
    has a value, every value is one of the edition's classes, and each class has its count
    (Matsui: 1×20, 3×15, 7×10, 7×4, 10×3, 17×2, 15×1, sanjo-dosai.md s.3.2). While values are missing
    it also says how many of each class remain to be entered.

    Input: an ``Edition``. Output: a list of messages in English, one per problem.
    """
    if not isinstance(edition, Edition):
        raise ValueError(f"expected an Edition, not {type(edition).__name__}")
    problems: list[str] = []
    classes = dict(edition.class_counts)
    class_list = ", ".join(str(p) for p in classes)
    in_play = [s for s in edition.subjects if s.in_play]
    unknown = edition.unknown_in_play

    members: dict[int, list[int]] = {p: [] for p in classes}
    for s in in_play:
        if s.points is None:
            continue
        if s.points in members:
            members[s.points].append(s.number)
        else:
            problems.append(
                f"no. {s.number} has {s.points} points, which is not a class of {edition.name} ({class_list})"
            )

    if unknown:
        remaining = {p: classes[p] - len(members[p]) for p in classes}
        still = ", ".join(f"{r} of {p} point{'s' if p != 1 else ''}" for p, r in remaining.items() if r > 0)
        problems.append(
            f"{len(unknown)} of the {len(IN_PLAY)} efuda in play have no value yet: nos. "
            f"{', '.join(map(str, unknown))}. Enter them from the club's own set (each efuda prints "
            f"its value)" + (f"; still to enter by class: {still}" if still else "") + "."
        )

    for p, expected in classes.items():
        found = members[p]
        if len(found) > expected or (not unknown and len(found) != expected):
            problems.append(
                f"the {p}-point class should have {expected} efuda in play, but {len(found)} "
                f"have that value (nos. {', '.join(map(str, found)) or 'none'})"
            )
    return problems


def ready_to_play(edition: Edition) -> bool:
    """True when ``check_edition`` finds nothing: a hand may start with this edition."""
    return not check_edition(edition)


def points_in_play(edition: Edition) -> dict[int, int]:
    """The points table for ``dosai.engine.hand.new_hand``: efuda number -> points for the 60 in
    play. Raises ValueError listing the problems of ``check_edition`` when the edition is
    not ready ("a hand cannot start until the 60 cards in play have values", issue 10)."""
    problems = check_edition(edition)
    if problems:
        raise ValueError(f"{edition.name} is not ready to play: " + " | ".join(problems))
    return {s.number: s.points for s in edition.subjects if s.in_play}


def blank_edition(name: str, class_counts: Mapping[int, int] = MATSUI_CLASS_COUNTS, note: str = "") -> Edition:
    """Another manufacturer's set: the same numbering and proverbs (JPCM's Yamashiroya set
    shares the numbering, sanjo-dosai.md s.0), no values; the club enters them with ``with_points``.
    Points "may follow a slightly different scheme" (sanjo-dosai.md l.27), hence ``class_counts``."""
    subjects = tuple(replace(s, points=None, points_source=None) for s in MATSUI_TENGUDO.subjects)
    return Edition(name=name, subjects=subjects, class_counts=class_counts, note=note)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- the Matsui Tengudô table ----------------------------------------------------------------

_S_GENERALS = f'{SEED} l.25: "The three cards worth 15 points are nos.38, 2 and 19"; {TK2}'
_S_SELECTION = (
    f'{SEED} l.29–30: "no.20 (10 points), no.51 (4 points), no.32 (3 points), no.44 (2 points), no.42 (1 point)"'
)

# (number, proverb, gloss, points, points source, text source, title, note)
# fmt: off
_MATSUI_ROWS = (
    (1, "大仏の柱を蟻がせせる", "Ants nibbling at the Great Buddha's pillar", 2, TK2, TK1, None, ""),
    (2, "朝日に霜", "the frost in the morning sun", 15, _S_GENERALS, f"{TK1}; gloss {SEED} l.87", "third general",
     "never eaten by a bakefuda (seed l.87)"),
    (3, "弘法も筆の誤り", "Even Kōbō slips with the brush", 3, TK2, TK1, None, ""),
    (4, "抜かん太刀の高名", "Fame of the sword never drawn", None, None, TK1, None, "also written 抜かん太刀の功名"),
    (5, "膝頭で唐へ行く", "Going to China on one's knees", 10, TK2, TK1, None, ""),
    (6, "得手に帆をあぐる", "Hoisting sail to a fair wind", None, None, TK1, None, ""),
    (7, "すっぽんとお月様", "The soft-shelled turtle and the moon", None, None, TK1, None, ""),
    (8, "二階から目薬", "Eye-drops from the upstairs floor", None, None, TK1, None,
     "removed before play (seed l.67); 2 mon in the Yamashiroya edition (JPCM), Matsui value not printed in any source"),
    (9, "仏の顔も三度", "Even Buddha's patience lasts three times", None, None, TK1, None, ""),
    (10, "是に懲りよ道才坊", "learn a lesson from this, Dôsai", 20,
     f'{SEED} l.21: "The highest scoring subject, i.e. 20 points ... is no.10"; {TK2}',
     f"{TK1}; gloss {SEED} l.3", "first general", "the title proverb of the set"),
    (11, "鰯の頭も信心から", "Even a sardine head, if you believe", 1, TK2, TK1, None, ""),
    (12, "餅は餅屋", "Rice cakes from the rice-cake maker", 4, TK2, TK1, None, ""),
    (13, "闇に鉄砲", "Firing a gun in the dark", None, None, TK1, None, ""),
    (14, "腐っても鯛", "A sea bream, even rotten", None, None, TK1, None, ""),
    (15, "人は一代名は末代", "A man lasts a lifetime, his name forever", None, None, TK1, None, ""),
    (16, "大名の火に配る", None, None, None, TK1, None, "meaning unclear (ref §3.2)"),
    (17, "信あれば徳あり", "Faith brings reward", None, None, TK1, None, ""),
    (18, "縁の下の舞", "Dancing under the floor (unseen toil)", None, None, TK1, None, ""),
    (19, "歌人は居ながら名所を知る", "The poet knows famous places without leaving home", 15, _S_GENERALS, TK1,
     "fourth general", ""),
    (20, "氏無ふて乗る玉の輿", "Riding the jewelled palanquin without pedigree", 10, f"{_S_SELECTION}; {TK2}", TK1,
     None, ""),
    (21, "いつも正月", "Always New Year", 10, TK2, TK1, None, ""),
    (22, "鶴の一声", "The crane's single cry", None, None, TK1, None, ""),
    (23, "唐人の寝言", "A foreigner's sleep-talk", None, None, TK1, None,
     "removed before play (seed l.67); 2 mon in the Yamashiroya edition (JPCM), Matsui value not printed in any source"),
    (24, "瓜の蔓に茄子はならぬ", "Melon vines bear no eggplants", None, None, TK1, None, ""),
    (25, "故郷へは錦を着て帰る", "Go home dressed in brocade", None, None, TK1, None, ""),
    (26, "花は三芳野", "For blossoms, Miyoshino", 10, TK2, TK1, None, ""),
    (27, "野良の節句働き", "The idler works on holidays", None, None, TK1, None, ""),
    (28, "笑う門には福来る", "fortune comes to a happy household", 10, TK2, f"{TK1}; gloss {SEED} l.51", None, ""),
    (29, "人は武士花は桜木", "Of men the samurai, of flowers the cherry", None, None, TK1, None, ""),
    (30, "鬼も十八", "Even a demon is pretty at eighteen", None, None, TK1, None, "bakefuda (seed l.49)"),
    (31, "早うしも淀", "Fast ox or slow ox, both reach Yodo", None, None, TK1, None, "in full 早牛も淀遅牛も淀"),
    (32, "阿弥陀も銭ほど光る", "Amida shines as bright as the money", 3, _S_SELECTION, TK1, None, ""),
    (33, "猫に小判", "a gold coin to a cat", None, None, f"{TK1}; gloss {SEED} l.3", None, "bakefuda (seed l.49)"),
    (34, "金が金を儲ける", "Money makes money", None, None, TK1, None, ""),
    (35, "雁がとべば石亀も地団駄", "When geese fly, the stone turtle stamps", None, None, TK1, None, ""),
    (36, "鳶が鷹を生む", "A kite gives birth to a hawk", 10, TK2, TK1, None, ""),
    (37, "蟷螂が斧", "The mantis's axe", 10, TK2, TK1, None, ""),
    (38, "結構真赤", "Splendidly bright red", 15, _S_GENERALS, TK1, "second general", ""),
    (39, "勝って兜の緒をしめよ", "After victory, tighten your helmet cords", None, None, TK1, None, ""),
    (40, "八十の手習い", "Learning to write at eighty", None, None, JPCM, None, ""),
    (41, "燈台下暗し", "Darkest under the lamp", 2,
     f'{SEED} l.81: "card no.41 is called out ... he receives the relevant payment of two points"', JPCM, None, ""),
    (42, "好い中に垣をせよ", "Build a fence even between friends", 1, _S_SELECTION, JPCM, None, ""),
    (43, None, None, None, None, None, None, "proverb not found in the sources (ref §3.2)"),
    (44, None, None, 2, _S_SELECTION, None, None, "proverb not found in the sources (ref §3.2)"),
    (45, None, None, None, None, None, None, "proverb not found in the sources (ref §3.2)"),
    (46, "同じ穴の狢", "Badgers from the same hole", None, None, JPCM, None,
     "also 同じ穴の狐; may be turned free at the end of the hand (seed l.94)"),
    (47, "向う猪には矢立たず", "Arrows won't stick in a charging boar", None, None, JPCM, None, ""),
    (48, None, None, None, None, None, None, "proverb not found in the sources (ref §3.2)"),
    (49, None, None, None, None, None, None, "proverb not found in the sources (ref §3.2)"),
    (50, "幽霊の浜風", "A ghost in the beach wind", None, None,
     "TK2 names it with no. 46 as the two special cards; its number 50 is inferred (ref §3.2), not confirmed", None,
     "may be turned free at the end of the hand (seed l.94)"),
    (51, None, None, 4, f'{_S_SELECTION}; {SEED} l.88: "no.51 (worth 4 points)"', None, None,
     "proverb not found in the sources (ref §3.2)"),
    (52, None, None, None, None, None, None, "proverb not found in the sources (ref §3.2)"),
    (53, "竹の先に鈴", "A bell on a bamboo tip", None, None, JPCM, None, ""),
    (54, "蟹は甲に似せて穴を掘る", "A crab digs a hole to fit its shell", None, None, JPCM, None, "bakefuda (seed l.49)"),
    (55, "蛙の面に水", "Water on a frog's face", None, None, JPCM, None, ""),
    (56, None, None, None, None, None, None, "proverb not found in the sources (ref §3.2)"),
    (57, "陰陽師身の上知らず", "The diviner can't foresee his own fate", None, None, JPCM, None, ""),
    (58, "袖の振合も他生の縁", "Even brushing sleeves is karma from past lives", None, None, JPCM, None, ""),
    (59, None, "when three men come together, there is wisdom", 2, f'{SEED} l.16: "number 59, worth 2 points"',
     f"gloss {SEED} l.8", None, "Japanese text not given by the sources"),
    (60, "提灯に釣鐘", "A paper lantern vs a temple bell", None, None, JPCM, None, ""),
    (61, "濡れ手で粟", "Millet on wet hands (easy gains)", None, None, JPCM, None, "bakefuda (seed l.49)"),
    (62, "月夜に釜を抜かれる", "Kettle stolen on a moonlit night", None, None, JPCM, None, ""),
)
# fmt: on


def _matsui_subject(row) -> Subject:
    number, proverb, gloss, points, points_source, text_source, title, note = row
    if gloss is not None and text_source and "gloss" not in text_source:
        text_source = f"{text_source}; gloss: {REF_GLOSS}"
    return Subject(number, proverb, gloss, points, points_source, text_source, title, note)


MATSUI_TENGUDO = Edition(
    name="Matsui Tengudô",
    subjects=tuple(_matsui_subject(row) for row in _MATSUI_ROWS),
    class_counts=MATSUI_CLASS_COUNTS,
    note=(
        "The edition the seed describes (seed l.27). 21 values of the 60 in play are known from "
        "the sources; the club enters the others from its own set with Edition.with_points."
    ),
)
