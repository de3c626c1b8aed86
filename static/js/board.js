// The court board stays current without reloading itself (issue 27): every 30 seconds it
// fetches its own page again and replaces the board ([data-board]) with the new one, so the
// scroll position and the screen reader's place stay. Nothing is fetched while the tab is
// hidden, nothing is replaced while the keyboard focus is inside the board, and a failed
// fetch (the Wi-Fi) leaves the board as it was until the next try.
(function () {
  var board = document.querySelector("[data-board]");
  if (!board || !window.fetch || !window.DOMParser) return;
  var seconds = parseInt(board.getAttribute("data-board"), 10) || 30;
  function refresh() {
    if (document.visibilityState !== "visible" || board.contains(document.activeElement)) return;
    fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-board]");
        if (fresh && !board.contains(document.activeElement)) board.innerHTML = fresh.innerHTML;
      })
      .catch(function () { /* the next try will do */ });
  }
  setInterval(refresh, seconds * 1000);
})();
