"""The work behind the hanafuda screens: sessions, rounds, corrections, derived state.

Responsible for: creating a session, recording / correcting / undoing a round (each in one
transaction, never half-saved), and ``session_state``: every round re-scored with the
engine (``hanafuda.engine.scoring``) from the stored captures, with the dealers derived (round 1:
the first dealer; round k + 1: the winner of round k, musashino-bana.md l.13) and the running totals and
settlement (``settle``). Nothing derived is stored, so a correction to round k changes the
dealers and totals of every later round.

Sides are the seat indices 0, 1, 2 (or 0, 1 for teams) in the engine; ``unit_label`` turns
a side or a player of the settlement into its name. A refusal raises a ``UserError``
(``RoundError``, ``SessionDataError``, ``HouseRulesError``) with a translated message that
names the problem; the engine's own exceptions are translated here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from hanafuda import labels
from hanafuda.engine.dealing import team_dealers
from hanafuda.engine.deck import CARD_BY_ID
from hanafuda.engine.formation import formed_dekiyaku
from hanafuda.engine.options import OptionError, Options, Players, TeamPayment
from hanafuda.engine.scoring import CapturesAfterInstaWin, CardsNotCaptured, RoundResult, score_round
from hanafuda.engine.settlement import Settlement, settle
from hanafuda.models import Round, RoundRevision, Session


class RoundError(UserError):
    """A round that cannot be recorded as entered; the message says why (translated)."""


class SessionDataError(RoundError):
    """The stored session is refused by the rules (its house rules, a round or the number of
    rounds, e.g. after an edit in the admin): its pages cannot be derived."""


class HouseRulesError(UserError):
    """House rules chosen on the session form that the engine refuses (translated message)."""


class RoundAlreadySaved(RoundError):
    """The round number was saved already (a double-submitted form)."""


# --- sessions ------------------------------------------------------------------------------


def house_rules(values: Mapping[str, object]) -> Options:
    """The ``Options`` of a session from the form's choices (field name -> value).

    ``HouseRulesError`` (translated, naming the option) when the engine refuses them."""
    try:
        return Options(**values)
    except OptionError as exc:
        raise HouseRulesError(_("These house rules do not fit together: %(error)s") % {"error": exc}) from exc


def stored_rules(session: Session) -> Options:
    """The session's stored house rules; ``SessionDataError`` when the engine refuses them
    (e.g. edited in the admin)."""
    try:
        return session.rules()
    except OptionError as exc:
        raise SessionDataError(_("The stored house rules are refused: %(error)s") % {"error": exc}) from exc


def create_session(
    owner,
    title: str,
    sides: Sequence[str],
    options: Options,
    *,
    first_dealer: int = 0,
    team_members: Sequence[Sequence[str]] = (),
    first_partner: int = 0,
    first_draws: Sequence[Sequence[tuple[str, int]]] = (),
) -> Session:
    """A new session owned by ``owner``.

    ``sides``: 3 player names, or 2 team names with ``team_members`` [[a, b], [c, d]]
    (musashino-bana.md l.4); ``options``: the house rules, whose ``rounds`` is 12, 6 or 3 (musashino-bana.md l.7);
    ``first_dealer``: the seat index of the first dealer (musashino-bana.md l.12); with teams
    ``first_partner`` (0 or 1) is the partner who deals first; ``first_draws``: the cards drawn
    for it (the first draw and the re-draws, each a list of (player name, card id)), kept to
    be shown. ``ValueError`` for inconsistent input. Options that need the capture order (M9(b), M10(b)) are accepted:
    each round is then entered capture by capture (``order_of_captures``).
    """
    sides = [str(s).strip() for s in sides]
    if len(sides) != options.sides:
        raise ValueError(f"{options.players.value} need {options.sides} sides, got {len(sides)}")
    if any(not s for s in sides) or len(set(sides)) != len(sides):
        raise ValueError("side names must be given and different")
    members = [[str(p).strip() for p in team] for team in team_members]
    if options.players is Players.TWO_TEAMS:
        flat = [p for team in members for p in team]
        if len(members) != 2 or any(len(t) != 2 for t in members) or len(set(flat)) != 4 or not all(flat):
            raise ValueError("two teams need two different players each")
    elif members:
        raise ValueError("team members are only for two teams")
    if not 0 <= first_dealer < len(sides):
        raise ValueError(f"first_dealer must be a seat from 0 to {len(sides) - 1}")
    with transaction.atomic():
        session = Session(
            owner=owner,
            title=title.strip(),
            sides=sides,
            team_members=members,
            options=options.as_dict(),
            first_dealer=first_dealer,
            first_partner=first_partner,
            first_draws=[[[str(name), int(card)] for name, card in draw] for draw in first_draws],
        )
        session.full_clean()
        session.save()
    return session


def sessions_for(user):
    """The sessions a user may open: their own; every session for a superuser."""
    qs = Session.objects.select_related("owner")
    return qs if user.is_superuser else qs.filter(owner=user)


def unit_label(session: Session, unit: Hashable) -> str:
    """The name of a side (seat index) or of a player (team payments per player, M13(b))."""
    return session.sides[unit] if isinstance(unit, int) else str(unit)


def _teams(session: Session) -> dict[int, tuple[str, str]] | None:
    if not session.is_teams:
        return None
    return {i: tuple(team) for i, team in enumerate(session.team_members)}


# --- scoring -------------------------------------------------------------------------------


def normalise_captures(session: Session, captures: Sequence[Sequence[int]]) -> list[list[int]]:
    """Captures as a list (one sorted list of card ids per seat); ``RoundError`` for a wrong shape."""
    if not isinstance(captures, (list, tuple)) or len(captures) != len(session.sides):
        raise RoundError(_("The captures must list the cards of each of the %(n)d sides.") % {"n": len(session.sides)})
    out = []
    owner: dict[int, int] = {}
    for seat, pile in enumerate(captures):
        ids = []
        for value in pile:
            if isinstance(value, bool) or not isinstance(value, int) or value not in CARD_BY_ID:
                raise RoundError(_("Unknown card %(card)r.") % {"card": value})
            if value in owner:
                raise RoundError(
                    _("%(card)s is given to both %(a)s and %(b)s.")
                    % {"card": labels.card_name(value), "a": session.sides[owner[value]], "b": session.sides[seat]}
                )
            owner[value] = seat
            ids.append(value)
        out.append(sorted(ids))
    return out


def _order_missing() -> RoundError:
    return RoundError(
        _("These house rules depend on when cards were captured: enter the captures in the order they happened.")
    )


def order_of_captures(session: Session, piles: Sequence[Sequence[int]], tapped: Sequence[int]) -> list[list]:
    """The captures in the order they happened, from the cards in the order they were tapped.

    ``piles``: one list of card ids per seat (``normalise_captures``); ``tapped``: every
    captured card once, first captured first. Cards tapped one after another that went to
    the same side and are of the same month form one capture (a turn's capture takes the
    played or drawn card and the matching card or cards of the table, musashino-bana.md s.1.2).

    Output: ``[[seat, [card ids]], ...]`` as stored in ``Round.capture_order``. ``RoundError``
    when a card is tapped twice, is not captured, a captured card is left out, or a capture
    does not take 2 or 4 cards.
    """
    if not tapped:
        raise _order_missing()
    seat_of = {c: seat for seat, pile in enumerate(piles) for c in pile}
    seen: set[int] = set()
    for value in tapped:
        if value not in CARD_BY_ID:
            raise RoundError(
                _(
                    "%(value)s is not a card number: a card's number is its month × 10 plus 0 to 3, as "
                    "shown on the cards (10 to 123)."
                )
                % {"value": value}
            )
        if value not in seat_of:
            raise RoundError(
                _("The order of captures lists %(card)s, which no side captured.")
                % {"card": labels.card_with_number(value)}
            )
        if value in seen:
            raise RoundError(
                _("The order of captures lists %(card)s twice.") % {"card": labels.card_with_number(value)}
            )
        seen.add(value)
    events = _grouped(seat_of, tapped)
    missing = [c for c in sorted(seat_of) if c not in seen]
    if missing:
        raise RoundError(
            _("The order of captures leaves out %(cards)s: enter every captured card in the order it was captured.")
            % {"cards": labels.join(labels.card_with_number(c) for c in missing)}
        )
    for k, (seat, cards) in enumerate(events, start=1):
        if len(cards) not in (2, 4):
            raise RoundError(
                _(
                    "Capture %(k)d (%(side)s, %(month)s) has %(n)d card(s): %(cards)s. A capture takes 2 or 4 cards "
                    "of one month."
                )
                % {
                    "k": k,
                    "side": session.sides[seat],
                    "month": labels.month_name(cards[0] // 10),
                    "n": len(cards),
                    "cards": labels.join(labels.card_with_number(c) for c in cards),
                }
            )
        cards.sort()
    return events


def _grouped(seat_of: Mapping[int, int], tapped: Sequence[int]) -> list[list]:
    """Cards tapped one after another for the same side and of the same month are one capture."""
    events: list[list] = []
    for card in tapped:
        seat = seat_of[card]
        if events and events[-1][0] == seat and events[-1][1][0] // 10 == card // 10:
            events[-1][1].append(card)
        else:
            events.append([seat, [card]])
    return events


def _precheck(session: Session, piles: list[list[int]], options: Options, ordered: bool = False) -> None:
    """The checks of ``score_round`` again, with messages in the players' words.

    With the order of captures (``ordered``) the engine finds the insta-win that stopped the
    round by replaying the captures, so two complete insta-wins are left to it (under
    M9(b) a blocked one does not stop the round).
    """
    for seat, pile in enumerate(piles):
        for month in range(1, 13):
            held = [c for c in pile if c // 10 == month]
            if len(held) % 2:
                raise RoundError(
                    _(
                        "%(side)s has %(n)d card(s) of %(month)s (%(cards)s). Every capture takes 2 or 4 cards "
                        "of one month, so a side holds 0, 2 or 4 cards of each month."
                    )
                    % {
                        "side": session.sides[seat],
                        "n": len(held),
                        "month": labels.month_name(month),
                        "cards": labels.join(labels.card_name(c) for c in held),
                    }
                )
    insta = [
        seat for seat, pile in enumerate(piles) if any(y.dekiyaku.insta_win for y in formed_dekiyaku(pile, options))
    ]
    if len(insta) > 1 and not ordered:
        raise RoundError(
            _(
                "%(sides)s both hold a complete insta-win dekiyaku (Five Kings or Seven Red Ribbons); the round "
                "stops at the first one, so only one side can."
            )
            % {"sides": "・".join(session.sides[s] for s in insta)}
        )
    if not insta:
        given = {c for pile in piles for c in pile}
        missing = [c for c in sorted(CARD_BY_ID) if c not in given]
        if missing:
            raise _not_captured(missing)


def _after_insta_win(session: Session, exc: CapturesAfterInstaWin) -> RoundError:
    return RoundError(
        _(
            "%(side)s formed %(yaku)s with capture %(k)d and the round stopped there, but captures were entered "
            "after it."
        )
        % {
            "side": session.sides[exc.side],
            "yaku": labels.join(labels.yaku_name(c) for c in exc.codes),
            "k": exc.index + 1,
        }
    )


def _not_captured(missing: Sequence[int], blocked: str = "") -> RoundError:
    """Cards left out of a round that no insta-win stopped (musashino-bana.md s.1.2); ``blocked``: the
    insta-win held at the end that the Storm rule blocked when it formed (M9(b))."""
    names = labels.join(labels.card_name(c) for c in missing[:8])
    if len(missing) > 8:
        names += _(" and %(n)d more") % {"n": len(missing) - 8}
    message = _(
        "%(n)d card(s) are not given to any side: %(cards)s. Without an insta-win the round ends when "
        "every card is captured, so all 48 cards must be given to a side."
    ) % {"n": len(missing), "cards": names}
    if blocked:
        message += " " + _(
            "%(yaku)s did not stop the round: the Storm rule blocked it when it formed, because an "
            "opponent held a storm card."
        ) % {"yaku": blocked}
    return RoundError(message)


def score(
    session: Session,
    piles: Sequence[Sequence[int]],
    dealer: int,
    options: Options | None = None,
    order: Sequence[Sequence] | None = None,
) -> RoundResult:
    """Score one round of the session with the engine (``score_round``).

    Input: one list of card ids per seat, the dealer's seat and, when the house rules need
    it (M9(b), M10(b)), ``order``: the captures as they happened (``order_of_captures``).
    Output: the ``RoundResult``. ``RoundError`` names the problem: a card given twice, an odd
    number of cards of a month (musashino-bana.md s.1.2), cards missing without an insta-win, two
    insta-wins or captures entered after the insta-win (musashino-bana.md l.34), a missing order.
    """
    options = options or stored_rules(session)
    piles = normalise_captures(session, piles)
    if options.needs_capture_order and not order:
        raise _order_missing()
    _precheck(session, piles, options, ordered=bool(order))
    try:
        return score_round(
            {seat: pile for seat, pile in enumerate(piles)},
            options,
            dealer=dealer,
            teams=_teams(session),
            capture_order=[(seat, cards) for seat, cards in order] if order else None,
        )
    except CardsNotCaptured as exc:
        held = [y for pile in piles for y in formed_dekiyaku(pile, options) if y.dekiyaku.insta_win]
        raise _not_captured(exc.missing, labels.join(labels.yaku_name(y.dekiyaku) for y in held)) from exc
    except CapturesAfterInstaWin as exc:
        raise _after_insta_win(session, exc) from exc
    except ValueError as exc:
        raise RoundError(_("The scoring rules refused the round: %(error)s") % {"error": exc}) from exc


def preview_round(
    session: Session, number: int, captures: Sequence[Sequence[int]], tapped: Sequence[int] = ()
) -> RoundResult:
    """Score the cards entered so far for round ``number``, as the grid shows them mid-entry.

    The engine scores the piles as they stand (``partial``: 1 or 3 cards of a month and
    cards not yet given are fine), with the round's dealer, and with the order of captures
    when the house rules need it (``tapped``, as ``record_round``). So the preview applies
    every rule the saved round will, the Storm and Sun rules included. Once the round looks
    complete (every card given, or an insta-win), the checks of saving run too. Nothing is
    saved. ``RoundError`` (translated) when the cards cannot be scored as they stand, or
    would be refused on saving.
    """
    options = stored_rules(session)
    state = session_state(session, options=options)
    played = next((r for r in state.rounds if r.number == number), None)
    dealer = played.dealer if played else state.next_dealer
    piles = normalise_captures(session, captures)
    events = None
    if options.needs_capture_order:
        seat_of = {c: seat for seat, pile in enumerate(piles) for c in pile}
        if sorted(tapped) != sorted(seat_of):
            raise RoundError(_("The order of captures does not match the cards given to the sides."))
        events = [(seat, cards) for seat, cards in _grouped(seat_of, tapped)]
    try:
        result = score_round(
            {seat: pile for seat, pile in enumerate(piles)},
            options,
            dealer=dealer,
            teams=_teams(session),
            capture_order=events,
            partial=True,
        )
    except CapturesAfterInstaWin as exc:
        raise _after_insta_win(session, exc) from exc
    except ValueError as exc:
        raise RoundError(_("These cards cannot be scored as they stand.")) from exc
    if result.insta_win is not None or sum(len(p) for p in piles) == len(CARD_BY_ID):
        # The round looks complete: the checks of saving, so a refusal shows before the save.
        score(session, piles, dealer, options, _order_for(session, piles, tapped, options))
    return result


@dataclass(frozen=True)
class RoundState:
    """One played round as derived: the stored row, its dealer (seat) and the engine's result."""

    number: int
    round: Round
    dealer: int
    result: RoundResult
    running: Mapping[Hashable, int]


@dataclass(frozen=True)
class SessionState:
    """Everything the screens and papers show, derived from the stored captures.

    ``rounds``: the played rounds in order; ``settlement``: ``settle()`` of their results;
    ``next_dealer``: the seat that deals the next round (musashino-bana.md l.13); ``next_number``: the
    number of the next round, or None when every planned round is played. ``dealer_names``:
    the player who deals each played round and then the next one (with teams, the partner
    named by the house rule M17).
    """

    session: Session
    options: Options
    rounds: tuple[RoundState, ...]
    settlement: Settlement
    next_dealer: int
    dealer_names: tuple[str, ...] = ()

    @property
    def next_dealer_name(self) -> str:
        return self.dealer_names[-1] if self.dealer_names else self.session.sides[self.next_dealer]

    @property
    def next_number(self) -> int | None:
        n = len(self.rounds) + 1
        return n if n <= self.options.rounds else None

    @property
    def complete(self) -> bool:
        return self.next_number is None

    @property
    def units(self) -> tuple[Hashable, ...]:
        """The ledger units: the seats, or the players under team payments per player (M13(b)),
        always in the order of the seats (issue 33: every column of totals on screen, sheet and
        Excel follows the players' columns, whatever order the first round paid in)."""
        per_player = self.options.players is Players.TWO_TEAMS and self.options.team_payment is TeamPayment.EACH_PLAYER
        if per_player:
            seats = tuple(p for team in self.session.team_members for p in team)
        else:
            seats = tuple(range(len(self.session.sides)))
        if not self.rounds:
            return seats
        settled = self.settlement.units
        return tuple(u for u in seats if u in settled) + tuple(u for u in settled if u not in seats)


def session_state(
    session: Session, rounds: Sequence[Round] | None = None, options: Options | None = None
) -> SessionState:
    """Re-score every stored round in order and settle the game (musashino-bana.md l.13, l.37; ``settle``).

    ``rounds`` defaults to the session's stored rounds (one query). Stored data the rules
    now refuse (the house rules, a round, more rounds than planned) raises
    ``SessionDataError`` naming it.
    """
    options = options or stored_rules(session)
    if rounds is None:
        rounds = list(session.round_set.order_by("number"))
    if len(rounds) > options.rounds:
        raise SessionDataError(
            _("%(played)d rounds are stored, but the game has %(n)d.") % {"played": len(rounds), "n": options.rounds}
        )
    dealer = session.first_dealer
    states = []
    results = []
    for row in rounds:
        try:
            result = score(session, row.captures, dealer, options, row.capture_order)
        except RoundError as exc:
            raise SessionDataError(_("Round %(n)d: %(error)s") % {"n": row.number, "error": exc}) from exc
        results.append(result)
        states.append((row, dealer, result))
        dealer = result.next_dealer
    settlement = settle(results, options)
    played = tuple(
        RoundState(row.number, row, d, result, settlement.running[i]) for i, (row, d, result) in enumerate(states)
    )
    seats = [r.dealer for r in played] + [dealer]
    return SessionState(session, options, played, settlement, dealer, dealer_names(session, seats, options))


def dealer_names(session: Session, seats: Sequence[int], options: Options) -> tuple[str, ...]:
    """The player dealing each round from the seat dealing it: the side's name for 3 players;
    for teams the partner the house rule M17 names (``dealing.team_dealers``)."""
    if not session.is_teams:
        return tuple(session.sides[s] for s in seats)
    partners = team_dealers(seats, session.first_partner, options.team_dealer)
    return tuple(session.team_members[s][p] for s, p in zip(seats, partners, strict=True))


# --- changes -------------------------------------------------------------------------------


def _locked(session: Session) -> Session:
    return Session.objects.select_for_update().get(pk=session.pk)


def record_round(
    session: Session, number: int, captures: Sequence[Sequence[int]], user=None, *, tapped: Sequence[int] = ()
) -> Round:
    """Save round ``number`` (it must be the next one) after scoring it with the derived dealer.

    ``tapped``: the captured cards in the order they were captured; used (and required)
    when the house rules depend on the order (``order_of_captures``), else ignored.
    ``RoundAlreadySaved`` when that round exists already (a form sent twice);
    ``RoundError`` when it is not the next round, the game is over, or the cards are wrong.
    Nothing is saved on error.
    """
    with transaction.atomic():
        session = _locked(session)
        state = session_state(session)
        if any(r.number == number for r in state.rounds):
            raise RoundAlreadySaved(_("Round %(n)d was saved already.") % {"n": number})
        if state.next_number is None:
            raise RoundError(_("All %(n)d rounds are played.") % {"n": state.options.rounds})
        if number != state.next_number:
            raise RoundError(
                _("The next round is round %(next)d, not %(n)d.") % {"next": state.next_number, "n": number}
            )
        piles = normalise_captures(session, captures)
        order = _order_for(session, piles, tapped, state.options)
        score(session, piles, state.next_dealer, state.options, order)
        try:
            with transaction.atomic():
                return Round.objects.create(
                    session=session, number=number, captures=piles, capture_order=order, entered_by=user
                )
        except IntegrityError as exc:
            raise RoundAlreadySaved(_("Round %(n)d was saved already.") % {"n": number}) from exc


def _order_for(session: Session, piles, tapped: Sequence[int], options: Options) -> list:
    """The order of captures to store: built from ``tapped`` when the rules need it, else empty."""
    if not options.needs_capture_order:
        return []
    return order_of_captures(session, piles, tapped)


def captures_token(captures, order=()) -> str:
    """A short fingerprint of a round's stored captures (and order of captures): a correction
    form carries the one it was opened on."""
    data = [captures, order] if order else captures
    return hashlib.sha256(json.dumps(data).encode()).hexdigest()[:16]


def tapped_order(order: Sequence[Sequence]) -> list[int]:
    """The stored order of captures as the card ids in order (what a correction form starts from)."""
    return [c for _seat, cards in order for c in cards]


def correct_round(
    session: Session,
    number: int,
    captures: Sequence[Sequence[int]],
    user=None,
    *,
    base: str | None = None,
    tapped: Sequence[int] = (),
) -> Round:
    """Replace the captures of a played round and keep the old ones in a ``RoundRevision``.

    ``tapped``: the captured cards in the order they were captured, when the house rules
    depend on it (see ``record_round``).

    The dealers and totals of the later rounds are re-derived by ``session_state``.
    ``base``: the ``captures_token`` of the captures the correction form showed; when the
    round was changed since (another scorer), ``RoundError`` and nothing is saved.
    ``RoundError`` for an unknown round or wrong cards; an unchanged entry saves nothing.
    """
    with transaction.atomic():
        session = _locked(session)
        row = session.round_set.filter(number=number).first()
        if row is None:
            raise RoundError(_("Round %(n)d is not entered.") % {"n": number})
        if base and base != captures_token(row.captures, row.capture_order):
            raise RoundError(
                _(
                    "Round %(n)d was changed by someone else while you were correcting it. "
                    "Check the round and correct it again."
                )
                % {"n": number}
            )
        piles = normalise_captures(session, captures)
        options = stored_rules(session)
        order = _order_for(session, piles, tapped, options)
        rounds = list(session.round_set.order_by("number"))
        dealer = session.first_dealer
        for r in rounds:  # the corrected round is scored with its derived dealer
            if r.number == number:
                score(session, piles, dealer, options, order)
                break
            dealer = score(session, r.captures, dealer, options, r.capture_order).next_dealer
        if piles == row.captures and order == row.capture_order:
            return row
        RoundRevision.objects.create(
            session=session,
            number=number,
            action=RoundRevision.CORRECTED,
            old_captures=row.captures,
            new_captures=piles,
            old_order=row.capture_order,
            new_order=order,
            changed_by=user,
        )
        row.captures = piles
        row.capture_order = order
        row.save(update_fields=["captures", "capture_order", "updated_at"])
        return row


def undo_last_round(session: Session, user=None) -> int:
    """Delete the last entered round (its captures stay in a ``RoundRevision``); its number.

    ``RoundError`` when no round is entered.
    """
    with transaction.atomic():
        session = _locked(session)
        row = session.round_set.order_by("-number").first()
        if row is None:
            raise RoundError(_("No round is entered yet."))
        RoundRevision.objects.create(
            session=session,
            number=row.number,
            action=RoundRevision.UNDONE,
            old_captures=row.captures,
            old_order=row.capture_order,
            changed_by=user,
        )
        row.delete()
        return row.number
