"""The crawl of the whole product (issue 27, item 1): every URL pattern, as every role that may
open it, at four widths, in Chromium, with the outside checkers.

``run(base_url, fixture, out_dir)`` returns a ``Crawl``: the visits, the files fetched, and the
findings (``Finding``: the check, the page's pattern name, role, width, language, what was
found). The tests in ``test_surface.py`` compare the findings with ``known_findings.KNOWN``.

How a page is visited: the server is asked first, with each role's cookies and no redirects
followed (``probe``): a 200 HTML page is opened in the browser, anything else 200 is a file
(checked by ``files.py``); a redirect, 403 or 404 means the role may not open it. Pages are
opened in Chromium (Debian's, through Playwright) by a few workers at once, each with its own
browser contexts (one per role and language), at every width in Japanese and at 1366 px in
English. At 1366 px in Japanese a page also gets axe-core, its HTML kept for the Nu HTML
Checker (run once over every page at the end), its QR codes decoded and its links collected.
"""

import asyncio
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from tests.surface import files, language, urls

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
PAGE_CHECKS = (HERE / "page_checks.js").read_text(encoding="utf-8")
WIDTHS = [(390, 844), (768, 1024), (1366, 900), (1920, 1080)]
MAIN_WIDTH = 1366  # axe, HTML, QR, links and the English visit
LOGIN_ROLES = ["anonymous", "recorder", "organiser", "admin"]
TOKEN_ROLES = {"court/": "court link", "club/": "club link", "reader/": "reader link"}
WORKERS = int(os.environ.get("SURFACE_WORKERS", "2"))  # pages open at once (one browser)
# SURFACE_ONLY=<regex>: crawl only the patterns whose name matches (a quick look at a few pages
# while working on them; the coverage test then fails, as it should, on the patterns left out).
ONLY = os.environ.get("SURFACE_ONLY", "")
PROGRESS = None  # a file the workers write a line to after each page (conftest opens it)
SERIOUS = {"serious", "critical"}
CSP_LISTENER = """
document.addEventListener('securitypolicyviolation', e => {
  (window.__csp = window.__csp || []).push(e.violatedDirective + ' ' + (e.blockedURI || 'inline'));
});
"""


@dataclass(frozen=True)
class Finding:
    check: str
    name: str
    path: str
    role: str
    detail: str
    width: int = 0
    lang: str = ""

    def line(self):
        where = f"{self.width}px " if self.width else ""
        return f"[{self.check}] {self.name} {self.path} as {self.role} {where}{self.lang}: {self.detail}"


@dataclass
class Crawl:
    visits: list = field(default_factory=list)  # (name, path, role, width, lang)
    files: list = field(default_factory=list)  # (kind, name, path, role)
    findings: list = field(default_factory=list)
    crawled: set = field(default_factory=set)  # pattern names opened as a page or fetched as a file
    refused_get: dict = field(default_factory=dict)  # POST-only pattern name -> GET status
    unfilled: list = field(default_factory=list)  # pattern names no address could be made for
    seconds: float = 0.0

    def add(self, *args, **kw):
        self.findings.append(Finding(*args, **kw))


def _token_role(path):
    for prefix, role in TOKEN_ROLES.items():
        if path.startswith("/" + prefix) and not path.startswith(
            ("/reader/practice", "/reader/decks", "/reader/audio")
        ):
            return role
    return None


def _cookies(base, fixture, role, lang):
    host = urllib.parse.urlsplit(base).hostname
    jar = [{"name": "django_language", "value": lang, "domain": host, "path": "/"}]
    key = fixture["sessions"].get(role)
    if key:
        jar.append({"name": "sessionid", "value": key, "domain": host, "path": "/"})
    return jar


async def _probe(pw, base, fixture, targets, crawl):
    """Who may open what: {(name, path): {role: (status, content type, body)}}."""
    found = {}
    contexts = {}
    for role in LOGIN_ROLES:
        ctx = await pw.request.new_context(base_url=base)
        contexts[role] = ctx
        key = fixture["sessions"].get(role)
        headers = {"Cookie": "django_language=ja" + (f"; sessionid={key}" if key else "")}
        contexts[role] = (ctx, headers)
    for d, path in targets:
        answers = {}
        for role in LOGIN_ROLES:
            # a visitor's page is not asked again as a person; a link's page only as itself;
            # the superuser only where neither the recorder nor the organiser may open it
            if role != "anonymous" and (_token_role(path) or answers["anonymous"][0] == 200):
                break
            if role == "admin" and any(answers[r][0] == 200 for r in ("recorder", "organiser")):
                break
            ctx, headers = contexts[role]
            r = await ctx.get(path, headers=headers, max_redirects=0, timeout=60000)
            body = await r.body()
            answers[role] = (r.status, r.headers.get("content-type", ""), body, r.headers)
            if r.status >= 500:
                crawl.add("http", d.name, path, role, f"GET answered {r.status}")
        found[(d, path)] = answers
    for ctx, _ in contexts.values():
        await ctx.dispose()
    return found


def _visiting_roles(path, answers):
    """The roles that open ``path`` in the browser: the token's role, else those answered 200
    (a public page as a visitor only; the superuser only where nobody else may)."""
    ok = [r for r, a in answers.items() if a[0] == 200]
    token = _token_role(path)
    if token:
        return [token] if ok else []
    if "anonymous" in ok:
        return ["anonymous"]
    people = [r for r in ("recorder", "organiser") if r in ok]
    return people or (["admin"] if "admin" in ok else [])


LAYOUT = {"sideways-scroll", "clipped", "one-char-per-line", "button-cut", "out-of-column"}


async def _open(page, base, name, path, role, lang, crawl):
    """Load the page, listening for console errors and failed requests; the response or None."""
    heard = {"errors": [], "failed": []}
    # the address a console error is about goes with it (a failed load's text does not name it)
    page.on(
        "console",
        lambda m: (
            heard["errors"].append(f"{m.text} ({m.location.get('url', '')})".replace(" ()", ""))
            if m.type == "error"
            else None
        ),
    )
    page.on("pageerror", lambda e: heard["errors"].append(f"uncaught: {e}"))
    page.on("requestfailed", lambda r: heard["failed"].append(f"{r.url} ({r.failure})"))
    page.on(
        "response",
        lambda r: heard["failed"].append(f"{r.status} {r.url}") if r.status >= 400 and r.url != base + path else None,
    )
    try:
        response = await page.goto(base + path, wait_until="domcontentloaded", timeout=30000)
        try:
            await page.wait_for_load_state("load", timeout=8000)
        except Exception:
            crawl.add("http", name, path, role, "the page did not finish loading in 8 s", lang=lang)
    except Exception as e:  # a page that never loads is a finding, not a crash of the crawl
        crawl.add("http", name, path, role, f"did not load: {e}"[:300], lang=lang)
        return None, heard
    if response is None or response.status >= 400:
        crawl.add("http", name, path, role, f"answered {response.status if response else 'nothing'}", lang=lang)
    return response, heard


async def _main_checks(page, response, result, name, path, role, crawl, axe_source, keep):
    """At 1366 px in Japanese: the HTML kept, axe-core, the QR codes shot, the links kept."""
    where = dict(width=MAIN_WIDTH, lang="ja")
    keep["html"].append((name, path, role, await response.text()))
    await page.evaluate(axe_source)
    axe = await page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => [v.id, v.impact, v.help, v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '), v.nodes.length])"
    )
    for rule, impact, text, targets, count in axe:
        if impact in SERIOUS:
            crawl.add("axe", name, path, role, f"{rule} ({impact}, {count}×): {text} — {targets}", **where)
    for index in result["qr"]:
        shot = await page.locator(f'[data-surface-qr="{index}"]').screenshot()
        keep["qr"].append((name, path, role, shot))
    links = await page.evaluate(
        "() => [...document.querySelectorAll('a[href]')].map(a => a.href)"
        ".filter(h => h.startsWith(location.origin)).map(h => h.split('#')[0])"
    )
    base = response.url[: response.url.index("/", 8)]
    for href in links:
        keep["links"].setdefault(href[len(base) :], (name, path, role))


async def _visit(ctx, base, name, path, role, lang, crawl, axe_source, keep):
    """One page as one role in one language: loaded once, then measured at every width
    (the window resized, as a tablet turned), the other checks at 1366 px."""
    page = await ctx.new_page()
    admin = name.startswith("admin:")
    widths = WIDTHS if lang == "ja" and not admin else [(MAIN_WIDTH, 900)]
    await page.set_viewport_size({"width": widths[0][0], "height": widths[0][1]})
    response, heard = await _open(page, base, name, path, role, lang, crawl)
    if response is None:
        await page.close()
        return
    for width, height in widths:
        await page.set_viewport_size({"width": width, "height": height})
        await page.wait_for_timeout(60)
        main = width == MAIN_WIDTH
        result = await page.evaluate(PAGE_CHECKS, main)
        crawl.visits.append((name, path, role, width, lang))
        for check, detail in result["problems"]:
            if check in LAYOUT or main:
                crawl.add(check, name, path, role, detail, width=width, lang=lang)
        if main and not admin:
            text = "\n".join((result["text"], result["labels"], result["title"]))
            for word in language.wrong_words(text, lang, keep["names"]):
                crawl.add(f"language-{lang}", name, path, role, word, width=width, lang=lang)
            if lang == "ja":
                await _main_checks(page, response, result, name, path, role, crawl, axe_source, keep)
    csp = await page.evaluate("() => window.__csp || []")
    for check, texts in (("console", heard["errors"]), ("csp", csp), ("subrequest", heard["failed"])):
        for text in texts:
            if "/favicon.ico" not in text:
                crawl.add(check, name, path, role, text[:300], lang=lang)
    await page.close()


async def _worker(queue, browser, base, fixture, crawl, axe_source, keep):
    contexts = {}

    async def context(role, lang):
        if (role, lang) not in contexts:
            ctx = await browser.new_context(locale="ja-JP" if lang == "ja" else "en-US")
            login = role if role in fixture["sessions"] else "anonymous"
            await ctx.add_cookies(_cookies(base, fixture, login, lang))
            await ctx.add_init_script(CSP_LISTENER)
            contexts[(role, lang)] = ctx
        return contexts[(role, lang)]

    while True:
        try:
            name, path, role = queue.get_nowait()
        except asyncio.QueueEmpty:
            break
        # Django's admin (the superuser's tool, Django's own pages): loaded once, in Japanese at
        # 1366 px, for the load checks only (HTTP, console, CSP, sub-requests).
        for lang in ("ja",) if name.startswith("admin:") else ("ja", "en"):
            await _visit(await context(role, lang), base, name, path, role, lang, crawl, axe_source, keep)
        done = len(crawl.visits)
        if PROGRESS:
            PROGRESS.write(f"{time.monotonic():.0f} {done} {name} {path} {role}\n")
            PROGRESS.flush()
    for ctx in contexts.values():
        await ctx.close()


def _validate_html(pages, crawl):
    """The Nu HTML Checker over every page kept, in one Java run; its errors as findings."""
    if not pages:
        return
    folder = Path(tempfile.mkdtemp(prefix="surface-html-"))
    where = {}
    for i, (name, path, role, html) in enumerate(pages):
        file = folder / f"page-{i}.html"
        file.write_text(html, encoding="utf-8")
        where[file.name] = (name, path, role)
    run = subprocess.run(
        ["java", "-Xss8m", "-jar", str(VNU), "--errors-only", "--format", "json", "--exit-zero-always", str(folder)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = json.loads(run.stderr or run.stdout or '{"messages": []}')
    for m in report.get("messages", []):
        file = m.get("url", "").rsplit("/", 1)[-1]
        name, path, role = where.get(file, ("?", "?", "?"))
        line = m.get("lastLine", "?")
        crawl.add("html", name, path, role, f"line {line}: {m.get('message', '')}"[:300], width=MAIN_WIDTH, lang="ja")
    shutil.rmtree(folder, ignore_errors=True)


def _decode_qr(shots, base, crawl, get_status):
    """Each QR code on a page decodes (zbarimg) to an address of this server that answers 200."""
    for name, path, role, png in shots:
        with tempfile.NamedTemporaryFile(suffix=".png") as f:
            f.write(png)
            f.flush()
            run = subprocess.run(["zbarimg", "-q", "--raw", f.name], capture_output=True, text=True)
        text = run.stdout.strip()
        if not text:
            crawl.add("qr", name, path, role, "a QR code on the page does not decode", width=MAIN_WIDTH, lang="ja")
            continue
        if not text.startswith(base):
            crawl.add("qr", name, path, role, f"decodes to {text!r}, not an address of this server", width=MAIN_WIDTH)
            continue
        status = get_status(text[len(base) :])
        if status != 200:
            crawl.add("qr", name, path, role, f"decodes to {text} which answers {status}", width=MAIN_WIDTH)


async def _crawl(base, fixture, crawl):
    from playwright.async_api import async_playwright

    from tests.browser.support import ARGS, CHROMIUM

    targets = []
    for d in urls.declared():
        if urls.not_visited(d) or (ONLY and not re.search(ONLY, d.name)):
            continue
        paths = urls.address_list(d, fixture)
        if not paths:
            crawl.unfilled.append(d.name)
        targets += [(d, p) for p in paths]
    keep = {"html": [], "qr": [], "links": {}, "names": language.names_pattern(fixture["names"])}
    async with async_playwright() as pw:
        answers = await _probe(pw, base, fixture, targets, crawl)
        await _check_post_only(pw, base, fixture, crawl)
        queue = asyncio.Queue()
        fetch = []
        for (d, path), by_role in answers.items():
            roles = _visiting_roles(path, by_role)
            if d.name == "api:api/v1/^.*$" and by_role["anonymous"][0] == 404:
                crawl.crawled.add(d.name)  # the API's own 404 for an unknown address: JSON
                crawl.files.append(("json-404", d.name, path, "anonymous"))
                continue
            if d.name in urls.REDIRECTS and all(a[0] in (301, 302) for a in by_role.values()):
                crawl.crawled.add(d.name)  # a redirect on purpose, for every role (urls.REDIRECTS)
                continue
            if not roles and not any(a[0] in (301, 302) and d.admin for a in by_role.values()):
                statuses = ", ".join(f"{r} {a[0]}" for r, a in by_role.items())
                crawl.add("http", d.name, path, "-", f"no role may open it ({statuses})")
            for role in roles:
                status, kind, body, headers = by_role["anonymous" if _token_role(path) else role]
                crawl.crawled.add(d.name)
                if kind.startswith("text/html"):
                    queue.put_nowait((d.name, path, role))
                else:
                    fetch.append((d.name, path, role, kind, body, headers))
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        axe_source = AXE.read_text(encoding="utf-8")
        await asyncio.gather(*[_worker(queue, browser, base, fixture, crawl, axe_source, keep) for _ in range(WORKERS)])
        await browser.close()
        fetched = {p for _n, p, *_ in fetch}
        linked = await _linked_files(pw, base, fixture, keep["links"], fetched, crawl)
    for name, path, role, kind, body, headers in fetch + linked:
        files.check(name, path, role, kind, body, headers, crawl)
    statuses = {}

    def status_of(path):
        if path not in statuses:
            statuses[path] = files.status(base, path)
        return statuses[path]

    _decode_qr(keep["qr"], base, crawl, status_of)
    _validate_html(keep["html"], crawl)


async def _check_post_only(pw, base, fixture, crawl):
    """A GET of each POST-only pattern, as its organiser or its link: 405, or a redirect."""
    ctx = await pw.request.new_context(base_url=base)
    headers = {"Cookie": f"sessionid={fixture['sessions']['organiser']}"}
    for d in urls.declared():
        if d.name not in urls.POST_ONLY:
            continue
        paths = urls.address_list(d, fixture)
        if not paths:
            crawl.unfilled.append(d.name)
            continue
        r = await ctx.get(paths[0], headers=headers, max_redirects=0)
        crawl.refused_get[d.name] = r.status
    await ctx.dispose()


async def _linked_files(pw, base, fixture, links, fetched, crawl):
    """Every address the pages link to answers below 400 (as the role whose page showed it);
    the files among them (PDF, workbooks, CSV …) are fetched for their checks."""
    out = []
    contexts = {}
    for path, (name, page_path, role) in sorted(links.items()):
        if path in fetched or path.startswith(("/accounts/logout", "/i18n/")) or not path.startswith("/"):
            continue
        if role not in contexts:
            ctx = await pw.request.new_context(base_url=base)
            login = role if role in fixture["sessions"] else "anonymous"
            key = fixture["sessions"].get(login)
            contexts[role] = (ctx, {"Cookie": "django_language=ja" + (f"; sessionid={key}" if key else "")})
        ctx, headers = contexts[role]
        r = await ctx.get(path, headers=headers, timeout=60000)
        if r.status >= 400:
            crawl.add("dead-link", name, page_path, role, f"links to {path}, which answers {r.status}")
            continue
        kind = r.headers.get("content-type", "")
        if not kind.startswith("text/html"):
            out.append((name, path, role, kind, await r.body(), r.headers))
    for ctx, _ in contexts.values():
        await ctx.dispose()
    return out


def run(base, fixture):
    crawl = Crawl()
    start = time.monotonic()
    asyncio.run(_crawl(base, fixture, crawl))
    crawl.seconds = time.monotonic() - start
    return crawl


def coverage_text(crawl, declared):
    """The coverage list: every page with its roles, widths and languages; the files; counts."""
    pages = {}
    for name, path, role, width, lang in crawl.visits:
        pages.setdefault((name, path, role), set()).add(f"{width}{'' if lang == 'ja' else '-' + lang}")
    lines = ["# Pages (pattern, address, role: widths)"]
    for (name, path, role), seen in sorted(pages.items()):
        lines.append(f"{name}\t{path}\t{role}\t{' '.join(sorted(seen, key=lambda s: (len(s), s)))}")
    lines.append("")
    lines.append("# Files (kind, pattern, address, role)")
    for kind, name, path, role in sorted(set(crawl.files)):
        lines.append(f"{kind}\t{name}\t{path}\t{role}")
    lines.append("")
    lines.append("# Not opened as pages (POST only: the answer to a GET)")
    for name, status in sorted(crawl.refused_get.items()):
        lines.append(f"{name}\tGET {status}\t{urls.POST_ONLY[name]}")
    lines.append("")
    lines.append(summary(crawl, declared))
    return "\n".join(lines) + "\n"


def summary(crawl, declared):
    kinds = {}
    for kind, *_ in set(crawl.files):
        kinds[kind] = kinds.get(kind, 0) + 1
    roles = sorted({v[2] for v in crawl.visits})
    widths = sorted({v[3] for v in crawl.visits})
    pairs = {(v[1], v[2]) for v in crawl.visits}
    return (
        f"surface crawl: {len(declared)} URL patterns declared, {len(crawl.crawled)} crawled as pages or files, "
        f"{len(crawl.refused_get)} POST-only checked with a GET; {len({v[1] for v in crawl.visits})} addresses opened "
        f"as {len(pairs)} (address, role) pairs, {len(crawl.visits)} page visits; roles: {', '.join(roles)}; "
        f"widths: {', '.join(map(str, widths))} (+ English at {MAIN_WIDTH}); files: "
        + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        + f"; {len(crawl.findings)} findings; {crawl.seconds:.0f} s"
    )
