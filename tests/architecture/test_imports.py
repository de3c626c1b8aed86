"""The architecture, checked: every module in a named layer, the direction of imports, what
each app may import of the others, no circles, pure engines.

The import graph is built from the source (``ast``), imports inside functions included, so an
import hidden in a function cannot dodge a rule. The rules are read from ``docs/architecture.md``
("Layers" and "Direction of imports"), so the page and the test say the same thing:

- "The layers, lowest first": the order of the layers. A module imports only its own layer or
  lower ones;
- "Every module's layer": patterns of dotted module names → layer, the first matching row
  wins. A module no row places fails, and so does a pattern that places no module (the page
  says more than the code); there is no row for "the rest";
- "What an app may import of the others": besides itself and ``common``. An import not
  covered fails, and so does a name that no import uses;
- an engine (``*/engine/``) imports the standard library and its own engine package only;
- only URL modules import view modules, and no view module imports another;
- no circle between modules.

Each rule is a function of plain data (module → the modules it imports), so the probes below
inject an import or a module that does not exist in the code and check that it is reported
(a read module importing a service, a module no row places).
"""

from __future__ import annotations

import ast
import re
import sys
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
NOT_APPS = {"tests"}  # the top-level packages that are not the product's code

Graph = dict[str, frozenset[str]]
Rows = list[tuple[str, str]]  # (pattern, layer), in the page's order


# --- the page's tables -------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def doc_tables(text: str) -> dict[tuple[str, ...], list[list[str]]]:
    """The Markdown tables of ``text``: header cells (lower case) → the body rows' cells."""
    tables, header, rows = {}, None, []
    for line in [*text.splitlines(), ""]:
        if line.lstrip().startswith("|"):
            cells = _cells(line)
            if header is None:
                header = tuple(c.lower() for c in cells)
            elif not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
            continue
        if header is not None:
            tables[header] = rows
        header, rows = None, []
    return tables


def named(cell: str) -> list[str]:
    """The names written in backticks in a cell."""
    return re.findall(r"`([^`]+)`", cell)


@cache
def _tables():
    return doc_tables(DOC.read_text(encoding="utf-8"))


def _table(*header: str) -> list[list[str]]:
    try:
        return _tables()[header]
    except KeyError:
        pytest.fail(f"docs/architecture.md has no table with the columns {' | '.join(header)}")


def layer_order() -> list[str]:
    """The layers, lowest first ("The layers, lowest first")."""
    return [cells[0] for cells in _table("layer", "holds")]


def layer_rows() -> Rows:
    """(pattern, layer) in the page's order ("Every module's layer")."""
    return [(pattern, cells[1]) for cells in _table("modules", "layer") for pattern in named(cells[0])]


def permissions() -> dict[str, tuple[str, ...]]:
    """App → what it may import of the other apps ("What an app may import of the others")."""
    rows = _table("app", "may import of the other apps", "what for")
    return {named(cells[0])[0]: tuple(named(cells[1])) for cells in rows}


# --- the code's import graph -------------------------------------------------------------------


@cache
def apps() -> tuple[str, ...]:
    """The product's top-level packages (a folder of the checkout with an ``__init__.py``)."""
    return tuple(sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name not in NOT_APPS))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    found = {}
    for app in apps():
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
        found.update(t for t in targets if t.split(".")[0] in apps())
    found.discard(name)
    return frozenset(found)


@cache
def graph() -> Graph:
    return {name: imports_of(name) for name in modules()}


def external_imports_of(name: str) -> set[str]:
    tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            roots.add(node.module.split(".")[0])
    return roots - set(apps())


def engine_of(name: str) -> str | None:
    parts = name.split(".")
    return ".".join(parts[: parts.index("engine") + 1]) if "engine" in parts else None


# --- the rules, as functions of plain data -----------------------------------------------------


def placing_pattern(name: str, rows: Rows) -> str | None:
    """The pattern of the first row that matches ``name``, or None."""
    return next((pattern for pattern, _layer in rows if fnmatch(name, pattern)), None)


def layer_of(name: str, rows: Rows) -> str | None:
    """The layer of the first row that matches ``name``, or None (no row places it)."""
    return next((layer for pattern, layer in rows if fnmatch(name, pattern)), None)


def unplaced(names, rows: Rows) -> list[str]:
    """The modules no row places."""
    return sorted(name for name in names if layer_of(name, rows) is None)


def idle_patterns(names, rows: Rows) -> list[str]:
    """The patterns that place no module (each module counts for the first row it matches)."""
    used = {placing_pattern(name, rows) for name in names}
    return [pattern for pattern, _layer in rows if pattern not in used]


def upward_imports(imports: Graph, rows: Rows, order: list[str]) -> list[str]:
    """Each import of a module from a higher layer than its own, as a sentence."""
    rank = {layer: i for i, layer in enumerate(order)}
    wrong = []
    for name in sorted(imports):
        own = layer_of(name, rows)
        for target in sorted(imports[name]):
            theirs = layer_of(target, rows)
            if own in rank and theirs in rank and rank[theirs] > rank[own]:
                wrong.append(f"{name} ({own}) imports {target} ({theirs})")
    return wrong


def _covers(allowed, target: str) -> bool:
    return any(target == a or target.startswith(a + ".") for a in allowed)


def foreign_imports(imports: Graph, allowed: dict[str, tuple[str, ...]]) -> list[str]:
    """Each import of another app's module that the app's permissions do not cover."""
    wrong = []
    for name in sorted(imports):
        app = name.split(".")[0]
        mine = (app, "common", *allowed.get(app, ()))
        wrong += [f"{name} imports {t}" for t in sorted(imports[name]) if not _covers(mine, t)]
    return wrong


def unused_permissions(imports: Graph, allowed: dict[str, tuple[str, ...]]) -> list[str]:
    """Each permission that no import of its app uses."""
    used = {
        (name.split(".")[0], a)
        for name, targets in imports.items()
        for t in targets
        for a in allowed.get(name.split(".")[0], ())
        if t == a or t.startswith(a + ".")
    }
    return [f"{app}: {a}" for app, names in allowed.items() for a in names if (app, a) not in used]


def _is_view(name: str) -> bool:
    return name.endswith(".views") or ".views." in name


def view_imports(imports: Graph) -> list[str]:
    """Each import of a view module by anything but a URL module."""
    return [
        f"{name} imports {target}"
        for name in sorted(imports)
        for target in sorted(imports[name])
        if _is_view(target) and not name.endswith("urls")
    ]


def with_import(imports: Graph, name: str, target: str) -> Graph:
    """A copy of ``imports`` where ``name`` also imports ``target`` (a probe; no file changes)."""
    probe = dict(imports)
    probe[name] = imports.get(name, frozenset()) | {target}
    return probe


# --- the page's tables are whole and true -----------------------------------------------------


def test_the_graph_is_built_from_every_app():
    assert {"tournament.models", "judging.services", "common.errors", "config.urls"} <= set(modules())
    assert "tournament.models" in imports_of("judging.models")


def test_the_page_names_the_layers_in_order_and_each_holds_a_module():
    order, rows = layer_order(), layer_rows()
    assert len(order) == len(set(order)) >= 8, order
    unknown = sorted({layer for _p, layer in rows} - set(order))
    assert not unknown, f"rows name layers the order does not: {unknown}"
    empty = [layer for layer in order if not any(layer_of(n, rows) == layer for n in modules())]
    assert not empty, f"layers that hold no module: {empty}"


def test_every_module_is_in_a_named_layer():
    missing = unplaced(modules(), layer_rows())
    assert not missing, (
        "modules no row of docs/architecture.md, 'Every module's layer', places (give each its row):\n"
        + "\n".join(missing)
    )


def test_every_pattern_of_the_page_places_a_module():
    idle = idle_patterns(modules(), layer_rows())
    assert not idle, f"patterns of docs/architecture.md that place no module (remove or fix them): {idle}"


def test_every_app_has_its_permissions_on_the_page():
    assert sorted(permissions()) == sorted(apps())


def test_every_permission_of_the_page_is_used():
    unused = unused_permissions(graph(), permissions())
    assert not unused, f"docs/architecture.md allows imports no module makes (remove them): {unused}"


# --- the rules on the code ---------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(n for n in modules() if engine_of(n)))
def test_an_engine_imports_only_the_standard_library_and_its_own_engine(name):
    foreign = sorted(t for t in imports_of(name) if engine_of(t) != engine_of(name))
    assert not foreign, f"{name} imports {foreign}"
    third_party = sorted(r for r in external_imports_of(name) if r not in sys.stdlib_module_names)
    assert not third_party, f"{name} imports {third_party} (an engine is pure: no Django, no libraries)"


def test_every_engine_module_is_in_the_engine_layer():
    rows = layer_rows()
    wrong = [n for n in modules() if engine_of(n) and layer_of(n, rows) != "engine"]
    assert not wrong, wrong


def test_every_import_goes_down_the_layers():
    wrong = upward_imports(graph(), layer_rows(), layer_order())
    assert not wrong, "\n".join(wrong)


def test_each_app_imports_only_what_it_may_of_the_others():
    wrong = foreign_imports(graph(), permissions())
    assert not wrong, "\n".join(wrong)


def test_only_url_modules_import_views_and_no_view_imports_another():
    wrong = view_imports(graph())
    assert not wrong, "\n".join(wrong)


def test_no_circle_between_modules():
    known = {name: [t for t in targets if t in modules()] for name, targets in graph().items()}
    circles = [c for c in _strongly_connected(known) if len(c) > 1]
    assert not circles, "\n".join(" ⇄ ".join(sorted(c)) for c in circles)


# --- probes: what the code does not do must be reported when injected -------------------------


def _read_modules() -> list[str]:
    rows = layer_rows()
    return sorted(n for n in modules() if layer_of(n, rows) == "read side")


def _a_module_of(app: str, layer: str) -> str:
    """A module of ``app`` in ``layer``; another app's (the tournament's first) when ``app`` has none."""
    rows = layer_rows()
    for owner in (app, "tournament", *apps()):
        found = sorted(n for n in modules() if n.split(".")[0] == owner and layer_of(n, rows) == layer)
        if found:
            return found[-1]
    raise AssertionError(f"no module in {layer}")


def test_every_room_built_on_the_tournament_has_a_read_module():
    owners = {name.split(".")[0] for name in _read_modules()}
    assert {"tournament", "awards", "series", "people", "reader"} <= owners, owners


@pytest.mark.parametrize("name", _read_modules())
def test_probe_a_read_module_importing_a_service_fails(name):
    service = _a_module_of(name.split(".")[0], "services")
    probe = with_import(graph(), name, service)
    assert f"{name} (read side) imports {service} (services)" in upward_imports(probe, layer_rows(), layer_order())


@pytest.mark.parametrize("layer", ["results", "presentation", "commands", "views"])
def test_probe_a_read_module_importing_a_write_form_command_or_view_fails(layer):
    for name in ("awards.reports", "people.reports", "series.ranking", "reader.voices"):
        target = _a_module_of(name.split(".")[0], layer)
        probe = with_import(graph(), name, target)
        assert f"{name} (read side) imports {target} ({layer})" in upward_imports(probe, layer_rows(), layer_order())


def test_probe_an_engine_importing_django_models_fails():
    probe = with_import(graph(), "awards.engine.numerals", "awards.models")
    assert "awards.engine.numerals (engine) imports awards.models (models)" in upward_imports(
        probe, layer_rows(), layer_order()
    )


@pytest.mark.parametrize("app", [a for a in apps() if a != "common"])
def test_probe_a_module_no_row_places_fails(app):
    """A new module of any app (``common``, one layer as a whole, aside) is reported until the
    page gives it a row: the table has no row for "the rest"."""
    probe = f"{app}.brand_new_room"
    assert unplaced([*modules(), probe], layer_rows()) == [probe]


def test_no_row_is_a_row_for_the_rest():
    rows = layer_rows()
    assert not any(
        pattern in ("*", "*.*") or re.fullmatch(r"\w+\.\*", pattern) for pattern, _l in rows if pattern != "common.*"
    )


def test_probe_an_import_the_app_may_not_make_fails():
    probe = with_import(graph(), "awards.reports", "series.ranking")
    assert "awards.reports imports series.ranking" in foreign_imports(probe, permissions())
    probe = with_import(graph(), "judging.services", "tournament.services.withdrawal")
    assert "judging.services imports tournament.services.withdrawal" in foreign_imports(probe, permissions())
    probe = with_import(graph(), "tournament.reports.standings", "reader.models")
    assert "tournament.reports.standings imports reader.models" in foreign_imports(probe, permissions())


def test_probe_a_permission_no_import_uses_fails():
    allowed = {**permissions(), "judging": (*permissions()["judging"], "tournament.clock")}
    assert unused_permissions(graph(), allowed) == ["judging: tournament.clock"]


def test_probe_a_view_imported_by_a_view_fails():
    probe = with_import(graph(), "awards.views", "people.views.setup")
    assert "awards.views imports people.views.setup" in view_imports(probe)


def test_the_table_reader_reads_a_table():
    text = "x\n\n| modules | layer |\n| --- | --- |\n| `a.b`, `*.c` | one |\n| `d` | two |\n\nafter\n"
    assert doc_tables(text) == {("modules", "layer"): [["`a.b`, `*.c`", "one"], ["`d`", "two"]]}
    assert named("`a.b`, `*.c`") == ["a.b", "*.c"]


def test_the_first_matching_row_wins():
    rows = [("*.models", "models"), ("*.services", "services"), ("*", "rest")]
    assert layer_of("x.models", rows) == "models"
    assert layer_of("x.thing", rows) == "rest"
    assert unplaced(["x.models", "y"], rows[:2]) == ["y"]
    assert idle_patterns(["x.models"], rows) == ["*.services", "*"]


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
