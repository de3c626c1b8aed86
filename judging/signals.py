"""What the results' services announce to the rooms built on them, inside their transaction.

``result_confirmed`` is sent by ``judging.services`` each time a recording sheet becomes a game's
confirmed result (by a recorder, alone, automatically, or by a restore), with ``match`` and
``sheet``, inside the confirmation's transaction: a receiver's writes commit or roll back with
it. ``judging`` imports no receiver; the outgoing webhook (``webhooks.signals``, issue 35 item 2)
connects one.
"""

from django.dispatch import Signal

result_confirmed = Signal()  # kwargs: match, sheet
