"""Japanese font selection for every printed paper (pure reportlab, no Django).

reportlab has no font fallback: text drawn with a font that lacks a glyph comes out as
tofu or silently disappears, the built-in CID fonts are not embedded and only
TrueType-outline fonts can be embedded (faults 1, 2 and 3 of ``docs/rules/paper.md``).
This module therefore

* picks one TrueType Japanese font and registers it once (:func:`japanese_font`);
* fails fast, with the file named, when ``KARUTA_PDF_FONT`` points at something unusable
  (CFF ``.otf``, a bad ``.ttc`` index, a file without Japanese glyphs);
* lists characters the font lacks (:func:`missing_glyphs`); the pen draws them from a
  fallback font or as 〓 (:mod:`common.pdf.fallback`).

Search order:

1. ``KARUTA_PDF_FONT``: a ``.ttf`` path, or ``path.ttc#index`` for a collection face.
   A misconfiguration raises :class:`FontConfigurationError` (never silently ignored).
2. Known install paths (IPAex Gothic from Debian's ``fonts-ipaexfont-gothic`` first).
   CFF-flavoured files such as Noto Sans CJK ``.ttc`` are detected and skipped.
3. ``fc-match -f '%{file}' IPAexGothic``, then ``:lang=ja``, if the result is TrueType
   and covers kana and kanji.
4. The font the pip install brings: Noto Sans JP from the PyPI package
   ``justmytype-intl-cjk``, instanced at the Regular weight (:mod:`common.pdf.packaged`).
5. Fallback: reportlab's ``UnicodeCIDFont('HeiseiKakuGo-W5')`` with a WARNING in the log.
   That font is *not embedded*; viewers must supply it (fault 2 of ``docs/rules/paper.md``).

``KARUTA_PDF_SYSTEM_FONTS=0`` skips steps 2 and 3 (and the system's fallback and 明朝 fonts):
the package check (``.ci/package-check``) prints as a laptop without them would.
"""

from __future__ import annotations

import logging
import os
import shutil
import struct
import subprocess
import threading
from dataclasses import dataclass

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFError, TTFont

from common.pdf import packaged

logger = logging.getLogger(__name__)

ENV_VAR = "KARUTA_PDF_FONT"
#: ``0``: use no font of the system (only KARUTA_PDF_FONT and the packaged font).
SYSTEM_FONTS_ENV_VAR = "KARUTA_PDF_SYSTEM_FONTS"
FALLBACK_CID_FONT = "HeiseiKakuGo-W5"

#: Registered reportlab name of the embedded TrueType font.
REGISTERED_NAME = "KarutaJapanese"

#: Candidate files, most preferred first.  ``#n`` selects a face in a collection.
KNOWN_FONT_PATHS: tuple[str, ...] = (
    # Debian / Ubuntu: fonts-ipaexfont-gothic (TrueType although filed under opentype/)
    "/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf",
    "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf",
    "/usr/share/fonts/truetype/ipafont-gothic/ipagp.ttf",
    "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/ipafont-gothic/ipag.ttf",
    "/usr/share/fonts/truetype/takao-gothic/TakaoPGothic.ttf",
    "/usr/share/fonts/truetype/takao-gothic/TakaoGothic.ttf",
    # Fedora / Arch / Homebrew / user installs
    "/usr/share/fonts/ipa-ex-gothic/ipaexg.ttf",
    "/usr/share/fonts/ipa-gothic/ipag.ttf",
    "/usr/share/fonts/TTF/ipaexg.ttf",
    "/usr/local/share/fonts/ipaexg.ttf",
    os.path.expanduser("~/.fonts/ipaexg.ttf"),
    os.path.expanduser("~/.local/share/fonts/ipaexg.ttf"),
    "/Library/Fonts/ipaexg.ttf",
    # Noto Sans CJK collections are usually CFF: probed and skipped unless TrueType.
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc#0",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc#0",
    # Windows (TrueType collections; face 0 = MS Gothic / Meiryo)
    "C:/Windows/Fonts/msgothic.ttc#0",
    "C:/Windows/Fonts/meiryo.ttc#0",
    # macOS: Arial Unicode is TrueType and covers Japanese
    "/Library/Fonts/Arial Unicode.ttf",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
)

#: A font must cover these to count as a Japanese font (hiragana, katakana, kanji, 々, ー).
_JAPANESE_PROBE = "あいうかるたアカルタ日本語大会試合番号審判々ー"


class FontConfigurationError(ValueError):
    """The configured font file cannot be used (missing, CFF outlines, bad index…)."""


@dataclass(frozen=True)
class _FontState:
    name: str
    path: str | None  # None for the CID fallback
    subfont_index: int
    embedded: bool
    codepoints: frozenset[int] | None  # None = unknown coverage (CID fallback)


_lock = threading.Lock()
_state: _FontState | None = None

#: The one sentence logged (and shown by ``manage.py check``) when no font can be embedded.
NO_FONT_MESSAGE = (
    "No Japanese TrueType font was found (neither the system's IPAex Gothic nor the package "
    "justmytype-intl-cjk): reinstall the app with its dependencies (pip install --force-reinstall "
    "hitachi-karuta), install fonts-ipaexfont-gothic, or set KARUTA_PDF_FONT to a TrueType .ttf; "
    "until then PDFs use the non-embedded CID font HeiseiKakuGo-W5, which some viewers show blank."
)


def system_fonts_allowed() -> bool:
    """False when ``KARUTA_PDF_SYSTEM_FONTS`` is ``0``/``false``/``no``/``off``: the system's
    font files (known paths, fc-match, fallback and 明朝 paths) are not looked at."""
    return os.environ.get(SYSTEM_FONTS_ENV_VAR, "").strip().lower() not in ("0", "false", "no", "off")


# --------------------------------------------------------------------------- sfnt probing


def _parse_spec(spec: str) -> tuple[str, int | None]:
    """``'/x/font.ttc#1'`` -> ``('/x/font.ttc', 1)``; no suffix -> index None."""
    path, sep, tail = spec.rpartition("#")
    if sep and tail.strip().isdigit():
        return path.strip(), int(tail)
    return spec.strip(), None


def _outline_kind(path: str, index: int) -> str:
    """Return ``'truetype'`` or ``'cff'`` for the face; raise FontConfigurationError."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(12)
            tag = head[:4]
            if tag == b"ttcf":
                if len(head) < 12:
                    raise FontConfigurationError(f"{path}: truncated TrueType collection")
                (count,) = struct.unpack(">I", head[8:12])
                if not 0 <= index < count:
                    raise FontConfigurationError(
                        f"{path}: collection has {count} faces (#0..#{count - 1}); index #{index} does not exist"
                    )
                fh.seek(12 + 4 * index)
                (offset,) = struct.unpack(">I", fh.read(4))
                fh.seek(offset)
                tag = fh.read(4)
    except OSError as exc:
        raise FontConfigurationError(f"{path}: cannot read font file ({exc.strerror or exc})") from exc
    if tag in (b"\x00\x01\x00\x00", b"true"):
        return "truetype"
    if tag == b"OTTO":
        return "cff"
    raise FontConfigurationError(f"{path}: not a TrueType/OpenType font file")


def _cff_message(path: str) -> str:
    return (
        f"{path} has PostScript/CFF outlines (OpenType .otf style), which reportlab cannot "
        f"embed; the PDF font needs a TrueType-outline .ttf (for example ipaexg.ttf from the "
        f"Debian package fonts-ipaexfont-gothic): point {ENV_VAR} at such a file"
    )


def _load_truetype(path: str, index: int) -> TTFont:
    """Parse the face; raise FontConfigurationError with the file named on any failure."""
    kind = _outline_kind(path, index)
    if kind == "cff":
        raise FontConfigurationError(_cff_message(path))
    try:
        font = TTFont(REGISTERED_NAME, path, subfontIndex=index)
    except TTFError as exc:
        if "postscript outlines" in str(exc):
            raise FontConfigurationError(_cff_message(path)) from exc
        raise FontConfigurationError(f"{path}: reportlab cannot use this font ({exc})") from exc
    missing = [c for c in _JAPANESE_PROBE if ord(c) not in font.face.charToGlyph]
    if missing:
        raise FontConfigurationError(
            f"{path}: font lacks Japanese glyphs (e.g. {missing[0]!r}); "
            f"a Japanese TrueType .ttf such as IPAex Gothic is needed"
        )
    return font


# --------------------------------------------------------------------------- discovery


def _fc_match_candidates() -> list[str]:
    exe = shutil.which("fc-match")
    if not exe:
        return []
    found: list[str] = []
    for pattern in ("IPAexGothic", ":lang=ja"):
        try:
            out = subprocess.run(
                [exe, "-f", "%{file}#%{index}", pattern],
                capture_output=True,
                text=True,
                timeout=5,
                check=False,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            continue
        if out and out not in found:
            found.append(out)
    return found


def _system_candidates() -> list[str]:
    if not system_fonts_allowed():
        return []
    return [*KNOWN_FONT_PATHS, *_fc_match_candidates()]


def _packaged_candidates() -> list[str]:
    path = packaged.regular_font()
    return [str(path)] if path is not None else []


def _candidates():
    """The candidates in order; the packaged font is prepared only when no system font fits."""
    yield from _system_candidates()
    yield from _packaged_candidates()


def _register(font: TTFont, path: str, index: int) -> _FontState:
    pdfmetrics.registerFont(font)
    return _FontState(
        name=REGISTERED_NAME,
        path=path,
        subfont_index=index,
        embedded=True,
        codepoints=frozenset(font.face.charToGlyph),
    )


def _discover() -> _FontState:
    spec = os.environ.get(ENV_VAR, "").strip()
    if spec:
        path, index = _parse_spec(spec)
        path = os.path.expanduser(path)
        if not os.path.isfile(path):
            raise FontConfigurationError(f"{ENV_VAR}={spec!r}: font file {path} does not exist")
        font = _load_truetype(path, index or 0)
        logger.info("PDF font from %s: %s#%d", ENV_VAR, path, index or 0)
        return _register(font, path, index or 0)

    tried: set[str] = set()
    for candidate in _candidates():
        path, index = _parse_spec(candidate)
        if not path or not os.path.isfile(path):
            continue
        real = os.path.realpath(path)
        key = f"{real}#{index or 0}"
        if key in tried:
            continue
        tried.add(key)
        try:
            font = _load_truetype(path, index or 0)
        except FontConfigurationError as exc:
            logger.debug("skipping font candidate %s: %s", candidate, exc)
            continue
        logger.info("PDF font: %s#%d", path, index or 0)
        return _register(font, path, index or 0)

    logger.warning(NO_FONT_MESSAGE)
    pdfmetrics.registerFont(UnicodeCIDFont(FALLBACK_CID_FONT))
    return _FontState(name=FALLBACK_CID_FONT, path=None, subfont_index=0, embedded=False, codepoints=None)


def _current() -> _FontState:
    global _state
    state = _state
    if state is None:
        with _lock:
            if _state is None:
                _state = _discover()
            state = _state
    return state


# --------------------------------------------------------------------------- public API


def japanese_font() -> str:
    """Register (once) and return the reportlab font name to use for Japanese text.

    Raises :class:`FontConfigurationError` if ``KARUTA_PDF_FONT`` is set but unusable;
    call it at start-up to fail fast rather than during the tournament.
    """
    return _current().name


def font_is_embedded() -> bool:
    """True when the selected font is an embedded TrueType font (not the CID fallback)."""
    return _current().embedded


def font_path() -> str | None:
    """File of the selected TrueType font (``None`` for the CID fallback)."""
    return _current().path


def describe_font() -> str:
    """One-line description for logs / admin pages."""
    s = _current()
    if s.path is None:
        return f"{s.name} (reportlab CID font, NOT embedded)"
    suffix = f"#{s.subfont_index}" if s.subfont_index else ""
    return f"{s.path}{suffix} (TrueType, embedded subset)"


def missing_glyphs(text: str) -> list[str]:
    """Characters of ``text`` (in order, without repeats) the selected font cannot draw."""
    s = _current()
    seen: list[str] = []
    for ch in text:
        cp = ord(ch)
        if s.codepoints is not None:
            bad = cp not in s.codepoints and cp != 0xA0
        else:
            # CID fallback (UCS-2 encoding): coverage unknown, but astral-plane characters
            # and control characters can never be encoded.
            bad = cp > 0xFFFF or cp < 0x20 or 0x7F <= cp < 0xA0
        if bad and ch not in seen:
            seen.append(ch)
    return seen


def check_glyphs(text: str, what: str | None = None) -> None:
    """Log (at INFO) the characters of ``text`` the main font lacks; never raises.

    Since issue 18 a character the main font lacks no longer stops the paper: the pen
    draws it from a fallback font or as the substitute mark 〓
    (:mod:`common.pdf.fallback`, ``docs/rules/paper.md`` "Paper always prints").  ``what`` (optional)
    names the field in the log line, e.g. ``"team_a"``.
    """
    if not text:
        return
    missing = missing_glyphs(text)
    if missing:
        where = f" in {what}" if what else ""
        logger.info(
            "characters %s%s are not in the PDF font; drawn from a fallback font or as 〓",
            " ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in missing),
            where,
        )


def reset_font_cache() -> None:
    """Forget the selection so the next call searches again (tests, env changes)."""
    global _state
    with _lock:
        _state = None
