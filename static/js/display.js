// Hall screens: fetch the page's fragment every few seconds and swap it only when it
// changed (no flicker, no full reload); on a network error keep what is shown.
(function () {
  var box = document.getElementById("display");
  var seconds = parseInt(box.getAttribute("data-refresh"), 10) || 5;
  var url = location.pathname + "?fragment=1";
  var last = null;
  function strip(html) { return html.replace(/<p class="muted small">[0-9:]+<\/p>/, ""); }
  function tick() {
    fetch(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (html === null) return;
      var key = strip(html);
      if (last !== null && key !== last) box.innerHTML = html;
      last = key;
    }).catch(function () {}).finally(function () { setTimeout(tick, seconds * 1000); });
  }
  setTimeout(tick, seconds * 1000);
})();
