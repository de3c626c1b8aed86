"""The result form of the referee's screen: counts, 「り」, じゃんけん; the winner is derived."""

import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _

from common.errors import UserError
from judging import services
from judging.engine import rules
from judging.models import Dispute

MESSAGES = {
    rules.SheetProblem.NOT_A_WHOLE_NUMBER: _("Enter a whole number of cards."),
    rules.SheetProblem.NEGATIVE: _("The number of cards cannot be negative."),
    rules.SheetProblem.TOO_MANY: _("More cards than there are in play (%(total)s)."),
    rules.SheetProblem.TOTAL_MISMATCH: _(
        "Cards of A (%(a)s) + cards of B (%(b)s) + cards held by the referee (%(ref)s) = %(sum)s, "
        "but there are %(total)s cards in play. Count again."
    ),
    rules.SheetProblem.JOKER_MISSING: _("Mark who holds 「り」."),
    rules.SheetProblem.JOKER_HOLDER_HAS_NO_CARDS: _("This team has no cards, so it cannot hold 「り」."),
    rules.SheetProblem.JOKER_WITH_REFEREE_NEEDS_REFEREE_CARD: _(
        "The referee holds 「り」, so the referee holds at least one card."
    ),
    rules.SheetProblem.TIE_NEEDS_RPS_WINNER: _(
        "The cards are level and the referee holds 「り」: enter who won the leaders' rock-paper-scissors."
    ),
    rules.SheetProblem.RPS_WINNER_NOT_APPLICABLE: _(
        "The rock-paper-scissors winner is only entered when the cards are level and the referee holds 「り」."
    ),
    rules.SheetProblem.RPS_USED_OUT_OF_RANGE: _("A game has at most three rock-paper-scissors decisions."),
}


class CardCountField(forms.CharField):
    """A count of cards typed on a tablet: full-width digits (IME) are accepted."""

    def __init__(self, **kwargs):
        kwargs.setdefault(
            "widget",
            forms.TextInput(
                attrs={"inputmode": "numeric", "pattern": "[0-9０-９]*", "autocomplete": "off", "class": "count"}
            ),
        )
        super().__init__(**kwargs)

    def to_python(self, value):
        value = unicodedata.normalize("NFKC", super().to_python(value) or "").strip()
        if value == "":
            return None
        if not value.isascii() or not value.isdigit():
            raise forms.ValidationError(MESSAGES[rules.SheetProblem.NOT_A_WHOLE_NUMBER])
        return int(value)


class ResultForm(forms.Form):
    cards_a = CardCountField(label=_("cards of team A"))
    cards_b = CardCountField(label=_("cards of team B"))
    referee_cards = CardCountField(label=_("cards held by the referee"), required=False, initial=0)
    joker_holder = forms.ChoiceField(
        label=_("who holds 「り」"),
        widget=forms.RadioSelect,
        choices=[("A", _("Team A")), ("B", _("Team B")), ("referee", _("Referee"))],
    )
    rps_winner = forms.ChoiceField(
        label=_("rock-paper-scissors winner (level cards, 「り」 with the referee)"),
        widget=forms.RadioSelect,
        required=False,
        choices=[("", _("not needed")), ("A", _("Team A")), ("B", _("Team B"))],
    )
    rps_used = forms.TypedChoiceField(
        label=_("rock-paper-scissors decisions during the game"),
        widget=forms.RadioSelect,
        coerce=int,
        initial=0,
        choices=[(i, str(i)) for i in range(rules.MAX_RPS_DECISIONS + 1)],
    )
    # The version the referee saw (0: none yet) and a key that makes a retried post harmless.
    base_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    submission_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args, card_total=rules.CARD_TOTAL, team_a="", team_b="", **kwargs):
        super().__init__(*args, **kwargs)
        self.card_total = card_total
        if team_a:
            self.fields["cards_a"].label = _("cards of %(team)s (A)") % {"team": team_a}
            self.fields["joker_holder"].choices = [("A", team_a), ("B", team_b), ("referee", _("Referee"))]
            self.fields["rps_winner"].choices = [("", _("not needed")), ("A", team_a), ("B", team_b)]
        if team_b:
            self.fields["cards_b"].label = _("cards of %(team)s (B)") % {"team": team_b}

    def values(self):
        data = self.cleaned_data
        return rules.SheetValues(
            cards_a=data.get("cards_a"),
            cards_b=data.get("cards_b"),
            referee_cards=data.get("referee_cards") or 0,
            joker_holder=rules.JokerHolder(data["joker_holder"]) if data.get("joker_holder") else None,
            rps_winner=rules.Side(data["rps_winner"]) if data.get("rps_winner") else None,
            rps_used=data.get("rps_used") or 0,
        )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        values = self.values()
        for field, problem in rules.validate_sheet(values, self.card_total):
            params = {
                "total": self.card_total,
                "a": values.cards_a,
                "b": values.cards_b,
                "ref": values.referee_cards,
                "sum": (values.cards_a or 0) + (values.cards_b or 0) + (values.referee_cards or 0),
            }
            self.add_error(None if field == "__all__" else field, MESSAGES[problem] % params)
        return data


class WalkoverForm(forms.Form):
    absent_side = forms.ChoiceField(
        label=_("absent team"), widget=forms.RadioSelect, choices=[("A", _("Team A")), ("B", _("Team B"))]
    )
    base_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)
    submission_key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)

    def __init__(self, *args, team_a="", team_b="", **kwargs):
        # Shown on the same page as the result form, whose hidden fields have the same names:
        # ids of their own, so no id is used twice on the page (issue 27).
        kwargs.setdefault("auto_id", "id_walkover_%s")
        super().__init__(*args, **kwargs)
        if team_a:
            self.fields["absent_side"].choices = [("A", team_a), ("B", team_b)]


class RetypeForm(ResultForm):
    """The recorder types the paper sheet again, without seeing the entry (blind check)."""


class RejectForm(forms.Form):
    reason = forms.CharField(label=_("reason (shown on the court's tablet)"), max_length=300, required=False)


class DisputeForm(forms.Form):
    """The touch rule in steps: a hand underneath first, else each team's touch (判定表),
    then the team the rule asks for (じゃんけん winner, first to touch, referee leader)."""

    NO_HAND_UNDERNEATH = "none"

    underneath = forms.ChoiceField(
        label=_("Was one hand underneath the other on the card?"),
        widget=forms.RadioSelect,
        required=False,
        choices=[
            ("A", _("Team A's hand was underneath")),
            ("B", _("Team B's hand was underneath")),
            (NO_HAND_UNDERNEATH, _("No: at the same time, in the same place (or another case)")),
        ],
    )
    state_a = forms.ChoiceField(label=_("team A"), widget=forms.RadioSelect, required=False)
    state_b = forms.ChoiceField(label=_("team B"), widget=forms.RadioSelect, required=False)
    rps_winner = forms.ChoiceField(
        label=_("rock-paper-scissors winner"),
        widget=forms.RadioSelect,
        required=False,
        choices=[("", _("not needed")), ("A", _("Team A")), ("B", _("Team B"))],
    )
    first_team = forms.ChoiceField(
        label=_("first team to touch the correct card"),
        widget=forms.RadioSelect,
        required=False,
        choices=[("A", _("Team A")), ("B", _("Team B"))],
    )
    referee_choice = forms.ChoiceField(
        label=_("the referee leader's decision"),
        widget=forms.RadioSelect,
        required=False,
        choices=[("A", _("Team A")), ("B", _("Team B"))],
    )

    def __init__(self, *args, team_a="", team_b="", **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["state_a"].choices = Dispute.STATE_CHOICES
        self.fields["state_b"].choices = Dispute.STATE_CHOICES
        if team_a:
            self.fields["state_a"].label = team_a
            self.fields["state_b"].label = team_b
            self.fields["rps_winner"].choices = [("", _("not needed")), ("A", team_a), ("B", team_b)]
            self.fields["first_team"].choices = [("A", team_a), ("B", team_b)]
            self.fields["referee_choice"].choices = [("A", team_a), ("B", team_b)]
            self.fields["underneath"].choices = [
                ("A", _("%(team)s's hand was underneath") % {"team": team_a}),
                ("B", _("%(team)s's hand was underneath") % {"team": team_b}),
                (self.NO_HAND_UNDERNEATH, _("No: at the same time, in the same place (or another case)")),
            ]

    def clean(self):
        data = super().clean()
        if data.get("underneath") == self.NO_HAND_UNDERNEATH:
            data["underneath"] = ""
        if not data.get("underneath"):
            for field in ("state_a", "state_b"):
                if not data.get(field) and field not in self.errors:
                    self.add_error(field, _("Tap how this team touched the card, or whose hand was underneath."))
        return data

    def ruling(self, rps_used):
        """The ``rules.TouchRuling`` of a valid form, given the じゃんけん already played."""
        data = self.cleaned_data
        return rules.rule_touch(data["underneath"] or None, data["state_a"] or None, data["state_b"] or None, rps_used)


# Not "count": the live 56-card check of stepper.js sums the inputs of that class.
PLAYER_COUNT_WIDGET = forms.TextInput(
    attrs={"inputmode": "numeric", "pattern": "[0-9０-９]*", "autocomplete": "off", "class": "player-count"}
)


class PlayerCardsForm(forms.Form):
    """Each player's cards (individual counts), for events that take them.

    One field per player of each team as registered (the three players and substitutes),
    named ``player_<pk>``; blank means "not given". ``check(values)`` names each side whose
    given counts do not add up to its team count.
    """

    def __init__(self, *args, match, **kwargs):
        super().__init__(*args, **kwargs)
        self.match = match
        self.side_errors = {}
        self.sides = []
        for side, team in (("A", match.team_a), ("B", match.team_b)):
            names = []
            for player in team.players.all():
                name = f"player_{player.pk}"
                label = _("%(name)s (substitute)") % {"name": player.name} if player.is_substitute else player.name
                self.fields[name] = CardCountField(label=label, required=False, widget=PLAYER_COUNT_WIDGET)
                names.append(name)
            self.sides.append((side, team, names))

    def side_blocks(self):
        """``[(side, team, [bound fields], errors)]`` for the template."""
        return [
            (side, team, [self[n] for n in names], self.side_errors.get(side, [])) for side, team, names in self.sides
        ]

    def counts(self):
        """The counts given: {player pk: cards}; blanks left out."""
        return {
            int(name.removeprefix("player_")): value
            for name, value in self.cleaned_data.items()
            if name.startswith("player_") and value is not None
        }

    def check(self, values: rules.SheetValues) -> bool:
        """Whether the given counts add up per side (``services.player_cards_problems``);
        a side that does not gets its error. ``UserError`` goes to the form."""
        try:
            problems = services.player_cards_problems(self.match, values, self.counts())
        except UserError as e:
            self.add_error(None, str(e))
            return False
        for side, message in problems:
            self.side_errors.setdefault(side.value, []).append(message)
            self.add_error(None, message)
        return not problems


class TabletReportForm(forms.Form):
    """What the court page's script reports: how many results the tablet holds unsent."""

    unsent = forms.IntegerField(label=_("unsent results on the tablet"), min_value=0, max_value=999)
