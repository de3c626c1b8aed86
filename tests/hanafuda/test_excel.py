"""The session's workbook, read back with openpyxl."""

from io import BytesIO

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from hanafuda import services
from hanafuda.engine.options import Options
from tests.hanafuda.helpers import INSTA, ROUND_A, ROUND_B, engine_game
from tests.workbook_numbers import numbers_as_text

pytestmark = pytest.mark.django_db


def test_the_workbook_has_the_rounds_and_the_settlement(client, django_user_model):
    user = django_user_model.objects.create_user("scorer")
    s = services.create_session(user, '=HYPERLINK("x")', ["=1+1", "B", "C"], Options(rounds=6))
    rounds = [ROUND_A, ROUND_B, INSTA]
    for n, piles in enumerate(rounds, start=1):
        services.record_round(s, n, piles)
    client.force_login(user)
    client.cookies["django_language"] = "en"
    response = client.get(reverse("hanafuda:session_xlsx", args=[s.pk]))
    assert response.status_code == 200 and response["Content-Disposition"].endswith('.xlsx"')
    wb = load_workbook(BytesIO(response.content))
    assert numbers_as_text(response.content) == []  # issue 34 item 4
    assert wb.sheetnames == ["Rounds", "Settlement"]
    ws = wb["Rounds"]
    header = [c.value for c in ws[1]]
    assert header[:4] == ["Round", "Dealer", "=1+1 dekiyaku", "=1+1 score"]
    results, settlement = engine_game(rounds, s.rules())
    body = list(ws.iter_rows(min_row=2, values_only=True))
    assert len(body) == 3
    for row, result, running in zip(body, results, settlement.running, strict=True):
        assert row[1] == s.sides[result.dealer]
        assert [row[3], row[5], row[7]] == [result.scores[i] for i in range(3)]
        assert list(row[-6:-3]) == [result.net[i] for i in range(3)]
        assert list(row[-3:]) == [running[i] for i in range(3)]
    assert body[2][8] == "yes" and "Seven Red Ribbons" in body[2][4]
    assert body[2][9] == "、".join(f"{s.sides[p.payer]} → {s.sides[p.payee]} {p.amount}" for p in results[2].payments)
    assert "、" in body[2][9]  # two payments, listed like the dekiyaku
    assert ws["B2"].data_type == "s" and ws.cell(row=1, column=3).data_type == "s"
    totals = wb["Settlement"]
    got = {r[0]: r[1] for r in totals.iter_rows(min_row=2, max_row=4, values_only=True)}
    assert got == {s.sides[u]: t for u, t in settlement.totals.items()}
    flat = [c for row in totals.iter_rows(values_only=True) for c in row if c is not None]
    assert "3 of 6 rounds played" in flat
    assert sum(t.amount for t in settlement.transfers) == sum(
        r[2] for r in totals.iter_rows(min_row=7, values_only=True) if isinstance(r[2], int)
    )
