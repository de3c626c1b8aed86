// Results that survive a dropped connection (issue 16, item 2).
// The court pages run over the venue's plain http, where browsers allow no service worker,
// so this page script keeps every result the server has not acknowledged in localStorage
// (its fields, submission key and base version), shows it, sends it again on its own with
// back-off and on a tap, and tells the desk's court board how many it holds. The server is
// exact about resends (same key, same values: the same version), so a retry after a lost
// answer never makes a second version. Without this script the forms post as usual.
// Each kept result belongs to its event and its court link (issue 29, item 6): a tablet
// reused from another event (a rehearsal) or another court's link shows such a result apart,
// naming its event, court and game, never sends it on its own and never counts it on this
// court's board; the referee can send it to its own link (if that link still works, else the
// server says so) or discard it after a question.
(function () {
  "use strict";
  var box = document.getElementById("unsent");
  if (!box || !window.localStorage || !window.fetch || !window.FormData || !window.URLSearchParams) return;
  var d = box.dataset;
  var STORE = "karuta.unsent.v1:", SENT = "karuta.sent.v1:";
  var FIRST_DELAY = 2000, MAX_DELAY = 60000, HEARTBEAT = 60000, SENT_SHOWN = 10 * 60000;
  var sending = false, delay = 0, nextAt = 0, timer = null, lastReport = null;

  // One localStorage entry per result (PREFIX + submission key): tabs of the same tablet never
  // rewrite each other's list, and an entry is removed only once the server acknowledged it.
  function load(prefix) {
    var list = [];
    for (var n = 0; n < localStorage.length; n++) {
      var name = localStorage.key(n);
      if (name && name.indexOf(prefix) === 0) {
        try { var v = JSON.parse(localStorage.getItem(name)); if (v && v.key) list.push(v); } catch (e) { /* skip */ }
      }
    }
    return list.sort(function (a, b) { return a.at - b.at; });
  }
  function put(prefix, item) {
    try { localStorage.setItem(prefix + item.key, JSON.stringify(item)); return true; } catch (e) { return false; }
  }
  function t(name, vars) {
    var s = d["t" + name] || "";
    Object.keys(vars || {}).forEach(function (k) { s = s.split("{" + k + "}").join(vars[k]); });
    return s;
  }
  function esc(s) {
    return String(s == null ? "" : s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function field(fields, name) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === name) return fields[i][1];
    return "";
  }
  function clock(ms) {
    var when = new Date(ms);
    return ("0" + when.getHours()).slice(-2) + ":" + ("0" + when.getMinutes()).slice(-2);
  }
  function update(key, changes) {
    var raw = localStorage.getItem(STORE + key);
    if (raw === null) return; // acknowledged meanwhile (by another tab)
    var item = JSON.parse(raw);
    Object.keys(changes).forEach(function (k) { item[k] = changes[k]; });
    put(STORE, item);
  }
  function drop(key) { localStorage.removeItem(STORE + key); }

  // The court link a result was typed on: "/court/<token>/" (from its address for results
  // kept before the link was stored with them).
  function linkOf(item) {
    if (item.link) return item.link;
    try { return (new URL(item.url, location.href).pathname.match(/^\/court\/[^/]+\//) || [""])[0]; } catch (e) { return ""; }
  }
  function mine(item) { return !d.link || linkOf(item) === d.link; }
  function own() { return load(STORE).filter(mine); }
  function others() { return load(STORE).filter(function (i) { return !mine(i); }); }

  // What the referee typed, in one line: the cards, the referee's cards, 「り」, じゃんけん.
  function valuesText(fields) {
    if (field(fields, "action") === "walkover") return d.tWalkover + ": " + field(fields, "absent_side");
    var side = function (v) { return v === "referee" ? d.tReferee : v; };
    var text = "A " + field(fields, "cards_a") + " – B " + field(fields, "cards_b");
    var ref = field(fields, "referee_cards");
    if (ref && ref !== "0") text += " ・ " + d.tReferee + " " + ref;
    if (field(fields, "joker_holder")) text += " ・ 「り」 " + side(field(fields, "joker_holder"));
    if (field(fields, "rps_winner")) text += " ・ " + (d.tRps || "RPS") + " " + field(fields, "rps_winner");
    return text;
  }

  function errorsOf(html) {
    try {
      var doc = new DOMParser().parseFromString(html, "text/html");
      var found = [];
      doc.querySelectorAll("main .errorlist li, main ul.messages li.error").forEach(function (n) {
        var s = n.textContent.trim();
        if (s && found.indexOf(s) < 0) found.push(s);
      });
      return found.join(" ");
    } catch (e) { return ""; }
  }

  // The server's answer, by kind. A redirect to the "saved" page is the acknowledgement.
  function kindOf(res) {
    if (res.redirected && /\/saved\/\d+\/$/.test(new URL(res.url).pathname)) return "saved";
    if (res.status === 409) return "conflict";
    if (res.status === 404 || res.status === 410) return "gone";
    if (res.status === 200) return "refused";
    return "retry"; // busy database (503), an expired CSRF token (403), anything else: try again
  }

  function post(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (p) { body.append(p[0], p[1]); });
    body.append("csrfmiddlewaretoken", d.csrf);
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store", redirect: "follow",
      headers: { "X-CSRFToken": d.csrf }
    });
  }

  // Show the server's own page for an item (the conflict page, or the form with its errors):
  // an ordinary form post, so the values are on screen and a reload sends them again.
  function show(item) {
    var form = document.createElement("form");
    form.method = "post";
    form.action = item.url;
    item.fields.concat([["csrfmiddlewaretoken", d.csrf]]).forEach(function (p) {
      var input = document.createElement("input");
      input.type = "hidden"; input.name = p[0]; input.value = p[1];
      form.appendChild(input);
    });
    document.body.appendChild(form);
    HTMLFormElement.prototype.submit.call(form);
  }

  // Whether this page is the entry form of ``item`` (then its outcome is shown as a page).
  function onItsPage(item) {
    return !!d.intercept && Array.prototype.some.call(document.querySelectorAll("main input[name=submission_key]"),
      function (input) { return input.value === item.key; });
  }

  function settle(item, kind, res, html, foreground) {
    foreground = foreground || onItsPage(item);
    if (kind === "saved") {
      drop(item.key);
      var version = (new URL(res.url).pathname.match(/\/saved\/(\d+)\/$/) || [])[1];
      load(SENT).forEach(function (s) { if (Date.now() - s.at >= SENT_SHOWN) localStorage.removeItem(SENT + s.key); });
      put(SENT, { key: item.key, label: item.label, values: item.values, version: version, at: Date.now() });
      if (foreground) { location.assign(res.url); return; }
    } else if (kind === "retry") {
      update(item.key, { state: "waiting", tries: (item.tries || 0) + 1 });
    } else {
      update(item.key, { state: kind, error: kind === "refused" ? errorsOf(html) : "" });
      if (foreground && kind !== "gone") { show(item); return; }
    }
    render();
    report();
  }

  function attempt(item, foreground) {
    sending = true;
    render();
    return post(item)
      .then(function (res) { return res.text().then(function (html) { return { res: res, html: html }; }); })
      .then(function (r) {
        sending = false;
        var kind = kindOf(r.res);
        if (kind !== "retry") delay = 0;
        settle(item, kind, r.res, r.html, foreground);
        return kind;
      }, function () {
        sending = false;
        settle(item, "retry", null, "", foreground);
        return "retry";
      });
  }

  function waiting() { return own().filter(function (i) { return i.state === "waiting"; }); }

  // Send the waiting results one at a time, oldest first; after a failure wait longer each time.
  function flush() {
    clearTimeout(timer);
    timer = null;
    if (sending) return;
    var next = waiting()[0];
    if (!next) { nextAt = 0; render(); return; }
    attempt(next, false).then(function (kind) {
      if (kind === "retry") schedule(); else flush();
    });
  }

  function schedule() {
    clearTimeout(timer);
    delay = Math.min(MAX_DELAY, delay ? delay * 2 : FIRST_DELAY);
    nextAt = Date.now() + delay;
    timer = setTimeout(flush, delay);
    render();
  }

  function now() { delay = 0; flush(); }

  // Tell the desk's court board that this tablet is here and how many results it holds.
  function report(force) {
    var count = own().length; // a result of another event or court link is never counted here
    if (!force && count === lastReport) return;
    lastReport = count;
    var body = new URLSearchParams();
    body.append("unsent", String(Math.min(count, 999)));
    fetch(d.heardUrl, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store", headers: { "X-CSRFToken": d.csrf }
    }).catch(function () { lastReport = null; });
  }

  function itemHtml(i) {
    var state = { conflict: d.tConflict, gone: d.tGone, refused: t("Refused", { error: i.error || "" }) }[i.state] || "";
    var buttons = "";
    if (i.state === "conflict" || i.state === "refused") {
      buttons += '<button type="button" class="small" data-show="' + esc(i.key) + '">' + esc(d.tShow) + "</button> ";
    }
    if (i.state !== "waiting") {
      buttons += '<button type="button" class="small secondary" data-discard="' + esc(i.key) + '">' + esc(d.tDiscard) + "</button>";
    }
    return '<li data-key="' + esc(i.key) + '"><strong>' + esc(i.label) + "</strong> " + esc(i.values) +
      ' <span class="muted small">' + esc(t("KeptAt", { time: clock(i.at) })) + "</span>" +
      (state ? '<br><span class="error">' + esc(state) + "</span> " : "") + buttons + "</li>";
  }

  function whereText(i) {
    return t("Where", { event: i.eventName || d.tUnknownEvent, court: i.courtName || "?", game: i.label });
  }

  function elsewhereHtml(i) {
    var state = { conflict: d.tConflict, gone: d.tGone, refused: t("Refused", { error: i.error || "" }) }[i.state] || "";
    return '<li data-key="' + esc(i.key) + '"><strong>' + esc(whereText(i)) + "</strong> " + esc(i.values) +
      ' <span class="muted small">' + esc(t("KeptAt", { time: clock(i.at) })) + "</span>" +
      (state ? '<br><span class="error">' + esc(state) + "</span>" : "") + "<br>" +
      '<button type="button" class="small" data-elsewhere-send="' + esc(i.key) + '">' + esc(d.tSendOwn) + "</button> " +
      '<button type="button" class="small secondary" data-discard="' + esc(i.key) + '">' + esc(d.tDiscard) + "</button></li>";
  }

  function statusText() {
    var status = sending ? d.tSending : (navigator.onLine === false ? d.tOffline : "");
    if (!sending && nextAt && waiting().length) {
      status += " " + t("Next", { s: Math.max(0, Math.ceil((nextAt - Date.now()) / 1000)) });
    }
    return status;
  }

  function render() {
    var list = own(), away = others();
    var sent = load(SENT).filter(function (s) { return Date.now() - s.at < SENT_SHOWN; }).reverse().slice(0, 5);
    var html = "";
    if (list.length) {
      html += '<div class="unsent-queue"><h2>' + esc(t("Title", { n: list.length })) + "</h2>" +
        '<p class="small unsent-status">' + esc(statusText()) + "</p><ul>" + list.map(itemHtml).join("") + "</ul>" +
        (waiting().length ? '<button type="button" class="unsent-send" data-send>' + esc(d.tSendNow) + "</button>" : "") +
        "</div>";
    }
    if (away.length) {
      html += '<div class="unsent-elsewhere"><h2>' + esc(t("Elsewhere", { n: away.length })) + "</h2>" +
        '<p class="small">' + esc(d.tElsewhereHelp) + "</p><ul>" + away.map(elsewhereHtml).join("") + "</ul></div>";
    }
    if (sent.length) {
      html += '<ul class="unsent-sent">' + sent.map(function (s) {
        return "<li>✔ " + esc(t("Sent", { game: s.label, version: s.version, time: clock(s.at) })) + " " + esc(s.values) + "</li>";
      }).join("") + "</ul>";
    }
    box.innerHTML = html;
    box.classList.toggle("has-queue", list.length > 0 || away.length > 0);
    box.hidden = !html;
  }

  box.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) return;
    if (b.hasAttribute("data-send")) now();
    var key = b.getAttribute("data-show") || b.getAttribute("data-discard") || b.getAttribute("data-elsewhere-send");
    var item = load(STORE).filter(function (i) { return i.key === key; })[0];
    if (!item) return;
    if (b.hasAttribute("data-show")) show(item);
    else if (b.hasAttribute("data-elsewhere-send")) { if (!sending) attempt(item, true); }
    else if (window.confirm(mine(item) ? d.tDiscardAsk : t("DiscardElsewhereAsk", { where: whereText(item) }))) {
      drop(key); render(); report();
    }
  });

  // The referee's 保存 on the entry page: keep the result first, then send it.
  function intercept(form) {
    form.addEventListener("submit", function (e) {
      var keyInput = form.querySelector("input[name=submission_key]");
      if (!keyInput.value) keyInput.value = Math.random().toString(16).slice(2) + Date.now().toString(16);
      var fields = [];
      new FormData(form).forEach(function (v, n) { if (n !== "csrfmiddlewaretoken") fields.push([n, String(v)]); });
      var item = {
        key: keyInput.value, url: location.href.split("#")[0], base: field(fields, "base_version"),
        fields: fields, label: d.game, values: valuesText(fields), at: Date.now(), state: "waiting", tries: 0,
        link: d.link || "", event: d.event || "", eventName: d.eventName || "", courtName: d.courtName || ""
      };
      if (!put(STORE, item)) return; // no room on the tablet: post as usual
      e.preventDefault();
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      clearTimeout(timer);
      (sending ? Promise.resolve("retry") : attempt(item, true)).then(function (kind) {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        if (kind === "retry" || kind === "gone") box.scrollIntoView({ block: "start" }); // say it where the eyes go
        if (kind === "retry") schedule();
        else if (kind === "gone") flush();
      });
    });
  }

  // A page that shows an unsent result's values again (the conflict page, or the form with the
  // server's errors) takes it over: the referee decides there, so the tablet no longer holds it.
  if (d.doneKey) drop(d.doneKey);
  if (d.intercept) {
    document.querySelectorAll("main form[method=post]").forEach(function (form) {
      var keyInput = form.querySelector("input[name=submission_key]");
      if (!keyInput) return;
      var queued = load(STORE).filter(function (i) { return i.key === keyInput.value && i.state !== "waiting"; });
      if (keyInput.value && queued.length) drop(keyInput.value);
      intercept(form);
    });
  }

  window.addEventListener("online", now);
  window.addEventListener("offline", render);
  window.addEventListener("storage", function () { render(); report(); });
  setInterval(function () {
    var line = box.querySelector(".unsent-status");
    if (line) line.textContent = statusText();
  }, 1000);
  setInterval(function () { report(true); }, HEARTBEAT);
  render();
  report(true);
  now();
})();
