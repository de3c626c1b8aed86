"""トーナメント表: one knockout bracket per division (A4 landscape).

Input: :class:`tournament.paper.data.EventInfo` and ``(division, matches, third-place
matches)`` triples of :class:`BracketMatch`; output: PDF bytes.  The drawing has two
steps: :func:`_layout` computes every position (team lines, junction columns, the
third-place box), then the ``_draw_*`` functions draw from those positions.  Of Django only
translation: every label is in the active language (README "Languages").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from reportlab.lib.units import mm

from common.pdf.fonts import japanese_font
from common.pdf.layout import (
    CONTENT_BOTTOM,
    LANDSCAPE,
    MARGIN,
    Masthead,
    Page,
    draw_page_header,
    header_height,
    heading_block,
    pages_pdf,
)
from common.pdf.pen import (
    HINT,
    INK,
    LINE,
    MUTED,
    SHADE,
    WHITE,
    Pen,
    draw_fitted,
    shrink,
)
from common.pdf.text import checked
from tournament.paper.bracket_placement import PlacementGame, placement_pages
from tournament.paper.data import (
    EventInfo,
    event_document,
    game_label,
    kept_mark,
    prepare_event,
    side_text,
    to_confirm,
    undecided,
)
from tournament.reports.placement import nth_place

__all__ = ["BracketMatch", "PlacementGame", "bracket_pages", "bracket_pdf"]

RED = (0.78, 0.09, 0.11)  # winners' path in the bracket (赤線)


@dataclass(frozen=True)
class BracketMatch:
    """A knockout match.

    ``round``: rounds are consecutive integers (0- or 1-based), the final being the highest.
    ``position``: the match's index within its round (0- or 1-based, the same base for all
    matches of a division); match ``(r, p)`` is fed by matches ``(r-1, 2p)`` (side A) and
    ``(r-1, 2p+1)`` (side B) in 0-based terms.  A side with no feeding match is a team
    entering in that round (a bye) and is drawn on its own line.
    ``stage`` names the round (「準決勝」, 「決勝」, 「3位決定戦」…).  ``team_a``/``team_b`` of
    ``None`` print their slot's words ``slot_a``/``slot_b`` (「Aリーグ 1位」, 「第12試合の勝者」)
    in grey, or 「未定」 when there are none; ``score_a``/``score_b`` are text (``""`` = not
    played); ``winner`` is ``"A"``, ``"B"`` or ``None``.  ``out_of_date`` (text naming the
    places that changed, ``""`` = up to date) prints 「要確認」 in red by the match number and
    the places in the division's heading.  ``kept`` (the kept result in words: 「保留: <note> ・
    A2は現在かもめ台B」, ``""`` = not kept) prints 「保留」 by the match number and the words in
    the heading, as the pages and the workbook show a kept game (docs/rules/stages.md).
    """

    round: int
    position: int
    stage: str
    match_number: int
    team_a: str | None
    team_b: str | None
    score_a: str = ""
    score_b: str = ""
    winner: str | None = None
    slot_a: str = ""
    slot_b: str = ""
    out_of_date: str = ""
    kept: str = ""


@dataclass
class _Node:
    """Bracket node: a match, or a leaf (a team line)."""

    match: dict | None
    team: tuple[str, bool] | None = None  # leaf: (name, grey)
    children: list[_Node] = field(default_factory=list)
    col: int = 0  # junction column (games); leaves: -1
    y: float = 0.0


def bracket_pdf(
    event: EventInfo,
    divisions: list[tuple[str, list[BracketMatch], list[BracketMatch]]],
    placements: list[tuple[str, list[PlacementGame]]] = (),
) -> bytes:
    """トーナメント表, one A4 landscape page per division.

    Input: the event and ``(division, games, third_place_games)`` triples.  The games form
    a knockout tree (see :class:`BracketMatch` for ``round`` / ``position``); the bracket is
    drawn left to right with the team lines on the left, a column per round headed by its
    stage name, the match number and the scores at each junction, the winners' path in
    thick red and a 「優勝」 box for the final's winner.  A team entering in a later round
    (bye) has its own line running to that round.  Unknown teams print 「未定」.  Each
    third-place game is drawn as its own small bracket (with a 「第3位」 box) in the
    bottom right corner.  Raises ``ValueError`` for two games at the same round/position
    or an unknown ``winner`` value.  ``placements`` (``(division, [PlacementGame])``) add
    pages listing each division's placement games (順位決定戦) by place.  A score is text: a
    walkover prints 「不戦勝」 for its winner.  Returns the PDF bytes.
    """
    font = japanese_font()
    ev = prepare_event(event)
    doc = event_document(ev, _("Bracket"))
    return pages_pdf(bracket_pages(ev, divisions, placements), doc, font)


def bracket_pages(
    ev: Masthead,
    divisions: list[tuple[str, list[BracketMatch], list[BracketMatch]]],
    placements: list[tuple[str, list[PlacementGame]]] = (),
) -> list[Page]:
    """The pages of :func:`bracket_pdf` laid out, not yet rendered (the 大会プログラム puts
    them between its own pages), each with the page header of ``ev``; raises what
    :func:`bracket_pdf` raises."""
    prepared = []
    for di, (division, matches, thirds) in enumerate(divisions):
        w = f"divisions[{di}]"
        dname = checked(division, f"{w}.name")
        main = [_prep_match(g, f"{w}.games[{i}]") for i, g in enumerate(matches)]
        third = [_prep_match(g, f"{w}.third_place[{i}]") for i, g in enumerate(thirds)]
        prepared.append((dname, _build_tree(main, w), third))

    size = LANDSCAPE
    pw, ph = size
    top0 = ph - header_height()
    pages = []
    title = _("Bracket")
    for dname, roots, third in prepared:
        page = Page(size, lambda pen: draw_page_header(pen, size, title, ev))
        page.extra.append(_bracket_drawer(dname, roots, third, size, top0))
        pages.append(page)
    pages += placement_pages(ev, list(placements))
    if not pages:
        page = Page(size, lambda pen: draw_page_header(pen, size, title, ev))
        empty = _("No knockout yet.")
        page.extra.append(lambda pen: pen.text_mid(pw / 2, ph / 2, empty, 12, align="center", color=MUTED))
        pages.append(page)
    return pages


def _prep_match(g: BracketMatch, what: str) -> dict:
    winner = (g.winner or "").strip().upper() or None
    if winner not in (None, "A", "B"):
        raise ValueError(f"{what}.winner must be 'A', 'B' or None, not {g.winner!r}")
    return dict(
        round=int(g.round),
        position=int(g.position),
        stage=checked(g.stage, f"{what}.stage"),
        number=str(g.match_number) if g.match_number else "",
        a=side_text(g.team_a, g.slot_a, f"{what}.team_a"),
        b=side_text(g.team_b, g.slot_b, f"{what}.team_b"),
        score_a=checked(g.score_a, f"{what}.score_a"),
        score_b=checked(g.score_b, f"{what}.score_b"),
        winner=winner,
        stale=checked(g.out_of_date, f"{what}.out_of_date"),
        kept=checked(g.kept, f"{what}.kept"),
    )


def _build_tree(matches: list[dict], what: str) -> list[_Node]:
    """Roots of the knockout forest (normally one: the final)."""
    if not matches:
        return []
    base = min(g["position"] for g in matches)
    base = 0 if base <= 0 else 1
    low = min(g["round"] for g in matches)
    index: dict[tuple[int, int], dict] = {}
    for g in matches:
        key = (g["round"], g["position"] - base)
        if key in index:
            raise ValueError(f"{what}: two games at round {g['round']}, position {g['position']}")
        index[key] = g

    def build(g: dict) -> _Node:
        r, p = g["round"], g["position"] - base
        node = _Node(match=g, col=r - low)
        for side, team in ((0, g["a"]), (1, g["b"])):
            child = index.get((r - 1, 2 * p + side))
            node.children.append(build(child) if child else _Node(match=None, team=team, col=-1))
        return node

    roots = [g for g in matches if (g["round"] + 1, (g["position"] - base) // 2) not in index]
    roots.sort(key=lambda g: (-g["round"], g["position"]))
    return [build(g) for g in roots]


def _leaves(node: _Node) -> list[_Node]:
    if node.match is None:
        return [node]
    return [leaf for c in node.children for leaf in _leaves(c)]


def _matches(node: _Node) -> list[_Node]:
    if node.match is None:
        return []
    return [node] + [g for c in node.children for g in _matches(c)]


@dataclass
class _Geometry:
    """Where everything of one division's bracket goes (points); computed by :func:`_layout`."""

    x0: float
    x1: float
    top0: float  # content top (under the page header)
    head_h: float  # the division heading
    label_h: float  # the row of round labels
    area_top: float
    area_bottom: float
    n_cols: int  # junction columns (rounds)
    leaves: list[_Node]  # team lines, top to bottom
    name_w: float
    champ_w: float
    third_w: float
    third_h: float
    thirds_h: float
    slot: float = 0.0  # height of one team line
    step: float = 0.0  # distance between junction columns
    left: float = 0.0  # left end of the team lines
    xj: list[float] = field(default_factory=list)  # x of each junction column

    @property
    def w(self) -> float:
        return self.x1 - self.x0


def _layout(roots: list[_Node], third: list[dict], size: tuple[float, float], top0: float) -> _Geometry:
    """Positions of a division's bracket on a page of ``size`` with content from ``top0`` down.

    Sets the y of every node; a small bracket (≤ 8 lines, no third-place match) is centred.
    The third-place boxes go to the bottom right corner; when they would overlap the
    bracket, the bracket is laid out again above them.
    """
    pw, _ = size
    x0, x1 = MARGIN, pw - MARGIN
    head_h, label_h = 10 * mm, 7 * mm
    name_w = min(66 * mm, (x1 - x0) * 0.25)
    third_h = 30 * mm
    geo = _Geometry(
        x0=x0,
        x1=x1,
        top0=top0,
        head_h=head_h,
        label_h=label_h,
        area_top=top0 - head_h - label_h,
        area_bottom=CONTENT_BOTTOM + 2 * mm,
        n_cols=max((r.col + 1 for r in roots), default=0),
        leaves=[leaf for r in roots for leaf in _leaves(r)],
        name_w=name_w,
        champ_w=50 * mm,
        third_w=min(name_w, 56 * mm) + 24 * mm + 14 * mm + 44 * mm,
        third_h=third_h,
        thirds_h=third_h * len(third) + 3 * mm * max(len(third) - 1, 0),
        left=x0,
    )
    _place(geo, roots, third, geo.area_bottom)
    if third:
        rect = (x1 - geo.third_w, geo.area_bottom, x1, geo.area_bottom + geo.thirds_h)
        if _hits(geo, roots, rect):
            _place(geo, roots, third, geo.area_bottom + geo.thirds_h + 6 * mm)
    return geo


def _place(geo: _Geometry, roots: list[_Node], third: list[dict], bottom: float) -> None:
    """Slot height, junction columns and every node's y for a bracket above ``bottom``."""
    lines = len(geo.leaves) + max(len(roots) - 1, 0)  # a blank slot between separate trees
    slot = min(16 * mm, (geo.area_top - bottom) / max(lines, 1))
    span = slot * lines
    centre = lines <= 8 and not third
    top = geo.area_top - max(0.0, (geo.area_top - bottom - span) / 2) if centre else geo.area_top
    n_cols, w = geo.n_cols, geo.w
    step = min(48 * mm, (w - geo.name_w - geo.champ_w - 6 * mm) / (n_cols + 0.55)) if n_cols else 0
    used = geo.name_w + step * (n_cols + 0.55) + 2 * mm + geo.champ_w
    geo.left = left = geo.x0 + max(0.0, (w - used) / 2)  # small brackets centred
    geo.xj = [left + geo.name_w + step * (k + 1) for k in range(n_cols)]
    geo.slot, geo.step = slot, step
    i = 0
    for root in roots:
        for leaf in _leaves(root):
            leaf.y = top - slot * (i + 0.5)
            i += 1
        i += 1
    for root in roots:
        _assign_y(root)


def _overlaps(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hits(geo: _Geometry, roots: list[_Node], rect: tuple[float, float, float, float]) -> bool:
    """Whether any line, score or the champion box of the bracket enters ``rect``
    (x0, y0, x1, y1 in points)."""
    xj = geo.xj
    for root in roots:
        for g in _matches(root):
            gx = xj[g.col]
            for c in g.children:
                cx = geo.left if c.match is None else xj[c.col]
                if _overlaps((min(cx, gx), min(c.y, g.y) - 4 * mm, gx + 26 * mm, max(c.y, g.y) + 4 * mm), rect):
                    return True
        if root.col == geo.n_cols - 1 and _overlaps((xj[-1], root.y - 12 * mm, geo.x1, root.y + 12 * mm), rect):
            return True  # the champion box
    return False


def _bracket_drawer(
    dname: str, roots: list[_Node], third: list[dict], size: tuple[float, float], top0: float
) -> Callable[[Pen], None]:
    """The page's drawing of one division: layout now, drawing when the page renders."""
    geo = _layout(roots, third, size, top0)
    return lambda pen: _draw_bracket(pen, dname, roots, third, geo)


def _draw_bracket(pen: Pen, dname: str, roots: list[_Node], third: list[dict], geo: _Geometry) -> None:
    leaves = geo.leaves
    games = [g.match for root in roots for g in _matches(root)] + third
    notes = [f"※{to_confirm()} {game_label(g['number'])}: {g['stale']}" for g in games if g["stale"]]
    notes += [f"※{kept_mark()} {game_label(g['number'])}: {g['kept']}" for g in games if g.get("kept")]
    count = [_("%(count)s teams") % {"count": len(leaves)}] if leaves else []
    right = "　".join(count + notes)
    heading_block(geo.x0, geo.w, f"▽{dname}", right, size=13.5, height=geo.head_h).draw(pen, geo.top0)
    if not roots and not third:
        cy = (geo.area_top + geo.area_bottom) / 2
        pen.text_mid((geo.x0 + geo.x1) / 2, cy, _("The pairings are not decided yet."), 12, align="center", color=MUTED)
        return
    _draw_round_labels(pen, roots, geo)
    _draw_team_lines(pen, geo)
    matches = [g for root in roots for g in _matches(root)]
    _draw_lines(pen, matches, geo)
    for g in matches:
        _draw_scores(pen, g, geo)
    _draw_winners(pen, roots, geo)
    # third-place matches, bottom right
    y = geo.area_bottom + geo.thirds_h
    for t in third:
        _draw_third(pen, t, geo.x1 - geo.third_w, y - geo.third_h, geo.third_w, geo.third_h, min(geo.name_w, 56 * mm))
        y -= geo.third_h + 3 * mm


def _single_final(roots: list[_Node], geo: _Geometry) -> bool:
    """One tree whose final is in the last column: it gets the 「優勝」 box."""
    return bool(roots) and roots[0].col == geo.n_cols - 1 and len(roots) == 1


def _draw_round_labels(pen: Pen, roots: list[_Node], geo: _Geometry) -> None:
    """The stage name over each junction column (the most common one of its matches)."""
    stages: dict[int, Counter] = {}
    for root in roots:
        for g in _matches(root):
            stages.setdefault(g.col, Counter())[g.match["stage"]] += 1
    step = geo.step
    ly = geo.top0 - geo.head_h - geo.label_h / 2
    for col, counter in stages.items():
        label = counter.most_common(1)[0][0]
        if label:
            cx = geo.xj[col] - step / 2
            s = shrink(pen, label, step - 3 * mm, 10)
            pen.rect(
                cx - step / 2 + 1.5 * mm, ly - 2.6 * mm, step - 3 * mm, 5.2 * mm, fill=SHADE, stroke=None, radius=1 * mm
            )
            pen.text_mid(cx, ly, label, s, align="center", bold=True, color=MUTED)
    if _single_final(roots, geo):
        cx = geo.xj[-1] + step * 0.55 + 2 * mm + (geo.champ_w - 2 * mm) / 2
        pen.text_mid(cx, ly, _("Champion"), 10, align="center", bold=True, color=INK)


def _draw_team_lines(pen: Pen, geo: _Geometry) -> None:
    nh = min(geo.slot * 0.78, 9.5 * mm)
    for leaf in geo.leaves:
        name, grey = leaf.team
        pen.rect(geo.left, leaf.y - nh / 2, geo.name_w, nh, fill=WHITE, stroke=MUTED, width=0.5, radius=0.8 * mm)
        draw_fitted(
            pen,
            geo.left,
            leaf.y - nh / 2,
            geo.name_w,
            nh,
            name,
            max_size=11.5,
            min_size=6,
            align="left",
            bold=not grey,
            color=HINT if grey else INK,
            pad=1.6 * mm,
            vpad=min(0.8 * mm, nh * 0.08),
        )


def _draw_lines(pen: Pen, matches: list[_Node], geo: _Geometry) -> None:
    """The bracket lines: plain lines first, the winners' path in red on top."""
    for emphasised in (False, True):
        for g in matches:
            gx = geo.xj[g.col]
            for side, c in zip("AB", g.children, strict=True):
                win = g.match["winner"] == side
                if win != emphasised:
                    continue
                cx = geo.left + geo.name_w if c.match is None else geo.xj[c.col]
                color, width = (RED, 2.2) if win else (LINE, 0.7)
                pen.hline(cx, gx, c.y, width=width, color=color)
                pen.vline(gx, c.y, g.y, width=width, color=color)


def _draw_scores(pen: Pen, g: _Node, geo: _Geometry) -> None:
    """The scores in the junction's mouth and the match number on its outgoing line."""
    gx = geo.xj[g.col]
    (ca, cb) = g.children
    mouth = abs(ca.y - cb.y)
    ss = min(9.0, mouth / 2.6)
    if ss >= 5.5:
        # each score inside the mouth, next to its own line
        for side, c, key in (("A", ca, "score_a"), ("B", cb, "score_b")):
            score = g.match[key]
            if not score:
                continue
            win = g.match["winner"] == side
            by = c.y - ss * 1.05 if side == "A" else c.y + ss * 0.3
            pen.text(gx - 1.3 * mm, by, score, ss, align="right", bold=win, color=RED if win else MUTED)
    elif g.match["score_a"] or g.match["score_b"]:
        # a narrow mouth: one 「30-24」 line in the middle, winner's score in red (「不戦勝」 alone)
        cs = max(4.5, min(7.0, mouth * 0.62))
        parts = [
            (g.match["score_a"], g.match["winner"] == "A"),
            ("-", False),
            (g.match["score_b"], g.match["winner"] == "B"),
        ]
        if not all(t.isdigit() for t, _win in parts[::2]):
            parts = [(t, win) for t, win in parts[::2] if t and win][:1] or parts
        x = gx - 1.1 * mm - sum(pen.width(t, cs) for t, _ in parts)
        for t, win in parts:
            pen.text_mid(x, g.y, t, cs, bold=win, color=RED if win else MUTED)
            x += pen.width(t, cs)
    label = _number_label(g.match)
    ms = max(5.0, min(7.0, geo.slot * 0.45))
    out_end = geo.xj[g.col + 1] if g.col + 1 < len(geo.xj) else gx + geo.step * 0.55
    ms = min(ms, shrink(pen, label, (out_end - gx) - 3 * mm, ms))
    pen.text(gx + 1.3 * mm, g.y + 1.1 * mm, label, ms, color=RED if g.match["stale"] else MUTED)


def _number_label(match: dict) -> str:
    """「第12試合」, with 「要確認」 for a game that is out of date, 「保留」 for a kept one; ""
    for a game not numbered yet (``match_number`` 0: the 大会プログラム's empty bracket)."""
    if not match["number"]:
        return ""
    label = game_label(match["number"])
    if match["stale"]:
        return f"{label} {to_confirm()}"
    return f"{label} {kept_mark()}" if match.get("kept") else label


def _draw_winners(pen: Pen, roots: list[_Node], geo: _Geometry) -> None:
    """The outgoing line of each tree's last match, and the 「優勝」 box of a single final."""
    for root in roots:
        gx = geo.xj[root.col]
        decided = root.match["winner"] in ("A", "B")
        end = gx + geo.step * 0.55
        pen.hline(gx, end + 2 * mm, root.y, width=2.2 if decided else 0.7, color=RED if decided else LINE)
        if root is roots[0] and _single_final(roots, geo):
            bw, bh = geo.champ_w - 2 * mm, min(max(geo.slot * 0.9, 10 * mm), 14 * mm)
            _winner_box(pen, root.match, end + 2 * mm, root.y - bh / 2, bw, bh, decided=decided)


def _winner_box(pen: Pen, match: dict, bx: float, by: float, bw: float, bh: float, *, decided: bool) -> None:
    name, grey = _winner_name(match)
    pen.rect(
        bx, by, bw, bh, fill=WHITE, stroke=RED if decided else LINE, width=1.8 if decided else 0.8, radius=1.2 * mm
    )
    draw_fitted(
        pen,
        bx,
        by,
        bw,
        bh,
        name,
        max_size=13,
        min_size=6,
        bold=not grey,
        color=HINT if grey else INK,
        pad=2 * mm,
    )


def _assign_y(node: _Node) -> None:
    if node.match is None:
        return
    for c in node.children:
        _assign_y(c)
    node.y = (node.children[0].y + node.children[1].y) / 2


def _winner_name(match: dict) -> tuple[str, bool]:
    if match["winner"] == "A":
        return match["a"]
    if match["winner"] == "B":
        return match["b"]
    return undecided(), True


def _draw_third(pen: Pen, g: dict, x: float, y: float, w: float, h: float, name_w: float) -> None:
    """A single match drawn as a small bracket: label, two team lines, result box."""
    label_h = 6 * mm
    pen.rect(x, y, w, h, fill=None, stroke=HINT, width=0.4, radius=1.5 * mm, dash=(2, 1.5))
    lab = g["stage"] or _("Third-place game")
    pen.text(x + 2 * mm, y + h - label_h + 1.6 * mm, lab, 9.5, bold=True, color=MUTED)
    inner_top = y + h - label_h
    slot = (inner_top - y - 1.5 * mm) / 2
    ya, yb = inner_top - slot * 0.5, inner_top - slot * 1.5
    nh = min(slot * 0.8, 8.5 * mm)
    nx = x + 2 * mm
    nw = name_w - 2 * mm
    for (name, grey), ty in ((g["a"], ya), (g["b"], yb)):
        pen.rect(nx, ty - nh / 2, nw, nh, fill=WHITE, stroke=MUTED, width=0.5, radius=0.8 * mm)
        draw_fitted(
            pen,
            nx,
            ty - nh / 2,
            nw,
            nh,
            name,
            max_size=10.5,
            min_size=5.5,
            align="left",
            bold=not grey,
            color=HINT if grey else INK,
            pad=1.4 * mm,
        )
    gx = nx + nw + 24 * mm
    gy = (ya + yb) / 2
    for emphasised in (False, True):
        for side, ty in (("A", ya), ("B", yb)):
            win = g["winner"] == side
            if win != emphasised:
                continue
            color, width = (RED, 2.2) if win else (LINE, 0.7)
            pen.hline(nx + nw, gx, ty, width=width, color=color)
            pen.vline(gx, ty, gy, width=width, color=color)
    ss = 8.5
    for side, ty, key in (("A", ya, "score_a"), ("B", yb, "score_b")):
        if g[key]:
            win = g["winner"] == side
            by = ty - ss * 1.05 if side == "A" else ty + ss * 0.3
            pen.text(gx - 1.3 * mm, by, g[key], ss, align="right", bold=win, color=RED if win else MUTED)
    decided = g["winner"] in ("A", "B")
    bx = gx + 14 * mm
    pen.hline(gx, bx, gy, width=2.2 if decided else 0.7, color=RED if decided else LINE)
    label = _number_label(g)
    pen.text(
        gx + 1.3 * mm, gy + 1.1 * mm, label, shrink(pen, label, 11.5 * mm, 6.5), color=RED if g["stale"] else MUTED
    )
    bw = x + w - 2 * mm - bx
    bh = min(nh * 1.2, 10 * mm)
    pen.text_mid(bx + bw / 2, gy + bh / 2 + 2.6 * mm, nth_place(3), 8.5, align="center", bold=True)
    name, grey = _winner_name(g)
    pen.rect(
        bx,
        gy - bh / 2,
        bw,
        bh,
        fill=WHITE,
        stroke=RED if decided else LINE,
        width=1.6 if decided else 0.8,
        radius=1 * mm,
    )
    draw_fitted(
        pen,
        bx,
        gy - bh / 2,
        bw,
        bh,
        name,
        max_size=11,
        min_size=5.5,
        bold=not grey,
        color=HINT if grey else INK,
        pad=1.6 * mm,
    )
