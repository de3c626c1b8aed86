"""Shared helpers of the hanafuda app tests: sessions and complete, possible rounds."""

from hanafuda import services
from hanafuda.engine.deck import CARD_BY_ID
from hanafuda.engine.options import Options, Players
from hanafuda.engine.scoring import score_round
from hanafuda.engine.settlement import settle


def months(*month_numbers):
    """All four cards of each month."""
    return [m * 10 + r for m in month_numbers for r in range(4)]


def full_round(*piles, rest=None):
    """Piles of a complete round: the given cards, and every card left over to side ``rest``."""
    piles = [sorted(p) for p in piles]
    if rest is not None:
        given = {c for p in piles for c in p}
        piles[rest] = sorted(piles[rest] + [c for c in CARD_BY_ID if c not in given])
    return piles


# Round shapes used by the tests (3 players). Every one is a possible, complete round.
ROUND_A = full_round(months(1, 3, 8, 12), months(2, 4, 11), [], rest=2)  # side 0: brights etc.
ROUND_B = full_round(months(6, 7, 10), months(1, 2), [], rest=2)
ROUND_C = full_round(months(1, 3, 5, 7), months(6, 9, 10, 11), [], rest=2)
# Seven Red Ribbons for side 1 stops the round (insta-win, musashino-bana.md l.34): no need for 48 cards.
INSTA = [[10, 12], [11, 13, 21, 22, 31, 32, 41, 42, 51, 52, 71, 72, 112, 113], [20, 23]]


def new_session(user, *, rounds=12, options=None, teams=False, title="花札の夕べ", first_dealer=0):
    if teams:
        options = options or Options(players=Players.TWO_TEAMS, rounds=rounds)
        return services.create_session(
            user,
            title,
            ["甲・丙", "乙・丁"],
            options,
            first_dealer=first_dealer,
            team_members=[["甲", "丙"], ["乙", "丁"]],
        )
    options = options or Options(rounds=rounds)
    return services.create_session(user, title, ["一郎", "二郎", "三郎"], options, first_dealer=first_dealer)


def engine_game(piles_per_round, options, first_dealer=0, teams=None):
    """The engine's own results and settlement for the same captures (dealer = last winner)."""
    dealer = first_dealer
    results = []
    for piles in piles_per_round:
        r = score_round(dict(enumerate(piles)), options, dealer=dealer, teams=teams)
        results.append(r)
        dealer = r.next_dealer
    return results, settle(results, options)
