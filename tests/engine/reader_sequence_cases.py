"""The test tables of the reader's engine (``reader/engine/sequence.py``), shared by its Python
tests (``tests/engine/test_reader_sequence.py``) and the browser's copy of the engine
(``static/js/reader-sequence.js``, checked by ``tests/js/reader-sequence.test.js``), so the two
cannot drift (issue 30, item 3).

``python -m tests.engine.reader_sequence_cases --write`` writes ``tests/data/
reader_sequence_cases.json``: the tables below, plus what the Python engine does on them (the
plans as step dicts, and each operation of ``SCRIPTS`` with its entry or error and the state
after it). ``test_reader_sequence.py`` checks that the file is up to date; without ``--write``
the module prints the JSON.

The rules are those of ``docs/rules/reader.md``.
"""

import argparse
import json
import sys
from pathlib import Path

from reader.engine import sequence as seq

JSON_PATH = Path(__file__).resolve().parents[1] / "data" / "reader_sequence_cases.json"

#: The order of most tables. Steps of あいうえ: 0 start, 1 あ1, 2 pause, 3 あ2, 4 pause, 5 next,
#: 6 い1, 7 pause, 8 い2, 9 pause, 10 check, 11 うc, 12 pause, 13 えc, 14 wait, 15 next, 16 う1,
#: 17 pause, 18 う2.
ORDER = ["あ", "い", "う", "え"]

#: (order, the steps without pauses as short text: see ``spoken``).
STEPS_IN_ORDER = [
    (["あ", "い"], ["start", "check", "あc", "いc", "wait", "next", "あ1", "あ2"]),
    (["あ", "い", "う"], ["start", "あ1", "あ2", "check", "いc", "うc", "wait", "next", "い1", "い2"]),
    (
        ["う", "あ", "い", "え"],
        ["start", "う1", "う2", "next", "あ1", "あ2", "check", "いc", "えc", "wait", "next", "い1", "い2"],
    ),
]

#: (steps played of ORDER, the card shown large, what skip names, whether it needs a confirm).
SHOWN_LARGE = [
    (1, "", "あ", True),  # during 「では、始めます」: あ was never read
    (2, "あ", "あ", False),  # during あ's 1st reading
    (4, "あ", "あ", False),  # during あ's 2nd reading: あ, not い
    (5, "あ", "い", True),  # the pause between cards
    (6, "あ", "い", True),  # during 「次、読みます」
    (7, "い", "い", False),
    (11, "い", "う", True),  # during 「札の確認をします」
    (12, "う", "う", False),  # confirming う
    (13, "う", "え", True),  # the pause before え's confirming reading: え is unread
    (14, "え", "え", False),
    (16, "え", "う", True),  # 「次、読みます」 before the last read
    (18, "う", "う", False),  # the pause before the game's last reading
]

#: (steps played of ORDER, the first six spoken steps after read again).
READ_AGAIN = [
    # during あ's 1st reading: あ again after it, then its 2nd reading
    (2, ["start", "あ1", "あ+", "あ2", "next", "い1"]),
    # after あ2 (its last step): right after it, before the pause between cards
    (4, ["start", "あ1", "あ2", "あ+", "next", "い1"]),
    # the pause between cards, or 「次、読みます」 under way: あ again now, then 次、読みます and い
    (5, ["start", "あ1", "あ2", "あ+", "next", "い1"]),
    (6, ["start", "あ1", "あ2", "あ+", "next", "い1"]),
]

#: (the server's log lines (kind, card, reading), the resume position in ORDER's plan,
#: (number, card) of the card it goes on with).
RESUME = [
    ([], -1, (1, "あ")),
    ([("phrase", "", "")], -1, (1, "あ")),  # the start phrase alone: あ still first
    ([("read", "あ", seq.FIRST)], 1, (1, "あ")),  # あ's 2nd reading comes next
    ([("read", "あ", seq.FIRST), ("read", "あ", seq.SECOND)], 3, (2, "い")),
    ([("read", "あ", seq.FIRST), ("again", "あ", seq.AGAIN), ("read", "あ", seq.SECOND)], 3, (2, "い")),
    ([("skip", "あ", "")], 3, (2, "い")),
    ([("read", "あ", seq.FIRST), ("read", "あ", seq.SECOND), ("end", "", "")], 18, (0, "")),
    # the last two confirmed: the WAIT is next (the page waits again) unless "placed" was logged
    ([("read", "あ", "first"), ("read", "あ", "second"), ("read", "い", "first"), ("read", "い", "second"),
      ("read", "う", "check"), ("read", "え", "check")], 13, (3, "う")),
    ([("read", "あ", "first"), ("read", "あ", "second"), ("read", "い", "first"), ("read", "い", "second"),
      ("read", "う", "check"), ("read", "え", "check"), ("placed", "", "")], 14, (3, "う")),
]  # fmt: skip

#: Skip pressed while paused (docs/rules/reader.md, "While paused"): each press skips a card
#: once; the press after a skip names the next card (asked first, skipped on a 2nd press).
#: (steps played of ORDER, presses as (confirm, skipped card or "ask:card"), the cards read on
#: resume).
SKIP_WHILE_PAUSED = [
    # paused after あ1: skip あ, then the next press asks about い, never skips あ again
    (2, [("", "あ"), ("", "ask:い")], ["い1", "い2", "うc", "えc", "う1", "う2"]),
    # …and a press confirming い skips い
    (2, [("", "あ"), ("", "ask:い"), ("い", "い")], ["うc", "えc", "う1", "う2"]),
    # paused between cards: い is asked, confirmed, then the next press asks about う
    (5, [("", "ask:い"), ("い", "い"), ("", "ask:う")], ["うc", "えc", "う1", "う2"]),
    # paused during the last card's confirming reading: う skipped once, then え is asked
    (12, [("", "う"), ("", "ask:え")], ["えc", "う1", "う2"]),
]

#: もう一度 while paused: the card shown large is read again first on resume, once however often
#: it is pressed; after a skip while paused it is read after the skipped card's block.
#: (steps played of ORDER, paused under way, skip first, the first cards read on resume).
AGAIN_WHILE_PAUSED = [
    (2, False, False, ["あ+", "あ2", "い1", "い2"]),  # paused after あ1 (on its pause step)
    (4, True, False, ["あ+", "あ2", "い1", "い2"]),  # あ2 cut by the pause: again, then あ2 whole
    (5, False, False, ["あ+", "い1", "い2"]),  # paused between cards
    (2, False, True, ["あ+", "い1", "い2"]),  # あ skipped while paused, then again: あ once more
]

#: Operations played in a row on a fresh reading of ``order``; the JSON records what the Python
#: engine answers to each (its entry, or its error) and the state after it. An operation is
#: [name, argument]: advance, pause (argument: under way), resume, again, skip (argument: the
#: confirmed card), placed, mismatch (argument: the case).
SCRIPTS = [
    (["あ", "い", "う"], [["advance"]] * 12),
    (ORDER, [["advance"]] * 2 + [["pause", True], ["resume"], ["advance"], ["again"], ["again"]] + [["advance"]] * 4),
    (ORDER, [["advance"]] * 5 + [["skip", ""], ["skip", "い"], ["advance"], ["again"], ["advance"], ["advance"]]),
    (ORDER, [["skip", ""], ["skip", "あ"], ["advance"], ["advance"], ["pause", False], ["skip", ""], ["again"]]),
    (["あ", "い", "う"], [["advance"]] * 7 + [["advance"], ["mismatch", "more"], ["mismatch", "three"], ["again"],
                          ["advance"], ["advance"], ["placed"], ["placed"], ["advance"], ["advance"]]),
    (["あ", "い"], [["advance"]] * 5 + [["skip", ""], ["skip", "あ"], ["advance"], ["skip", ""]]),
    (ORDER, [["pause", True], ["pause", False], ["resume"], ["resume"], ["again"], ["advance"], ["advance"],
             ["pause", True], ["again"], ["resume"], ["advance"], ["advance"]]),
]  # fmt: skip

#: Plans written out whole (every field of every step), with their pauses in seconds.
PLANS = [(["あ", "い"], (2.0, 4.0)), (ORDER, (1.5, 6.0)), (["お", "え", "う", "い", "あ"], (0.0, 30.0))]


def spoken(steps):
    """The steps without pauses, as short text: 'start', 'next', 'check', 'wait', 'あ1', 'あ2',
    'あc', 'あ+'."""
    marks = {seq.FIRST: "1", seq.SECOND: "2", seq.CONFIRM: "c", seq.AGAIN: "+"}
    words = {seq.START: "start", seq.NEXT: "next", seq.CHECK: "check"}
    return [
        "wait" if s.kind == seq.WAIT else words[s.key] if s.kind == seq.PHRASE else s.card + marks[s.reading]
        for s in steps
        if s.kind != seq.PAUSE
    ]


def operate(state, name, argument=None):
    """One operation of a script on ``state``: (new state, Entry); the engine's errors pass."""
    if name == "advance":
        return seq.advance(state)
    if name == "pause":
        return seq.pause(state, under_way=bool(argument))
    if name == "resume":
        return seq.resume(state)
    if name == "again":
        return seq.read_again(state)
    if name == "skip":
        return seq.skip(state, confirm=argument or "")
    if name == "placed":
        return seq.placed(state)
    if name == "mismatch":
        return seq.mismatch(state, argument)
    raise ValueError(f"unknown operation {name!r}")


def run_script(order, operations):
    """What the Python engine answers to each operation of a script: a list of dicts with the
    entry (or ``error``: "ReadingError" / "SkipNeedsConfirm", and its ``card``), then the state
    after it (position, paused, the steps as short text, waiting, finished)."""
    state = seq.start(order)
    outcome = []
    for operation in operations:
        name, argument = operation[0], (operation[1] if len(operation) > 1 else None)
        result = {"op": name, "arg": argument}
        try:
            state, entry = operate(state, name, argument)
        except seq.SkipNeedsConfirm as asked:
            result["error"], result["card"] = "SkipNeedsConfirm", asked.card
        except seq.ReadingError:
            result["error"] = "ReadingError"
        else:
            result["entry"] = dataclass_dict(entry)
        result["state"] = {
            "position": state.position,
            "paused": state.paused,
            "skipped_block": state.skipped_block,
            "waiting": state.waiting,
            "finished": state.finished,
            "spoken": spoken(state.steps),
            "last_card": seq.last_card(state),
        }
        outcome.append(result)
    return outcome


def dataclass_dict(entry):
    return {"kind": entry.kind, "card": entry.card, "reading": entry.reading, "key": entry.key}


def build():
    """The JSON document (a dict): the tables and the Python engine's answers on them."""
    return {
        "about": "Written by `python -m tests.engine.reader_sequence_cases --write` from the tables of "
        "tests/engine/reader_sequence_cases.py; do not edit.",
        "order": ORDER,
        "steps_in_order": [{"order": o, "spoken": s} for o, s in STEPS_IN_ORDER],
        "shown_large": [{"played": p, "shown": sh, "skipped": sk, "unread": u} for p, sh, sk, u in SHOWN_LARGE],
        "read_again": [{"played": p, "spoken": s} for p, s in READ_AGAIN],
        "resume": [
            {"lines": [list(line) for line in lines], "position": pos, "next": list(card)}
            for lines, pos, card in RESUME
        ],
        "skip_while_paused": [
            {"played": p, "presses": [list(press) for press in presses], "after": a}
            for p, presses, a in SKIP_WHILE_PAUSED
        ],
        "again_while_paused": [
            {"played": p, "under_way": w, "skip_first": k, "after": a} for p, w, k, a in AGAIN_WHILE_PAUSED
        ],
        "plans": [
            {
                "order": order,
                "timing": {"between_readings": br, "between_cards": bc},
                "steps": [step.as_dict() for step in seq.plan(order, seq.Timing(br, bc))],
            }
            for order, (br, bc) in PLANS
        ],
        "scripts": [{"order": order, "outcome": run_script(order, ops)} for order, ops in SCRIPTS],
        "mismatches": list(seq.MISMATCHES),
    }


def dumps():
    """The JSON text as written to ``JSON_PATH`` (sorted keys, one trailing newline)."""
    return json.dumps(build(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help=f"write {JSON_PATH.name} (else print it)")
    args = parser.parse_args(argv)
    if args.write:
        JSON_PATH.parent.mkdir(parents=True, exist_ok=True)
        JSON_PATH.write_text(dumps(), encoding="utf-8")
        print(f"wrote {JSON_PATH}")
    else:
        sys.stdout.write(dumps())


if __name__ == "__main__":
    main()
