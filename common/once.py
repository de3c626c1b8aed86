"""A "create" form sent twice creates one object.

A person who presses Back after creating something and sends the form again (or whose
tablet resends it after a lost answer) must not get a second session or edition. Each
create form carries a random ``creation_key``; once an object is created from a key, the
key and the object's address are kept in the person's (server-side) session, and the same
key sent again leads to that object instead of creating another.
"""

import secrets

KEY = "creation_key"
_STORE = "created_by_form"
_KEEP = 50  # keys kept per browser session, newest last


def form_key(request) -> str:
    """The key for a create form: the one sent with it (a refused form keeps its key), or a new one."""
    sent = request.POST.get(KEY, "") if request.method == "POST" else ""
    return sent if 16 <= len(sent) <= 64 and sent.isascii() else secrets.token_urlsafe(16)


def already_created(request) -> str | None:
    """The address of what this form's key already created, or None."""
    key = request.POST.get(KEY)
    return request.session.get(_STORE, {}).get(key) if key else None


def remember(request, url: str) -> None:
    """Keep ``url`` as what this form's key created."""
    key = request.POST.get(KEY)
    if not key:
        return
    store = dict(request.session.get(_STORE, {}))
    store[key] = url
    request.session[_STORE] = dict(list(store.items())[-_KEEP:])
