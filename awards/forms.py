"""The forms of the awards desk: the certificate settings and a prize added by hand.

Every refusal names its field (issue 19, item 3: margins that leave no text area, an unknown
placeholder …). Rules: ``docs/rules/awards.md``.
"""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from awards.models import AwardSettings
from awards.paper.certificates import room_problem
from awards.paper.sheet import edge_problems
from awards.text import PaperLayout, body_problem
from common.errors import UserError
from tournament.models import Player, ProgrammeSettings, Team

# Paper in mm (width, height) when portrait: A4 and JIS B5.
PAPER_MM = {"A4": (210, 297), "B5": (182, 257)}
# The smallest text area a certificate needs (mm): a few vertical columns and a name.
MIN_TEXT_W, MIN_TEXT_H = 60, 100
MAX_OFFSET = Decimal(30)
MAX_MARGIN = Decimal(150)  # a margin beyond half of A4's length leaves nothing: refused on its field
MARGINS = ("margin_top", "margin_right", "margin_bottom", "margin_left")


def paper_mm(size, orientation):
    """(width, height) in mm of the paper ``size`` ("A4", "B5") in ``orientation``."""
    w, h = PAPER_MM.get(size, PAPER_MM["A4"])
    return (h, w) if orientation == "landscape" else (w, h)


def issuer_example(event):
    """The example shown in the empty 授与者 field (issue 33): the programme's 主催 (or the
    event's name with 実行委員会) as the title, a made-up name after the bar. A placeholder,
    never a value: a made-up name must not reach a certificate."""
    organiser = ProgrammeSettings.objects.filter(event=event).values_list("organiser", flat=True).first()
    title = (organiser or "").strip().split("\n")[0].strip() or f"{event.name}実行委員会"
    return f"{title} 会長 | 日立 太郎"


class AwardSettingsForm(forms.ModelForm):
    class Meta:
        model = AwardSettings
        fields = [
            "paper_size",
            "orientation",
            "margin_top",
            "margin_right",
            "margin_bottom",
            "margin_left",
            "offset_x",
            "offset_y",
            "draw_frame",
            "per",
            "include_substitutes",
            "honorific",
            "title",
            "body",
            "kanji_numerals",
            "award_date",
            "issuers",
            "places_up_to",
            "individual_by",
            "individual_name",
            "ceremony_order",
        ]
        widgets = {
            "body": forms.Textarea(attrs={"rows": 3, "cols": 60}),
            "issuers": forms.Textarea(attrs={"rows": 3, "cols": 60}),
            "award_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["body"].help_text = _(
            "Placeholders: {edition}, {event}, {division}, {place}. "
            "A brace itself is written twice: {{ prints {, }} prints }."
        )
        self.fields["issuers"].widget.attrs["placeholder"] = issuer_example(self.instance.event)
        places = self.fields["places_up_to"]
        places.widget.attrs.update(min=1, max=16)

    def clean_body(self):
        body = self.cleaned_data["body"].strip()
        problem = body_problem(body)
        if problem == "brace":
            raise forms.ValidationError(
                _(
                    "A brace { or } without its pair: write {edition}, {event}, {division} or {place}; "
                    "a brace itself is written twice ({{ or }})."
                )
            )
        if problem == "empty":
            raise forms.ValidationError(
                _(
                    "Empty braces {}: write {edition}, {event}, {division} or {place} inside them; "
                    "a brace itself is written twice ({{ or }})."
                )
            )
        if problem is not None:
            raise forms.ValidationError(
                _("Unknown placeholder {%(name)s}: use {edition}, {event}, {division} or {place}.") % {"name": problem}
            )
        return body

    def clean_issuers(self):
        issuers = self.cleaned_data["issuers"]
        for number, line in enumerate(issuers.splitlines(), 1):
            if line.count("|") > 1:
                raise forms.ValidationError(_("Line %(n)s: one | between the title and the name.") % {"n": number})
        return issuers

    def clean_places_up_to(self):
        places = self.cleaned_data["places_up_to"]
        if not 1 <= places <= 16:
            raise forms.ValidationError(_("From 1 to 16."))
        return places

    def clean(self):
        data = super().clean()
        for name in MARGINS:
            value = data.get(name)
            if value is not None and value < 0:
                self.add_error(name, _("A margin cannot be negative."))
            elif value is not None and value > MAX_MARGIN:
                self.add_error(name, _("From 0 to %(mm)s mm.") % {"mm": MAX_MARGIN})
        for name in ("offset_x", "offset_y"):
            value = data.get(name)
            if value is not None and abs(value) > MAX_OFFSET:
                self.add_error(name, _("At most %(mm)s mm either way.") % {"mm": MAX_OFFSET})
        if any(data.get(name) is None for name in (*MARGINS, "offset_x", "offset_y")):
            return data
        width, height = paper_mm(data.get("paper_size"), data.get("orientation"))
        text_w = width - data["margin_left"] - data["margin_right"]
        text_h = height - data["margin_top"] - data["margin_bottom"]
        if text_w < MIN_TEXT_W:
            self.add_error(
                None,
                _(
                    "Left margin (%(left)s mm) and right margin (%(right)s mm) leave %(text)s mm of the "
                    "%(paper)s mm width: at least %(min)s mm are needed."
                )
                % {
                    "left": data["margin_left"],
                    "right": data["margin_right"],
                    "text": text_w,
                    "paper": width,
                    "min": MIN_TEXT_W,
                },
            )
        if text_h < MIN_TEXT_H:
            self.add_error(
                None,
                _(
                    "Top margin (%(top)s mm) and bottom margin (%(bottom)s mm) leave %(text)s mm of the "
                    "%(paper)s mm height: at least %(min)s mm are needed."
                )
                % {
                    "top": data["margin_top"],
                    "bottom": data["margin_bottom"],
                    "text": text_h,
                    "paper": height,
                    "min": MIN_TEXT_H,
                },
            )
        if not self.errors:
            self._check_room(data)
        return data

    def _check_room(self, data):
        """Refuse margins + offset that put the text or the drawn frame closer than 5 mm to the
        paper's edge (``awards.paper.sheet.edge_problems``), then margins that leave too little
        room for the reference certificate (``awards.paper.certificates.room_problem``), naming
        them (issue 19 fixes; docs/rules/awards.md)."""
        paper = PaperLayout(
            size=data.get("paper_size") or "A4",
            orientation=data.get("orientation") or "portrait",
            margin_top_mm=float(data["margin_top"]),
            margin_right_mm=float(data["margin_right"]),
            margin_bottom_mm=float(data["margin_bottom"]),
            margin_left_mm=float(data["margin_left"]),
            offset_x_mm=float(data["offset_x"]),
            offset_y_mm=float(data["offset_y"]),
            draw_frame=bool(data.get("draw_frame")),
        )
        for problem in edge_problems(paper):
            self.add_error(None, problem)
        if self.errors:
            return
        try:
            problem = room_problem(paper)
        except UserError as refused:
            problem = refused.message
        if problem:
            self.add_error(None, problem)


class HandPrizeForm(forms.Form):
    """A prize added by hand: its name, the team, optionally one player of that team."""

    name = forms.CharField(
        label=gettext_lazy("Prize"), max_length=20, help_text=gettext_lazy("e.g. 「敢闘賞」, 「特別賞」.")
    )
    team = forms.TypedChoiceField(label=gettext_lazy("Team"), coerce=int)
    player = forms.TypedChoiceField(
        label=gettext_lazy("Player (empty: the team)"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, event, *args, **kwargs):
        super().__init__(*args, **kwargs)
        teams = (
            Team.objects.filter(division__event=event)
            .select_related("division")
            .order_by("division__order", "division_id", "entry_number", "pk")
        )
        self.fields["team"].choices = [("", "—")] + [(t.pk, f"{t.division.name} ・ {t.name}") for t in teams]
        players = (
            Player.objects.filter(team__division__event=event)
            .select_related("team")
            .order_by("team__division__order", "team__entry_number", "order", "pk")
        )
        self.fields["player"].choices = [("", "—")] + [(p.pk, f"{p.team.name} ・ {p.name}") for p in players]
        self.event = event

    def clean(self):
        data = super().clean()
        team_id, player_id = data.get("team"), data.get("player")
        if team_id is None:
            return data
        data["team_obj"] = Team.objects.select_related("division").get(pk=team_id)
        data["player_obj"] = None
        if player_id is not None:
            player = Player.objects.get(pk=player_id)
            if player.team_id != team_id:
                self.add_error("player", _("%(player)s is not a member of this team.") % {"player": player.name})
            data["player_obj"] = player
        return data
