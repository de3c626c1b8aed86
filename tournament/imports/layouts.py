"""The two sheet layouts the reader accepts (``docs/entries.md``, "Layouts").

- :class:`TeamRows`: one row per team, a group of name / ふりがな / 学年 columns per player;
- :class:`PlayerRows`: one row per player, rows grouped into teams by division and
  :func:`~tournament.engine.names.name_key` of the team name.
"""

from __future__ import annotations

from tournament.engine.names import name_key, normalize_team_name
from tournament.imports.messages import _
from tournament.imports.records import PlayerEntry
from tournament.imports.rows import MAX_SUBSTITUTES, TEAM_SIZE, PlayerDraft, RowReader, TeamDraft, is_marked


class TeamRows(RowReader):
    """One row per team; the header's player column groups say who leads and who is a substitute."""

    def read(self, rows) -> None:
        header = self.header
        for row, texts, values in rows:
            if self.skip_row(texts):
                continue
            self.check_cells(row, texts, values)
            division = self.division_of(row, texts)
            name = normalize_team_name(self.get(texts, header.team))
            if not name:
                self.problem(row, header.team, _("The team name is missing."))
            team = TeamDraft(row, division, name, self.get(texts, header.affiliation))
            team.chaperone = self.get(texts, header.chaperone)
            team.filled = list(self.fills.get(row, []))
            for group in header.groups:
                player = self.read_player(row, texts, values, group, division)
                if player:
                    team.players.append(PlayerDraft(player, row, group))
            self.check_counts(team)
            if name:
                self.teams.append(team)

    def check_counts(self, team: TeamDraft) -> None:
        """Exactly :data:`TEAM_SIZE` regular players, one of them the leader, at most
        :data:`MAX_SUBSTITUTES` substitutes; each fault on the team's row."""
        filled = {id(p.group) for p in team.players}
        regular_groups = [g for g in self.header.groups if not g.substitute]
        regulars = [p for p in team.players if not p.group.substitute]
        subs = [p for p in team.players if p.group.substitute]
        if len(regulars) != TEAM_SIZE:
            empty = [g for g in regular_groups if id(g) not in filled]
            if len(regulars) < TEAM_SIZE and empty:
                column = empty[0].name
            elif len(regulars) > TEAM_SIZE:
                column = regulars[TEAM_SIZE].group.name
            else:
                column = self.header.team
            self.players_problem(team.row, column, len(regulars))
        elif not any(p.entry.is_leader for p in regulars):
            leader_group = next((g for g in regular_groups if g.leader), None)
            self.problem(
                team.row, leader_group.name if leader_group else self.header.team, _("The team has no leader.")
            )
        if len(subs) > MAX_SUBSTITUTES:
            self.substitutes_problem(team.row, subs[MAX_SUBSTITUTES].group.name, len(subs))


class PlayerRows(RowReader):
    """One row per player; leader and substitute marker columns mark the players.

    A row with an empty team name continues the team of the row directly above it (merged cells).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.by_key: dict[tuple[str, str], TeamDraft] = {}

    def read(self, rows) -> None:
        group = self.header.groups[0]
        previous: tuple[int, TeamDraft] | None = None  # (row, team) of the last player row
        for row, texts, values in rows:
            if self.skip_row(texts):
                previous = None
                continue
            self.check_cells(row, texts, values)
            team = self._team_of(row, texts, previous)
            if team is None:
                previous = None
                continue
            self._check_affiliation(row, texts, team)
            team.chaperone = team.chaperone or self.get(texts, self.header.chaperone)
            team.filled += self.fills.get(row, [])
            previous = (row, team)
            player = self.read_player(row, texts, values, group, team.division)
            if player is None:
                continue
            self._mark(row, texts, player)
            team.players.append(PlayerDraft(player, row, group))
        for team in self.teams:
            self.check_counts(team)

    def _team_of(self, row: int, texts: list[str], previous: tuple[int, TeamDraft] | None) -> TeamDraft | None:
        """The team of the row: the one above for a continuation row, else found or started by
        division and team name; None (with a problem) when the team name is missing."""
        header = self.header
        name = normalize_team_name(self.get(texts, header.team))
        division_text = self.get(texts, header.division)
        if (
            not name
            and previous
            and previous[0] == row - 1
            and (not division_text or name_key(division_text) == name_key(previous[1].division))
        ):
            return previous[1]  # continuation row (merged team-name cells)
        division = self.division_of(row, texts)
        if not name:
            self.problem(row, header.team, _("The team name is missing."))
            return None
        key = (name_key(division), name_key(name))
        team = self.by_key.get(key)
        if team is None:
            team = self.by_key[key] = TeamDraft(row, division, name, "")
            self.teams.append(team)
        return team

    def _check_affiliation(self, row: int, texts: list[str], team: TeamDraft) -> None:
        """Take the team's 所属 from its first row that has one; a different one later is a problem."""
        affiliation = self.get(texts, self.header.affiliation)
        if not affiliation:
            return
        if not team.affiliation:
            team.affiliation, team.affiliation_row = affiliation, row
        elif name_key(affiliation) != name_key(team.affiliation):
            self.problem(
                row,
                self.header.affiliation,
                _('The affiliation differs from row %(row)d of the same team ("%(other)s").')
                % {"row": team.affiliation_row, "other": team.affiliation},
            )

    def _mark(self, row: int, texts: list[str], player: PlayerEntry) -> None:
        """Set the leader and substitute flags from the marker columns; a substitute cannot lead."""
        header = self.header
        player.is_leader = bool(header.leader_marker) and is_marked(self.get(texts, header.leader_marker))
        player.is_substitute = bool(header.substitute_marker) and is_marked(self.get(texts, header.substitute_marker))
        if player.is_leader and player.is_substitute:
            self.problem(row, header.leader_marker, _("A substitute cannot be the leader."))
            player.is_leader = False

    def check_counts(self, team: TeamDraft) -> None:
        """Exactly :data:`TEAM_SIZE` regular players, at most :data:`MAX_SUBSTITUTES`
        substitutes, one leader (the first regular player when there is no leader column)."""
        header = self.header
        regulars = [p for p in team.players if not p.entry.is_substitute]
        subs = [p for p in team.players if p.entry.is_substitute]
        if len(regulars) < TEAM_SIZE:
            self.players_problem(team.row, header.groups[0].name, len(regulars))
        elif len(regulars) > TEAM_SIZE:
            self.players_problem(regulars[TEAM_SIZE].row, header.groups[0].name, len(regulars))
        if len(subs) > MAX_SUBSTITUTES:
            self.substitutes_problem(subs[MAX_SUBSTITUTES].row, header.substitute_marker, len(subs))
        leaders = [p for p in regulars if p.entry.is_leader]
        if header.leader_marker is None:
            if regulars:
                regulars[0].entry.is_leader = True
        elif not leaders and regulars:
            self.problem(team.row, header.leader_marker, _("The team has no leader."))
        elif len(leaders) > 1:
            self.problem(
                leaders[1].row,
                header.leader_marker,
                _("The team has more than one leader (also marked on row %(row)d).") % {"row": leaders[0].row},
            )
