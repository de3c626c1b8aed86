// The reader (読み手, issue 21): plays the steps of a reading (docs/rules/reader.md) through one
// plain <audio> element, shows the card just read large and the cards read so far, and keeps
// every log line in localStorage until the server has it (like offline.js for results), so the
// reading goes on when the Wi-Fi drops. The operations mirror reader/engine/sequence.py:
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
  if (!root || !planNode) return;
  var plan = JSON.parse(planNode.textContent);
  var d = root.dataset;
  var fast = d.fast === "1";
  var steps = plan.steps.slice();
  // Practice (no server): a kept game is offered to continue, Start begins a new shuffle.
  var practice = d.practice === "1", order = (plan.order || []).slice();
  var pos = -1, done = -1, paused = false, started = false, finished = false, timer = null, playing = false;
  var pendingSkip = "", items = [], skippedBlock = -1, waiting = false;
  var audio = document.getElementById("reader-audio");
  var preloaded = {};
  var el = function (id) { return document.getElementById(id); };
  var buttons = {};
  root.querySelectorAll("button[data-act]").forEach(function (b) { buttons[b.dataset.act] = b; });
  var skipText = buttons.skip.textContent;

  // ---- the log, kept until the server has it -------------------------------------------
  var store = d.store || "";
  var queue = [], seq = 0, sending = false, backoff = 1000, batchSize = 200, revoked = false, refused = 0;
  function save() {
    if (!store || !window.localStorage) return;
    try { localStorage.setItem(store, JSON.stringify({ seq: seq, queue: queue })); } catch (e) { /* full */ }
  }
  if (store && window.localStorage) {
    try {
      var kept = JSON.parse(localStorage.getItem(store) || "null");
      if (kept) { seq = kept.seq || 0; queue = kept.queue || []; }
    } catch (e) { /* ignore */ }
  }
  seq = Math.max(seq, parseInt(d.seqBase, 10) || 0);
  function showQueue() {
    d.queued = String(queue.length);
    if (!d.linesUrl) return;
    if (revoked) { el("reader-status").textContent = d.labelRevoked; return; }
    el("reader-status").textContent = queue.length ? d.labelQueued + ": " + queue.length : d.labelSent;
  }
  // A line the server refuses (400) is sent alone to find it, then dropped from the queue with
  // a note (the page's own list keeps it); a revoked link (410) is said, the reading goes on.
  function refusedLine(line, error) {
    queue = queue.filter(function (other) { return other.seq !== line.seq; });
    refused += 1;
    d.refused = String(refused);
    note("refused", d.labelRefused + " (" + line.seq + " " + line.kind + " " + (line.card || "") + ") " + (error || ""));
    save();
  }
  function answered(batch, res) {
    sending = false;
    if (res.status === 410) { revoked = true; d.revoked = "1"; showQueue(); return; }
    if (res.status === 400) {
      if (batch.length > 1) { batchSize = 1; } else { refusedLine(batch[0], res.body.error); }
      showQueue(); flush(); return;
    }
    if (!res.ok) { retry(); return; }
    var sent = {};
    (res.body.stored || []).forEach(function (n) { sent[n] = true; });
    queue = queue.filter(function (line) { return !sent[line.seq]; });
    if (!queue.length) batchSize = 200;
    save(); backoff = 1000; showQueue();
    if (queue.length) flush();
  }
  function flush() {
    if (!d.linesUrl || sending || revoked || !queue.length || !window.fetch) { showQueue(); return; }
    sending = true;
    showQueue(); // the lines under way count as held until the server answers
    var batch = queue.slice(0, batchSize);
    fetch(d.linesUrl, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": d.csrf },
      body: JSON.stringify({ lines: batch, sent: Date.now() }) // sent: the server corrects this clock's error
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (body) {
        return { ok: r.ok, status: r.status, body: body || {} };
      });
    }).then(function (res) { answered(batch, res); })
      .catch(function () { sending = false; retry(); });
  }
  function retry() {
    showQueue();
    setTimeout(flush, backoff);
    backoff = Math.min(backoff * 2, 30000);
  }
  function log(kind, step) {
    if (!d.linesUrl) return; // practice: the list on the page is the log, nothing is sent
    seq += 1;
    queue.push({ seq: seq, kind: kind, card: (step && step.card) || "", reading: (step && step.reading) || "",
      key: (step && step.key) || "", at: Date.now() });
    save(); flush();
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
  function lastRead() {
    for (var i = pos; i >= 0; i--) if (steps[i].kind === "read") return i;
    return -1;
  }
  function lastCard() { var i = lastRead(); return i >= 0 ? steps[i].card : ""; }
  function betweenCards() {
    // A block just skipped (while paused) is done: the next press acts on the next card.
    if (pos >= 0 && steps[pos].block === skippedBlock) return true;
    var i = lastRead();
    return pos < 0 || i < 0 || steps[i].block !== steps[pos].block;
  }
  function blockStart(block) {
    for (var i = 0; i < steps.length; i++) if (steps[i].block === block) return i;
    return -1;
  }
  function blockEnd(block) {
    var end = -1;
    steps.forEach(function (s, i) { if (s.block === block) end = i; });
    return end;
  }
  function nextRead() {
    for (var i = pos + 1; i < steps.length; i++) if (steps[i].kind === "read") return steps[i];
    return null;
  }
  function skipTarget() {
    if (!betweenCards()) return { card: lastCard(), unread: false, block: steps[pos].block };
    var next = nextRead();
    return next ? { card: next.card, unread: true, block: next.block } : { card: "", unread: true, block: 0 };
  }
  function setPending(card) {
    pendingSkip = card;
    d.skipPending = card;
    buttons.skip.textContent = card ? d.labelSkipConfirm.replace("%(card)s", card) : skipText;
  }
  function setState(state) {
    d.state = state;
    buttons.start.disabled = started || finished;
    buttons.pause.disabled = !started || paused || finished || waiting;
    buttons.resume.disabled = !paused || finished;
    buttons.again.disabled = !started || finished || !lastCard();
    buttons.skip.disabled = !started || finished || pos >= steps.length - 1;
  }

  // ---- the position, kept on the device (a page opened again goes on) -----------------------
  var stateKey = store ? store + ":state" : "";
  function keep() {
    if (!stateKey || !window.localStorage) return;
    try {
      localStorage.setItem(stateKey, JSON.stringify({ steps: steps, done: done, finished: finished, items: items,
        order: order, seed: plan.seed }));
    } catch (e) { /* full */ }
  }
  // The server's log (a page opened on another device): the list shows what was read there.
  function fromServer() {
    var node = document.getElementById("reader-logged");
    var lines = [];
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
    if (saved && saved.steps && saved.steps.length >= steps.length && (saved.done >= 0 || saved.finished)) {
      steps = saved.steps; done = saved.done; finished = !!saved.finished;
      (saved.items || []).forEach(remember);
    } else if (!isNaN(server) && server >= 0) {
      done = server;
      finished = d.ended === "1" || server >= steps.length - 1;
      fromServer();
    } else {
      finished = d.ended === "1";
      return;
    }
    pos = done;
    showLarge(lastCard());
    if (finished) { el("reader-step").textContent = d.labelEnd; return; }
    var next = "";
    for (var i = done + 1; i < steps.length; i++) if (steps[i].kind === "read") { next = steps[i].card; break; }
    var number = order.indexOf(next) + 1;
    buttons["continue"].hidden = false;
    buttons["continue"].textContent = d.labelContinue.replace("%(n)s", String(number)).replace("%(card)s", next);
    buttons.start.hidden = !practice;
    el("reader-step").textContent = buttons["continue"].textContent;
    d.resumable = next;
  }

  // ---- playing ------------------------------------------------------------------------------
  function pauseSeconds(index) {
    // A pause before a reading is the one between the two readings; before a phrase, between cards.
    var next = steps[index + 1];
    var input = el(next && next.kind === "read" ? "reader-between-readings" : "reader-between-cards");
    var value = parseFloat(input && input.value);
    if (isNaN(value) || value < 0 || value > 30) value = steps[index].seconds;
    return value;
  }
  function preload(from) {
    for (var i = from, n = 0; i < steps.length && n < 6; i++) {
      var key = steps[i].key;
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
    steps.forEach(function (s) { if (s.key && !seen[s.key]) { seen[s.key] = true; urls.push(plan.audio[s.key]); } });
    var done = 0;
    d.cached = "0";
    d.audioTotal = String(urls.length);
    if (!window.fetch) return;
    (function one(i) {
      if (i >= urls.length) return;
      fetch(urls[i], { cache: "force-cache" }).then(function (r) { return r.arrayBuffer(); })
        .then(function () { done += 1; d.cached = String(done); one(i + 1); })
        .catch(function () { setTimeout(function () { one(i); }, 3000); });
    })(0);
  }
  function finish() {
    finished = true; playing = false; done = steps.length - 1;
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
    if (paused || finished) return;
    if (waiting) showWait(false); // read again or skip pressed while waiting: it moves on
    if (pos >= 0 && steps[pos].kind === "pause") { done = pos; keep(); }
    if (pos >= steps.length - 1) { finish(); return; }
    pos += 1;
    skippedBlock = -1;
    var step = steps[pos];
    d.position = String(pos);
    preload(pos + 1);
    if (step.kind === "pause") {
      timer = setTimeout(playNext, fast ? 5 : pauseSeconds(pos) * 1000);
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
    var step = steps[pos];
    done = pos;
    log(step.reading === "again" ? "again" : step.kind, step);
    if (step.kind === "read") listed(step);
    d.played = (d.played ? d.played + " " : "") + (step.kind === "phrase" ? step.key : step.card + ":" + step.reading);
    keep();
    if (!paused) playNext();
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
    if (paused || finished) return;
    paused = true;
    var step = pos >= 0 ? steps[pos] : null;
    var cut = playing && step && step.kind !== "pause";
    stopCurrent();
    if (cut) {
      // The reading under way is not counted: it is read again whole on resume.
      pos -= 1;
      log("cut", step);
      note("cut", d.labelCut + ": " + (step.kind === "read" ? step.card + " (" + label(step) + ")" : label(step)));
      showLarge(lastCard());
    } else {
      log("pause");
      note("pause", d.labelPause);
    }
    keep();
    setState("paused");
  }
  // Start on a practice page that offered "continue": the kept game is dropped for this one.
  function newGame() {
    steps = plan.steps.slice(); order = (plan.order || []).slice();
    pos = -1; done = -1; items = [];
    el("reader-read").textContent = "";
    showLarge("");
    buttons["continue"].hidden = true;
    delete d.resumable;
    keep();
  }
  function goOn() { if (!paused) playNext(); else setState("paused"); }
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
      if (!waiting || paused || finished) return;
      showWait(false);
      done = pos;
      log("placed");
      note("placed", d.labelPlaced);
      keep();
      playNext();
    },
    mismatch: function (button) {
      if (!waiting || !button) return;
      log("mismatch", { card: "", reading: button.dataset["case"], key: "" });
      note("mismatch", d.labelMismatch + ": " + button.textContent.trim());
      el("reader-wait-action").textContent = button.textContent.trim();
    },
    resume: function () {
      if (!paused || finished) return;
      paused = false;
      log("resume");
      note("resume", d.labelResume);
      playNext();
    },
    again: function () {
      var index = lastRead();
      if (index < 0 || finished) return;
      var read = steps[index];
      var again = { kind: "read", block: read.block, key: read.key, card: read.card, reading: "again", seconds: 0 };
      var waiting = nextRead();
      // Pressed twice before the extra reading plays (e.g. while paused): read once.
      if (waiting && waiting.reading === "again" && waiting.card === read.card) return;
      if (paused) note("again-queued", d.labelAgainQueued + ": " + read.card);
      if (pos >= 0 && steps[pos].block === skippedBlock) {
        // After a skip while paused: right after the skipped card's steps.
        steps.splice(pos + 1, 0, again);
        keep();
        setState(d.state);
        return;
      }
      if (betweenCards()) {
        // Between cards: the phrase under way is cut, the card is read again now, then the
        // next card's block from its start (docs/rules/reader.md).
        stopCurrent();
        var at = blockStart(steps[pos].block);
        steps.splice(at, 0, again);
        pos = at - 1;
        keep();
        goOn();
        return;
      }
      var extra = steps[pos].kind === "pause" ? [] : [
        { kind: "pause", block: read.block, key: "", card: "", reading: "", seconds: 2 }
      ];
      steps.splice.apply(steps, [pos + 1, 0].concat(extra, [again]));
      keep();
      setState(d.state);
    },
    skip: function () {
      if (finished || pos >= steps.length - 1) return;
      var target = skipTarget();
      if (target.unread && pendingSkip !== target.card) {
        // A card nobody heard is named first; the second press skips it.
        setPending(target.card);
        note("ask", d.labelSkipAsk.replace("%(card)s", target.card));
        return;
      }
      setPending("");
      stopCurrent();
      pos = blockEnd(target.block);
      skippedBlock = target.block; // a second press (while paused) names the next card
      done = pos;
      log("skip", { card: target.card, reading: "", key: "" });
      note("skip", d.labelSkip + ": " + target.card);
      keep();
      goOn();
    }
  };
  root.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-act]");
    if (button && actions[button.dataset.act]) actions[button.dataset.act](button);
  });
  window.addEventListener("online", flush);
  restore();
  preload(Math.max(pos + 1, 0));
  warm();
  setState(finished ? "finished" : "idle");
  flush();
})();
