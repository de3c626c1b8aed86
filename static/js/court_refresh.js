// Court pages refresh themselves when the court's games change (the next game, a result
// confirmed or sent back, a game moved or voided). Every 20 seconds the page asks its small
// JSON document (data-state-url) for the court's fingerprint. When it differs from the one
// the page was made from (data-state):
// - the court's page (data-reload="1") reloads, unless something was typed on it;
// - a game's entry page never reloads: it shows a notice (data-changed) with a link to the
//   court's page, so no typed value is lost and a form never changes under the referee.
// A revoked link (410) reloads a page that may reload (the page then says what to do), else
// shows data-revoked. A network error keeps what is shown and tries again later.
(function () {
  var box = document.getElementById("court-refresh");
  if (!box || !window.fetch) return;
  var url = box.getAttribute("data-state-url");
  // window.courtRefreshSeconds: a shorter period for the browser tests.
  var seconds = window.courtRefreshSeconds || parseInt(box.getAttribute("data-seconds"), 10) || 20;
  var mayReload = box.getAttribute("data-reload") === "1";
  var first = box.getAttribute("data-state") || null;  // the state the page was made from
  var touched = false;
  document.addEventListener("input", function () { touched = true; });
  document.addEventListener("change", function () { touched = true; });
  // Typed: a field was touched, or differs from what the page came with (the +/- buttons
  // of the card counts set values without an input event).
  function typed() {
    if (touched) return true;
    var fields = document.querySelectorAll("form input, form select, form textarea");
    for (var i = 0; i < fields.length; i++) {
      var f = fields[i];
      if (f.type === "hidden" || f.type === "submit" || f.type === "button") continue;
      if (f.type === "checkbox" || f.type === "radio") { if (f.checked !== f.defaultChecked) return true; }
      else if (f.tagName === "SELECT") {
        for (var j = 0; j < f.options.length; j++) if (f.options[j].selected !== f.options[j].defaultSelected) return true;
      } else if (f.value !== f.defaultValue) return true;
    }
    return false;
  }
  function notice(text) {
    box.textContent = text + " ";
    var link = document.createElement("a");
    link.href = box.getAttribute("data-home") || location.href;
    link.textContent = box.getAttribute("data-link-text");
    box.appendChild(link);
    box.hidden = false;
  }
  function tick() {
    if (document.hidden) { setTimeout(tick, seconds * 1000); return; }
    fetch(url, { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      if (r.status === 410) return { revoked: true };
      return r.ok ? r.json() : null;
    }).then(function (data) {
      if (!data) return;
      if (data.revoked) {
        if (!mayReload || typed()) { notice(box.getAttribute("data-revoked")); return "stop"; }
        location.reload();
        return "stop";
      }
      if (first === null) { first = data.state; return; }
      if (data.state === first) return;
      if (!mayReload || typed()) { notice(box.getAttribute("data-changed")); return "stop"; }
      location.reload();
      return "stop";
    }).catch(function () {}).then(function (stop) {
      if (stop !== "stop") setTimeout(tick, seconds * 1000);
    });
  }
  tick();
})();
