"""The house rules of the session form as choices: for each option of ``Options``, its label,
its choices (the default marked "(default)") and a help text naming the ambiguity it settles.

The session form builds one field per entry; ``forms.rules_summary`` names the choices that
differ from the defaults. Labels are lazy translations, read in the page's language.
"""

from django.utils.translation import gettext_lazy as _

from hanafuda.engine.options import (
    FlowerCards,
    FourBrights,
    FourPlayerDeal,
    InstaWinCheck,
    InstaWinPayment,
    LightningCard,
    Repeats,
    Storm,
    StormOnInstaWin,
    SunTiming,
    Suppression,
    TeamDealer,
    TeamPayment,
    TieRule,
)

# The house rules of ``Options``: field → (label, choices, help text citing the source).
# "Mn" is the ambiguity n of docs/rules/musashino-bana.md s.2.4; "musashino-bana.md l.n" a line of the
# FudaWiki page copied there.
OPTION_CHOICES = {
    "four_brights": (
        _("Four Brights"),
        [
            (FourBrights.LIGHTNING, _("Crane, Full moon, Lightning, Phoenix (default)")),
            (FourBrights.CURTAIN, _('Crane, Full moon, Curtain, Phoenix ("some players at the time")')),
        ],
        _("Which four cards make Four Brights (M4)."),
    ),
    "lightning": (
        _("Lightning card"),
        [
            (LightningCard.WILLOW_CHAFF, _("the willow chaff with the lightning (modern deck, default)")),
            (LightningCard.RAIN_MAN, _("the Rain man (old Musashino deck)")),
        ],
        _("Old Musashino decks draw the lightning on the Rain man (M16)."),
    ),
    "flower_cards": (
        _("Three Red / Three Purple Flowers"),
        [
            (FlowerCards.CHAFF_EXCEPT_YELLOW, _("chaff only, not the yellow paulownia chaff (default)")),
            (FlowerCards.CHAFF, _("chaff only, the yellow paulownia chaff allowed")),
            (FlowerCards.ANY_CARD, _("any card of each month")),
        ],
        _("Which cards of each month count (M6)."),
    ),
    "suppression": (
        _("Suppression"),
        [
            (Suppression.FOUR_BRIGHTS_ONLY, _("only Four Brights drops Three Brights (default)")),
            (Suppression.SUBSET_OF_HIGHER, _("any dekiyaku inside a higher one is dropped")),
        ],
        _("Both give the same scores with the standard compositions (M5)."),
    ),
    "repeats": (
        _("The same dekiyaku twice"),
        [
            (Repeats.ONCE, _("counts once (default)")),
            (Repeats.PER_DISJOINT_SET, _("counts once per separate set of cards")),
        ],
        _("E.g. Flower Banquet with both the Curtain and the cherry ribbon (M8)."),
    ),
    "storm": (
        _("Storm rule"),
        [
            (Storm.OFF, _("off (default)")),
            (Storm.A, _("A: the opponents cannot use the Full moon, Curtain and cherry ribbon")),
            (Storm.B, _("B: the opponents lose Moon and Flower Banquet")),
        ],
        _("The Rain man and the Lightning hurt the other sides (M11)."),
    ),
    "sun_timing": (
        _("Sun rule timing"),
        [
            (SunTiming.ANY_ORDER, _("the Crane anywhere with an opponent cancels the storm card (default)")),
            (
                SunTiming.AFTER_STORM_CARD,
                _("only a Crane captured after the storm card (rounds are entered capture by capture)"),
            ),
            (SunTiming.CRANE_HOLDER_ONLY, _("the Crane protects only its holder")),
        ],
        _("When the Crane cancels a storm card (M10)."),
    ),
    "storm_insta_win": (
        _("Storm and insta-wins"),
        [
            (StormOnInstaWin.NOT_AFFECTED, _("insta-wins are never blocked (default)")),
            (
                StormOnInstaWin.BLOCKED_WHEN_FORMED,
                _("blocked under Storm A when formed (rounds are entered capture by capture)"),
            ),
        ],
        _("Whether the Storm rule can block Five Kings or Seven Red Ribbons (M9)."),
    ),
    "insta_win_payment": (
        _("Insta-win payment"),
        [
            (InstaWinPayment.EACH_SIDE, _("each other side pays the value (default)")),
            (InstaWinPayment.SHARED, _("the value in total, shared by the losers")),
        ],
        _("Who pays an insta-win, and how much (M1)."),
    ),
    "insta_win_check": (
        _("Insta-win check"),
        [
            (InstaWinCheck.AFTER_EACH_CAPTURE, _("after each capture (default)")),
            (InstaWinCheck.END_OF_TURN, _("at the end of the turn")),
        ],
        _("When an insta-win is looked for; the payment is the same either way (M12)."),
    ),
    "tie_rule": (
        _("Tie for the top score"),
        [
            (TieRule.LEADER, _("the tied side first in turn order from the dealer wins (default)")),
            (TieRule.ALL_TIED_WIN, _("every tied side wins")),
            (TieRule.NO_SETTLEMENT, _("nobody pays")),
        ],
        _("Two or more sides with the same top score (M3)."),
    ),
    "team_payment": (
        _("Team payments"),
        [
            (TeamPayment.TEAM_LEDGER, _("the losing team pays once (default)")),
            (TeamPayment.EACH_PLAYER, _("each losing player pays each winning player")),
        ],
        _("Teams only (M13)."),
    ),
    "team_dealer": (
        _("Dealer in team play"),
        [
            (TeamDealer.PARTNERS_TAKE_TURNS, _("the partners take turns each time their team deals (default)")),
            (TeamDealer.SAME_PLAYER, _("the partner who dealt first always deals for the team")),
        ],
        _("Teams only: the winning team deals the next round; the source does not say which partner (M17)."),
    ),
    "four_player_deal": (
        _("Four-player deal"),
        [
            (FourPlayerDeal.FIVE_EIGHT, _("5 each and 8 on the table (default)")),
            (FourPlayerDeal.SIX_ZERO, _("6 each and none on the table")),
        ],
        _("It does not change the scoring (M14)."),
    ),
}
