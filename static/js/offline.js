// Results that survive a dropped connection (issue 16, item 2), kept by static/js/outbox.js
// (issue 30: one outbox for the court tablet and the reader).
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
  if (!box || !window.localStorage || !window.fetch || !window.FormData || !window.URLSearchParams || !window.KarutaOutbox) return;
  var Outbox = window.KarutaOutbox;
  var d = box.dataset;
  var HEARTBEAT = 60000, SENT_SHOWN = 10 * 60000;
  var lastReport = null, foreground = "";

  function t(name, vars) {
    var s = d["t" + name] || "";
    Object.keys(vars || {}).forEach(function (k) { s = s.split("{" + k + "}").join(vars[k]); });
    return s;
  }
  function esc(s) {
    return String(s === null || s === undefined ? "" : s).replace(/[&<>"']/g, function (c) {
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

  // The court link a result was typed on: "/court/<token>/" (from its address for results
  // kept before the link was stored with them).
  function linkOf(item) {
    if (item.link) return item.link;
    try { return (new URL(item.url, location.href).pathname.match(/^\/court\/[^/]+\//) || [""])[0]; } catch (e) { return ""; }
  }
  function mine(item) { return !d.link || linkOf(item) === d.link; }

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

  // The server's answer, in the outbox's kinds. A redirect to the "saved" page is the
  // acknowledgement; the entry form shown again (200) is a refusal with its errors; 409 is a
  // refusal too (someone else saved the game: the conflict page compares the two).
  function answerOf(res, html) {
    var saved = res.redirected && new URL(res.url).pathname.match(/\/saved\/(\d+)\/$/);
    if (saved) return { kind: Outbox.SENT, url: res.url, receipt: { version: saved[1] } };
    if (res.status === 409) return { kind: Outbox.REFUSED, state: "conflict" };
    if (res.status === 404 || res.status === 410) return { kind: Outbox.GONE };
    if (res.status === 200) return { kind: Outbox.REFUSED, reason: errorsOf(html) };
    return { kind: Outbox.RETRY }; // busy database (503), an expired CSRF token (403), anything else
  }

  function post(item) {
    var body = new URLSearchParams();
    item.fields.forEach(function (p) { body.append(p[0], p[1]); });
    body.append("csrfmiddlewaretoken", d.csrf);
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store", redirect: "follow",
      headers: { "X-CSRFToken": d.csrf }
    }).then(function (res) { return res.text().then(function (html) { return answerOf(res, html); }); });
  }

  // One entry per result (the outbox's prefix + submission key); what older versions kept
  // under their own keys is moved over first (never lost by an upgrade).
  var outbox = Outbox.create({
    storage: localStorage, name: "court", batch: 1, firstDelay: 2000, maxDelay: 60000, receiptsFor: SENT_SHOWN,
    eligible: mine, // a result of another event or court link is never sent on its own
    send: function (items) { return post(items[0]); },
    onChange: function () { render(); },
    onAnswer: function (items, answer) { answered(items, answer); }
  });
  Outbox.fromCourtV1(localStorage, outbox);

  function own() { return outbox.list(mine); }
  function others() { return outbox.list(function (i) { return !mine(i); }); }

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

  // Send one result now (the referee's 保存, or "send to its own link"): its outcome is shown
  // as a page (see ``answered``).
  function attempt(item) {
    foreground = item.key;
    return outbox.attempt([item]).then(function (answer) { return answer.kind; });
  }

  // Every answer, sent in the foreground or by the outbox's own retries: the desk's board
  // learns the count, and a result sent from its own form (or sent on a tap) shows its outcome
  // as a page (the "saved" page, the conflict page, the form with the server's errors).
  function answered(items, answer) {
    var item = items[0], asked = foreground === item.key;
    if (asked) foreground = "";
    if (asked || onItsPage(item)) {
      if (answer.kind === Outbox.SENT) { location.assign(answer.url); return; }
      if (answer.kind === Outbox.REFUSED) { show(item); return; }
    }
    report();
  }

  function now() { outbox.sendNow(); }

  // Tell the desk's court board that this tablet is here and how many results it holds.
  function report(force) {
    var count = outbox.held(); // a result of another event or court link is never counted here
    if (!force && count === lastReport) return;
    lastReport = count;
    var body = new URLSearchParams();
    body.append("unsent", String(Math.min(count, 999)));
    fetch(d.heardUrl, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store", headers: { "X-CSRFToken": d.csrf }
    }).catch(function () { lastReport = null; });
  }

  function stateText(i) {
    return { conflict: d.tConflict, gone: d.tGone, refused: t("Refused", { error: i.error || "" }) }[i.state] || "";
  }

  function itemHtml(i) {
    var state = stateText(i);
    var buttons = "";
    if (i.state === "conflict" || i.state === "refused") {
      buttons += '<button type="button" class="small" data-show="' + esc(i.key) + '">' + esc(d.tShow) + "</button> ";
    }
    if (i.state !== Outbox.WAITING) {
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
    var state = stateText(i);
    return '<li data-key="' + esc(i.key) + '"><strong>' + esc(whereText(i)) + "</strong> " + esc(i.values) +
      ' <span class="muted small">' + esc(t("KeptAt", { time: clock(i.at) })) + "</span>" +
      (state ? '<br><span class="error">' + esc(state) + "</span>" : "") + "<br>" +
      '<button type="button" class="small" data-elsewhere-send="' + esc(i.key) + '">' + esc(d.tSendOwn) + "</button> " +
      '<button type="button" class="small secondary" data-discard="' + esc(i.key) + '">' + esc(d.tDiscard) + "</button></li>";
  }

  function statusText() {
    var status = outbox.sending ? d.tSending : (navigator.onLine === false ? d.tOffline : "");
    if (!outbox.sending && outbox.nextAt && outbox.waiting().length) {
      status += " " + t("Next", { s: Math.max(0, Math.ceil((outbox.nextAt - Date.now()) / 1000)) });
    }
    return status;
  }

  function render() {
    var list = own(), away = others();
    var sent = outbox.sentLately().reverse().slice(0, 5);
    var html = "";
    if (list.length) {
      html += '<div class="unsent-queue"><h2>' + esc(t("Title", { n: list.length })) + "</h2>" +
        '<p class="small unsent-status">' + esc(statusText()) + "</p><ul>" + list.map(itemHtml).join("") + "</ul>" +
        (outbox.waiting().length ? '<button type="button" class="unsent-send" data-send>' + esc(d.tSendNow) + "</button>" : "") +
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
    var item = key ? outbox.get(key) : null;
    if (!item) return;
    if (b.hasAttribute("data-show")) show(item);
    else if (b.hasAttribute("data-elsewhere-send")) { if (!outbox.sending) attempt(item); }
    else if (window.confirm(mine(item) ? d.tDiscardAsk : t("DiscardElsewhereAsk", { where: whereText(item) }))) {
      outbox.drop(key); report();
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
        fields: fields, label: d.game, values: valuesText(fields), at: Date.now(), state: Outbox.WAITING, tries: 0,
        link: d.link || "", event: d.event || "", eventName: d.eventName || "", courtName: d.courtName || ""
      };
      if (!outbox.add(item)) return; // no room on the tablet: post as usual
      e.preventDefault();
      form.querySelectorAll("button").forEach(function (b) { b.disabled = true; });
      outbox.cancelRetry();
      (outbox.sending ? Promise.resolve(Outbox.RETRY) : attempt(item)).then(function (kind) {
        form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
        if (kind === Outbox.RETRY || kind === Outbox.GONE) box.scrollIntoView({ block: "start" }); // say it where the eyes go
        if (kind === Outbox.RETRY) outbox.schedule();
        else if (kind === Outbox.GONE) outbox.flush();
      });
    });
  }

  // A page that shows an unsent result's values again (the conflict page, or the form with the
  // server's errors) takes it over: the referee decides there, so the tablet no longer holds it.
  if (d.doneKey) outbox.store.drop(d.doneKey);
  if (d.intercept) {
    document.querySelectorAll("main form[method=post]").forEach(function (form) {
      var keyInput = form.querySelector("input[name=submission_key]");
      if (!keyInput) return;
      var queued = keyInput.value ? outbox.get(keyInput.value) : null;
      if (queued && queued.state !== Outbox.WAITING) outbox.store.drop(keyInput.value);
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
