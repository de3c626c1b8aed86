"""The session's rounds and totals as an Excel workbook (``common.xlsx`` helpers).

Sheets: 「回」 (one row per played round: dealer, each side's dekiyaku and score, the
payments, each unit's net change and running total) and 「精算」 (totals, ranking and the
transfers that settle the game, ``settle``). Names typed by the players go
through ``write_table``, so a name like "=1+1" stays text (no formula injection).
"""

from django.utils.translation import gettext as _

from common.xlsx import add_sheet, new_workbook, workbook_bytes, write_table
from hanafuda import labels, services
from hanafuda.engine.options import Storm


def session_workbook(state: services.SessionState, rows: list[dict]) -> bytes:
    """The .xlsx bytes of a session: ``state`` from ``session_state``, ``rows`` from the views' ``_side_rows``."""
    session = state.session
    units = [services.unit_label(session, u) for u in state.units]
    wb = new_workbook()

    ws = add_sheet(wb, _("Rounds"))
    headers = [_("Round"), _("Dealer")]
    for name in session.sides:
        headers += [_("%(name)s dekiyaku") % {"name": name}, _("%(name)s score") % {"name": name}]
    headers += [_("Insta-win"), _("Payments")]
    storm = state.options.storm is not Storm.OFF
    if storm:
        headers.append(_("Storm and Sun rules"))
    headers += [_("%(name)s net") % {"name": u} for u in units]
    headers += [_("%(name)s total") % {"name": u} for u in units]
    table = []
    for r in rows:
        line = [r["number"], r["dealer"]]
        for s in r["sides"]:
            line += ["、".join(s["yaku"]), s["score"]]
        line += [
            _("yes") if r["insta_win"] else "",
            "、".join(f"{p['payer']} → {p['payee']} {p['amount']}" for p in r["payments"]),
        ]
        if storm:
            notes = [labels.labelled(s["name"], line) for s in r["sides"] for line in s["storm"]]
            if r["sun"]:
                notes.append(labels.labelled(_("Sun rule (the Crane) cancelled"), r["sun"]))
            line.append("、".join(notes))
        line += r["net"] + r["running"]
        table.append(line)
    write_table(ws, headers, table)

    ws = add_sheet(wb, _("Settlement"))
    last = write_table(
        ws,
        [_("Player"), _("Total")],
        [[u, state.settlement.totals.get(k, 0)] for u, k in zip(units, state.units, strict=True)],
        autofilter=False,
    )
    played = _("%(n)d of %(total)d rounds played") % {"n": len(state.rounds), "total": state.options.rounds}
    ws.cell(row=last + 2, column=1, value=played)
    write_table(
        ws,
        [_("Pays"), _("Receives"), _("Points")],
        [
            [services.unit_label(session, t.payer), services.unit_label(session, t.payee), t.amount]
            for t in state.settlement.transfers
        ],
        start_row=last + 4,
        freeze=False,
        autofilter=False,
    )
    return workbook_bytes(wb)
