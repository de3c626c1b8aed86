// The reading of one game by the rules, in the browser (issue 30, item 3): the same pure
// state machine as reader/engine/sequence.py (docs/rules/reader.md), for reader.js. Each
// operation takes a state {steps, position, paused, skippedBlock, placedAt} and returns
// {state, entry} (a new state; the log entry {kind, card, reading, key}) or throws a
// ReadingError (a SkipNeedsConfirm names the unread card). No DOM, no clock, no storage:
// tests/js/reader-sequence.test.js runs it in node against tests/data/reader_sequence_cases.json,
// the Python engine's own test tables (tests/engine/reader_sequence_cases.py), so the two
// cannot drift. In the browser it is ``window.KarutaReaderSequence``.
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.KarutaReaderSequence = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var START = "phrase:start", NEXT = "phrase:next", CHECK = "phrase:check";
  var PHRASE = "phrase", READ = "read", PAUSE = "pause", WAIT = "wait";
  var FIRST = "first", SECOND = "second", CONFIRM = "check", AGAIN = "again";
  var MISMATCHES = ["more", "fewer", "wrong"];

  function ReadingError(message, card) {
    this.name = card === undefined ? "ReadingError" : "SkipNeedsConfirm";
    this.message = message;
    this.card = card === undefined ? "" : card;
  }
  ReadingError.prototype = Object.create(Error.prototype);
  ReadingError.prototype.constructor = ReadingError;

  function step(kind, block, key, card, reading, seconds) {
    return { kind: kind, block: block, key: key || "", card: card || "", reading: reading || "", seconds: seconds || 0 };
  }
  function cardKey(card) { return "card:" + card; }
  function readTwice(block, card, timing) {
    return [
      step(READ, block, cardKey(card), card, FIRST),
      step(PAUSE, block, "", "", "", timing.betweenReadings),
      step(READ, block, cardKey(card), card, SECOND)
    ];
  }

  // The steps of a game reading ``order`` (head kana, shuffled): sequence.plan.
  function plan(order, timing) {
    timing = timing || { betweenReadings: 2, betweenCards: 4 };
    if (order.length < 2) throw new ReadingError("a game needs at least two cards");
    if (order.some(function (c, i) { return order.indexOf(c) !== i; })) throw new ReadingError("a card is named twice");
    var steps = [step(PHRASE, 0, START)];
    order.slice(0, -2).forEach(function (card, block) {
      if (block) steps.push(step(PAUSE, block, "", "", "", timing.betweenCards), step(PHRASE, block, NEXT));
      steps = steps.concat(readTwice(block, card, timing));
    });
    var check = order.length - 2, lastA = order[order.length - 2], lastB = order[order.length - 1];
    if (check) steps.push(step(PAUSE, check, "", "", "", timing.betweenCards));
    steps.push(
      step(PHRASE, check, CHECK),
      step(READ, check, cardKey(lastA), lastA, CONFIRM),
      step(PAUSE, check + 1, "", "", "", timing.betweenReadings),
      step(READ, check + 1, cardKey(lastB), lastB, CONFIRM),
      step(WAIT, check + 2),
      step(PHRASE, check + 2, NEXT)
    );
    return steps.concat(readTwice(check + 2, lastA, timing));
  }

  function state(steps, changes) {
    var s = { steps: steps, position: -1, paused: false, skippedBlock: -1, placedAt: -1,
      betweenReadings: 2 };
    Object.keys(changes || {}).forEach(function (k) { s[k] = changes[k]; });
    return s;
  }
  function replace(s, changes) { return state(s.steps, Object.assign({}, s, changes)); }
  function entry(kind, card, reading, key) { return { kind: kind, card: card || "", reading: reading || "", key: key || "" }; }

  function current(s) { return s.position >= 0 ? s.steps[s.position] : null; }
  function finished(s) { return s.position >= s.steps.length - 1; }
  function waiting(s) {
    var c = current(s);
    return c !== null && c.kind === WAIT && s.placedAt !== s.position;
  }

  function advance(s) {
    if (s.paused) throw new ReadingError("the reading is paused");
    if (waiting(s)) throw new ReadingError("the reader waits for the last two cards to be placed");
    if (finished(s)) throw new ReadingError("the reading is finished");
    var position = s.position + 1, next = s.steps[position];
    return { state: replace(s, { position: position, skippedBlock: -1 }), entry: entry(next.kind, next.card, next.reading, next.key) };
  }
  function placed(s) {
    if (!waiting(s)) throw new ReadingError("the reader is not waiting for the last two cards");
    return { state: replace(s, { placedAt: s.position }), entry: entry("placed") };
  }
  function mismatch(s, kase) {
    if (!waiting(s)) throw new ReadingError("the reader is not waiting for the last two cards");
    if (MISMATCHES.indexOf(kase) < 0) throw new ReadingError("unknown case " + kase);
    return { state: s, entry: entry("mismatch", "", kase) };
  }
  // ``underWay``: the current step's audio was still playing (a cut reading is read again whole).
  function pause(s, underWay) {
    if (s.paused) throw new ReadingError("already paused");
    var c = current(s);
    if (underWay && c !== null && (c.kind === READ || c.kind === PHRASE)) {
      return { state: replace(s, { position: s.position - 1, paused: true }), entry: entry("cut", c.card, c.reading, c.key) };
    }
    return { state: replace(s, { paused: true }), entry: entry("pause") };
  }
  function resume(s) {
    if (!s.paused) throw new ReadingError("not paused");
    return { state: replace(s, { paused: false }), entry: entry("resume") };
  }

  function lastReadIndex(s) {
    for (var i = s.position; i >= 0; i--) if (s.steps[i].kind === READ) return i;
    return -1;
  }
  function lastCard(s) {
    var i = lastReadIndex(s);
    return i >= 0 ? s.steps[i].card : "";
  }
  function betweenCards(s) {
    if (s.position < 0 || current(s).block === s.skippedBlock) return true;
    var i = lastReadIndex(s);
    return i < 0 || s.steps[i].block !== current(s).block;
  }
  function blockStart(steps, block) {
    for (var i = 0; i < steps.length; i++) if (steps[i].block === block) return i;
    return -1;
  }
  function blockEnd(steps, block) {
    for (var i = steps.length - 1; i >= 0; i--) if (steps[i].block === block) return i;
    return -1;
  }
  function nextRead(s) {
    for (var i = s.position + 1; i < s.steps.length; i++) if (s.steps[i].kind === READ) return s.steps[i];
    return null;
  }
  function insert(steps, at, extra) { return steps.slice(0, at).concat(extra, steps.slice(at)); }

  // Read the card shown large once more: sequence.read_again.
  function readAgain(s) {
    var index = lastReadIndex(s);
    if (index < 0) throw new ReadingError("no card was read yet");
    var read = s.steps[index];
    var again = step(READ, read.block, cardKey(read.card), read.card, AGAIN);
    var queued = nextRead(s);
    if (queued && queued.reading === AGAIN && queued.card === read.card && queued.block === read.block) {
      throw new ReadingError(read.card + " is already to be read again");
    }
    var said = entry("again", read.card, AGAIN, again.key);
    if (current(s).block === s.skippedBlock) {
      return { state: replace(s, { steps: insert(s.steps, s.position + 1, [again]) }), entry: said };
    }
    if (betweenCards(s)) {
      var at = blockStart(s.steps, current(s).block);
      return { state: replace(s, { steps: insert(s.steps, at, [again]), position: at - 1 }), entry: said };
    }
    var extra = current(s).kind === PAUSE ? [] : [step(PAUSE, read.block, "", "", "", s.betweenReadings)];
    return { state: replace(s, { steps: insert(s.steps, s.position + 1, extra.concat([again])) }), entry: said };
  }

  // {card, unread, block} the skip would drop now: sequence.skip_target.
  function skipTarget(s) {
    if (finished(s)) throw new ReadingError("the reading is finished");
    if (!betweenCards(s)) return { card: lastCard(s), unread: false, block: current(s).block };
    var next = nextRead(s);
    return { card: next.card, unread: true, block: next.block };
  }
  function skip(s, confirm) {
    var target = skipTarget(s);
    if (target.unread && (confirm || "") !== target.card) {
      throw new ReadingError("skip the unread card " + target.card + "? confirm first", target.card);
    }
    return { state: replace(s, { position: blockEnd(s.steps, target.block), skippedBlock: target.block }),
      entry: entry("skip", target.card) };
  }

  // Where a reading opened again goes on, from the server's log lines [kind, card, reading]:
  // sequence.resume_position.
  function resumePosition(steps, lines) {
    var position = -1;
    for (var n = 0; n < lines.length; n++) {
      var kind = lines[n][0], card = lines[n][1], reading = lines[n][2];
      if (kind === "end") return steps.length - 1;
      if (kind === "placed") {
        for (var w = position + 1; w < steps.length; w++) if (steps[w].kind === WAIT) { position = w; break; }
        continue;
      }
      if ((kind !== "read" && kind !== "skip") || !card) continue;
      for (var i = position + 1; i < steps.length; i++) {
        var st = steps[i];
        if (st.kind === READ && st.card === card && (kind === "skip" || st.reading === reading)) {
          position = kind === "read" ? i : blockEnd(steps, st.block);
          break;
        }
      }
    }
    return position;
  }
  // [number, card] the reading goes on with after ``position``: sequence.next_card.
  function nextCard(steps, position, order) {
    for (var i = position + 1; i < steps.length; i++) {
      if (steps[i].kind === READ) return [order.indexOf(steps[i].card) + 1, steps[i].card];
    }
    return [0, ""];
  }

  return {
    START: START, NEXT: NEXT, CHECK: CHECK, PHRASE: PHRASE, READ: READ, PAUSE: PAUSE, WAIT: WAIT,
    FIRST: FIRST, SECOND: SECOND, CONFIRM: CONFIRM, AGAIN: AGAIN, MISMATCHES: MISMATCHES,
    ReadingError: ReadingError, plan: plan, state: state, current: current, finished: finished, waiting: waiting,
    advance: advance, placed: placed, mismatch: mismatch, pause: pause, resume: resume, readAgain: readAgain,
    lastCard: lastCard, betweenCards: betweenCards, skipTarget: skipTarget, skip: skip,
    resumePosition: resumePosition, nextCard: nextCard, blockEnd: blockEnd
  };
});
