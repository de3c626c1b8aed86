"""The signed results file and the series' key file (docs/exchange.md, "Format" and "Keys").

A results file is two parts: a first line, the header (canonical JSON: format, version, series,
key id, file id, size of the contents, signature), then the contents (canonical JSON, UTF-8).
The signature is HMAC-SHA256, keyed with the series' secret (``Series.secret``), over the
format, version, series, file id and the contents' bytes. Any byte changed, a file cut short, a
file signed with another series' key or of a series this laptop does not have is refused with
the reason (``UserError``) before anything is read from the contents.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import uuid
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from common import bounded_json as bounded
from common import limits as input_limits
from common.errors import UserError
from series import services
from series.models import Series, SeriesEvent
from tournament.engine import limits

FORMAT = "karuta-results"
VERSION = 1
KEY_FORMAT = "karuta-series-key"
KEY_VERSION = 1
# The limits of the one table (common.limits): a results file of a district of 500 teams is well
# under 1 MB; the header line is about 250 bytes and flat; a key file about 400 bytes and flat;
# the contents nest series → division → team → player (5 levels). Anything beyond is not ours.
MAX_FILE_BYTES = input_limits.RESULTS_FILE_BYTES
MAX_HEADER_BYTES = input_limits.RESULTS_HEADER_BYTES
MAX_KEY_BYTES = input_limits.KEY_FILE_BYTES
MAX_HEADER_DEPTH = input_limits.RESULTS_HEADER_DEPTH
MAX_KEY_DEPTH = input_limits.KEY_FILE_DEPTH
MAX_CONTENTS_DEPTH = input_limits.RESULTS_CONTENTS_DEPTH
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,40}$")


def source_key(event) -> str:
    """The exporting event's identity across laptops (``ImportedPlacing.source_key``): its
    short name, date and creation time, the same for every export of the event."""
    return f"{event.slug}:{event.date.isoformat()}:{int(event.created_at.timestamp())}"


def canonical(data) -> bytes:
    """The one byte form of ``data`` (JSON, sorted keys, UTF-8, no ASCII escapes, one space
    of indent so a person can read it): what is signed and what is written."""
    return json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1).encode("utf-8")


def _header_bytes(header) -> bytes:
    return json.dumps(header, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def key_id(secret: str) -> str:
    """16 hex characters naming a secret without revealing it (SHA-256 of a label and the
    secret): tells a file of another installation's series of the same short name apart."""
    return hashlib.sha256(b"karuta-series-key-id\n" + secret.encode("ascii")).hexdigest()[:16]


def _mac(secret: str, slug: str, file_id: str, contents: bytes) -> str:
    message = b"\n".join([FORMAT.encode(), str(VERSION).encode(), slug.encode(), file_id.encode(), contents])
    return hmac.new(bytes.fromhex(secret), message, hashlib.sha256).hexdigest()


def sign(series: Series, payload: dict) -> tuple[bytes, str]:
    """The results file of ``payload`` (a JSON-ready dict) signed with ``series``' secret.

    Out: ``(file bytes, file id)``; the file id (32 hex) is new for every export and is what
    the import records (with the file's SHA-256) to refuse a second import."""
    file_id = uuid.uuid4().hex
    contents = canonical(payload)
    header = {
        "format": FORMAT,
        "version": VERSION,
        "series": series.slug,
        "key": key_id(series.secret),
        "file_id": file_id,
        "size": len(contents),
        "signature": _mac(series.secret, series.slug, file_id, contents),
    }
    return _header_bytes(header) + b"\n" + contents, file_id


@dataclass
class SignedFile:
    """A results file whose signature was checked: its ``series``, ``file_id``, ``sha256`` (of
    the whole file), ``payload`` (the contents, parsed) and ``key`` (the key id of the series'
    key file that signed it: any holder of that file, docs/exchange.md, "What the signature
    proves")."""

    series: Series
    file_id: str
    sha256: str
    payload: dict
    key: str = ""


def _header(data: bytes) -> tuple[dict, bytes]:
    """The parsed header and the contents' bytes; ``UserError`` for a file that is not one."""
    first, newline, contents = data.partition(b"\n")
    try:
        header = bounded.loads(first, max_bytes=MAX_HEADER_BYTES, max_depth=MAX_HEADER_DEPTH)
    except bounded.TooBig:
        header = None
    except bounded.BadText as bad:
        raise UserError(_("The header of the results file is damaged (%(what)s).") % {"what": bad.where}) from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise UserError(
            _("This is not a results file of this program (its first line is not a results file's header).")
        )
    if header.get("version") != VERSION:
        raise UserError(
            _("The results file has format version %(found)s; this program reads version %(known)s.")
            % {"found": header.get("version"), "known": VERSION}
        )
    fields = ("series", "key", "file_id", "signature")
    if not all(isinstance(header.get(f), str) for f in fields) or not isinstance(header.get("size"), int):
        raise UserError(_("The header of the results file is damaged."))
    if _header_bytes(header) != first or not newline:
        raise UserError(_("The header of the results file was changed after it was exported."))
    return header, contents


def _series_of(header) -> Series:
    series = Series.objects.filter(slug=header["series"]).first()
    if series is None:
        raise UserError(
            _(
                "The results file belongs to the series “%(slug)s”, which this laptop does not have: "
                "it is a file of another series, or the series' key file was not loaded here."
            )
            % {"slug": header["series"]}
        )
    if not hmac.compare_digest(key_id(series.secret), header["key"]):
        raise UserError(
            _(
                "The results file was signed with another key than this laptop's series “%(series)s”: "
                "it comes from another series with the same short name."
            )
            % {"series": series.name}
        )
    return series


def too_big_message() -> str:
    """The refusal of a file over :data:`MAX_FILE_BYTES`, naming the limit."""
    return _("The file is larger than %(mb)d MB: too big to be a results file.") % {"mb": MAX_FILE_BYTES // 2**20}


def open_signed(data: bytes) -> SignedFile:
    """Check a results file and read its contents.

    In: the file's bytes. Out: a ``SignedFile``. Raises ``UserError`` naming the reason for a
    file that is not a results file, of an unknown format version, of a series this laptop does
    not have or signed with another key (another series), cut short or longer than signed, or
    changed by even one byte (the signature does not match). docs/exchange.md, "Refusals"."""
    if len(data) > MAX_FILE_BYTES:
        raise UserError(too_big_message())
    header, contents = _header(data)
    series = _series_of(header)
    if len(contents) < header["size"]:
        raise UserError(
            _("The results file is cut short: %(found)s of its %(size)s bytes are there. Copy it again.")
            % {"found": len(contents), "size": header["size"]}
        )
    if len(contents) > header["size"]:
        raise UserError(_("The results file has bytes added after its end."))
    expected = _mac(series.secret, series.slug, header["file_id"], contents)
    if not hmac.compare_digest(expected, header["signature"]):
        raise UserError(
            _("The signature of the results file does not match: the file was changed after it was exported.")
        )
    try:
        payload = bounded.loads(contents, max_bytes=MAX_FILE_BYTES, max_depth=MAX_CONTENTS_DEPTH)
    except bounded.TooBig:
        raise UserError(_("The contents of the results file are damaged.")) from None
    except bounded.BadText as bad:
        raise UserError(_("The contents of the results file are damaged (%(what)s).") % {"what": bad.where}) from None
    if not isinstance(payload, dict):
        raise UserError(_("The contents of the results file are damaged."))
    return SignedFile(series, header["file_id"], hashlib.sha256(data).hexdigest(), payload, header["key"])


# --- the key file -------------------------------------------------------------------------


def key_file(series: Series) -> bytes:
    """The series' key file: its short name, name, season, points table and secret (the
    secret signs and checks results files: keep the file like a password, docs/exchange.md)."""
    return canonical(
        {
            "format": KEY_FORMAT,
            "version": KEY_VERSION,
            "slug": series.slug,
            "name": series.name,
            "season": series.season,
            "points_table": series.points_table,
            "secret": series.secret,
            "key": key_id(series.secret),
        }
    )


def _key_field_problem(key: dict) -> str:
    """The reason a key file's series fields fail the series form's checks (short name, name,
    season, points table; ``series.forms.SeriesForm``), or "" when they pass."""
    slug, name, season, table = key.get("slug"), key.get("name"), key.get("season"), key.get("points_table")
    if not (isinstance(slug, str) and _SLUG.match(slug)) or slug in services.RESERVED_SLUGS:
        return _("its short name is not valid")
    if not isinstance(name, str) or not name.strip() or len(name) > Series._meta.get_field("name").max_length:
        return _("the series has no name, or a name longer than 120 characters")
    floor, ceiling = limits.DATE_FLOOR.year, limits.DATE_CEILING.year
    if isinstance(season, bool) or not isinstance(season, int) or not floor <= season <= ceiling:
        return _("its season is not a year from %(floor)s to %(ceiling)s") % {"floor": floor, "ceiling": ceiling}
    if not isinstance(table, str):
        return _("it has no points table")
    try:
        services.checked_table(table)
    except UserError as error:
        return str(error)
    return ""


def _read_key(data: bytes) -> dict:
    """The key file's fields, each checked as the series form checks them; ``UserError``
    naming the reason otherwise (nothing is saved)."""
    try:
        key = bounded.loads(data, max_bytes=MAX_KEY_BYTES, max_depth=MAX_KEY_DEPTH)
    except bounded.TooBig:
        key = None
    except bounded.BadText as bad:
        raise UserError(_("The key file is damaged (%(what)s).") % {"what": bad.where}) from None
    if not isinstance(key, dict) or key.get("format") != KEY_FORMAT:
        raise UserError(_("This is not a series key file."))
    if key.get("version") != KEY_VERSION:
        raise UserError(_("The key file has format version %(found)s.") % {"found": key.get("version")})
    secret = key.get("secret")
    if not (isinstance(secret, str) and _HEX64.match(secret) and key.get("key") == key_id(secret)):
        raise UserError(_("The key file is damaged: its secret does not match its key id."))
    problem = _key_field_problem(key)
    if problem:
        raise UserError(_("The key file is damaged: %(problem)s.") % {"problem": problem})
    key["points_table"] = services.checked_table(key["points_table"])
    return key


def _existing(key: dict) -> Series | None:
    """This laptop's series of the key file (same short name and secret), or None; refuses a
    series of that short name with another secret, or the same secret under another name."""
    series = Series.objects.select_for_update().filter(slug=key["slug"]).first()
    if series is not None and not hmac.compare_digest(series.secret, key["secret"]):
        raise UserError(
            _(
                "This laptop already has a series “%(slug)s” with another key. Load the key file "
                "of that series, or give this laptop's series another short name."
            )
            % {"slug": key["slug"]}
        )
    twin = Series.objects.filter(secret=key["secret"]).exclude(slug=key["slug"]).first()
    if twin is not None:
        raise UserError(
            _("This laptop already has the series “%(slug)s” with the same key under another short name.")
            % {"slug": twin.slug}
        )
    return series


def load_key(data: bytes, event=None, role: str = "", district: str = "") -> tuple[Series, bool]:
    """Load a series' key file on this laptop (a district's): the same Series (short name,
    name, season, points, secret) as on the final's laptop; with ``event``, put that event in
    it as ``role`` of ``district`` (``join_series``) in the same transaction.

    Out: ``(series, created)``; loading the same key again changes nothing. Raises
    ``UserError`` before any write for a file that is not a key file or is damaged (any field
    failing the series form's checks), a series of that short name with another key, the same
    key under another short name, or an event that cannot join (in another series): nothing
    is saved (docs/exchange.md, "Keys")."""
    key = _read_key(data)
    with transaction.atomic():
        series = _existing(key)
        if event is not None:
            member = SeriesEvent.objects.select_for_update().filter(event=event).first()
            if member is not None and (series is None or member.series_id != series.pk):
                raise UserError(
                    _("%(event)s is already in the series “%(series)s”.")
                    % {"event": event.title, "series": member.series}
                )
        created = series is None
        if created:
            fields = ("slug", "name", "season", "points_table", "secret")
            series = Series.objects.create(**{f: key[f] for f in fields})
        if event is not None:
            join_series(event, series, role, district)
    return series, created


def join_series(event, series: Series, role: str, district: str = "") -> SeriesEvent:
    """Put ``event`` in ``series`` as ``role`` (qualifier, final, round) of ``district``; an
    event already in it has its role and district updated. Raises ``UserError`` for an event
    in another series, an unknown role, or the final when the series has another final (one
    final per series, issue 28 item 4; nothing changed). Joining gives the event's organisers
    import and export rights only, never the series' settings (``series.access.may_edit_series``)."""
    if role not in SeriesEvent.Role.values:
        raise UserError(_("Unknown role in the series: %(role)s.") % {"role": role})
    district = " ".join(district.split())[:60]
    with transaction.atomic():
        member = SeriesEvent.objects.select_for_update().filter(event=event).first()
        if member is not None and member.series_id != series.pk:
            raise UserError(
                _("%(event)s is already in the series “%(series)s”.") % {"event": event.title, "series": member.series}
            )
        services.refuse_second_final(series, role, event)
        if member is None:
            return SeriesEvent.objects.create(event=event, series=series, role=role, district=district)
        member.role, member.district = role, district
        member.save(update_fields=["role", "district"])
    return member
