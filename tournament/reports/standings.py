"""Group standings: computed from confirmed group-stage recording sheets, and shaped once
for every medium (the organiser's and public pages, Excel, the 順位表 PDF, the JSON API).

Nothing here writes. Standings are computed every time (they are never stored); how they
are shown ("1=" for a shared rank, the deciding criterion, the 星取表 marks) is described
in ``docs/rules/standings-display.md``."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from common.errors import UserError
from judging.models import RecordingSheet
from tournament.engine import seeding, standings
from tournament.models import CRITERION_LABELS, Group, Match, RunnerUpLot, Team, TieBreak

# The marks of the 星取表 for a game not decided on cards: by 「り」, by じゃんけん, walkover
# ("り", "じ", "不" in Japanese; the card's name 「り」, "RPS", "W/O" in English), read in the
# active language.
DECIDED_MARKS = {
    "joker": pgettext_lazy("cross table mark", "り"),
    "rps": pgettext_lazy("cross table mark", "RPS"),
    "walkover": pgettext_lazy("cross table mark", "W/O"),
}


@dataclass
class RankedGroup:
    """One group's standings. ``rows`` rank the teams that count (a withdrawn team whose
    games are annulled is not among them: it is in ``annulled``, shown at the bottom).
    ``complete``: every playable game has a confirmed result. ``games_left``: team id ->
    its games still without one. ``settled``: ids of the tied teams whose tie no
    remaining game can change (``standings.settled_ties``): only they need a lot.
    ``pending``: the pairs (both ways) whose game has a result entered that still waits for
    the recorder's check (submitted or disputed): the 星取表 marks them."""

    group: Group
    rows: list  # standings.StandingRow with .team_obj attached
    teams: dict  # id -> Team
    cells: dict  # (row team id, column team id) -> (won: bool, cards_for, cards_against, mark)
    complete: bool
    games_left: dict = field(default_factory=dict)
    settled: set = field(default_factory=set)
    annulled: list = field(default_factory=list)  # withdrawn Teams whose games are annulled
    pending: set = field(default_factory=set)  # (row team id, column team id): a result waits for the recorder

    @property
    def provisional(self):
        """Whether the order may still change (暫定): a playable game has no confirmed result."""
        return not self.complete


def _group_results(matches, sheets_by_match, excluded):
    results = []
    for m in matches:
        sheet = sheets_by_match.get(m.pk)
        if sheet is None or m.team_a_id in excluded or m.team_b_id in excluded:
            continue
        winner = m.team_a_id if sheet.winner_side == "A" else m.team_b_id
        results.append(
            standings.MatchResult(
                team_a=m.team_a_id,
                team_b=m.team_b_id,
                cards_a=sheet.cards_a,
                cards_b=sheet.cards_b,
                winner=winner,
                walkover=sheet.is_walkover,
                decided_by=sheet.decided_by,
            )
        )
    return results


MATCH_FIELDS = ("pk", "group_id", "team_a_id", "team_b_id", "status")  # what division_standings reads
SHEET_FIELDS = ("pk", "match_id", "winner_side", "cards_a", "cards_b", "is_walkover", "decided_by")


def division_standings(division, *, instead=None, groups=None):
    """The standings of every group of a division, from confirmed group-stage sheets only;
    with ``groups`` (``Group``s of the division), of those groups only: a group's standings
    read its own teams, games, sheets and lots alone (the team page reads one group, a page
    of the public standings a few).

    ``instead`` (a recording sheet of one group game, saved or not) stands in for that game's
    confirmed sheet: what the standings would be if it were confirmed (the warning before a
    correction is confirmed, ``tournament.reports.stages.changes_if_confirmed``).

    Knockout games never count. A withdrawn team's games follow the division's
    setting: annulled (the team leaves the ranking and is listed in the table's
    ``annulled``, shown at the bottom marked 棄権), or kept with its unplayed games
    scored as walkovers (it stays in the table, marked 棄権, but never qualifies); a team
    that withdrew once its group was complete always keeps its results (docs/rules/stages.md,
    "Withdrawals"). A tie needs a lot only when no remaining game can change it (``settled``;
    ``docs/rules/standings-display.md``, "Provisional standings"). Lots and play-offs
    recorded by the organiser settle ties through the LOT criterion. Returns a list of
    ``RankedGroup`` in group order, in a fixed number of queries whatever the size of
    the division.
    """
    teams = Team.objects.filter(division=division, group__isnull=False)
    # Games and sheets as rows of the fields read here (named tuples): building them as models
    # was two thirds of this function for 500 games, and a whole model more (cProfile; issue
    # 31 item 1). ``instead``, a model, has the same attribute names.
    matches = Match.objects.filter(division=division).group_stage().not_void()
    sheets = RecordingSheet.objects.filter(match__division=division).group_stage().confirmed().not_void()
    tie_breaks = TieBreak.objects.filter(group__division=division)
    shown = division.groups.select_related("court")
    chosen = None if groups is None else {g.pk for g in groups}
    if chosen is not None:
        shown, teams, matches = (
            shown.filter(pk__in=chosen),
            teams.filter(group__in=chosen),
            matches.filter(group__in=chosen),
        )
        sheets, tie_breaks = sheets.filter(match__group__in=chosen), tie_breaks.filter(group__in=chosen)
    groups, teams = list(shown), list(teams)
    matches = list(matches.values_list(*MATCH_FIELDS, named=True))
    sheets = {s.match_id: s for s in sheets.values_list(*SHEET_FIELDS, named=True)}
    if instead is not None and (chosen is None or instead.match.group_id in chosen):
        sheets[instead.match_id] = instead
    lots = defaultdict(dict)
    methods = {}
    for tie_break in tie_breaks:
        lots[tie_break.group_id][tie_break.team_id] = tie_break.position
        methods[tie_break.team_id] = tie_break.method
    annul = division.withdrawal == "annul"
    # A team that withdrew once its group was complete keeps its results (docs/rules/stages.md).
    excluded = {t.pk for t in teams if t.withdrawn and annul and not t.withdrawn_after_groups}
    # Under "walkovers", a team that withdrew before finishing its games stays in the table but
    # is left out of the head-to-head of the teams it is level with (scheduling-standings-
    # seeding.md, section 3.9); under "annul" it has left the table already.
    unfinished = {t.pk for t in teams if t.withdrawn and not t.withdrawn_after_groups and t.pk not in excluded}
    # Teams and games by group once: a scan of every team and game per group cost 50 groups
    # of a 250-team division 50,000 comparisons a call (cProfile; issue 31 item 1).
    teams_of, matches_of = defaultdict(list), defaultdict(list)
    for t in teams:
        teams_of[t.group_id].append(t)
    for m in matches:
        matches_of[m.group_id].append(m)
    tables = []
    for group in groups:
        members = {t.pk: t for t in teams_of[group.pk] if t.pk not in excluded}
        group_matches = matches_of[group.pk]
        results = _group_results(group_matches, sheets, excluded)
        rows = standings.rank_group(
            list(members),
            results,
            criteria=division.criteria,
            lots=lots[group.pk] or None,
            walkover_cards=division.walkover_cards,
            unfinished=unfinished,
        )
        for row in rows:
            row.lot_method = methods.get(row.team, "") if row.settled_by_lot else ""
        cells = {}
        for r in results:
            mark = "" if r.decided_by == "cards" else DECIDED_MARKS.get(r.decided_by, "")
            cells[(r.team_a, r.team_b)] = (r.winner == r.team_a, r.cards_a, r.cards_b, mark)
            cells[(r.team_b, r.team_a)] = (r.winner == r.team_b, r.cards_b, r.cards_a, mark)
        playable = [m for m in group_matches if m.team_a_id not in excluded and m.team_b_id not in excluded]
        complete = bool(playable) and all(m.pk in sheets for m in playable)
        games_left = _games_left(playable, sheets)
        # A group without any game yet proves nothing: every tie is provisional.
        settled = standings.settled_ties(rows, games_left, division.criteria) if playable else set()
        annulled = [t for t in teams_of[group.pk] if t.pk in excluded]
        pending = {
            pair
            for m in playable
            if m.pk not in sheets and m.status in Match.Status.WAITING
            for pair in ((m.team_a_id, m.team_b_id), (m.team_b_id, m.team_a_id))
        }
        tables.append(
            RankedGroup(
                group, rows, members, cells, complete, games_left, settled, sorted(annulled, key=_by_name), pending
            )
        )
    return tables


def _by_name(team):
    return (team.name_key, team.pk)


def _games_left(playable, sheets):
    """Team id -> number of its playable group games without a confirmed result."""
    left = defaultdict(int)
    for m in playable:
        if m.pk not in sheets:
            left[m.team_a_id] += 1
            left[m.team_b_id] += 1
    return dict(left)


class RunnerUpTie(UserError):
    """The best runners-up places end inside a block of runners-up of different groups who
    are equal on every criterion; ``teams`` (ids) are that block, to be settled by a lot."""

    def __init__(self, message, teams):
        super().__init__(message)
        self.teams = list(teams)


def qualifiers(division, tables):
    """The teams going through, in seed order: each group's top places, then the best runners-up.

    A withdrawn team never qualifies: the next team of its group takes its place. A tie
    at a qualifying place must be settled by a lot or play-off first.
    """
    quota = division.qualifiers_per_group
    by_place = defaultdict(list)
    runners_up = []
    for index, table in enumerate(tables):
        if not table.complete:
            raise UserError(
                _("%(group)s of %(division)s has games without a result.")
                % {"group": table.group, "division": division}
            )
        eligible = [row for row in table.rows if not table.teams[row.team].withdrawn]
        wanted = quota + (1 if division.best_runners_up else 0)
        for place, row in enumerate(eligible[:wanted], start=1):
            if row.tied:
                raise UserError(
                    _("Place %(rank)s of %(group)s is tied; record a lot or play-off before seeding.")
                    % {"rank": row.rank, "group": table.group}
                )
            if place <= quota:
                by_place[place].append((index, row))
            else:
                runners_up.append((index, row))
    qualifiers = []
    for place in sorted(by_place):
        ordered = standings.compare_across_groups([row for _, row in by_place[place]])
        group_of = {row.team: index for index, row in by_place[place]}
        qualifiers += [seeding.Qualifier(team=row.team, group=group_of[row.team], place=place) for row in ordered]
    if division.best_runners_up:
        lots = dict(RunnerUpLot.objects.filter(division=division).values_list("team_id", "position"))
        ordered = standings.apply_lots_across_groups(
            standings.compare_across_groups([row for _, row in runners_up]), lots
        )
        cut = ordered[: division.best_runners_up]
        if (
            len(ordered) > len(cut)
            and cut
            and ordered[len(cut)].tied
            and cut[-1].tied
            and ordered[len(cut)].rank == cut[-1].rank
        ):
            raise RunnerUpTie(
                _(
                    "The best runners-up are tied across groups on every criterion where the qualifying places end: "
                    "record a lot or play-off between them on the knockout page."
                ),
                teams=[row.team for row in ordered if row.rank == cut[-1].rank],
            )
        group_of = {row.team: index for index, row in runners_up}
        qualifiers += [seeding.Qualifier(team=row.team, group=group_of[row.team], place=quota + 1) for row in cut]
    return qualifiers


def runner_up_tie(division):
    """The runners-up (Team list, in table order) tied where the division's best runners-up
    places end, who need a lot before seeding; ``[]`` when there is no such tie or the
    groups are not finished yet (seeding then says what is missing)."""
    if not division.best_runners_up:
        return []
    try:
        qualifiers(division, division_standings(division))
    except RunnerUpTie as tie:
        teams = Team.objects.in_bulk(tie.teams)
        return [teams[pk] for pk in tie.teams]
    except UserError:
        return []
    return []


# --- Shaped once for every medium ----------------------------------------------------


@dataclass(frozen=True)
class StandingLine:
    """One row of a group's standings as every medium shows it.

    ``rank_text`` is the rank with "=" for a shared rank ("1="), "—" for a withdrawn team
    whose games are annulled. ``decided_by`` is the code of what placed the team below
    the row above: a criterion code of ``tournament.engine.standings`` ("wins",
    "card_diff", …), "lot" or "playoff" for a recorded lot or play-off, "tied" for a tie
    no remaining game can change (a lot or play-off is needed), "provisional" for a tie
    that games still to play may break, "withdrawn" for a withdrawn team whose games are
    annulled, "withdrawn_h2h" for a team that withdrew before finishing its games (the
    "walkovers" setting), left out of the head-to-head and placed after the teams level with
    it, "h2h_finished" for head-to-head among the finished teams with such a team left out,
    "" for the first row; ``decided_by_text`` says the same in the active
    language. ``provisional``: the group still has games without a confirmed result
    (the order is 暫定); ``games_left``: this team's games still without one.
    ``withdrawn``: the team has withdrawn (棄権, ``mark``); ``annulled``: its games are
    annulled, its figures are all zero and count for nobody. Cards are counts of cards.
    """

    rank: int
    rank_text: str
    tied: bool
    team: Team
    played: int
    wins: int
    losses: int
    cards_taken: int
    cards_conceded: int
    card_diff: int
    joker_wins: int
    rps_wins: int
    decided_by: str
    decided_by_text: str
    withdrawn: bool
    provisional: bool = False
    games_left: int = 0
    annulled: bool = False

    @property
    def mark(self):
        """ "棄権" ("withdrawn") for a withdrawn team, else ""."""
        return _("withdrawn") if self.withdrawn else ""

    @property
    def note(self):
        """The row's marks in words: withdrawn, provisional with the games left; "" when none."""
        parts = []
        if self.withdrawn:
            parts.append(str(self.mark))
        elif self.provisional and self.games_left:
            parts.append(_("provisional: %(count)s games left") % {"count": self.games_left})
        elif self.provisional:
            parts.append(str(_("provisional")))
        return "・".join(parts)


def rank_text(row):
    """The rank as shown: "3", or "3=" for a rank shared with other teams."""
    return f"{row.rank}=" if row.tied else str(row.rank)


def decided_by_code(row, settled=None):
    """What placed ``row`` (a ``standings.StandingRow``): see ``StandingLine.decided_by``.
    ``settled``: the ids of the teams whose tie is final; ``None`` takes every tie as final."""
    if row.tied:
        return "tied" if settled is None or row.team in settled else "provisional"
    if row.separated_by is None:
        return ""
    if row.settled_by_lot:
        return "playoff" if getattr(row, "lot_method", "") == "playoff" else "lot"
    if row.separated_by == standings.HEAD_TO_HEAD and row.left_out_of_h2h:
        return "withdrawn_h2h"
    if row.separated_by == standings.HEAD_TO_HEAD and row.h2h_without:
        return "h2h_finished"
    return row.separated_by


def decided_by_text(code):
    """The organiser's words for a ``decided_by`` code, in the active language."""
    if code == "tied":
        return _("tied on every criterion: a lot or play-off is needed")
    if code == "provisional":
        return _("level for now: games still to play")
    if code == "withdrawn":
        return _("withdrawn: its games are annulled")
    if code == "withdrawn_h2h":
        return _(
            "withdrawn before finishing its games: left out of the head-to-head, placed after the teams level with it"
        )
    if code == "h2h_finished":
        return _("head-to-head among the teams that finished their games (the withdrawn team left out)")
    if code == "playoff":
        return _("settled by play-off")
    if code == "lot":
        return _("settled by lot")
    return str(CRITERION_LABELS.get(code, code))


def standing_lines(table):
    """The rows of a ``RankedGroup`` shaped for display: a list of ``StandingLine``,
    the withdrawn teams whose games are annulled last."""
    lines = []
    for row in table.rows:
        code = decided_by_code(row, table.settled)
        team = table.teams[row.team]
        lines.append(
            StandingLine(
                rank=row.rank,
                rank_text=rank_text(row),
                tied=row.tied,
                team=team,
                played=row.played,
                wins=row.wins,
                losses=row.losses,
                cards_taken=row.cards_taken,
                cards_conceded=row.cards_conceded,
                card_diff=row.card_diff,
                joker_wins=row.joker_wins,
                rps_wins=row.rps_wins,
                decided_by=code,
                decided_by_text=decided_by_text(code) if code else "",
                withdrawn=team.withdrawn,
                provisional=table.provisional,
                games_left=table.games_left.get(row.team, 0),
            )
        )
    rank = len(table.rows) + 1
    lines += [
        StandingLine(
            rank,
            "—",
            False,
            team,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            "withdrawn",
            decided_by_text("withdrawn"),
            True,
            annulled=True,
        )
        for team in table.annulled
    ]
    return lines


@dataclass(frozen=True)
class CrossCell:
    """One cell of the 星取表, from the row team's side.

    ``is_self`` for the diagonal (a team against itself); ``won`` is None for a game
    without a confirmed result; cards are counts; ``mark`` is "り", "じ", "不" or "";
    ``pending``: the game has a result entered that waits for the recorder's check (shown
    「確認待ち」, as the standings mark their rows provisional until it is confirmed).
    """

    is_self: bool = False
    won: bool | None = None
    cards_for: int = 0
    cards_against: int = 0
    mark: str = ""
    pending: bool = False

    @property
    def played(self):
        return self.won is not None

    @property
    def score(self):
        return f"{self.cards_for}-{self.cards_against}"

    @property
    def text(self):
        """ "○ 30-26 り" for a played game, 「確認待ち」 for a result waiting for the recorder,
        "" otherwise (the diagonal included)."""
        if not self.played:
            return str(pgettext_lazy("cross table cell", "waiting")) if self.pending else ""
        mark = str(self.mark)
        return f"{'○' if self.won else '●'} {self.score}{(' ' + mark) if mark else ''}"


@dataclass(frozen=True)
class CrossTable:
    """The 星取表: ``teams`` in rank order; ``grid`` one (Team, [CrossCell]) per team."""

    teams: list
    grid: list


def cross_table(table):
    """The 星取表 of a ``RankedGroup``: rows and columns in rank order, then the withdrawn
    teams whose games are annulled (their cells empty)."""
    order = [table.teams[r.team] for r in table.rows] + list(table.annulled)
    grid = []
    for row_team in order:
        cells = []
        for col_team in order:
            if row_team.pk == col_team.pk:
                cells.append(CrossCell(is_self=True))
                continue
            cell = table.cells.get((row_team.pk, col_team.pk))
            if cell is None:
                cells.append(CrossCell(pending=(row_team.pk, col_team.pk) in table.pending))
            else:
                cells.append(CrossCell(False, *cell))
        grid.append((row_team, cells))
    return CrossTable(order, grid)


def tied_blocks(table):
    """Blocks of teams tied on every criterion for good, for the lot form: [[Team, …], …]
    by rank; none while the group has games without a confirmed result (the lot service
    refuses them: ``docs/rules/standings-display.md``, "Provisional standings")."""
    blocks = defaultdict(list)
    if not table.complete:
        return []
    for row in table.rows:
        if row.tied and row.team in table.settled:
            blocks[row.rank].append(table.teams[row.team])
    return [blocks[rank] for rank in sorted(blocks)]


@dataclass(frozen=True)
class GroupStandings:
    """Everything shown of one group: its ``RankedGroup``, lines, 星取表 and tied blocks."""

    table: RankedGroup
    lines: list
    cross: CrossTable
    blocks: list

    @property
    def group(self):
        return self.table.group

    @property
    def complete(self):
        return self.table.complete

    @property
    def provisional(self):
        return self.table.provisional

    @property
    def games_left(self):
        """Games of the group still without a confirmed result."""
        return sum(self.table.games_left.values()) // 2

    @property
    def lot_waits(self):
        """Whether a tie is already final while the group still has games left: its lot
        is recorded once the group is complete."""
        return not self.table.complete and any(row.tied and row.team in self.table.settled for row in self.table.rows)


@dataclass(frozen=True)
class BestLine:
    """One team of a place compared across groups ("the best 2nd"), as every medium shows it:
    its ``rank_text`` in that comparison, the ``team`` and its ``group``, games ``played``, the
    per-game values compared (text with two decimals: wins, card difference, cards taken per
    game), what placed it below the line above (``decided_by``: "wins", "card_diff",
    "cards_taken" meaning per game, "lot", "tied" or ""; ``decided_by_text``), and whether it
    ``qualifies`` (within the division's best runners-up)."""

    rank_text: str
    team: Team
    group: Group
    played: int
    wins_per_game: str
    card_diff_per_game: str
    cards_taken_per_game: str
    decided_by: str
    decided_by_text: str
    qualifies: bool


@dataclass(frozen=True)
class BestPlaces:
    """The comparison across groups that decides a division's best runners-up: the teams at
    ``place`` in each group, best first, of which the first ``count`` go through; ``final``
    when every group is complete (until then the order is provisional)."""

    place: int
    count: int
    final: bool
    lines: list

    @property
    def text(self):
        """「各リーグ2位のうち上位1チームが進出（1試合あたりの勝数→得失差→取り札）」 in the active language."""
        return _(
            "The best %(count)s of the teams placed %(place)s in their groups go through, compared per game "
            "played: wins, then card difference, then cards taken (groups may differ in size)."
        ) % {"count": self.count, "place": self.place}


def _per_game_text(value):
    return f"{float(value):.2f}"


def best_places(division, tables=None):
    """The ``BestPlaces`` of ``division`` (docs/rules/scheduling-standings-seeding.md, section 3.5:
    per-game values; lots recorded by the organiser settle a full tie), or None when the division
    takes no best runners-up. ``tables``: its ``RankedGroup``s when already computed. A
    withdrawn team never takes a place: the next team of its group is compared instead."""
    if not division.best_runners_up:
        return None
    tables = tables if tables is not None else division_standings(division)
    place = division.qualifiers_per_group + 1
    entries = []
    for table in tables:
        eligible = [row for row in table.rows if not table.teams[row.team].withdrawn]
        if len(eligible) >= place:
            entries.append((table, eligible[place - 1]))
    lots = dict(RunnerUpLot.objects.filter(division=division).values_list("team_id", "position"))
    ordered = standings.apply_lots_across_groups(standings.compare_across_groups([row for _t, row in entries]), lots)
    table_of = {row.team: table for table, row in entries}
    final = bool(tables) and all(table.complete for table in tables)
    lines = []
    for row in ordered:
        table = table_of[row.team]
        wins, diff, taken = standings.per_game_values(row)
        if row.tied:
            code = "tied" if final else "provisional"
        elif row.separated_by is None:
            code = ""
        elif row.settled_by_lot:
            code = "lot"
        else:
            code = row.separated_by
        text = decided_by_text(code) if code else ""
        if code in ("wins", "card_diff", "cards_taken"):
            text = _("%(criterion)s per game") % {"criterion": text}
        lines.append(
            BestLine(
                rank_text=rank_text(row),
                team=table.teams[row.team],
                group=table.group,
                played=row.played,
                wins_per_game=_per_game_text(wins),
                card_diff_per_game=f"{float(diff):+.2f}",
                cards_taken_per_game=_per_game_text(taken),
                decided_by=code,
                decided_by_text=text,
                qualifies=row.rank <= division.best_runners_up and not row.tied,
            )
        )
    return BestPlaces(place, division.best_runners_up, final, lines)


def group_standings(division):
    """``[GroupStandings]`` of every group of ``division``, in group order (fixed query count)."""
    return [
        GroupStandings(table, standing_lines(table), cross_table(table), tied_blocks(table))
        for table in division_standings(division)
    ]


def event_standings(event, division=None):
    """``[(Division, [GroupStandings])]`` for every division of ``event`` (or only ``division``)."""
    divisions = [division] if division is not None else list(event.divisions.all())
    return [(d, group_standings(d)) for d in divisions]
