// static/js/reader-sequence.js against the Python engine's own test tables
// (tests/data/reader_sequence_cases.json, written by tests/engine/reader_sequence_cases.py):
// the reader in the browser and reader/engine/sequence.py cannot drift (issue 30, item 3).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const fs = require("node:fs");

const seq = require(path.join(__dirname, "..", "..", "static", "js", "reader-sequence.js"));
const cases = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "data", "reader_sequence_cases.json"), "utf8"));

const MARKS = { first: "1", second: "2", check: "c", again: "+" };
const WORDS = { "phrase:start": "start", "phrase:next": "next", "phrase:check": "check" };
function spoken(steps) {
  return steps.filter((s) => s.kind !== seq.PAUSE)
    .map((s) => (s.kind === seq.WAIT ? "wait" : s.kind === seq.PHRASE ? WORDS[s.key] : s.card + MARKS[s.reading]));
}
function start(order) { return seq.state(seq.plan(order)); }
function play(state, count) {
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (seq.waiting(state)) state = seq.placed(state).state;
    const done = seq.advance(state);
    state = done.state;
    entries.push(done.entry);
  }
  return { state, entries };
}
function where(order, played) { return play(start(order), played).state; }
function restOf(state) {
  state = seq.resume(state).state;
  const { entries } = play(state, state.steps.length - state.position - 1);
  return entries.filter((e) => e.kind === seq.READ).map((e) => e.card + MARKS[e.reading]);
}
function operate(state, op, arg) {
  switch (op) {
    case "advance": return seq.advance(state);
    case "pause": return seq.pause(state, !!arg);
    case "resume": return seq.resume(state);
    case "again": return seq.readAgain(state);
    case "skip": return seq.skip(state, arg || "");
    case "placed": return seq.placed(state);
    case "mismatch": return seq.mismatch(state, arg);
    default: throw new Error("unknown operation " + op);
  }
}

test("the plans are the Python engine's, step by step", () => {
  for (const c of cases.plans) {
    const timing = { betweenReadings: c.timing.between_readings, betweenCards: c.timing.between_cards };
    assert.deepEqual(seq.plan(c.order, timing), c.steps, c.order.join(""));
  }
});

test("the steps in order", () => {
  for (const c of cases.steps_in_order) assert.deepEqual(spoken(seq.plan(c.order)), c.spoken);
});

test("too few or repeated cards are refused", () => {
  for (const order of [[], ["あ"], ["あ", "あ", "い"]]) assert.throws(() => seq.plan(order), seq.ReadingError);
});

test("skip and again name the card shown large", () => {
  for (const c of cases.shown_large) {
    const state = where(cases.order, c.played);
    assert.equal(seq.lastCard(state), c.shown, "played " + c.played);
    const target = seq.skipTarget(state);
    assert.deepEqual([target.card, target.unread], [c.skipped, c.unread], "played " + c.played);
    if (!c.unread) assert.deepEqual(seq.skip(state).entry, { kind: "skip", card: c.skipped, reading: "", key: "" });
    else assert.throws(() => seq.skip(state), (e) => e.name === "SkipNeedsConfirm" && e.card === c.skipped);
  }
});

test("read again reads the card shown large, never in the next block", () => {
  for (const c of cases.read_again) {
    const done = seq.readAgain(where(cases.order, c.played));
    assert.deepEqual([done.entry.kind, done.entry.card], ["again", "あ"]);
    assert.deepEqual(spoken(done.state.steps).slice(0, 6), c.spoken, "played " + c.played);
    assert.equal(done.state.steps.find((s) => s.reading === seq.AGAIN).block, 0);
  }
});

test("a reading opened again goes on after the last logged reading", () => {
  const steps = seq.plan(cases.order);
  for (const c of cases.resume) {
    assert.equal(seq.resumePosition(steps, c.lines), c.position, JSON.stringify(c.lines));
    assert.deepEqual(seq.nextCard(steps, c.position, cases.order), c.next);
  }
});

test("skip while paused skips each card once", () => {
  for (const c of cases.skip_while_paused) {
    let state = seq.pause(where(cases.order, c.played), false).state;
    for (const [confirm, expected] of c.presses) {
      if (expected.startsWith("ask:")) {
        assert.throws(() => seq.skip(state, confirm), (e) => e.name === "SkipNeedsConfirm" && e.card === expected.slice(4));
        continue;
      }
      const done = seq.skip(state, confirm);
      assert.deepEqual(done.entry, { kind: "skip", card: expected, reading: "", key: "" });
      state = done.state;
    }
    assert.deepEqual(restOf(state), c.after, "played " + c.played);
  }
});

test("again while paused is read once on resume", () => {
  for (const c of cases.again_while_paused) {
    let state = seq.pause(where(cases.order, c.played), c.under_way).state;
    if (c.skip_first) state = seq.skip(state).state;
    const done = seq.readAgain(state);
    assert.deepEqual([done.entry.kind, done.entry.card], ["again", "あ"]);
    assert.throws(() => seq.readAgain(done.state), seq.ReadingError);
    assert.deepEqual(restOf(done.state).slice(0, c.after.length), c.after);
  }
});

test("every mismatch case is taken only while waiting", () => {
  assert.deepEqual(seq.MISMATCHES, cases.mismatches);
});

test("the scripts: every operation answers as the Python engine does", () => {
  cases.scripts.forEach((script, n) => {
    let state = start(script.order);
    script.outcome.forEach((expected, i) => {
      const where_ = `script ${n}, operation ${i} (${expected.op} ${expected.arg === null ? "" : expected.arg})`;
      try {
        const done = operate(state, expected.op, expected.arg);
        assert.ok(!expected.error, `${where_}: Python refused with ${expected.error}`);
        assert.deepEqual(done.entry, expected.entry, where_);
        state = done.state;
      } catch (error) {
        if (error instanceof assert.AssertionError) throw error;
        assert.ok(expected.error, `${where_}: JS threw ${error.message}`);
        assert.equal(error.name, expected.error, where_);
        if (expected.card !== undefined) assert.equal(error.card, expected.card, where_);
      }
      const s = expected.state;
      assert.deepEqual(
        [state.position, state.paused, state.skippedBlock, seq.waiting(state), seq.finished(state), spoken(state.steps), seq.lastCard(state)],
        [s.position, s.paused, s.skipped_block, s.waiting, s.finished, s.spoken, s.last_card],
        where_
      );
    });
  });
});
