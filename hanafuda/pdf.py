"""Printed paper of the hanafuda scorekeeper (reportlab, A4, embedded Japanese font).

* ``score_sheet``: the session's score sheet, A4 landscape: header (title, date, players,
  house rules in force), one row per planned round (dealer, each side's dekiyaku and
  score, each player's net change and running total; rounds not yet played are blank rows
  to fill in by hand) and the settlement at the bottom.
* ``reference_card``: every dekiyaku with its value and its exact cards under the options
  (docs/rules/musashino-bana.md s.2.1, M4, M6, M7, M16), on one A4 portrait page.

The fixed headings are Japanese, as on the tournament's paper (``judging.paper``); names of
cards and dekiyaku come from the engine's Japanese names. Every data string goes through
``common.pdf.fonts.check_glyphs`` (a log line); the pen draws a character the main font lacks
from a fallback font, or as 〓 when no installed font has it (docs/rules/paper.md, "Paper always
prints"). Rendering is serialised with the recording sheets' lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO

from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.units import mm

from common.dates import format_date
from common.pdf.fonts import check_glyphs, japanese_font
from common.pdf.layout import open_canvas
from common.pdf.pen import INK, LINE, MUTED, RENDER_LOCK, SHADE, WHITE, Pen
from common.pdf.text import clean
from hanafuda.engine.deck import CARD_BY_ID, FLOWERS, CardType, cards_of_month
from hanafuda.engine.dekiyaku import DEKIYAKU, DEKIYAKU_BY_CODE
from hanafuda.engine.formation import ScoredYaku, composition
from hanafuda.engine.options import DEFAULT_OPTIONS, FourPlayerDeal, Options, Players

__all__ = ["score_sheet", "reference_card", "slot_text", "yaku_cards_text"]

MARGIN = 12 * mm
SOURCE = (
    "出典: FudaWiki「Musashino-Bana」（長沼孝一郎『古今室内遊戯余談』風俗画報381号）。一発勝ちの8点は同ページの仮定。"
)


def _signed(points: int) -> str:
    """Points with their sign: +3, -2, and 0 without one."""
    return f"{points:+d}" if points else "0"


def _checked(text: object, what: str) -> str:
    text = clean(text)
    check_glyphs(text, what)
    return text


def _yaku_ja(y: ScoredYaku) -> str:
    times = f"×{y.count}" if y.count > 1 else ""
    return f"{y.dekiyaku.name_ja}{times}{y.points}"


def _unit_name(session, unit) -> str:
    return session.sides[unit] if isinstance(unit, int) else str(unit)


# --------------------------------------------------------------------------- score sheet


def score_sheet(state, rules: list[str] | None = None) -> bytes:
    """The score sheet of a session as PDF bytes.

    ``state``: ``hanafuda.services.SessionState``; ``rules``: the house rules that differ
    from the defaults, one line each (shown in the header). Never refuses a name: see the
    module's docstring.
    """
    session = state.session
    sides = [_checked(n, f"sides[{i}]") for i, n in enumerate(session.sides)]
    units = [_checked(_unit_name(session, u), "players") for u in state.units]
    title = _checked(session.title, "title")
    rules = [_checked(r, "rules") for r in (rules or [])]
    font = japanese_font()
    with RENDER_LOCK:
        buf = BytesIO()
        c = open_canvas(buf, landscape(A4), font, title=f"{title} 得点表", keywords=["武蔵野花"])
        pen = Pen(c, font)
        _draw_score_sheet(pen, state, title, sides, units, rules)
        c.showPage()
        c.save()
        return buf.getvalue()


@dataclass
class _Grid:
    """Where the score sheet's columns and rows lie (points): x of each column edge, widths."""

    x0: float
    width: float
    xs: list[float]
    w_no: float
    w_dealer: float
    w_yaku: float
    w_pts: float
    w_net: float
    w_run: float
    n_sides: int
    n_units: int
    head_top: float
    head_h: float
    row_h: float

    @property
    def base(self) -> int:
        """Index of the first 収支 column."""
        return 2 + 2 * self.n_sides

    @property
    def mid(self) -> float:
        return self.head_top - self.head_h / 2


def _draw_score_sheet(pen: Pen, state, title, sides, units, rules):
    page_w, page_h = landscape(A4)
    top = page_h - MARGIN
    _draw_title(pen, state, title, sides, rules, MARGIN, top, page_w - 2 * MARGIN)
    grid = _grid(page_w - 2 * MARGIN, top, len(sides), len(units), state.options.rounds)
    _draw_column_heads(pen, grid, sides, units)
    played = {r.number: r for r in state.rounds}
    y = grid.head_top - grid.head_h
    for number in range(1, state.options.rounds + 1):
        y -= grid.row_h
        _draw_round(pen, grid, state, sides, number, played.get(number), y)
    # Lines between groups run through the header; lines inside a group (役 | 点, one unit |
    # the next) stop under the group's label, so the label spans its columns.
    base, n_units = grid.base, grid.n_units
    group_starts = {1, 2, base, base + n_units} | {2 + 2 * i for i in range(grid.n_sides)}
    for k, x in enumerate(grid.xs[1:-1], start=1):
        pen.vline(x, y, grid.head_top if k in group_starts else grid.mid)
    pen.rect(grid.x0, y, grid.width, grid.head_top - y, stroke=INK, width=1.0)
    _draw_settlement(pen, state, units, grid.x0, y - 8 * mm)


def _draw_title(pen: Pen, state, title, sides, rules, x0, top, width):
    """The title, the date, rounds, seating and first dealer, and the house rules in force."""
    session, options = state.session, state.options
    pen.text(x0, top - 6 * mm, f"武蔵野花 得点表 ・ {title}", 15, bold=True)
    created = format_date(session.created)  # 2026年12月2日(水): no leading zeros (issue 33)
    if session.is_teams:
        who = " 対 ".join(f"{n}（{'・'.join(m)}）" for n, m in zip(sides, session.team_members, strict=True))
    else:
        who = " ・ ".join(f"{i + 1}. {n}" for i, n in enumerate(sides))
    pen.text(
        x0,
        top - 12 * mm,
        f"{created}　全{options.rounds}回　座順（反時計回り）：{who}　最初の親：{state.dealer_names[0]}",
        9,
    )
    rule_text = "ルール：" + ("、".join(rules) if rules else "標準（既定値）")
    pen.fitted(x0, top - 21 * mm, width, 7 * mm, rule_text, max_size=8, min_size=5.5, align="left", pad=0, color=MUTED)


def _grid(width, top, n_sides, n_units, planned) -> _Grid:
    """Columns: 回, 親, per side (役, 点), per unit (収支), per unit (累計); rows fill the page."""
    w_no, w_dealer, w_pts, w_net, w_run = 9 * mm, 22 * mm, 9 * mm, 12 * mm, 14 * mm
    w_yaku = (width - w_no - w_dealer - n_sides * w_pts - n_units * (w_net + w_run)) / n_sides
    widths = [w_no, w_dealer] + [w_yaku, w_pts] * n_sides + [w_net] * n_units + [w_run] * n_units
    xs = [MARGIN]
    for w in widths:
        xs.append(xs[-1] + w)
    head_top, head_h, bottom_reserved = top - 23 * mm, 11 * mm, 30 * mm
    row_h = min(14 * mm, (head_top - head_h - MARGIN - bottom_reserved) / planned)
    return _Grid(
        MARGIN, width, xs, w_no, w_dealer, w_yaku, w_pts, w_net, w_run, n_sides, n_units, head_top, head_h, row_h
    )


def _draw_column_heads(pen: Pen, g: _Grid, sides, units):
    """The header band: group labels above (a side's name, 収支, 累計), column labels below."""
    pen.rect(g.x0, g.head_top - g.head_h, g.width, g.head_h, fill=SHADE, stroke=LINE)
    low = g.head_top - g.head_h
    pen.fitted(g.xs[0], low, g.w_no, g.head_h, "回", max_size=9, min_size=6)
    pen.fitted(g.xs[1], low, g.w_dealer, g.head_h, "親", max_size=9, min_size=6)
    for i, name in enumerate(sides):
        xa = g.xs[2 + 2 * i]
        pen.fitted(xa, g.mid, g.w_yaku + g.w_pts, g.head_h / 2, name, max_size=10, min_size=6, bold=True)
        pen.fitted(xa, low, g.w_yaku, g.head_h / 2, "出来役", max_size=8, min_size=6)
        pen.fitted(xa + g.w_yaku, low, g.w_pts, g.head_h / 2, "点", max_size=8, min_size=6)
        pen.hline(xa, xa + g.w_yaku + g.w_pts, g.mid)
    for label, offset, w in (("収支", 0, g.w_net), ("累計", g.n_units, g.w_run)):
        xa = g.xs[g.base + offset]
        pen.fitted(xa, g.mid, w * g.n_units, g.head_h / 2, label, max_size=9, min_size=6, bold=True)
        pen.hline(xa, xa + w * g.n_units, g.mid)
        for j, u in enumerate(units):
            pen.fitted(xa + j * w, low, w, g.head_h / 2, u, max_size=7.5, min_size=4.5, max_lines=1)


def _round_yaku(res, side) -> str:
    """A side's dekiyaku of a round, with an insta-win and what the storm took away."""
    yaku = "・".join(_yaku_ja(yk) for yk in res.dekiyaku[side])
    if res.insta_win is not None and res.insta_win.side == side:
        yaku = "一発勝ち " + yaku
    effect = res.storm.get(side)
    if effect is not None and effect.lost:  # docs/rules/musashino-bana.md l.24–29
        lost = "・".join(DEKIYAKU_BY_CODE[c].name_ja for c in effect.lost)
        yaku = (yaku + "　" if yaku else "") + f"（嵐で{lost}を失う）"
    return yaku


def _draw_round(pen: Pen, g: _Grid, state, sides, number, r, y):
    """One row: the round's number and, once played, its dealer, each side's dekiyaku and
    points, and each unit's net and running total."""
    fill = WHITE if number % 2 else (0.975, 0.978, 0.985)
    pen.rect(g.x0, y, g.width, g.row_h, fill=fill, stroke=LINE)
    pen.fitted(g.xs[0], y, g.w_no, g.row_h, str(number), max_size=10, min_size=6)
    if r is None:
        return
    res = r.result
    pen.fitted(g.xs[1], y, g.w_dealer, g.row_h, state.dealer_names[number - 1], max_size=9, min_size=5)
    for i in range(g.n_sides):
        yaku = _round_yaku(res, i)
        color = INK if yaku else MUTED
        pen.fitted(
            g.xs[2 + 2 * i], y, g.w_yaku, g.row_h, yaku or "—", max_size=8, min_size=6.5, align="left", color=color
        )
        bold = i in res.winners
        pen.fitted(g.xs[3 + 2 * i], y, g.w_pts, g.row_h, str(res.scores[i]), max_size=10, min_size=6, bold=bold)
    for j, u in enumerate(state.units):
        pen.fitted(g.xs[g.base + j], y, g.w_net, g.row_h, _signed(res.net[u]), max_size=9, min_size=6)
        running = _signed(r.running[u])
        pen.fitted(g.xs[g.base + g.n_units + j], y, g.w_run, g.row_h, running, max_size=10, min_size=6, bold=True)


def _draw_settlement(pen: Pen, state, units, x0, y):
    """The totals so far, who pays whom, and the rule of payment with the source."""
    session, settlement, planned = state.session, state.settlement, state.options.rounds
    status = "精算" if state.complete else f"精算（{len(state.rounds)}/{planned}回まで）"
    totals = "　".join(f"{u} {_signed(settlement.totals.get(k, 0))}" for u, k in zip(units, state.units, strict=True))
    pen.text(x0, y, f"{status}：{totals}", 11, bold=True)
    transfers = "、".join(
        f"{_unit_name(session, t.payer)} → {_unit_name(session, t.payee)} {t.amount}" for t in settlement.transfers
    )
    pen.text(x0, y - 6 * mm, f"支払い：{transfers or 'なし'}", 10)
    pen.text(
        x0,
        y - 12 * mm,
        "負けた人（チーム）は勝った人（チーム）へ点差を払う。勝った人（チーム）が次の親。 " + SOURCE,
        6.5,
        color=MUTED,
    )


# --------------------------------------------------------------------------- reference card


def slot_text(slot: frozenset[int]) -> str:
    """One slot of a composition in words: a card 「松に鶴〔光〕」, or the choice it allows."""
    cards = sorted(slot)
    month = CARD_BY_ID[cards[0]].month
    flower = FLOWERS[month - 1].name_ja
    if len(cards) == 1:
        c = CARD_BY_ID[cards[0]]
        return f"{c.name_ja}〔{c.type.ja}〕"
    if slot == cards_of_month(month):
        return f"{flower}の札どれか1枚"
    if all(CARD_BY_ID[c].type is CardType.CHAFF for c in cards):
        all_chaff = {c for c in cards_of_month(month) if CARD_BY_ID[c].type is CardType.CHAFF}
        extra = "" if slot == all_chaff else "（黄カス以外）"
        return f"{flower}のカス{extra}1枚"
    return "（" + " か ".join(f"{CARD_BY_ID[c].name_ja}〔{CARD_BY_ID[c].type.ja}〕" for c in cards) + "）"


def yaku_cards_text(code: str, options: Options = DEFAULT_OPTIONS) -> str:
    """The cards of a dekiyaku under the options, in words (docs/rules/musashino-bana.md s.2.1)."""
    return " ＋ ".join(slot_text(s) for s in composition(code, options))


def reference_card(options: Options = DEFAULT_OPTIONS, *, title: str = "", rules: list[str] | None = None) -> bytes:
    """The dekiyaku reference card as PDF bytes (one A4 portrait page).

    ``options``: the compositions and values in force (insta-win value, M4, M6, M7, M16);
    ``title``: the session's title (optional); ``rules``: house-rule lines to print.
    """
    title = _checked(title, "title")
    rules = [_checked(r, "rules") for r in (rules or [])]
    font = japanese_font()
    with RENDER_LOCK:
        buf = BytesIO()
        c = open_canvas(buf, A4, font, title="武蔵野花 出来役一覧", keywords=["武蔵野花"])
        _draw_reference(Pen(c, font), options, title, rules)
        c.showPage()
        c.save()
        return buf.getvalue()


def _draw_reference(pen: Pen, options, title, rules):
    page_w, page_h = A4
    x0, top = MARGIN, page_h - MARGIN
    width = page_w - 2 * MARGIN
    pen.text(x0, top - 6 * mm, "武蔵野花（むさしのばな） 出来役一覧", 15, bold=True)
    sub = f"{title}　" if title else ""
    sub += "ルール：" + ("、".join(rules) if rules else "標準（既定値）")
    pen.fitted(x0, top - 16 * mm, width, 8 * mm, sub, max_size=8.5, min_size=5.5, align="left", pad=0, color=MUTED)
    pen.text(
        x0,
        top - 20 * mm,
        "札の種類: 〔光〕〔種〕〔短冊〕〔カス〕。出来役は重ねて数え、1枚の札が複数の役に使える。"
        "同じ役は1回だけ数える。四光ができたら三光は数えない。",
        7.5,
    )

    w_name, w_val = 40 * mm, 12 * mm
    w_cards = width - w_name - w_val
    head_top = top - 24 * mm
    head_h = 7 * mm
    footer = 18 * mm
    n = len(DEKIYAKU)
    row_h = min(10 * mm, (head_top - head_h - MARGIN - footer) / n)
    pen.rect(x0, head_top - head_h, width, head_h, fill=SHADE)
    for x, w, label in (
        (x0, w_name, "出来役（読み）"),
        (x0 + w_name, w_val, "点"),
        (x0 + w_name + w_val, w_cards, "札"),
    ):
        pen.fitted(x, head_top - head_h, w, head_h, label, max_size=9, min_size=6, bold=True)
    y = head_top - head_h
    for d in DEKIYAKU:
        y -= row_h
        value = options.insta_win_value if d.insta_win else d.value
        fill = (1.0, 0.96, 0.88) if d.insta_win else WHITE
        pen.rect(x0, y, width, row_h, fill=fill)
        pen.fitted(
            x0, y, w_name, row_h, f"{d.name_ja}（{d.reading}）", max_size=9, min_size=5.5, align="left", bold=True
        )
        pen.fitted(x0 + w_name, y, w_val, row_h, str(value), max_size=11, min_size=7, bold=True)
        cards = yaku_cards_text(d.code, options)
        if d.insta_win:
            cards += "　※一発勝ち"
        if d.suppresses:
            cards += "　※三光は数えない"
        pen.fitted(x0 + w_name + w_val, y, w_cards, row_h, cards, max_size=8.5, min_size=7.5, align="left")
    pen.vline(x0 + w_name, y, head_top)
    pen.vline(x0 + w_name + w_val, y, head_top)
    pen.rect(x0, y, width, head_top - y, stroke=INK, width=1.0)
    pen.text(
        x0,
        y - 5 * mm,
        "※一発勝ち: 揃った時点で回が終わり、その役だけを払う（他の役は数えない）。"
        "最高点の人（チーム）が勝ち、ほかはその差を払う。猪鹿蝶はこの遊びにはない。",
        7.5,
    )
    pen.text(x0, y - 9.5 * mm, deal_text(options), 7.5)
    pen.text(x0, y - 13.5 * mm, SOURCE, 6.5, color=MUTED)


def deal_text(options: Options) -> str:
    """The deal and the misdeals, as the reference card prints them (musashino-bana.md
    l.16–21; the misdeal of a hand, M15, when the house rule has it)."""
    if options.players is Players.TWO_TEAMS:
        if options.four_player_deal is FourPlayerDeal.FIVE_EIGHT:
            deal = "配り方：4人（2チーム）は手札5枚ずつ・場札8枚"
        else:
            deal = "配り方：4人（2チーム）は手札6枚ずつ・場札なし"
    else:
        deal = "配り方：3人は手札7枚ずつ・場札6枚"
    text = deal + "、残りは山札。場札に同じ月の4枚がそろったら配り直し。"
    if options.misdeal_four_in_hand:
        text += "手札に同じ月の4枚がそろったときも配り直し。"
    return text
