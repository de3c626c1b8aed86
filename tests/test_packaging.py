"""The package (issue 36): pyproject.toml and requirements.txt pin the same versions, the
wheel's contents are declared for every package of the checkout, and the settings find the
data folders in a checkout and in an installed wheel's ``karuta_files/``."""

import tomllib
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _key(line: str):
    req = Requirement(line)
    return (req.name.lower().replace("_", "-"), tuple(sorted(req.extras)), str(req.specifier), str(req.marker or ""))


def requirements_txt():
    lines = (line.split("#", 1)[0].strip() for line in (ROOT / "requirements.txt").read_text().splitlines())
    return sorted(_key(line) for line in lines if line)


def test_requirements_txt_and_pyproject_pin_the_same_versions():
    project = PYPROJECT["project"]
    declared = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        declared += extra
    assert requirements_txt() == sorted(_key(line) for line in declared)


def test_every_dependency_is_pinned_to_one_version():
    for name, _extras, specifier, _marker in requirements_txt():
        assert specifier.startswith("==") and "," not in specifier, f"{name} is not pinned: {specifier!r}"


def test_runtime_dependencies_hold_no_developer_tool():
    runtime = {_key(line)[0] for line in PYPROJECT["project"]["dependencies"]}
    assert not runtime & {"pytest", "pytest-django", "playwright", "ruff", "pypdf"}


def test_gunicorn_is_not_required_on_windows():
    (gunicorn,) = [Requirement(r) for r in PYPROJECT["project"]["dependencies"] if r.startswith("gunicorn")]
    assert not gunicorn.marker.evaluate({"sys_platform": "win32"})
    assert gunicorn.marker.evaluate({"sys_platform": "linux"}) and gunicorn.marker.evaluate({"sys_platform": "darwin"})


def test_every_package_of_the_checkout_goes_into_the_wheel():
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    top = sorted(p.parent.name for p in ROOT.glob("*/__init__.py") if p.parent.name not in ("tests", "bench"))
    assert top, "no package found"
    for name in top:
        assert name in include and f"{name}.*" in include, f"{name} is missing from the wheel"


def test_the_console_script_is_ops_cli_main():
    assert PYPROJECT["project"]["scripts"] == {"karuta": "ops.cli:main"}
    from ops import cli

    assert callable(cli.main)


def test_the_data_folders_that_setup_py_copies_exist():
    setup = (ROOT / "setup.py").read_text()
    for name in ("templates", "static", "locale", "fixtures"):
        assert f'"{name}"' in setup
        assert (ROOT / name).is_dir()
        assert f"graft {name}" in (ROOT / "MANIFEST.in").read_text()
    assert (ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.mo").is_file()


def test_settings_find_the_data_folders_in_the_checkout(settings):
    from config import settings as module

    assert module.RESOURCE_DIR == module.BASE_DIR and not module.INSTALLED_PACKAGE
    assert (Path(settings.TEMPLATES[0]["DIRS"][0]) / "base.html").is_file()
    assert (Path(settings.LOCALE_PATHS[0]) / "ja" / "LC_MESSAGES" / "django.mo").is_file()
    assert (Path(settings.STATICFILES_DIRS[0]) / "css").is_dir()
    assert Path(settings.STATIC_ROOT) == module.DATA_DIR / "staticfiles"  # the suite's own folder


def test_a_checkout_collects_static_files_into_its_staticfiles_folder(monkeypatch):
    """Outside the test suite (``make serve`` in a checkout) collectstatic writes to
    ``staticfiles/`` beside manage.py; the suite uses its data folder instead, so what a serve
    collected never changes the names its pages link."""
    import runpy
    import sys

    monkeypatch.delitem(sys.modules, "pytest")
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)
    values = runpy.run_path(str(ROOT / "config" / "settings.py"))
    assert not values["INSTALLED_PACKAGE"] and values["STATIC_ROOT"] == ROOT / "staticfiles"


def test_settings_installed_from_a_wheel_use_karuta_files_and_the_users_data_folder(tmp_path, monkeypatch):
    """The settings module as it lies in site-packages: data folders under karuta_files/, the
    data folder from platformdirs (here $XDG_DATA_HOME), collectstatic into the data folder."""
    import runpy
    import shutil
    import sys

    site = tmp_path / "site-packages"
    (site / "config").mkdir(parents=True)
    shutil.copy(ROOT / "config" / "settings.py", site / "config" / "settings.py")
    (site / "karuta_files" / "templates").mkdir(parents=True)
    monkeypatch.delenv("KARUTA_DATA_DIR", raising=False)
    monkeypatch.delenv("PYTEST_XDIST_WORKER", raising=False)  # as installed: no test process's folder
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home-data"))
    monkeypatch.setattr(sys, "platform", "linux")
    values = runpy.run_path(str(site / "config" / "settings.py"))
    assert values["INSTALLED_PACKAGE"] and values["RESOURCE_DIR"] == site / "karuta_files"
    assert values["TEMPLATES"][0]["DIRS"] == [site / "karuta_files" / "templates"]
    assert values["LOCALE_PATHS"] == [site / "karuta_files" / "locale"]
    assert values["DATA_DIR"] == tmp_path / "home-data" / "hitachi-karuta"
    assert values["STATIC_ROOT"] == tmp_path / "home-data" / "hitachi-karuta" / "staticfiles"
    assert (values["DATA_DIR"] / "secret_key").is_file()
