"""The work behind the Sanjô Dôsai screens: sessions, dealing, calls, the ledger.

The editions (the points of the efuda) are ``dosai.editions``, what the reader screen shows
is ``dosai.reader``.

Views call these functions; they hold the rules of storage and leave the rules of play to
``dosai.engine`` (hand, calls, settlement) and the card table to ``dosai.engine.cards``. A
hand stores only what was observed (layout, holdings, calls); ``replay`` derives its state,
every payment and the ledger by running the engine again (``new_hand`` + ``call`` +
``settle_hand``), so an undo is exact.

Every change runs in ``transaction.atomic`` and either saves all of it or nothing; refusals
raise ``DosaiError`` (``dosai.errors``, a ``common.errors.UserError``) with a message fit for
the screen; the engine's refusals (``ValueError``) are translated into it here.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from dosai.editions import edition_status
from dosai.engine import cards
from dosai.engine.calls import CallResult, call, hand_over
from dosai.engine.facts import (
    HOUSE_COUNT,
    IN_PLAY,
    MAX_HOUSES_PER_PLAYER,
    MIN_PLAYERS,
    NEVER_EATEN,
    REMOVED_BEFORE_PLAY,
    ROW_SIZES,
    SUBJECT_NUMBERS,
    Row,
)
from dosai.engine.hand import HandState, House, PendingEat, house_in_dealt_order, new_hand
from dosai.engine.options import EndFreeTurn, OptionError, Options, options_as_dict, options_from_dict
from dosai.engine.settlement import Settlement, net_by_player, settle_hand, total_payments
from dosai.errors import DosaiError, StaleForm
from dosai.models import ClubEdition, Hand, Session

_RNG = random.SystemRandom()
ROWS = ("head", "upper", "middle", "lower")


# --- sessions ---------------------------------------------------------------------------------


def create_session(owner, title: str, edition: ClubEdition, players: Sequence[str], options: Options) -> Session:
    """A session of 3–6 players (sanjo-dosai.md l.66; six houses, at most two per player, l.74) with
    its house rules (``Options``, stored with ``options_as_dict``)."""
    names = [p.strip() for p in players if p and p.strip()]
    if not MIN_PLAYERS <= len(names) <= HOUSE_COUNT:
        raise DosaiError(_("A session has three to six players."))
    if len(set(names)) != len(names):
        raise DosaiError(_("Give each player a different name."))
    if edition.owner_id != owner.pk and not owner.is_superuser:
        raise DosaiError(_("Choose one of your editions."))
    return Session.objects.create(
        owner=owner, title=title.strip(), edition=edition, players=names, options=options_as_dict(options)
    )


def rename_session(session: Session, title: str) -> Session:
    """Give a session a new title."""
    title = (title or "").strip()
    if not title:
        raise DosaiError(_("Give the session a title."))
    session.title = title
    session.save(update_fields=["title"])
    return session


@dataclass(frozen=True)
class SessionContents:
    """What deleting a session loses: its hands, each with the calls recorded in it."""

    hands: tuple[tuple[int, int, bool], ...]  # (number, calls recorded, over) per hand

    @property
    def calls(self) -> int:
        return sum(calls for _number, calls, _over in self.hands)


def session_contents(session: Session) -> SessionContents:
    """The hands of a session and their calls, read without replaying them."""
    per_hand = session_options(session).calls_per_hand
    rows = session.hands.order_by("number").values_list("number", "calls")
    return SessionContents(tuple((number, len(calls), len(calls) >= per_hand) for number, calls in rows))


@transaction.atomic
def delete_session(session: Session, *, hands: int, calls: int) -> str:
    """Delete a session with its hands and their calls. ``hands`` and ``calls`` are what the
    confirmation page listed: if the session has changed since (another tablet recorded a
    call or dealt a hand), StaleForm and nothing is deleted. Returns the title."""
    session = Session.objects.select_for_update().get(pk=session.pk)
    now = session_contents(session)
    if (len(now.hands), now.calls) != (hands, calls):
        raise StaleForm(
            _(
                "The session changed since this page was shown (a call recorded or a hand dealt on another tablet). Nothing was deleted: check what is listed now."
            )
        )
    title = session.title
    session.delete()
    return title


def session_options(session: Session) -> Options:
    return options_from_dict(session.options)


def options_from_form(values: Mapping[str, object]) -> Options:
    """The ``Options`` of a new session from the form's choices (option name -> value).

    DosaiError (the engine's message, naming the option) when the engine refuses them."""
    try:
        return Options(**values)
    except OptionError as exc:
        raise DosaiError(str(exc)) from exc


def deal_numeral_cards(players: Sequence[str], rng=None) -> dict[str, list[str]]:
    """Hand out the six black numeral cards round the table, so each player takes the
    matching house(s): with fewer than six players some take two (sanjo-dosai.md l.72–74).

    Input: the players in seating order. Output: player -> house names ("1".."6")."""
    rng = rng or _RNG
    numerals = [str(n) for n in range(1, HOUSE_COUNT + 1)]
    rng.shuffle(numerals)
    holdings = {p: [] for p in players}
    for i, numeral in enumerate(numerals):
        holdings[players[i % len(players)]].append(numeral)
    return {p: sorted(h, key=int) for p, h in holdings.items()}


def deal_houses(rng=None) -> list[dict]:
    """Shuffle the 60 efuda in play (nos. 8 and 23 out, sanjo-dosai.md l.67) into six houses of ten
    (sanjo-dosai.md l.68), laid out in dealt order (``house_in_dealt_order``, D18)."""
    rng = rng or _RNG
    efuda = sorted(IN_PLAY)
    rng.shuffle(efuda)
    houses = []
    for i in range(HOUSE_COUNT):
        house = house_in_dealt_order(str(i + 1), efuda[i * 10 : (i + 1) * 10])
        houses.append(_house_dict(house))
    return houses


def _house_dict(house: House) -> dict:
    return {"name": house.name, **{row: list(house.row(row)) for row in ROWS}}


def _house_of(data: Mapping) -> House:
    return House(data["name"], *(tuple(data[row]) for row in ROWS))


def check_layout(
    houses: Sequence[Mapping], holders: Mapping[str, str], players: Sequence[str]
) -> list[tuple[str, str]]:
    """Check six houses entered as laid out on the table.

    Input: the houses ({"name", "head", "upper", "middle", "lower"} with lists of numbers),
    house name -> player, the session's players. Output: (field key, message) for each
    problem, the key being "<house>_<row>", "<house>_holder" or "" for the whole layout;
    empty when the 60 efuda in play are there exactly once (sanjo-dosai.md l.67–68), each row has its
    size (sanjo-dosai.md l.76) and each player holds one or two houses (sanjo-dosai.md l.74)."""
    problems: list[tuple[str, str]] = []
    seen: dict[int, str] = {}
    row_names = {"head": _("head"), "upper": _("upper row"), "middle": _("middle row"), "lower": _("lower row")}
    for house in houses:
        name = house["name"]
        for row in ROWS:
            numbers = house[row]
            size = ROW_SIZES[Row(row)]
            where = _("house %(house)s, %(row)s") % {"house": name, "row": row_names[row]}
            if len(numbers) != size:
                problems.append(
                    (
                        f"{name}_{row}",
                        _("%(where)s: %(size)s card(s) needed, %(count)s given")
                        % {"where": where, "size": size, "count": len(numbers)},
                    )
                )
            for n in numbers:
                if n not in SUBJECT_NUMBERS:
                    problems.append(
                        (
                            f"{name}_{row}",
                            _("%(where)s: %(n)s is not an efuda number (1–62)") % {"where": where, "n": n},
                        )
                    )
                elif n in REMOVED_BEFORE_PLAY:
                    problems.append(
                        (f"{name}_{row}", _("%(where)s: no. %(n)s is removed before play") % {"where": where, "n": n})
                    )
                elif n in seen:
                    problems.append(
                        (
                            f"{name}_{row}",
                            _("%(where)s: no. %(n)s is already in %(other)s")
                            % {"where": where, "n": n, "other": seen[n]},
                        )
                    )
                else:
                    seen[n] = where
    missing = sorted(IN_PLAY - set(seen))
    if missing and not problems:
        problems.append(("", _("These efuda are missing: %(numbers)s") % {"numbers": ", ".join(map(str, missing))}))
    counts = {p: 0 for p in players}
    for house in houses:
        player = holders.get(house["name"])
        if player not in counts:
            problems.append(
                (f"{house['name']}_holder", _("house %(house)s: choose who holds it") % {"house": house["name"]})
            )
        else:
            counts[player] += 1
    for player, count in counts.items():
        if count == 0:
            problems.append(("", _("%(player)s holds no house") % {"player": player}))
        elif count > MAX_HOUSES_PER_PLAYER:
            problems.append(
                ("", _("%(player)s holds %(count)s houses; at most two") % {"player": player, "count": count})
            )
    return problems


@transaction.atomic
def start_hand(session: Session, *, dealing: str, reader: str, houses=None, holders=None, rng=None) -> Hand:
    """Start the next hand of a session.

    dealing "app": the app shuffles the efuda into houses and deals the numeral cards
    (``deal_houses``, ``deal_numeral_cards``); "entered": ``houses`` and ``holders`` as laid
    out on the table (checked by ``check_layout``). reader "app": the yomifuda are shuffled
    now and stored (the app reads); "human": the reader's calls are tapped in.
    Refused (DosaiError, nothing saved) while the edition is not ready (issue 10: a hand
    cannot start until the 60 efuda in play have values) or the previous hand is not over.
    The pool a previous hand left (D13 CARRY_POOL) is carried in."""
    rng = rng or _RNG
    session = Session.objects.select_for_update().get(pk=session.pk)
    options = session_options(session)
    status = edition_status(session.edition)
    if not status.ready:
        raise DosaiError(
            _("The edition “%(name)s” is not ready: every efuda in play needs its value first.")
            % {"name": session.edition.name}
        )
    points = cards.points_in_play(status.edition)
    last = session.hands.order_by("-number").first()
    carried = 0
    if last is not None:
        previous = replay(last)
        if not previous.over:
            raise DosaiError(_("Hand %(number)s is not over yet.") % {"number": last.number})
        carried = previous.settlement.pool_out
    if dealing == Hand.DEAL_APP:
        laid = deal_houses(rng)
        holdings = deal_numeral_cards(session.players, rng)
    elif dealing == Hand.DEAL_ENTERED:
        laid = [dict(h) for h in houses or ()]
        holders = dict(holders or {})
        problems = check_layout(laid, holders, session.players)
        if problems:
            raise DosaiError("; ".join(message for _key, message in problems))
        holdings = {p: [h["name"] for h in laid if holders[h["name"]] == p] for p in session.players}
    else:
        raise DosaiError(_("Choose how the houses are dealt."))
    if reader not in dict(Hand.READERS):
        raise DosaiError(_("Choose who reads."))
    order = None
    if reader == Hand.READ_APP:
        order = sorted(options.yomifuda)
        rng.shuffle(order)
    try:
        new_hand([_house_of(h) for h in laid], points, options, holdings=holdings, carried_pool=carried)
    except ValueError as exc:
        raise DosaiError(str(exc)) from None
    return Hand.objects.create(
        session=session,
        number=(last.number + 1) if last else 1,
        dealing=dealing,
        reader=reader,
        houses=laid,
        holdings=holdings,
        points={str(n): p for n, p in sorted(points.items())},
        reading_order=order,
        calls=[],
        carried_pool=carried,
    )


# --- replay -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallLine:
    """One call of the ledger: the engine's result, the subject read and each house's
    running total after it."""

    result: CallResult
    subject: cards.Subject
    running: Mapping[str, int]
    pending_before: PendingEat | None  # the eat waiting when this call was read

    @property
    def no2_saved(self) -> bool:
        """No. 2 was read while an eat was pending: it is never eaten (sanjo-dosai.md l.87)."""
        return self.pending_before is not None and self.result.number == NEVER_EATEN


@dataclass(frozen=True)
class HandReplay:
    """A hand derived from its stored layout and calls (see ``replay``)."""

    hand: Hand
    options: Options
    owners: Mapping[str, str]
    initial: HandState
    lines: tuple[CallLine, ...]
    state: HandState
    settlement: Settlement | None
    house_totals: Mapping[str, int]
    player_totals: Mapping[str, int]

    @property
    def over(self) -> bool:
        return hand_over(self.state, self.options)

    @property
    def calls_made(self) -> int:
        return self.state.calls_made

    @property
    def calls_left(self) -> int:
        return self.options.calls_per_hand - self.state.calls_made

    @property
    def last(self) -> CallLine | None:
        return self.lines[-1] if self.lines else None

    @property
    def next_is_hako(self) -> bool:
        return (self.state.hako_count + 1) % self.options.hako_every == 0

    @property
    def next_number(self) -> int | None:
        """The yomifuda the app reads next (app reader only), None when over."""
        order = self.hand.reading_order
        if not order or self.over:
            return None
        return order[len(self.hand.calls)]

    @property
    def unread(self) -> list[int]:
        """The yomifuda not read yet, in number order."""
        return sorted(self.options.yomifuda - self.state.called)


def subject(number: int) -> cards.Subject:
    """Number, proverb and notes of a subject (the proverbs are the same in every edition)."""
    return cards.MATSUI_TENGUDO.subject(number)


def replay(hand: Hand) -> HandReplay:
    """Rebuild a hand with the engine: ``new_hand`` from the stored layout, points, holdings
    and carried pool, ``call`` for each stored call, ``settle_hand`` once the hand is over
    (sanjo-dosai.md l.94–96). Output: a ``HandReplay`` with each call's payments and running totals, the
    settlement, and the totals per house and per player (``net_by_player``)."""
    options = session_options(hand.session)
    houses = [_house_of(h) for h in hand.houses]
    points = {int(k): v for k, v in hand.points.items()}
    state = new_hand(houses, points, options, holdings=hand.holdings, carried_pool=hand.carried_pool)
    initial = state
    running = {h.name: 0 for h in houses}
    lines = []
    for number in hand.calls:
        pending = state.pending_eat
        result = call(state, number, options)
        for house, amount in result.payments.items():
            running[house] += amount
        lines.append(CallLine(result, subject(number), dict(running), pending))
        state = result.state
    settlement = None
    if hand_over(state, options):
        turn = None if options.end_free_turn is EndFreeTurn.AUTOMATIC else list(hand.turn_free or [])
        settlement = settle_hand(state, options, turn_free=turn)
    items = [line.result for line in lines] + ([settlement] if settlement else [])
    totals = {h.name: 0 for h in houses}
    for house, amount in total_payments(items).items():
        totals[house] += amount
    owners = {h: p for p, hs in hand.holdings.items() for h in hs}
    return HandReplay(
        hand=hand,
        options=options,
        owners=owners,
        initial=initial,
        lines=tuple(lines),
        state=state,
        settlement=settlement,
        house_totals=totals,
        player_totals=net_by_player(totals, hand.holdings),
    )


def hand_state(hand: Hand, *, later: bool) -> dict:
    """What a second screen of the same hand compares with what it shows (``state.json``):
    the calls recorded (the count every form of the reader screen sends as ``expected``),
    whether the hand is over, whether a later hand has started (then nothing changes any
    more) and the nos. 46/50 turned free by choice (D12). Reads no more than the hand row."""
    calls = len(hand.calls)
    return {
        "calls": calls,
        "over": calls >= session_options(hand.session).calls_per_hand,
        "later": bool(later),
        "turn_free": sorted(hand.turn_free or []),
    }


# --- calls ------------------------------------------------------------------------------------


def _locked(hand: Hand, expected: int) -> Hand:
    hand = Hand.objects.select_for_update().select_related("session").get(pk=hand.pk)
    if expected != len(hand.calls):
        raise StaleForm(
            _(
                "This screen was out of date: it showed %(shown)s calls, the hand now has %(made)s (another screen or a second tap). Nothing was changed; check the ledger."
            )
            % {"shown": expected, "made": len(hand.calls)}
        )
    if hand.session.hands.filter(number__gt=hand.number).exists():
        raise DosaiError(_("A later hand has started; this hand can no longer change."))
    return hand


@transaction.atomic
def record_call(hand: Hand, number: int | None, expected: int) -> HandReplay:
    """Record the next call of a hand (sanjo-dosai.md l.79–88).

    ``expected`` is the number of calls the screen showed: a form made for another count (a
    double submit) raises StaleForm and records nothing. With the app reading, ``number`` is
    ignored and the next yomifuda of the stored reading order is read. Raises DosaiError (the
    engine's refusal) for a number already read, removed (D2) or after the last call."""
    hand = _locked(hand, expected)
    if hand.reading_order:
        if len(hand.calls) >= len(hand.reading_order):
            raise DosaiError(_("Every yomifuda has been read."))
        number = hand.reading_order[len(hand.calls)]
    options = session_options(hand.session)
    if number is None:
        raise DosaiError(_("Tap the number that was read."))
    before = replay(hand)
    if before.over:
        raise DosaiError(
            _("The hand is over: %(left)s yomifuda are left uncalled.") % {"left": options.uncalled_at_end}
        )
    if number in before.state.called:
        raise DosaiError(_("No. %(number)s was already read in this hand.") % {"number": number})
    if number not in options.yomifuda:
        raise DosaiError(_("No. %(number)s is not in the reading pile (D2).") % {"number": number})
    try:
        call(before.state, number, options)
    except ValueError as exc:
        raise DosaiError(str(exc)) from None
    hand.calls = [*hand.calls, number]
    hand.save(update_fields=["calls"])
    return replay(hand)


@transaction.atomic
def undo_last_call(hand: Hand, expected: int) -> int:
    """Take back the last call (a correction): the calls lose their last entry, and the
    ledger is rebuilt by ``replay``. A choice of 46/50 made at the end is dropped with it.
    Returns the number taken back; StaleForm when the screen was out of date."""
    hand = _locked(hand, expected)
    if not hand.calls:
        raise DosaiError(_("No call to undo."))
    number = hand.calls[-1]
    hand.calls = hand.calls[:-1]
    hand.turn_free = []
    hand.save(update_fields=["calls", "turn_free"])
    return number


@transaction.atomic
def set_turn_free(hand: Hand, numbers: Sequence[int]) -> HandReplay:
    """Under D12 CHOICE, the efuda 46 / 50 their holders turn free at the end (sanjo-dosai.md l.94)."""
    hand = Hand.objects.select_for_update().select_related("session").get(pk=hand.pk)
    options = session_options(hand.session)
    if options.end_free_turn is not EndFreeTurn.CHOICE:
        raise DosaiError(_("Nos. 46 and 50 are turned automatically with these rules (D12)."))
    if hand.session.hands.filter(number__gt=hand.number).exists():
        raise DosaiError(_("A later hand has started; this hand can no longer change."))
    current = replay(hand)
    if not current.over:
        raise DosaiError(_("The hand is not over yet."))
    try:
        settle_hand(current.state, options, turn_free=list(numbers))
    except ValueError as exc:
        raise DosaiError(str(exc)) from None
    hand.turn_free = sorted(set(numbers))
    hand.save(update_fields=["turn_free"])
    return replay(hand)


# --- totals -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionTotals:
    """Per hand and across hands: points per player and per house (numeral card 1–6)."""

    hands: tuple[HandReplay, ...]
    players: Mapping[str, int]
    houses: Mapping[str, int]


def session_totals(session: Session) -> SessionTotals:
    """Replay every hand of a session and add up the player and house totals."""
    replays = tuple(replay(h) for h in session.hands.select_related("session").order_by("number"))
    players = {p: 0 for p in session.players}
    houses: dict[str, int] = {}
    for r in replays:
        for p, v in r.player_totals.items():
            players[p] = players.get(p, 0) + v
        for h, v in r.house_totals.items():
            houses[h] = houses.get(h, 0) + v
    return SessionTotals(replays, players, dict(sorted(houses.items(), key=lambda kv: kv[0])))
