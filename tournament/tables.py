"""django-tables2 tables for teams, games and standings.

Sorting is limited to database columns with the primary key as the last key, so pages
never show a row twice and a computed column never reaches ORDER BY (docs/rules/field-faults.md, 23).

django-tables2 does the whole table: columns, headers, sort links, the ordering of the data
and its pagination (:func:`configure`). The organiser pages show a page of rows by default
(a 500-game event costs what 50 games cost, bench/pages.py) and every row with ``?show=all``.
"""

import django_tables2 as tables
from django.core.paginator import EmptyPage, Paginator
from django.db.models import Case, F, Value, When
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext_lazy as _

from tournament import reports
from tournament.models import Match, Team

PAGED_TABLE_TEMPLATE = "includes/paged_table.html"
PER_PAGE = 50  # a desk's screen of games or teams; ``?show=all`` lists them all (printing, searching)
URL_SENTINEL = 987654321  # a game number no event has, replaced in a URL reversed once


def configure(request, table, *, per_page=PER_PAGE):
    """Order and page ``table`` from the request (django-tables2's ``RequestConfig`` and
    ``Table.paginate``): ``?sort=`` a column, ``?page=`` a page of ``per_page`` rows (a page
    number out of range shows the last page, anything else the first; the page size is not
    the request's to choose), ``?show=all`` every row on one page (a printed or searched full
    list). Returns the table."""
    tables.RequestConfig(request, paginate=False).configure(table)
    table.show_all = request.GET.get("show") == "all"  # the template offers the pages back
    if table.show_all:
        return table
    page = request.GET.get(table.prefixed_page_field, "1")
    try:
        table.paginate(page=max(1, int(page)) if page.isdigit() else 1, per_page=per_page)
    except EmptyPage:
        table.page = table.paginator.page(table.paginator.num_pages)
    return table


def coming_first(matches):
    """``matches`` (a queryset of games) in the desk's default order: the games still to be
    played or confirmed first, by start time and court, then the finished ones (a result, a
    walkover, void), by start time too. ``?sort=`` a column replaces it (``configure``)."""
    finished = Case(
        When(status__in=Match.Status.DONE, then=Value(1)),
        default=Value(0),
    )
    return matches.order_by(finished, F("start_at").asc(nulls_last=True), "court__order", "match_number")


class _Once:
    """``once(key, make)``: ``make()`` computed once per table (a translated word, a URL
    pattern) rather than once per row."""

    def once(self, key, make):
        kept = self.__dict__.setdefault("_once", {})
        if key not in kept:
            kept[key] = make()
        return kept[key]


class TeamTable(tables.Table):
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
        template_name = PAGED_TABLE_TEMPLATE

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


class MatchTable(_Once, tables.Table):
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
        # no default order_by: the view passes the games coming first (``coming_first``)
        attrs = {"class": "table schedule"}
        template_name = PAGED_TABLE_TEMPLATE
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

    def render_stage(self, record, value):
        """``value``: the stage's label (django-tables2 reads ``get_stage_display`` for a field with choices)."""
        stage = value
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
    special = tables.Column(verbose_name=_("won by 「り」 / rock-paper-scissors"))
    separated_by = tables.Column(verbose_name=_("placed by"))

    class Meta:
        orderable = False  # the order is the ranking itself
        template_name = PAGED_TABLE_TEMPLATE  # never paged: the row block only
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


GROUPS_PER_PAGE = 5  # the desk's screen of group tables and 星取表 (5 courts); ``?show=all`` shows every group


def standings_tables(event, division=None, *, page=None, per_page=GROUPS_PER_PAGE):
    """``([(Division, [(reports.GroupStandings, StandingsTable)])], Page or None)``: the read
    side's standings of every division (or one) with the HTML table of each group (each
    table's ``cross_html`` is the group's 星取表). ``page`` (a page number, a string from
    the query) shows ``per_page`` groups of them, in division and group order, and returns
    the ``Page`` of the groups too (an unknown number shows the first page, one beyond the
    last the last); ``page=None`` shows them all."""
    # The ranking of every group (cheap), the lines and 星取表 of the shown ones only
    # (``reports.group_standings`` for them).
    divisions = [division] if division is not None else list(event.divisions.all())
    found = [(d, reports.division_standings(d)) for d in divisions]
    shown, current = [(d, group) for d, groups in found for group in groups], None
    if page is not None:
        current = Paginator(shown, per_page).get_page(page)
        shown = list(current.object_list)
    result = {d.pk: (d, []) for d, _groups in found}
    for d, ranked in shown:
        group = reports.GroupStandings(
            ranked, reports.standing_lines(ranked), reports.cross_table(ranked), reports.tied_blocks(ranked)
        )
        table = standings_table(group.lines)
        table.cross_html = cross_html(group.cross)
        result[d.pk][1].append((group, table))
    # a division whose groups are all on other pages is left out; one without groups stays
    return [(d, tables) for d, tables in result.values() if tables or not _has_groups(d, found)], current


def _has_groups(division, found):
    return any(groups for d, groups in found if d.pk == division.pk)
