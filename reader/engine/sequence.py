"""The reading of one game by the rules (pure): the shuffled order of the cards and the steps
the reader plays, and the reader's operations (pause, resume, read again, skip, next) as pure
functions over a small state.

The procedure encoded here is written out, with its sources, in ``docs/rules/reader.md``:
「では、始めます」, each card read twice with a pause between the readings, 「次、読みます」
before every next card, and when two cards remain 「札の確認をします」, both read once to
confirm them, then the game's last read (the first of the two in the shuffled order, read
twice). Pauses are in seconds; nothing here knows Django.
"""

import dataclasses
import random

# The audio keys of the three phrases (the contract with ``reader.voices``).
START = "phrase:start"  # 「では、始めます」
NEXT = "phrase:next"  # 「次、読みます」
CHECK = "phrase:check"  # 「札の確認をします」

# Kinds of step.
PHRASE, READ, PAUSE = "phrase", "read", "pause"
# Readings of a card: the two readings, the confirming reading of the last two, read again.
FIRST, SECOND, CONFIRM, AGAIN = "first", "second", "check", "again"

# Bounds of the pauses (seconds), the same for the page's settings.
MIN_PAUSE, MAX_PAUSE = 0.0, 30.0


class ReadingError(ValueError):
    """A reading that cannot be planned or an operation that cannot apply (the service says why)."""


@dataclasses.dataclass(frozen=True)
class Timing:
    """Pauses in seconds: between the two readings of a card, and between two cards."""

    between_readings: float = 2.0
    between_cards: float = 4.0

    def __post_init__(self):
        for value in (self.between_readings, self.between_cards):
            if not MIN_PAUSE <= value <= MAX_PAUSE:
                raise ReadingError(f"pause {value} outside {MIN_PAUSE}–{MAX_PAUSE} seconds")


@dataclasses.dataclass(frozen=True)
class Step:
    """One step of a reading: a phrase, a reading of a card, or a pause.

    ``block`` groups the steps of one card (its 「次、読みます」, its readings and the pause
    between them): skip drops the rest of a block. ``card`` is the head kana, "" for a phrase
    or a pause; ``reading`` one of FIRST, SECOND, CONFIRM, AGAIN for a READ step.
    """

    kind: str
    block: int
    key: str = ""
    card: str = ""
    reading: str = ""
    seconds: float = 0.0

    def as_dict(self):
        return dataclasses.asdict(self)


def card_key(head_kana):
    """The audio key of a card (``card:<head kana>``), as ``reader.voices.audio_url`` takes it."""
    return f"card:{head_kana}"


def shuffled(cards, seed):
    """The cards (head kana, in the edition's order) in the order of the game for ``seed``.

    Same cards and seed → same order (``random.Random(seed)``, the standard library's
    Mersenne Twister); the input is not changed. docs/rules/reader.md, "Shuffle".
    """
    order = list(cards)
    random.Random(seed).shuffle(order)
    return order


def _read_twice(block, card, timing):
    return [
        Step(READ, block, card_key(card), card, FIRST),
        Step(PAUSE, block, seconds=timing.between_readings),
        Step(READ, block, card_key(card), card, SECOND),
    ]


def start(order, timing=Timing()):
    """A new ``State`` for reading ``order`` with ``timing`` (see ``plan``)."""
    return State(plan(order, timing), timing)


def plan(order, timing=Timing()):
    """The steps of a game reading the cards ``order`` (head kana, already shuffled).

    In: at least two distinct cards; pauses in seconds. Out: a tuple of ``Step``.
    docs/rules/reader.md, "The steps": 「では、始めます」; every card but the last two read
    twice, with ``between_readings`` between the readings and ``between_cards`` then
    「次、読みます」 before each next card; then 「札の確認をします」, the last two read once
    each to confirm them, and after the pause for placing them in the centre 「次、読みます」
    and the first of the two read twice (the game's last read: whoever takes it takes both).
    Raises ``ReadingError`` for fewer than two cards or a card named twice.
    """
    order = list(order)
    if len(order) < 2:
        raise ReadingError("a game needs at least two cards")
    if len(set(order)) != len(order):
        raise ReadingError("a card is named twice")
    steps = [Step(PHRASE, 0, START)]
    for block, card in enumerate(order[:-2]):
        if block:
            steps += [Step(PAUSE, block, seconds=timing.between_cards), Step(PHRASE, block, NEXT)]
        steps += _read_twice(block, card, timing)
    check = len(order) - 2
    last_a, last_b = order[-2:]
    if check:
        steps.append(Step(PAUSE, check, seconds=timing.between_cards))
    steps += [
        Step(PHRASE, check, CHECK),
        Step(READ, check, card_key(last_a), last_a, CONFIRM),
        Step(PAUSE, check, seconds=timing.between_readings),
        Step(READ, check, card_key(last_b), last_b, CONFIRM),
        Step(PAUSE, check + 1, seconds=timing.between_cards),
        Step(PHRASE, check + 1, NEXT),
    ]
    steps += _read_twice(check + 1, last_a, timing)
    return tuple(steps)


@dataclasses.dataclass(frozen=True)
class State:
    """Where a reading is: its steps, the index of the step played last (-1 before the
    first), and whether it is paused. Operations return a new state and the log entry."""

    steps: tuple
    timing: Timing = Timing()
    position: int = -1
    paused: bool = False

    @property
    def finished(self):
        return self.position >= len(self.steps) - 1

    @property
    def current(self):
        return self.steps[self.position] if self.position >= 0 else None


@dataclasses.dataclass(frozen=True)
class Entry:
    """What an operation leaves in the game's log: ``kind`` (the step's kind, or "pause",
    "resume", "skip"), the card and the reading when there is one."""

    kind: str
    card: str = ""
    reading: str = ""
    key: str = ""


def advance(state):
    """Play the next step: (new state, its ``Entry``). docs/rules/reader.md, "Operations".

    Raises ``ReadingError`` while paused or when the reading is finished.
    """
    if state.paused:
        raise ReadingError("the reading is paused")
    if state.finished:
        raise ReadingError("the reading is finished")
    position = state.position + 1
    step = state.steps[position]
    return dataclasses.replace(state, position=position), Entry(step.kind, step.card, step.reading, step.key)


def pause(state):
    """Pause the reading (the step under way ends; nothing more plays): (state, Entry "pause")."""
    if state.paused:
        raise ReadingError("already paused")
    return dataclasses.replace(state, paused=True), Entry("pause")


def resume(state):
    """Go on after a pause, from the step after the last one played: (state, Entry "resume")."""
    if not state.paused:
        raise ReadingError("not paused")
    return dataclasses.replace(state, paused=False), Entry("resume")


def last_card(state):
    """The head kana of the card read last (at or before the current step), or "" if none."""
    for step in reversed(state.steps[: state.position + 1]):
        if step.kind == READ:
            return step.card
    return ""


def read_again(state):
    """Read the card read last once more: a pause and an AGAIN reading are inserted right
    after the current step, so ``advance`` plays them next. Logged (Entry "again").
    docs/rules/reader.md, "Operations". Raises ``ReadingError`` before any card was read.
    """
    card = last_card(state)
    if not card:
        raise ReadingError("no card was read yet")
    block = state.steps[state.position].block
    pause_step = state.steps[state.position].kind != PAUSE
    extra = (Step(PAUSE, block, seconds=state.timing.between_readings),) if pause_step else ()
    extra += (Step(READ, block, card_key(card), card, AGAIN),)
    at = state.position + 1
    steps = state.steps[:at] + extra + state.steps[at:]
    return dataclasses.replace(state, steps=steps), Entry("again", card, AGAIN, card_key(card))


def _block_end(steps, block):
    return max(i for i, step in enumerate(steps) if step.block == block)


def skip(state):
    """Skip the current card: the steps left of its block are dropped (never silently: Entry
    "skip" names the card). The current card is the one under way; when the current step is
    the last of its block (or nothing was played yet), the next card's block is skipped.
    docs/rules/reader.md, "Operations". Raises ``ReadingError`` when nothing is left.
    """
    if state.finished:
        raise ReadingError("the reading is finished")
    block = state.current.block if state.current else 0
    if state.position >= 0 and _block_end(state.steps, block) == state.position:
        block += 1
    end = _block_end(state.steps, block)
    read = next(s for s in state.steps if s.block == block and s.kind == READ)
    return dataclasses.replace(state, position=end), Entry("skip", read.card, read.reading)
