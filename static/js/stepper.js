// Optional comfort on the referee screen: +/- steppers and a live 56-card check.
// The form works without this script (plain inputs, checked on the server).
(function () {
  var total = document.querySelector("[data-card-total]");
  var cardTotal = total ? parseInt(total.getAttribute("data-card-total"), 10) : 56;
  function toInt(v) { v = (v || "").replace(/[０-９]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0xFEE0); }); var n = parseInt(v, 10); return isNaN(n) ? 0 : n; }
  function update() {
    if (!total) return;
    var inputs = document.querySelectorAll("input.count");
    var sum = 0; inputs.forEach(function (i) { sum += toInt(i.value); });
    total.textContent = total.getAttribute("data-label").replace("{sum}", sum).replace("{total}", cardTotal);
    total.className = "total-check " + (sum === cardTotal ? "good" : "bad");
  }
  document.querySelectorAll(".stepper").forEach(function (box) {
    var input = box.querySelector("input");
    box.querySelectorAll("button[data-step]").forEach(function (b) {
      b.hidden = false;
      b.addEventListener("click", function (e) {
        e.preventDefault();
        var n = Math.max(0, Math.min(cardTotal, toInt(input.value) + parseInt(b.getAttribute("data-step"), 10)));
        input.value = n; update();
      });
    });
    input.addEventListener("input", update);
  });
  update();
})();
