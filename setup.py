"""The wheel's one addition to pyproject.toml: the top-level data folders as ``karuta_files/``.

``templates/``, ``static/``, ``locale/`` and ``fixtures/`` sit beside the packages in the
checkout (where ``make run`` and the tests use them); they are no Python packages, so the
build copies them into ``karuta_files/`` of the wheel, and ``config/settings.py`` looks there
when the app runs from site-packages (docs/packaging.md).
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
DATA_FOLDERS = ("templates", "static", "locale", "fixtures")


class BuildWithDataFolders(build_py):
    """``build_py`` that also copies the data folders into ``<build>/karuta_files/``."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "karuta_files"
        for name in DATA_FOLDERS:
            shutil.copytree(
                ROOT / name,
                target / name,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"),
            )


setup(cmdclass={"build_py": BuildWithDataFolders})
