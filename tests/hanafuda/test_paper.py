"""The printed paper: the score sheet and the dekiyaku reference card (PDF, read back with pypdf)."""

from io import BytesIO
from pathlib import Path

import pytest
from django.urls import reverse
from pypdf import PdfReader

from common.pdf import coverage
from hanafuda import pdf, services
from hanafuda.engine.dekiyaku import DEKIYAKU
from hanafuda.engine.options import FlowerCards, FourBrights, FourPlayerDeal, Options, Players, TeamPayment
from tests.hanafuda.helpers import INSTA, ROUND_A, ROUND_B, ROUND_C, engine_game, months, new_session

pytestmark = pytest.mark.django_db
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "hanafuda"


def _text(data):
    reader = PdfReader(BytesIO(data))
    return reader, "\n".join(page.extract_text() for page in reader.pages)


def _keep(name, data):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ARTIFACTS / name).write_bytes(data)


def test_the_score_sheet_has_every_planned_round_the_rounds_played_and_the_settlement(client, user):
    s = new_session(user, title="三月の花札会")
    rounds = [ROUND_A, ROUND_B, INSTA, ROUND_C]
    for n, piles in enumerate(rounds, start=1):
        services.record_round(s, n, piles)
    client.force_login(user)
    response = client.get(reverse("hanafuda:score_sheet", args=[s.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    _keep("score-sheet.pdf", response.content)
    reader, text = _text(response.content)
    assert len(reader.pages) == 1
    assert "三月の花札会" in text and "一郎" in text and "三郎" in text and "全12回" in text and "回戦" not in text
    assert "三光" in text and "大鳥" in text and "一発勝ち" in text and "七夕" in text
    _, settlement = engine_game(rounds, s.rules())
    assert "精算（4/12回まで）" in text
    for unit, total in settlement.totals.items():
        assert f"{s.sides[unit]} {total:+d}" in text


def test_a_zero_total_prints_as_0_like_the_rows(user):
    # 一郎 and 二郎 tie on 3 points; 一郎 leads from the dealer, so 二郎 pays nothing (M3(a)).
    tie = [months(1, 3, 4, 5, 8, 11), months(2, 9, 12), months(6, 7, 10)]
    s = new_session(user)
    services.record_round(s, 1, tie)
    state = services.session_state(s)
    assert state.settlement.totals == {0: 2, 1: 0, 2: -2}
    _, text = _text(pdf.score_sheet(state, []))
    assert "一郎 +2" in text and "二郎 0" in text and "三郎 -2" in text and "+0" not in text


def test_the_score_sheet_of_teams_paid_per_player_lists_the_players(user):
    options = Options(players=Players.TWO_TEAMS, rounds=3, team_payment=TeamPayment.EACH_PLAYER, payment_cap=8)
    s = new_session(user, teams=True, options=options)
    services.record_round(s, 1, [ROUND_A[0] + ROUND_A[2], ROUND_A[1]])
    data = pdf.score_sheet(services.session_state(s), ["支払いの上限: 8"])
    _keep("score-sheet-teams.pdf", data)
    reader, text = _text(data)
    assert len(reader.pages) == 1
    assert all(name in text for name in ("甲", "乙", "丙", "丁")) and "支払いの上限: 8" in text


def test_the_reference_card_lists_every_dekiyaku_with_its_cards_and_value_on_one_page(client, user):
    client.force_login(user)
    response = client.get(reverse("hanafuda:reference_card_default"))
    assert response.status_code == 200
    _keep("reference-card.pdf", response.content)
    reader, text = _text(response.content)
    assert len(reader.pages) == 1
    flat = text.replace("\n", "")
    for d in DEKIYAKU:
        assert d.name_ja in flat, d.code
    assert "柳のカス（雷）〔カス〕" in flat  # Four Brights with the Lightning (M4(a), M16)
    assert "桐のカス（黄カス以外）1枚" in flat  # Three Purple Flowers without the yellow chaff (M6(a))
    assert "猪鹿蝶はこの遊びにはない" in flat
    # the deal and the misdeal of the table (musashino-bana.md l.16–21, issue 33)
    assert "3人は手札7枚ずつ・場札6枚" in flat and "場札に同じ月の4枚がそろったら配り直し" in flat


def test_the_reference_card_says_the_teams_deal_and_the_misdeal_of_a_hand():
    teams = Options(players=Players.TWO_TEAMS, four_player_deal=FourPlayerDeal.SIX_ZERO, misdeal_four_in_hand=True)
    text = pdf.deal_text(teams)
    assert "4人（2チーム）は手札6枚ずつ・場札なし" in text and "手札に同じ月の4枚" in text
    assert "手札に同じ月" not in pdf.deal_text(Options())


def test_the_reference_card_follows_the_sessions_options(client, user):
    options = Options(four_brights=FourBrights.CURTAIN, flower_cards=FlowerCards.ANY_CARD, insta_win_value=10)
    s = new_session(user, options=options)
    client.force_login(user)
    response = client.get(reverse("hanafuda:reference_card", args=[s.pk]))
    _keep("reference-card-options.pdf", response.content)
    _, text = _text(response.content)
    flat = text.replace("\n", "")
    assert (
        pdf.yaku_cards_text("four_brights", options) == "松に鶴〔光〕 ＋ 芒に月〔光〕 ＋ 桜に幕〔光〕 ＋ 桐に鳳凰〔光〕"
    )
    assert "梅の札どれか1枚" in flat and "10" in flat


def test_a_name_no_font_can_print_still_prints_and_the_next_page_names_it(client, user, monkeypatch):
    """Paper always prints (issue 18): the name prints with 〓 and the page says so, in Japanese."""
    monkeypatch.setattr(coverage, "unprintable_chars", lambda text: [ch for ch in text if ch == "\U0001f600"])
    s = services.create_session(user, "x", ["A", "B", "\U0001f600"], Options())
    client.force_login(user)
    response = client.get(reverse("hanafuda:score_sheet", args=[s.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    page = client.get(reverse("hanafuda:session_detail", args=[s.pk])).content.decode()
    assert "U+1F600" in page and "〓" in page
    assert "PDF font" not in page and "sides[" not in page
