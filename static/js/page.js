// The pages' small behaviours, without inline script (the Content-Security-Policy forbids
// inline scripts and on… attributes; config/settings.py):
//   data-ask="question"      on a button or link: ask first; "Cancel" does nothing
//                            (data-confirm is the hanafuda and dosai scripts' own);
//   data-autosubmit          on a select: send its form when the choice changes;
//   data-print               on a button: print the page;
//   data-go                  on a select whose options are addresses: go to the one chosen;
//   data-go="name"           on a form: go to the address chosen in its field "name" instead of sending.
(function () {
  function closest(el, selector) { return el && el.closest ? el.closest(selector) : null; }
  document.addEventListener("click", function (e) {
    var ask = closest(e.target, "[data-ask]");
    if (ask && !window.confirm(ask.getAttribute("data-ask"))) {
      e.preventDefault();
      e.stopImmediatePropagation();
      return;
    }
    if (closest(e.target, "[data-print]")) { e.preventDefault(); window.print(); }
  }, true);
  document.addEventListener("change", function (e) {
    var el = e.target;
    if (!el.matches || !el.matches("select")) return;
    if (el.hasAttribute("data-autosubmit") && el.form) el.form.submit();
    else if (el.hasAttribute("data-go") && el.value) window.location.href = el.value;
  });
  document.addEventListener("submit", function (e) {
    var form = e.target;
    if (!form.matches || !form.matches("form[data-go]")) return;
    e.preventDefault();
    var field = form.elements.namedItem(form.getAttribute("data-go"));
    if (field && field.value) window.location.href = field.value;
  });
})();
