"""A Musashino-bana game session and what was observed in it.

Only observations are stored: the sides, the house rules, the first dealer and, per round,
the cards each side captured. Everything else (the dealer of each later round, dekiyaku,
scores, payments, running totals, settlement) is derived by re-scoring with
``hanafuda.engine.scoring`` (see ``hanafuda.services.session_state``), so a correction to one
round re-derives every later round.

Captures are stored as a list aligned with ``Session.sides`` (index = seat, in seating
order, musashino-bana.md l.23), each a sorted list of card ids (month × 10 + rank, musashino-bana.md s.1.1). A list,
not an object keyed by name: database JSON may reorder object keys, and the seating order
is the turn order.

Under house rules that depend on when cards were captured (M9(b), M10(b)) a round also
stores ``capture_order``: the captures as they happened, ``[[seat, [card ids]], ...]``, each
capture 2 or 4 cards of one month (musashino-bana.md s.2.4). Otherwise it is empty.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from hanafuda.engine.options import Options


class Session(models.Model):
    """One game of Musashino-bana: 3 players, or 2 teams of 2 sharing a pile (musashino-bana.md l.4).

    ``sides``: the side names in seating order (3 player names, or 2 team names).
    ``team_members``: for teams, ``[[p1, p3], [p2, p4]]`` aligned with ``sides``; else ``[]``.
    ``options``: ``Options.as_dict()`` of the house rules (its ``rounds`` is the number of
    rounds: 12, 6 or 3, musashino-bana.md l.7). ``first_dealer``: seat index of the first
    dealer (musashino-bana.md l.12); for teams ``first_partner`` says which partner of that
    team (0 or 1) deals the first round (the later ones follow the house rule M17).
    ``first_draws``: the cards drawn for the first dealer, when entered: the first draw and
    each re-draw of the tied players, each a list of ``[player name, card id]``.
    """

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hanafuda_sessions", verbose_name=_("owner")
    )
    title = models.CharField(_("title"), max_length=100)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    options = models.JSONField(_("house rules"), default=dict)
    sides = models.JSONField(_("sides"))
    team_members = models.JSONField(_("team members"), default=list, blank=True)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer"), default=0)
    first_partner = models.PositiveSmallIntegerField(_("first dealer in the team"), default=0)
    first_draws = models.JSONField(_("cards drawn for the first dealer"), default=list, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]
        verbose_name = _("hanafuda session")
        verbose_name_plural = _("hanafuda sessions")

    def __str__(self):
        return self.title

    def rules(self) -> Options:
        """The stored house rules as ``Options`` (``ValueError`` if the stored values are bad)."""
        return Options.from_dict(self.options)

    @property
    def is_teams(self) -> bool:
        return len(self.sides) == 2

    @property
    def rounds_planned(self) -> int:
        return int(self.options.get("rounds", 12))

    def clean(self):
        try:
            rules = self.rules()
        except (ValueError, TypeError) as exc:
            raise ValidationError({"options": str(exc)}) from exc
        if not isinstance(self.sides, list) or len(self.sides) != rules.sides:
            raise ValidationError({"sides": _("The rules need %(n)d sides.") % {"n": rules.sides}})
        if not 0 <= self.first_dealer < len(self.sides):
            raise ValidationError({"first_dealer": _("The first dealer must be one of the sides.")})
        if self.first_partner not in (0, 1) or (self.first_partner and not self.is_teams):
            raise ValidationError({"first_partner": _("Only a team has a second player to deal first.")})


class Round(models.Model):
    """One round as observed: the cards each side captured (list aligned with the session's sides)."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round number"))
    captures = models.JSONField(_("captured cards"))
    capture_order = models.JSONField(_("order of captures"), default=list, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="hanafuda_round_unique_number")]

    def __str__(self):
        return f"{self.session} #{self.number}"


class RoundRevision(models.Model):
    """A change to an entered round: a correction (old → new captures) or an undo (old only).

    ``old_order`` / ``new_order``: the order of captures before and after, when the house
    rules record it (else empty).

        Kept by session and round number, not by foreign key to the round, so the record of an
        undone round survives its deletion.
    """

    CORRECTED = "corrected"
    UNDONE = "undone"
    ACTIONS = [(CORRECTED, _("corrected")), (UNDONE, _("undone"))]

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="revisions")
    number = models.PositiveSmallIntegerField(_("round number"))
    action = models.CharField(_("action"), max_length=10, choices=ACTIONS)
    old_captures = models.JSONField(_("captures before"))
    new_captures = models.JSONField(_("captures after"), null=True, blank=True)
    old_order = models.JSONField(_("order of captures before"), default=list, blank=True)
    new_order = models.JSONField(_("order of captures after"), default=list, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    changed_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["-changed_at", "-pk"]

    def __str__(self):
        return f"{self.session} #{self.number} {self.action}"
