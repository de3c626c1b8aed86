"""Paper from the database: builds the plain records of ``tournament.paper`` and returns PDFs.

Reads the read side (``tournament.reports``) like the pages, Excel and the JSON API, so
paper, screen and Excel agree. Personal data (players' names, furigana, grades) only goes into the reception
list, the individual table and, when asked for, the results list: callers check who may have them.
Referees' and staff names go only into the programme's staff section, when asked for.
"""

import datetime

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from club_entry import services as club_entry_services
from common.pdf.coverage import font_warnings
from judging.paper.game_setup import game_setup_pdf
from judging.paper.touch_matrix import touch_matrix_pdf
from people import reports as people_reports
from tournament import paper, reports
from tournament.engine import seeding
from tournament.engine.bracket import plan_bracket
from tournament.models import Match, ProgrammeSettings
from tournament.reports.placement import division_placements
from tournament.services.knockout import KNOCKOUT_STAGES


def event_info(event):
    return paper.EventInfo(
        name=event.name, edition=event.edition, date=event.date, venue=event.venue, japanese_era=event.japanese_era
    )


def court_timetables(event):
    """対戦表: one page per court with its games in order (results written in as they come)."""
    return paper.court_timetables_pdf(event_info(event), _timetable_courts(event))


def _timetable_courts(event):
    """The courts of the 対戦表 as ``(court name, [paper.TimetableMatch])`` pairs."""
    return [
        (
            str(court),
            [
                paper.TimetableMatch(
                    match_number=line.number,
                    start=line.start,
                    division=line.division,
                    stage=line.stage_text,
                    group=line.group,
                    team_a=line.team_a.name if line.team_a else None,
                    team_b=line.team_b.name if line.team_b else None,
                    result=line.result,
                    slot_a=line.slot_a.label if line.slot_a else "",
                    slot_b=line.slot_b.label if line.slot_b else "",
                    out_of_date=line.out_of_date,
                )
                for line in lines
            ],
        )
        for court, lines in reports.court_timetables(event)
    ]


def _absence_note(reported_at):
    """The 備考 of a player a club reported absent: 「欠席（クラブより 9:12）」; "" otherwise."""
    if reported_at is None:
        return ""
    return _("absent (club, %(time)s)") % {"time": timezone.localtime(reported_at).strftime("%H:%M")}


def reception_list(event):
    """受付名簿 with furigana and a check-in box per player (personal data: organisers only);
    a player a club reported absent says so under 備考 (``club_entry``, issue 20 item 4)."""
    teams = reports.teams_with_players(event)
    absent = club_entry_services.absent_players(event)
    return paper.reception_list_pdf(
        event_info(event),
        [
            paper.ReceptionTeam(
                entry_number=t.entry_number,
                division=t.division.name,
                name=t.name,
                affiliation=t.affiliation,
                players=[
                    paper.ReceptionPlayer(
                        p.name, p.furigana, p.grade, p.is_leader, p.is_substitute, note=_absence_note(absent.get(p.pk))
                    )
                    for p in t.players.all()
                ],
            )
            for t in teams
        ],
    )


def _standing_line(line):
    return paper.StandingLine(
        rank=line.rank_text,
        team=line.team.name,
        affiliation=line.team.affiliation,
        played=line.played,
        wins=line.wins,
        losses=line.losses,
        cards_taken=line.cards_taken,
        cards_conceded=line.cards_conceded,
        card_diff=line.card_diff,
        decided_by=line.decided_by_text,
        withdrawn=line.withdrawn,
        annulled=line.annulled,
    )


def standings(event):
    """順位表 with the 星取表 of every group and the criterion that placed each team; a group
    with games still without a confirmed result is headed 暫定, a withdrawn team is marked 棄権."""
    groups = []
    notes = []
    for division, group_standings in reports.event_standings(event):
        notes.append(f"{division.name}: {division.criteria_text}")
        groups.extend(
            paper.GroupSheet(
                division=division.name,
                group=str(group.group),
                court=str(group.group.court or ""),
                lines=[_standing_line(line) for line in group.lines],
                cross=[[cell.text for cell in cells] for _team, cells in group.cross.grid],
                provisional=group.provisional,
                games_left=group.games_left,
            )
            for group in group_standings
        )
    return paper.standings_pdf(event_info(event), groups, precedence_note=" / ".join(notes))


def _paper_name(team):
    """A team's name on the bracket paper, 「（棄権）」 after a withdrawn team's (in the active
    language); None: no team yet."""
    if team is None:
        return None
    return _("%(team)s (withdrawn)") % {"team": team.name} if team.withdrawn else team.name


def _paper_scores(g, sheet, winner):
    """(score of A, score of B) as printed: the cards, or 「不戦勝」 beside a walkover's winner
    (never a bare 28–0); ``("", "")`` without a confirmed result."""
    if sheet is None:
        return "", ""
    if sheet.is_walkover:
        won = _("walkover win")
        return (won if winner == "A" else ""), (won if winner == "B" else "")
    return str(sheet.cards_a), str(sheet.cards_b)


def _bracket_match(g):
    sheet = reports.confirmed_sheet(g)
    winner = None
    if g.winner_id:
        winner = "A" if g.winner_id == g.team_a_id else "B"
    slots = getattr(g, "slots", None)
    score_a, score_b = _paper_scores(g, sheet, winner)
    return paper.BracketMatch(
        round=g.round,
        position=g.bracket_position or 0,
        stage=str(g.get_stage_display()),
        match_number=g.match_number,
        team_a=_paper_name(g.team_a),
        team_b=_paper_name(g.team_b),
        score_a=score_a,
        score_b=score_b,
        winner=winner,
        slot_a=slots.a.label if slots else "",
        slot_b=slots.b.label if slots else "",
        out_of_date=("、".join(slots.changed_places) or "?") if slots and slots.out_of_date else "",
        kept=slots.kept_text if slots else "",
    )


def _placement_game(line):
    """A ``reports.PlacementLine`` as the bracket paper's ``PlacementGame`` (words in the active language)."""
    g = line.match
    sheet = reports.confirmed_sheet(g)
    winner = None
    if g.winner_id:
        winner = "A" if g.winner_id == g.team_a_id else "B"
    score_a, score_b = _paper_scores(g, sheet, winner)
    result = (
        (score_a or score_b) if sheet is not None and sheet.is_walkover else f"{score_a}-{score_b}" if sheet else ""
    )
    title, decides = str(line.title), str(line.decides)
    return paper.PlacementGame(
        match_number=g.match_number,
        title=title,
        decides=decides,
        team_a=_paper_name(g.team_a) or line.label_a or paper.undecided(),
        team_b=_paper_name(g.team_b) or line.label_b or paper.undecided(),
        result=result,
        winner=winner,
        known_a=g.team_a is not None,
        known_b=g.team_b is not None,
        to_confirm=line.out_of_date,
    )


def bracket(event):
    """トーナメント表 of every division with a knockout, then the placement games (順位決定戦)
    of every division with them, by place; a walkover prints 「不戦勝」, a withdrawn team 「（棄権）」."""
    return paper.bracket_pdf(event_info(event), *_bracket_inputs(event))


def _bracket_inputs(event):
    """``(divisions, placements)``: the inputs of ``paper.bracket_pdf`` / ``bracket_pages``."""
    divisions = [
        (
            b.division.name,
            [_bracket_match(g) for matches in b.rounds for g in matches],
            [_bracket_match(g) for g in b.third],
        )
        for b in reports.division_brackets(event)
    ]
    placements = [(p.division.name, [_placement_game(line) for line in p.lines]) for p in division_placements(event)]
    return divisions, placements


def _planned_brackets(event, seeded):
    """The empty bracket of each division whose knockout is not seeded yet (its name not in
    ``seeded``): the shape from its groups' qualifiers (groups × qualifiers per group + best
    runners-up, byes to the top seeds, docs/rules/scheduling-standings-seeding.md §4.1),
    every side 「未定」, no game numbers (they are given at seeding)."""
    out = []
    for d in event.divisions.all():
        if d.name in seeded or d.after_groups not in ("knockout", "both"):
            continue
        n = d.groups.count() * d.qualifiers_per_group + d.best_runners_up
        if n < 2:
            continue
        size = seeding.bracket_size(n)
        lineup = [s if s <= n else None for s in seeding.standard_seed_order(size)]
        rounds = plan_bracket(lineup, third_place_game=d.third_place_game)
        games, third = [], []
        for r, planned in enumerate(rounds):
            stage = str(KNOCKOUT_STAGES.get(planned.size, Match.Stage.KNOCKOUT).label)
            games.extend(paper.BracketMatch(r, m.position, stage, 0, None, None) for m in planned.matches)
            if planned.third_place is not None:
                third.append(paper.BracketMatch(r, 0, str(Match.Stage.THIRD_PLACE.label), 0, None, None))
        out.append((d.name, games, third))
    return out


def final_results(event, with_names=False):
    """成績一覧 (敬称略): winner, runner-up and third place(s) of each division."""
    divisions = [
        (
            division.name,
            [
                paper.ResultEntry(
                    place=place,
                    team=team.name,
                    affiliation=team.affiliation,
                    players=[p.name for p in team.players.all()] if with_names else [],
                    to_confirm=check,
                )
                for place, team, check in places
            ],
        )
        for division, places in reports.final_places(event)
    ]
    return paper.final_results_pdf(event_info(event), divisions)


def individual(event):
    """個人成績: each player's cards over the group stage (personal data: organisers only)."""
    sheets = [
        paper.IndividualSheet(
            title=block.title,
            rows=[
                paper.IndividualRow(
                    rank=line.rank_text,
                    name=line.name,
                    grade=line.grade,
                    team=line.team,
                    affiliation=line.affiliation,
                    cards=line.cards,
                    games=line.games,
                )
                for line in block.lines
            ],
        )
        for block in reports.individual_table(event)
    ]
    return paper.individual_pdf(event_info(event), sheets)


def touch_matrix():
    return touch_matrix_pdf()


def game_setup():
    """試合の準備 on one A4 page (judging.paper.game_setup)."""
    return game_setup_pdf()


KINDS = {
    "timetables": court_timetables,
    "reception": reception_list,
    "standings": standings,
    "bracket": bracket,
    "results": final_results,
    "individual": individual,
}


def names_with_substitutes(event):
    """The names of ``event`` that print with the mark 〓 (a character no installed font
    has), as :class:`common.pdf.coverage.FontWarning` for the print page: the event's
    name and venue, divisions, courts, teams, affiliations, players and furigana."""
    named = [(_("event"), event.name), (_("venue"), event.venue)]
    named += [(_("division"), d.name) for d in event.divisions.all()]
    named += [(_("court"), str(c)) for c in event.courts.all()]
    for t in reports.teams_with_players(event):
        named += [(_("team name"), t.name), (_("affiliation"), t.affiliation)]
        for p in t.players.all():
            named += [(_("player"), p.name), (_("furigana"), p.furigana)]
    return font_warnings(named)


def default_notes():
    """The 注意事項 printed when the organiser typed none: a short form of the rules
    (docs/rules/hitachi-karuta.md), one paragraph each, in the active language."""
    return [
        _(
            "56 cards are played, split into two piles of 28. One card taken is one point; the team with more cards wins."
        ),
        _("A false touch gives the correct card to the opponent: one card, however many wrong cards were touched."),
        _(
            "The last two cards are placed 30 cm apart; the team leaders alone compete, and whoever takes the first also takes the other."
        ),
        _(
            "A tie is won by the team holding the card 「り」; if the referee holds it, the team leaders play one round of rock-paper-scissors."
        ),
        _(
            "Please be at your court five minutes before your game. Games may start earlier or later than printed: the public pages show the current times."
        ),
        _("Follow the referee's decisions. Please keep the hall quiet while a card is being read."),
    ]


def _clock(value):
    return f"{value.hour}:{value.minute:02d}"


def _span(start, end):
    """「9:45〜11:30」 (Asia/Tokyo) from two aware datetimes."""
    a, b = timezone.localtime(start), timezone.localtime(end)
    return _clock(a) if a == b else f"{_clock(a)}〜{_clock(b)}"


def programme_schedule(event):
    """The day's schedule of the 大会プログラム, in time order (``[paper.ScheduleItem]``): the
    start (opening ceremony), each division's group games and stage after the groups (first
    start to last end, from the schedule), the lunch break and the closing ceremony (after the
    last game's end; blank while a stage after the groups is not scheduled, which is then
    listed from its groups' end); game length = the event's ``game_minutes``."""
    length = datetime.timedelta(minutes=event.game_minutes)
    items = []  # (sort key minutes, item)
    start = event.start_time
    items.append(((start.hour, start.minute), paper.ScheduleItem(_clock(start), _("Opening ceremony"))))
    if event.lunch_start:
        text = _span_times(event.lunch_start, event.lunch_end)
        items.append(((event.lunch_start.hour, event.lunch_start.minute), paper.ScheduleItem(text, _("Lunch break"))))
    last_end = None
    pending = []  # (group end, division): a stage after the groups not scheduled yet
    for division in event.divisions.all():
        timed = list(event.matches.filter(division=division).exclude(start_at=None))
        last_group = None
        for is_group, label in ((True, _("Group games")), (False, _("Stage after the groups"))):
            games = [m for m in timed if (m.stage == Match.Stage.GROUP) == is_group]
            if not games:
                if (
                    not is_group
                    and last_group is not None
                    and division.after_groups in ("knockout", "both", "placement")
                ):
                    pending.append((last_group, division))
                continue
            first = min(m.start_at for m in games)
            end = max(m.start_at for m in games) + length
            last_end = end if last_end is None or end > last_end else last_end
            if is_group:
                last_group = end
            local = timezone.localtime(first)
            items.append(
                (
                    (local.hour, local.minute),
                    paper.ScheduleItem(
                        _span(first, end), _("%(stage)s (%(division)s)") % {"stage": label, "division": division.name}
                    ),
                )
            )
    for end, division in pending:
        local = timezone.localtime(end)
        text = _("%(stage)s (%(division)s), after its groups") % {
            "stage": _("Stage after the groups"),
            "division": division.name,
        }
        items.append(((local.hour, local.minute), paper.ScheduleItem(_clock(local) + "〜", text)))
    if last_end is not None:
        local = timezone.localtime(last_end)
        # the closing time is known only once every stage is scheduled
        time = "" if pending else _clock(local) + "〜"
        key = (99, 0) if pending else (local.hour, local.minute)
        items.append((key, paper.ScheduleItem(time, _("Closing ceremony and awards"))))
    items.sort(key=lambda pair: pair[0])
    return [item for _key, item in items]


def _span_times(a, b):
    return f"{_clock(a)}〜{_clock(b)}" if b else _clock(a)


def programme_groups(event):
    """Each division's groups with their court and teams (``[paper.ProgrammeGroup]``); the
    players' names only when the event publishes names (the booklet is handed to everyone)."""
    teams = list(reports.teams_with_players(event))
    groups = []
    for division in event.divisions.all():
        for group in division.groups.select_related("court").order_by("order", "name"):
            members = sorted(
                (t for t in teams if t.group_id == group.pk and not t.withdrawn),
                key=lambda t: (t.group_seat or 0, t.entry_number),
            )
            groups.append(
                paper.ProgrammeGroup(
                    division=division.name,
                    group=str(group),
                    court=str(group.court or ""),
                    teams=[
                        paper.ProgrammeTeam(
                            entry_number=t.entry_number,
                            name=t.name,
                            affiliation=t.affiliation,
                            players=[p.name for p in t.players.all()] if event.publish_names else [],
                        )
                        for t in members
                    ],
                )
            )
    return groups


def programme_staff(event):
    """The staff section of ``event``'s 大会プログラム (``paper.ProgrammeStaff``) from the
    people of the day's read side (``people.reports.programme_staff``: the referees, their
    table by time and court, the duty roster's lines); empty when the event has neither
    referees nor a roster."""
    found = people_reports.programme_staff(event)
    return paper.ProgrammeStaff(
        referees=[(r.name, r.club) for r in found.referees],
        courts=list(found.courts),
        rows=[(time, list(cells)) for time, cells in found.rows],
        duties=[(d.role, d.time, list(d.names)) for d in found.duties],
    )


def programme(event, sections=None, *, booklet=False, base_url=""):
    """大会プログラム of ``event`` (``tournament.paper.programme``): the ``sections`` chosen
    (default ``paper.PROGRAMME_DEFAULT_SECTIONS``: every section but the staff, whose names
    are printed only when asked for, docs/programme.md; names of
    ``paper.PROGRAMME_SECTIONS``), the texts of the event's ``ProgrammeSettings`` (none
    saved: the event's name, no 主催/後援, the default notes), the QR code to the public
    timetable at ``base_url``; ``booklet``: imposed 2-up on A3.  The staff section is left
    out when the event has no referee and no duty roster.  Raises ``ValueError`` for an
    unknown section."""
    sections = list(sections) if sections else list(paper.PROGRAMME_DEFAULT_SECTIONS)
    texts = ProgrammeSettings.objects.filter(event=event).first() or ProgrammeSettings(event=event)
    url = base_url.rstrip("/") + reverse("tournament:public_timetable", args=[event.slug]) if base_url else ""
    notes = [line for line in texts.notes.splitlines() if line.strip()] or default_notes()
    brackets, placements = _bracket_inputs(event)
    brackets += _planned_brackets(event, {name for name, _games, _third in brackets})
    return paper.programme_pdf(
        event_info(event),
        paper.ProgrammeCover(title=texts.title, organiser=texts.organiser, supporters=texts.supporters, url=url),
        sections=sections,
        schedule=programme_schedule(event),
        notes=notes,
        groups=programme_groups(event),
        courts=_timetable_courts(event),
        brackets=brackets,
        placements=placements,
        staff=programme_staff(event) if "staff" in sections else None,
        booklet=booklet,
    )


def programme_section_title(name):
    """The printed title of the programme section ``name`` (``paper.PROGRAMME_SECTIONS``)."""
    return paper.programme_section_title(name)
