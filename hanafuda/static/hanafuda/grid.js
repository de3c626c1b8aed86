/* Musashino-bana round grid: tap a side, then tap the cards it captured.
 * Progressive enhancement of the form's radio groups (one per card): without this script
 * the radios are the form. The live summary is drawn at once from the cards, then replaced
 * by the server's scoring of the same taps (every house rule, Storm and Sun included; no
 * save) when the server answers; without an answer the local preview stays.
 * When the house rules depend on when cards were captured (data.needs_order), the taps are
 * also the order of captures: kept in the form's "order" field and numbered on the cards.
 * On the entry page the taps are also kept on the tablet (localStorage) until the round is
 * saved, so a reload, a dropped connection or a tab the browser discarded loses nothing. */
(function () {
  "use strict";
  var dataEl = document.getElementById("hanafuda-grid-data");
  var form = document.querySelector(".round-form");
  if (!form || !dataEl) { return; }
  var data = JSON.parse(dataEl.textContent);
  var summary = form.querySelector(".live-summary");
  var t = summary ? summary.dataset : {};
  var cells = Array.prototype.slice.call(form.querySelectorAll(".hcard"));
  var sideButtons = Array.prototype.slice.call(form.querySelectorAll(".side-button"));
  var restSelect = form.querySelector("select[name=rest]");
  var orderInput = form.querySelector("input[name=order]");
  var byCard = {};
  cells.forEach(function (cell) { byCard[cell.dataset.card] = cell; });
  var sequence = [];  // card ids in the order they were captured (order mode only)
  var active = 0;
  var DRAFT = "hanafuda-draft:";
  var draftKey = form.dataset.draft ? DRAFT + form.dataset.draft : null;
  var DRAFT_HOURS = 12;
  document.documentElement.classList.add("hanafuda-js");

  function radios(cell) { return Array.prototype.slice.call(cell.querySelectorAll("input[type=radio]")); }
  function owner(cell) {
    var r = cell.querySelector("input[type=radio]:checked");
    return r && r.value !== "" ? Number(r.value) : null;
  }
  function setOwner(cell, side) {
    var value = side === null ? "" : String(side);
    radios(cell).forEach(function (r) { r.checked = r.value === value; });
  }
  function readSequence() {
    // The order the form holds (a refused save, a correction, typed by hand): only cards
    // given to a side; the others are named under the field.
    var seen = {};
    var dropped = [];
    sequence = (orderInput ? orderInput.value : "").split(/[\s,、]+/).filter(function (v) {
      var ok = v !== "" && byCard[v] && owner(byCard[v]) !== null && !seen[v];
      if (v !== "" && !ok && !seen[v]) { dropped.push(v); }
      seen[v] = true;
      return ok;
    });
    var note = form.querySelector(".order-note");
    var row = form.querySelector("details.order-row");
    if (note && row) {
      note.textContent = dropped.length ? row.dataset.tDropped + " " + dropped.join(" ") : "";
      note.hidden = !dropped.length;
    }
  }
  var captureNumber = {};
  function numberCaptures() {
    // Cards tapped one after another for the same side and of the same month are one
    // capture, as the server counts them (services.order_of_captures); its messages use
    // these numbers.
    captureNumber = {};
    var k = 0;
    var prev = null;
    sequence.forEach(function (c) {
      var here = { side: owner(byCard[c]), month: Math.floor(Number(c) / 10) };
      if (!prev || prev.side !== here.side || prev.month !== here.month) { k++; }
      captureNumber[c] = k;
      prev = here;
    });
  }
  function paint(cell) {
    var o = owner(cell);
    var seq = cell.querySelector(".seq");
    if (seq) {
      var k = captureNumber[cell.dataset.card];
      seq.textContent = k ? String(k) : "";
    }
    for (var i = 0; i < data.sides.length; i++) { cell.classList.toggle("side-" + i, o === i); }
    cell.classList.toggle("taken", o !== null);
    var face = cell.querySelector(".face");
    cell.querySelector(".owner").textContent = o === null ? "" : data.sides[o];
    face.setAttribute("aria-pressed", o === null ? "false" : "true");
  }
  function formed(pile) {
    var found = [];
    data.yaku.forEach(function (y) {
      var ok = y.slots.every(function (slot) { return slot.some(function (c) { return pile[c]; }); });
      if (ok) { found.push(y); }
    });
    var dropped = {};
    found.forEach(function (y) { y.suppresses.forEach(function (c) { dropped[c] = true; }); });
    return found.filter(function (y) { return !dropped[y.code]; });
  }
  function store(fn) {
    try { return fn(window.localStorage); } catch (e) { return null; }  // storage off or full
  }
  function saveDraft() {
    if (!draftKey) { return; }
    var owners = {};
    var any = false;
    cells.forEach(function (cell) {
      var o = owner(cell);
      if (o !== null) { owners[cell.dataset.card] = o; any = true; }
    });
    store(function (ls) {
      if (any) { ls.setItem(draftKey, JSON.stringify({ owners: owners, order: sequence, at: Date.now() })); }
      else { ls.removeItem(draftKey); }
    });
  }
  function restoreDraft() {
    // Only into an untouched form: a refused save or a cached page already shows its taps.
    if (!draftKey || cells.some(function (cell) { return owner(cell) !== null; })) { return false; }
    var draft = store(function (ls) { return JSON.parse(ls.getItem(draftKey) || "null"); });
    if (!draft || !draft.owners || Date.now() - (draft.at || 0) > DRAFT_HOURS * 3600 * 1000) { return false; }
    var restored = false;
    Object.keys(draft.owners).forEach(function (card) {
      var side = Number(draft.owners[card]);
      if (byCard[card] && side >= 0 && side < data.sides.length) { setOwner(byCard[card], side); restored = true; }
    });
    sequence = (draft.order || []).filter(function (c) { return byCard[c] && owner(byCard[c]) !== null; });
    return restored;
  }
  function forgetDrafts() {
    // The rounds before this one are saved, and so is a round whose page shows its correction form.
    var here = (form.dataset.draft || form.dataset.forgetDraft || "").split(":");
    if (here.length !== 2) { return; }
    store(function (ls) {
      for (var i = ls.length - 1; i >= 0; i--) {
        var key = ls.key(i);
        var parts = key && key.indexOf(DRAFT) === 0 ? key.slice(DRAFT.length).split(":") : null;
        if (parts && parts[0] === here[0] &&
            (Number(parts[1]) < Number(here[1]) || (form.dataset.forgetDraft && parts[1] === here[1]))) {
          ls.removeItem(key);
        }
      }
    });
  }
  function update() {
    if (data.needs_order) {
      sequence = sequence.filter(function (c) { return owner(byCard[c]) !== null; });
      if (orderInput) { orderInput.value = sequence.join(" "); }
      numberCaptures();
    }
    cells.forEach(paint);
    saveDraft();
    if (!summary) { return; }
    var piles = data.sides.map(function () { return {}; });
    var counts = data.sides.map(function () { return 0; });
    var left = 0;
    cells.forEach(function (cell) {
      var o = owner(cell);
      if (o === null) { left++; } else { piles[o][Number(cell.dataset.card)] = true; counts[o]++; }
    });
    summary.textContent = "";
    var insta = null;
    data.sides.forEach(function (name, i) {
      var yaku = formed(piles[i]);
      var instaYaku = yaku.filter(function (y) { return y.insta; });
      if (instaYaku.length) { insta = { side: name, yaku: instaYaku }; }
      var normal = yaku.filter(function (y) { return !y.insta; });
      var pts = normal.reduce(function (a, y) { return a + y.value; }, 0);
      var odd = [];
      for (var m = 1; m <= 12; m++) {
        var n = 0;
        for (var r = 0; r < 4; r++) { if (piles[i][m * 10 + r]) { n++; } }
        if (n % 2) { odd.push(m); }
      }
      var line = document.createElement("div");
      line.className = "sum-line side-" + i;
      var who = document.createElement("strong");
      who.textContent = name;
      line.appendChild(who);
      line.appendChild(document.createTextNode(" " + counts[i] + " " + t.tCards + " ・ "));
      var yakuText = document.createElement("span");
      yakuText.className = "yaku-text";
      yakuText.textContent = normal.length ?
        normal.map(function (y) { return y.name + " " + y.value; }).join("、") + " = " + pts + " " + t.tPts : t.tNone;
      line.appendChild(yakuText);
      if (odd.length) {
        var warn = document.createElement("span");
        warn.className = "odd";
        warn.textContent = " ⚠ " + t.tOdd + ": " + odd.join(", ");
        line.appendChild(warn);
      }
      summary.appendChild(line);
    });
    if (insta) {
      var banner = document.createElement("div");
      banner.className = "insta-banner";
      banner.textContent = insta.side + ": " + insta.yaku.map(function (y) { return y.name; }).join("、") + " — " + t.tInsta;
      summary.insertBefore(banner, summary.firstChild);
    }
    var foot = document.createElement("div");
    foot.className = "small muted";
    var leftText = document.createTextNode(left + " " + t.tLeft + " ・ ");
    var note = document.createElement("span");
    note.className = "preview-note";
    note.textContent = t.tNote;
    foot.appendChild(leftText);
    foot.appendChild(note);
    summary.appendChild(foot);
    requestPreview();
  }
  var previewUrl = form.dataset.preview;
  var previewTimer = null;
  var previewAsked = 0;
  function requestPreview() {
    // Every change of the taps asks for a preview, numbered in data-preview-asked at once
    // (the request itself leaves after a 300 ms pause, so that quick taps make one request);
    // data-preview-answered is the number whose answer the summary shows. Only the answer to
    // the latest taps is shown, so the two are equal exactly when the server's scoring of
    // what the grid shows is on screen (tests wait for that instead of a fixed time).
    if (!previewUrl || !summary || !window.fetch || !window.FormData) { return; }
    if (previewTimer) { clearTimeout(previewTimer); }
    var mine = ++previewAsked;
    summary.dataset.previewAsked = String(mine);
    previewTimer = setTimeout(function () {
      previewTimer = null;
      fetch(previewUrl, { method: "POST", body: new FormData(form), credentials: "same-origin",
                          headers: { Accept: "application/json" } })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (answer) { if (answer && mine === previewAsked) { showScored(answer, mine); } })
        .catch(function () { /* no answer (offline): the local preview stays */ });
    }, 300);
  }
  function showScored(answer, number) {
    summary.dataset.previewAnswered = String(number);
    var lines = summary.querySelectorAll(".sum-line");
    var old = summary.querySelector(".server-problem");
    if (old) { old.parentNode.removeChild(old); }
    if (answer.problem) {
      var problem = document.createElement("div");
      problem.className = "server-problem odd";
      problem.textContent = "⚠ " + answer.problem;
      summary.insertBefore(problem, summary.firstChild);
      return;
    }
    answer.sides.forEach(function (side, i) {
      var line = lines[i];
      if (!line) { return; }
      line.querySelector(".yaku-text").textContent = side.yaku.length ?
        side.yaku.join("、") + " = " + side.score + " " + t.tPts : t.tNone;
      side.storm.forEach(function (text) {
        var storm = document.createElement("span");
        storm.className = "storm";
        storm.textContent = " ・ " + text;
        line.appendChild(storm);
      });
    });
    var banner = summary.querySelector(".insta-banner");
    if (banner) { banner.parentNode.removeChild(banner); }
    if (answer.insta) {
      banner = document.createElement("div");
      banner.className = "insta-banner";
      banner.textContent = answer.insta.side + ": " + answer.insta.yaku.join("、") + " — " + t.tInsta;
      summary.insertBefore(banner, summary.firstChild);
    }
    if (answer.sun) {
      var sun = document.createElement("div");
      sun.className = "storm small";
      sun.textContent = t.tSun + ": " + answer.sun;
      summary.insertBefore(sun, summary.lastChild);
    }
    var note = summary.querySelector(".preview-note");
    if (note) { note.textContent = t.tServer; }
  }
  var memoryKey = "hanafuda-active-side:" + location.pathname;
  function selectSide(i) {
    active = i;
    try { sessionStorage.setItem(memoryKey, String(i)); } catch (e) { /* private mode: no memory */ }
    sideButtons.forEach(function (b) { b.setAttribute("aria-pressed", Number(b.dataset.side) === i ? "true" : "false"); });
    form.dataset.active = String(i);
  }
  cells.forEach(function (cell) {
    var face = cell.querySelector(".face");
    face.setAttribute("role", "button");
    face.setAttribute("tabindex", "0");
    function toggle() {
      var before = owner(cell);
      setOwner(cell, before === active ? null : active);
      // A newly taken card is the latest capture; giving a card to another side keeps its place.
      if (data.needs_order && before === null) { sequence.push(cell.dataset.card); }
      var note = form.querySelector(".order-note");
      if (note) { note.hidden = true; }
      update();
    }
    face.addEventListener("click", toggle);
    face.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); }
    });
    cell.addEventListener("change", function () {  // a radio chosen from the keyboard
      if (data.needs_order && owner(cell) !== null && sequence.indexOf(cell.dataset.card) < 0) {
        sequence.push(cell.dataset.card);
      }
      update();
    });
  });
  sideButtons.forEach(function (b) { b.addEventListener("click", function () { selectSide(Number(b.dataset.side)); }); });
  form.querySelectorAll(".rest-button").forEach(function (b) {
    b.addEventListener("click", function () {
      var side = Number(b.dataset.side);
      cells.forEach(function (cell) { if (owner(cell) === null) { setOwner(cell, side); } });
      if (restSelect) { restSelect.value = ""; }
      update();
    });
  });
  var clear = form.querySelector(".clear-button");
  if (clear) {
    clear.addEventListener("click", function () {
      var taken = cells.some(function (cell) { return owner(cell) !== null; });
      if (taken && clear.dataset.confirm && !window.confirm(clear.dataset.confirm)) { return; }
      cells.forEach(function (cell) { setOwner(cell, null); });
      sequence = [];
      update();
    });
  }
  var remembered;
  try { remembered = sessionStorage.getItem(memoryKey); } catch (e) { remembered = null; }
  // After a refused save the page comes back with the taps kept: keep the chosen side too.
  var keep = form.querySelector(".form-error") && remembered !== null && Number(remembered) < data.sides.length;
  selectSide(keep ? Number(remembered) : 0);
  if (data.needs_order) {
    readSequence();
    if (orderInput) {
      // The order typed by hand (to put a forgotten card back in its place).
      orderInput.addEventListener("change", function () { readSequence(); update(); });
    }
    var typed = form.querySelector("details.order-row");
    if (typed && !typed.querySelector(".errorlist")) { typed.open = false; }
  }
  forgetDrafts();
  if (restoreDraft()) {
    var note = form.querySelector(".draft-note");
    if (note) { note.hidden = false; }
  }
  update();
  // The form has autocomplete="off" so Back does not restore old choices; should a browser
  // restore them anyway (or show the page from its cache), paint what the form will send.
  window.addEventListener("pageshow", update);
  window.addEventListener("load", update);
}());
