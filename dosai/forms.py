"""Forms of the Sanjô Dôsai screens. They turn typed text into values and name the field
(the card number, the house and row) in each error; the services decide and save."""

import re
import unicodedata

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from dosai import services
from dosai.engine.facts import HOUSE_COUNT, MIN_PLAYERS
from dosai.engine.options import Options, options_as_dict
from dosai.models import ClubEdition, Hand
from dosai.services import ROWS

YES_NO = [("1", _("Yes")), ("0", _("No"))]


class JapaneseLabels:
    """Labels end in 「：」 on a Japanese page and ":" on an English one (Django's default suffix
    is the ASCII colon in both)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "：" if (get_language() or "ja").startswith("ja") else ":")
        super().__init__(*args, **kwargs)


class EditionForm(JapaneseLabels, forms.ModelForm):
    class Meta:
        model = ClubEdition
        fields = ["name", "base"]
        widgets = {"base": forms.RadioSelect}


class EditionNameForm(JapaneseLabels, forms.Form):
    """A new name for an edition (the edition and session pages)."""

    name = forms.CharField(
        label=_("Name of the edition"),
        max_length=100,
        error_messages={
            "required": _("Name of the edition: give it a name."),
            "max_length": _("Name of the edition: at most %(limit_value)d characters (it has %(show_value)d)."),
        },
    )


class SessionTitleForm(JapaneseLabels, forms.Form):
    """A new title for a session."""

    title = forms.CharField(
        label=_("Title of the session"),
        max_length=100,
        error_messages={
            "required": _("Title of the session: give it a title."),
            "max_length": _("Title of the session: at most %(limit_value)d characters (it has %(show_value)d)."),
        },
    )


class ConfirmForm(JapaneseLabels, forms.Form):
    """The confirmation page of a deletion was shown and its button pressed."""

    confirm = forms.ChoiceField(choices=[("yes", "yes")], widget=forms.HiddenInput)


class DeleteSessionForm(ConfirmForm):
    """What the confirmation page listed, to refuse if the session changed since."""

    hands = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    calls = forms.IntegerField(min_value=0, widget=forms.HiddenInput)


class ValuesForm(JapaneseLabels, forms.Form):
    """One input per efuda in play that the base edition leaves unknown ("n_<number>"),
    plus the source text. Values the sources give are not fields: they cannot be changed."""

    source = forms.CharField(
        label=_("Where the values come from"),
        max_length=200,
        help_text=_("For example: our club's Matsui Tengudô set, read from the efuda."),
    )

    def __init__(self, *args, edition, classes, **kwargs):
        super().__init__(*args, **kwargs)
        self.classes = sorted(classes, reverse=True) if classes is not None else None  # None: any value
        self.numbers = [s.number for s in edition.subjects if s.in_play and s.points is None]
        for number in self.numbers:
            self.fields[f"n_{number}"] = forms.IntegerField(
                label=_("no. %(number)s") % {"number": number},
                required=False,
                min_value=1,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "points", "data-number": number}),
            )
            # The table's row says the number: the input names it too, for screen readers (issue 27).
            self.fields[f"n_{number}"].widget.attrs["aria-label"] = _("Points of no. %(number)s") % {"number": number}

    def clean(self):
        data = super().clean()
        for number in self.numbers:
            value = data.get(f"n_{number}")
            if value is not None and self.classes is not None and value not in self.classes:
                self.add_error(
                    f"n_{number}",
                    _("no. %(number)s: %(value)s is not a point class of this edition (%(classes)s)")
                    % {"number": number, "value": value, "classes": ", ".join(map(str, self.classes))},
                )
        return data

    def values(self):
        return {n: self.cleaned_data.get(f"n_{n}") for n in self.numbers}

    def bound_inputs(self):
        return {n: self[f"n_{n}"] for n in self.numbers}


OPTION_HELP = {
    "hako_every": _("Every this-many-th call is hako and pays double. Usually 5."),
    "uncalled_at_end": _("The hand ends when this many yomifuda are left. Usually 10."),
    "nobori_fee": _("What each unfinished house pays into the nobori pool. Usually 20."),
    "remove_yomifuda_8_23": _(
        "D2: yomifuda 8 and 23 are removed like their efuda (60 yomifuda, 50 calls). No: 62 yomifuda, 52 calls, and a call of 8 or 23 pays nobody."
    ),
    "removed_call_counts_for_hako": _("D2: when 8 and 23 stay in the pile, their call counts toward hako."),
    "removed_call_consumes_eat": _("D2: when 8 and 23 stay in the pile, their call uses up a pending eat."),
    "payment_unit": _(
        "D3: who “each other player” is: every other house (a player's two houses net out) or every other player once."
    ),
    "exemption_timing": _("D4: a payer's row is judged complete before the call or after it."),
    "eaten_holder_pays": _("D5: when a call is eaten, the real holder pays the eater like any other house."),
    "eaten_exemption_row": _("D6: when a call is eaten, the row that decides the exemption."),
    "eat_survives_no2": _(
        "D7: an eat pending when no. 2 is read carries over to the next call (No: no. 2 uses it up)."
    ),
    "eaten_bakefuda_eats": _("D8: an eaten bakefuda still gives its holder the next eat (eats chain)."),
    "bakefuda_pays_holder": _("D9: a called bakefuda is paid its points like any efuda (it eats either way)."),
    "hako_doubles_eaten_call": _("D10: an eaten hako call pays the eater double."),
    "end_free_cards_pay_when_called": _(
        "D11: nos. 46 and 50 are paid when called (No: the variant of Takahashi's book, face down from the deal, never paid)."
    ),
    "end_free_turn": _("D12: how nos. 46 and 50 are turned free at the end of the hand."),
    "no_nobori": _("D13: what happens at the end when no house is nobori."),
    "fee_basis": _("D14: the end-of-hand fee is per house or per face-up efuda."),
    "hako_doubles_end_fee": _("D15: the nobori fee is doubled."),
    "bozu": _(
        "D16: the bozu rule of Takahashi's book: a house dealt ≥6 two-point, ≥6 one-point efuda or all 4 bakefuda never pays."
    ),
    "tk2_ruleset": _("D17: the other ruleset of Takahashi's book. Not implemented: leave it off."),
    "rows_chosen_by_player": _("D18: the players arrange their rows (No: dealt order). No effect on the ledger."),
}

OPTION_LABELS = {
    "hako_every": _("Hako every … calls"),
    "uncalled_at_end": _("Yomifuda left at the end"),
    "nobori_fee": _("Nobori fee"),
    "remove_yomifuda_8_23": _("Remove yomifuda 8 and 23 (D2)"),
    "removed_call_counts_for_hako": _("A call of 8 / 23 counts for hako (D2)"),
    "removed_call_consumes_eat": _("A call of 8 / 23 uses up an eat (D2)"),
    "payment_unit": _("Who pays (D3)"),
    "exemption_timing": _("Row exemption judged (D4)"),
    "eaten_holder_pays": _("The holder of an eaten card pays (D5)"),
    "eaten_exemption_row": _("Exempt row when eaten (D6)"),
    "eat_survives_no2": _("The eat carries over no. 2 (D7)"),
    "eaten_bakefuda_eats": _("An eaten bakefuda eats (D8)"),
    "bakefuda_pays_holder": _("A bakefuda is paid (D9)"),
    "hako_doubles_eaten_call": _("Hako doubles an eaten call (D10)"),
    "end_free_cards_pay_when_called": _("Nos. 46 / 50 pay when called (D11)"),
    "end_free_turn": _("Turning 46 / 50 at the end (D12)"),
    "no_nobori": _("No nobori house (D13)"),
    "fee_basis": _("Nobori fee basis (D14)"),
    "hako_doubles_end_fee": _("Nobori fee doubled (D15)"),
    "bozu": _("Bozu rule (D16)"),
    "tk2_ruleset": _("The other ruleset of Takahashi's book (D17)"),
    "rows_chosen_by_player": _("Players arrange their rows (D18)"),
}

ENUM_CHOICES = {
    "payment_unit": [("house", _("every other house (default)")), ("player", _("every other player once"))],
    "exemption_timing": [("before_call", _("before the call (default)")), ("after_call", _("after the call"))],
    "eaten_exemption_row": [
        ("called_card", _("the called card's row in its holder's house (default)")),
        ("bakefuda", _("the bakefuda's row in the eater's house")),
    ],
    "end_free_turn": [("automatic", _("automatically (default)")), ("choice", _("the holder chooses"))],
    "no_nobori": [
        ("no_payment", _("no payment (default)")),
        ("carry_pool", _("the pool goes to the next hand")),
        ("fewest_face_up", _("the house(s) with the fewest face-up efuda take it")),
    ],
    "fee_basis": [("per_house", _("per house (default)")), ("per_face_up_card", _("per face-up efuda"))],
}


class SessionForm(JapaneseLabels, forms.Form):
    """Title, edition, 3–6 players in seating order, and every option of ``Options``
    with its D-number (sanjo-dosai.md s.3.4), the defaults preselected."""

    title = forms.CharField(label=_("Title"), max_length=100)
    edition = forms.ModelChoiceField(label=_("Edition"), queryset=ClubEdition.objects.none())

    def __init__(self, *args, editions, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["edition"].queryset = editions
        for i in range(1, HOUSE_COUNT + 1):
            self.fields[f"player_{i}"] = forms.CharField(
                label=_("Player %(n)s") % {"n": i}, max_length=40, required=i <= MIN_PLAYERS
            )
        defaults = options_as_dict(Options())
        for name, default in defaults.items():
            label, help_text = OPTION_LABELS[name], OPTION_HELP[name]
            if name in ENUM_CHOICES:
                field = forms.ChoiceField(choices=ENUM_CHOICES[name], initial=default, widget=forms.RadioSelect)
            elif isinstance(default, bool):
                field = forms.TypedChoiceField(
                    choices=YES_NO, coerce=lambda v: v == "1", initial="1" if default else "0", widget=forms.RadioSelect
                )
            else:
                field = forms.IntegerField(min_value=1, max_value=60, initial=default)
                # its fieldset's legend names the group: the input is named too (issue 27)
                field.widget.attrs["aria-label"] = label
            field.label, field.help_text = label, help_text
            self.fields[f"opt_{name}"] = field

    def player_fields(self):
        return [self[f"player_{i}"] for i in range(1, HOUSE_COUNT + 1)]

    def option_fields(self):
        return [self[name] for name in self.fields if name.startswith("opt_")]

    def clean(self):
        data = super().clean()
        seats = [(i, (data.get(f"player_{i}") or "").strip()) for i in range(1, HOUSE_COUNT + 1)]
        names = [n for _i, n in seats if n]
        seen = set()
        for i, name in seats:
            if name and name in seen:  # the later seat with a name already given
                self.add_error(f"player_{i}", _("Give each player a different name."))
            seen.add(name)
        if data.get("opt_tk2_ruleset"):
            self.add_error(
                "opt_tk2_ruleset",
                _(
                    "The other ruleset of Takahashi's book (D17) is not implemented: this app keeps the ledger of the usual rules only."
                ),
            )
        if self.errors:
            return data
        try:
            data["options"] = services.options_from_form({k[4:]: v for k, v in data.items() if k.startswith("opt_")})
        except services.DosaiError as exc:
            self.add_error(None, exc.message)
        if "options" in data and data["options"].calls_per_hand < 1:
            self.add_error("opt_uncalled_at_end", _("Leave fewer yomifuda than there are in the pile."))
        data["players"] = names
        return data


class NewHandForm(JapaneseLabels, forms.Form):
    dealing = forms.ChoiceField(
        label=_("The houses"), choices=Hand.DEALS, initial=Hand.DEAL_APP, widget=forms.RadioSelect
    )
    reader = forms.ChoiceField(
        label=_("The reader"), choices=Hand.READERS, initial=Hand.READ_APP, widget=forms.RadioSelect
    )


_NUMBERS = re.compile(r"[\s,、，・]+")


class LayoutForm(JapaneseLabels, forms.Form):
    """Six houses as laid out on the table: per house its holder and the numbers of each row
    (head 1, upper/middle/lower 3, sanjo-dosai.md l.76), typed with spaces or commas between them."""

    reader = forms.ChoiceField(
        label=_("The reader"), choices=Hand.READERS, initial=Hand.READ_APP, widget=forms.RadioSelect
    )

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)
        row_labels = {"head": _("head"), "upper": _("upper row"), "middle": _("middle row"), "lower": _("lower row")}
        for h in range(1, HOUSE_COUNT + 1):
            self.fields[f"{h}_holder"] = forms.ChoiceField(
                label=_("house %(house)s: held by") % {"house": h}, choices=[("", "—")] + [(p, p) for p in self.players]
            )
            for row in ROWS:
                self.fields[f"{h}_{row}"] = forms.CharField(
                    label=_("house %(house)s, %(row)s") % {"house": h, "row": row_labels[row]},
                    max_length=40,
                    widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
                )

    def houses(self):
        return [
            {"house": h, "holder": self[f"{h}_holder"], "rows": [self[f"{h}_{row}"] for row in ROWS]}
            for h in range(1, HOUSE_COUNT + 1)
        ]

    def clean(self):
        data = super().clean()
        houses = []
        for h in range(1, HOUSE_COUNT + 1):
            house = {"name": str(h)}
            for row in ROWS:
                text = unicodedata.normalize("NFKC", data.get(f"{h}_{row}") or "").strip()  # full-width digits too
                parts = [p for p in _NUMBERS.split(text) if p]
                if not all(p.isascii() and p.isdigit() for p in parts):
                    if f"{h}_{row}" not in self.errors:
                        self.add_error(
                            f"{h}_{row}",
                            _("house %(house)s: type the efuda numbers with spaces between them") % {"house": h},
                        )
                    parts = []
                house[row] = [int(p) for p in parts]
            houses.append(house)
        if self.errors:
            return data
        holders = {str(h): data.get(f"{h}_holder") for h in range(1, HOUSE_COUNT + 1)}
        for key, message in services.check_layout(houses, holders, self.players):
            self.add_error(key or None, message)
        data["houses"], data["holders"] = houses, holders
        return data


class CallForm(JapaneseLabels, forms.Form):
    """One call: the count of calls the screen showed (against double submits) and, when a
    person reads, the number tapped."""

    expected = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    number = forms.IntegerField(min_value=1, max_value=62, required=False)
