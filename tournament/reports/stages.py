"""The stage after the groups, as it stands now: who fills each slot of the knockout and the
placement games, which played games a later change has left out of date, and what confirming a
correction would change.

Nothing here writes (``judging.services.refresh_slots`` writes what this says). A slot's team
comes from its reference (``tournament.engine.slots``) and the confirmed results only; the
rules are in ``docs/rules/stages.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _

from tournament.engine import slots, standings
from tournament.models import Match, RunnerUpLot, Team
from tournament.reports.standings import division_standings


@dataclass(frozen=True)
class SlotSide:
    """One side of a game after the groups.

    ``reference`` is the slot's reference text ("" for a team fixed by hand); ``label`` says it in
    the active language ("Aリーグ1位", "第12試合の勝者"); ``short`` is the bracket's short form
    ("A1", "W12"). ``now`` is the team id that fills the reference now (None: nobody yet) and
    ``final`` whether that can still change through the groups; ``stored`` is the team id the
    game holds."""

    reference: str
    label: str
    short: str
    now: int | None
    final: bool
    stored: int | None
    named: str = ""
    blocked_by: Match | None = None

    @property
    def sentence(self):
        """The slot's words in a sentence: a group place or a best-of place names its division
        ("小学生低学年の部・Aリーグ1位": every division has an Aリーグ); else ``label`` (or ``short``)."""
        return self.named or self.label or self.short

    @property
    def settled_team(self):
        """The team id the game should hold: the one filling the reference once final, else None
        (also None while ``blocked_by``: that team holds a side of another game of the same round,
        or of this game, so it is never put here: docs/rules/stages.md, "One game per round")."""
        return self.now if self.final and self.blocked_by is None else None

    @property
    def wanted_team(self):
        """The team id that fills the reference once final, blocked or not."""
        return self.now if self.final else None

    @property
    def differs(self):
        return self.settled_team != self.stored


@dataclass
class SlotState:
    """A knockout or placement ``match`` with its two ``SlotSide``s. ``frozen``: the game has
    started or has (or had) a result, so its teams no longer move by themselves; ``out_of_date``:
    frozen, and a side's reference is now filled by another team (or by nobody), and the
    organiser has not chosen to keep it."""

    match: Match
    a: SlotSide
    b: SlotSide
    frozen: bool
    out_of_date: bool = False
    sides: tuple = field(init=False)

    def __post_init__(self):
        self.sides = (self.a, self.b)

    @property
    def blocked(self):
        """The sides left empty because their team already plays another game of the round."""
        return [side for side in self.sides if side.blocked_by is not None]

    @property
    def resolution(self):
        """The resolution as ``Match.kept_teams`` stores it: "<team a>,<team b>" ("" for nobody)."""
        return kept_text(self.a.settled_team, self.b.settled_team)


def kept_text(team_a, team_b):
    return f"{team_a or ''},{team_b or ''}"


def is_frozen(match):
    """Whether a game's teams no longer follow its references: it has started, or a result was
    entered (submitted, confirmed, disputed, walkover or void)."""
    return match.actual_start is not None or match.status != Match.Status.SCHEDULED


def takes_place(team):
    """Whether ``team`` fills its group place in the slots: not withdrawn, or withdrawn once it
    was already drawn into the games after the groups (it keeps its slots; its games there are
    walkovers: docs/rules/stages.md, "Withdrawals")."""
    return not team.withdrawn or team.withdrawn_keeps_slots


def _place_tables(division, tables):
    """The ``slots.PlaceTable`` of each group (by group pk) and of each place across groups (by
    place), from ``RankedGroup``s."""
    groups, at_place = {}, {}
    for table in tables:
        eligible = [row for row in table.rows if takes_place(table.teams[row.team])]
        groups[table.group.pk] = slots.PlaceTable(
            tuple(row.team for row in eligible), tuple(table.complete and not row.tied for row in eligible)
        )
        for place, row in enumerate(eligible, start=1):
            at_place.setdefault(place, []).append((row, table.complete and not row.tied))
    lots = dict(RunnerUpLot.objects.filter(division=division).values_list("team_id", "position"))
    all_complete = all(table.complete for table in tables)
    bests = {}
    for place, entries in at_place.items():
        settled = all_complete and len(entries) == len(tables) and all(final for _row, final in entries)
        ordered = standings.apply_lots_across_groups(
            standings.compare_across_groups([row for row, _final in entries]), lots
        )
        bests[place] = slots.PlaceTable(
            tuple(row.team for row in ordered), tuple(settled and not row.tied for row in ordered)
        )
    return groups, bests


def _outcomes(matches):
    return {
        m.pk: slots.Outcome(m.winner_id, m.loser_id)
        for m in matches
        if m.has_result and m.winner_id is not None and m.loser_id is not None
    }


def _references(matches):
    """Match pk -> (reference of side A, of side B): an earlier game feeding the side wins over
    the stored source; "" when the side is a team fixed by hand."""
    fed = {}
    for m in matches:
        if m.feeds_id:
            fed[(m.feeds_id, m.feeds_side)] = slots.winner(m.pk)
        if m.loser_feeds_id:
            fed[(m.loser_feeds_id, m.loser_feeds_side)] = slots.loser(m.pk)
    return {m.pk: (fed.get((m.pk, "A"), m.source_a), fed.get((m.pk, "B"), m.source_b)) for m in matches}


class _Labels:
    """References in words, with the division's group names and game numbers (``label``), and
    the same words naming the division for the sentences (``named``)."""

    def __init__(self, division, matches):
        self.division = division.name
        self.groups = {g.pk: g for g in division.groups.all()}
        self.numbers = {m.pk: m.match_number for m in matches}

    def label(self, reference):
        if not reference:
            return "", ""
        ref = slots.parse(reference)
        if ref.kind == "group":
            group = self.groups.get(ref.target)
            name = group.name if group else "?"
            return (
                _("%(group)s place %(place)s") % {"group": group or "?", "place": ref.index},
                f"{name}{ref.index}",
            )
        if ref.kind == "best":
            return (
                _("best %(rank)s of the teams placed %(place)s") % {"rank": ref.index, "place": ref.target},
                f"{ref.target}-{ref.index}",
            )
        number = self.numbers.get(ref.target, "?")
        if ref.kind == "winner":
            return _("winner of game %(number)s") % {"number": number}, f"W{number}"
        return _("loser of game %(number)s") % {"number": number}, f"L{number}"

    def named(self, reference):
        """A group place or a best-of place with its division ("小学生低学年の部・Aリーグ1位"), for
        sentences; "" for other references."""
        if not reference or slots.parse(reference).kind not in ("group", "best"):
            return ""
        return _("%(division)s, %(slot)s") % {"division": self.division, "slot": self.label(reference)[0]}


def division_slots(division, *, tables=None, matches=None, outcomes=None):
    """``[SlotState]`` of every knockout and placement game of ``division``, by round and position.

    ``tables`` (the division's ``RankedGroup``s) and ``matches`` (its games after the groups)
    are read when not given; ``outcomes`` (game pk -> ``slots.Outcome``) replaces the results of
    those games (what-if). A frozen game is out of date when a side's settled team differs from
    the team it holds and ``Match.kept_teams`` does not hold this very resolution.
    """
    if matches is None:
        matches = list(
            Match.objects.filter(division=division).after_groups().order_by("round", "bracket_position", "match_number")
        )
    if not matches:
        return []
    if tables is None:
        tables = division_standings(division)
    groups, bests = _place_tables(division, tables)
    if outcomes is None:
        outcomes = _outcomes(matches)
    references = _references(matches)
    labels = _Labels(division, matches)
    states = []
    for m in matches:
        sides = []
        for reference, stored in zip(references[m.pk], (m.team_a_id, m.team_b_id), strict=True):
            label, short = labels.label(reference)
            if reference:
                filled = slots.resolve(reference, groups=groups, bests=bests, outcomes=outcomes)
            else:
                filled = slots.Filled(stored, True)
            sides.append(SlotSide(reference, label, short, filled.team, filled.final, stored, labels.named(reference)))
        state = SlotState(m, *sides, frozen=is_frozen(m))
        state.out_of_date = (
            state.frozen and any(side.differs for side in state.sides) and m.kept_teams != state.resolution
        )
        states.append(state)
    _block_clashes(states, division.event.game_minutes)
    return states


def clash(one, other, minutes):
    """Whether a team may not hold a side in both games ``one`` and ``other`` (two ``Match``es
    after the groups of one division): two placement games, two knockout games of the same round
    (a final and its third-place game too), or two games whose times overlap (``minutes``: the
    game length). Rule: docs/rules/stages.md, "One game per round"."""
    if one.pk == other.pk:
        return False
    placement = Match.Stage.PLACEMENT
    if (one.stage == placement) != (other.stage == placement):
        same = False
    else:
        same = one.stage == placement or one.round == other.round
    if one.start_at is not None and other.start_at is not None:
        same = same or abs((one.start_at - other.start_at).total_seconds()) < minutes * 60
    return same


def _block_clashes(states, minutes):
    """Leave empty (``SlotSide.blocked_by``) each side of a game not started whose team already
    holds a side of a clashing game (``clash``): one started or played, or an open one earlier
    in the order; and side B when it would get side A's team. Changes ``states`` in place."""
    holders = {}
    for state in states:
        if state.frozen and state.match.status != Match.Status.VOID:
            for team in (state.match.team_a_id, state.match.team_b_id):
                if team is not None:
                    holders.setdefault(team, []).append(state.match)
    for state in states:
        if state.frozen:
            continue
        sides = list(state.sides)
        for index, side in enumerate(sides):
            team = side.settled_team
            if team is None:
                continue
            other = next((m for m in holders.get(team, []) if clash(m, state.match, minutes)), None)
            if other is None and index == 1 and sides[0].settled_team == team:
                other = state.match
            if other is not None:
                sides[index] = replace(side, blocked_by=other)
            else:
                holders.setdefault(team, []).append(state.match)
        if sides != list(state.sides):
            state.a, state.b = sides
            state.sides = tuple(sides)


def out_of_date(division):
    """The ``SlotState``s of ``division`` whose game is out of date (see ``division_slots``)."""
    return [state for state in division_slots(division) if state.out_of_date]


def event_out_of_date(event):
    """``[SlotState]`` out of date in every division of ``event`` (the status board, the hall)."""
    divisions = event.divisions.filter(matches__stage__in=Match.Stage.AFTER_GROUPS).distinct()
    return [state for division in divisions for state in out_of_date(division)]


def changes_if_confirmed(sheet, *, past=False):
    """What confirming ``sheet`` (a recording-sheet version, not yet the confirmed one) would
    change after the groups: a list of sentences in the active language naming the places that
    change and the games they reach ("If confirmed, 小学生の部, Group A place 1 changes from X to
    Y. Game 12 already has a result."); with ``past`` the sentences say what the confirmation
    changed ("… changed from X to Y.": said once it is confirmed). ``[]`` when nothing after the
    groups changes."""
    match = sheet.match
    division = match.division
    matches = list(
        Match.objects.filter(division=division)
        .after_groups()
        .select_related("team_a", "team_b")
        .order_by("round", "bracket_position", "match_number")
    )
    if not matches:
        return []
    before_tables = division_standings(division)
    before = division_slots(division, tables=before_tables, matches=matches)
    if match.is_group_match:
        after = division_slots(division, tables=division_standings(division, instead=sheet), matches=matches)
    else:
        outcomes = _outcomes(matches)
        winner = match.team_a_id if sheet.winner_side == "A" else match.team_b_id
        loser = match.team_b_id if winner == match.team_a_id else match.team_a_id
        if winner is not None and loser is not None:
            outcomes[match.pk] = slots.Outcome(winner, loser)
        after = division_slots(division, tables=before_tables, matches=matches, outcomes=outcomes)
    sentences = _describe(before, after, past)
    if match.is_group_match:
        sentences += _rematch_sentences(division, before, after, past)
    return sentences


def _first_round(states):
    """The knockout games of the first round (placement games aside)."""
    knockout = [s for s in states if s.match.stage not in (Match.Stage.PLACEMENT, Match.Stage.THIRD_PLACE)]
    if not knockout:
        return []
    low = min(s.match.round for s in knockout)
    return [s for s in knockout if s.match.round == low]


def _rematch_sentences(division, before, after, past=False):
    """A sentence per first-round knockout game that the change turns into a meeting of two
    teams of the same group, where the division has other groups, so the bracket could keep
    them apart (docs/rules/stages.md, "Seeding": group-mates go to opposite halves): the game
    and the teams, and the re-draw it offers (the knockout page's "Reset and seed again",
    possible while no game after the groups has started)."""
    old_pairs = {s.match.pk: tuple(side.wanted_team for side in s.sides) for s in _first_round(before)}
    candidates = []
    for state in _first_round(after):
        pair = tuple(side.wanted_team for side in state.sides)
        if None in pair or pair == old_pairs.get(state.match.pk):
            continue
        candidates.append((state.match, pair))
    if not candidates or division.groups.count() < 2:
        return []
    wanted = {team for _m, pair in candidates for team in pair}
    teams = {t.pk: t for t in Team.objects.filter(pk__in=wanted).select_related("group")}
    sentences = []
    for game, (a, b) in candidates:
        if teams[a].group_id is None or teams[a].group_id != teams[b].group_id:
            continue
        values = {
            "game": game,
            "stage": game.get_stage_display(),
            "a": teams[a].name,
            "b": teams[b].name,
            "group": teams[a].group,
        }
        text = (
            _("%(game)s (%(stage)s) is now a rematch of %(a)s and %(b)s, both of %(group)s.")
            if past
            else _("If confirmed, %(game)s (%(stage)s) becomes a rematch of %(a)s and %(b)s, both of %(group)s.")
        ) % values
        sentences.append(
            text
            + " "
            + _(
                "The bracket could keep them apart: while no game after the groups has started, "
                "“Reset and seed again” on the knockout page draws its unplayed slots again."
            )
        )
    return sentences


def _describe(before, after, past=False):
    teams = _team_names(before, after)
    sentences, reached = [], []
    seen = set()
    for old, new in zip(before, after, strict=True):
        for old_side, new_side in zip(old.sides, new.sides, strict=True):
            if old_side.now == new_side.now and old_side.final == new_side.final:
                continue
            if old_side.reference and old_side.reference not in seen:
                seen.add(old_side.reference)
                values = {"slot": old_side.sentence, "old": teams(old_side.now), "new": teams(new_side.settled_team)}
                if past:
                    sentences.append(_("%(slot)s changed from %(old)s to %(new)s.") % values)
                else:
                    sentences.append(_("If confirmed, %(slot)s changes from %(old)s to %(new)s.") % values)
            if new.frozen and new.match.pk not in reached:
                reached.append(new.match.pk)
                sentences.append(_frozen_sentence(new.match))
    return sentences


def _frozen_sentence(match):
    if match.has_result:
        return _("%(game)s (%(stage)s) already has a result.") % {"game": match, "stage": match.get_stage_display()}
    return _("%(game)s (%(stage)s) has already started.") % {"game": match, "stage": match.get_stage_display()}


def _team_names(*state_lists):
    names = {}
    for states in state_lists:
        for state in states:
            for team in (state.match.team_a, state.match.team_b):
                if team is not None:
                    names[team.pk] = team.name
    missing = {
        side.now for states in state_lists for state in states for side in state.sides if side.now not in names
    } - {None}
    if missing:
        names.update(dict(Team.objects.filter(pk__in=missing).values_list("pk", "name")))

    def name(team_id):
        return names.get(team_id, _("nobody yet")) if team_id is not None else _("nobody yet")

    return name
