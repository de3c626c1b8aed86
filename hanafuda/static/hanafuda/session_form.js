/* New session form: show only the name fields of the chosen table (3 players or 2 teams). */
(function () {
  "use strict";
  var form = document.querySelector(".session-form");
  if (!form) { return; }
  document.documentElement.classList.add("hanafuda-js");
  function sync() {
    var chosen = form.querySelector("input[name=kind]:checked");
    var teams = chosen && chosen.value === "two_teams";
    form.classList.toggle("teams-chosen", teams);
    form.classList.toggle("three-chosen", !teams);
  }
  form.querySelectorAll("input[name=kind]").forEach(function (r) { r.addEventListener("change", sync); });
  sync();
}());
