"""Forms of the hanafuda scorekeeper: a new session (sides and house rules) and a round's captures."""

import json

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from common import bounded_json, limits
from hanafuda import labels, services
from hanafuda.engine import dealing
from hanafuda.engine.deck import CARD_BY_ID, CARDS
from hanafuda.engine.dekiyaku import DEKIYAKU, MONTH_READABLE
from hanafuda.engine.options import DEFAULT_OPTIONS, Options, Players, Storm, StormOnInstaWin, SunTiming
from hanafuda.rule_choices import OPTION_CHOICES

ROUND_CHOICES = [(12, _("12 rounds (traditional)")), (6, _("6 rounds")), (3, _("3 rounds"))]
KIND_CHOICES = [("three_players", _("3 players")), ("two_teams", _("2 teams of 2 (4 players)"))]
NAME_MAX = 30


def _yaku_choices():
    return [(d.code, labels.yaku_name(d)) for d in DEKIYAKU if d.code in MONTH_READABLE]


def _card_label(c):
    return f"{labels.month_name(c.month)} ・ {labels.card_name(c.id)}"


def _card_choices():
    return [("", "—")] + [(str(c.id), _card_label(c)) for c in CARDS]


DRAW_FIELDS = {
    "three_players": [("draw_player_1", 0), ("draw_player_2", 1), ("draw_player_3", 2)],
    "two_teams": [("draw_team_a_1", 0), ("draw_team_a_2", 0), ("draw_team_b_1", 1), ("draw_team_b_2", 1)],
}
DRAW_HISTORY_MAX = 2000  # characters of the hidden record of the draws so far: ample for many re-draws


class SessionForm(forms.Form):
    """A new session: title, the sides, the number of rounds, the first dealer and the house rules."""

    title = forms.CharField(label=_("Title"), max_length=100)
    kind = forms.ChoiceField(
        label=_("Players and teams"),
        choices=KIND_CHOICES,
        initial="three_players",
        widget=forms.RadioSelect,
        help_text=_("Team members share one capture pile."),
    )
    player_1 = forms.CharField(label=_("Player 1"), max_length=NAME_MAX, required=False)
    player_2 = forms.CharField(label=_("Player 2"), max_length=NAME_MAX, required=False)
    player_3 = forms.CharField(label=_("Player 3"), max_length=NAME_MAX, required=False)
    team_a_1 = forms.CharField(label=_("Team A, player 1"), max_length=NAME_MAX, required=False)
    team_a_2 = forms.CharField(label=_("Team A, player 2"), max_length=NAME_MAX, required=False)
    team_b_1 = forms.CharField(label=_("Team B, player 1"), max_length=NAME_MAX, required=False)
    team_b_2 = forms.CharField(label=_("Team B, player 2"), max_length=NAME_MAX, required=False)
    rounds = forms.TypedChoiceField(
        label=_("Rounds"),
        choices=ROUND_CHOICES,
        coerce=int,
        initial=12,
        widget=forms.RadioSelect,
        help_text=_("12 is traditional; 6 or 3 are shorter."),
    )
    first_dealer = forms.TypedChoiceField(
        label=_("First dealer"),
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
        choices=[(0, _("player 1 / team A")), (1, _("player 2 / team B")), (2, _("player 3"))],
        help_text=_(
            "Each player draws a card: the earliest month deals; within a month the higher kind of card "
            "(bright, animal, ribbon, chaff); equal cards are drawn again. "
            "Seating order = the order above; play goes anti-clockwise."
        ),
    )
    first_partner = forms.TypedChoiceField(
        label=_("Which partner of that team deals first"),
        coerce=int,
        initial=0,
        widget=forms.RadioSelect,
        choices=[(0, _("the team's player 1")), (1, _("the team's player 2"))],
        required=False,
        help_text=_("Teams only. The drawn cards decide it when they are entered."),
    )
    draw_history = forms.CharField(widget=forms.HiddenInput, required=False, max_length=DRAW_HISTORY_MAX)
    draw_player_1 = forms.ChoiceField(label=_("Player 1 drew"), choices=_card_choices, required=False)
    draw_player_2 = forms.ChoiceField(label=_("Player 2 drew"), choices=_card_choices, required=False)
    draw_player_3 = forms.ChoiceField(label=_("Player 3 drew"), choices=_card_choices, required=False)
    draw_team_a_1 = forms.ChoiceField(label=_("Team A, player 1 drew"), choices=_card_choices, required=False)
    draw_team_a_2 = forms.ChoiceField(label=_("Team A, player 2 drew"), choices=_card_choices, required=False)
    draw_team_b_1 = forms.ChoiceField(label=_("Team B, player 1 drew"), choices=_card_choices, required=False)
    draw_team_b_2 = forms.ChoiceField(label=_("Team B, player 2 drew"), choices=_card_choices, required=False)
    any_card_of_month = forms.MultipleChoiceField(
        label=_('Dekiyaku read as "any card of their months"'),
        required=False,
        choices=_yaku_choices,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Default: the exact cards pictured by the source (M7)."),
    )
    sun_rule = forms.BooleanField(
        label=_("Sun rule"),
        required=False,
        help_text=_("The Crane taken by an opponent cancels a storm card; only with the Storm rule."),
    )
    insta_win_value = forms.IntegerField(
        label=_("Insta-win value"),
        min_value=1,
        max_value=99,
        initial=8,
        help_text=_("Points of Five Kings and Seven Red Ribbons; 8 is assumed by the source."),
    )
    payment_cap = forms.IntegerField(
        label=_("Payment cap"),
        min_value=1,
        max_value=99,
        required=False,
        help_text=_("Empty: no cap (default). 8 is the Taiyaku bet limit (M2)."),
    )
    misdeal_four_in_hand = forms.BooleanField(
        label=_("Misdeal with 4 of a month in one hand"),
        required=False,
        help_text=_("It does not change the scoring (M15)."),
    )

    OPTION_FIELDS = (
        "four_brights",
        "lightning",
        "flower_cards",
        "any_card_of_month",
        "suppression",
        "repeats",
        "storm",
        "sun_rule",
        "sun_timing",
        "storm_insta_win",
        "insta_win_value",
        "insta_win_payment",
        "insta_win_check",
        "payment_cap",
        "tie_rule",
        "team_payment",
        "team_dealer",
        "four_player_deal",
        "misdeal_four_in_hand",
    )

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", labels.label_suffix())
        super().__init__(*args, **kwargs)
        defaults = DEFAULT_OPTIONS
        for name, (label, choices, help_text) in OPTION_CHOICES.items():
            self.fields[name] = forms.ChoiceField(
                label=label,
                choices=[(c.value, text) for c, text in choices],
                initial=getattr(defaults, name).value,
                help_text=help_text,
                required=name != "team_dealer",  # added later (M17): a form without it takes the default
            )
        # Fields in the order of the page: sides first, then the rules.
        order = [
            "title",
            "kind",
            "player_1",
            "player_2",
            "player_3",
            "team_a_1",
            "team_a_2",
            "team_b_1",
            "team_b_2",
            "rounds",
            "first_dealer",
            "first_partner",
            *self.OPTION_FIELDS,
        ]
        self.order_fields(order)
        self.redraw: tuple[str, ...] = ()  # the draw fields of the players who draw again after a tie
        self.draw_record: list[dict] = []  # the draws so far, to show while the tied players draw again

    def side_fields(self):
        return [self[n] for n in ("player_1", "player_2", "player_3")]

    def team_fields(self):
        return [self[n] for n in ("team_a_1", "team_a_2", "team_b_1", "team_b_2")]

    def draw_fields(self):
        return [self[name] for fields in DRAW_FIELDS.values() for name, _seat in fields]

    def draw_fields_of(self, kind):
        """The draw fields of a table (3 players or 2 teams) to show: while tied players draw
        again, only theirs."""
        return [self[n] for n, _seat in DRAW_FIELDS[kind] if not self.redraw or n in self.redraw]

    def draw_fields_three(self):
        return self.draw_fields_of("three_players")

    def draw_fields_teams(self):
        return self.draw_fields_of("two_teams")

    def rule_fields(self):
        return [self[n] for n in self.OPTION_FIELDS]

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind == "three_players":
            names = ["player_1", "player_2", "player_3"]
        elif kind == "two_teams":
            names = ["team_a_1", "team_a_2", "team_b_1", "team_b_2"]
        else:
            return data
        seen = {}
        for name in names:
            value = (data.get(name) or "").strip()
            if not value:
                self.add_error(name, _("Enter the name."))
            elif value in seen:
                self.add_error(name, _("Two players cannot have the same name."))
            seen[value] = name
        self._first_dealer_from_draws(kind, data)
        self._storm_choices_fit(data)
        if kind == "two_teams" and data.get("first_dealer") == 2:
            self.add_error("first_dealer", _("With two teams the first dealer is team A or team B."))
        if self.errors:
            return data
        values = {name: data.get(name) for name in self.OPTION_FIELDS}
        values["any_card_of_month"] = frozenset(values["any_card_of_month"] or ())
        values["team_dealer"] = values["team_dealer"] or DEFAULT_OPTIONS.team_dealer
        values["players"] = kind
        if kind == "three_players":
            # The team choices (M13, M14, M17) mean nothing for 3 players: kept as chosen (issue 27:
            # the form shows them again as set, and they apply if the table plays in teams later),
            # left out of the rules summary. The partner who deals first needs a team: none here.
            data["first_partner"] = 0
        values["rounds"] = data.get("rounds") or 12
        try:
            options = services.house_rules(values)
        except services.HouseRulesError as exc:
            raise forms.ValidationError(exc.message) from exc
        data["options"] = options
        return data

    def _storm_choices_fit(self, data):
        """The Sun rule and its timing, and the Storm's effect on insta-wins, only mean something
        with the Storm rule they refine (musashino-bana.md l.24–32; M9, M10): refused where they would be
        silently ignored."""
        storm = data.get("storm")
        if storm is None:
            return
        if data.get("sun_rule") and storm == Storm.OFF:
            self.add_error(
                "sun_rule",
                _("The Sun rule works only with the Storm rule: choose a Storm rule or turn the Sun rule off."),
            )
        if data.get("sun_timing") not in (None, SunTiming.ANY_ORDER) and not data.get("sun_rule"):
            self.add_error("sun_timing", _("The Sun rule timing applies only when the Sun rule is on."))
        if data.get("storm_insta_win") == StormOnInstaWin.BLOCKED_WHEN_FORMED and storm != Storm.A:
            self.add_error("storm_insta_win", _("Insta-wins can be blocked only under Storm rule A."))

    def _first_dealer_from_draws(self, kind, data):
        """The drawn cards, when given, decide the first dealer: the earliest month, then the
        higher-ranked card; players with equal earliest cards draw again, as often as they tie
        (musashino-bana.md l.12; ``dealing.settle_draws``). The draws so far travel in the hidden
        ``draw_history`` while the tied players draw again; ``draws`` holds them all at the end."""
        fields = DRAW_FIELDS[kind]
        history = self._draw_history(fields)
        expected = [n for n, _seat in fields] if not history else list(dealing.settle_draws(history).tied)
        given = {name: int(data[name]) for name in expected if data.get(name)}
        data["drawn_by"] = None
        data["draws"] = []
        if not given and not history:
            return
        missing = [name for name in expected if name not in given]
        for name in missing:
            self.add_error(
                name,
                _("Enter the card this player drew again.")
                if history
                else _("Enter the card every player drew, or none."),
            )
        if missing:
            self._keep_redraw(history, expected)
            return
        if len(set(given.values())) < len(given):  # the choices hold only real cards: repeats are the one refusal
            self.add_error(expected[-1], _("Two players cannot draw the same card."))
            self._keep_redraw(history, expected)
            return
        draws = [*history, given]
        outcome = dealing.settle_draws(draws)
        if outcome.dealer is None:
            self._ask_for_redraw(draws, outcome.tied)
            return
        data["first_dealer"] = dict(fields)[outcome.dealer]
        data["first_partner"] = [n for n, seat in fields if seat == data["first_dealer"]].index(outcome.dealer)
        data["drawn_by"] = self._drawer_name(outcome.dealer)
        data["draws"] = [[(self._drawer_name(n), card) for n, card in draw.items()] for draw in draws]

    def _draw_history(self, fields):
        """The draws before this one (hidden field), each {draw field: card id}; empty when
        there are none or they do not fit the table chosen (then the draw starts again)."""
        try:
            # Through the bounded reader (issue 28: every JSON from outside): a hidden field nested
            # 10,000 deep or of megabytes is no draw, never a RecursionError.
            text = (self.data.get("draw_history") or "[]").encode("utf-8", "replace")
            history = bounded_json.loads(text, max_bytes=limits.DRAW_HISTORY_BYTES, max_depth=limits.DRAW_HISTORY_DEPTH)
            names = {n for n, _seat in fields}
            if len(history) > limits.DRAW_HISTORY_DRAWS:
                return []
            history = [{str(n): int(c) for n, c in draw.items()} for draw in history]
            if history and set(history[0]) == names and dealing.settle_draws(history).dealer is None:
                return history
        except (ValueError, TypeError, AttributeError):
            pass
        return []

    def _drawer_name(self, draw_field):
        return (self.data.get(draw_field.removeprefix("draw_")) or "").strip() or str(self.fields[draw_field].label)

    def _keep_redraw(self, history, expected):
        """A re-draw refused (a card missing or repeated): it is asked for again."""
        if history:
            self.redraw = tuple(expected)
            self.draw_record = self._record(history)
            for name in expected:  # the tied players by name: 「一郎が引き直した札」
                self.fields[name].label = _("%(name)s drew again") % {"name": self._drawer_name(name)}

    def _ask_for_redraw(self, draws, tied):
        """Equal earliest cards: the tied players draw again. The draws so far go in the hidden
        field, the tied players' choices are emptied for their new cards."""
        names = labels.join(self._drawer_name(n) for n in tied)
        card = draws[-1][tied[0]]
        self.add_error(
            None,
            _("%(names)s drew equal cards (%(rank)s): they draw again. Enter the cards they drew.")
            % {"names": names, "rank": labels.draw_rank_name(card)},
        )
        self.data = self.data.copy()
        self.data["draw_history"] = json.dumps(draws)
        for name in tied:
            self.data[name] = ""
        self._keep_redraw(draws, tied)

    def _record(self, draws):
        """The draws so far as lines for the page: the first draw, then each re-draw."""
        return [
            {
                "first": i == 0,
                "cards": [labels.labelled(self._drawer_name(n), _card_label(CARD_BY_ID[c])) for n, c in draw.items()],
            }
            for i, draw in enumerate(draws)
        ]

    def sides_and_members(self):
        """(side names, team members) from the cleaned data."""
        d = self.cleaned_data
        if d["kind"] == "three_players":
            return [d["player_1"].strip(), d["player_2"].strip(), d["player_3"].strip()], []
        teams = [[d["team_a_1"].strip(), d["team_a_2"].strip()], [d["team_b_1"].strip(), d["team_b_2"].strip()]]
        return ["・".join(t) for t in teams], teams


class RoundForm(forms.Form):
    """The captures of one round: for each of the 48 cards, the side that captured it.

    One radio group per card (``c<id>``, value = seat index or empty), so the form works
    without JavaScript; the grid script turns the groups into tappable cards. ``rest``
    gives every card left without a side to one side (the "remaining cards" shortcut).
    ``number`` is the round the form was opened for (a double submission is detected).

    ``order``: under house rules that depend on when cards were captured (``needs_order``,
    M9(b), M10(b)), the captured cards' numbers (month × 10 + rank) in the order they were
    captured. The grid script fills it as the scorer taps; without JavaScript it is typed.
    """

    number = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    base = forms.CharField(widget=forms.HiddenInput, required=False, max_length=64)
    order = forms.CharField(
        label=_("Order of captures"),
        required=False,
        max_length=400,
        help_text=_(
            "The card numbers (shown on each card) in the order the cards were captured, first to last, "
            "separated by spaces."
        ),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "class": "order-input"}),
    )

    def __init__(self, *args, sides, needs_order=False, **kwargs):
        kwargs.setdefault("label_suffix", labels.label_suffix())
        super().__init__(*args, **kwargs)
        self.sides = list(sides)
        self.needs_order = needs_order
        side_choices = [(str(i), name) for i, name in enumerate(self.sides)]
        for c in CARDS:
            self.fields[f"c{c.id}"] = forms.ChoiceField(
                label=labels.card_name(c.id),
                required=False,
                widget=forms.RadioSelect,
                choices=[("", "—"), *side_choices],
            )
        self.fields["rest"] = forms.ChoiceField(
            label=_("The remaining cards go to"), required=False, choices=[("", "—"), *side_choices]
        )

    @staticmethod
    def initial_for(captures, number, base="", tapped=()):
        """Initial values from stored captures (one list of card ids per seat) and, when
        stored, the captured cards in the order they were captured."""
        initial = {"number": number, "base": base, "order": " ".join(str(c) for c in tapped)}
        for seat, pile in enumerate(captures or ()):
            for card_id in pile:
                initial[f"c{card_id}"] = str(seat)
        return initial

    def clean_order(self):
        text = self.cleaned_data.get("order") or ""
        values = text.replace(",", " ").replace("、", " ").split()
        try:
            return [int(v) for v in values]
        except ValueError:
            raise forms.ValidationError(_("Enter card numbers (such as 10 or 113) separated by spaces.")) from None

    def tapped(self):
        """The captured cards' ids in the order they were captured (may be empty)."""
        return self.cleaned_data.get("order") or []

    def captures(self):
        """One sorted list of card ids per seat, with the remaining cards given to ``rest``."""
        piles = [[] for _ in self.sides]
        rest = self.cleaned_data.get("rest")
        for c in CARDS:
            seat = self.cleaned_data.get(f"c{c.id}") or rest
            if seat not in (None, ""):
                piles[int(seat)].append(c.id)
        return piles

    def grid(self):
        """The 12 months, each with its 4 cards: (month label, [(card, bound field, type css)])."""
        rows = []
        for month in range(1, 13):
            cards = [CARD_BY_ID[month * 10 + r] for r in range(4)]
            rows.append((labels.month_name(month), [(c, self[f"c{c.id}"], c.type.value, c.type.ja) for c in cards]))
        return rows


TEAM_ONLY = ("team_payment", "four_player_deal", "team_dealer")  # M13, M14, M17


def sun_rule_line() -> str:
    """The Sun rule's line of the rules summary, with what it does (musashino-bana.md l.31–32)."""
    return gettext("Sun rule: on (an opponent who takes the Crane cancels the Rain man or the Lightning)")


def rules_summary(options: Options) -> list[str]:
    """The house rules that differ from the defaults, and for teams which partner deals (M17,
    always), as short lines translated into the active language (the session page, the score
    sheet and the reference card show them)."""
    lines = []
    defaults = DEFAULT_OPTIONS
    for name, (label, choices, _help) in OPTION_CHOICES.items():
        if name in TEAM_ONLY and options.players is not Players.TWO_TEAMS:
            continue  # a team's rule at a table of three players
        if name == "team_dealer" and options.players is Players.TWO_TEAMS:  # always said: the source is silent
            text = dict((c.value, t) for c, t in choices)[options.team_dealer.value]
            lines.append(labels.labelled(label, text))
            continue
        if name == "sun_timing" and options.sun_rule:  # the rule before its timing
            lines.append(sun_rule_line())  # with its effect (issue 33)
        value = getattr(options, name)
        if value != getattr(defaults, name):
            text = dict((c.value, t) for c, t in choices)[value.value]
            lines.append(labels.labelled(label, text))
    if options.any_card_of_month:
        lines.append(
            gettext("Any card of the months: %(yaku)s")
            % {"yaku": "、".join(labels.yaku_name(c) for c in sorted(options.any_card_of_month))}
        )
    if options.insta_win_value != defaults.insta_win_value:
        lines.append(gettext("Insta-win value: %(n)d") % {"n": options.insta_win_value})
    if options.payment_cap is not None:
        lines.append(gettext("Payment cap: %(n)d") % {"n": options.payment_cap})
    return lines
