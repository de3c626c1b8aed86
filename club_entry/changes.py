"""What a club's save changed, field by field (old → new), players included, for the change log
the organisers read (acceptance findings of issue 20, item 3). Pure over small data: a team's
values before (``snapshot`` of the saved row) and after (``typed``: what the club saves)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournament.engine import names


def _player(name, furigana, grade, leader, substitute) -> dict:
    return {"name": name, "furigana": furigana, "grade": grade, "leader": leader, "substitute": substitute}


def snapshot(team) -> dict | None:
    """A saved team's values (None for a new team): division, name, chaperone, players."""
    if team is None:
        return None
    players = [
        _player(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in team.players.order_by("order", "pk")
    ]
    return {"division": team.division.name, "name": team.name, "chaperone": team.chaperone, "players": players}


def typed(division, name, chaperone, players) -> dict:
    """The values a club saves (``players``: ``registration.PlayerData``), as ``snapshot``."""
    rows = [_player(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in players if p.name.strip()]
    return {"division": division.name, "name": name, "chaperone": chaperone, "players": rows}


def _shown(value) -> str:
    return value or "—"


def _one_player(p) -> str:
    extra = "、".join(x for x in (p["furigana"], p["grade"]) if x)
    mark = ("◎" if p["leader"] else "") + p["name"] + (_("(substitute)") if p["substitute"] else "")
    return f"{mark}（{extra}）" if extra else mark


def _player_changes(before, after) -> list[str]:
    old = {names.name_key(p["name"]): p for p in before}
    new = {names.name_key(p["name"]): p for p in after}
    lines = []
    fields = (("name", _("name")), ("furigana", _("furigana")), ("grade", _("grade")))
    for key, p in new.items():
        if key not in old:
            lines.append(_("player added: %(player)s") % {"player": _one_player(p)})
            continue
        was = old[key]
        for field, label in fields:
            if was[field] != p[field]:
                lines.append(f"{p['name']}: {label} {_shown(was[field])} → {_shown(p[field])}")
        if was["substitute"] != p["substitute"]:
            role = _("substitute") if p["substitute"] else _("regular player")
            lines.append(_("%(player)s is now a %(role)s") % {"player": p["name"], "role": role})
    lines += [_("player removed: %(player)s") % {"player": old[key]["name"]} for key in old if key not in new]
    leaders = [next((p["name"] for p in side if p["leader"]), "") for side in (before, after)]
    if names.name_key(leaders[0]) != names.name_key(leaders[1]):
        lines.append(f"{_('leader')}: {_shown(leaders[0])} → {_shown(leaders[1])}")
    return lines


def describe(before: dict | None, after: dict) -> str:
    """The change log's text: for a new team every player with furigana and grade; for an edit
    each changed field as 「label: old → new」 (division, team name, chaperone, each player's
    name, furigana, grade, substitute, the leader), or 「変更なし」. In: ``snapshot``/``typed``."""
    if before is None:
        return "、".join(_one_player(p) for p in after["players"])
    lines = [
        f"{label}: {_shown(before[field])} → {_shown(after[field])}"
        for field, label in (("division", _("division")), ("name", _("team name")), ("chaperone", _("chaperone")))
        if before[field] != after[field]
    ]
    lines += _player_changes(before["players"], after["players"])
    return "; ".join(lines) or _("no change")
