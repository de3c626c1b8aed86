"""The architecture, checked: the direction of imports, no circles, pure engines.

The import graph is built from the source (``ast``), imports inside functions included, so an
import hidden in a function cannot dodge a rule. The rules are those of
``docs/architecture.md``, "Direction of imports":

- layers, lowest first: engines and ``common``; models (and what only reads them);
  the read side (``tournament.reports``); writing results (``judging.services``); the other
  services; presentation (forms, tables, Excel, paper, admin, commands); views; URL modules
  and the project package. A module imports only its own layer or lower ones;
- an engine (``*/engine/``) imports the standard library and its own engine package only;
- ``common`` imports no app; the club games (``hanafuda``, ``dosai``) import ``common`` and
  themselves only; ``judging`` imports of ``tournament`` only its models, access helpers,
  clock, engine and read side (``reports``);
- only URL modules import view modules, and no view module imports another;
- no circle between modules.
"""

from __future__ import annotations

import ast
import sys
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
APPS = (
    "common",
    "config",
    "ops",
    "tournament",
    "judging",
    "hanafuda",
    "dosai",
    "awards",
    "series",
    "club_entry",
    "reader",
    "people",
)

# Lowest first. A module belongs to the first layer with a matching pattern.
LAYERS = [
    ("engines and common", ["*.engine", "*.engine.*", "common", "common.*", "*.errors"]),
    (
        "models",
        [
            "*.models",
            "*.apps",
            "*.labels",
            "tournament.clock",
            "tournament.access",
            "tournament.imports",
            "tournament.imports.*",
            "ops.backups",
            "ops.sessions",
        ],
    ),
    ("read side", ["tournament.reports", "tournament.reports.*"]),
    ("results", ["judging.services", "judging.disputes", "judging.signoff", "judging.tablets"]),
    ("services", ["*.services", "*.services.*", "dosai.editions", "dosai.reader"]),
    ("views", ["*.views", "*.views.*", "config.views"]),
    ("urls and project", ["*.urls", "config", "config.*"]),
    ("presentation", ["*"]),  # forms, tables, exports, paper, admin, commands, middleware …
]
ORDER = [
    "engines and common",
    "models",
    "read side",
    "results",
    "services",
    "presentation",
    "views",
    "urls and project",
]

# What an app may import of the others (prefixes).
MAY_IMPORT = {
    "common": ("common",),
    "hanafuda": ("common", "hanafuda"),
    "dosai": ("common", "dosai"),
    # The rooms of issues 19–21 build on the tournament, never the other way round, except the
    # clubs' entry links in three places (absences on the reception list and the team page; the
    # event's date against the entry deadline), and the public team page reading the prizes a
    # team won (``awards.reports.team_prizes``, issue 35), and the programme's staff section
    # reading the referees and the duty roster (``people.reports.programme_staff``, issue 34).
    # The reader needs only the tournament's models, access helpers, entry-workbook reader and
    # the commands' base.
    "tournament": (
        "common",
        "tournament",
        "judging",
        "ops",
        "club_entry.models",
        "club_entry.services",
        "awards.reports",
        "people.reports",
    ),
    "reader": (
        "common",
        "reader",
        "tournament.models",
        "tournament.access",
        "tournament.imports",
        "tournament.management.commands._base",
    ),
    "judging": (
        "common",
        "judging",
        "tournament.models",
        "tournament.access",
        "tournament.clock",
        "tournament.engine",
        "tournament.reports",
    ),
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts:
                found[module_name(path)] = path
    return found


def _resolve(importer: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = importer.split(".")
    is_package = modules()[importer].name == "__init__.py"
    base = package if is_package else package[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def imports_of(name: str) -> frozenset[str]:
    """The project modules ``name`` imports (``from a import b`` counts ``a.b`` when it is a module)."""
    tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(name, node)
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules() else base for alias in node.names]
        else:
            continue
        found.update(t for t in targets if t.split(".")[0] in APPS)
    found.discard(name)
    return frozenset(found)


def external_imports_of(name: str) -> set[str]:
    tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            roots.add(node.module.split(".")[0])
    return roots - set(APPS)


def layer(name: str) -> str:
    return next(label for label, patterns in LAYERS if any(fnmatch(name, p) for p in patterns))


def engine_of(name: str) -> str | None:
    parts = name.split(".")
    return ".".join(parts[: parts.index("engine") + 1]) if "engine" in parts else None


def test_the_graph_is_built_from_every_app():
    assert {"tournament.models", "judging.services", "common.errors", "config.urls"} <= set(modules())
    assert "tournament.models" in imports_of("judging.models")


@pytest.mark.parametrize("name", sorted(n for n in modules() if engine_of(n)))
def test_an_engine_imports_only_the_standard_library_and_its_own_engine(name):
    foreign = sorted(t for t in imports_of(name) if engine_of(t) != engine_of(name))
    assert not foreign, f"{name} imports {foreign}"
    third_party = sorted(r for r in external_imports_of(name) if r not in sys.stdlib_module_names)
    assert not third_party, f"{name} imports {third_party} (an engine is pure: no Django, no libraries)"


def test_every_import_goes_down_the_layers():
    wrong = [
        f"{name} ({layer(name)}) imports {target} ({layer(target)})"
        for name in sorted(modules())
        for target in sorted(imports_of(name))
        if ORDER.index(layer(target)) > ORDER.index(layer(name))
    ]
    assert not wrong, "\n".join(wrong)


def test_each_app_imports_only_what_it_may_of_the_others():
    wrong = []
    for name in sorted(modules()):
        allowed = MAY_IMPORT.get(name.split(".")[0])
        if allowed is None:
            continue
        wrong += [
            f"{name} imports {t}"
            for t in sorted(imports_of(name))
            if not any(t == a or t.startswith(a + ".") for a in allowed)
        ]
    assert not wrong, "\n".join(wrong)


def _is_view(name: str) -> bool:
    return name.endswith(".views") or ".views." in name


def test_only_url_modules_import_views_and_no_view_imports_another():
    wrong = [
        f"{name} imports {target}"
        for name in sorted(modules())
        for target in sorted(imports_of(name))
        if _is_view(target) and not (name.endswith("urls") or name == "config.urls")
    ]
    assert not wrong, "\n".join(wrong)


def test_no_circle_between_modules():
    graph = {name: [t for t in imports_of(name) if t in modules()] for name in modules()}
    circles = [c for c in _strongly_connected(graph) if len(c) > 1]
    assert not circles, "\n".join(" ⇄ ".join(sorted(c)) for c in circles)


def _strongly_connected(graph: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components (iterative)."""
    index, low, on_stack, stack, result, counter = {}, {}, set(), [], [], [0]
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(component)
    return result


def test_the_circle_finder_finds_a_circle():
    assert sorted(map(sorted, _strongly_connected({"a": ["b"], "b": ["a"], "c": ["a"]}))) == [["a", "b"], ["c"]]
