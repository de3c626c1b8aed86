"""The outbox's receivers (issue 35 item 2): a ``Delivery`` row written in the transaction that
confirms a result (``judging.signals.result_confirmed``) or calls a game's teams
(``people.signals.match_called``), when the event's webhook is on for that kind. Nothing is sent
here: the row commits or rolls back with the confirmation or the call, and ``webhooks.sender``
sends it once the network answers. Connected by ``WebhooksConfig.ready``.
"""

from judging.signals import result_confirmed
from people.signals import match_called
from webhooks.models import Delivery, WebhookSettings


def _settings(event_id):
    return WebhookSettings.objects.filter(event_id=event_id, enabled=True).first()


def on_result_confirmed(sender, match, sheet, **kwargs):
    """A ``RESULT`` delivery of ``sheet`` when the event sends results. A message of an older
    result of the same game still waiting (a correction confirmed before the network came
    back) is dropped: the club's group gets the result that stands, not the old one first."""
    found = _settings(match.event_id)
    if found is not None and found.sends(Delivery.Kind.RESULT):
        Delivery.objects.filter(
            kind=Delivery.Kind.RESULT, status=Delivery.Status.PENDING, sheet__match_id=match.pk
        ).exclude(sheet=sheet).delete()
        Delivery.objects.create(event_id=match.event_id, kind=Delivery.Kind.RESULT, sheet=sheet)


def on_match_called(sender, match, call, **kwargs):
    """A ``CALL`` delivery of ``call`` when the event sends calls."""
    found = _settings(match.event_id)
    if found is not None and found.sends(Delivery.Kind.CALL):
        Delivery.objects.create(event_id=match.event_id, kind=Delivery.Kind.CALL, call=call)


def connect():
    result_confirmed.connect(on_result_confirmed, dispatch_uid="webhooks.result_confirmed")
    match_called.connect(on_match_called, dispatch_uid="webhooks.match_called")
