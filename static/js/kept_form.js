// Kept form (common/kept_forms.py): put the values kept after a refused or expired form back
// into this page's own form, for the person to check and send. Nothing is sent here.
// Without this script the values stay visible as text above the form, to copy.
(function () {
  function restore() {
    var data = document.getElementById("kept-form-data");
    if (!data) return;
    var fields = JSON.parse(data.textContent);
    var names = fields.map(function (f) { return f[0]; });
    // The form it was sent from: the most fields of the same names, and among those the one
    // that posts to the same address (a page whose buttons each have their own, issue 30).
    var note = document.getElementById("kept-form-restored");
    var action = note ? note.getAttribute("data-action") : "";
    var best = null, bestScore = 0;
    document.querySelectorAll('form[method="post"]').forEach(function (form) {
      var same = names.filter(function (n) { return form.elements.namedItem(n); }).length;
      if (!same) return;
      var score = same * 2 + (action && new URL(form.getAttribute("action") || "", location.href).pathname === action ? 1 : 0);
      if (score > bestScore) { best = form; bestScore = score; }
    });
    if (!best) return;
    fields.forEach(function (f) {
      best.querySelectorAll("[name]").forEach(function (el) {
        if (el.name !== f[0]) return;
        if (el.type === "radio" || el.type === "checkbox") { if (el.value === f[1]) el.checked = true; }
        else if (el.type !== "file" && el.type !== "submit") el.value = f[1];
        el.dispatchEvent(new Event("input", { bubbles: true }));
        el.dispatchEvent(new Event("change", { bubbles: true }));
      });
    });
    if (note) note.hidden = false;
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();
