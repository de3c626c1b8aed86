"""The MC's list (表彰式の読み上げ): per division, the prizes in the order of the ceremony, each
team with its members' names and furigana, so the MC pronounces every name right.

Read only, from ``awards.reports`` (the same prizes as the certificates). The order is the
settings' (lowest place first by default), then the individual prizes, then the prizes added by
hand (docs/rules/awards.md, "The MC's list"). Players' names: organiser outputs only.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from awards.models import AwardSettings
from awards.paper.mc_list import CallDivision, CallLine, CallMember, mc_list_pdf
from awards.reports import HAND, INDIVIDUAL, PLACE, event_awards, members, played_player_ids
from common.pdf.coverage import unprintable_notes
from tournament.printing import event_info


def _line(prize, settings, played):
    """One call: the prize, the team, and who goes up (the prize's player, or the members)."""
    people = [prize.player] if prize.player is not None else members(prize.team, settings, played)
    tie = _("tie: %(n)s players") % {"n": prize.tied} if prize.tied > 1 else ""
    affiliation = "" if prize.team.name.startswith(prize.team.affiliation) else prize.team.affiliation
    texts = [prize.name, prize.team.name, affiliation] + [t for p in people for t in (p.name, p.furigana)]
    return CallLine(
        prize=prize.name,
        label=prize.label,
        note=tie,
        team=prize.team.name,
        affiliation=affiliation,
        members=[CallMember(p.name, p.furigana) for p in people],
        font_notes=tuple(unprintable_notes(texts)),
    )


def ceremony(event, settings=None) -> list[CallDivision]:
    """The MC's list of ``event``: ``[CallDivision]`` in division order, each with its calls in
    ceremony order: the places (lowest first, or the champion first, as set; a shared place
    keeps the order of the results), the individual prizes, the prizes added by hand. A division
    not finished has its reason as ``note`` and only its prizes added by hand. Raises nothing."""
    settings = settings or AwardSettings.for_event(event)
    played = played_player_ids(event)
    result = []
    for entry in event_awards(event, settings=settings):
        places = [p for p in entry.prizes if p.kind == PLACE]
        if settings.ceremony_order == AwardSettings.Order.LOWEST_FIRST:
            places = sorted(places, key=lambda p: -p.rank)
        others = [p for p in entry.prizes if p.kind == INDIVIDUAL] + [p for p in entry.prizes if p.kind == HAND]
        lines = [_line(p, settings, played) for p in places + others]
        note = "" if entry.finished else _("Not finished: %(reason)s") % {"reason": entry.reason}
        result.append(CallDivision(entry.division.name, note, lines))
    return result


def no_reading_count(divisions: list[CallDivision]) -> int:
    """How many names on the MC's list (each call counted) have no furigana registered, for the
    warning at the top of the page (issue 19 re-check: every name pronounced right)."""
    return sum(m.no_reading for d in divisions for line in d.lines for m in line.members)


def ceremony_pdf(event, settings=None) -> bytes:
    """The MC's list as a PDF (A4 portrait, large type, furigana above each name)."""
    return mc_list_pdf(event_info(event), ceremony(event, settings))
