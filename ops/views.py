"""Downloading a backup of the whole database.

A backup holds every tournament, every account's password hash and the open sessions,
so only a superuser may download one; organisers of an event use `manage.py backup` on
the laptop or ask the superuser.
"""

import datetime

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from ops import backups

# A download reuses a backup this recent instead of making a new one.
FRESH_ENOUGH = datetime.timedelta(minutes=1)


@never_cache
@login_required
def backup_download(request):
    """The newest backup as a file; one is made first unless one is under a minute old."""
    if not request.user.is_superuser:
        raise PermissionDenied
    latest = backups.latest_backup()
    too_old = latest is None or (
        datetime.datetime.now().timestamp() - latest.stat().st_mtime > FRESH_ENOUGH.total_seconds()
    )
    if too_old:
        try:
            latest = backups.create_backup(reason="download")
        except backups.BackupError as e:
            # A sentence (a full disk, a busy database), never a traceback (issue 18, item 5).
            message = _("The backup failed: %(reason)s") % {"reason": e}
            return HttpResponse(message, status=503, content_type="text/plain; charset=utf-8")
    return FileResponse(
        latest.open("rb"), as_attachment=True, filename=latest.name, content_type="application/octet-stream"
    )
