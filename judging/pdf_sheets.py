"""Recording sheets of chosen games as a PDF: reads the games, hands plain data to ``pdf``."""

from django.urls import reverse
from django.utils.translation import gettext as _

from judging.pdf import SheetGame, recording_sheets_pdf
from tournament.models import Match


def stage_text(match):
    if match.stage == Match.Stage.GROUP:
        return _("Group stage")
    return str(match.get_stage_display())


def sheet_games(event, matches, base_url=""):
    """Plain ``SheetGame`` records for the matches, in match-number order.

    The QR code of each sheet holds the ASCII URL of the game's entry page on its court
    link; a game with no court gets no QR code.
    """
    games = []
    for m in matches.select_related("division", "group", "court", "team_a", "team_b").order_by("match_number"):
        url = None
        if m.court is not None:
            url = base_url + reverse("judging:court_entry", args=[m.court.token, m.match_number])
        games.append(
            SheetGame(
                event_name=event.name,
                edition=event.edition,
                event_date=event.date,
                japanese_era=event.japanese_era,
                division=m.division.name,
                stage=stage_text(m),
                group=_("Group %(name)s") % {"name": m.group.name} if m.group else "",
                court=m.court.name if m.court else "",
                match_number=m.match_number,
                start=m.start_at,
                team_a=m.team_a.name if m.team_a else None,
                team_b=m.team_b.name if m.team_b else None,
                entry_url=url,
                card_total=event.card_total,
            )
        )
    return games


def event_sheets_pdf(event, matches, base_url="", per_page=1):
    """The recording sheets (記録用紙) of ``matches`` as PDF bytes, one game per sheet."""
    return recording_sheets_pdf(sheet_games(event, matches, base_url), per_page=per_page)
