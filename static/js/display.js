// Hall screens (issue 17, item 2; docs/hall-screens.md). Configured by data- attributes of
// #hall: data-state (the JSON the screens poll), data-refresh (seconds between polls),
// data-seconds (seconds per page), data-screens (space-separated paths of the screens to
// show in turn; one path: a single screen).
//
// - Version: the screen's fragment carries the version it was rendered with
//   (.hall-screen[data-version]). Every poll compares the polled version with it, from the
//   very first poll, and fetches the fragment again as soon as they differ: a change made in
//   the first seconds after loading is shown too (within one poll and one fetch).
// - Pages: the blocks of a screen (.hall-item) are laid out a page at a time, as many as
//   fit the screen; a block that cannot fit alone is zoomed down to fit, never cut off.
//   Every data-seconds the next page is shown; after the last page the next screen.
// - Fitted text ([data-fit-lines], the podium's team names): before the blocks are measured,
//   such a text is shrunk from its own size until it takes at most that many lines and no
//   phrase sticks out of its column (it breaks only between phrases), down to 0.9 of its
//   parent's type, and 15 % more when that saves a line; at the least size a phrase still
//   too wide may break anywhere. The block's
//   height is then the real one, and the zoom-to-fit above sees it.
// - Announcements and the ticker come with every poll and are drawn as text.
// On a network error the screen keeps what it shows.
(function () {
  var hall = document.getElementById("hall");
  var box = document.getElementById("display");
  var pageNo = document.getElementById("hall-page-no");
  var announceBox = document.getElementById("hall-announce");
  var ticker = document.getElementById("hall-ticker");
  var tickerItems = document.getElementById("hall-ticker-items");
  var pollSeconds = parseInt(hall.getAttribute("data-refresh"), 10) || 5;
  var pageSeconds = parseInt(hall.getAttribute("data-seconds"), 10) || 12;
  var stateUrl = hall.getAttribute("data-state");
  var screens = (hall.getAttribute("data-screens") || "").split(" ").filter(Boolean);
  var screenIndex = 0;
  var pages = [];
  var pageIndex = 0;
  var seenResults = null;
  var lastAnnounce = null;
  var lastTicker = null;
  var loading = false;
  var pending = null;

  function shownVersion() {
    var screen = box.querySelector(".hall-screen");
    return screen ? screen.getAttribute("data-version") : "";
  }

  function overflows(area) {
    return area.scrollHeight > area.clientHeight + 1 || area.scrollWidth > area.clientWidth + 1;
  }

  function fit(item, area) {
    // A block too big alone: zoom it down until it fits (twice, as text reflows).
    for (var i = 0; i < 3 && overflows(area); i++) {
      var current = parseFloat(item.style.zoom) || 1;
      var scale = Math.min(area.clientHeight / area.scrollHeight, area.clientWidth / area.scrollWidth);
      item.style.zoom = String(Math.max(0.2, current * scale * 0.98));
    }
  }

  function lineCount(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var tops = {};
    Array.prototype.forEach.call(range.getClientRects(), function (r) {
      if (r.width > 0) tops[Math.round(r.top)] = true;
    });
    return Object.keys(tops).length;
  }

  function fitText(root) {
    Array.prototype.forEach.call(root.querySelectorAll("[data-fit-lines]"), function (el) {
      var most = parseInt(el.getAttribute("data-fit-lines"), 10) || 3;
      el.style.fontSize = "";
      el.style.overflowWrap = "normal";
      var size = parseFloat(getComputedStyle(el).fontSize);
      var least = parseFloat(getComputedStyle(el.parentNode).fontSize) * 0.9;
      function wide() { return el.scrollWidth > el.clientWidth + 1; }
      function tooBig() { return wide() || lineCount(el) > most; }
      for (var i = 0; i < 40 && size > least && tooBig(); i++) {
        size = Math.max(least, size * 0.93);
        el.style.fontSize = size + "px";
      }
      var lines = lineCount(el);
      if (lines > 1 && !wide()) {
        // a line fewer for at most 15 % smaller type: "大みか南子ども会A" on one line
        var trial = Math.max(least, size * 0.85);
        el.style.fontSize = trial + "px";
        if (lineCount(el) < lines && !wide()) size = trial;
        el.style.fontSize = size + "px";
      }
      if (el.scrollWidth > el.clientWidth + 1) el.style.overflowWrap = "anywhere";
      el.setAttribute("data-fitted", String(Math.round(size)));
    });
  }

  function pack() {
    var area = box.querySelector(".hall-items");
    pages = [];
    if (!area) { pages = [[]]; return; }
    var items = Array.prototype.slice.call(area.children);
    items.forEach(function (item) { item.hidden = true; item.style.zoom = ""; });
    var page = [];
    items.forEach(function (item) {
      item.hidden = false;
      fitText(item);
      if (page.length && overflows(area)) {
        page.forEach(function (p) { p.hidden = true; });
        pages.push(page);
        page = [];
      }
      if (!page.length && overflows(area)) fit(item, area);
      page.push(item);
    });
    page.forEach(function (p) { p.hidden = true; });
    pages.push(page);
  }

  function showPage(index) {
    pageIndex = Math.max(0, Math.min(index, pages.length - 1));
    pages.forEach(function (page, i) {
      page.forEach(function (item) { item.hidden = i !== pageIndex; });
    });
    box.setAttribute("data-page", String(pageIndex + 1));
    box.setAttribute("data-pages", String(pages.length));
    pageNo.textContent = pages.length > 1 ? (pageIndex + 1) + " / " + pages.length : "";
  }

  function relayout(keepPage) {
    pack();
    showPage(keepPage ? pageIndex : 0);
  }

  function fragmentUrl(path) {
    return path + (path.indexOf("?") < 0 ? "?" : "&") + "fragment=1";
  }

  function load(path, keepPage) {
    if (loading) {
      pending = [path, keepPage]; // a screen change while a fetch is on its way: done after it
      return Promise.resolve();
    }
    loading = true;
    return fetch(fragmentUrl(path), { cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null && html !== box.innerHTML) {
          box.innerHTML = html;
          relayout(keepPage);
        }
      })
      .catch(function () {})
      .finally(function () {
        loading = false;
        var next = pending;
        pending = null;
        if (next) return load(next[0], next[1]);
      });
  }

  function currentPath() {
    return screens.length ? screens[screenIndex] : location.pathname;
  }

  function drawAnnouncements(list) {
    var key = JSON.stringify(list);
    if (key === lastAnnounce) return;
    lastAnnounce = key;
    announceBox.textContent = "";
    list.forEach(function (a) {
      var p = document.createElement("p");
      p.textContent = a.text;
      announceBox.appendChild(p);
    });
    announceBox.hidden = list.length === 0;
    relayout(true);
  }

  function drawTicker(list) {
    var key = JSON.stringify(list.map(function (t) { return t.text; }));
    if (key === lastTicker) return;
    lastTicker = key;
    var before = seenResults;
    seenResults = {};
    tickerItems.textContent = "";
    list.forEach(function (t) {
      var span = document.createElement("span");
      span.className = "hall-tick" + (before && !before[t.text] ? " new" : "");
      span.setAttribute("data-number", String(t.number));
      span.textContent = t.text;
      tickerItems.appendChild(span);
      seenResults[t.text] = true;
    });
    var wasHidden = ticker.hidden;
    ticker.hidden = list.length === 0;
    if (wasHidden !== ticker.hidden) relayout(true);
  }

  function poll() {
    return fetch(stateUrl, { cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state) return;
        drawAnnouncements(state.announcements || []);
        drawTicker(state.ticker || []);
        if (state.version !== shownVersion()) return load(currentPath(), true);
      })
      .catch(function () {});
  }

  function nextPage() {
    if (pageIndex + 1 < pages.length) {
      showPage(pageIndex + 1);
    } else if (screens.length > 1) {
      screenIndex = (screenIndex + 1) % screens.length;
      load(currentPath(), false);
    } else {
      showPage(0);
    }
    setTimeout(nextPage, pageSeconds * 1000);
  }

  function every(seconds, job) {
    function run() { Promise.resolve(job()).finally(function () { setTimeout(run, seconds * 1000); }); }
    setTimeout(run, seconds * 1000);
  }

  // the ticker's text as drawn by the server, so that only later results are marked new
  seenResults = {};
  Array.prototype.forEach.call(tickerItems.children, function (s) { seenResults[s.textContent] = true; });
  lastTicker = JSON.stringify(Array.prototype.map.call(tickerItems.children, function (s) { return s.textContent; }));
  relayout(false);
  window.addEventListener("resize", function () { relayout(true); });
  var start = screens.length > 1 || !shownVersion() ? load(currentPath(), false) : Promise.resolve();
  start.then(poll);
  every(pollSeconds, poll);
  setTimeout(nextPage, pageSeconds * 1000);
})();
