"""What the reader screen of a Sanjô Dôsai hand shows, from the replayed hand.

Responsible for: the announcements after a call (hako, an eat, no. 2) and the whole context
of the reader screen (``reader_context``): the houses with each efuda face up or
extinguished, the last call with who pays whom, the ledger, the next yomifuda. Translated
text for the active language; nothing is stored.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from dosai.engine import calls
from dosai.engine.facts import BAKEFUDA, END_FREE, Row
from dosai.engine.options import EndFreeTurn, Options
from dosai.services import CallLine, HandReplay, subject


def short(text: str | None, size: int = 7) -> str:
    """The first characters of a proverb, for the small efuda of the layout."""
    if not text:
        return ""
    return text if len(text) <= size else text[:size] + "…"


def house_label(name: str) -> str:
    return _("house %(house)s") % {"house": name}


def announcements(line: CallLine, options: Options) -> list[str]:
    """What the reader announces after a call: hako (sanjo-dosai.md l.83), an eat applied (l.85, l.88),
    no. 2 never eaten (l.87), a new pending eat; translated sentences."""
    r = line.result
    out = []
    if r.hako:
        out.append(
            _("Call %(k)s: hako, double (%(amount)s from each payer).") % {"k": r.call_index, "amount": r.amount}
        )
    if r.holder is None:
        out.append(_("No. %(number)s is removed before play: nobody pays (D2).") % {"number": r.number})
    if r.eaten:
        out.append(
            _("%(eater)s ate with bakefuda no. %(bakefuda)s: this call is paid to %(eater)s, not to %(holder)s.")
            % {"eater": house_label(r.payee), "bakefuda": line.pending_before.bakefuda, "holder": house_label(r.holder)}
        )
    if line.no2_saved:
        if options.eat_survives_no2:
            out.append(_("No. 2 is never eaten: it is paid to its holder, and the eat waits for the next call (D7)."))
        else:
            out.append(
                _("No. 2 is never eaten: it is paid to its holder, and the eat of %(eater)s is used up (D7).")
                % {"eater": house_label(line.pending_before.house)}
            )
    eat = r.state.pending_eat
    if eat is not None and r.number in BAKEFUDA:
        out.append(
            _("%(house)s extinguished bakefuda no. %(bakefuda)s: the next call is paid to %(house)s (except no. 2).")
            % {"house": house_label(eat.house), "bakefuda": eat.bakefuda}
        )
    if r.holder is not None and not r.transfers:
        out.append(_("Nobody pays this call."))
    elif r.transfers:
        out.extend(exemption_reasons(r))
    return out


def exemption_reasons(r) -> list[str]:
    """Why each house that does not pay this call is exempt (issue 33: every exempt house says
    why), translated: its row complete (sanjo-dosai.md l.81, D4, D6), bozu (D16), the holder
    of an eaten call (D5), another house of a player (D3)."""
    rows = {"head": _("head"), "upper": _("upper row"), "middle": _("middle row"), "lower": _("lower row")}
    out = []
    for house, why in r.exempt.items():
        who = house_label(house)
        if why == calls.EXEMPT_ROW:
            text = _("%(house)s does not pay: its %(row)s is all turned down.") % {
                "house": who,
                "row": rows[str(r.exempt_row)],
            }
        elif why == calls.EXEMPT_BOZU:
            text = _("%(house)s does not pay: it is bozu.") % {"house": who}
        elif why == calls.EXEMPT_EATEN_HOLDER:
            text = _("%(house)s does not pay: its call was eaten.") % {"house": who}
        else:
            text = _("%(house)s does not pay: its player pays once or is paid.") % {"house": who}
        out.append(text)
    return out


def reader_context(r: HandReplay) -> dict:
    """Everything the reader screen draws, from a replay: the houses as laid out with each
    efuda face up or extinguished, the last call with who pays whom, the announcements,
    the running ledger per house and per player, the next yomifuda or the unread ones."""
    state = r.state
    last = r.last
    just = last.result.number if last else None
    final = r.settlement.state if r.settlement else state
    row_names = {"head": _("head"), "upper": _("upper"), "middle": _("middle"), "lower": _("lower")}
    houses = []
    for h in state.houses:
        rows = []
        for row in Row:
            efuda = [
                {
                    "number": n,
                    "short": short(subject(n).proverb),
                    "points": state.points[n],
                    "down": n in final.face_down,
                    "freed": r.settlement is not None and n in r.settlement.turned_free,
                    "bakefuda": n in BAKEFUDA,
                    "end_free": n in END_FREE,
                    "just": n == just,
                }
                for n in h.row(row)
            ]
            rows.append(
                {
                    "name": row.value,
                    "label": row_names[row.value],
                    "efuda": efuda,
                    "complete": all(n in final.face_down for n in h.row(row)),
                }
            )
        houses.append(
            {
                "name": h.name,
                "label": house_label(h.name),
                "holder": r.owners.get(h.name, ""),
                "rows": rows,
                "face_up": len(final.face_up_cards(h.name)),
                "total": r.house_totals[h.name],
                "last": last.result.payments[h.name] if last else 0,
                "payee": bool(last and last.result.payee == h.name),
                "nobori": final.is_nobori(h.name),
                "eater": bool(state.pending_eat and state.pending_eat.house == h.name and not r.over),
            }
        )
    context = {
        "houses": houses,
        "players": [{"name": p, "houses": r.hand.holdings.get(p, []), "total": v} for p, v in r.player_totals.items()],
        "last": last,
        "last_subject": last.subject if last else None,
        "last_transfers": [
            {"payer": t.payer, "payer_player": r.owners.get(t.payer, ""), "amount": t.amount}
            for t in (last.result.transfers if last else ())
        ],
        "announce": announcements(last, r.options) if last else [],
        "pending": state.pending_eat if not r.over else None,
        "next_number": r.next_number,
        "next_subject": subject(r.next_number) if r.next_number else None,
        "next_hako": r.next_is_hako and not r.over,
        "unread": r.unread,
        "history": list(reversed(r.lines)),
    }
    if r.settlement is not None:
        s = r.settlement
        context["settle"] = {
            "turned_free": s.turned_free,
            "nobori": [house_label(h) for h in s.nobori],
            "fees": [(house_label(h), v) for h, v in s.fees.items()],
            "takers": [house_label(h) for h in s.takers],
            "share": s.share,
            "pool_in": s.pool_in,
            "pool_out": s.pool_out,
            "payments": [(house_label(h), r.owners.get(h, ""), v) for h, v in s.payments.items()],
            "choice": r.options.end_free_turn is EndFreeTurn.CHOICE,
            "available": [n for n in sorted(END_FREE) if r.state.is_face_up(n)],
        }
    return context
