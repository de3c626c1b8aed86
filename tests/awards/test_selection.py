"""Who gets what (issue 19 item 2): places from the final results of a played event, the
individual prize with its ties, per member / per team, prizes added by hand, and the print
log's "changed since printed" after a correction (docs/rules/awards.md)."""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from awards import printing, services
from awards.ceremony import ceremony
from awards.models import AwardSettings, PrintLog
from awards.paper import certificates
from awards.reports import CHANGED, NOT_PRINTED, PRINTED, all_certificates, event_awards, orphaned_prints
from awards.text import body_problem, era_date, fill_body
from judging import services as judging
from judging.engine import rules
from judging.models import PlayerCards
from tests import factories
from tests.awards.conftest import run
from tournament import reports
from tournament.models import Event, Match, Team
from tournament.reports.individual import individual_totals
from tournament.services.draw import draw_groups
from tournament.services.registration import PlayerData, save_team
from tournament.services.schedule import make_schedule


def by_division(event, **kwargs):
    return {d.division.name: d for d in event_awards(event, **kwargs)}


def test_every_finished_division_gets_its_places_from_the_final_results(played):
    awards = by_division(played)
    with translation.override("ja"):
        final = {division.name: places for division, places in reports.final_places(played)}
    assert set(awards) == set(final)
    for name, entry in awards.items():
        assert entry.finished and entry.reason == ""
        expected = [(place, team.pk) for place, team, _check in final[name]]
        assert [(p.name, p.team.pk) for p in entry.prizes] == expected
        assert [p.rank for p in entry.prizes] == sorted(p.rank for p in entry.prizes)


def test_one_certificate_per_member_names_each_member_and_the_team(played):
    for entry in event_awards(played):
        for prize in entry.prizes:
            certs = [c for c in entry.certificates if c.prize is prize]
            regulars = [p.name for p in prize.team.players.all() if not p.is_substitute]  # none played
            assert [c.text.recipient for c in certs] == regulars
            assert {c.text.team for c in certs} == {prize.team.name}
            assert all(c.status == NOT_PRINTED for c in certs)


def test_one_certificate_per_team_names_the_team(played):
    for entry in event_awards(played, per="team"):
        assert len(entry.certificates) == len(entry.prizes)
        assert [c.text.recipient for c in entry.certificates] == [p.team.name for p in entry.prizes]
        assert {c.text.team for c in entry.certificates} == {""}


def test_the_certificate_text_fills_in_the_body_the_date_in_the_era_and_the_issuers(played):
    settings = AwardSettings.for_event(played)
    settings.issuers = "ひたち郷土かるた大会実行委員会 会長 | 日立 太郎\n日立市教育委員会"
    settings.honorific = "様"
    settings.save()
    cert = event_awards(played)[0].certificates[0]
    assert cert.text.title == "賞状" and cert.text.place == "優勝" and cert.text.honorific == "様"
    assert cert.text.body == (  # 漢数字 by default: the certificate is vertical (issue 33)
        "あなたは第二十一回ひたち郷土かるた大会小学生低学年の部において頭書の成績を収められました よってこれを賞します"
    )
    assert cert.text.date_text == "令和九年一月十七日"
    assert {c.text.place for c in event_awards(played)[0].certificates} == {"優勝", "準優勝", "第三位"}
    settings.kanji_numerals = False
    settings.save()
    arabic = event_awards(played)[0]
    assert arabic.certificates[0].text.body == (
        "あなたは第21回ひたち郷土かるた大会小学生低学年の部において頭書の成績を収められました よってこれを賞します"
    )
    assert arabic.certificates[0].text.date_text == "令和9年1月17日"
    assert {c.text.place for c in arabic.certificates} == {"優勝", "準優勝", "第3位"}
    assert cert.text.issuers == (("ひたち郷土かるた大会実行委員会 会長", "日立 太郎"), ("日立市教育委員会", ""))


def test_places_up_to_one_gives_the_champions_only(played):
    settings = AwardSettings.for_event(played)
    settings.places_up_to = 1
    for entry in event_awards(played, settings=settings):
        assert [p.name for p in entry.prizes] == ["優勝"]


def test_a_division_not_finished_says_why_and_gets_no_certificate_but_its_hand_prizes(db):
    run("load_demo")
    run("draw_groups", "demo", "--seed", "1")
    run("make_schedule", "demo")
    event = Event.objects.get(slug="demo")
    team = Team.objects.filter(division__event=event).first()
    services.add_hand_prize(event, "敢闘賞", team)
    with translation.override("en"):
        awards = by_division(event)
    entry = awards[team.division.name]
    assert not entry.finished and "without a confirmed result" in entry.reason
    assert [p.name for p in entry.prizes] == ["敢闘賞"]
    assert len(entry.certificates) == team.players.count()
    run("simulate_results", "demo", "--seed", "3")
    with translation.override("en"):
        entry = by_division(event)[team.division.name]
    assert not entry.finished and "no final places" in entry.reason


def test_a_substitute_gets_a_certificate_only_when_they_played_or_the_setting_says_so(played):
    team = event_awards(played)[0].prizes[0].team
    sub = team.players.create(name="控え 花子", furigana="ひかえ はなこ", is_substitute=True, order=9)
    names = lambda **kw: [c.text.recipient for c in event_awards(played, **kw)[0].certificates if c.prize.team == team]  # noqa: E731
    assert sub.name not in names()
    settings = AwardSettings.for_event(played)
    settings.include_substitutes = True
    assert sub.name in names(settings=settings)
    sheet = Match.objects.filter(team_a=team).exclude(status=Match.Status.VOID).first().sheets.get(is_confirmed=True)
    PlayerCards.objects.create(sheet=sheet, player=sub, cards=3)
    assert sub.name in names()


def test_prizes_added_by_hand_to_a_team_or_a_player(played):
    team = Team.objects.filter(division__event=played).order_by("pk").last()
    player = team.players.first()
    services.add_hand_prize(played, "敢闘賞", team)
    services.add_hand_prize(played, " 特別賞 ", team, player)
    entry = by_division(played)[team.division.name]
    hand = [c for c in entry.certificates if c.prize.kind == "hand"]
    assert [(c.text.place, c.text.recipient) for c in hand][-1] == ("特別賞", player.name)
    assert len(hand) == team.players.count() + 1
    other = Team.objects.filter(division__event=played).exclude(pk=team.pk).first()
    with translation.override("en"), pytest.raises(services.UserError, match="not a member"):
        services.add_hand_prize(played, "特別賞", other, player)
    with translation.override("en"), pytest.raises(services.UserError, match="name"):
        services.add_hand_prize(played, "  ", team)


def test_a_printed_certificate_is_changed_since_printed_after_a_correction_of_the_final(played, drawn):
    user = get_user_model().objects.create_user("organiser")
    settings = AwardSettings.for_event(played)
    certs = all_certificates(event_awards(played))
    printing.print_certificates(played, certs, settings, user)
    assert PrintLog.objects.filter(event=played).count() == len(certs)
    assert {c.status for c in all_certificates(event_awards(played))} == {PRINTED}
    assert all_certificates(event_awards(played), "pending") == []

    division = played.divisions.order_by("order").first()
    final = Match.objects.get(division=division, stage=Match.Stage.FINAL)
    a_won = final.winner_id == final.team_a_id
    swapped = rules.SheetValues(
        20 if a_won else 30, 30 if a_won else 20, 6, rules.JokerHolder.B if a_won else rules.JokerHolder.A
    )
    correction = judging.submit_sheet(final, swapped, court=final.court)[0]
    judging.confirm_sheet(correction, user)
    entry = event_awards(played)[0]
    status = {c.text.place: c.status for c in entry.certificates}
    assert status["優勝"] == CHANGED and status["準優勝"] == CHANGED and status["第三位"] == PRINTED
    pending = all_certificates(event_awards(played), "pending")
    assert {c.text.place for c in pending} == {"優勝", "準優勝"}
    printing.print_certificates(played, pending, settings, user)
    assert all_certificates(event_awards(played), "pending") == []


def test_a_renamed_team_or_a_new_date_changes_the_printed_text(played, drawn):
    settings = AwardSettings.for_event(played)
    certs = all_certificates(event_awards(played, per="team"))
    printing.print_certificates(played, certs, settings)
    team = certs[0].prize.team
    save_team(team.division, team.name + "A", team.affiliation, [], team=team)
    changed = [c for c in all_certificates(event_awards(played, per="team")) if c.status == CHANGED]
    assert [c.key for c in changed] == [certs[0].key]
    settings.award_date = datetime.date(2027, 1, 18)
    settings.save()
    assert {c.status for c in all_certificates(event_awards(played, per="team"))} == {CHANGED}


def test_certificates_no_longer_given_are_listed(played, drawn):
    certs = all_certificates(event_awards(played))
    printing.print_certificates(played, certs, AwardSettings.for_event(played))
    team = certs[0].prize.team
    save_team(team.division, team.name, team.affiliation, [PlayerData("一人 だけ")], team=team)
    gone = orphaned_prints(played, event_awards(played))
    assert sorted(log.key for log in gone) == sorted(c.key for c in certs if c.prize.team == team)[1:]


def test_a_failing_drawing_records_nothing(played, monkeypatch):
    def broken(texts, paper):
        raise RuntimeError("printer font missing")

    monkeypatch.setattr(certificates, "render_certificates", broken)
    with pytest.raises(RuntimeError):
        printing.print_certificates(played, all_certificates(event_awards(played)), AwardSettings.for_event(played))
    assert not PrintLog.objects.exists()


# The individual prize: one group of three teams whose groups are the result, counts recorded.


@pytest.fixture
def counted(db):
    event = factories.make_event(courts=1, individual_counts=True, edition=None)
    division = factories.make_division(event, courts=[1], after_groups="none")
    for name, grade in (("赤", "小5"), ("青", "小6"), ("白", "小5")):
        save_team(division, name, "", [PlayerData(f"{name}{i}", f"{name}よみ{i}", grade) for i in "一二三"])
    draw_groups(event, seed=1)
    make_schedule(event)
    return event


def play_with_counts(match, a_counts, b_counts):
    players = lambda team: list(team.players.order_by("order", "pk"))  # noqa: E731
    counts = dict(zip([p.pk for p in players(match.team_a)], a_counts, strict=True))
    counts |= dict(zip([p.pk for p in players(match.team_b)], b_counts, strict=True))
    a, b = sum(a_counts), sum(b_counts)
    values = rules.SheetValues(a, b, 56 - a - b, rules.JokerHolder.A if a > b else rules.JokerHolder.B)
    judging.submit_sheet(match, values, player_cards=counts)


def play_all(event, counts):
    for match, (a, b) in zip(Match.objects.filter(event=event).order_by("match_number"), counts, strict=True):
        play_with_counts(match, a, b)


def test_the_individual_prize_goes_to_every_player_with_the_most_cards_ties_named(counted):
    play_all(counted, [((20, 6, 4), (10, 10, 6)), ((12, 10, 6), (9, 9, 10)), ((8, 12, 6), (14, 6, 6))])
    entry = event_awards(counted)[0]
    assert entry.finished, entry.reason
    assert [p.name for p in entry.prizes if p.kind == "place"] == ["優勝", "準優勝", "第3位"]
    individual = [p for p in entry.prizes if p.kind == "individual"]
    totals = individual_totals(counted)
    best = max(cards for cards, _games in totals.values())
    assert {p.player.pk for p in individual} == {pk for pk, (cards, _g) in totals.items() if cards == best}
    assert all(p.tied == len(individual) for p in individual)
    cert = next(c for c in entry.certificates if c.prize.kind == "individual")
    assert cert.text.place == "個人賞" and cert.text.recipient == individual[0].player.name
    assert cert.text.body.startswith("あなたはテストかるた大会小学生の部において")  # no edition: no 「第回」


def test_an_individual_tie_gives_each_player_a_certificate(counted):
    """Game 1's first players take 20 cards each, nobody else reaches 20: both get 個人賞."""
    play_all(counted, [((20, 4, 4), (20, 4, 3)), ((0, 9, 9), (0, 9, 8)), ((0, 9, 9), (0, 9, 8))])
    first = Match.objects.filter(event=counted).order_by("match_number").first()
    expected = {team.players.order_by("order", "pk").first().pk for team in (first.team_a, first.team_b)}
    individual = [p for p in event_awards(counted)[0].prizes if p.kind == "individual"]
    assert {p.player.pk for p in individual} == expected
    assert {p.tied for p in individual} == {2}
    certs = [c for c in event_awards(counted)[0].certificates if c.prize.kind == "individual"]
    assert len(certs) == 2 and {c.text.place for c in certs} == {"個人賞"}


def test_the_individual_prize_per_grade(counted):
    play_all(counted, [((20, 6, 4), (10, 10, 6)), ((12, 10, 6), (9, 9, 10)), ((8, 12, 6), (14, 6, 6))])
    settings = AwardSettings.for_event(counted)
    settings.individual_by = AwardSettings.IndividualBy.GRADE
    names = sorted({p.name for p in event_awards(counted, settings=settings)[0].prizes if p.kind == "individual"})
    assert names == ["個人賞（小5）", "個人賞（小6）"]


def test_body_templates_and_the_era_date():
    assert era_date(datetime.date(2019, 5, 1)) == "令和元年5月1日"
    assert era_date(datetime.date(2027, 1, 17)) == "令和9年1月17日"
    assert era_date(datetime.date(2027, 1, 17), kanji=True) == "令和九年一月十七日"
    assert era_date(datetime.date(2019, 5, 1), kanji=True) == "令和元年五月一日"
    assert body_problem("{event}の{place}") is None
    assert body_problem("{evnt}") == "evnt"
    assert body_problem("{event") == "brace"
    event = Event(name="大会", edition=3)
    assert fill_body("第{edition}回{event}{division}{place}", event, "一般の部", "優勝") == "第3回大会一般の部優勝"
    named = Event(name="大会2027", edition=21)  # only the edition turns to 漢数字, not the name
    assert fill_body("第{edition}回{event}", named, "", "", kanji=True) == "第二十一回大会2027"


def test_the_members_of_every_prized_team_are_read_in_one_query(played):
    with CaptureQueriesContext(connection) as queries:
        awards = event_awards(played)
    assert sum(len(d.certificates) for d in awards) > 20
    players = [q for q in queries.captured_queries if q["sql"].startswith('SELECT "tournament_player"')]
    assert len(players) <= 2, [q["sql"][:120] for q in players]  # the prefetch (and the individual block)


def test_the_mc_list_order_places_then_individual_then_hand_prizes(played):
    division = played.divisions.order_by("order").first()
    team = Team.objects.filter(division=division).order_by("pk").last()
    services.add_hand_prize(played, "敢闘賞", team)
    first = ceremony(played)[0]
    assert [line.prize for line in first.lines] == ["第3位", "準優勝", "優勝", "敢闘賞"]
    assert first.lines[-1].team == team.name and first.note == ""
    settings = AwardSettings.for_event(played)
    settings.ceremony_order = AwardSettings.Order.HIGHEST_FIRST
    assert [line.prize for line in ceremony(played, settings)[0].lines] == ["優勝", "準優勝", "第3位", "敢闘賞"]
    champion = event_awards(played)[0].prizes[0].team
    names = [(m.name, m.furigana) for m in first.lines[2].members]
    assert names == [(p.name, p.furigana) for p in champion.players.all() if not p.is_substitute]
