"""Recording sheets of chosen matches as a PDF: reads the matches, hands plain
:class:`judging.paper.recording_sheet.SheetMatch` records to the renderer."""

from django.core.exceptions import ObjectDoesNotExist
from django.urls import reverse
from django.utils.translation import gettext as _

from judging.paper.recording_sheet import SheetMatch, recording_sheets_pdf
from tournament.models import Match
from tournament.reports import division_game_slots


def stage_text(match):
    """The stage as printed on the sheet: 「予選リーグ」 (translated "Group stage") or the
    stage's display name (準決勝, 決勝 …)."""
    if match.stage == Match.Stage.GROUP:
        return _("Group stage")
    return str(match.get_stage_display())


def sheet_matches(event, matches, base_url=""):
    """Plain :class:`SheetMatch` records for the ``matches`` (a queryset), in match-number order.

    The QR code of each sheet holds the ASCII URL of the match's entry page on its court
    link (``base_url`` + path); a match with no court gets no QR code. A knockout or placement
    side without a team prints its slot's words (「Aリーグ 1位」) small in its box.
    """
    sheets = []
    loaded = list(
        matches.select_related(
            "division", "group", "court", "team_a", "team_b", "referee_assignment__referee"
        ).order_by("match_number")
    )
    slots = _slots(loaded)
    for m in loaded:
        game = slots.get(m.pk)
        url = None
        if m.court is not None:
            url = base_url + reverse("judging:court_entry", args=[m.court.token, m.match_number])
        sheets.append(
            SheetMatch(
                event_name=event.name,
                edition=event.edition,
                event_date=event.date,
                japanese_era=event.japanese_era,
                division=m.division.name,
                stage=stage_text(m),
                group=_("Group %(name)s") % {"name": m.group.name} if m.group else "",
                court=str(m.court) if m.court else "",  # 「第1コート」 (docs/glossary.md)
                match_number=m.match_number,
                start=m.start_at,
                team_a=m.team_a.name if m.team_a else None,
                team_b=m.team_b.name if m.team_b else None,
                entry_url=url,
                card_total=event.card_total,
                slot_a=game.a.label if game else "",
                slot_b=game.b.label if game else "",
                referee=_referee(m),
            )
        )
    return sheets


def _referee(match):
    """The name of the referee the people app assigned to ``match`` (its reverse relation
    ``referee_assignment``; issue 32), "" for none."""
    try:
        return match.referee_assignment.referee.name
    except ObjectDoesNotExist:
        return ""


def _slots(matches):
    """Match pk -> ``GameSlots`` of the knockout and placement games among ``matches``."""
    slots = {}
    for division in {m.division_id: m.division for m in matches if m.stage != Match.Stage.GROUP}.values():
        slots.update(division_game_slots(division))
    return slots


def event_sheets_pdf(event, matches, base_url="", per_page=1):
    """The recording sheets (記録用紙) of ``matches`` as PDF bytes, one match per sheet
    (``per_page`` 1) or two per A4 page (``per_page`` 2).

    Raises ``ValueError`` for a non-ASCII entry URL; a character the font lacks prints
    from a fallback font or as 〓 (``common.pdf.fallback``).
    """
    return recording_sheets_pdf(sheet_matches(event, matches, base_url), per_page=per_page)
