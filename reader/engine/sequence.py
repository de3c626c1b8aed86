"""The reading of one game by the rules (pure): the shuffled order of the cards and the steps
the reader plays, and the reader's operations (pause, resume, read again, skip, next) as pure
functions over a small state.

The procedure encoded here is written out, with its sources, in ``docs/rules/reader.md``:
「では、始めます」, each card read twice with a pause between the readings, 「次、読みます」
before every next card, and when two cards remain 「札の確認をします」, both read once to
confirm them, then the reader waits until the referee says the two cards are placed in the
centre 30 cm apart (a WAIT step: nothing plays until ``placed``), then the game's last read
(the first of the two in the shuffled order, read twice). Pauses are in seconds; nothing here
knows Django.
"""

import dataclasses
import random

# The audio keys of the three phrases (the contract with ``reader.voices``).
START = "phrase:start"  # 「では、始めます」
NEXT = "phrase:next"  # 「次、読みます」
CHECK = "phrase:check"  # 「札の確認をします」

# Kinds of step. WAIT: the reader stops until the referee says the last two cards are placed.
PHRASE, READ, PAUSE, WAIT = "phrase", "read", "pause", "wait"
# Readings of a card: the two readings, the confirming reading of the last two, read again.
FIRST, SECOND, CONFIRM, AGAIN = "first", "second", "check", "again"

# What the referee reports at the last two cards when the cards on the court do not match the
# reading cards left (docs/rules/hitachi-karuta.md, "Last two cards"): more than two cards
# (the referee collects the extra ones), fewer than two (the missing ones are prepared), both
# wrong (collected, the correct ones prepared).
MISMATCHES = ("more", "fewer", "wrong")

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
    each to confirm them, a WAIT (the reader stops until the referee has the two cards placed
    in the centre 30 cm apart: ``placed``), 「次、読みます」 and the first of the two read
    twice (the game's last read: whoever takes it takes both).
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
    # Each confirming reading is a block of its own: a skip drops one card, never both.
    steps += [
        Step(PHRASE, check, CHECK),
        Step(READ, check, card_key(last_a), last_a, CONFIRM),
        Step(PAUSE, check + 1, seconds=timing.between_readings),
        Step(READ, check + 1, card_key(last_b), last_b, CONFIRM),
        Step(WAIT, check + 2),
        Step(PHRASE, check + 2, NEXT),
    ]
    steps += _read_twice(check + 2, last_a, timing)
    return tuple(steps)


@dataclasses.dataclass(frozen=True)
class State:
    """Where a reading is: its steps, the index of the step played last (-1 before the
    first), whether it is paused, and the block skipped last (-1: none; the position stays at
    its end until the next step plays). Operations return a new state and the log entry."""

    steps: tuple
    timing: Timing = Timing()
    position: int = -1
    paused: bool = False
    skipped_block: int = -1
    placed_at: int = -1  # the WAIT step the referee ended with ``placed`` (-1: none)

    @property
    def waiting(self):
        """True while the reader stands at the WAIT of the last two cards, not yet ended by
        ``placed``: ``advance`` is refused until then."""
        step = self.current
        return step is not None and step.kind == WAIT and self.placed_at != self.position

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

    Raises ``ReadingError`` while paused, while waiting at the last two cards (``placed``
    goes on) or when the reading is finished.
    """
    if state.paused:
        raise ReadingError("the reading is paused")
    if state.waiting:
        raise ReadingError("the reader waits for the last two cards to be placed")
    if state.finished:
        raise ReadingError("the reading is finished")
    position = state.position + 1
    step = state.steps[position]
    state = dataclasses.replace(state, position=position, skipped_block=-1)
    return state, Entry(step.kind, step.card, step.reading, step.key)


def placed(state):
    """The referee taps 「続ける」 at the last two cards: they are in the centre, 30 cm apart.
    (state, Entry "placed"); the next ``advance`` plays 「次、読みます」 and the last read.
    docs/rules/reader.md, "The steps" 5. Raises ``ReadingError`` when not waiting."""
    if not state.waiting:
        raise ReadingError("the reader is not waiting for the last two cards")
    return dataclasses.replace(state, placed_at=state.position), Entry("placed")


def mismatch(state, case):
    """The referee reports, while the reader waits at the last two cards, that the cards on
    the court do not match: ``case`` one of :data:`MISMATCHES`. The reader keeps waiting (the
    referee sorts it out, then ``placed``). (state, Entry "mismatch" with ``reading=case``).
    Raises ``ReadingError`` when not waiting or for another case."""
    if not state.waiting:
        raise ReadingError("the reader is not waiting for the last two cards")
    if case not in MISMATCHES:
        raise ReadingError(f"unknown case {case!r}")
    return state, Entry("mismatch", reading=case)


def pause(state, under_way=False):
    """Pause the reading: nothing more plays until ``resume``. (state, Entry).

    ``under_way``: the current step's audio was still playing. A reading or phrase cut that
    way is not counted: the position goes back before it, so resume plays it again whole,
    and the Entry is "cut" naming the card and reading; otherwise Entry "pause".
    docs/rules/reader.md, "Operations" (a reading is logged when it ends).
    """
    if state.paused:
        raise ReadingError("already paused")
    step = state.current
    if under_way and step is not None and step.kind in (READ, PHRASE):
        state = dataclasses.replace(state, position=state.position - 1, paused=True)
        return state, Entry("cut", step.card, step.reading, step.key)
    return dataclasses.replace(state, paused=True), Entry("pause")


def resume(state):
    """Go on after a pause, from the step after the last one played: (state, Entry "resume")."""
    if not state.paused:
        raise ReadingError("not paused")
    return dataclasses.replace(state, paused=False), Entry("resume")


def _last_read_index(state):
    for index in range(state.position, -1, -1):
        if state.steps[index].kind == READ:
            return index
    return -1


def last_card(state):
    """The card shown large: the head kana of the card read last (its reading at or before
    the current step, under way or done), or "" before the first reading."""
    index = _last_read_index(state)
    return state.steps[index].card if index >= 0 else ""


def _between_cards(state):
    """True when no reading of the current step's block has started yet (the start phrase,
    the pause between cards, 「次、読みます」, 「札の確認をします」, or nothing played), or when
    the current block was just skipped (its card is done: a skip pressed while paused)."""
    if state.position < 0 or state.current.block == state.skipped_block:
        return True
    return _last_read_index(state) < 0 or state.steps[_last_read_index(state)].block != state.current.block


def _block_start(steps, block):
    return min(i for i, step in enumerate(steps) if step.block == block)


def read_again(state):
    """Read the card shown large (the one read last) once more; Entry "again" names it.
    docs/rules/reader.md, "Operations", rule "again and skip name the card shown large".

    A second press before that extra reading is played (e.g. while paused: it is read on
    resume) adds nothing: ``ReadingError``. After a skip while paused it comes right after
    the skipped block.
    During its own readings the AGAIN reading (after a pause) comes right after the current
    step. Between cards (the pause between cards, 「次、読みます」, 「札の確認をします」) the
    phrase under way is cut: the AGAIN reading is played now, then the next card's block
    from its start (its pause and phrase again), so the extra reading never lands in the
    next card's block. Raises ``ReadingError`` before any card was read.
    """
    index = _last_read_index(state)
    if index < 0:
        raise ReadingError("no card was read yet")
    read = state.steps[index]
    again = Step(READ, read.block, card_key(read.card), read.card, AGAIN)
    if _next_read(state) == again:
        raise ReadingError(f"{read.card} is already to be read again")
    if state.current.block == state.skipped_block:
        at = state.position + 1
        steps = state.steps[:at] + (again,) + state.steps[at:]
        return dataclasses.replace(state, steps=steps), Entry("again", read.card, AGAIN, again.key)
    if _between_cards(state):
        at = _block_start(state.steps, state.current.block)
        steps = state.steps[:at] + (again,) + state.steps[at:]
        return dataclasses.replace(state, steps=steps, position=at - 1), Entry("again", read.card, AGAIN, again.key)
    extra = () if state.current.kind == PAUSE else (Step(PAUSE, read.block, seconds=state.timing.between_readings),)
    at = state.position + 1
    steps = state.steps[:at] + extra + (again,) + state.steps[at:]
    return dataclasses.replace(state, steps=steps), Entry("again", read.card, AGAIN, again.key)


def _next_read(state):
    """The first READ step after the position, or None."""
    return next((s for s in state.steps[state.position + 1 :] if s.kind == READ), None)


def _block_end(steps, block):
    return max(i for i, step in enumerate(steps) if step.block == block)


class SkipNeedsConfirm(ReadingError):
    """A skip that would drop a card not read yet: the page names ``card`` first and skips
    only when asked again with ``confirm=card``."""

    def __init__(self, card):
        super().__init__(f"skip the unread card {card}? confirm first")
        self.card = card


def skip_target(state):
    """(card, unread) the skip would drop now: the card shown large while its block is under
    way (unread False), else the next card to be read (unread True); after a skip (while
    paused) the next card, never the skipped one again."""
    if state.finished:
        raise ReadingError("the reading is finished")
    if not _between_cards(state):
        return last_card(state), False
    return _next_read(state).card, True


def skip(state, confirm=""):
    """Skip a card: the steps left of its block are dropped (the step under way is cut) and
    Entry "skip" names the card. docs/rules/reader.md, "Operations".

    While a card's readings are under way it is the card shown large (also during its 2nd
    reading). Between cards (or during 「では、始めます」) the skip would drop a card nobody
    heard: it is done only with ``confirm`` equal to that card, after the page named it;
    otherwise ``SkipNeedsConfirm(card)``. Raises ``ReadingError`` when the reading is over.
    A skip pressed again before the next step plays (while paused) names the next card: each
    card is skipped once.
    """
    card, unread = skip_target(state)
    if unread and confirm != card:
        raise SkipNeedsConfirm(card)
    block = _next_read(state).block if unread else state.current.block
    position = _block_end(state.steps, block)
    return dataclasses.replace(state, position=position, skipped_block=block), Entry("skip", card)


def resume_position(steps, lines):
    """Where a reading opened again goes on: the index of the last step done, from the log
    lines the server has (``(kind, card, reading)`` in line order). -1 when nothing was
    read; ``len(steps) - 1`` after the "end" line.

    A reading counts when its line exists (lines are written when a reading ends, so a cut
    one is read again); a skip counts as its card's block done; a "placed" line counts as
    the WAIT of the last two cards done (without it the page waits there again). Read-again
    lines add nothing. docs/rules/reader.md, "Opening the page again".
    """
    position = -1
    for kind, card, reading in lines:
        if kind == "end":
            return len(steps) - 1
        if kind == "placed":
            waits = [i for i in range(position + 1, len(steps)) if steps[i].kind == WAIT]
            position = waits[0] if waits else position
            continue
        if kind not in ("read", "skip") or not card:
            continue
        for index in range(position + 1, len(steps)):
            step = steps[index]
            if step.kind == READ and step.card == card and (kind == "skip" or step.reading == reading):
                position = index if kind == "read" else _block_end(steps, step.block)
                break
    return position


def next_card(steps, position, order):
    """(number, card) of the card the reading goes on with after step ``position``: its place
    in ``order`` (1-based) and head kana; (0, "") when no reading is left."""
    for step in steps[position + 1 :]:
        if step.kind == READ:
            return order.index(step.card) + 1, step.card
    return 0, ""
