"""The organiser's choice for a game after the groups that a later change left out of date: keep
the played result, or void it and replay it with the teams that now qualify.

Each function is one transaction; a refusal is a ``UserError`` naming the division and the game,
raised before anything is written. The rules are in ``docs/rules/stages.md`` ("Out of date").
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.models import HistoryEntry
from judging.services import lock_match, refresh_slots
from tournament.models import Match, Team
from tournament.reports import stage_notes, stages

NOTE_LENGTH = 300


def _game(match):
    """「小学生の部・第12試合(準決勝)」: the division, the game and its stage, for refusals."""
    return _("%(division)s, %(game)s (%(stage)s)") % {
        "division": match.division.name,
        "game": match,
        "stage": match.get_stage_display(),
    }


def _out_of_date(match):
    """The ``stage_notes.OutOfDate`` of ``match`` (locked, read again); ``UserError`` when the game
    is not out of date (a group game, a game not started, or one whose slots still hold its teams)."""
    if match.is_group_match:
        raise UserError(_("%(game)s is a group game: its teams never change.") % {"game": _game(match)})
    found = stage_notes.match_out_of_date(match)
    if found is None:
        raise UserError(
            _("%(game)s is not out of date: its teams are still the ones its slots name.") % {"game": _game(match)}
        )
    return found


def _history_note(note, found):
    text = f"{note.strip()} ({found.text})" if note.strip() else found.text
    return text[:NOTE_LENGTH]


def _refuse_clash(match, found):
    """``UserError`` when a team that would fill ``match`` once replayed (``found``: its
    ``OutOfDate``) already holds a side of another game of the same round, or of a game at the
    same time (``stages.clash``) that is not out of date itself (kept, or true to its slots), or
    would be on both sides: 「城南中学校Bは第52試合（保留した結果）にも出ています。第52試合もやり直すか、
    この試合の結果を保留してください。」
    Rule: docs/rules/stages.md, "One game per round"."""
    wanted = [side.wanted_team for side in found.state.sides]
    if wanted[0] is not None and wanted[0] == wanted[1]:
        name = Team.objects.get(pk=wanted[0]).name
        raise UserError(
            _("%(game)s: %(team)s would be on both sides; keep the result of this game.")
            % {"game": _game(match), "team": name}
        )
    teams = [team for team in wanted if team is not None]
    others = (
        Match.objects.filter(division=match.division)
        .after_groups()
        .exclude(pk=match.pk)
        .not_void()
        .order_by("match_number")
    )
    minutes = match.event.game_minutes
    # A clashing game that is out of date itself can be replayed next: this replay then waits
    # (its side stays empty, reported) until that one gives the team up. Two played semifinals
    # whose teams must swap are replayed one after the other this way.
    also_out = {state.match.pk for state in stages.out_of_date(match.division)}
    for other in others:
        held = {other.team_a_id, other.team_b_id} & set(teams)
        if held and stages.is_frozen(other) and other.pk not in also_out and stages.clash(match, other, minutes):
            name = Team.objects.get(pk=held.pop()).name
            raise UserError(
                _("%(game)s: %(clash)s Replay %(other)s as well, or keep the result of this game.")
                % {"game": _game(match), "clash": stage_notes.clash_text(name, other), "other": other}
            )


def keep_result(match, user, note):
    """The organiser keeps the played (or started) result of an out-of-date game.

    In: a knockout or placement ``Match`` that is out of date (``stage_notes.match_out_of_date``),
    the organiser, and ``note`` (why; required). Out: the game, with ``Match.kept_teams`` set to
    the resolution of its slots now, so it is no longer shown out of date for this change (a
    later change that moves a slot again shows it again), and a ``KEPT`` history entry holding
    the note and the places that changed. Its teams and result stay as played.
    Raises ``UserError`` (nothing written) without a note or when the game is not out of date.
    Rule: docs/rules/stages.md, "Out of date".
    """
    if not (note or "").strip():
        raise UserError(_("%(game)s: say in a note why the played result is kept.") % {"game": _game(match)})
    with transaction.atomic():
        match = lock_match(match)
        found = _out_of_date(match)
        match.kept_teams = found.state.resolution
        match.save(update_fields=["kept_teams"])
        HistoryEntry.objects.create(
            match=match, user=user, action=HistoryEntry.Action.KEPT, note=_history_note(note, found)
        )
    return match


def undo_keep(match, user, note=""):
    """The organiser undoes the keep of a game: it is out of date again, to keep or replay.

    In: a knockout or placement ``Match`` whose played result was kept (``Match.kept_teams``
    set by :func:`keep_result`), the organiser, an optional note. Out: the game with
    ``kept_teams`` cleared, so every page, paper and the API show it out of date again while a
    place of it is filled by another team, and a ``KEEP_UNDONE`` history entry (the note, or the
    keep's own note it undoes). Its teams and result are not touched. Raises ``UserError``
    (nothing written) when the game's result is not kept. Rule: docs/rules/stages.md, "Out of
    date: keep or replay".
    """
    with transaction.atomic():
        match = lock_match(match)
        if not match.kept_teams:
            raise UserError(
                _("%(game)s: its result is not kept, so there is no keep to undo.") % {"game": _game(match)}
            )
        kept = match.history.filter(action=HistoryEntry.Action.KEPT).order_by("-at", "-pk").first()
        match.kept_teams = ""
        match.save(update_fields=["kept_teams"])
        text = note.strip() or (_("undoes the keep: %(note)s") % {"note": kept.note} if kept else "")
        HistoryEntry.objects.create(
            match=match, user=user, action=HistoryEntry.Action.KEEP_UNDONE, note=text[:NOTE_LENGTH]
        )
    return match


def replay_match(match, user, note=""):
    """The organiser voids the played result of an out-of-date game so that it is played again
    by the teams that fill its slots now.

    In: a knockout or placement ``Match`` that is out of date, the organiser, an optional note.
    Out: the game open again: its confirmed versions unconfirmed (kept in its history), status
    scheduled, no winner, no start or end time, ``kept_teams`` cleared, a ``REPLAYED`` history
    entry naming the places that changed; then ``judging.services.refresh_slots`` fills its
    teams from its slots (nobody while a slot is not final) and takes the change on to the games
    it feeds: one not started follows, one started or played is shown out of date in turn.
    The entry holds the newest version at the time (``HistoryEntry.sheet``): it and every older
    version are history, never confirmed or restored again (``judging.services.before_replay``).
    Raises ``UserError`` (nothing written) when the game is not out of date, or when a team that
    would fill it already plays another game of the same round (``_refuse_clash``).
    Rule: docs/rules/stages.md, "Out of date" and "One game per round".
    """
    with transaction.atomic():
        match = lock_match(match)
        found = _out_of_date(match)
        _refuse_clash(match, found)
        newest = match.sheets.order_by("-version").first()
        match.sheets.confirmed().update(is_confirmed=False)
        match.status = Match.Status.SCHEDULED
        match.winner = None
        match.actual_start = match.actual_end = None
        match.kept_teams = ""
        match.save(update_fields=["status", "winner", "actual_start", "actual_end", "kept_teams"])
        HistoryEntry.objects.create(
            match=match,
            sheet=newest,
            user=user,
            action=HistoryEntry.Action.REPLAYED,
            note=_history_note(note or "", found),
        )
        refresh_slots(match.division, user=user)
    match.refresh_from_db()
    return match
