// The team page as the family's page (issue 35): when the live part (#live, refreshed by
// public_refresh.js) shows the due banner ([data-due], the game's number) for a game not
// signalled yet, the phone vibrates once where the browser allows it (navigator.vibrate, only
// after the reader has touched the page: browsers refuse it before). The banner itself is
// server-rendered, so it shows without this script.
(function () {
  var box = document.getElementById("live");
  if (!box) return;
  var signalled = {};
  var touched = false;
  document.addEventListener("click", function () { touched = true; }, { once: true, capture: true });
  function check() {
    var due = box.querySelector("[data-due]");
    if (!due) return;
    var key = due.getAttribute("data-due");
    if (signalled[key]) return;
    signalled[key] = true;
    var active = touched || (navigator.userActivation && navigator.userActivation.hasBeenActive);
    if (active && navigator.vibrate) {
      try { navigator.vibrate([200, 100, 200]); } catch (e) { /* not allowed here */ }
    }
  }
  check();
  if (window.MutationObserver) new MutationObserver(check).observe(box, { childList: true });
})();
