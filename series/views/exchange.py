"""The organiser's results exchange page (docs/exchange.md): the series' key file, the signed
results file of this event, and the import of a district's file into the final (preview, then
confirm)."""

import hashlib
import time
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.downloads import file_response
from common.errors import UserError
from common.private_files import write_private
from series.exchange import signing
from series.exchange.export import DEFAULT_QUALIFIERS, export_results, qualifier_counts
from series.exchange.importer import import_results
from series.forms import ExportForm, KeyUploadForm, ResultsUploadForm
from series.models import ImportedFile, SeriesEvent
from tournament.access import event_for_organiser

OCTET = "application/octet-stream"


def _member(event):
    return SeriesEvent.objects.select_related("series").filter(event=event).first()


def _loaded(member):
    """The key form's role and district as loaded (the event's place in its series), if any."""
    if member is None:
        return {}
    return {"role": member.role, "district": member.district}


def _asked(request):
    """The export form and the places per division asked for (``?qualifiers=N``, else the
    default): the page says per division how many qualify and why fewer (``qualifier_counts``)."""
    if "qualifiers" in request.GET:
        form = ExportForm(request.GET)
        if form.is_valid():
            return form, form.cleaned_data["qualifiers"]
        return form, DEFAULT_QUALIFIERS
    return ExportForm(initial={"qualifiers": DEFAULT_QUALIFIERS}), DEFAULT_QUALIFIERS


@login_required
def exchange(request, slug):
    """GET: the event's place in its series, the key file, the export and (the final) the
    imported files. POST: load a key file and put the event in its series."""
    event = event_for_organiser(request, slug)
    member = _member(event)
    key_form = KeyUploadForm(initial=_loaded(member))
    export_form, asked = _asked(request)
    if request.method == "POST":
        key_form = KeyUploadForm(request.POST, request.FILES)
        if key_form.is_valid():
            data = key_form.cleaned_data
            try:
                series, _created = signing.load_key(data["file"], event, data["role"], data["district"])
            except UserError as error:
                key_form.add_error("file", str(error))
            else:
                messages.success(
                    request,
                    _("%(event)s is in the series “%(series)s”.") % {"event": event.title, "series": series.name},
                )
                return redirect("series:exchange", event.slug)
    return render(
        request,
        "series/exchange.html",
        {
            "event": event,
            "member": member,
            "key_id": signing.key_id(member.series.secret) if member else "",
            "key_form": key_form,
            "export_form": export_form,
            "qualifier_counts": qualifier_counts(event, asked) if member is not None else [],
            "imported": ImportedFile.objects.filter(event=event).prefetch_related("teams"),
        },
    )


@login_required
def key_download(request, slug):
    """The series' key file (the secret: organisers of the series' events only)."""
    event = event_for_organiser(request, slug)
    member = _member(event)
    if member is None:
        messages.error(request, _("%(event)s is in no series.") % {"event": event.title})
        return redirect("series:exchange", event.slug)
    return file_response(signing.key_file(member.series), f"{member.series.slug}.karuta-key", OCTET)


@login_required
def results_download(request, slug):
    """The event's signed results file; a refusal (no series, divisions unfinished) is said on
    the exchange page."""
    event = event_for_organiser(request, slug)
    form = ExportForm(request.GET or {"qualifiers": DEFAULT_QUALIFIERS})
    if not form.is_valid():
        messages.error(request, "; ".join(e for errors in form.errors.values() for e in errors))
        return redirect("series:exchange", event.slug)
    try:
        data, name = export_results(event, form.cleaned_data["qualifiers"])
    except UserError as error:
        messages.error(request, str(error))
        return redirect("series:exchange", event.slug)
    return file_response(data, name, OCTET)


# An uploaded results file (children's names) is kept only between the preview and the
# confirm, and at most this long (said on the preview page); docs/exchange.md, "Import".
KEPT_HOURS = 24


def _kept_dir():
    path = Path(settings.DATA_DIR) / "exchange"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _kept_path(sha256):
    if not (len(sha256) == 64 and all(c in "0123456789abcdef" for c in sha256)):
        raise Http404
    return _kept_dir() / f"{sha256}.karuta"


def _expired(path, now=None) -> bool:
    """Whether the kept file at ``path`` is older than ``KEPT_HOURS`` (by its modification time)."""
    now = time.time() if now is None else now
    try:
        return now - path.stat().st_mtime > KEPT_HOURS * 3600
    except OSError:
        return True


def sweep_kept(now=None) -> int:
    """Delete the kept uploads older than ``KEPT_HOURS``; out: how many. Run on each upload."""
    gone = 0
    for path in _kept_dir().glob("*.karuta"):
        if _expired(path, now):
            path.unlink(missing_ok=True)
            gone += 1
    return gone


def _keep(data):
    """Keep an uploaded results file under its SHA-256 until it is confirmed."""
    sha256 = hashlib.sha256(data).hexdigest()
    write_private(_kept_path(sha256), data)
    return sha256


def _preview(event, data):
    """The preview of an upload; the file is kept (for the confirm) only when it can be
    imported; expired uploads are swept first."""
    sweep_kept()
    report = import_results(event, data, preview=True)
    return report, (_keep(data) if report.ok else None)


def _confirm(request, event):
    """The confirm step: the kept file imported unless the preview changed since it was shown.
    The kept file is deleted once imported, refused or expired; kept only for a new preview."""
    sha256 = request.POST.get("sha256", "")
    path = _kept_path(sha256)
    if not path.exists() or _expired(path):
        path.unlink(missing_ok=True)
        messages.error(request, _("The uploaded file has expired; upload it again."))
        return None, None
    try:
        report = import_results(event, path.read_bytes(), user=request.user, expect=request.POST.get("digest", ""))
    except UserError:
        path.unlink(missing_ok=True)
        raise
    if report.imported or not report.ok:
        path.unlink(missing_ok=True)
    if report.changed or not report.ok:
        messages.error(request, _("Something changed since the preview: read the new preview before importing."))
        return report, (sha256 if report.ok else None)
    return report, sha256


@login_required
def results_import(request, slug):
    """Upload a district's results file, read the preview (refusals first), confirm."""
    event = event_for_organiser(request, slug)
    form, report, sha256, error = ResultsUploadForm(), None, None, ""
    try:
        if request.method == "POST" and "sha256" in request.POST:
            report, sha256 = _confirm(request, event)
            if report is not None and report.imported:
                messages.success(
                    request,
                    _("%(count)s qualifying teams imported from %(source)s.")
                    % {"count": len(report.qualifiers), "source": report.source},
                )
                return redirect("tournament:team_list", event.slug)
        elif request.method == "POST":
            form = ResultsUploadForm(request.POST, request.FILES)
            if form.is_valid():
                report, sha256 = _preview(event, form.cleaned_data["file"])
    except UserError as refusal:
        error, report = str(refusal), None
    except OSError as fault:
        error, report = (
            _("The file could not be kept (%(reason)s).") % {"reason": fault.strerror or fault},
            None,
        )
    return render(
        request,
        "series/exchange_import.html",
        {
            "event": event,
            "member": _member(event),
            "form": form,
            "report": report,
            "sha256": sha256,
            "error": error,
            "kept_hours": KEPT_HOURS,
        },
    )
