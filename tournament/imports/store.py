"""The parsed entry sheet kept between the preview and the import (issue 18 item 2, issue 28).

An upload is parsed once; its :class:`ParsedEntries` waits under a random token in the data
folder's ``imports/`` (``docs/entries.md``, "Import"): the import and the problems download
read it instead of parsing the file again. The file names the event and the organiser it was
uploaded for, so a token never imports into another event, and it is the owner's only (0600:
it holds children's names). Files older than a day are removed when the folder is next used.

Database-free, like the rest of :mod:`tournament.imports`: callers pass the data folder and
the ids, and check the owner themselves (:func:`tournament.views.teams` says whose upload it is).
"""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass
from pathlib import Path

from common.private_files import write_private
from tournament.imports.records import ParsedEntries

KEPT_SECONDS = 24 * 3600  # a kept upload expires after a day
TOKEN_LENGTH = 32  # hex digits


@dataclass(frozen=True)
class KeptUpload:
    """What :func:`keep` stored: the parsed sheet, the division chosen for rows without one,
    and the primary keys of the event and of the user it was uploaded for."""

    parsed: ParsedEntries
    default_division: str
    event_id: int
    user_id: int


def is_token(token: str) -> bool:
    """Whether ``token`` has the shape :func:`keep` gives (32 ASCII letters or digits)."""
    return isinstance(token, str) and token.isascii() and token.isalnum() and len(token) == TOKEN_LENGTH


def upload_dir(data_dir) -> Path:
    """``data_dir``/imports, created if needed, with its files older than a day removed."""
    path = Path(data_dir) / "imports"
    path.mkdir(parents=True, exist_ok=True)
    for old in [*path.glob("*.xlsx"), *path.glob("*.json")]:
        if time.time() - old.stat().st_mtime > KEPT_SECONDS:
            old.unlink(missing_ok=True)
    return path


def upload_path(data_dir, token: str) -> Path:
    """The file of ``token``. Raises ``ValueError`` for a token :func:`keep` cannot have given
    (the caller answers 404), so a token never names a path outside the folder."""
    if not is_token(token):
        raise ValueError("not an upload token")
    return upload_dir(data_dir) / f"{token}.json"


def keep(data_dir, parsed: ParsedEntries, default_division: str, *, event_id: int, user_id: int) -> str:
    """Store ``parsed`` for ``event_id`` and ``user_id``; returns the new token. Raises
    ``OSError`` when the file cannot be written (a full disk: the caller names it)."""
    token = secrets.token_hex(TOKEN_LENGTH // 2)
    data = {"default_division": default_division, "parsed": parsed.to_dict(), "event": event_id, "user": user_id}
    write_private(upload_path(data_dir, token), json.dumps(data, ensure_ascii=False).encode("utf-8"))
    return token


def load(data_dir, token: str) -> KeptUpload | None:
    """The upload kept under ``token``, or None when it has expired or cannot be read (a bad
    token raises ``ValueError`` as in :func:`upload_path`)."""
    path = upload_path(data_dir, token)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return KeptUpload(
            ParsedEntries.from_dict(data["parsed"]), data["default_division"], data["event"], data["user"]
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def discard(data_dir, token: str) -> None:
    """Remove the upload of ``token`` (after its import); nothing happens when it is gone."""
    upload_path(data_dir, token).unlink(missing_ok=True)
