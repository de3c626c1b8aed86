// Hall screens: every few seconds ask the JSON API (data-api) whether the event changed.
// The browser revalidates with If-None-Match, so an unchanged event costs a 304 and no
// HTML rendering. The API's answer marks each game out of date (issue 15), so keeping or
// replaying one changes it too. Only when the API's answer changed (and once a minute anyway, for
// changes the API does not show, such as a recorded lot) is the page's fragment fetched
// and swapped in, when it differs (no flicker, no full reload). On a network error keep
// what is shown.
(function () {
  var box = document.getElementById("display");
  var seconds = parseInt(box.getAttribute("data-refresh"), 10) || 5;
  var api = box.getAttribute("data-api");
  var url = location.pathname + "?fragment=1";
  var everyTicks = Math.max(1, Math.round(60 / seconds));
  var lastHtml = null;
  var lastApi = null;
  var ticks = 0;
  function strip(html) { return html.replace(/<p class="muted small">[0-9:]+<\/p>/, ""); }
  function refreshFragment() {
    return fetch(url, { cache: "no-store" }).then(function (r) { return r.ok ? r.text() : null; }).then(function (html) {
      if (html === null) return;
      var key = strip(html);
      if (lastHtml !== null && key !== lastHtml) box.innerHTML = html;
      lastHtml = key;
    });
  }
  function apiChanged() {
    if (!api) return Promise.resolve(true);
    return fetch(api, { cache: "no-cache" }).then(function (r) {
      if (!r.ok) return true;
      var tag = r.headers.get("ETag");
      var changed = lastApi === null || tag !== lastApi;
      lastApi = tag;
      return changed;
    });
  }
  function tick() {
    ticks += 1;
    apiChanged().then(function (changed) {
      if (changed || ticks % everyTicks === 0) return refreshFragment();
    }).catch(function () {}).finally(function () { setTimeout(tick, seconds * 1000); });
  }
  Promise.all([apiChanged(), refreshFragment()]).catch(function () {}).finally(function () { setTimeout(tick, seconds * 1000); });
})();
