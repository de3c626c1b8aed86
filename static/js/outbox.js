// One outbox for every page that must not lose what it sends (issue 30, item 3): the court
// tablet's results (offline.js) and the reader's log lines (reader.js). The venue runs over
// plain http, where browsers allow no service worker, so what the server has not acknowledged
// is kept in localStorage, one entry per item under a key prefix (tabs of the same device
// never rewrite each other's list; an entry leaves only once the server answered), sent again
// with back-off, and counted (the held count).
//
// The server's answer comes in one of four kinds (answer kinds, ``KINDS``):
//   sent    acknowledged: the item leaves the outbox (a receipt may be kept a while);
//   refused a 4xx with a reason: kept and shown with that reason, never resent on its own
//           (``drop: true`` lets a page drop it with a note instead);
//   gone    its address no longer exists (404/410): kept with a note (``stop: true`` stops
//           all sending: the whole link is gone);
//   retry   no answer (network), a busy server (5xx), an expired token: tried again later,
//           each time later (FIRST_DELAY doubling to MAX_DELAY).
// A batch refused as a whole is sent again one item at a time, to find the refused one.
//
// Pure: no DOM, no fetch, no clock of its own. The page passes its storage (anything with
// length, key(), getItem(), setItem(), removeItem()), its ``send(items)`` (a Promise of an
// answer) and, for tests, its timers and clock; tests/js/outbox.test.js runs it in node.
// A plain script (the pages load classic deferred scripts under script-src 'self'): in the
// browser it is ``window.KarutaOutbox``, in node ``require("static/js/outbox.js")``.
(function (root, factory) {
  "use strict";
  if (typeof module === "object" && module.exports) module.exports = factory();
  else root.KarutaOutbox = factory();
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var SENT = "sent", REFUSED = "refused", GONE = "gone", RETRY = "retry";
  var KINDS = [SENT, REFUSED, GONE, RETRY];
  var WAITING = "waiting";
  // Where every outbox keeps its items: NAMESPACE + name + ":" + item key; receipts of items
  // sent lately: RECEIPTS + name + ":" + item key.
  var NAMESPACE = "karuta.outbox:", RECEIPTS = "karuta.outbox-sent:";

  function parse(raw) {
    try { return JSON.parse(raw); } catch (e) { return null; }
  }

  // The entries of ``storage`` whose key starts with ``prefix``, as [key, value] pairs.
  function entries(storage, prefix) {
    var found = [];
    for (var n = 0; n < storage.length; n++) {
      var name = storage.key(n);
      if (name && name.indexOf(prefix) === 0) found.push(name);
    }
    return found.map(function (key) { return [key, parse(storage.getItem(key))]; });
  }

  // Items kept under ``prefix``: {key, at, state, tries, …}, oldest first (``at``, then the
  // page's ``order`` number, then the key).
  function Store(storage, prefix) {
    this.storage = storage;
    this.prefix = prefix;
  }
  Store.prototype.list = function () {
    return entries(this.storage, this.prefix)
      .map(function (pair) { return pair[1]; })
      .filter(function (item) { return item && item.key !== undefined && item.key !== null; })
      .sort(function (a, b) {
        return (a.at || 0) - (b.at || 0) || (a.order || 0) - (b.order || 0) || (String(a.key) < String(b.key) ? -1 : 1);
      });
  };
  Store.prototype.get = function (key) {
    var raw = this.storage.getItem(this.prefix + key);
    return raw === null || raw === undefined ? null : parse(raw);
  };
  // False when the device has no room left (the page then does without the outbox).
  Store.prototype.put = function (item) {
    try { this.storage.setItem(this.prefix + item.key, JSON.stringify(item)); return true; } catch (e) { return false; }
  };
  // Change some fields of a kept item; nothing when it left meanwhile (another tab had it sent).
  Store.prototype.update = function (key, changes) {
    var item = this.get(key);
    if (!item) return null;
    Object.keys(changes).forEach(function (k) { item[k] = changes[k]; });
    this.put(item);
    return item;
  };
  Store.prototype.drop = function (key) { this.storage.removeItem(this.prefix + key); };

  // Move what an older version kept under other keys into ``store`` (a tablet may hold unsent
  // results when the server is upgraded: nothing is lost). ``convert(key, value)`` returns the
  // items of one old entry (an array; [] to leave it); an old entry is removed only once all
  // its items are stored under the new keys. Returns the number of items moved.
  function migrate(storage, oldPrefix, store, convert) {
    var moved = 0;
    entries(storage, oldPrefix).forEach(function (pair) {
      moved += migrateKey(storage, pair[0], store, function (value) { return convert(pair[0].slice(oldPrefix.length), value); });
    });
    return moved;
  }
  // The same for the one old entry ``oldKey``: ``convert(value)`` returns its items.
  function migrateKey(storage, oldKey, store, convert) {
    var raw = storage.getItem(oldKey);
    if (raw === null || raw === undefined) return 0;
    var value = parse(raw);
    var items = value === null ? [] : convert(value) || [];
    var kept = items.every(function (item) {
      if (store.get(item.key)) return true; // moved already (another tab)
      return store.put(item);
    });
    if (!kept) return 0; // no room: the old entry stays, nothing is lost
    storage.removeItem(oldKey);
    return items.length;
  }

  // What the versions before the one outbox kept (issue 30), moved into it when a page opens:
  // the court tablet's results under "karuta.unsent.v1:<key>" and its receipts under
  // "karuta.sent.v1:<key>" (each entry already one item); the reader's lines of one reading
  // under its own key ("reader-log:<reading>:<seed>": {seq, queue: [line …]}). Returns the
  // number of items moved (the reader: {moved, seq}, seq the highest line number it had used).
  function fromCourtV1(storage, outbox) {
    var one = function (key, value) { return value && value.key ? [value] : []; };
    return migrate(storage, "karuta.unsent.v1:", outbox.store, one) + migrate(storage, "karuta.sent.v1:", outbox.receipts, one);
  }
  function fromReaderV1(storage, outbox, oldKey) {
    var seq = 0;
    var moved = migrateKey(storage, oldKey, outbox.store, function (old) {
      seq = old.seq || 0;
      return (old.queue || []).map(readerItem);
    });
    return { moved: moved, seq: seq };
  }
  // A reader's log line as an outbox item: its key is the line's number.
  function readerItem(line) { return { key: String(line.seq), order: line.seq, at: line.at, state: WAITING, tries: 0, line: line }; }

  // An outbox. options: storage, name (its prefix is NAMESPACE + name + ":"), send(items) → a
  // Promise of an answer {kind, keys?, state?, reason?, drop?, stop?}, batch (items per send,
  // default 1), eligible(item) (which held items this page sends; default all), firstDelay,
  // maxDelay (ms), receiptsFor (ms a receipt of a sent item is kept; 0: none), onChange(),
  // onAnswer(items, answer) (after each answer is settled),
  // setTimeout/clearTimeout/now (the browser's by default).
  function Outbox(options) {
    this.options = options;
    this.store = new Store(options.storage, NAMESPACE + options.name + ":");
    this.receipts = new Store(options.storage, RECEIPTS + options.name + ":");
    this.batch = options.batch || 1;
    this.firstDelay = options.firstDelay || 2000;
    this.maxDelay = options.maxDelay || 60000;
    this.eligible = options.eligible || function () { return true; };
    this.now = options.now || Date.now;
    this.setTimer = options.setTimeout || function (f, ms) { return setTimeout(f, ms); };
    this.clearTimer = options.clearTimeout || function (t) { clearTimeout(t); };
    this.sending = false;
    this.stopped = false;
    this.delay = 0;
    this.nextAt = 0;
    this.timer = null;
    this.size = this.batch;
  }
  Outbox.prototype.changed = function () { if (this.options.onChange) this.options.onChange(this); };
  // Keep ``item`` (it needs a ``key``): false when the device has no room.
  Outbox.prototype.add = function (item) {
    var kept = {};
    Object.keys(item).forEach(function (k) { kept[k] = item[k]; });
    if (kept.at === undefined) kept.at = this.now();
    if (!kept.state) kept.state = WAITING;
    if (kept.tries === undefined) kept.tries = 0;
    return this.store.put(kept);
  };
  Outbox.prototype.list = function (filter) { return this.store.list().filter(filter || function () { return true; }); };
  Outbox.prototype.get = function (key) { return this.store.get(key); };
  Outbox.prototype.drop = function (key) { this.store.drop(key); this.changed(); };
  // How many items this device holds for the page (``eligible``), under way included.
  Outbox.prototype.held = function () { return this.list(this.eligible).length; };
  Outbox.prototype.waiting = function () {
    return this.list(function (i) { return i.state === WAITING; }).filter(this.eligible);
  };
  Outbox.prototype.sentLately = function () {
    var now = this.now(), keep = this.options.receiptsFor || 0, receipts = this.receipts;
    return receipts.list().filter(function (r) {
      if (now - r.at < keep) return true;
      receipts.drop(r.key);
      return false;
    });
  };

  // Act on an answer to ``items``: the answer, with kind one of KINDS.
  Outbox.prototype.settle = function (items, answer) {
    var self = this, store = this.store, kind = answer && KINDS.indexOf(answer.kind) >= 0 ? answer.kind : RETRY;
    answer = answer || {};
    if (kind === SENT) {
      var acknowledged = answer.keys ? answer.keys.map(String) : null, dropped = 0;
      items.forEach(function (item) {
        if (acknowledged && acknowledged.indexOf(String(item.key)) < 0) return;
        dropped += 1;
        store.drop(item.key);
        if (self.options.receiptsFor) {
          var receipt = { key: item.key, at: self.now() };
          Object.keys(answer.receipt || {}).forEach(function (k) { receipt[k] = answer.receipt[k]; });
          Object.keys(item).forEach(function (k) { if (receipt[k] === undefined && k !== "fields") receipt[k] = item[k]; });
          receipt.at = self.now();
          self.receipts.put(receipt);
        }
      });
      if (!dropped) {
        // An answer that acknowledges none of them: like no answer (never a loop of resends).
        kind = RETRY;
        answer = { kind: RETRY };
      } else {
        this.delay = 0;
        if (!this.waiting().length) this.size = this.batch;
      }
    }
    if (kind === RETRY) {
      items.forEach(function (item) { store.update(item.key, { state: WAITING, tries: (item.tries || 0) + 1 }); });
    } else if (kind !== SENT && items.length > 1) {
      // A batch refused (or gone) whole: one at a time, to find the item it is about.
      this.size = 1;
      kind = RETRY;
      answer = { kind: RETRY, split: true };
    } else if (kind !== SENT) {
      this.delay = 0;
      items.forEach(function (item) {
        if (answer.drop) store.drop(item.key);
        else store.update(item.key, { state: answer.state || kind, error: answer.reason || "" });
      });
      if (kind === GONE && answer.stop) this.stopped = true;
    }
    this.changed();
    return answer.kind === kind ? answer : { kind: kind, reason: answer.reason, split: answer.split };
  };

  // Send ``items`` now (whatever their state) and settle the answer: a Promise of it.
  Outbox.prototype.attempt = function (items) {
    var self = this;
    this.sending = true;
    this.changed();
    var sent;
    try { sent = Promise.resolve(this.options.send(items)); } catch (e) { sent = Promise.reject(e); }
    return sent.then(function (answer) { return answer; }, function () { return { kind: RETRY }; })
      .then(function (answer) {
        self.sending = false;
        var settled = self.settle(items, answer);
        if (self.options.onAnswer) self.options.onAnswer(items, settled);
        return settled;
      });
  };

  // Send the waiting items, oldest first, a batch at a time, until none is left or one must
  // wait (then the back-off timer sends them later). A Promise of the last answer's kind.
  Outbox.prototype.flush = function () {
    var self = this;
    this.cancelRetry();
    if (this.sending || this.stopped) return Promise.resolve("");
    var batch = this.waiting().slice(0, this.size);
    if (!batch.length) { this.nextAt = 0; this.changed(); return Promise.resolve(""); }
    return this.attempt(batch).then(function (answer) {
      if (answer.kind === RETRY && !answer.split) { self.schedule(); return RETRY; }
      return self.flush().then(function (later) { return later || answer.kind; });
    });
  };

  // No retry planned any more (the page sends now itself).
  Outbox.prototype.cancelRetry = function () {
    if (this.timer !== null) { this.clearTimer(this.timer); this.timer = null; }
  };

  // Try again later, each time twice as late (up to maxDelay).
  Outbox.prototype.schedule = function () {
    var self = this;
    this.cancelRetry();
    this.delay = Math.min(this.maxDelay, this.delay ? this.delay * 2 : this.firstDelay);
    this.nextAt = this.now() + this.delay;
    this.timer = this.setTimer(function () { self.timer = null; self.flush(); }, this.delay);
    this.changed();
  };

  // A tap on "send now", or the network back: no more waiting.
  Outbox.prototype.sendNow = function () { this.delay = 0; return this.flush(); };

  return {
    KINDS: KINDS, SENT: SENT, REFUSED: REFUSED, GONE: GONE, RETRY: RETRY, WAITING: WAITING,
    NAMESPACE: NAMESPACE, RECEIPTS: RECEIPTS,
    Store: Store, Outbox: Outbox, migrate: migrate, migrateKey: migrateKey,
    fromCourtV1: fromCourtV1, fromReaderV1: fromReaderV1, readerItem: readerItem,
    create: function (options) { return new Outbox(options); }
  };
});
