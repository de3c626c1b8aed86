// static/js/outbox.js with a fake storage, a fake server and a fake clock (issue 30, item 3):
// items kept by prefix, the four answer kinds, the back-off, the held count, batches, and the
// move of what the versions before kept under their own keys (nothing is lost by an upgrade).
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");

const Outbox = require(path.join(__dirname, "..", "..", "static", "js", "outbox.js"));

// localStorage's interface over a Map; ``full`` makes setItem throw like a full device.
class FakeStorage {
  constructor(entries) { this.map = new Map(Object.entries(entries || {})); this.full = false; }
  get length() { return this.map.size; }
  key(n) { return [...this.map.keys()][n] ?? null; }
  getItem(k) { return this.map.has(k) ? this.map.get(k) : null; }
  setItem(k, v) { if (this.full) throw new Error("QuotaExceededError"); this.map.set(k, String(v)); }
  removeItem(k) { this.map.delete(k); }
  keys() { return [...this.map.keys()].sort(); }
}

// A clock and timers under the test's hand.
function fakeTime() {
  const t = { now: 1000, timers: [] };
  t.setTimeout = (f, ms) => { t.timers.push({ f, at: t.now + ms }); return t.timers.length; };
  t.clearTimeout = (id) => { if (t.timers[id - 1]) t.timers[id - 1].f = null; };
  t.pending = () => t.timers.filter((x) => x.f).map((x) => x.at - t.now);
  t.run = async () => {
    const next = t.timers.filter((x) => x.f).sort((a, b) => a.at - b.at)[0];
    if (!next) return false;
    t.now = next.at;
    const f = next.f;
    next.f = null;
    f();
    await settled();
    return true;
  };
  return t;
}
const settled = () => new Promise((resolve) => setImmediate(resolve));

// An outbox whose server answers from ``answers`` (a function of the items, or a list used in
// turn; a thrown error or a rejected promise is a network failure).
function make(answers, extra) {
  const storage = (extra && extra.storage) || new FakeStorage();
  const time = fakeTime();
  const calls = [];
  const outbox = Outbox.create(Object.assign({
    storage, name: "court",
    now: () => time.now, setTimeout: time.setTimeout, clearTimeout: time.clearTimeout,
    send(items) {
      calls.push(items.map((i) => i.key));
      const answer = typeof answers === "function" ? answers(items) : answers.shift();
      if (answer instanceof Error) return Promise.reject(answer);
      return Promise.resolve(answer);
    }
  }, extra || {}));
  return { outbox, storage, time, calls };
}

test("items are kept one entry each under the outbox's prefix, oldest first", () => {
  const { outbox, storage, time } = make([]);
  assert.equal(outbox.add({ key: "b", value: 2 }), true);
  time.now += 5;
  outbox.add({ key: "a", value: 1 });
  assert.deepEqual(storage.keys(), ["karuta.outbox:court:a", "karuta.outbox:court:b"]);
  assert.deepEqual(outbox.list().map((i) => i.key), ["b", "a"]);
  assert.deepEqual(outbox.get("a"), { key: "a", value: 1, at: 1005, state: "waiting", tries: 0 });
  assert.equal(outbox.held(), 2);
  storage.setItem("karuta.outbox:other:x", JSON.stringify({ key: "x", at: 1 }));
  storage.setItem("karuta.outbox:court:broken", "{not json");
  assert.equal(outbox.held(), 2); // another outbox's items and a broken entry are not its own
});

test("a full device keeps nothing and says so (the page then posts as usual)", () => {
  const { outbox, storage } = make([]);
  storage.full = true;
  assert.equal(outbox.add({ key: "a" }), false);
  assert.equal(outbox.held(), 0);
});

test("sent: the item leaves, with a receipt kept for a while", async () => {
  const { outbox, time, calls } = make([{ kind: "sent", receipt: { version: "3" } }], { receiptsFor: 600000 });
  outbox.add({ key: "a", label: "第1試合", fields: [["cards_a", "30"]] });
  assert.equal(await outbox.flush(), "sent");
  assert.deepEqual(calls, [["a"]]);
  assert.equal(outbox.held(), 0);
  const receipts = outbox.sentLately();
  assert.equal(receipts.length, 1);
  assert.deepEqual([receipts[0].key, receipts[0].label, receipts[0].version, receipts[0].fields], ["a", "第1試合", "3", undefined]);
  time.now += 600000;
  assert.deepEqual(outbox.sentLately(), []); // old receipts are dropped
});

test("refused: kept with its reason and state, never resent on its own", async () => {
  const { outbox, calls, time } = make([{ kind: "refused", reason: "Cards: 0–56." }, { kind: "refused", state: "conflict" }]);
  outbox.add({ key: "a" });
  time.now += 1;
  outbox.add({ key: "b" });
  assert.equal(await outbox.flush(), "refused");
  assert.deepEqual(calls, [["a"], ["b"]]);
  assert.deepEqual([outbox.get("a").state, outbox.get("a").error], ["refused", "Cards: 0–56."]);
  assert.equal(outbox.get("b").state, "conflict");
  assert.equal(outbox.held(), 2); // still held (and counted) until the person decides
  assert.equal(await outbox.flush(), "");
  assert.equal(calls.length, 2);
  assert.deepEqual(time.pending(), []);
});

test("refused with drop: the item leaves (the page notes it)", async () => {
  const noted = [];
  const { outbox } = make([{ kind: "refused", reason: "Log line 1: wrong.", drop: true }], {
    onAnswer: (items, answer) => noted.push([items[0].key, answer.kind, answer.reason])
  });
  outbox.add({ key: "1" });
  await outbox.flush();
  assert.equal(outbox.held(), 0);
  assert.deepEqual(noted, [["1", "refused", "Log line 1: wrong."]]);
});

test("gone: kept with a note; with stop, nothing more is sent", async () => {
  const { outbox, calls, time } = make([{ kind: "gone" }, { kind: "sent" }, { kind: "gone", stop: true }]);
  outbox.add({ key: "a" });
  time.now += 1;
  outbox.add({ key: "b" });
  await outbox.flush();
  assert.equal(outbox.get("a").state, "gone");
  assert.equal(outbox.get("b"), null);
  outbox.add({ key: "c" });
  outbox.add({ key: "d" });
  await outbox.flush();
  assert.equal(outbox.stopped, true);
  assert.deepEqual(calls, [["a"], ["b"], ["c"]]);
  assert.equal(outbox.get("d").state, "waiting"); // kept on the device
});

test("retry: no answer or a busy server waits longer each time, up to the maximum", async () => {
  const { outbox, time, calls } = make(() => new Error("offline"), { firstDelay: 2000, maxDelay: 10000 });
  outbox.add({ key: "a" });
  assert.equal(await outbox.flush(), "retry");
  assert.deepEqual(time.pending(), [2000]);
  assert.equal(outbox.get("a").tries, 1);
  const delays = [];
  for (let n = 0; n < 4; n++) { await time.run(); delays.push(...time.pending()); }
  assert.deepEqual(delays, [4000, 8000, 10000, 10000]);
  assert.equal(outbox.get("a").tries, 5);
  assert.equal(outbox.get("a").state, "waiting");
  assert.equal(calls.length, 5);
});

test("send now (a tap, the network back) goes at once and starts the back-off again", async () => {
  let online = false;
  const { outbox, time } = make(() => (online ? { kind: "sent" } : { kind: "retry" }));
  outbox.add({ key: "a" });
  await outbox.flush();
  await time.run();
  assert.deepEqual(time.pending(), [4000]);
  await outbox.sendNow();
  assert.deepEqual(time.pending(), [2000]); // started again from the first delay
  online = true;
  await outbox.sendNow();
  assert.equal(outbox.held(), 0);
  assert.deepEqual(time.pending(), []); // the timer of the retry was cleared
});

test("a send throwing at once is a retry, not a crash", async () => {
  const { outbox } = make([], { send: () => { throw new Error("no fetch"); } });
  outbox.add({ key: "a" });
  assert.equal(await outbox.flush(), "retry");
  assert.equal(outbox.held(), 1);
});

test("an unknown answer is a retry (never a lost item)", async () => {
  const { outbox } = make([{ kind: "saved?" }, undefined]);
  outbox.add({ key: "a" });
  assert.equal(await outbox.flush(), "retry");
  assert.equal(outbox.get("a").state, "waiting");
});

test("batches: acknowledged keys leave, the others stay; a batch refused whole is split to find the line", async () => {
  const { outbox, calls } = make((items) => {
    if (items.some((i) => i.key === "3")) return items.length > 1 ? { kind: "refused", reason: "line 3" } : { kind: "refused", reason: "line 3", drop: true };
    return { kind: "sent", keys: items.map((i) => Number(i.key)) };
  }, { batch: 200, name: "reader-log:1:11" });
  for (let seq = 1; seq <= 5; seq++) outbox.add(Outbox.readerItem({ seq, kind: "read", at: 5 }));
  await outbox.flush();
  assert.deepEqual(calls, [["1", "2", "3", "4", "5"], ["1"], ["2"], ["3"], ["4"], ["5"]]);
  assert.equal(outbox.held(), 0);
  for (let seq = 6; seq <= 8; seq++) outbox.add(Outbox.readerItem({ seq, kind: "read", at: 5 }));
  await outbox.flush();
  assert.deepEqual(calls.at(-1), ["6", "7", "8"]); // whole batches again once the queue was empty
});

test("an answer that acknowledges none of the batch is a retry (no loop of resends)", async () => {
  const { outbox, calls, time } = make(() => ({ kind: "sent", keys: [] }), { batch: 10 });
  outbox.add({ key: "1" });
  await outbox.flush();
  assert.equal(calls.length, 1);
  assert.deepEqual(time.pending(), [2000]);
  assert.equal(outbox.held(), 1);
});

test("eligible: only this page's items are sent and counted", async () => {
  const { outbox, calls } = make(() => ({ kind: "sent" }), { eligible: (i) => i.link === "/court/A/" });
  outbox.add({ key: "mine", link: "/court/A/" });
  outbox.add({ key: "other", link: "/court/B/" });
  assert.equal(outbox.held(), 1);
  await outbox.flush();
  assert.deepEqual(calls, [["mine"]]);
  assert.equal(outbox.get("other").state, "waiting");
  assert.equal(await outbox.attempt([outbox.get("other")]).then((a) => a.kind), "sent"); // sent on a tap
});

test("one send at a time: a flush while sending waits for it", async () => {
  let release;
  const { outbox, calls } = make(() => new Promise((resolve) => { release = resolve; }));
  outbox.add({ key: "a" });
  const first = outbox.flush();
  assert.equal(outbox.sending, true);
  assert.equal(outbox.held(), 1); // under way: still held
  await outbox.flush();
  assert.equal(calls.length, 1);
  release({ kind: "sent" });
  await first;
  assert.equal(outbox.sending, false);
  assert.equal(outbox.held(), 0);
});

test("the court tablet's results and receipts of the version before are moved, never lost", () => {
  const kept = { key: "k1", url: "/court/T/game/1/", fields: [["cards_a", "30"]], at: 5, state: "waiting", tries: 2 };
  const storage = new FakeStorage({
    "karuta.unsent.v1:k1": JSON.stringify(kept),
    "karuta.unsent.v1:k2": JSON.stringify(Object.assign({}, kept, { key: "k2", state: "gone", at: 6 })),
    "karuta.sent.v1:k0": JSON.stringify({ key: "k0", label: "第1試合", version: "1", at: 4 }),
    "karuta.unsent.v1:junk": "{",
    "unrelated": "1"
  });
  const { outbox } = make([], { storage, receiptsFor: 1e12 });
  assert.equal(Outbox.fromCourtV1(storage, outbox), 3);
  assert.deepEqual(outbox.get("k1"), kept);
  assert.equal(outbox.get("k2").state, "gone");
  assert.deepEqual(outbox.sentLately().map((r) => r.key), ["k0"]);
  assert.deepEqual(storage.keys(), ["karuta.outbox-sent:court:k0", "karuta.outbox:court:k1", "karuta.outbox:court:k2", "unrelated"]);
  assert.equal(Outbox.fromCourtV1(storage, outbox), 0); // once
});

test("an old entry stays where it was when the device is full", () => {
  const storage = new FakeStorage({ "karuta.unsent.v1:k1": JSON.stringify({ key: "k1", at: 1 }) });
  const { outbox } = make([], { storage });
  storage.full = true;
  assert.equal(Outbox.fromCourtV1(storage, outbox), 0);
  assert.ok(storage.getItem("karuta.unsent.v1:k1"));
});

test("the reader's lines of the version before are moved, with the last line number", () => {
  const line = (seq) => ({ seq, kind: "read", card: "あ", reading: "first", key: "card:あ", at: 100 + seq });
  const storage = new FakeStorage({
    "reader-log:1:11": JSON.stringify({ seq: 9, queue: [line(8), line(9)] }),
    "reader-log:1:11:state": JSON.stringify({ done: 3 }) // the position: not a log
  });
  const { outbox } = make([], { storage, name: "reader-log:1:11" });
  assert.deepEqual(Outbox.fromReaderV1(storage, outbox, "reader-log:1:11"), { moved: 2, seq: 9 });
  assert.deepEqual(outbox.list().map((i) => i.line), [line(8), line(9)]);
  assert.deepEqual(storage.keys(), ["karuta.outbox:reader-log:1:11:8", "karuta.outbox:reader-log:1:11:9", "reader-log:1:11:state"]);
});

test("the four answer kinds", () => {
  assert.deepEqual(Outbox.KINDS, ["sent", "refused", "gone", "retry"]);
});

test("an old entry already moved by another tab is removed, the moved one kept as it is now", () => {
  const storage = new FakeStorage({
    "karuta.unsent.v1:k1": JSON.stringify({ key: "k1", at: 1, state: "waiting", tries: 0 }),
    "karuta.outbox:court:k1": JSON.stringify({ key: "k1", at: 1, state: "refused", tries: 3, error: "Cards" })
  });
  const { outbox } = make([], { storage });
  Outbox.fromCourtV1(storage, outbox);
  assert.deepEqual(storage.keys(), ["karuta.outbox:court:k1"]);
  assert.deepEqual([outbox.get("k1").state, outbox.get("k1").tries], ["refused", 3]);
});
