"""The engine tests: pure, no Django.

The tests under ``tests/engine/`` exercise the engines (``*/engine/``), which
import nothing of Django, the database or translation.  They run alone with
``python -m pytest tests/engine -p no:django`` and in the normal run.

The autouse fixtures of ``tests/conftest.py`` reset Django state after each
test (language, data directory, cache); here they are replaced by fixtures
that do nothing, so an engine test never touches Django.  A test module here
that imports Django, or a module of the project outside the engines and
``tests/engine/``, is refused when the tests are collected.
"""

from __future__ import annotations

import types
from pathlib import Path

import pytest

HERE = Path(__file__).parent
# The project's top-level packages: of these, only engine modules may be imported here.
PROJECT = {"common", "config", "dosai", "hanafuda", "judging", "ops", "reader", "tests", "tournament"}


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """No Django language to reset in an engine test."""
    yield


@pytest.fixture(autouse=True)
def _private_data_dir():
    """No data directory in an engine test."""
    yield


@pytest.fixture(autouse=True)
def _empty_cache():
    """No cache in an engine test."""
    yield


def _origin(value: object) -> str | None:
    """The dotted name of the module a global of a test module comes from."""
    if isinstance(value, types.ModuleType):
        return value.__name__
    origin = getattr(value, "__module__", None)
    return origin if isinstance(origin, str) else None


def _forbidden(origin: str) -> bool:
    root = origin.split(".")[0]
    if root == "django":
        return True
    if root not in PROJECT:
        return False
    return not (origin.startswith("tests.engine") or ".engine" in origin)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse an engine test module whose globals come from Django or from app code."""
    checked: set[str] = set()
    for item in items:
        module = getattr(item, "module", None)
        if module is None or module.__name__ in checked or HERE not in Path(module.__file__).parents:
            continue
        checked.add(module.__name__)
        bad = sorted({o for o in map(_origin, vars(module).values()) if o and _forbidden(o)})
        if bad:
            raise pytest.UsageError(f"{module.__name__} is an engine test but imports {', '.join(bad)}")
