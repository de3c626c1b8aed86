// The referee's 開始 (Start) tap on a game's court page (issue 15, item 8). Sent with fetch so a
// dropped connection never leaves the tablet on a browser error page: offline, the start is not
// essential (the first saved result marks the game started). Without this script the form posts.
(function () {
  "use strict";
  var form = document.getElementById("start-form");
  if (!form || !window.fetch || !window.FormData) return;
  var note = form.querySelector(".start-note");
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var button = form.querySelector("button");
    button.disabled = true;
    fetch(form.action, {
      method: "POST", body: new FormData(form), credentials: "same-origin", cache: "no-store",
      headers: { "Accept": "application/json" }
    }).then(function (res) {
      return res.json().then(function (data) { return { ok: res.ok, data: data }; });
    }).then(function (answer) {
      if (answer.ok) {
        var mark = document.createElement("p");
        mark.className = "started-mark";
        mark.id = "started";
        var badge = document.createElement("span");
        badge.className = "started-badge";
        badge.textContent = form.dataset.started;
        mark.appendChild(badge);
        mark.appendChild(document.createTextNode(" " + answer.data.started));
        form.parentNode.replaceChild(mark, form);
      } else {
        note.textContent = answer.data.error || "";
        button.disabled = false;
      }
    }).catch(function () {
      note.textContent = form.dataset.offline;
      button.disabled = false;
    });
  });
})();
