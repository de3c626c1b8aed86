"""django-tables2 tables for teams, games and standings.

Sorting is limited to database columns with the primary key as the last key, so pages
never show a row twice and a computed column never reaches ORDER BY (docs/rules/field-faults.md, 23).

django-tables2 keeps what it earns: the columns, their headers, the sort links and the
ordering of the data. The body rows are written by :class:`PlainRows` in Python, the same
HTML as django-tables2's row template (tests/tournament/test_tables_html.py) without its
per-cell template and signature work: 500 games cost about a tenth (bench/pages.py,
issue 17 item 3).
"""

import functools
import inspect

import django_tables2 as tables
from django.core.exceptions import FieldDoesNotExist
from django.urls import reverse
from django.utils import timezone
from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext_lazy as _
from django_tables2.utils import AttributeDict

from tournament import reports
from tournament.models import Match, Team

PLAIN_ROWS_TEMPLATE = "includes/plain_rows_table.html"
PLAIN_TABLE_TEMPLATE = "includes/plain_table.html"
URL_SENTINEL = 987654321  # a game number no event has, replaced in a URL reversed once


class PlainRows:
    """A django-tables2 table whose body rows are rendered here, not by its row template
    (``Meta.template_name = PLAIN_ROWS_TEMPLATE`` in each table).

    In: the table as configured (``RequestConfig``: order, no pagination). Out:
    :meth:`body_html`, the ``<tr>`` rows exactly as django-tables2's ``table.html`` writes
    them (a ``render_<column>`` method called with the arguments it names, the column's
    default for an empty value, ``get_<field>_display`` for a field with choices, row classes
    with even/odd), escaped the same way. Pagination and callable cell attributes are not
    supported (none of these tables uses them)."""

    def body_html(self):
        columns = [self._plain_column(column) for column in self.columns]
        rows = []
        for counter, record in enumerate(self.data):
            classes = " ".join(c for c in (self._plain_row_class(record), "odd" if counter % 2 else "even") if c)
            cells = "".join(
                f"<td {attrs}>{conditional_escape(self._plain_cell(record, column))}</td>" for column, attrs in columns
            )
            rows.append(f'<tr class="{classes}">{cells}</tr>')
        if not rows and self.empty_text:
            rows.append(f'<tr><td colspan="{len(columns)}">{conditional_escape(self.empty_text)}</td></tr>')
        return mark_safe("\n".join(rows))

    def plain_html(self):
        """The whole table as django-tables2's ``table.html`` writes it, for a table without
        sorting, footer or pagination (``Meta.template_name = PLAIN_TABLE_TEMPLATE``)."""
        heads = "".join(
            f"<th {column.attrs['th'].as_html()}>{conditional_escape(column.header)}</th>" for column in self.columns
        )
        thead = self.attrs.get("thead")
        return mark_safe(
            f'<div class="table-container"><table {AttributeDict(self.attrs).as_html()}>'
            f"<thead {thead.as_html() if thead else ''}><tr>{heads}</tr></thead>"
            f"<tbody {self._tbody_attrs()}>{self.body_html()}</tbody></table></div>"
        )

    def _tbody_attrs(self):
        tbody = self.attrs.get("tbody")
        return tbody.as_html() if tbody else ""

    def _plain_row_class(self, record):
        value = self.row_attrs.get("class", "")
        return value(record) if callable(value) else value

    def _plain_column(self, bound_column):
        """(column facts, the ``<td>`` attributes as HTML) of a column."""
        method = getattr(self, f"render_{bound_column.name}", None)
        wants = set(inspect.signature(method).parameters) if method else set()
        return (bound_column, method, wants), bound_column.attrs["td"].as_html()

    def _plain_cell(self, record, column):
        bound_column, method, wants = column
        name = bound_column.accessor
        if isinstance(record, dict):
            value = record.get(name)
        elif "." in name or "__" in name:
            value = tables.A(name).resolve(record, quiet=True)
        else:
            value = getattr(record, name, None)
            if _choices_field(type(record), name) is not None:
                value = self.display(record, name)
        if value in bound_column.column.empty_values:
            return bound_column.default
        if method is None:
            return value
        arguments = {"record": record, "value": value}
        return method(**{k: v for k, v in arguments.items() if k in wants})

    def display(self, record, name):
        """``record.get_<name>_display()`` (the label of a field with choices), each label
        translated once per table rather than once per row."""
        labels = self.__dict__.setdefault("_plain_labels", {})
        if name not in labels:
            field = _choices_field(type(record), name)
            labels[name] = {key: str(label) for key, label in field.flatchoices}
        value = getattr(record, name)
        return labels[name].get(value, value)

    def once(self, key, make):
        """``make()`` computed once per table (a translated word, a URL pattern)."""
        kept = self.__dict__.setdefault("_plain_once", {})
        if key not in kept:
            kept[key] = make()
        return kept[key]


@functools.lru_cache(maxsize=256)
def _choices_field(model, name):
    """The model field ``name`` of ``model`` when it has choices (shown by its label), else None."""
    try:
        field = model._meta.get_field(name)
    except (AttributeError, FieldDoesNotExist):
        return None
    return field if getattr(field, "choices", None) else None


class TeamTable(PlainRows, tables.Table):
    entry_number = tables.Column(verbose_name=_("No."))
    name = tables.Column(verbose_name=_("team name"), order_by=("name_key", "pk"))
    affiliation = tables.Column(verbose_name=_("affiliation"), order_by=("affiliation", "pk"))
    chaperone = tables.Column(verbose_name=_("chaperone"), order_by=("chaperone", "pk"))
    division = tables.Column(
        verbose_name=_("division"), order_by=("division__order", "division__pk", "entry_number", "pk")
    )
    group = tables.Column(verbose_name=_("group"), order_by=("group__order", "group_seat", "pk"), empty_values=())
    players = tables.Column(verbose_name=_("players (◎ leader)"), empty_values=(), orderable=False)
    edit = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        model = Team
        fields = ("entry_number", "name", "affiliation", "chaperone", "division", "group", "players")
        order_by = ("division",)
        attrs = {"class": "table"}
        template_name = PLAIN_ROWS_TEMPLATE

    def __init__(self, *args, csrf_token="", absent=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.csrf_token = csrf_token
        # Players a club reported absent on the day (club_entry, issue 20 item 4): ids.
        self.absent = set(absent)

    def render_group(self, record):
        return record.group.name if record.group else "—"

    def render_name(self, record, value):
        """The name, and where a team of a series' final qualified (「北部地区予選 1位」: the
        ``qualification`` the results import writes, docs/exchange.md), loaded with the team."""
        qualification = getattr(record, "qualification", None)
        if qualification is None:
            return value
        return format_html('{}<br><span class="muted small">{}</span>', value, qualification.label)

    def render_players(self, record):
        absent = format_html('<strong class="warning">{}</strong>', _("(absent)"))
        return format_html_join(
            "、",
            "{}{}{}{}",
            (
                (
                    "◎" if p.is_leader else "",
                    p.name,
                    pgettext("substitute mark", "(sub.)") if p.is_substitute else "",
                    absent if p.pk in self.absent else "",
                )
                for p in record.players.all()
            ),
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


class MatchTable(PlainRows, tables.Table):
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
        template_name = PLAIN_ROWS_TEMPLATE
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
        stage = self.display(record, "stage")
        if record.stage == Match.Stage.GROUP:
            return format_html("{} {}", stage, record.group.name if record.group else "")
        slots = self.slots.get(record.pk)
        if slots is not None and slots.out_of_date:
            return format_html('{}<br><span class="out-of-date-note">⚠ {}</span>', stage, slots.out_of_date_text)
        return stage

    def _team(self, record, side):
        team = record.team_a if side == "A" else record.team_b
        slots = self.slots.get(record.pk)
        slot = (slots.a if side == "A" else slots.b) if slots else None
        if team is None:
            if slot is not None and slot.label:
                return format_html('<span class="tbd slot">{}</span>', slot.label)
            return format_html('<span class="tbd">{}</span>', self.once("tbd", lambda: str(_("to be decided"))))
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
            text = (
                self.once("walkover", lambda: str(_("walkover")))
                if sheet.is_walkover
                else f"{sheet.cards_a} - {sheet.cards_b}"
            )
            if sheet.decided_by in ("joker", "rps"):
                # 「28 - 28（り）」, "28 - 28 (joker)" (docs/glossary.md, display terms)
                mark = _("(joker)") if sheet.decided_by == "joker" else _("(rock-paper-scissors)")
                text += ("" if (get_language() or "ja").startswith("ja") else " ") + str(mark)
        if sheet is not None and reports.is_annulled(record):
            return format_html('<s class="annulled">{}</s> {}', text, _("annulled"))
        if self.entry_url_name and record.teams_known:
            # one reverse() per table: the game's number replaces the sentinel's
            url = self.once("url", lambda: reverse(self.entry_url_name, args=[self.event.slug, URL_SENTINEL]))
            words = self.once(
                "words", lambda: {"done": str(_("Correct")), "waiting": str(_("Check")), "new": str(_("Enter"))}
            )
            state = "done" if record.has_result else "waiting" if record.status in ("submitted", "disputed") else "new"
            return format_html(
                '{} <a class="button small" href="{}">{}</a>',
                text,
                url.replace(f"/{URL_SENTINEL}/", f"/{record.match_number}/"),
                words[state],
            )
        return text


class StandingsTable(PlainRows, tables.Table):
    rank = tables.Column(verbose_name=_("rank"))
    team = tables.Column(verbose_name=_("team"))
    affiliation = tables.Column(verbose_name=_("affiliation"))
    played = tables.Column(verbose_name=_("played"))
    wins = tables.Column(verbose_name=_("won"))
    losses = tables.Column(verbose_name=_("lost"))
    cards_taken = tables.Column(verbose_name=_("cards taken"))
    cards_conceded = tables.Column(verbose_name=_("cards conceded"))
    card_diff = tables.Column(verbose_name=_("card difference"))
    special = tables.Column(verbose_name=_("won by 「り」 / rock-paper-scissors"))
    separated_by = tables.Column(verbose_name=_("placed by"))

    class Meta:
        orderable = False  # the order is the ranking itself
        attrs = {"class": "table standings"}
        template_name = PLAIN_TABLE_TEMPLATE
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


def cross_html(cross):
    """The 星取表 (``reports.CrossTable``) as an HTML table, written here rather than by a
    template loop per cell (a division of 50 groups of five has 1,250 cells)."""
    heads = "".join(format_html("<th>{}</th>", team.name) for team in cross.teams)
    rows = []
    for team, cells in cross.grid:
        tds = "".join(_cross_cell(c) for c in cells)
        rows.append(format_html("<tr><th>{}</th>\n{}\n</tr>", team.name, mark_safe(tds)))
    return mark_safe(
        '<div class="scroll-x"><table class="table cross">\n'
        f"<tr><th></th>{heads}</tr>\n" + "".join(rows) + "\n</table></div>"
    )


def _cross_cell(cell):
    if cell.is_self:
        return '<td class="self"></td>'
    if not cell.played:
        return "<td></td>"
    mark = format_html(" <small>{}</small>", cell.mark) if cell.mark else ""
    return format_html(
        '<td class="{}">{} {}{}</td>', "win" if cell.won else "loss", "○" if cell.won else "●", cell.score, mark
    )


def standings_tables(event, division=None):
    """``[(Division, [(reports.GroupStandings, StandingsTable)])]``: the read side's
    standings of every division (or one) with the HTML table of each group; each table's
    ``cross_html`` is the group's 星取表."""
    result = []
    for d, groups in reports.event_standings(event, division):
        tables_of_groups = []
        for group in groups:
            table = standings_table(group.lines)
            table.cross_html = cross_html(group.cross)
            tables_of_groups.append((group, table))
        result.append((d, tables_of_groups))
    return result
