"""django-tables2 tables for teams, games and standings.

Sorting is limited to database columns with the primary key as the last key, so pages
never show a row twice and a computed column never reaches ORDER BY (docs/rules/field-faults.md, 23).
"""

import django_tables2 as tables
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from tournament import reports
from tournament.models import Match, Team


class TeamTable(tables.Table):
    entry_number = tables.Column(verbose_name=_("No."))
    name = tables.Column(verbose_name=_("team name"), order_by=("name_key", "pk"))
    affiliation = tables.Column(verbose_name=_("affiliation"), order_by=("affiliation", "pk"))
    chaperone = tables.Column(verbose_name=_("chaperone (引率者)"), order_by=("chaperone", "pk"))
    division = tables.Column(
        verbose_name=_("division"), order_by=("division__order", "division__pk", "entry_number", "pk")
    )
    group = tables.Column(verbose_name=_("group"), order_by=("group__order", "group_seat", "pk"), empty_values=())
    players = tables.Column(verbose_name=_("players (◎ leader, 補 substitute)"), empty_values=(), orderable=False)
    edit = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        model = Team
        fields = ("entry_number", "name", "affiliation", "chaperone", "division", "group", "players")
        order_by = ("division",)
        attrs = {"class": "table"}

    def __init__(self, *args, csrf_token="", **kwargs):
        super().__init__(*args, **kwargs)
        self.csrf_token = csrf_token

    def render_group(self, record):
        return record.group.name if record.group else "—"

    def render_players(self, record):
        return format_html_join(
            "、",
            "{}{}{}",
            (("◎" if p.is_leader else "", p.name, "（補）" if p.is_substitute else "") for p in record.players.all()),
        )

    def render_edit(self, record):
        slug = record.division.event.slug
        url = reverse("tournament:team_edit", args=[slug, record.pk])
        if record.withdrawn:
            return format_html(
                '<a class="button small secondary" href="{}">{}</a> <strong>{}</strong>', url, _("Edit"), _("withdrawn")
            )
        withdraw = reverse("tournament:team_withdraw", args=[slug, record.pk])
        return format_html(
            '<a class="button small" href="{}">{}</a> <a class="button small secondary" href="{}">{}…</a>',
            url,
            _("Edit"),
            withdraw,
            _("Withdraw"),
        )


class MatchTable(tables.Table):
    match_number = tables.Column(verbose_name=_("No."), order_by=("match_number",))
    # A plain column: DateTimeColumn compiles a template for every cell (300 games: 0.1 s).
    start_at = tables.Column(verbose_name=_("start"), order_by=("start_at", "court__order", "match_number"))
    court = tables.Column(verbose_name=_("court"), order_by=("court__order", "slot", "match_number"))
    division = tables.Column(verbose_name=_("division"), order_by=("division__order", "match_number"))
    stage = tables.Column(verbose_name=_("stage"), empty_values=(), order_by=("stage", "match_number"))
    team_a = tables.Column(verbose_name=_("team A"), empty_values=(), orderable=False)
    score = tables.Column(verbose_name=_("result"), empty_values=(), orderable=False)
    team_b = tables.Column(verbose_name=_("team B"), empty_values=(), orderable=False)
    status = tables.Column(verbose_name=_("status"), order_by=("status", "match_number"))

    class Meta:
        model = Match
        fields = ("match_number", "start_at", "court", "division", "stage", "team_a", "score", "team_b", "status")
        order_by = ("match_number",)
        attrs = {"class": "table schedule"}
        row_attrs = {
            "class": lambda record: "annulled" if reports.is_annulled(record) else "done" if record.has_result else ""
        }

    def __init__(self, *args, entry_url_name=None, event=None, slots=None, **kwargs):
        """``slots``: match pk -> ``reports.GameSlots`` (``reports.event_slots``), or a function
        of no argument returning it (called once, when a row is first shown): a knockout or
        placement side without a team shows its slot's label, an out-of-date game its mark."""
        super().__init__(*args, **kwargs)
        self.entry_url_name = entry_url_name
        self.event = event
        self._slots = slots

    @property
    def slots(self):
        if callable(self._slots):
            self._slots = self._slots()
        return self._slots or {}

    def render_start_at(self, value):
        return timezone.localtime(value).strftime("%H:%M")

    def render_court(self, record):
        return record.court.name if record.court else "—"

    def render_stage(self, record):
        if record.stage == Match.Stage.GROUP:
            return format_html("{} {}", record.get_stage_display(), record.group.name if record.group else "")
        slots = self.slots.get(record.pk)
        if slots is not None and slots.out_of_date:
            return format_html(
                '{}<br><span class="out-of-date-note">⚠ {}</span>', record.get_stage_display(), slots.out_of_date_text
            )
        return record.get_stage_display()

    def _team(self, record, side):
        team = record.team_a if side == "A" else record.team_b
        slots = self.slots.get(record.pk)
        slot = (slots.a if side == "A" else slots.b) if slots else None
        if team is None:
            if slot is not None and slot.label:
                return format_html('<span class="tbd slot">{}</span>', slot.label)
            return format_html('<span class="tbd">{}</span>', _("to be decided"))
        won = record.winner_id == team.pk
        mark = mark_safe(' <span class="slot-changed">⚠</span>') if slot is not None and slot.changed else ""
        return format_html('<span class="{}">{}</span>{}', "winner" if won else "", team.name, mark)

    def render_team_a(self, record):
        return self._team(record, "A")

    def render_team_b(self, record):
        return self._team(record, "B")

    def render_status(self, record):
        """The status in words (``reports.status_text``: annulled by a withdrawal, started, …)."""
        return reports.status_text(record)

    def render_score(self, record):
        sheets = getattr(record, "confirmed_sheets", None)
        sheet = sheets[0] if sheets else None
        text = "—"
        if sheet is not None:
            text = _("walkover") if sheet.is_walkover else f"{sheet.cards_a} - {sheet.cards_b}"
            if sheet.decided_by in ("joker", "rps"):
                text += " (" + ("り" if sheet.decided_by == "joker" else "じゃんけん") + ")"
        if sheet is not None and reports.is_annulled(record):
            return format_html('<s class="annulled">{}</s> {}', text, _("annulled"))
        if self.entry_url_name and record.teams_known:
            url = reverse(self.entry_url_name, args=[self.event.slug, record.match_number])
            label = (
                _("Correct")
                if record.has_result
                else _("Check")
                if record.status in ("submitted", "disputed")
                else _("Enter")
            )
            return format_html('{} <a class="button small" href="{}">{}</a>', text, url, label)
        return text


class StandingsTable(tables.Table):
    rank = tables.Column(verbose_name=_("rank"))
    team = tables.Column(verbose_name=_("team"))
    affiliation = tables.Column(verbose_name=_("affiliation"))
    played = tables.Column(verbose_name=_("played"))
    wins = tables.Column(verbose_name=_("won"))
    losses = tables.Column(verbose_name=_("lost"))
    cards_taken = tables.Column(verbose_name=_("cards taken"))
    cards_conceded = tables.Column(verbose_name=_("cards conceded"))
    card_diff = tables.Column(verbose_name=_("card difference"))
    special = tables.Column(verbose_name=_("won by り / じゃんけん"))
    separated_by = tables.Column(verbose_name=_("placed by"))

    class Meta:
        orderable = False  # the order is the ranking itself
        attrs = {"class": "table standings"}
        row_attrs = {"class": lambda record: record["row_class"]}


def _row_class(line):
    if line.annulled:
        return "withdrawn annulled"
    if line.withdrawn:
        return "withdrawn"
    return "provisional" if line.provisional else ""


def _team_cell(line):
    """The team's name, with 棄権 for a withdrawn team and the games it has left while provisional."""
    if line.withdrawn:
        return format_html('{} <span class="mark withdrawn-mark">{}</span>', line.team.name, line.mark)
    if line.provisional and line.games_left:
        left = _("%(count)s left") % {"count": line.games_left}
        return format_html('{} <span class="muted small pending">{}</span>', line.team.name, left)
    return line.team.name


def _figures(line):
    """The figure columns of a line; "—" for a withdrawn team whose games are annulled."""
    if line.annulled:
        return dict.fromkeys(("played", "wins", "losses", "cards_taken", "cards_conceded", "card_diff", "special"), "—")
    return {
        "played": line.played,
        "wins": line.wins,
        "losses": line.losses,
        "cards_taken": line.cards_taken,
        "cards_conceded": line.cards_conceded,
        "card_diff": f"{line.card_diff:+d}",
        "special": f"{line.joker_wins} / {line.rps_wins}",
    }


def standings_table(lines):
    """The HTML standings table of a group from its ``reports.StandingLine`` rows: a
    withdrawn team marked 棄権 (greyed when its games are annulled), provisional rows
    marked with the games they have left."""
    return StandingsTable(
        [
            {
                "rank": line.rank_text,
                "team": _team_cell(line),
                "affiliation": line.team.affiliation,
                **_figures(line),
                "separated_by": line.decided_by_text,
                "row_class": _row_class(line),
            }
            for line in lines
        ]
    )


def standings_tables(event, division=None):
    """``[(Division, [(reports.GroupStandings, StandingsTable)])]``: the read side's
    standings of every division (or one) with the HTML table of each group."""
    return [
        (d, [(group, standings_table(group.lines)) for group in groups])
        for d, groups in reports.event_standings(event, division)
    ]
