// 「LINEで送る文面」 (issue 35, item 2): a button [data-share="<textarea id>"] copies the ready
// text of its textarea to the clipboard. The clipboard API needs a secure page (https or
// localhost); on the venue's plain http, or when it is refused, the text is shown in its
// textarea (inside a <details>, opened), selected, and copied with the older command where the
// browser still has it; the note beside the button says which. Without this script the
// <details> opens by hand and the text is copied as any text.
(function () {
  function note(button, text) {
    var mark = button.parentNode.querySelector(".share-done");
    if (mark) { mark.textContent = text; mark.hidden = false; }
  }
  function fallback(button, area) {
    var details = area.closest ? area.closest("details") : null;
    if (details) details.open = true;
    area.focus();
    area.select();
    var copied;
    try { copied = document.execCommand && document.execCommand("copy"); } catch (e) { copied = false; }
    note(button, copied ? button.getAttribute("data-copied") : button.getAttribute("data-select"));
  }
  // Delegated on the document: the team page's live part is replaced by public_refresh.js.
  document.addEventListener("click", function (e) {
    var button = e.target.closest ? e.target.closest("[data-share]") : null;
    if (!button) return;
    e.preventDefault();
    var area = document.getElementById(button.getAttribute("data-share"));
    if (!area) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(area.value).then(function () {
        note(button, button.getAttribute("data-copied"));
      }, function () { fallback(button, area); });
    } else {
      fallback(button, area);
    }
  });
})();
