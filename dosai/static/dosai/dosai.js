/* Sanjô Dôsai screens: confirm before an undo, one submit per form, live class counts. */
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
  // A page shown again from the browser's cache (Back) must accept one more submit.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) {
      document.querySelectorAll("form.dosai-oneshot").forEach(function (form) { delete form.dataset.sent; });
    }
  });
})();
