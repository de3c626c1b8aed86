"""Writing results: recording-sheet versions, confirmation, rejection, restore, disputes.

Every submission is a new version of the game's recording sheet; nothing is ever
overwritten. A version counts once a recorder (記録係) other than its submitter confirms
it, or at once when the event auto-confirms. How each rule is held:

- at most one confirmed version per game: a partial unique index (the database);
- the same form posted twice makes one version: a unique (game, submission key) index,
  and the lookup of that key before writing;
- no silent overwrite: a form based on an older version is refused (``Conflict``);
- you cannot confirm your own version: checked here, on the server; an organiser (or a
  recorder, when the event allows it) may, by an explicit one-person confirmation
  (``confirm_own_sheet``), recorded as such in the history;
- two writers for one game are serialised: each write runs in a transaction that takes
  the write lock first (IMMEDIATE on SQLite, SELECT … FOR UPDATE on PostgreSQL).
"""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import UserError
from judging.engine import individual, rules
from judging.models import HistoryEntry, PlayerCards, RecordingSheet
from judging.signals import result_confirmed
from tournament.models import Event, Match, Player
from tournament.reports import stages

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


def lock_match(match):
    """``match`` read again with its event, locked until this transaction ends (call inside
    ``transaction.atomic``): ``Match``.

    The game's row is locked for update: one change of a game at a time. The event's row is
    locked for share: results of different games are written side by side, while the steps
    that change the event itself (its settings, its people, its deletion: they lock its row
    for update) wait for the games being written, and those wait for them, so a card total
    is never changed under a result being checked against it (docs/rules/stages.md,
    "Settings that results depend on"). The event first, as every step that locks both.
    Under a full hall on PostgreSQL (issue 31, item 3) the event's row locked for update made
    every court's result wait for the one before it (up to 225 ms). SQLite: the IMMEDIATE
    transaction holds the database's write lock already."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT 1 FROM "{Event._meta.db_table}" WHERE "id" = %s FOR SHARE', [match.event_id])
    return Match.objects.select_for_update(of=("self",)).select_related("event").get(pk=match.pk)


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


def player_cards_problems(match, values: rules.SheetValues, player_cards) -> list[tuple[rules.Side, str]]:
    """Individual counts that do not add up: ``[(side, message)]``, empty when all is well.

    In: the game, the sheet's values and ``player_cards`` ({player pk: cards}, only the
    counts given). Each side whose given counts do not add up to its team count is named
    (docs/rules/hitachi-karuta.md, "Individual card counts (choice)"). Raises ``UserError`` for a
    player who is not in either team of the game, or counts on an event that does not
    take them.
    """
    if not player_cards:
        return []
    if not match.event.individual_counts:
        raise UserError(_("This tournament does not take individual card counts."))
    sides = {match.team_a_id: rules.Side.A, match.team_b_id: rules.Side.B}
    team_of = dict(Player.objects.filter(pk__in=player_cards, team_id__in=sides).values_list("pk", "team_id"))
    if set(player_cards) - set(team_of):
        raise UserError(_("A player with individual cards is not in either team of this game."))
    problems = []
    for team_id, side in sides.items():
        team_cards = values.cards_a if side == rules.Side.A else values.cards_b
        counts = [cards for pk, cards in player_cards.items() if team_of[pk] == team_id]
        total = individual.side_sum_problem(counts, team_cards)
        if total is not None:
            team = match.team_a if side == rules.Side.A else match.team_b
            message = _(
                "The individual counts of team %(side)s (%(team)s) add up to %(sum)s, "
                "not to the team's %(cards)s cards."
            ) % {"side": side.value, "team": team.name, "sum": total, "cards": team_cards}
            problems.append((side, message))
    return problems


def _same_player_cards(sheet, player_cards) -> bool:
    """Whether ``sheet`` carries exactly the individual counts ``player_cards`` (None = none)."""
    return dict(sheet.player_cards.values_list("player_id", "cards")) == dict(player_cards or {})


def _typed_fields(values: rules.SheetValues) -> dict:
    """The values the referee typed, as RecordingSheet fields (the winner not included)."""
    return {
        "cards_a": values.cards_a,
        "cards_b": values.cards_b,
        "referee_cards": values.referee_cards,
        "joker_holder": values.joker_holder.value if values.joker_holder else "",
        "rps_winner": values.rps_winner.value if values.rps_winner else "",
        "rps_used": values.rps_used,
    }


def _sheet_fields(values: rules.SheetValues, outcome: rules.Outcome) -> dict:
    """The typed values and the derived winner, as RecordingSheet fields."""
    return {
        **_typed_fields(values),
        "winner_side": outcome.winner.value,
        "decided_by": outcome.decided_by.value,
    }


def _resent(match, current, values, is_walkover, player_cards, submission_key, base_version, restored_from):
    """The version a resent form already made, if any, and the submission key to store.

    Returns ``(sheet, key)``: ``sheet`` is the version to answer instead of a new one (the
    same key with the same values; or the newest version's values again, based on it, while
    the game is not disputed, nor open again to be replayed), else None; ``key`` is "" when the key already belongs to a
    version with other values (a restored page, corrected: a new submission, never a drop).
    """
    if submission_key:
        existing = match.sheets.filter(submission_key=submission_key).first()
        if existing is not None:
            if _same_sheet(existing, values, is_walkover) and _same_player_cards(existing, player_cards):
                return existing, submission_key  # the same form sent again: the version it made
            submission_key = ""  # the key stays with the version it made first
    if (
        current is not None
        and not restored_from
        and match.status not in Match.Status.AT_COURT
        and _same_sheet(current, values, is_walkover)
        and _same_player_cards(current, player_cards)
        and base_version in (None, current.version)
    ):
        return current, submission_key  # Back, then save again with the newest version's values
    return None, submission_key


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
    player_cards=None,
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

    A new version replacing one that a leader signed (``after_sign_off``) is a correction
    that a recorder must confirm, even under auto-confirm (issue 16, item 4). From a court link
    (``court`` given) a game whose result a started game uses is refused
    (``refuse_if_result_used``); the desk may.

    ``player_cards`` ({player pk: cards}, the counts given) are the version's individual
    counts; "the same values" includes them, so a correction of the counts alone is a new
    version. Raises ``UserError`` for an invalid sheet, individual counts that do not add up
    (``player_cards_problems``), or a game whose teams are not known. Returns
    ``(sheet, created)``.
    """
    outcome = _outcome(match, values, is_walkover)
    problems = player_cards_problems(match, values, player_cards)
    if problems:
        raise UserError(" ".join(message for _side, message in problems))
    try:
        with transaction.atomic():
            match = lock_match(match)
            current = latest_sheet(match)
            saved, submission_key = _resent(
                match, current, values, is_walkover, player_cards, submission_key, base_version, restored_from
            )
            if saved is not None:
                return saved, False
            if not match.teams_known:
                raise UserError(_("Both teams of game %(number)s are not known yet.") % {"number": match.match_number})
            if match.status == Match.Status.VOID:
                raise UserError(_("This game is void; the organiser can reopen it."))
            if court is not None:
                refuse_if_result_used(match)
            if base_version is not None and current is not None and current.version != base_version:
                raise Conflict(current)
            after_sign_off = _replaces_signed(match, current, restored_from)
            sheet = RecordingSheet.objects.create(
                match=match,
                version=(current.version if current else 0) + 1,
                **_sheet_fields(values, outcome),
                after_sign_off=after_sign_off,
                is_walkover=is_walkover,
                court=court,
                submitted_by=user if user is not None and user.is_authenticated else None,
                ip_address=ip,
                device=(device or "")[:200],
                submission_key=submission_key,
                restored_from=restored_from,
            )
            PlayerCards.objects.bulk_create(
                PlayerCards(sheet=sheet, player_id=pk, cards=cards) for pk, cards in (player_cards or {}).items()
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
            if match.event.auto_confirm and not after_sign_off:
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
    except UserError as refusal:
        keep_refused(
            match,
            values,
            refusal,
            is_walkover=is_walkover,
            player_cards=player_cards,
            base_version=base_version,
            court=court,
            user=user,
        )
        raise


def refused_values(values: rules.SheetValues, *, is_walkover=False, player_cards=None, base_version=None) -> dict:
    """A refused save's values as stored in ``HistoryEntry.values`` (JSON): the sheet's fields,
    the walkover flag, the individual counts ({player id as text: cards}) and the version the
    page was based on."""
    return {
        **_typed_fields(values),
        "is_walkover": bool(is_walkover),
        "player_cards": {str(pk): cards for pk, cards in (player_cards or {}).items()},
        "base_version": base_version,
    }


def values_of(entry) -> tuple[rules.SheetValues, bool, dict]:
    """A ``REFUSED`` history entry's values back as ``(SheetValues, is_walkover, player_cards)``;
    ``UserError`` when the entry holds none (it is not a refused save)."""
    data = entry.values if entry.action == HistoryEntry.Action.REFUSED else None
    if not isinstance(data, dict):
        raise UserError(_("That line of the history holds no values to adopt."))
    values = rules.SheetValues(
        cards_a=int(data["cards_a"]),
        cards_b=int(data["cards_b"]),
        referee_cards=int(data.get("referee_cards") or 0),
        joker_holder=rules.JokerHolder(data["joker_holder"]) if data.get("joker_holder") else None,
        rps_winner=rules.Side(data["rps_winner"]) if data.get("rps_winner") else None,
        rps_used=int(data.get("rps_used") or 0),
    )
    cards = {int(pk): int(n) for pk, n in (data.get("player_cards") or {}).items()}
    return values, bool(data.get("is_walkover")), cards


def keep_refused(
    match, values, refusal, *, is_walkover=False, player_cards=None, base_version=None, court=None, user=None
):
    """Write a refused save into the game's history (``REFUSED``) with its values and the
    reason, in its own transaction (the refused one was rolled back): a second tablet's result,
    a stale page, a refused correction are never lost, and the desk may adopt them
    (``adopt_refused``; issue 28, item 7). The same values refused again (a tablet that resends)
    make no second line. Returns the entry, or None when it was there already."""
    payload = refused_values(values, is_walkover=is_walkover, player_cards=player_cards, base_version=base_version)
    same = {k: v for k, v in payload.items() if k != "base_version"}
    with transaction.atomic():
        for entry in HistoryEntry.objects.filter(match_id=match.pk, action=HistoryEntry.Action.REFUSED):
            kept = {k: v for k, v in (entry.values or {}).items() if k != "base_version"}
            if kept == same and entry.court_id == (court.pk if court else None):
                return None
        return HistoryEntry.objects.create(
            match_id=match.pk,
            action=HistoryEntry.Action.REFUSED,
            court=court,
            user=user if user is not None and user.is_authenticated else None,
            note=str(refusal)[:300],
            values=payload,
        )


def refused_saves(match) -> list:
    """The game's refused saves (``REFUSED`` history entries, newest first) with their values
    read back as ``entry.sheet_values`` (``SheetValues``), for the desk's page."""
    found = []
    for entry in match.history.filter(action=HistoryEntry.Action.REFUSED).select_related("court", "user"):
        try:
            entry.sheet_values, entry.refused_walkover, entry.refused_cards = values_of(entry)
        except (UserError, KeyError, TypeError, ValueError):
            continue
        found.append(entry)
    return sorted(found, key=lambda e: (e.at, e.pk), reverse=True)


def adopt_refused(entry, user, *, ip=None, device=""):
    """A recorder takes a refused save's values (``entry``, ``REFUSED``) as a new version of the
    game, based on its newest version, noted in the history as adopted; it needs confirming like
    any version. Returns ``(sheet, created)``; ``UserError`` as ``submit_sheet``."""
    values, is_walkover, cards = values_of(entry)
    match = entry.match
    current = latest_sheet(match)
    sheet, created = submit_sheet(
        match,
        values,
        base_version=current.version if current else 0,
        is_walkover=is_walkover,
        user=user,
        ip=ip,
        device=device,
        player_cards=cards or None,
    )
    if created:
        HistoryEntry.objects.filter(match=match, sheet=sheet, action=HistoryEntry.Action.SUBMITTED).update(
            note=_("values of the save refused at %(at)s") % {"at": timezone.localtime(entry.at).strftime("%H:%M:%S")}
        )
    return sheet, created


def refuse_if_result_used(match):
    """``UserError`` when a game after the groups feeds a game that has started or has a result
    (``stages.is_frozen``): its result is used there, so a new version comes from the recorders'
    desk (with the out-of-date flow: docs/rules/stages.md, "Slots"), never from a court link
    (issue 18, item 5). Group games and games feeding nothing that started pass."""
    if match.is_group_match:
        return
    following = Match.objects.filter(pk__in=[pk for pk in (match.feeds_id, match.loser_feeds_id) if pk])
    used = [game for game in following.order_by("match_number") if stages.is_frozen(game)]
    if used:
        raise UserError(
            _("The result of game %(number)s is used by the next game (game %(next)s). Tell the recorders.")
            % {"number": match.match_number, "next": used[0].match_number}
        )


def _replaces_signed(match, current, restored_from) -> bool:
    """Whether a new version corrects one a leader signed (the event uses sign-off; an
    organiser's restore is the desk's own act, not a correction from the court)."""
    return bool(match.event.leaders_sign_off and current is not None and current.signed_by_any and not restored_from)


def _confirm(match, sheet, user, action):
    match.sheets.confirmed().exclude(pk=sheet.pk).update(is_confirmed=False)
    sheet.is_confirmed = True
    sheet.confirmed_by = user if user is not None and user.is_authenticated else None
    sheet.confirmed_at = timezone.now()
    sheet.save(update_fields=["is_confirmed", "confirmed_by", "confirmed_at"])
    match.status = Match.Status.WALKOVER if sheet.is_walkover else Match.Status.CONFIRMED
    match.winner_id = match.team_a_id if sheet.winner_side == rules.Side.A else match.team_b_id
    match.save(update_fields=["status", "winner"])
    HistoryEntry.objects.create(match=match, sheet=sheet, user=sheet.confirmed_by, action=action)
    refresh_slots(match.division, user=sheet.confirmed_by)
    result_confirmed.send(sender=Match, match=match, sheet=sheet)


def refresh_slots(division, *, user=None):
    """Fill the slots of ``division``'s knockout and placement games from their references.

    A game that has not started (``tournament.reports.stages.is_frozen``) gets the teams that
    fill its references now, once final (else nobody), with a ``TEAMS_CHANGED`` history entry
    naming both; a started or played game never changes (the read side reports it out of date
    until the organiser keeps or replays it). A team that already holds a side of another game of
    the same round (or of this game) is left out, and the read side reports the game as blocked
    (``stages.SlotSide.blocked_by``). An open game between a withdrawn team and a known
    opponent becomes a walkover for the opponent. Called in the transaction of every change a
    slot can depend on (docs/rules/stages.md, "Slots"). Returns the games whose teams changed.
    """
    changed, walkovers = [], []
    for state in stages.division_slots(division):
        match = state.match
        if state.frozen:
            continue
        new_a, new_b = state.a.settled_team, state.b.settled_team  # a clashing team is left out
        if (new_a, new_b) != (match.team_a_id, match.team_b_id):
            old = (match.team_a, match.team_b)
            match.team_a_id, match.team_b_id, match.kept_teams = new_a, new_b, ""
            match.save(update_fields=["team_a", "team_b", "kept_teams"])
            match.refresh_from_db(fields=["team_a", "team_b"])
            HistoryEntry.objects.create(
                match=match, user=user, action=HistoryEntry.Action.TEAMS_CHANGED, note=_teams_note(old, match)
            )
            changed.append(match)
        if match.teams_known and (match.team_a.withdrawn != match.team_b.withdrawn):
            walkovers.append(match)
    for match in walkovers:
        match = lock_match(match)
        if match.status == Match.Status.SCHEDULED and match.actual_start is None and match.teams_known:
            winner = rules.Side.B if match.team_a.withdrawn else rules.Side.A
            record_confirmed_result(match, walkover_values(match, winner), is_walkover=True, user=user)
    return changed


def _teams_note(old, match):
    """ "A: X → Y; B: …" for the history (at most 300 characters)."""
    parts = []
    for side, before, after in (("A", old[0], match.team_a), ("B", old[1], match.team_b)):
        if before != after:
            parts.append(f"{side}: {before or '—'} → {after or '—'}")
    return "; ".join(parts)[:300]


def replay_cutoff(match):
    """The newest version of ``match`` entered before its last replay (``REPLAYED`` history entry,
    whose ``sheet`` is the newest version then), or 0 when it was never replayed with a version.
    That version and every older one are history: never confirmed or restored again
    (docs/rules/stages.md, "Out of date: keep or replay")."""
    entry = (
        HistoryEntry.objects.filter(match=match, action=HistoryEntry.Action.REPLAYED, sheet__isnull=False)
        .order_by("-at", "-pk")
        .values_list("sheet__version", flat=True)
        .first()
    )
    return entry or 0


def refuse_if_before_replay(match, sheet):
    """``UserError`` when ``sheet`` was entered before ``match`` was replayed (``replay_cutoff``):
    「第1版は再試合の前に入力されたものです…」."""
    if sheet.version <= replay_cutoff(match):
        raise UserError(
            _(
                "Version %(v)s was entered before the game was replayed: it is history, not a result of "
                "the replay. Enter the result of the replay as a new version."
            )
            % {"v": sheet.version}
        )


def _check_confirmable(match, sheet):
    """``UserError`` unless ``sheet`` may be confirmed now: the newest version of a game that
    is not void and was not sent back (the rules of both ``confirm_sheet`` and
    ``confirm_own_sheet``), nor one entered before the game was replayed (``replay_cutoff``)."""
    refuse_if_before_replay(match, sheet)
    newest = latest_sheet(match)
    if newest.pk != sheet.pk:
        raise UserError(
            _("Version %(v)s is not the newest (version %(newest)s is); confirm the newest.")
            % {"v": sheet.version, "newest": newest.version}
        )
    if match.status == Match.Status.VOID:
        raise UserError(_("This game is void."))
    if sent_back(match) is not None:
        raise UserError(_("This version was sent back to the court; a new version must come first."))


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
        match = lock_match(sheet.match)
        sheet = RecordingSheet.objects.get(pk=sheet.pk)
        if is_submitter(sheet, user=user):
            raise UserError(_("You submitted this version, so someone else must confirm it."))
        _check_confirmable(match, sheet)
        if retyped is not None:
            differences = sheet.differences(retyped)
            if differences:
                raise Mismatch(differences)
        if sheet.is_confirmed:
            return sheet
        _confirm(match, sheet, user, HistoryEntry.Action.CONFIRMED)
    return sheet


def reject_sheet(sheet, user, reason=""):
    """A recorder rejects the newest version: the game is disputed until a new version comes.
    The reason is kept in the history and shown on the court's tablet (``sent_back``)."""
    with transaction.atomic():
        match = lock_match(sheet.match)
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


def sent_back(match):
    """Why the newest version of ``match`` was sent back (差し戻し): its ``REJECTED`` history
    entry (``note`` is the recorder's reason, ``at`` when), or None when the game is not
    disputed. The court's tablet shows it so the referee knows what to check (the sheet goes
    to the recorder, who checks it: docs/rules/hitachi-karuta.md, "The recording sheet")."""
    if match.status != Match.Status.DISPUTED:
        return None
    newest = latest_sheet(match)
    if newest is None:
        return None
    return (
        HistoryEntry.objects.filter(match=match, sheet=newest, action=HistoryEntry.Action.REJECTED)
        .order_by("-at", "-pk")
        .first()
    )


def may_confirm_own(event, user):
    """Whether ``user`` may confirm a version they entered themselves (a one-person desk):
    organisers always, recorders when the event allows it (``recorders_confirm_own``).
    In: an Event and a user; out: a bool. The recorder's check is the app's own step after
    docs/rules/hitachi-karuta.md, "The recording sheet" (the recorder collects the sheet)."""
    if event.is_organiser(user):
        return True
    return event.recorders_confirm_own and event.is_recorder(user)


def confirm_own_sheet(sheet, user):
    """A one-person confirmation: ``user`` confirms the newest version, which they entered.

    The desk's second step (the page that says it is a one-person confirmation) comes
    before; here the rules of ``confirm_sheet`` hold (newest version only, not void, not
    sent back) and the history records ``SELF_CONFIRMED``. Raises ``UserError`` when
    ``user`` did not enter the version (the ordinary confirmation is for that) or may not
    confirm their own entries (``may_confirm_own``). Returns the sheet. Rule:
    docs/rules/hitachi-karuta.md, "The recording sheet" (the sheet goes to the recorder).
    """
    match = sheet.match
    if not may_confirm_own(match.event, user):
        raise UserError(_("Only an organiser may confirm their own entry in this event."))
    with transaction.atomic():
        match = lock_match(match)
        sheet = RecordingSheet.objects.get(pk=sheet.pk)
        if not is_submitter(sheet, user=user):
            raise UserError(_("You did not enter this version: confirm it the ordinary way."))
        _check_confirmable(match, sheet)
        if sheet.is_confirmed:
            return sheet
        _confirm(match, sheet, user, HistoryEntry.Action.SELF_CONFIRMED)
    return sheet


def restore_version(sheet, user):
    """The organiser restores an earlier version: its values become a new version. A version
    entered before the game was replayed is refused (``refuse_if_before_replay``)."""
    refuse_if_before_replay(sheet.match, sheet)
    return submit_sheet(
        sheet.match,
        sheet.values if not sheet.is_walkover else rules.SheetValues(sheet.cards_a, sheet.cards_b, 0),
        is_walkover=sheet.is_walkover,
        user=user,
        restored_from=sheet,
        player_cards=dict(sheet.player_cards.values_list("player_id", "cards"))
        if sheet.match.event.individual_counts
        else None,
    )[0]


def void_match(match, user, reason=""):
    """The organiser voids a game (not played and not a walkover); it never counts.

    The games its winner (and loser) went on to follow at once: one not started loses the
    team, one started or played is shown out of date (docs/rules/stages.md, "Slots").
    """
    with transaction.atomic():
        match = lock_match(match)
        match.sheets.confirmed().update(is_confirmed=False)
        match.status = Match.Status.VOID
        match.winner = None
        match.save(update_fields=["status", "winner"])
        HistoryEntry.objects.create(match=match, user=user, action=HistoryEntry.Action.VOIDED, note=reason[:300])
        refresh_slots(match.division, user=user)


def reopen_match(match, user):
    """Undo a void: the game waits for a (new) result again."""
    with transaction.atomic():
        match = lock_match(match)
        if match.status != Match.Status.VOID:
            raise UserError(_("This game is not void."))
        match.status = Match.Status.SUBMITTED if match.sheets.exists() else Match.Status.SCHEDULED
        match.save(update_fields=["status"])
        HistoryEntry.objects.create(match=match, user=user, action=HistoryEntry.Action.REOPENED)
        refresh_slots(match.division, user=user)


def record_confirmed_result(match, values: rules.SheetValues, *, note="", **who):
    """Enter and confirm a result in one step; returns the confirmed :class:`RecordingSheet`.

    For results that need no second check by the desk: walkovers (不戦勝, a withdrawal or an
    absent team: ``docs/rules/hitachi-karuta.md`` "Walkovers"), the ``record_result``
    command (the desk's typed result) and rehearsals (``simulate_results``). ``values`` are
    the sheet's card counts and joker as :class:`judging.engine.rules.SheetValues`; a sheet
    the rules refuse raises the same errors as :func:`submit_sheet`. One transaction.
    """
    with transaction.atomic():
        sheet, _created = submit_sheet(match, values, **who)
        match.refresh_from_db()
        if not sheet.is_confirmed:
            _confirm(lock_match(match), sheet, None, HistoryEntry.Action.AUTO_CONFIRMED)
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


def mark_started(match, *, court=None, user=None):
    """The referee taps 開始 (Start): record the game's actual start, once.

    In: the game; ``court`` (the court link it was tapped on) or ``user`` for the history.
    Out: True when this tap started the game, False when it had started already (a second
    tap, or a result came first: ``submit_sheet`` stamps the start too). Opening a game's
    page never starts it (issue 15, item 8). Raises ``UserError`` for a game whose teams are
    not known or that is void or has a result. Each tap that starts the game writes a
    ``STARTED`` history line (a game started by its first result has that result's line).
    Rule: docs/rules/hitachi-karuta.md, "Start of a game".
    """
    with transaction.atomic():
        match = lock_match(match)
        if match.actual_start is not None:
            return False
        if not match.teams_known:
            raise UserError(_("Both teams of game %(number)s are not known yet.") % {"number": match.match_number})
        if not match.awaits_result:
            raise UserError(
                _("Game %(number)s has a result or is void; it cannot start.") % {"number": match.match_number}
            )
        match.actual_start = timezone.now()
        match.save(update_fields=["actual_start"])
        HistoryEntry.objects.create(
            match=match, court=court, user=user if user is not None and user.is_authenticated else None,
            action=HistoryEntry.Action.STARTED,
        )  # fmt: skip
    return True


# --- The leaders' sign-off and the photo of the paper sheet (issue 16, items 4 and 5) ---
