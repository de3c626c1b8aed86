"""The refusals of the Sanjô Dôsai services: ``DosaiError`` and its ``StaleForm``.

Both are ``common.errors.UserError``: their message is meant for the screen and nothing was
saved when they are raised. A programming error is never one of them.
"""

from common.errors import UserError


class DosaiError(UserError):
    """A refusal with a message for the screen; nothing was saved."""


class StaleForm(DosaiError):
    """The form was made for an earlier state of the hand (a double submit or a second
    screen): nothing was recorded."""
