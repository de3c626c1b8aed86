"""Display names of the engine's data (cards, dekiyaku, types) in the active language.

The engine (``hanafuda.engine.deck`` and ``hanafuda.engine.dekiyaku``) carries both a Japanese and an English name for every
card and dekiyaku; these helpers pick the one of the active language (Japanese by default,
English with the Japanese name beside it, so the players still recognise the cards).
"""

from django.utils.translation import get_language

from hanafuda.engine.deck import CARD_BY_ID, FLOWERS
from hanafuda.engine.dekiyaku import DEKIYAKU_BY_CODE, Dekiyaku
from hanafuda.engine.formation import ScoredYaku


def _japanese() -> bool:
    return (get_language() or "ja").startswith("ja")


def card_name(card_id: int) -> str:
    """The card's name: 「松に鶴」, or "Crane (with sun)" in English."""
    c = CARD_BY_ID[card_id]
    return c.name_ja if _japanese() else c.name_en


def card_with_number(card_id: int) -> str:
    """The card's name with its number (month × 10 + rank, printed on the order-entry grid):
    「芒のカス（82）」, or "Pampas chaff (82)" in English; two cards may share a name."""
    return f"{card_name(card_id)}（{card_id}）" if _japanese() else f"{card_name(card_id)} ({card_id})"


def type_mark(card_id: int) -> str:
    """The card's type in Japanese (光/種/短冊/カス); these marks are the players' own words."""
    return CARD_BY_ID[card_id].type.ja


def yaku_name(code_or_yaku) -> str:
    """A dekiyaku's name: 「四光」, or "Four Brights 四光" in English."""
    d = (
        code_or_yaku
        if isinstance(code_or_yaku, Dekiyaku)
        else DEKIYAKU_BY_CODE[getattr(code_or_yaku, "code", code_or_yaku)]
    )
    return d.name_ja if _japanese() else f"{d.name_en} {d.name_ja}"


def scored_label(y: ScoredYaku) -> str:
    """One scored dekiyaku with its points: 「三光 2」 (「花の宴 ×2 2」 when counted twice, M8(b))."""
    times = f" ×{y.count}" if y.count > 1 else ""
    return f"{yaku_name(y.dekiyaku)}{times} {y.points}"


def month_name(month: int) -> str:
    f = FLOWERS[month - 1]
    return f"{month}月 {f.name_ja}" if _japanese() else f"{f.name_en} ({month})"


def draw_rank_name(card_id: int) -> str:
    """How early a drawn card is, the month and the kind (what makes two drawn cards equal,
    musashino-bana.md l.12): 「1月 松 ・ カス」, or "Pine (1), chaff" in English."""
    c = CARD_BY_ID[card_id]
    return f"{month_name(c.month)} ・ {c.type.ja}" if _japanese() else f"{month_name(c.month)}, {c.type.value}"


def colon() -> str:
    """What stands between a label and its value: 「：」, or ": " in English."""
    return "：" if _japanese() else ": "


def labelled(label, text) -> str:
    """A label and its value: 「支払いの上限：8」, or "Payment cap: 8" in English."""
    return f"{label}{colon()}{text}"


def label_suffix() -> str:
    """What follows a form field's label: 「：」 in Japanese, ":" in English."""
    return "：" if _japanese() else ":"


def join(items) -> str:
    """A list in the active language: 「a、b」 or "a, b"."""
    return ("、" if _japanese() else ", ").join(str(i) for i in items)


def cards_summary(card_ids) -> str:
    """Cards grouped by month: a whole month as 「松（4枚）」, else the card names."""
    ids = sorted(card_ids)
    parts = []
    for month in range(1, 13):
        held = [c for c in ids if c // 10 == month]
        if len(held) == 4:
            f = FLOWERS[month - 1]
            parts.append(f"{f.name_ja}（4枚）" if _japanese() else f"{f.name_en} (all 4)")
        else:
            parts.extend(card_name(c) for c in held)
    return join(parts)
