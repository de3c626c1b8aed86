"""The reader's engine (docs/rules/reader.md): seeded order, each card twice, the phrases in
their place, the last two cards, and the operations (pause, resume, read again, skip)."""

import json

import pytest

from reader.engine import sequence as seq
from reader.engine.sequence import AGAIN, CONFIRM, FIRST, NEXT, PAUSE, PHRASE, READ, SECOND, WAIT
from tests.engine import reader_sequence_cases as cases
from tests.engine.reader_sequence_cases import ORDER, spoken

CARDS = ["あ", "い", "う", "え", "お"]


def test_the_tables_exported_for_the_browser_are_up_to_date():
    """static/js/reader-sequence.js is checked against tests/data/reader_sequence_cases.json
    (tests/js/reader-sequence.test.js): the file must say what these tables and this engine say.
    After changing either: ``python -m tests.engine.reader_sequence_cases --write``."""
    assert cases.JSON_PATH.exists(), "run: python -m tests.engine.reader_sequence_cases --write"
    assert json.loads(cases.JSON_PATH.read_text(encoding="utf-8")) == json.loads(cases.dumps()), (
        "tests/data/reader_sequence_cases.json is stale: python -m tests.engine.reader_sequence_cases --write"
    )


@pytest.mark.parametrize(("order", "script"), cases.SCRIPTS)
def test_the_scripts_run_on_the_engine(order, script):
    outcome = cases.run_script(order, script)
    assert len(outcome) == len(script)
    assert all(("entry" in o) != ("error" in o) for o in outcome)


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


@pytest.mark.parametrize(("order", "expected"), cases.STEPS_IN_ORDER)
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
    assert words[words.index("check") :] == [
        "check",
        last_a + "c",
        last_b + "c",
        "wait",
        "next",
        last_a + "1",
        last_a + "2",
    ]


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
        if state.waiting:  # the referee taps 「続ける」 at the last two cards
            state, _placed = seq.placed(state)
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


def test_skip_between_cards_names_the_unread_card_first():
    state = seq.start(["あ", "い", "う", "え"])
    state, _ = play(state, 5)  # start, あ1, pause, あ2, pause between cards: あ is done
    assert seq.skip_target(state) == ("い", True)
    with pytest.raises(seq.SkipNeedsConfirm) as refused:
        seq.skip(state)
    assert refused.value.card == "い"
    state, entry = seq.skip(state, confirm="い")
    assert entry.card == "い"
    state, rest = play(state, len(state.steps) - state.position - 1)
    assert [e.card for e in rest if e.kind == READ] == ["う", "え", "う", "う"]


def where(order, played):
    """The state after ``played`` steps (pauses included) of ``order``."""
    state, _ = play(seq.start(order), played)
    return state


# Table: (steps played, the card shown large, what skip names, whether it needs a confirm).
@pytest.mark.parametrize(("played", "shown", "skipped", "unread"), cases.SHOWN_LARGE)
def test_skip_and_again_name_the_card_shown_large(played, shown, skipped, unread):
    state = where(ORDER, played)
    assert seq.last_card(state) == shown
    assert seq.skip_target(state) == (skipped, unread)
    if not unread:
        state, entry = seq.skip(state)
        assert entry == seq.Entry("skip", skipped)


@pytest.mark.parametrize(("played", "expected"), cases.READ_AGAIN)
def test_read_again_reads_the_card_shown_large_never_in_the_next_block(played, expected):
    state = where(["あ", "い", "う", "え"], played)
    state, entry = seq.read_again(state)
    assert (entry.kind, entry.card) == ("again", "あ")
    assert spoken(state.steps)[:6] == expected
    again = next(s for s in state.steps if s.reading == AGAIN)
    assert again.block == 0  # あ's block: a following skip names い only after a confirm
    state, rest = play(state, len(state.steps) - state.position - 1)
    assert [e.reading for e in rest if e.kind == READ].count(AGAIN) == 1


def test_pause_under_way_cuts_the_reading_and_resume_reads_it_whole():
    state = where(["あ", "い", "う"], 4)  # あ's 2nd reading under way
    state, entry = seq.pause(state, under_way=True)
    assert (entry.kind, entry.card, entry.reading) == ("cut", "あ", SECOND)
    state, _ = seq.resume(state)
    state, entry = seq.advance(state)
    assert (entry.kind, entry.card, entry.reading) == (READ, "あ", SECOND)  # read again whole


def test_pause_on_a_pause_step_is_not_a_cut():
    state = where(["あ", "い", "う"], 3)
    state, entry = seq.pause(state, under_way=True)
    assert entry == seq.Entry("pause")


@pytest.mark.parametrize(("lines", "position", "card"), cases.RESUME)
def test_a_reading_opened_again_goes_on_after_the_last_logged_reading(lines, position, card):
    order = ["あ", "い", "う", "え"]
    steps = seq.plan(order)
    assert seq.resume_position(steps, lines) == position
    assert seq.next_card(steps, position, order) == card


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


def paused_at(played, under_way=False):
    state = where(["あ", "い", "う", "え"], played)
    state, _ = seq.pause(state, under_way=under_way)
    return state


def rest_of(state):
    state, _ = seq.resume(state)
    state, rest = play(state, len(state.steps) - state.position - 1)
    return [e.card + {FIRST: "1", SECOND: "2", CONFIRM: "c", AGAIN: "+"}[e.reading] for e in rest if e.kind == READ]


# Table: skip pressed while paused (cases.SKIP_WHILE_PAUSED).
@pytest.mark.parametrize(("played", "presses", "after"), cases.SKIP_WHILE_PAUSED)
def test_skip_while_paused_skips_each_card_once(played, presses, after):
    state = paused_at(played)
    for confirm, expected in presses:
        if expected.startswith("ask:"):
            with pytest.raises(seq.SkipNeedsConfirm) as refused:
                seq.skip(state, confirm=confirm)
            assert refused.value.card == expected[4:]
            continue
        state, entry = seq.skip(state, confirm=confirm)
        assert entry == seq.Entry("skip", expected)
    assert rest_of(state) == after


# Table: もう一度 while paused (cases.AGAIN_WHILE_PAUSED).
@pytest.mark.parametrize(("played", "under_way", "skip_first", "after"), cases.AGAIN_WHILE_PAUSED)
def test_again_while_paused_is_read_once_on_resume(played, under_way, skip_first, after):
    state = paused_at(played, under_way)
    if skip_first:
        state, _ = seq.skip(state)
    state, entry = seq.read_again(state)
    assert (entry.kind, entry.card) == ("again", "あ")
    with pytest.raises(seq.ReadingError):
        seq.read_again(state)  # pressed twice: still read once
    assert rest_of(state)[: len(after)] == after


def _to_the_wait(order):
    state = seq.start(order)
    while not state.waiting:
        state, _entry = seq.advance(state)
    return state


def test_the_reader_waits_at_the_last_two_cards_until_placed():
    """Issue 33 item 2: after 「札の確認をします」 and the two confirming readings the reader
    stops; only the referee's 「続ける」 (placed) lets 「次、読みます」 and the last read come."""
    state = _to_the_wait(["あ", "い", "う"])
    assert state.current.kind == WAIT
    assert [s.card + s.reading for s in state.steps[: state.position] if s.kind == READ][-2:] == ["いcheck", "うcheck"]
    with pytest.raises(seq.ReadingError, match="placed"):
        seq.advance(state)
    state, entry = seq.mismatch(state, "more")
    assert entry == seq.Entry("mismatch", reading="more") and state.waiting  # still waiting
    with pytest.raises(seq.ReadingError):
        seq.mismatch(state, "three")
    state, entry = seq.placed(state)
    assert entry.kind == "placed" and not state.waiting
    with pytest.raises(seq.ReadingError):
        seq.placed(state)
    state, entry = seq.advance(state)
    assert entry.key == NEXT
    state, entry = seq.advance(state)
    assert (entry.card, entry.reading) == ("い", FIRST)


@pytest.mark.parametrize("case", seq.MISMATCHES)
def test_every_mismatch_case_is_taken_only_while_waiting(case):
    with pytest.raises(seq.ReadingError):
        seq.mismatch(seq.start(CARDS), case)
    assert seq.mismatch(_to_the_wait(CARDS), case)[1].reading == case


def test_read_again_while_waiting_reads_the_card_then_waits_again():
    state = _to_the_wait(["あ", "い", "う"])
    state, entry = seq.read_again(state)
    assert (entry.card, entry.reading) == ("う", AGAIN) and not state.waiting
    state, entry = seq.advance(state)
    assert (entry.card, entry.reading) == ("う", AGAIN)
    state, _entry = seq.advance(state)
    assert state.waiting


def test_a_page_opened_again_at_the_last_two_waits_again_unless_placed():
    steps = seq.plan(["あ", "い", "う"])
    lines = [
        ("phrase", "", ""),
        ("read", "あ", FIRST),
        ("read", "あ", SECOND),
        ("phrase", "", ""),
        ("read", "い", CONFIRM),
    ]
    lines.append(("read", "う", CONFIRM))
    wait = next(i for i, s in enumerate(steps) if s.kind == WAIT)
    assert seq.resume_position(steps, lines) == wait - 1  # the WAIT is next: the page waits
    assert seq.resume_position(steps, [*lines, ("mismatch", "", "more")]) == wait - 1
    assert seq.resume_position(steps, [*lines, ("placed", "", "")]) == wait
