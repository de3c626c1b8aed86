/* Sanjô Dôsai screens: confirm before an undo, one submit per form, live class counts, and a
   reader screen that notices a call recorded on another tablet. */
(function () {
  document.querySelectorAll("form.dosai-oneshot").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      var question = form.getAttribute("data-confirm");
      if (question && !window.confirm(question)) { event.preventDefault(); return; }
      if (form.dataset.sent) { event.preventDefault(); return; }
      form.dataset.sent = "1";
    });
  });
  var classes = document.getElementById("classes");
  var values = document.getElementById("values");
  if (classes && values) {
    var update = function () {
      var counts = {};
      values.querySelectorAll("tr[data-known]").forEach(function (tr) {
        var p = tr.getAttribute("data-known"); counts[p] = (counts[p] || 0) + 1;
      });
      values.querySelectorAll("input.points").forEach(function (input) {
        var p = input.value.trim(); if (p) { counts[p] = (counts[p] || 0) + 1; }
      });
      classes.querySelectorAll("tr[data-points]").forEach(function (tr) {
        var p = tr.getAttribute("data-points"), need = +tr.getAttribute("data-required"), have = counts[p] || 0;
        tr.querySelector(".count").textContent = have;
        tr.className = have === need ? "ok" : (have > need ? "over" : "short");
      });
    };
    values.addEventListener("input", update);
    // Count what the fields hold now: after a refused save, or values a browser restored.
    update();
    window.addEventListener("pageshow", update);
  }
  // Another tablet on the same hand: ask state.json every few seconds (only while this page
  // is visible) whether the hand moved on. If it did, reload and say why; while a field of a
  // form is focused or changed, only say so with a button, so nothing typed is lost. Without
  // an answer (flaky Wi-Fi) ask again less often; on a refusal (logged out, session deleted)
  // stop quietly: a stale tap is still refused by the server, as without JavaScript.
  var live = document.getElementById("dosai-live");
  var shownState = document.getElementById("dosai-state");
  var FLAG = "dosai-live-reloaded";
  var banner = function (text, button) {
    live.textContent = text;
    if (button) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "small"; b.textContent = live.getAttribute("data-button");
      b.addEventListener("click", function () { location.reload(); });
      live.appendChild(document.createTextNode(" ")); live.appendChild(b);
    }
    live.hidden = false;
  };
  if (live && shownState && window.fetch && window.JSON) {
    try {
      var reloaded = (window.sessionStorage.getItem(FLAG) || "").split(" ");
      window.sessionStorage.removeItem(FLAG);
      if (reloaded[1] === location.pathname) { banner(live.getAttribute("data-" + reloaded[0] + "-reloaded")); }
    } catch (e) { /* no sessionStorage: no banner after the reload */ }
    var shown = JSON.parse(shownState.textContent);
    var key = function (s) { return [s.calls, s.over, s.later, (s.turn_free || []).join(",")].join("|"); };
    var seconds = parseInt(live.getAttribute("data-seconds"), 10) || 4;
    var stopped = false, timer = null;
    var changed = function (el) {
      if (el.type === "checkbox" || el.type === "radio") { return el.checked !== el.defaultChecked; }
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      return typeof el.defaultValue === "string" && el.value !== el.defaultValue;
    };
    var field = function (el) {
      return el && /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && !/^(submit|button|reset|image|hidden)$/.test(el.type);
    };
    var busy = function () {
      var main = document.querySelector("main") || document.body;
      if (field(document.activeElement) && main.contains(document.activeElement)) { return true; }
      return Array.prototype.some.call(main.querySelectorAll("input, select, textarea"), function (el) {
        return field(el) && changed(el);
      });
    };
    var gone = function () {
      live.textContent = live.getAttribute("data-gone") + " ";
      var a = document.createElement("a");
      a.href = live.getAttribute("data-home");
      a.textContent = live.getAttribute("data-home-label");
      live.appendChild(a);
      live.hidden = false;
      document.querySelectorAll("main form button").forEach(function (b) { b.disabled = true; });
    };
    var moved = function (state) {
      stopped = true;
      var kind = state.calls > shown.calls ? "call" : "change";
      if (busy()) { banner(live.getAttribute("data-" + kind + "-stale"), true); return; }
      banner(live.getAttribute("data-" + kind + "-reloaded"));
      try { window.sessionStorage.setItem(FLAG, kind + " " + location.pathname); } catch (e) { /* the banner shows until the reload */ }
      location.reload();
    };
    var tick = function () {
      timer = null;
      if (stopped || document.visibilityState !== "visible") { return; }
      fetch(live.getAttribute("data-url"), { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (r) {
          if (!r.ok) { throw new Error(r.status); }
          return r.json().catch(function () { throw new Error("not JSON"); });  // e.g. the login page
        })
        .then(function (state) {
          if (stopped) { return; }
          if (key(state) !== key(shown)) { moved(state); } else { schedule(); }
        })
        .catch(function (error) {
          // No answer (the gym's Wi-Fi dropped): try again later. A refusal: stop; when the
          // hand is gone (deleted on another tablet), say so before a tap meets a 404.
          if (error instanceof TypeError) { schedule(seconds * 3000); return; }
          stopped = true;
          if (error.message === "404") { gone(); }
        });
    };
    var schedule = function (delay) {
      if (!stopped && timer === null && document.visibilityState === "visible") {
        timer = setTimeout(tick, delay === undefined ? seconds * 1000 : delay);
      }
    };
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { schedule(0); }  // back on the page: look now
    });
    // This tablet sends a form or leaves: its own answer shows the new state.
    document.addEventListener("submit", function (event) { if (!event.defaultPrevented) { stopped = true; } });
    window.addEventListener("pagehide", function () { stopped = true; });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted && live.hidden) { stopped = false; schedule(0); }  // Back to this page: look now
    });
    schedule();
  }
  // A page shown again from the browser's cache (Back) must accept one more submit.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      document.querySelectorAll("form.dosai-oneshot").forEach(function (form) { delete form.dataset.sent; });
    }
  });
})();
