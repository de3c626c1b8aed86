// Shows the touch-judgment verdict as soon as both states are tapped (the page also works without it).
(function () {
  var data = JSON.parse(document.getElementById("matrix-data").textContent);
  var form = document.getElementById("dispute-form");
  var box = document.getElementById("verdict"), text = box.querySelector(".verdict-text");
  var log = document.getElementById("log-form"), rpsRow = document.getElementById("rps-row");
  function picked(name) { var el = form.querySelector("input[name=" + name + "]:checked"); return el ? el.value : null; }
  function update() {
    var a = picked("state_a"), b = picked("state_b");
    if (!a || !b) return;
    var v = data.cells[a][b];
    text.textContent = v === "A" ? text.dataset.a : v === "B" ? text.dataset.b : v === "rps" ? text.dataset.rps : text.dataset.first;
    box.hidden = false; log.hidden = false;
    log.querySelector("input[name=state_a]").value = a;
    log.querySelector("input[name=state_b]").value = b;
    rpsRow.hidden = v !== "rps";
  }
  form.addEventListener("change", update);
  update();
})();
