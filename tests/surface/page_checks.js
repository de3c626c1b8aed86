// What the crawl (tests/surface) measures on a page once it has loaded, in the page itself.
// Returns {problems: [[check, detail], ...], qr: [selector index, ...], text: {...}}.
// Checks: sideways scroll; text clipped by its box (not a scrolling marquee); text one character per line; a button or
// link cut by its box or the window; a block running out of its column; a form control
// without an accessible name; radio buttons without a group name; buttons named by a
// symbol only. The visible text (minus lang-marked parts) goes back for the language check.
(full) => {
  const problems = [];
  const W = window.innerWidth;
  const doc = document.documentElement;
  const describe = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    const cls = (el.getAttribute("class") || "").trim().split(/\s+/).filter(Boolean).slice(0, 2);
    if (cls.length) s += "." + cls.join(".");
    const text = (el.innerText || el.value || "").trim().replace(/\s+/g, " ").slice(0, 30);
    return text ? `${s} 「${text}」` : s;
  };
  const visible = (el) => {
    const st = getComputedStyle(el);
    if (st.display === "none" || st.visibility === "hidden") return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  };
  if (doc.scrollWidth > W + 1) {
    // the widest culprits: elements whose right edge lies beyond the window
    const wide = [...document.body.querySelectorAll("*")]
      .filter((el) => el.getBoundingClientRect().right > W + 1 && visible(el))
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= W + 1)
      .slice(0, 3).map(describe);
    problems.push(["sideways-scroll", `page ${doc.scrollWidth}px wide in a ${W}px window: ${wide.join(", ")}`]);
  }
  const scrolls = new Map();
  const inScroller = (el) => {
    const p = el.parentElement;
    if (!p || p === document.body) return false;
    if (scrolls.has(p)) return scrolls.get(p);
    const o = getComputedStyle(p).overflowX;
    const answer = o === "auto" || o === "scroll" || inScroller(p);
    scrolls.set(p, answer);
    return answer;
  };
  // a marquee: a box whose overflowing child moves sideways on purpose (a running animation of
  // its transform, as the hall screens' ticker): all its text passes through the box in turn
  const marquee = (el) => [...el.children].some((c) => c.getBoundingClientRect().width > el.clientWidth + 2
    && c.getAnimations().some((a) => a.playState === "running" && a.effect
      && a.effect.getKeyframes().some((k) => k.transform && k.transform !== "none")));
  for (const el of document.body.querySelectorAll("*")) {
    if (!visible(el) || el.closest("svg")) continue;
    const st = getComputedStyle(el);
    const tag = el.tagName;
    const r = el.getBoundingClientRect();
    const text = (el.innerText || "").trim();
    // text clipped: a box that hides what does not fit, and something does not fit
    if ((st.overflowX === "hidden" || st.overflowX === "clip") && el.scrollWidth > el.clientWidth + 2
        && st.textOverflow !== "ellipsis" && text && !el.matches("[data-surface-clip-ok]") && !marquee(el)
        && !(r.width <= 1.5 && r.height <= 1.5)) { // not a visually hidden box (1 px: for screen readers only)
      problems.push(["clipped", `${describe(el)}: ${el.scrollWidth}px of text in ${el.clientWidth}px`]);
    }
    // one character per line: a text block far taller than wide, in horizontal writing
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    if (own.length >= 3 && st.writingMode.startsWith("horizontal")) {
      const fs = parseFloat(st.fontSize) || 16;
      const lh = parseFloat(st.lineHeight) || fs * 1.3;
      if (r.width < fs * 1.9 && r.height > lh * 2.5 && !/^[\d\s.,:]+$/.test(own)) {
        problems.push(["one-char-per-line", `${describe(el)}: ${Math.round(r.width)}×${Math.round(r.height)}px`]);
      }
    }
    // a button or a button-like link cut: its label wider than the button
    if ((tag === "BUTTON" || (tag === "A" && el.classList.contains("button"))) && text) {
      if (el.scrollWidth > el.clientWidth + 2 && st.overflowX !== "visible") {
        problems.push(["button-cut", `${describe(el)}: label ${el.scrollWidth}px in ${el.clientWidth}px`]);
      }
      if (!inScroller(el) && (r.right > W + 1 || r.left < -1)) {
        problems.push(["button-cut", `${describe(el)}: outside the window (${Math.round(r.left)}–${Math.round(r.right)}px)`]);
      }
    }
    // a block out of its column: wider than its parent, which does not scroll
    const parent = el.parentElement;
    if (parent && parent !== document.body && st.position !== "absolute" && st.position !== "fixed"
        && !inScroller(el) && (st.display === "block" || st.display === "flex" || st.display === "grid" || tag === "TABLE")) {
      const pr = parent.getBoundingClientRect();
      const pst = getComputedStyle(parent);
      const padR = parseFloat(pst.paddingRight) || 0;
      if (r.right > pr.right + 2 && r.width > pr.width - 2 * padR + 2 && pst.overflowX === "visible"
          && !(el.closest("[data-surface-overflow-ok]"))) {
        problems.push(["out-of-column", `${describe(el)} is ${Math.round(r.width)}px in ${describe(parent)} of ${Math.round(pr.width)}px`]);
      }
    }
  }
  if (!full) return { problems };
  // form controls and their names, as a person finds them: with every folded part (details)
  // opened, as they open it to fill it in (a closed details renders no text: no label reads)
  const closed = [...document.querySelectorAll("details:not([open])")];
  closed.forEach((d) => { d.open = true; });
  const nameOf = (el) => {
    const label = el.getAttribute("aria-label");
    if (label && label.trim()) return label.trim();
    const by = el.getAttribute("aria-labelledby");
    if (by) {
      const t = by.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean).map((n) => n.textContent.trim()).join(" ");
      if (t) return t;
    }
    if (el.labels && el.labels.length) {
      const t = [...el.labels].map((l) => l.innerText.trim()).join(" ");
      if (t) return t;
    }
    if (["BUTTON", "A", "SUMMARY"].includes(el.tagName) || ["submit", "button", "reset"].includes(el.type)) {
      const t = (el.innerText || el.value || "").trim();
      if (t) return t;
      const img = el.querySelector("img[alt]");
      if (img && img.alt.trim()) return img.alt.trim();
    }
    if (el.title && el.title.trim()) return el.title.trim();
    if (el.placeholder && el.placeholder.trim()) return el.placeholder.trim();
    return "";
  };
  for (const el of document.querySelectorAll("input, select, textarea, button")) {
    if (el.type === "hidden" || !visible(el)) continue;
    const name = nameOf(el);
    if (!name) problems.push(["unnamed-control", describe(el) + (el.name ? ` name=${el.name}` : "")]);
    else if (/^[\s\-−－+＋×✕▲▼◀▶←→<>]+$/.test(name)) problems.push(["symbol-name", `${describe(el)} is named only «${name}»`]);
  }
  const radios = {};
  for (const el of document.querySelectorAll('input[type="radio"]')) {
    if (!visible(el) && !(el.labels && el.labels.length && visible(el.labels[0]))) continue;
    (radios[el.name] = radios[el.name] || []).push(el);
  }
  for (const [name, group] of Object.entries(radios)) {
    if (group.length < 2) continue;
    const fs = group[0].closest("fieldset");
    const role = group[0].closest('[role="radiogroup"], [role="group"]');
    const named = (fs && fs.querySelector("legend") && fs.querySelector("legend").innerText.trim())
      || (role && nameOf(role));
    if (!named) problems.push(["radio-group-unnamed", `radio buttons name=${name} (${group.length}) have no fieldset/legend or named group`]);
  }
  closed.forEach((d) => { d.open = false; });
  // QR codes on the page: their boxes, for a screenshot each
  const qr = [...document.querySelectorAll('.qr svg, .qr img, img[src*="qr"], svg[data-qr]')]
    .filter(visible).map((el, i) => { el.setAttribute("data-surface-qr", String(i)); return i; });
  // the visible text, without the parts marked as another language, code and form values
  const lang = doc.lang || "";
  const parts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    if (!p || !n.textContent.trim()) continue;
    if (p.closest("script, style, noscript, template, code, kbd, samp, textarea, option, [data-surface-name]")) continue;
    const marked = p.closest("[lang]");
    if (marked && marked.getAttribute("lang") !== lang) continue;
    if (!p.checkVisibility({ visibilityProperty: true })) continue;
    parts.push(n.textContent.trim());
  }
  // titles and labels too, but not those of an element marked as another language
  const titles = [...document.querySelectorAll("[title], [aria-label], img[alt], input[placeholder]")]
    .filter((el) => { const m = el.closest("[lang]"); return !m || m.getAttribute("lang") === lang; })
    .map((el) => [el.getAttribute("title"), el.getAttribute("aria-label"), el.getAttribute("alt"), el.getAttribute("placeholder")]
      .filter(Boolean).join(" "));
  return { problems, qr, lang, text: parts.join("\n"), labels: titles.join("\n"), title: document.title };
}
