"""Writing results: recording-sheet versions, confirmation, rejection, restore, disputes.

Every submission is a new version of the game's recording sheet; nothing is ever
overwritten. A version counts once a recorder (記録係) other than its submitter confirms
it, or at once when the event auto-confirms. How each rule is held:

- at most one confirmed version per game: a partial unique index (the database);
- the same form posted twice makes one version: a unique (game, submission key) index,
  and the lookup of that key before writing;
- no silent overwrite: a form based on an older version is refused (``Conflict``);
- you cannot confirm your own version: checked here, on the server;
- two writers for one game are serialised: each write runs in a transaction that takes
  the write lock first (IMMEDIATE on SQLite, SELECT … FOR UPDATE on PostgreSQL).
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.engine import rules
from judging.models import Dispute, HistoryEntry, RecordingSheet
from tournament.models import Court, Match

SHEET_FIELDS = ("cards_a", "cards_b", "referee_cards", "joker_holder", "rps_winner", "rps_used")


class Conflict(UserError):
    """The form was based on an older version: someone saved the game in between."""

    def __init__(self, current):
        super().__init__(_("This game was saved by someone else in the meantime."))
        self.current = current


class Mismatch(UserError):
    """A recorder's blind re-typing differs from the submitted version."""

    def __init__(self, differences):
        super().__init__(_("The re-typed sheet differs from the submitted one."))
        self.differences = differences


def _locked(match):
    return Match.objects.select_for_update().select_related("event").get(pk=match.pk)


def is_submitter(sheet, user=None, court=None):
    """Whether ``user`` (a logged-in person) or ``court`` (its link, no login) submitted ``sheet``."""
    if user is not None and user.is_authenticated:
        return sheet.submitted_by_id == user.pk
    return court is not None and sheet.court_id == court.pk and sheet.submitted_by_id is None


def latest_sheet(match):
    return match.sheets.order_by("-version").first()


def _outcome(match, values: rules.SheetValues, is_walkover: bool) -> rules.Outcome:
    """The winner of a sheet, derived by the rules (never typed); ``UserError`` for a sheet the
    rules refuse (docs/rules/hitachi-karuta.md, "Result and winner")."""
    if is_walkover:
        winner = rules.Side.A if values.cards_a > values.cards_b else rules.Side.B
        return rules.Outcome(winner, rules.DecidedBy.WALKOVER)
    problems = rules.validate_sheet(values, match.event.card_total)
    if problems:
        raise UserError(_("The recording sheet is not valid: %(problems)s") % {"problems": problems})
    return rules.decide_winner(values, match.event.card_total)


def _same_sheet(sheet, values: rules.SheetValues, is_walkover: bool) -> bool:
    """Whether ``sheet`` records exactly ``values`` (and the same walkover flag)."""
    return sheet.is_walkover == is_walkover and not sheet.differences(values)


def _sheet_fields(values: rules.SheetValues, outcome: rules.Outcome) -> dict:
    """The typed values and the derived winner, as RecordingSheet fields."""
    return {
        "cards_a": values.cards_a,
        "cards_b": values.cards_b,
        "referee_cards": values.referee_cards,
        "joker_holder": values.joker_holder.value if values.joker_holder else "",
        "rps_winner": values.rps_winner.value if values.rps_winner else "",
        "rps_used": values.rps_used,
        "winner_side": outcome.winner.value,
        "decided_by": outcome.decided_by.value,
    }


def submit_sheet(
    match,
    values: rules.SheetValues,
    *,
    base_version=None,
    submission_key="",
    is_walkover=False,
    court=None,
    user=None,
    ip=None,
    device="",
    restored_from=None,
):
    """Record a new version of a game's recording sheet; the winner is derived.

    ``base_version`` is the version the form showed (0 for none); when a newer version
    exists the submission is refused with ``Conflict`` (None skips the check, for
    scripts). Resends are exact:

    - a ``submission_key`` already used for this game, with the same values, returns the
      version it made (a retry after a lost answer);
    - the same key with other values is a new submission (a correction when it is based on
      the newest version, else ``Conflict``), never dropped;
    - values identical to the newest version, based on it (Back, then save again), make no
      new version and return it, unless the game is disputed (a rejected version sent again
      goes back to the recorder as a new version).

    Raises ``UserError`` for an invalid sheet or a game whose teams are not known. Returns
    ``(sheet, created)``.
    """
    outcome = _outcome(match, values, is_walkover)
    try:
        with transaction.atomic():
            match = _locked(match)
            current = latest_sheet(match)
            if submission_key:
                existing = match.sheets.filter(submission_key=submission_key).first()
                if existing is not None and _same_sheet(existing, values, is_walkover):
                    return existing, False  # the same form sent again: the version it made
                if existing is not None:
                    # The same form sent again with other values (a page the browser restored and
                    # the referee corrected): a new submission, never a silent drop. The key
                    # stays with the version it made first.
                    submission_key = ""
            if (
                current is not None
                and not restored_from
                and match.status != Match.Status.DISPUTED
                and _same_sheet(current, values, is_walkover)
                and base_version in (None, current.version)
            ):
                return current, False  # Back, then save again with the newest version's values
            if not match.teams_known:
                raise UserError(_("Both teams of game %(number)s are not known yet.") % {"number": match.match_number})
            if match.status == Match.Status.VOID:
                raise UserError(_("This game is void; the organiser can reopen it."))
            if base_version is not None and current is not None and current.version != base_version:
                raise Conflict(current)
            sheet = RecordingSheet.objects.create(
                match=match,
                version=(current.version if current else 0) + 1,
                **_sheet_fields(values, outcome),
                is_walkover=is_walkover,
                court=court,
                submitted_by=user if user is not None and user.is_authenticated else None,
                ip_address=ip,
                device=(device or "")[:200],
                submission_key=submission_key,
                restored_from=restored_from,
            )
            if match.actual_end is None and not restored_from:
                now = timezone.now()
                match.actual_end = now
                match.actual_start = match.actual_start or now
                match.save(update_fields=["actual_start", "actual_end"])
            HistoryEntry.objects.create(
                match=match,
                sheet=sheet,
                court=court,
                user=sheet.submitted_by,
                action=HistoryEntry.Action.RESTORED if restored_from else HistoryEntry.Action.SUBMITTED,
                note=_("from version %(v)s") % {"v": restored_from.version} if restored_from else "",
            )
            if match.event.auto_confirm:
                _confirm(match, sheet, None, HistoryEntry.Action.AUTO_CONFIRMED)
            else:
                match.status = Match.Status.SUBMITTED
                match.save(update_fields=["status"])
            return sheet, True
    except IntegrityError:
        # The same submission raced itself in; the first one won.
        existing = match.sheets.filter(submission_key=submission_key).first() if submission_key else None
        if existing is None:
            raise
        return existing, False


def _confirm(match, sheet, user, action):
    match.sheets.filter(is_confirmed=True).exclude(pk=sheet.pk).update(is_confirmed=False)
    sheet.is_confirmed = True
    sheet.confirmed_by = user if user is not None and user.is_authenticated else None
    sheet.confirmed_at = timezone.now()
    sheet.save(update_fields=["is_confirmed", "confirmed_by", "confirmed_at"])
    match.status = Match.Status.WALKOVER if sheet.is_walkover else Match.Status.CONFIRMED
    match.winner_id = match.team_a_id if sheet.winner_side == rules.Side.A else match.team_b_id
    match.save(update_fields=["status", "winner"])
    HistoryEntry.objects.create(match=match, sheet=sheet, user=sheet.confirmed_by, action=action)
    if not match.is_group_match:
        advance_knockout(match)


def advance_knockout(match):
    """Put a knockout game's winner (and loser, for the third-place game) into the next game.

    Called in the same transaction as the result. Refused when the next game already
    has a result, since changing its teams would silently rewrite history.
    """
    for target, side, team_id in (
        (match.feeds, match.feeds_side, match.winner_id),
        (match.loser_feeds, match.loser_feeds_side, match.loser_id),
    ):
        if target is None:
            continue
        target.refresh_from_db()
        current = target.team_a_id if side == "A" else target.team_b_id
        if current == team_id:
            continue
        if target.has_result:
            raise UserError(
                _("Game %(number)s already has a result; correct it first.") % {"number": target.match_number}
            )
        setattr(target, "team_a_id" if side == "A" else "team_b_id", team_id)
        target.save(update_fields=["team_a", "team_b"])


def confirm_sheet(sheet, user, *, retyped: rules.SheetValues | None = None):
    try:
        return _confirm_sheet(sheet, user, retyped)
    except Mismatch as mismatch:
        # Logged after the transaction, which a Mismatch rolls back.
        HistoryEntry.objects.create(
            match_id=sheet.match_id,
            sheet=sheet,
            user=user,
            action=HistoryEntry.Action.RETYPE_MISMATCH,
            note=", ".join(field for field, _ours, _theirs in mismatch.differences),
        )
        raise


def _confirm_sheet(sheet, user, retyped):
    """A recorder confirms a submitted version, optionally after re-typing it blind.

    Only the newest version can be confirmed, and never by the person who submitted it
    (``UserError``). With ``retyped`` (the values typed from the paper sheet without
    seeing the entry) any difference raises ``Mismatch`` listing the fields, and
    nothing is confirmed. Confirming a confirmed version changes nothing.
    """
    with transaction.atomic():
        match = _locked(sheet.match)
        sheet = RecordingSheet.objects.get(pk=sheet.pk)
        if is_submitter(sheet, user=user):
            raise UserError(_("You submitted this version, so someone else must confirm it."))
        newest = latest_sheet(match)
        if newest.pk != sheet.pk:
            raise UserError(
                _("Version %(v)s is not the newest (version %(newest)s is); confirm the newest.")
                % {"v": sheet.version, "newest": newest.version}
            )
        if match.status == Match.Status.VOID:
            raise UserError(_("This game is void."))
        if retyped is not None:
            differences = sheet.differences(retyped)
            if differences:
                raise Mismatch(differences)
        if sheet.is_confirmed:
            return sheet
        _confirm(match, sheet, user, HistoryEntry.Action.CONFIRMED)
    return sheet


def reject_sheet(sheet, user, reason=""):
    """A recorder rejects the newest version: the game is disputed until a new version comes."""
    with transaction.atomic():
        match = _locked(sheet.match)
        if match.status == Match.Status.VOID:
            raise UserError(_("This game is void."))
        if latest_sheet(match).pk != sheet.pk:
            raise UserError(_("Only the newest version can be rejected."))
        if sheet.is_confirmed:
            raise UserError(_("A confirmed version cannot be rejected; restore or enter a correction instead."))
        match.status = Match.Status.DISPUTED
        match.save(update_fields=["status"])
        HistoryEntry.objects.create(
            match=match, sheet=sheet, user=user, action=HistoryEntry.Action.REJECTED, note=reason[:300]
        )


def restore_version(sheet, user):
    """The organiser restores an earlier version: its values become a new version."""
    return submit_sheet(
        sheet.match,
        sheet.values if not sheet.is_walkover else rules.SheetValues(sheet.cards_a, sheet.cards_b, 0),
        is_walkover=sheet.is_walkover,
        user=user,
        restored_from=sheet,
    )[0]


def void_match(match, user, reason=""):
    """The organiser voids a game (not played and not a walkover); it never counts.

    A voided knockout game takes its winner (and loser) back out of the next games;
    refused when one of those already has a result.
    """
    with transaction.atomic():
        match = _locked(match)
        fed = [
            (m, side) for m, side in ((match.feeds, match.feeds_side), (match.loser_feeds, match.loser_feeds_side)) if m
        ]
        if any(m.has_result for m, _side in fed):
            raise UserError(_("The next game already has a result."))
        for target, side in fed:
            setattr(target, "team_a" if side == "A" else "team_b", None)
            target.save(update_fields=["team_a", "team_b"])
        match.sheets.filter(is_confirmed=True).update(is_confirmed=False)
        match.status = Match.Status.VOID
        match.winner = None
        match.save(update_fields=["status", "winner"])
        HistoryEntry.objects.create(match=match, user=user, action=HistoryEntry.Action.VOIDED, note=reason[:300])


def reopen_match(match, user):
    """Undo a void: the game waits for a (new) result again."""
    with transaction.atomic():
        match = _locked(match)
        if match.status != Match.Status.VOID:
            raise UserError(_("This game is not void."))
        match.status = Match.Status.SUBMITTED if match.sheets.exists() else Match.Status.SCHEDULED
        match.save(update_fields=["status"])
        HistoryEntry.objects.create(match=match, user=user, action=HistoryEntry.Action.REOPENED)


def record_confirmed_result(match, values: rules.SheetValues, *, note="", **who):
    """Enter and confirm a result in one step: rehearsals (``simulate_results``) and tests."""
    with transaction.atomic():
        sheet, _created = submit_sheet(match, values, **who)
        match.refresh_from_db()
        if not sheet.is_confirmed:
            _confirm(_locked(match), sheet, None, HistoryEntry.Action.AUTO_CONFIRMED)
    return sheet


def walkover_values(match, winner: rules.Side) -> rules.SheetValues:
    """The recording sheet of a walkover (不戦勝) won by ``winner``: half the event's cards in play
    to none (28–0 with 56 cards; docs/rules/hitachi-karuta.md, "Walkovers"). The one place that
    computes a walkover's score."""
    return rules.SheetValues(*rules.walkover_cards(winner, match.event.card_total // 2))


def submit_walkover(match, absent_side: rules.Side, **kwargs):
    """Record a walkover: the team present wins; ``kwargs`` as for ``submit_sheet``.

    Returns ``(sheet, created)``; raises ``UserError`` or ``Conflict`` as ``submit_sheet`` does.
    """
    winner = rules.Side(absent_side).other
    return submit_sheet(match, walkover_values(match, winner), is_walkover=True, **kwargs)


def log_dispute(match, state_a, state_b, *, rps_winner="", court=None, user=None, submission_key=""):
    """Log a disputed card settled by the touch-judgment matrix; returns the dispute.

    A じゃんけん verdict needs its winner. Returns the ``Dispute``; its
    ``rps_count`` attribute is the game's logged じゃんけん decisions so far (limit 3,
    rules sheet), so the screen can warn at the limit.
    """
    verdict = rules.touch_verdict(state_a, state_b)
    if verdict is not rules.Verdict.RPS:
        rps_winner = ""
    elif rps_winner not in ("A", "B"):
        raise UserError(_("Enter who won the じゃんけん."))
    with transaction.atomic():
        match = _locked(match)
        if submission_key:
            existing = match.disputes.filter(submission_key=submission_key).first()
            if existing is not None:  # the same form posted again: already logged
                existing.rps_count = match.disputes.filter(verdict=rules.Verdict.RPS).count()
                return existing
        count = match.disputes.filter(verdict=rules.Verdict.RPS).count()
        if verdict is rules.Verdict.RPS and count >= rules.MAX_RPS_DECISIONS:
            raise UserError(_("This game already had three じゃんけん decisions, the most the rules allow."))
        dispute = Dispute.objects.create(
            match=match,
            state_a=state_a,
            state_b=state_b,
            verdict=verdict.value,
            rps_winner=rps_winner,
            court=court,
            user=user if user is not None and user.is_authenticated else None,
            submission_key=submission_key,
        )
        HistoryEntry.objects.create(
            match=match,
            court=court,
            user=dispute.user,
            action=HistoryEntry.Action.DISPUTE,
            note=f"{state_a} / {state_b} → {verdict.value}{(' ' + rps_winner) if rps_winner else ''}",
        )
    dispute.rps_count = count + (1 if verdict is rules.Verdict.RPS else 0)
    return dispute


def rps_logged(match):
    return match.disputes.filter(verdict=rules.Verdict.RPS).count()


def mark_started(match):
    """Record when the referee opened the game (its actual start), once."""
    if match.actual_start is None and match.awaits_result:
        Match.objects.filter(pk=match.pk, actual_start__isnull=True).update(actual_start=timezone.now())


def record_tablet_report(court, unsent):
    """Note that ``court``'s tablet was heard from now, holding ``unsent`` results.

    In: a court and the number of results its page keeps unacknowledged (0 or more). Out: the
    time stored on ``Court.tablet_heard_at`` (``tablet_unsent`` holds the count), which the
    desk's court board shows. No game rule is involved: a result counts only once
    ``submit_sheet`` has recorded it (docs/rules/hitachi-karuta.md, "Result and winner").
    """
    heard_at = timezone.now()
    Court.objects.filter(pk=court.pk).update(tablet_heard_at=heard_at, tablet_unsent=unsent)
    return heard_at
