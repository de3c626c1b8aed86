"""The one error type for a refusal that a person should read.

A service raises ``UserError`` when it refuses a step for a reason the organiser, the
referee or the club member can act on ("群 A の 1位が同順位です…"): its message is already
translated and names the division, the group, the game or the field. Nothing was written
when it is raised: every service that raises it does so before its first write, or inside
the transaction that the refusal rolls back.

A programming error (``ValueError``, ``KeyError``, ``TypeError`` …) is never a
``UserError``: views catch only ``UserError``, so a bug answers the error page and is
logged instead of being shown as a polite refusal or a 404.
"""


class UserError(Exception):
    """A refusal whose message (``str(error)``, translated) is meant to be shown as it is."""

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""
