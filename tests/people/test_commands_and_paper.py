"""The people app's commands (checkin, print_team_cards, assign_referees) and its PDFs read back
with pypdf: the team cards (games, stage path, QR URLs) and the roster; the recording sheet
prints the referee."""

import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from pypdf import PdfReader

from judging.paper.match_sheets import sheet_matches
from judging.paper.recording_sheet import recording_sheets_pdf
from people import cards, paper
from people.models import PlayerPresence, Referee, RefereeAssignment, TeamCheckin
from people.roster import roster_table
from people.services import roster
from tournament.models import Team


def run(*args):
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def text_of(data):
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_checkin_command_absent_and_undo(event):
    team = Team.objects.filter(division__event=event).order_by("entry_number").first()
    absent = team.players.order_by("order").first()
    out = run("checkin", event.slug, team.name, "--absent", absent.name)
    assert "received" in out and absent.name in out
    assert TeamCheckin.objects.get(team=team).received
    assert PlayerPresence.objects.get(player=absent).present is False
    assert "undone" in run("checkin", event.slug, team.name, "--undo")
    assert not TeamCheckin.objects.get(team=team).received
    with pytest.raises(CommandError, match="not a player"):
        run("checkin", event.slug, team.name, "--absent", "誰か")
    with pytest.raises(CommandError, match="No team"):
        run("checkin", event.slug, "ないチーム")


def test_assign_referees_command(event):
    for i in range(3):
        Referee.objects.create(event=event, name=f"審判{i}")
    # Three courts, three referees: with a rest after two games in a row some games are left.
    out = run("assign_referees", event.slug, "--rest", "2")
    assert "games have a referee" in out and "No referee could take games" in out
    for i in range(3, 6):
        Referee.objects.create(event=event, name=f"審判{i}")
    out = run("assign_referees", event.slug, "--rest", "2")
    assert "No referee could take" not in out
    assert RefereeAssignment.objects.count() == event.matches.exclude(start_at=None).count()


def test_print_team_cards_command_and_the_cards_text(event, tmp_path):
    target = tmp_path / "cards.pdf"
    out = run("print_team_cards", event.slug, "-o", str(target))
    teams = Team.objects.filter(division__event=event).count()
    assert f"{teams} team cards" in out
    reader = PdfReader(str(target))
    assert len(reader.pages) == (teams + 3) // 4
    text = text_of(target.read_bytes())
    team = Team.objects.filter(division__event=event).order_by("division__order", "entry_number").first()
    assert team.name in text
    first = (
        event.matches.filter(team_a=team).order_by("start_at").first()
        or event.matches.filter(team_b=team).order_by("start_at").first()
    )
    assert str(first.court) in text
    # The stage path line (tournament.stage_path) is on the card, in the site's language.
    assert "なら" in text


def test_card_records_hold_games_path_and_the_qr_urls(event):
    with translation.override("ja"):
        found = cards.team_cards(event, "http://hall.local")
    card = found[0]
    assert card.games and card.games[0].time and card.games[0].opponent
    assert card.scan_url.startswith("http://hall.local/e/") and "/card/" in card.scan_url
    assert card.calendar_url.endswith("calendar.ics")
    assert card.path
    # No player's name on a card.
    team = Team.objects.filter(division__event=event).order_by("division__order", "entry_number").first()
    data = paper.team_cards_pdf(str(event), found)
    assert all(p.name not in text_of(data) for p in team.players.all())


def test_roster_pdf_text(event):
    roster.save_roster(event, {("reception", 0): ["山田"], ("announcer", 0): ["山田"]})
    with translation.override("ja"):
        data = paper.roster_pdf(str(event), roster_table(event))
    text = text_of(data)
    assert "係分担表" in text and "山田" in text and "受付" in text


def test_the_recording_sheet_prints_the_referee(event):
    match = event.matches.order_by("match_number").first()
    RefereeAssignment.objects.create(match=match, referee=Referee.objects.create(event=event, name="審判太郎"))
    with translation.override("ja"):
        data = recording_sheets_pdf(sheet_matches(event, event.matches.filter(pk=match.pk)))
    assert "審判：審判太郎" in text_of(data).replace(" ", "")


def test_the_referees_pdf_lists_the_hall_and_each_court(event):
    from people.reports import referee_sheets
    from people.services import referees

    for i in range(6):
        Referee.objects.create(event=event, name=f"審判{i}", furigana=f"しんぱん{i}")
    referees.assign(event, rest=2)
    courts, by_referee = referee_sheets(event)
    with translation.override("ja"):
        data = paper.referees_pdf(str(event), courts, by_referee)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1 + len(courts)
    text = text_of(data)
    assert "審判0" in text and str(event.courts.order_by("order").first()) in text


def test_a_reprint_shows_and_can_be_limited_to_what_changed(event, tmp_path):
    run("print_team_cards", event.slug, "-o", str(tmp_path / "all.pdf"))
    assert not any(c.changed for c in cards.team_cards(event, ""))
    game = event.matches.order_by("match_number").first()
    other_court = event.courts.exclude(pk=game.court_id).order_by("order").first()
    event.matches.filter(pk=game.pk).update(court=other_court, slot=999)
    changed = {c.team for c in cards.team_cards(event, "") if c.changed}
    assert changed == {game.team_a.name, game.team_b.name}
    out = run("print_team_cards", event.slug, "--changed", "-o", str(tmp_path / "changed.pdf"))
    assert out.startswith("2 team cards")
    text = text_of((tmp_path / "changed.pdf").read_bytes())
    assert game.team_a.name in text
    assert not any(c.changed for c in cards.team_cards(event, ""))
