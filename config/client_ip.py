"""The address of the person at the keyboard, for login throttling (django-axes).

django-axes locks a login name *from one address* (``AXES_LOCKOUT_PARAMETERS``), so the
address must be the client's, never the reverse proxy's: behind nginx or Caddy every
request comes from the proxy, and five wrong passwords from anyone would lock the real
organiser out everywhere (issue 18, item 3). Axes asks for the address through its own
setting ``AXES_CLIENT_IP_CALLABLE``, which points here.

- Direct (the venue's laptop, the default): ``REMOTE_ADDR``. ``X-Forwarded-For`` is
  ignored, since anyone can send it.
- Behind a trusted proxy (``KARUTA_BEHIND_PROXY=1``): the proxy appends the address it
  saw to ``X-Forwarded-For``; that is the right-most entry. Entries to its left were sent
  by the client and are not trusted. A missing or malformed header falls back to
  ``REMOTE_ADDR``.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings


def client_ip(request) -> str | None:
    """The client's address as text for ``request`` (see the module's rule), or None if unknown."""
    remote = request.META.get("REMOTE_ADDR")
    if not getattr(settings, "KARUTA_BEHIND_PROXY", False):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    last = forwarded.split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return remote
