// The reader (読み手, issue 21): plays the steps of a reading (docs/rules/reader.md) through one
// plain <audio> element, shows the card just read large and the cards read so far, and keeps
// every log line in localStorage until the server has it (like offline.js for results), so the
// reading goes on when the Wi-Fi drops. The operations mirror reader/engine/sequence.py:
// pause/resume, read again (the card read last, once more), skip (the rest of the current card).
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
  var pos = -1, paused = false, started = false, finished = false, timer = null, playing = false;
  var audio = document.getElementById("reader-audio");
  var preloaded = {};
  var el = function (id) { return document.getElementById(id); };
  var buttons = {};
  root.querySelectorAll("button[data-act]").forEach(function (b) { buttons[b.dataset.act] = b; });

  // ---- the log, kept until the server has it -------------------------------------------
  var store = d.store || "";
  var queue = [], seq = 0, sending = false, backoff = 1000;
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
    el("reader-status").textContent = queue.length ? d.labelQueued + ": " + queue.length + (refusal ? " — " + refusal : "") : d.labelSent;
  }
  var refusal = ""; // the server's sentence when it refused a batch (kept here, sent again later)
  function flush() {
    if (!d.linesUrl || sending || !queue.length || !window.fetch) { showQueue(); return; }
    sending = true;
    var batch = queue.slice(0, 200);
    fetch(d.linesUrl, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json", "X-CSRFToken": d.csrf },
      body: JSON.stringify({ lines: batch, sent: Date.now() }) // sent: the server corrects this clock's error
    }).then(function (r) {
      return r.json().then(function (body) { return { ok: r.ok, body: body }; });
    }).then(function (res) {
      sending = false;
      if (res.ok) {
        var done = {};
        (res.body.stored || []).forEach(function (n) { done[n] = true; });
        queue = queue.filter(function (line) { return !done[line.seq]; });
        save(); backoff = 1000; refusal = ""; showQueue();
        if (queue.length) flush();
      } else { refusal = (res.body && res.body.error) || ""; retry(); }
    }).catch(function () { sending = false; retry(); });
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
  function show(step) {
    el("reader-step").textContent = label(step);
    if (step.kind !== "read") return;
    el("reader-kana").textContent = step.card;
    el("reader-text").textContent = plan.cards[step.card] || "";
    var item = document.createElement("li");
    item.textContent = clock() + "  " + step.card + "  " + (plan.cards[step.card] || "") + " (" + label(step) + ")";
    item.dataset.card = step.card;
    item.dataset.reading = step.reading;
    var list = el("reader-read");
    list.insertBefore(item, list.firstChild);
  }
  function note(kind, text) {
    var item = document.createElement("li");
    item.className = "muted";
    item.textContent = clock() + "  " + text;
    item.dataset.kind = kind;
    var list = el("reader-read");
    list.insertBefore(item, list.firstChild);
  }
  function setState(state) {
    d.state = state;
    buttons.start.disabled = started;
    buttons.pause.disabled = !started || paused || finished;
    buttons.resume.disabled = !paused || finished;
    buttons.again.disabled = !started || finished || !lastCard();
    buttons.skip.disabled = !started || finished || pos >= steps.length - 1;
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
    finished = true; playing = false;
    log("end");
    el("reader-step").textContent = d.labelEnd;
    setState("finished");
  }
  function playNext() {
    timer = null;
    if (paused || finished) return;
    if (pos >= steps.length - 1) { finish(); return; }
    pos += 1;
    var step = steps[pos];
    d.position = String(pos);
    preload(pos + 1);
    if (step.kind === "pause") {
      timer = setTimeout(playNext, fast ? 5 : pauseSeconds(pos) * 1000);
      setState("playing");
      return;
    }
    log(step.reading === "again" ? "again" : step.kind, step);
    show(step);
    d.played = (d.played ? d.played + " " : "") + (step.kind === "phrase" ? step.key : step.card + ":" + step.reading);
    playing = true;
    audio.src = plan.audio[step.key];
    audio.playbackRate = fast ? 16 : 1;
    setState("playing");
    var started_ = audio.play();
    if (started_ && started_.catch) started_.catch(function () { /* reported by the error event */ });
  }
  audio.addEventListener("ended", function () {
    playing = false;
    if (!paused) playNext();
  });
  audio.addEventListener("error", function () {
    if (!playing) return;
    playing = false;
    el("reader-status").textContent = d.labelAudioError;
    doPause();
  });
  audio.addEventListener("ratechange", function () { if (fast && audio.playbackRate !== 16) audio.playbackRate = 16; });

  function lastCard() {
    for (var i = pos; i >= 0; i--) if (steps[i].kind === "read") return steps[i].card;
    return "";
  }
  function stopCurrent() {
    if (timer) { clearTimeout(timer); timer = null; }
    if (playing) { playing = false; audio.pause(); }
  }
  function doPause() {
    if (paused || finished) return;
    paused = true;
    stopCurrent();
    log("pause");
    note("pause", d.labelPause);
    setState("paused");
  }
  function blockEnd(block) {
    var end = -1;
    steps.forEach(function (s, i) { if (s.block === block) end = i; });
    return end;
  }
  var actions = {
    start: function () {
      if (started) return;
      started = true;
      playNext();
    },
    pause: doPause,
    resume: function () {
      if (!paused || finished) return;
      paused = false;
      log("resume");
      note("resume", d.labelResume);
      playNext();
    },
    again: function () {
      var card = lastCard();
      if (!card || finished) return;
      var block = pos >= 0 ? steps[pos].block : 0;
      var extra = [];
      if (steps[pos].kind !== "pause") extra.push({ kind: "pause", block: block, key: "", card: "", reading: "", seconds: steps[pos].seconds || 2 });
      extra.push({ kind: "read", block: block, key: "card:" + card, card: card, reading: "again", seconds: 0 });
      steps.splice.apply(steps, [pos + 1, 0].concat(extra));
      setState(d.state);
    },
    skip: function () {
      if (finished || pos >= steps.length - 1) return;
      var block = pos >= 0 ? steps[pos].block : 0;
      if (pos >= 0 && blockEnd(block) === pos) block += 1;
      var first = null;
      steps.forEach(function (s) { if (!first && s.block === block && s.kind === "read") first = s; });
      stopCurrent();
      pos = blockEnd(block);
      log("skip", first);
      note("skip", d.labelSkip + ": " + (first ? first.card : ""));
      if (!paused) playNext(); else setState("paused");
    }
  };
  root.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-act]");
    if (button && actions[button.dataset.act]) actions[button.dataset.act]();
  });
  window.addEventListener("online", flush);
  preload(0);
  warm();
  setState("idle");
  flush();
})();
