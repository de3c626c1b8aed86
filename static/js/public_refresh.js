// Public pages keep themselves up to date (issue 17, item 1). The live part of the page
// (#live) carries the event's version it was made from (data-version). Every data-seconds
// (15 s) the script asks the events document of the JSON API (data-api, revalidated with
// If-None-Match: an unchanged list costs a 304) for the event's version; when it differs
// from the page's, and once a minute anyway (a renamed team has no version), it fetches the
// page's fragment (data-fragment) and swaps it in when it differs: the scroll position stays
// on what the reader was looking at, and the games and rows that changed (data-key) are
// highlighted for a few seconds. Comparing from the first poll, a change made in the first
// seconds after the page loaded is shown too. A network error keeps what is shown.
// (The team selector's data-autosubmit is static/js/page.js's, loaded on every page.)
(function () {
  var box = document.getElementById("live");
  if (!box || !window.fetch) return;
  var seconds = parseFloat(box.getAttribute("data-seconds")) || 15;
  var api = box.getAttribute("data-api");
  var slug = box.getAttribute("data-event");
  var fragment = box.getAttribute("data-fragment");
  var version = box.getAttribute("data-version");
  var everyTicks = Math.max(1, Math.round(60 / seconds));
  var ticks = 0;

  function keyed(root) {
    var found = {};
    var items = root.querySelectorAll("[data-key]");
    for (var i = 0; i < items.length; i++) found[items[i].getAttribute("data-key")] = items[i].textContent;
    return found;
  }
  // The first keyed element on screen and how far from the top of the window it is.
  function anchor() {
    var items = box.querySelectorAll("[data-key]");
    for (var i = 0; i < items.length; i++) {
      var top = items[i].getBoundingClientRect().top;
      if (top >= 0) return { key: items[i].getAttribute("data-key"), top: top };
    }
    return null;
  }
  function swap(html) {
    if (html === box.innerHTML) return;
    var before = keyed(box);
    var mark = anchor();
    box.innerHTML = html;
    var inner = box.querySelector("[data-version]");
    if (inner) version = inner.getAttribute("data-version");
    if (mark) {
      var again = box.querySelector('[data-key="' + mark.key + '"]');
      if (again) window.scrollBy(0, again.getBoundingClientRect().top - mark.top);
    }
    var items = box.querySelectorAll("[data-key]");
    for (var i = 0; i < items.length; i++) {
      var key = items[i].getAttribute("data-key");
      if (before[key] !== items[i].textContent) items[i].classList.add("changed");
    }
    box.setAttribute("data-updated", String(Date.now()));
    setTimeout(function () {
      var marked = box.querySelectorAll(".changed");
      for (var j = 0; j < marked.length; j++) marked[j].classList.remove("changed");
    }, 6000);
  }
  function refreshFragment() {
    return fetch(fragment, { cache: "no-store", credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.text() : null;
    }).then(function (html) { if (html !== null) swap(html); });
  }
  function eventVersion() {
    return fetch(api, { cache: "no-cache", credentials: "omit" }).then(function (r) {
      return r.ok ? r.json() : null;
    }).then(function (doc) {
      if (!doc) return null;
      for (var i = 0; i < doc.events.length; i++) if (doc.events[i].slug === slug) return doc.events[i].version;
      return null;
    });
  }
  function tick() {
    ticks += 1;
    if (document.hidden) { setTimeout(tick, seconds * 1000); return; }
    eventVersion().then(function (current) {
      if ((current && current !== version) || ticks % everyTicks === 0) return refreshFragment();
    }).catch(function () {}).then(function () { setTimeout(tick, seconds * 1000); });
  }
  setTimeout(tick, seconds * 1000);
})();
