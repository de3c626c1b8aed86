// The touch rule step by step (the page also works without it): 1. a hand underneath takes the
// card; 2. otherwise the table; then the team the rule asks for. From the third じゃんけん on,
// a じゃんけん verdict is the referee leader's decision, said before the tap.
(function () {
  var data = JSON.parse(document.getElementById("matrix-data").textContent);
  var form = document.getElementById("dispute-form");
  var table = document.getElementById("step-table");
  var box = document.getElementById("verdict"), text = box.querySelector(".verdict-text");
  var log = document.getElementById("log-form");
  var rows = { rps: "rps-row", first_to_touch: "first-row", referee: "referee-row" };
  var notes = { underneath: "note-underneath", referee: "note-limit" };
  function picked(name) { var el = form.querySelector("input[name=" + name + "]:checked"); return el ? el.value : null; }
  function show(map, key) { Object.keys(map).forEach(function (k) { document.getElementById(map[k]).hidden = k !== key; }); }
  function ruling() {
    var under = picked("underneath");
    if (under === "A" || under === "B") return { verdict: under, settlement: "underneath" };
    var a = picked("state_a"), b = picked("state_b");
    if (!a || !b) return null;
    var v = data.cells[a][b];
    if (v === "rps") return { verdict: v, settlement: data.rps_count >= data.rps_limit ? "referee" : "rps" };
    return { verdict: v, settlement: v === "first_to_touch" ? v : "table" };
  }
  function update() {
    var under = picked("underneath");
    var tapped = picked("state_a") || picked("state_b");
    table.hidden = under === "A" || under === "B" || (!under && !tapped);
    var r = ruling();
    box.hidden = !r; log.hidden = !r;
    if (!r) return;
    var d = text.dataset;
    text.textContent = r.settlement === "referee" ? d.referee : r.verdict === "A" ? d.a : r.verdict === "B" ? d.b : r.verdict === "rps" ? d.rps : d.first;
    log.querySelector("input[name=underneath]").value = under || "";
    log.querySelector("input[name=state_a]").value = r.settlement === "underneath" ? "" : picked("state_a");
    log.querySelector("input[name=state_b]").value = r.settlement === "underneath" ? "" : picked("state_b");
    show(rows, r.settlement);
    show(notes, r.settlement);
  }
  form.addEventListener("change", update);
  update();
})();
