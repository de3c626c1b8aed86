// Optional comfort on the result form: each side's sum of the players' cards, next to the
// team's count. The form works without this script (checked on the server).
(function () {
  function toInt(v) { v = (v || "").replace(/[０-９]/g, function (c) { return String.fromCharCode(c.charCodeAt(0) - 0xFEE0); }).trim(); if (v === "") return null; var n = parseInt(v, 10); return isNaN(n) ? null : n; }
  document.querySelectorAll(".player-side").forEach(function (side) {
    var team = document.getElementById(side.getAttribute("data-team-input"));
    var out = side.querySelector(".player-sum");
    var inputs = side.querySelectorAll("input.player-count");
    function update() {
      var sum = 0, given = 0;
      inputs.forEach(function (i) { var n = toInt(i.value); if (n !== null) { sum += n; given += 1; } });
      var total = team ? toInt(team.value) : null;
      if (!given || total === null) { out.textContent = ""; out.className = "player-sum muted small"; return; }
      out.textContent = out.getAttribute("data-label").replace("{sum}", sum).replace("{total}", total);
      out.className = "player-sum small " + (sum === total ? "good" : "bad");
    }
    inputs.forEach(function (i) { i.addEventListener("input", update); });
    if (team) { team.addEventListener("input", update); team.closest("form").addEventListener("click", function () { setTimeout(update, 0); }); }
    update();
  });
})();
