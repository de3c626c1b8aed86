// The awards desk (issue 19): a form marked data-refresh-on-return opens its PDF in a new tab;
// when the organiser comes back to the desk's tab, the page reloads so each certificate's
// status (printed / changed since printed) is the one the print log now holds.
(function () {
  var printed = false;
  document.addEventListener("submit", function (e) {
    if (e.target.matches && e.target.matches("form[data-refresh-on-return]")) printed = true;
  });
  function back() {
    if (printed && document.visibilityState === "visible") { printed = false; window.location.reload(); }
  }
  document.addEventListener("visibilitychange", back);
  window.addEventListener("focus", back);
})();
