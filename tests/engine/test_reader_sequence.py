"""The reader's engine (docs/rules/reader.md): seeded order, each card twice, the phrases in
their place, the last two cards, and the operations (pause, resume, read again, skip)."""

import pytest

from reader.engine import sequence as seq
from reader.engine.sequence import AGAIN, CHECK, CONFIRM, FIRST, NEXT, PAUSE, PHRASE, READ, SECOND, START

CARDS = ["あ", "い", "う", "え", "お"]


def spoken(steps):
    """The steps without pauses, as short text: 'start', 'next', 'check', 'あ1', 'あ2', 'あc', 'あ+'."""
    marks = {FIRST: "1", SECOND: "2", CONFIRM: "c", AGAIN: "+"}
    words = {START: "start", NEXT: "next", CHECK: "check"}
    return [words[s.key] if s.kind == PHRASE else s.card + marks[s.reading] for s in steps if s.kind != PAUSE]


def test_same_seed_same_order_and_every_card_once():
    first = seq.shuffled(CARDS, 7)
    assert first == seq.shuffled(CARDS, 7)
    assert sorted(first) == sorted(CARDS)
    assert CARDS == ["あ", "い", "う", "え", "お"]  # the input is not changed
    orders = {tuple(seq.shuffled(CARDS, seed)) for seed in range(20)}
    assert len(orders) > 5


def test_seeded_order_is_fixed():
    # A fixed seed gives a fixed order (the standard library's Random): a regression table.
    assert seq.shuffled(CARDS, 1) == ["う", "え", "お", "あ", "い"]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (["あ", "い"], ["start", "check", "あc", "いc", "next", "あ1", "あ2"]),
        (["あ", "い", "う"], ["start", "あ1", "あ2", "check", "いc", "うc", "next", "い1", "い2"]),
        (
            ["う", "あ", "い", "え"],
            ["start", "う1", "う2", "next", "あ1", "あ2", "check", "いc", "えc", "next", "い1", "い2"],
        ),
    ],
)
def test_the_steps_in_order(order, expected):
    assert spoken(seq.plan(order)) == expected


def test_56_cards_each_read_twice_and_the_last_two_confirmed():
    cards = [f"c{i}" for i in range(56)]
    order = seq.shuffled(cards, 2026)
    steps = seq.plan(order)
    words = spoken(steps)
    assert words[0] == "start"
    assert words.count("next") == 54  # before cards 2…54 and before the game's last read
    assert words.count("check") == 1
    for card in order[:54]:
        assert words.count(card + "1") == 1 and words.count(card + "2") == 1
        assert words.index(card + "2") == words.index(card + "1") + 1
    last_a, last_b = order[54:]
    assert words[words.index("check") :] == ["check", last_a + "c", last_b + "c", "next", last_a + "1", last_a + "2"]


def test_pauses_are_the_parameters():
    steps = seq.plan(["あ", "い", "う", "え"], seq.Timing(between_readings=1.5, between_cards=6))
    kinds = [(s.kind, s.seconds) for s in steps]
    # start, あ1, pause 1.5, あ2, pause 6, next …
    assert kinds[:6] == [(PHRASE, 0), (READ, 0), (PAUSE, 1.5), (READ, 0), (PAUSE, 6), (PHRASE, 0)]
    assert {s.seconds for s in steps if s.kind == PAUSE} == {1.5, 6}


@pytest.mark.parametrize("bad", [-1, 31])
def test_pause_out_of_bounds_is_refused(bad):
    with pytest.raises(seq.ReadingError):
        seq.Timing(between_readings=bad)


@pytest.mark.parametrize("order", [[], ["あ"], ["あ", "あ", "い"]])
def test_too_few_or_repeated_cards_are_refused(order):
    with pytest.raises(seq.ReadingError):
        seq.plan(order)


def play(state, count):
    entries = []
    for _ in range(count):
        state, entry = seq.advance(state)
        entries.append(entry)
    return state, entries


def test_advance_plays_every_step_then_stops():
    state = seq.start(["あ", "い", "う"])
    state, entries = play(state, len(state.steps))
    assert state.finished
    assert [e.kind for e in entries] == [s.kind for s in state.steps]
    with pytest.raises(seq.ReadingError):
        seq.advance(state)


def test_pause_and_resume():
    state, _ = play(seq.start(["あ", "い", "う"]), 2)
    state, entry = seq.pause(state)
    assert entry.kind == "pause" and state.paused
    with pytest.raises(seq.ReadingError):
        seq.advance(state)
    with pytest.raises(seq.ReadingError):
        seq.pause(state)
    state, entry = seq.resume(state)
    assert entry.kind == "resume"
    state, entry = seq.advance(state)
    assert entry.kind == PAUSE  # on from where it stopped: the pause before あ's second reading
    with pytest.raises(seq.ReadingError):
        seq.resume(state)


def test_read_again_reads_the_last_card_once_more_and_logs_it():
    state = seq.start(["あ", "い", "う", "え"])
    with pytest.raises(seq.ReadingError):
        seq.read_again(state)  # nothing read yet
    state, _ = play(state, 4)  # start, あ1, pause, あ2
    state, entry = seq.read_again(state)
    assert (entry.kind, entry.card, entry.reading) == ("again", "あ", AGAIN)
    state, rest = play(state, len(state.steps) - state.position - 1)
    words = spoken(state.steps)
    assert words[:5] == ["start", "あ1", "あ2", "あ+", "next"]
    assert words.count("あ+") == 1


def test_skip_drops_the_rest_of_the_current_card_and_says_so():
    state = seq.start(["あ", "い", "う", "え"])
    state, _ = play(state, 2)  # start, あ1
    state, entry = seq.skip(state)
    assert (entry.kind, entry.card) == ("skip", "あ")
    state, rest = play(state, len(state.steps) - state.position - 1)
    played = [e.card + {FIRST: "1", SECOND: "2", CONFIRM: "c", AGAIN: "+"}[e.reading] for e in rest if e.kind == READ]
    assert played == ["い1", "い2", "うc", "えc", "う1", "う2"]


def test_skip_between_cards_skips_the_next_card():
    state = seq.start(["あ", "い", "う", "え"])
    state, _ = play(state, 4)  # start, あ1, pause, あ2: あ is done
    state, entry = seq.skip(state)
    assert entry.card == "い"
    state, rest = play(state, len(state.steps) - state.position - 1)
    assert [e.card for e in rest if e.kind == READ] == ["う", "え", "う", "う"]


def test_skip_at_the_end_is_refused():
    state = seq.start(["あ", "い"])
    state, _ = play(state, len(state.steps))
    with pytest.raises(seq.ReadingError):
        seq.skip(state)


def test_steps_serialise_for_the_page():
    step = seq.plan(["あ", "い"])[2]
    assert step.as_dict() == {
        "kind": READ,
        "block": 0,
        "key": "card:あ",
        "card": "あ",
        "reading": CONFIRM,
        "seconds": 0.0,
    }
