// The reader (読み手, issue 21): plays the steps of a reading (docs/rules/reader.md) through one
// plain <audio> element, shows the card just read large and the cards read so far, and keeps
// every log line in the outbox (static/js/outbox.js, as the court tablet's results) until the
// server has it, so the reading goes on when the Wi-Fi drops. The operations are those of
// static/js/reader-sequence.js, the browser's copy of reader/engine/sequence.py checked against
// its tests (tests/js/reader-sequence.test.js); this script plays them and shows them:
// a reading is logged when it ends; pause cuts the reading under way (logged "cut") and resume
// reads it again whole; read again and skip act on the card shown large; a skip between cards
// names the unread card first and needs a second press. The position (steps, last step done,
// the list) is kept in localStorage: a page opened again offers "continue from card N".
// At the last two cards the reader waits (a "wait" step) until the referee taps Continue: the
// two cards are in the centre, 30 cm apart; a mismatch of the cards is told first (its button
// says what the referee does), logged, and the reader keeps waiting (issue 33).
// ?fast=1 (data-fast) makes the pauses ~0 and the audio fast: for the browser test.
(function () {
  "use strict";
  var root = document.getElementById("reader");
  var planNode = document.getElementById("reader-plan");
  var Seq = window.KarutaReaderSequence, Outbox = window.KarutaOutbox;
  if (!root || !planNode || !Seq) return;
  var plan = JSON.parse(planNode.textContent);
  var d = root.dataset;
  var fast = d.fast === "1";
  // Where the reading is (steps, position, paused, skipped block, placed): reader-sequence.js.
  var st = Seq.state(plan.steps.slice());
  // Practice (no server): a kept game is offered to continue, Start begins a new shuffle.
  var practice = d.practice === "1", order = (plan.order || []).slice();
  // done: the last step done (its audio ended); finished: the end was reached (and logged).
  var done = -1, started = false, finished = false, timer = null, playing = false;
  var pendingSkip = "", items = [], waiting = false;
  var audio = document.getElementById("reader-audio");
  var preloaded = {};
  var el = function (id) { return document.getElementById(id); };
  var buttons = {};
  root.querySelectorAll("button[data-act]").forEach(function (b) { buttons[b.dataset.act] = b; });
  var skipText = buttons.skip.textContent;

  // ---- the log, kept in the outbox until the server has it ----------------------------------
  // One outbox entry per line (karuta.outbox:reader-log:<reading>:<seed>:<seq>); what an older
  // version kept under the reading's own key ({seq, queue}) is moved over first.
  var store = d.store || "";
  var outbox = null, seq = 0, revoked = false, refused = 0;
  function post(held) {
    return fetch(d.linesUrl, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": d.csrf },
      // sent: the server corrects this clock's error
      body: JSON.stringify({ lines: held.map(function (i) { return i.line; }), sent: Date.now() })
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) {
        body = body || {};
        // A revoked link (410): the lines stay on this device, the reading goes on. A line the
        // server refuses (400) leaves the outbox with a note (the page's own list keeps it).
        if (r.status === 410) return { kind: Outbox.GONE, stop: true };
        if (r.status === 400) return { kind: Outbox.REFUSED, reason: body.error || "", drop: true };
        if (r.ok) return { kind: Outbox.SENT, keys: body.stored || [] };
        return { kind: Outbox.RETRY };
      });
    });
  }
  function answered(sent, answer) {
    if (answer.kind === Outbox.GONE && outbox.stopped) { revoked = true; d.revoked = "1"; }
    if (answer.kind === Outbox.REFUSED) {
      var line = sent[0].line;
      refused += 1;
      d.refused = String(refused);
      note("refused", d.labelRefused + " (" + line.seq + " " + line.kind + " " + (line.card || "") + ") " + (answer.reason || ""));
    }
    showQueue();
  }
  if (store && d.linesUrl && window.localStorage && window.fetch && Outbox) {
    outbox = Outbox.create({
      storage: localStorage, name: store, batch: 200, firstDelay: 1000, maxDelay: 30000, send: post,
      onChange: function () { showQueue(); }, onAnswer: answered
    });
    seq = Outbox.fromReaderV1(localStorage, outbox, store).seq;
    outbox.list().forEach(function (i) { seq = Math.max(seq, i.line.seq || 0); });
  }
  seq = Math.max(seq, parseInt(d.seqBase, 10) || 0);
  function showQueue() {
    var held = outbox ? outbox.held() : 0; // the lines under way count as held until the server answers
    d.queued = String(held);
    if (!d.linesUrl) return;
    if (revoked) { el("reader-status").textContent = d.labelRevoked; return; }
    el("reader-status").textContent = held ? d.labelQueued + ": " + held : d.labelSent;
  }
  function flush() {
    if (outbox) outbox.flush();
    showQueue();
  }
  function log(kind, step) {
    if (!d.linesUrl) return; // practice: the list on the page is the log, nothing is sent
    seq += 1;
    var line = { seq: seq, kind: kind, card: (step && step.card) || "", reading: (step && step.reading) || "",
      key: (step && step.key) || "", at: Date.now() };
    if (outbox) outbox.add(Outbox.readerItem(line));
    flush();
  }

  // ---- the display ------------------------------------------------------------------------
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function clock() { var t = new Date(); return two(t.getHours()) + ":" + two(t.getMinutes()) + ":" + two(t.getSeconds()); }
  function label(step) {
    if (step.kind === "phrase") return d["phrase" + step.key.split(":")[1].replace(/^./, function (c) { return c.toUpperCase(); })];
    return { first: d.labelFirst, second: d.labelSecond, check: d.labelCheck, again: d.labelAgain }[step.reading] || "";
  }
  function addItem(item) {
    var node = document.createElement("li");
    node.textContent = item.text;
    if (item.kind) { node.className = "muted"; node.dataset.kind = item.kind; }
    if (item.card) node.dataset.card = item.card;
    if (item.reading) node.dataset.reading = item.reading;
    var list = el("reader-read");
    list.insertBefore(node, list.firstChild);
  }
  function remember(item) { items.push(item); addItem(item); }
  function showLarge(card) {
    el("reader-kana").textContent = card || "—";
    el("reader-text").textContent = (card && plan.cards[card]) || "";
  }
  function show(step) {
    el("reader-step").textContent = label(step);
    if (step.kind === "read") showLarge(step.card);
  }
  function listed(step) {
    // The list of cards read gets a reading when it is complete.
    remember({ text: clock() + "  " + step.card + "  " + (plan.cards[step.card] || "") + " (" + label(step) + ")",
      card: step.card, reading: step.reading });
  }
  function note(kind, text) { remember({ text: clock() + "  " + text, kind: kind }); }
  function steps() { return st.steps; }
  function pos() { return st.position; }
  function atEnd() { return Seq.finished(st); }
  function setPending(card) {
    pendingSkip = card;
    d.skipPending = card;
    buttons.skip.textContent = card ? d.labelSkipConfirm.replace("%(card)s", card) : skipText;
  }
  function setState(state) {
    d.state = state;
    buttons.start.disabled = started || finished;
    buttons.pause.disabled = !started || st.paused || finished || waiting;
    buttons.resume.disabled = !st.paused || finished;
    buttons.again.disabled = !started || finished || !Seq.lastCard(st);
    buttons.skip.disabled = !started || finished || atEnd();
  }

  // ---- the position, kept on the device (a page opened again goes on) -----------------------
  var stateKey = store ? store + ":state" : "";
  function keep() {
    if (!stateKey || !window.localStorage) return;
    try {
      localStorage.setItem(stateKey, JSON.stringify({ steps: steps(), done: done, finished: finished, items: items,
        order: order, seed: plan.seed }));
    } catch (e) { /* full */ }
  }
  // The server's log (a page opened on another device): the list shows what was read there.
  function fromServer() {
    var node = document.getElementById("reader-logged");
    var lines;
    try { lines = node ? JSON.parse(node.textContent) : []; } catch (e) { lines = []; }
    var notes = { skip: d.labelSkip, pause: d.labelPause, resume: d.labelResume, cut: d.labelCut, reopened: d.labelReopened,
      placed: d.labelPlaced, mismatch: d.labelMismatch };
    lines.forEach(function (line) {
      if (line.kind === "read" || line.kind === "again") {
        var step = { kind: "read", card: line.card, reading: line.reading };
        remember({ text: line.time + "  " + line.card + "  " + (plan.cards[line.card] || "") + " (" + label(step) + ")",
          card: line.card, reading: line.reading });
      } else if (notes[line.kind]) {
        remember({ text: line.time + "  " + notes[line.kind] + (line.card ? ": " + line.card : ""), kind: line.kind });
      }
    });
  }
  // Go on after step ``at``, done (a WAIT done was ended by "placed").
  function goOnFrom(list, at) {
    st = Seq.state(list, { position: at, placedAt: at >= 0 && list[at] && list[at].kind === Seq.WAIT ? at : -1 });
  }
  function restore() {
    var saved = null;
    if (stateKey && window.localStorage) {
      try { saved = JSON.parse(localStorage.getItem(stateKey) || "null"); } catch (e) { saved = null; }
    }
    var server = parseInt(d.resumePos, 10);
    if (practice && saved && (saved.finished || !(saved.steps || []).every(function (s) { return !s.key || plan.audio[s.key]; }))) {
      saved = null; // a finished practice game, or the deck changed since: a new one
    }
    if (saved && saved.order) order = saved.order;
    if (saved && saved.steps && saved.steps.length >= steps().length && (saved.done >= 0 || saved.finished)) {
      done = saved.done; finished = !!saved.finished;
      goOnFrom(saved.steps, done);
      (saved.items || []).forEach(remember);
    } else if (!isNaN(server) && server >= 0) {
      done = server;
      finished = d.ended === "1" || server >= steps().length - 1;
      goOnFrom(steps(), done);
      fromServer();
    } else {
      finished = d.ended === "1";
      return;
    }
    showLarge(Seq.lastCard(st));
    if (finished) { el("reader-step").textContent = d.labelEnd; return; }
    var next = Seq.nextCard(steps(), done, order);
    buttons["continue"].hidden = false;
    buttons["continue"].textContent = d.labelContinue.replace("%(n)s", String(next[0])).replace("%(card)s", next[1]);
    buttons.start.hidden = !practice;
    el("reader-step").textContent = buttons["continue"].textContent;
    d.resumable = next[1];
  }

  // ---- playing ------------------------------------------------------------------------------
  function pauseSeconds(index) {
    // A pause before a reading is the one between the two readings; before a phrase, between cards.
    var next = steps()[index + 1];
    var input = el(next && next.kind === "read" ? "reader-between-readings" : "reader-between-cards");
    var value = parseFloat(input && input.value);
    if (isNaN(value) || value < 0 || value > 30) value = steps()[index].seconds;
    return value;
  }
  function preload(from) {
    for (var i = from, n = 0; i < steps().length && n < 6; i++) {
      var key = steps()[i].key;
      if (!key || preloaded[key]) continue;
      n += 1;
      var a = new Audio();
      a.preload = "auto";
      a.src = plan.audio[key];
      preloaded[key] = a;
    }
  }
  // Every audio of the reading, fetched once in the order it is played: the browser keeps it
  // (the audio URLs are cacheable for a year), so the reading goes on when the Wi-Fi drops.
  function warm() {
    var urls = [], seen = {};
    steps().forEach(function (s) { if (s.key && !seen[s.key]) { seen[s.key] = true; urls.push(plan.audio[s.key]); } });
    var fetched = 0;
    d.cached = "0";
    d.audioTotal = String(urls.length);
    if (!window.fetch) return;
    (function one(i) {
      if (i >= urls.length) return;
      fetch(urls[i], { cache: "force-cache" }).then(function (r) { return r.arrayBuffer(); })
        .then(function () { fetched += 1; d.cached = String(fetched); one(i + 1); })
        .catch(function () { setTimeout(function () { one(i); }, 3000); });
    })(0);
  }
  function finish() {
    finished = true; playing = false; done = steps().length - 1;
    log("end");
    keep();
    el("reader-step").textContent = d.labelEnd;
    setState("finished");
  }
  function showWait(on) {
    waiting = on;
    d.waiting = on ? "1" : "";
    el("reader-wait").hidden = !on;
    if (!on) el("reader-wait-action").textContent = "";
  }
  function playNext() {
    timer = null;
    if (st.paused || finished) return;
    if (waiting) showWait(false); // read again or skip pressed while waiting: it moves on
    if (Seq.waiting(st)) { showWait(true); setState("waiting"); return; } // only "placed" goes on
    var now = Seq.current(st);
    if (now && now.kind === "pause") { done = pos(); keep(); }
    if (atEnd()) { finish(); return; }
    st = Seq.advance(st).state;
    var step = Seq.current(st);
    d.position = String(pos());
    preload(pos() + 1);
    if (step.kind === "pause") {
      timer = setTimeout(playNext, fast ? 5 : pauseSeconds(pos()) * 1000);
      setState("playing");
      return;
    }
    if (step.kind === "wait") {
      // The last two cards: nothing plays until the referee taps Continue (never a timer).
      showWait(true);
      el("reader-step").textContent = d.labelWait;
      keep();
      setState("waiting");
      return;
    }
    if (step.kind === "read" && step.card === pendingSkip) setPending("");
    show(step);
    playing = true;
    audio.src = plan.audio[step.key];
    audio.playbackRate = fast ? 16 : 1;
    setState("playing");
    var started_ = audio.play();
    if (started_ && started_.catch) started_.catch(function () { /* reported by the error event */ });
  }
  // A step is logged, listed and counted as done when its audio ends (never when it starts).
  audio.addEventListener("ended", function () {
    if (!playing) return;
    playing = false;
    var step = Seq.current(st);
    done = pos();
    log(step.reading === "again" ? "again" : step.kind, step);
    if (step.kind === "read") listed(step);
    d.played = (d.played ? d.played + " " : "") + (step.kind === "phrase" ? step.key : step.card + ":" + step.reading);
    keep();
    if (!st.paused) playNext();
  });
  audio.addEventListener("error", function () {
    if (!playing) return;
    el("reader-status").textContent = d.labelAudioError;
    doPause();
  });
  audio.addEventListener("ratechange", function () { if (fast && audio.playbackRate !== 16) audio.playbackRate = 16; });

  function stopCurrent() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (playing) { playing = false; audio.pause(); }
  }
  function doPause() {
    if (st.paused || finished) return;
    var cut = Seq.pause(st, playing);
    stopCurrent();
    st = cut.state;
    var step = cut.entry;
    log(step.kind, step);
    if (step.kind === "cut") {
      // The reading under way is not counted: it is read again whole on resume.
      note("cut", d.labelCut + ": " + (step.card ? step.card + " (" + label({ kind: "read", reading: step.reading }) + ")"
        : label({ kind: "phrase", key: step.key })));
      showLarge(Seq.lastCard(st));
    } else {
      note("pause", d.labelPause);
    }
    keep();
    setState("paused");
  }
  // Start on a practice page that offered "continue": the kept game is dropped for this one.
  function newGame() {
    st = Seq.state(plan.steps.slice()); order = (plan.order || []).slice();
    done = -1; items = [];
    el("reader-read").textContent = "";
    showLarge("");
    buttons["continue"].hidden = true;
    delete d.resumable;
    keep();
  }
  function goOn() { if (!st.paused) playNext(); else setState("paused"); }
  // An operation of reader-sequence.js, or null when the rules refuse it now.
  function tried(operation) {
    try { return operation(); } catch (e) { if (e instanceof Seq.ReadingError) return null; throw e; }
  }
  var actions = {
    start: function () {
      if (started || finished) return;
      if (d.resumable !== undefined) newGame();
      started = true;
      playNext();
    },
    "continue": function () {
      if (started || finished) return;
      started = true;
      buttons["continue"].hidden = true;
      var card = d.resumable || "";
      log("reopened", { card: card, reading: "", key: "" });
      note("reopened", d.labelReopened + (card ? ": " + card : ""));
      playNext();
    },
    pause: doPause,
    placed: function () {
      if (!waiting || st.paused || finished) return;
      var ended = tried(function () { return Seq.placed(st); });
      if (!ended) return;
      showWait(false);
      st = ended.state;
      done = pos();
      log("placed");
      note("placed", d.labelPlaced);
      keep();
      playNext();
    },
    mismatch: function (button) {
      if (!waiting || !button) return;
      var told = tried(function () { return Seq.mismatch(st, button.dataset["case"]); });
      if (!told) return;
      log("mismatch", told.entry);
      note("mismatch", d.labelMismatch + ": " + button.textContent.trim());
      el("reader-wait-action").textContent = button.textContent.trim();
    },
    resume: function () {
      if (!st.paused || finished) return;
      st = Seq.resume(st).state;
      log("resume");
      note("resume", d.labelResume);
      playNext();
    },
    again: function () {
      if (finished) return;
      // Pressed twice before the extra reading plays (e.g. while paused): read once (refused).
      var again = tried(function () { return Seq.readAgain(st); });
      if (!again) return;
      if (st.paused) note("again-queued", d.labelAgainQueued + ": " + again.entry.card);
      if (again.state.position !== st.position) {
        // Between cards: the phrase under way is cut, the card is read again now, then the
        // next card's block from its start (docs/rules/reader.md).
        stopCurrent();
        st = again.state;
        keep();
        goOn();
        return;
      }
      // During its own readings (or after a skip while paused): after the current step.
      st = again.state;
      keep();
      setState(d.state);
    },
    skip: function () {
      if (finished || atEnd()) return;
      var target = Seq.skipTarget(st);
      if (target.unread && pendingSkip !== target.card) {
        // A card nobody heard is named first; the second press skips it.
        setPending(target.card);
        note("ask", d.labelSkipAsk.replace("%(card)s", target.card));
        return;
      }
      setPending("");
      stopCurrent();
      var skipped = Seq.skip(st, target.card);
      st = skipped.state; // a second press (while paused) names the next card
      done = pos();
      log("skip", skipped.entry);
      note("skip", d.labelSkip + ": " + target.card);
      keep();
      goOn();
    }
  };
  root.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-act]");
    if (button && actions[button.dataset.act]) actions[button.dataset.act](button);
  });
  window.addEventListener("online", function () { if (outbox) outbox.sendNow(); });
  restore();
  preload(Math.max(pos() + 1, 0));
  warm();
  setState(finished ? "finished" : "idle");
  flush();
})();
