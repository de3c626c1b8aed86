"""What the people of the day's services announce, inside their transaction.

``match_called`` is sent by ``people.services.calls.call_match`` once per new call (never for a
double tap returning the call already made), with ``match`` and ``call`` (the ``MatchCall``),
inside the call's transaction. The outgoing webhook (``webhooks.signals``, issue 35 item 2)
connects a receiver.
"""

from django.dispatch import Signal

match_called = Signal()  # kwargs: match, call
