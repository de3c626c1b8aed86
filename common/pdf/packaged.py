"""The Japanese PDF font that a pip install brings (pure, no Django, no reportlab).

A laptop without the system's IPAex Gothic (Windows, macOS, a Linux without root) still
prints PDFs with an embedded font: the wheel depends on the PyPI package
``justmytype-intl-cjk`` (SIL Open Font License 1.1), which ships Noto Sans JP as a
*TrueType-outline* variable font, ``NotoSansJP[wght].ttf`` (reportlab embeds TrueType
outlines only, never CFF: ``docs/rules/paper.md``, fault 3). reportlab draws a variable
font's default instance, which for this file is the Thin weight (wght 100), too faint on a
venue's printer; so the face is instanced once at the Regular weight (wght 400) with
fontTools into ``<cache>/NotoSansJP-400-<package version>.ttf`` (about 20 s, then read from
the file) and the static file is what the PDFs embed.

Decision: issue 36 (nothing from the system that pip cannot bring), ``docs/packaging.md``.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import logging
import os
import tempfile
import threading
from pathlib import Path

logger = logging.getLogger(__name__)

#: The import name and the distribution name of the font package.
PACKAGE = "justmytype_intl_cjk"
DISTRIBUTION = "justmytype-intl-cjk"
#: The variable Noto Sans JP inside the package.
RELATIVE_PATH = ("fonts", "ofl", "notosansjp", "NotoSansJP[wght].ttf")
#: The weight the PDFs are set in (400: Regular).
WEIGHT = 400

#: The instance's names (name table IDs: 2 subfamily, 4 full name, 6 PostScript name).
NAMES = {2: "Regular", 4: "Noto Sans JP Regular", 6: "NotoSansJP-Regular"}

_lock = threading.Lock()
_cache_dir: Path | None = None


def configure(cache_dir) -> None:
    """Set the folder where the Regular instance is kept (``DATA_DIR/fonts``; called by
    ``common.apps`` at start-up). ``None``: the package's variable file is used as it is."""
    global _cache_dir
    _cache_dir = Path(cache_dir) if cache_dir is not None else None


def variable_font() -> Path | None:
    """The package's variable ``NotoSansJP[wght].ttf``, or ``None`` when the package is not
    installed (the package is located without being imported)."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        path = Path(location).joinpath(*RELATIVE_PATH)
        if path.is_file():
            return path
    return None


def _version() -> str:
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def instance_path(cache_dir: Path) -> Path:
    """Where the Regular instance is kept in ``cache_dir`` (named by the package's version,
    so an upgraded font package is instanced again)."""
    return Path(cache_dir) / f"NotoSansJP-{WEIGHT}-{_version()}.ttf"


def _instantiate(source: Path, target: Path) -> None:
    """Write the static wght-400 instance of ``source`` to ``target`` (atomically: a
    temporary file in the same folder, then renamed). Raises ``OSError`` or fontTools'
    errors."""
    from fontTools.ttLib import TTFont  # noqa: PLC0415 - fontTools loads only the first time
    from fontTools.varLib import instancer  # noqa: PLC0415

    logging.getLogger("fontTools").setLevel(logging.WARNING)  # its INFO lines name every table
    target.parent.mkdir(parents=True, exist_ok=True)
    font = TTFont(str(source))
    static = instancer.instantiateVariableFont(font, {"wght": WEIGHT}, updateFontNames=False)
    # The names still say Thin (the default instance); a PDF's font list should say what it embeds.
    for record in static["name"].names:
        if record.nameID in NAMES:
            record.string = NAMES[record.nameID]
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=".noto-", suffix=".ttf")
    os.close(fd)
    try:
        static.save(temporary)
        os.replace(temporary, target)
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)


def regular_font(cache_dir: Path | None = None) -> Path | None:
    """The package's Noto Sans JP at the Regular weight, made once in ``cache_dir``.

    In: the folder for the instanced file (default: the one :func:`configure` set,
    ``DATA_DIR/fonts``; with neither, none).
    Out: the static ``.ttf`` to embed; the variable file itself (drawn Thin) when it cannot be
    instanced there (no folder, a folder that cannot be written, fontTools missing), with a
    WARNING naming why; ``None`` when the package is not installed. Never raises.
    """
    source = variable_font()
    if source is None:
        return None
    cache_dir = cache_dir if cache_dir is not None else _cache_dir
    if cache_dir is None:
        return source
    target = instance_path(cache_dir)
    with _lock:
        if target.is_file():
            return target
        logger.info("Preparing the PDF font Noto Sans JP (Regular) in %s, once (about 20 s)", target.parent)
        try:
            _instantiate(source, target)
        except Exception as error:  # fontTools raises many kinds; the variable file still prints
            logger.warning(
                "The PDF font could not be prepared in %s (%s): PDFs use the thin Noto Sans JP until "
                "that folder can be written",
                target.parent,
                error,
            )
            return source
    return target
