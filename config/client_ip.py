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
  by the client and are not trusted. The header is read only when the connection itself
  (``REMOTE_ADDR``) comes from one of ``KARUTA_TRUSTED_PROXIES`` (addresses or networks,
  default loopback): a client that reaches gunicorn directly, past the proxy, is taken at
  its own address whatever it sends (issue 28, item 5). A missing or malformed header falls
  back to ``REMOTE_ADDR``.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from django.conf import settings


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """The trusted proxies' networks from the setting's entries; an unreadable entry trusts nothing."""
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def from_trusted_proxy(remote: str | None) -> bool:
    """Whether the connection's address ``remote`` is one of ``KARUTA_TRUSTED_PROXIES``."""
    if not remote:
        return False
    try:
        address = ipaddress.ip_address(remote.strip())
    except ValueError:
        return False
    if getattr(address, "ipv4_mapped", None):
        address = address.ipv4_mapped
    entries = tuple(getattr(settings, "KARUTA_TRUSTED_PROXIES", ("127.0.0.0/8", "::1")))
    return any(address.version == net.version and address in net for net in _networks(entries))


def client_ip(request) -> str | None:
    """The client's address as text for ``request`` (see the module's rule), or None if unknown."""
    remote = request.META.get("REMOTE_ADDR")
    if not getattr(settings, "KARUTA_BEHIND_PROXY", False) or not from_trusted_proxy(remote):
        return remote
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    last = forwarded.split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(last))
    except ValueError:
        return remote
